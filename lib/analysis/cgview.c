// SPDX-License-Identifier: MIT
/*
 * cgview.c - selecting what a call-graph picture shows (see cgview.h): focus,
 * filters, the result with its heat scale and hottest path. Bridges and
 * pruning are in cgview-links.c.
 *
 * Everything works on node indexes of the finished graph and its CSR
 * adjacency; memory is O(nodes + edges + bridges), never per event.
 */
#define PR_DOMAIN "cgview"
#include <math.h>

#include "cgview-internal.h"

/* ---- 1. focus ---- */

/*
 * Breadth-first distances from @starts along calls (or against them when
 * @backward), over the whole graph. @dist must hold n entries.
 */
static int bfs(const struct kmag_cgview *v, const uint32_t *starts, size_t nr_starts,
	       bool backward, uint32_t *dist)
{
	const struct kmag_cg_node *nodes = kmag_cg_nodes(v->cg);
	const struct kmag_cg_edge *edges = kmag_cg_edges(v->cg);
	const uint32_t *adj = backward ? kmag_cg_in_edges(v->cg) : kmag_cg_out_edges(v->cg);
	uint32_t *queue = malloc((v->n + 1) * sizeof(*queue));
	size_t head = 0, tail = 0, i;

	if (!queue)
		return -ENOMEM;
	for (i = 0; i < v->n; i++)
		dist[i] = NONE32;
	for (i = 0; i < nr_starts; i++)
		if (dist[starts[i]] == NONE32) {
			dist[starts[i]] = 0;
			queue[tail++] = starts[i];
		}
	while (head < tail) {
		uint32_t u = queue[head++];
		uint32_t first = backward ? nodes[u].in_first : nodes[u].out_first;
		uint32_t count = backward ? nodes[u].in_count : nodes[u].out_count;
		uint32_t k;

		for (k = 0; k < count; k++) {
			const struct kmag_cg_edge *e = &edges[adj[first + k]];
			uint32_t w = backward ? e->caller : e->callee;

			if (dist[w] == NONE32) {
				dist[w] = dist[u] + 1;
				queue[tail++] = w;
			}
		}
	}
	free(queue);
	return 0;
}

/* True when every caller of cg node @i is @i itself (an entry point of the trace). */
static bool cg_is_entry(const struct kmag_cgview *v, uint32_t i)
{
	const struct kmag_cg_node *nd = &kmag_cg_nodes(v->cg)[i];
	const uint32_t *in = kmag_cg_in_edges(v->cg);
	uint32_t k;

	for (k = 0; k < nd->in_count; k++)
		if (kmag_cg_edges(v->cg)[in[nd->in_first + k]].caller != i)
			return false;
	return true;
}

static int apply_focus(struct kmag_cgview *v)
{
	uint32_t limit = v->opts.depth < 0 ? NONE32 - 1 : (uint32_t)v->opts.depth;
	uint32_t *fwd = NULL, *bwd = NULL, *starts = NULL, start;
	size_t i, nr_starts = 0;
	int ret = -ENOMEM;

	if (v->opts.root < 0 && v->opts.callers < 0 && v->opts.depth < 0)
		return 0;
	fwd = malloc(v->n * sizeof(*fwd));
	bwd = malloc(v->n * sizeof(*bwd));
	starts = malloc(v->n * sizeof(*starts));
	if (!fwd || !bwd || !starts)
		goto out;
	if (v->opts.root >= 0) {
		start = (uint32_t)v->opts.root;
		if (bfs(v, &start, 1, false, fwd))
			goto out;
	} else if (v->opts.callers < 0) {
		/* depth alone: counted from the trace's entry points */
		for (i = 0; i < v->n; i++)
			if (cg_is_entry(v, (uint32_t)i))
				starts[nr_starts++] = (uint32_t)i;
		if (!nr_starts)	/* nothing but cycles: nothing to count from */
			for (i = 0; i < v->n; i++)
				starts[nr_starts++] = (uint32_t)i;
		if (bfs(v, starts, nr_starts, false, fwd))
			goto out;
	}
	if (v->opts.callers >= 0) {
		start = (uint32_t)v->opts.callers;
		if (bfs(v, &start, 1, true, bwd))
			goto out;
	}
	for (i = 0; i < v->n; i++) {
		bool in = true;

		if (v->opts.root >= 0 || v->opts.callers < 0)
			in = fwd[i] <= limit;
		if (v->opts.callers >= 0)
			in = in && bwd[i] <= limit;
		if (!in && !is_focus(v, (uint32_t)i))
			v->hide[i] = KMAG_HIDE_FOCUS;
	}
	ret = 0;
out:
	free(fwd);
	free(bwd);
	free(starts);
	return ret;
}

/* ---- 2. and 3. few calls, path filter ---- */

static void apply_filters(struct kmag_cgview *v)
{
	const struct kmag_cg_node *nodes = kmag_cg_nodes(v->cg);
	size_t i;

	for (i = 0; i < v->n; i++) {
		if (v->hide[i] || is_focus(v, (uint32_t)i))
			continue;
		if (v->opts.hide_calls_upto && nodes[i].st.calls <= v->opts.hide_calls_upto)
			v->hide[i] = KMAG_HIDE_FEW_CALLS;
		else if (v->opts.keep && !v->opts.keep(v->opts.keep_ctx, (uint32_t)i))
			v->hide[i] = KMAG_HIDE_PATH;
	}
}

/* ---- the candidate graph ---- */

static void cgraph_release(struct cgraph *g)
{
	free(g->e);
	free(g->out_first);
	free(g->out);
	free(g->in_first);
	free(g->in);
	memset(g, 0, sizeof(*g));
}

/* Builds both CSR adjacencies over @n nodes. */
static int cgraph_index(struct cgraph *g, size_t n)
{
	uint32_t *pos;
	size_t i;

	free(g->out_first);
	free(g->out);
	free(g->in_first);
	free(g->in);
	g->out_first = calloc(n + 1, sizeof(uint32_t));
	g->in_first = calloc(n + 1, sizeof(uint32_t));
	g->out = malloc((g->nr + 1) * sizeof(uint32_t));
	g->in = malloc((g->nr + 1) * sizeof(uint32_t));
	pos = malloc((n + 1) * sizeof(uint32_t));
	if (!g->out_first || !g->in_first || !g->out || !g->in || !pos) {
		free(pos);
		return -ENOMEM;
	}
	for (i = 0; i < g->nr; i++) {
		g->out_first[g->e[i].from + 1]++;
		g->in_first[g->e[i].to + 1]++;
	}
	for (i = 0; i < n; i++) {
		g->out_first[i + 1] += g->out_first[i];
		g->in_first[i + 1] += g->in_first[i];
	}
	memcpy(pos, g->out_first, n * sizeof(uint32_t));
	for (i = 0; i < g->nr; i++)
		g->out[pos[g->e[i].from]++] = (uint32_t)i;
	memcpy(pos, g->in_first, n * sizeof(uint32_t));
	for (i = 0; i < g->nr; i++)
		g->in[pos[g->e[i].to]++] = (uint32_t)i;
	free(pos);
	return 0;
}

static int add_real_edges(struct kmag_cgview *v, struct cgraph *g)
{
	const struct kmag_cg_edge *edges = kmag_cg_edges(v->cg);
	size_t i, m = kmag_cg_nr_edges(v->cg);

	for (i = 0; i < m; i++) {
		struct cedge ce = {
			.from = edges[i].caller,
			.to = edges[i].callee,
			.weight = kmag_stats_value(&edges[i].st, v->opts.weight),
			.edge = (long)i,
		};

		if (v->hide[ce.from] || v->hide[ce.to])
			continue;
		if (cgraph_add(g, &ce))
			return -ENOMEM;
	}
	return 0;
}

/* ---- the result ---- */

static int cmp_edges(const void *a, const void *b)
{
	const struct kmag_cgview_edge *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->to < y->to ? -1 : x->to > y->to;
}

static double transform(const struct kmag_cgview *v, uint64_t w)
{
	return v->sum.log_scale ? log1p((double)w) : (double)w;
}

double kmag_cgview_heat(const struct kmag_cgview *v, uint64_t weight)
{
	double t;

	if (v->scale_hi <= v->scale_lo)
		return weight ? 1.0 : 0.0;
	t = (transform(v, weight) - v->scale_lo) / (v->scale_hi - v->scale_lo);
	return t < 0 ? 0 : t > 1 ? 1 : t;
}

uint64_t kmag_cgview_weight_at(const struct kmag_cgview *v, double t)
{
	double x = v->scale_lo + t * (v->scale_hi - v->scale_lo);

	if (v->sum.log_scale)
		x = expm1(x);
	return x <= 0 ? 0 : x >= 1.8e19 ? UINT64_MAX : (uint64_t)llround(x);
}

static void set_scale(struct kmag_cgview *v)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	size_t i;

	/* zero weights (e.g. callers never seen called) sit below the scale */
	for (i = 0; i < v->nr_nodes; i++) {
		if (v->nodes[i].weight && v->nodes[i].weight < lo)
			lo = v->nodes[i].weight;
		if (v->nodes[i].weight > hi)
			hi = v->nodes[i].weight;
	}
	if (!hi)
		lo = 0;
	v->sum.weight_min = lo;
	v->sum.weight_max = hi;
	v->sum.log_scale = hi / KMAG_CGVIEW_LOG_SPREAD >= (lo ? lo : 1);
	v->scale_lo = transform(v, lo);
	v->scale_hi = transform(v, hi);
	for (i = 0; i < v->nr_nodes; i++)
		v->nodes[i].heat = kmag_cgview_heat(v, v->nodes[i].weight);
}

/*
 * The weight of view node @i as the start of a path: its own, or for a
 * function the trace never shows called (the function tracer's untraced
 * callers, known only from their callees' parent fields: 0 calls, weight 0)
 * the weight of the visible calls it made, so the hottest path starts where
 * the most traced calls came from, not at whichever weightless caller comes
 * first. @first indexes the view's edges by caller.
 */
static uint64_t start_weight(const struct kmag_cgview *v, const uint32_t *first, size_t i)
{
	uint64_t w = 0;
	uint32_t k;

	if (kmag_cg_nodes(v->cg)[v->nodes[i].node].st.calls)
		return v->nodes[i].weight;
	for (k = first[i]; k < first[i + 1]; k++)
		if (v->edges[k].to != i && w + v->edges[k].weight >= w)
			w += v->edges[k].weight;
	return w;
}

/* The view node having all of @flags that is heaviest as a path's start, or -1. */
static long heaviest(const struct kmag_cgview *v, const uint32_t *first, uint32_t flags)
{
	uint64_t best_w = 0;
	long best = -1;
	size_t i;

	for (i = 0; i < v->nr_nodes; i++) {
		uint64_t w;

		if ((v->nodes[i].flags & flags) != flags)
			continue;
		w = start_weight(v, first, i);
		if (best < 0 || w > best_w) {
			best = (long)i;
			best_w = w;
		}
	}
	return best;
}

/* From the focus root (or the heaviest entry), follow the heaviest call. */
static int mark_hot_path(struct kmag_cgview *v)
{
	uint32_t *first = calloc(v->nr_nodes + 1, sizeof(*first));
	uint8_t *on = calloc(v->nr_nodes + 1, 1);
	long cur = -1;
	size_t i;

	if (!first || !on) {
		free(first);
		free(on);
		return -ENOMEM;
	}
	for (i = 0; i < v->nr_edges; i++)
		first[v->edges[i].from + 1]++;
	for (i = 0; i < v->nr_nodes; i++)
		first[i + 1] += first[i];
	if (v->opts.root >= 0)
		cur = kmag_cgview_find(v, (uint32_t)v->opts.root);
	if (cur < 0)
		cur = heaviest(v, first, KMAG_VIEW_ENTRY);
	if (cur < 0)
		cur = heaviest(v, first, 0);	/* every function is in a cycle */
	v->sum.hot_start = cur;
	while (cur >= 0) {
		long next = -1, via = -1;
		uint32_t k;

		on[cur] = 1;
		v->nodes[cur].flags |= KMAG_VIEW_HOT;
		v->sum.hot_len++;
		for (k = first[cur]; k < first[cur + 1]; k++) {
			const struct kmag_cgview_edge *e = &v->edges[k];

			if (on[e->to])
				continue;
			if (via < 0 || e->weight > v->edges[via].weight ||
			    (e->weight == v->edges[via].weight &&
			     v->nodes[e->to].weight > v->nodes[next].weight)) {
				via = (long)k;
				next = e->to;
			}
		}
		if (via >= 0)
			v->edges[via].flags |= KMAG_VIEW_HOT;
		cur = next;
	}
	free(first);
	free(on);
	return 0;
}

static int build_result(struct kmag_cgview *v, const struct cgraph *g)
{
	const struct kmag_cg_node *nodes = kmag_cg_nodes(v->cg);
	const struct kmag_cg_edge *edges = kmag_cg_edges(v->cg);
	const uint32_t *out = kmag_cg_out_edges(v->cg);
	size_t i;

	v->nodes = calloc(v->n + 1, sizeof(*v->nodes));
	v->edges = calloc(g->nr + 1, sizeof(*v->edges));
	if (!v->nodes || !v->edges)
		return -ENOMEM;
	for (i = 0; i < v->n; i++) {
		struct kmag_cgview_node *vn;
		uint32_t k;

		v->sum.hidden[v->hide[i]]++;
		if (v->hide[i])
			continue;
		v->view_of[i] = (uint32_t)v->nr_nodes;
		vn = &v->nodes[v->nr_nodes++];
		vn->node = (uint32_t)i;
		vn->weight = node_weight(v, (uint32_t)i);
		vn->flags = is_focus(v, (uint32_t)i) ? KMAG_VIEW_FOCUS : 0;
		for (k = 0; k < nodes[i].out_count; k++) {
			uint32_t c = edges[out[nodes[i].out_first + k]].callee;

			if (c != i && v->hide[c]) {
				vn->hidden_callees++;
				vn->pruned_callees += v->hide[c] == KMAG_HIDE_PRUNED;
			}
		}
	}
	for (i = 0; i < v->nr_nodes; i++)
		v->nodes[i].flags |= KMAG_VIEW_ENTRY;
	for (i = 0; i < g->nr; i++) {
		const struct cedge *ce = &g->e[i];
		struct kmag_cgview_edge *e;

		if (v->hide[ce->from] || v->hide[ce->to])
			continue;
		e = &v->edges[v->nr_edges++];
		e->from = v->view_of[ce->from];
		e->to = v->view_of[ce->to];
		e->edge = ce->edge;
		e->weight = ce->weight;
		e->via = ce->via;
		e->via_first = ce->via_first;
		e->flags = ce->edge < 0 ? KMAG_VIEW_BRIDGE : 0;
		if (e->from != e->to)
			v->nodes[e->to].flags &= ~(uint32_t)KMAG_VIEW_ENTRY;
		v->sum.bridges += ce->edge < 0;
	}
	if (v->nr_edges)
		qsort(v->edges, v->nr_edges, sizeof(*v->edges), cmp_edges);
	v->sum.graph_nodes = v->n;
	v->sum.shown_nodes = v->nr_nodes;
	v->sum.shown_edges = v->nr_edges;
	set_scale(v);
	return mark_hot_path(v);
}

struct kmag_cgview *kmag_cgview_new(const struct kmag_cg *cg, const struct kmag_cgview_opts *opts)
{
	struct kmag_cgview *v = calloc(1, sizeof(*v));
	struct cgraph g = { 0 };
	size_t i;

	if (!v) {
		errno = ENOMEM;
		return NULL;
	}
	v->cg = cg;
	v->opts = *opts;
	v->n = kmag_cg_nr_nodes(cg);
	v->sum.hot_start = -1;
	if ((opts->root >= 0 && (size_t)opts->root >= v->n) ||
	    (opts->callers >= 0 && (size_t)opts->callers >= v->n)) {
		free(v);
		errno = EINVAL;
		return NULL;
	}
	v->hide = calloc(v->n + 1, 1);
	v->view_of = malloc((v->n + 1) * sizeof(*v->view_of));
	if (!v->hide || !v->view_of)
		goto fail;
	for (i = 0; i < v->n; i++)
		v->view_of[i] = NONE32;
	if (apply_focus(v))
		goto fail;
	apply_filters(v);
	if (add_real_edges(v, &g) || kmag__cgview_add_bridges(v, &g) || cgraph_index(&g, v->n))
		goto fail;
	if (kmag__cgview_prune(v, &g))
		goto fail;
	if (build_result(v, &g))
		goto fail;
	cgraph_release(&g);
	return v;
fail:
	cgraph_release(&g);
	kmag_cgview_free(v);
	errno = ENOMEM;
	return NULL;
}

void kmag_cgview_free(struct kmag_cgview *v)
{
	if (!v)
		return;
	free(v->hide);
	free(v->view_of);
	free(v->nodes);
	free(v->edges);
	free(v->via);
	free(v);
}

size_t kmag_cgview_nr_nodes(const struct kmag_cgview *v)
{
	return v->nr_nodes;
}

const struct kmag_cgview_node *kmag_cgview_nodes(const struct kmag_cgview *v)
{
	return v->nodes;
}

size_t kmag_cgview_nr_edges(const struct kmag_cgview *v)
{
	return v->nr_edges;
}

const struct kmag_cgview_edge *kmag_cgview_edges(const struct kmag_cgview *v)
{
	return v->edges;
}

const uint32_t *kmag_cgview_via(const struct kmag_cgview *v, const struct kmag_cgview_edge *e)
{
	return e->edge < 0 && e->via ? v->via + e->via_first : NULL;
}

long kmag_cgview_find(const struct kmag_cgview *v, uint32_t node)
{
	return node < v->n && v->view_of[node] != NONE32 ? (long)v->view_of[node] : -1;
}

enum kmag_cgview_hide kmag_cgview_hidden(const struct kmag_cgview *v, uint32_t node)
{
	return node < v->n ? (enum kmag_cgview_hide)v->hide[node] : KMAG_HIDE_FOCUS;
}

const struct kmag_cgview_summary *kmag_cgview_summary(const struct kmag_cgview *v)
{
	return &v->sum;
}

size_t kmag_cgview_top(const struct kmag_cgview *v, uint32_t *out, size_t max)
{
	const struct kmag_cg_node *nodes = kmag_cg_nodes(v->cg);
	struct by_weight *all = malloc((v->n + 1) * sizeof(*all));
	size_t nr = 0, i;

	if (!all)
		return 0;
	for (i = 0; i < v->n; i++)
		if (v->hide[i] == KMAG_HIDE_NONE || v->hide[i] == KMAG_HIDE_PRUNED)
			all[nr++] = (struct by_weight){ (uint32_t)i, node_weight(v, (uint32_t)i),
							nodes[i].st.calls };
	qsort(all, nr, sizeof(*all), kmag__cmp_by_weight);
	if (nr > max)
		nr = max;
	for (i = 0; i < nr; i++)
		out[i] = all[i].node;
	free(all);
	return nr;
}

/* ColorBrewer YlOrRd, 9 classes: light yellow to dark red. */
static const uint8_t ylorrd[9][3] = {
	{ 0xff, 0xff, 0xcc }, { 0xff, 0xed, 0xa0 }, { 0xfe, 0xd9, 0x76 },
	{ 0xfe, 0xb2, 0x4c }, { 0xfd, 0x8d, 0x3c }, { 0xfc, 0x4e, 0x2a },
	{ 0xe3, 0x1a, 0x1c }, { 0xbd, 0x00, 0x26 }, { 0x80, 0x00, 0x26 },
};

bool kmag_heat_rgb(double t, uint8_t rgb[3])
{
	double x;
	int i, k;

	if (!(t >= 0))	/* also NaN */
		t = 0;
	if (t > 1)
		t = 1;
	x = t * 8;
	i = (int)x;
	if (i > 7)
		i = 7;
	x -= i;
	for (k = 0; k < 3; k++)
		rgb[k] = (uint8_t)lround(ylorrd[i][k] + (ylorrd[i + 1][k] - ylorrd[i][k]) * x);
	return t >= 0.68;
}
