// SPDX-License-Identifier: MIT
/*
 * cgview.c - selecting what a call-graph picture shows (see cgview.h).
 *
 * Everything works on node indexes of the finished graph and its CSR
 * adjacency; memory is O(nodes + edges + bridges), never per event.
 */
#define PR_DOMAIN "cgview"
#include <math.h>

#include "internal.h"
#include "kmag/cgview.h"

#define NONE32 UINT32_MAX

/* An edge of the candidate graph: a real call or a bridge, by cg node index. */
struct cedge {
	uint32_t from, to;
	uint64_t weight;
	long edge;		/* cg edge, -1 for a bridge */
	uint32_t via, via_first;
};

/* Candidate edges with CSR adjacency in both directions. */
struct cgraph {
	struct cedge *e;
	size_t nr, cap;
	uint32_t *out_first, *out;	/* out_first has n + 1 entries */
	uint32_t *in_first, *in;
};

struct kmag_cgview {
	const struct kmag_cg *cg;
	struct kmag_cgview_opts opts;
	size_t n;			/* cg nodes */
	uint8_t *hide;			/* per cg node: enum kmag_cgview_hide */
	uint32_t *view_of;		/* per cg node: view index or NONE32 */
	struct kmag_cgview_node *nodes;
	size_t nr_nodes;
	struct kmag_cgview_edge *edges;
	size_t nr_edges;
	uint32_t *via;			/* bridge chains */
	size_t nr_via, cap_via;
	struct kmag_cgview_summary sum;
	double scale_lo, scale_hi;	/* weight range after the log transform */
};

static const char *const hide_names[KMAG_HIDE_NR] = {
	[KMAG_HIDE_NONE] = "shown",
	[KMAG_HIDE_FOCUS] = "outside the focus",
	[KMAG_HIDE_FEW_CALLS] = "few calls",
	[KMAG_HIDE_PATH] = "path filter",
	[KMAG_HIDE_PRUNED] = "pruned",
};

const char *kmag_cgview_hide_name(enum kmag_cgview_hide why)
{
	return why < KMAG_HIDE_NR ? hide_names[why] : "?";
}

static uint64_t node_weight(const struct kmag_cgview *v, uint32_t i)
{
	return kmag_stats_value(&kmag_cg_nodes(v->cg)[i].st, v->opts.weight);
}

static bool is_focus(const struct kmag_cgview *v, uint32_t i)
{
	return (long)i == v->opts.root || (long)i == v->opts.callers;
}

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

static int cgraph_add(struct cgraph *g, const struct cedge *e)
{
	if (kmag__grow(&g->e, &g->cap, g->nr + 1, sizeof(*g->e)))
		return -ENOMEM;
	g->e[g->nr++] = *e;
	return 0;
}

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

/*
 * Bridges. From each shown function u, a breadth-first search through
 * path-hidden functions (at most KMAG_CGVIEW_MAX_VIA deep) finds the shown
 * functions reachable only through them; the first, shortest chain to each
 * is a candidate u ~> x, weighted by the smallest call weight along it.
 * Reachability in an aggregated call graph overstates real call paths (and
 * through hubs links nearly everything), so only the strongest candidates are
 * kept: each shown function's heaviest incoming and heaviest outgoing one.
 */
struct bridge {
	uint32_t from, to, via, via_first;
	uint64_t weight;
	bool keep;
};

static bool bridge_beats(const struct bridge *a, const struct bridge *b)
{
	if (a->weight != b->weight)
		return a->weight > b->weight;
	if (a->via != b->via)
		return a->via < b->via;
	return a->from != b->from ? a->from < b->from : a->to < b->to;
}

struct bridge_search {
	uint32_t *seen, *found, *prev, *hops, *queue, stamp;
	uint64_t *bott;
	struct bridge *br;
	size_t nr_br, cap_br;
	uint32_t *chains;		/* all candidates' chains */
	size_t nr_chains, cap_chains;
};

static int bridge_candidate(struct bridge_search *bs, uint32_t u, uint32_t h, uint32_t x,
			    uint64_t w)
{
	struct bridge *b;
	uint32_t y, j;

	if (kmag__grow(&bs->br, &bs->cap_br, bs->nr_br + 1, sizeof(*bs->br)) ||
	    kmag__grow(&bs->chains, &bs->cap_chains, bs->nr_chains + bs->hops[h],
		       sizeof(*bs->chains)))
		return -ENOMEM;
	b = &bs->br[bs->nr_br++];
	*b = (struct bridge){ .from = u, .to = x, .via = bs->hops[h], .weight = w,
			      .via_first = (uint32_t)bs->nr_chains };
	for (y = h, j = bs->hops[h]; y != NONE32; y = bs->prev[y])
		bs->chains[bs->nr_chains + --j] = y;	/* caller side first */
	bs->nr_chains += bs->hops[h];
	return 0;
}

static int bridges_from(struct kmag_cgview *v, struct bridge_search *bs, uint32_t u)
{
	const struct kmag_cg_node *nodes = kmag_cg_nodes(v->cg);
	const struct kmag_cg_edge *edges = kmag_cg_edges(v->cg);
	const uint32_t *out = kmag_cg_out_edges(v->cg);
	size_t head = 0, tail = 0;
	uint32_t k;

	bs->stamp++;
	for (k = 0; k < nodes[u].out_count; k++) {
		const struct kmag_cg_edge *e = &edges[out[nodes[u].out_first + k]];
		uint32_t h = e->callee;

		if (v->hide[h] != KMAG_HIDE_PATH || bs->seen[h] == bs->stamp)
			continue;
		bs->seen[h] = bs->stamp;
		bs->prev[h] = NONE32;
		bs->hops[h] = 1;
		bs->bott[h] = kmag_stats_value(&e->st, v->opts.weight);
		bs->queue[tail++] = h;
	}
	while (head < tail) {
		uint32_t h = bs->queue[head++];

		for (k = 0; k < nodes[h].out_count; k++) {
			const struct kmag_cg_edge *e = &edges[out[nodes[h].out_first + k]];
			uint64_t w = kmag_stats_value(&e->st, v->opts.weight);
			uint32_t x = e->callee;

			if (w > bs->bott[h])
				w = bs->bott[h];
			if (v->hide[x] == KMAG_HIDE_PATH) {
				if (bs->seen[x] == bs->stamp || bs->hops[h] >= KMAG_CGVIEW_MAX_VIA)
					continue;
				bs->seen[x] = bs->stamp;
				bs->prev[x] = h;
				bs->hops[x] = bs->hops[h] + 1;
				bs->bott[x] = w;
				bs->queue[tail++] = x;
			} else if (!v->hide[x] && x != u && bs->found[x] != bs->stamp &&
				   kmag_cg_edge_index(v->cg, u, x) < 0) {
				bs->found[x] = bs->stamp;
				if (bridge_candidate(bs, u, h, x, w))
					return -ENOMEM;
			}
		}
	}
	return 0;
}

static int add_bridges(struct kmag_cgview *v, struct cgraph *g)
{
	struct bridge_search bs = { 0 };
	uint32_t *best_in = NULL, *best_out = NULL, u;
	size_t i;
	int ret = -ENOMEM;

	for (i = 0; i < v->n && v->hide[i] != KMAG_HIDE_PATH; i++)
		;
	if (i == v->n)
		return 0;	/* nothing hidden by the path filter */
	bs.seen = calloc(v->n + 1, sizeof(uint32_t));
	bs.found = calloc(v->n + 1, sizeof(uint32_t));
	bs.prev = malloc((v->n + 1) * sizeof(uint32_t));
	bs.hops = malloc((v->n + 1) * sizeof(uint32_t));
	bs.queue = malloc((v->n + 1) * sizeof(uint32_t));
	bs.bott = malloc((v->n + 1) * sizeof(uint64_t));
	best_in = malloc((v->n + 1) * sizeof(uint32_t));
	best_out = malloc((v->n + 1) * sizeof(uint32_t));
	if (!bs.seen || !bs.found || !bs.prev || !bs.hops || !bs.queue || !bs.bott || !best_in ||
	    !best_out)
		goto out;
	for (u = 0; u < v->n; u++)
		if (!v->hide[u] && bridges_from(v, &bs, u))
			goto out;
	for (i = 0; i < v->n; i++)
		best_in[i] = best_out[i] = NONE32;
	for (i = 0; i < bs.nr_br; i++) {
		const struct bridge *b = &bs.br[i];

		if (best_in[b->to] == NONE32 || bridge_beats(b, &bs.br[best_in[b->to]]))
			best_in[b->to] = (uint32_t)i;
		if (best_out[b->from] == NONE32 || bridge_beats(b, &bs.br[best_out[b->from]]))
			best_out[b->from] = (uint32_t)i;
	}
	for (i = 0; i < v->n; i++) {
		if (best_in[i] != NONE32)
			bs.br[best_in[i]].keep = true;
		if (best_out[i] != NONE32)
			bs.br[best_out[i]].keep = true;
	}
	for (i = 0; i < bs.nr_br; i++) {
		const struct bridge *b = &bs.br[i];
		struct cedge ce = { .from = b->from, .to = b->to, .weight = b->weight, .edge = -1,
				    .via = b->via, .via_first = (uint32_t)v->nr_via };

		if (!b->keep)
			continue;
		if (kmag__grow(&v->via, &v->cap_via, v->nr_via + b->via, sizeof(*v->via)) ||
		    cgraph_add(g, &ce))
			goto out;
		memcpy(v->via + v->nr_via, bs.chains + b->via_first, b->via * sizeof(*v->via));
		v->nr_via += b->via;
	}
	ret = 0;
out:
	free(bs.seen);
	free(bs.found);
	free(bs.prev);
	free(bs.hops);
	free(bs.queue);
	free(bs.bott);
	free(bs.br);
	free(bs.chains);
	free(best_in);
	free(best_out);
	return ret;
}

/* ---- 4. pruning ---- */

struct heap_item {
	uint64_t key;
	uint32_t node;
};

static void heap_push(struct heap_item *h, size_t *n, struct heap_item it)
{
	size_t i = (*n)++;

	while (i && h[(i - 1) / 2].key < it.key) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = it;
}

static struct heap_item heap_pop(struct heap_item *h, size_t *n)
{
	struct heap_item top = h[0], last = h[--*n];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= *n)
			break;
		if (c + 1 < *n && h[c + 1].key > h[c].key)
			c++;
		if (h[c].key <= last.key)
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n)
		h[i] = last;
	return top;
}

/*
 * A widest-path tree over the candidate graph: parent[x] is the neighbour
 * through which x is reached from a root with the largest bottleneck weight
 * (towards the roots along calls, or against them when @backward), pedge[x]
 * the candidate edge between them. Nodes not reached from @root get further
 * roots, heaviest first.
 */
static int widest_tree(struct kmag_cgview *v, const struct cgraph *g, long root, bool backward,
		       uint32_t *parent, uint32_t *pedge)
{
	struct heap_item *heap = malloc((g->nr + v->n + 1) * sizeof(*heap));
	uint64_t *best = malloc((v->n + 1) * sizeof(*best));
	uint8_t *done = calloc(v->n + 1, 1);
	uint32_t *order = NULL;
	size_t nh = 0, i, nr_order = 0;
	int ret = -ENOMEM;

	if (!heap || !best || !done)
		goto out;
	for (i = 0; i < v->n; i++) {
		parent[i] = NONE32;
		best[i] = 0;
	}
	if (root >= 0) {
		best[root] = UINT64_MAX;
		heap_push(heap, &nh, (struct heap_item){ UINT64_MAX, (uint32_t)root });
	} else {
		/* entry points of the candidate graph (no caller but itself) */
		for (i = 0; i < v->n; i++) {
			uint32_t k;
			bool entry = true;

			if (v->hide[i])
				continue;
			for (k = g->in_first[i]; k < g->in_first[i + 1] && entry; k++)
				entry = g->e[g->in[k]].from == i;
			if (entry) {
				best[i] = UINT64_MAX;
				heap_push(heap, &nh, (struct heap_item){ UINT64_MAX, (uint32_t)i });
			}
		}
	}
	order = malloc((v->n + 1) * sizeof(*order));
	if (!order)
		goto out;
	for (;;) {
		while (nh) {
			struct heap_item it = heap_pop(heap, &nh);
			uint32_t u = it.node, k, lo, hi;

			if (done[u])
				continue;
			done[u] = 1;
			lo = backward ? g->in_first[u] : g->out_first[u];
			hi = backward ? g->in_first[u + 1] : g->out_first[u + 1];
			for (k = lo; k < hi; k++) {
				uint32_t ei = backward ? g->in[k] : g->out[k];
				const struct cedge *e = &g->e[ei];
				uint32_t x = backward ? e->from : e->to;
				uint64_t b = e->weight < best[u] ? e->weight : best[u];

				/* roots keep best == UINT64_MAX; a zero-weight call still connects */
				if (done[x] || best[x] == UINT64_MAX ||
				    (parent[x] != NONE32 && best[x] >= b))
					continue;
				best[x] = b;
				parent[x] = u;
				pedge[x] = ei;
				heap_push(heap, &nh, (struct heap_item){ b, x });
			}
		}
		/* unreached candidates: the heaviest becomes a further root */
		if (!nr_order) {
			for (i = 0; i < v->n; i++)
				if (!v->hide[i])
					order[nr_order++] = (uint32_t)i;
		}
		{
			long pick = -1;

			for (i = 0; i < nr_order; i++) {
				uint32_t x = order[i];

				if (!done[x] && (pick < 0 || node_weight(v, x) > node_weight(v, (uint32_t)pick)))
					pick = x;
			}
			if (pick < 0)
				break;
			parent[pick] = NONE32;
			best[pick] = UINT64_MAX;
			heap_push(heap, &nh, (struct heap_item){ UINT64_MAX, (uint32_t)pick });
		}
	}
	ret = 0;
out:
	free(heap);
	free(best);
	free(done);
	free(order);
	return ret;
}

struct by_weight {
	uint32_t node;
	uint64_t weight;
	uint64_t calls;
};

static int cmp_by_weight(const void *a, const void *b)
{
	const struct by_weight *x = a, *y = b;

	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

struct pruning {
	const struct cgraph *g;
	uint32_t *parent, *pedge, *chain;
	uint8_t *sel;
	bool backward;		/* the tree runs against the calls (--callers only) */
};

/* Does kept function @x still have a kept caller (a kept callee when backward)? */
static bool anchored(const struct kmag_cgview *v, const struct pruning *p, uint32_t x)
{
	const struct cgraph *g = p->g;
	uint32_t k, lo = p->backward ? g->out_first[x] : g->in_first[x];
	uint32_t hi = p->backward ? g->out_first[x + 1] : g->in_first[x + 1];

	(void)v;
	for (k = lo; k < hi; k++) {
		const struct cedge *e = &g->e[p->backward ? g->out[k] : g->in[k]];
		uint32_t y = p->backward ? e->to : e->from;

		if (y != x && p->sel[y])
			return true;
	}
	return false;
}

/*
 * Links kept function @x, whose widest path was cut by pruning, to its nearest
 * kept ancestor with one bridge standing for everything in between.
 */
static int bridge_pruned(struct kmag_cgview *v, struct pruning *p, struct cgraph *g, uint32_t x)
{
	uint64_t w = UINT64_MAX;
	size_t len = 0, k;
	uint32_t y = x, a;
	struct cedge ce;

	for (;;) {
		const struct cedge *e;

		if (p->parent[y] == NONE32)
			return 0;	/* no kept ancestor: nothing to link to */
		e = &g->e[p->pedge[y]];
		if (e->weight < w)
			w = e->weight;
		/* the hidden functions of a path-filter bridge on the way */
		for (k = e->via; k-- > 0;)
			p->chain[len++] = v->via[e->via_first + k];
		y = p->parent[y];
		if (p->sel[y])
			break;
		p->chain[len++] = y;
	}
	a = y;
	ce = (struct cedge){ .from = p->backward ? x : a, .to = p->backward ? a : x, .weight = w,
			     .edge = -1, .via = (uint32_t)len, .via_first = (uint32_t)v->nr_via };
	if (kmag__grow(&v->via, &v->cap_via, v->nr_via + len, sizeof(*v->via)))
		return -ENOMEM;
	/* collected from x's side upwards; a chain is listed caller side first */
	for (k = 0; k < len; k++)
		v->via[v->nr_via + k] = p->chain[p->backward ? k : len - 1 - k];
	v->nr_via += len;
	return cgraph_add(g, &ce);
}

static int prune(struct kmag_cgview *v, struct cgraph *g)
{
	const struct kmag_cg_node *nodes = kmag_cg_nodes(v->cg);
	size_t alive = 0, nsel = 0, i, max = v->opts.max_nodes;
	struct pruning p = { .g = g, .backward = v->opts.root < 0 && v->opts.callers >= 0 };
	struct by_weight *order = NULL;
	int ret = -ENOMEM;

	for (i = 0; i < v->n; i++)
		alive += !v->hide[i];
	if (!max || alive <= max)
		return 0;
	order = malloc(alive * sizeof(*order));
	p.parent = malloc((v->n + 1) * sizeof(uint32_t));
	p.pedge = malloc((v->n + 1) * sizeof(uint32_t));
	/* a chain holds tree nodes plus the hidden functions of path-filter bridges */
	p.chain = malloc((v->n * (KMAG_CGVIEW_MAX_VIA + 1) + 1) * sizeof(uint32_t));
	p.sel = calloc(v->n + 1, 1);
	if (!order || !p.parent || !p.pedge || !p.chain || !p.sel)
		goto out;
	if (widest_tree(v, g, v->opts.root >= 0 ? v->opts.root : v->opts.callers, p.backward,
			p.parent, p.pedge))
		goto out;
	for (i = 0, alive = 0; i < v->n; i++)
		if (!v->hide[i])
			order[alive++] = (struct by_weight){ (uint32_t)i, node_weight(v, (uint32_t)i),
							     nodes[i].st.calls };
	qsort(order, alive, sizeof(*order), cmp_by_weight);
	for (i = 0; i < v->n; i++)
		if (!v->hide[i] && is_focus(v, (uint32_t)i) && nsel < max) {
			p.sel[i] = 1;
			nsel++;
		}
	for (i = 0; i < alive && nsel < max; i++) {
		uint32_t x = order[i].node, top;
		size_t len = 0, k, need;

		/* the function and the part of its widest path not yet kept */
		for (; x != NONE32 && !p.sel[x] && len < v->n; x = p.parent[x])
			p.chain[len++] = x;
		if (!len)
			continue;
		if (nsel + len <= max) {
			for (k = 0; k < len; k++)
				p.sel[p.chain[k]] = 1;
			nsel += len;
			continue;
		}
		/*
		 * The whole path does not fit: keep the function, and the path's
		 * start when nothing on it is kept yet, so a bridge can link them.
		 */
		top = p.chain[len - 1];
		need = x == NONE32 && len > 1 ? 2 : 1;
		if (nsel + need > max)
			continue;
		p.sel[p.chain[0]] = 1;
		if (need == 2)
			p.sel[top] = 1;
		nsel += need;
	}
	for (i = 0; i < v->n; i++)
		if (!v->hide[i] && !p.sel[i]) {
			v->hide[i] = KMAG_HIDE_PRUNED;
			v->sum.pruned_weight += node_weight(v, (uint32_t)i);
		}
	for (i = 0; i < v->n; i++)
		if (p.sel[i] && !anchored(v, &p, (uint32_t)i) && bridge_pruned(v, &p, g, (uint32_t)i))
			goto out;
	ret = 0;
out:
	free(order);
	free(p.parent);
	free(p.pedge);
	free(p.chain);
	free(p.sel);
	return ret;
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

/* The heaviest view node having all of @flags, or -1. */
static long heaviest(const struct kmag_cgview *v, uint32_t flags)
{
	long best = -1;
	size_t i;

	for (i = 0; i < v->nr_nodes; i++)
		if ((v->nodes[i].flags & flags) == flags &&
		    (best < 0 || v->nodes[i].weight > v->nodes[best].weight))
			best = (long)i;
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
		cur = heaviest(v, KMAG_VIEW_ENTRY);
	if (cur < 0)
		cur = heaviest(v, 0);	/* every function is in a cycle */
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
	if (add_real_edges(v, &g) || add_bridges(v, &g) || cgraph_index(&g, v->n))
		goto fail;
	if (prune(v, &g))
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
	qsort(all, nr, sizeof(*all), cmp_by_weight);
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
