// SPDX-License-Identifier: MIT
/*
 * cgview-links.c - the parts of a call-graph view that keep cut chains
 * visible: bridges through path-hidden functions, and pruning to the heaviest
 * functions along widest paths (see cgview.h).
 */
#define PR_DOMAIN "cgview"
#include "cgview-internal.h"

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

int kmag__cgview_add_bridges(struct kmag_cgview *v, struct cgraph *g)
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

				/* roots keep best == UINT64_MAX; a 0-weight call still links */
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

				if (!done[x] &&
				    (pick < 0 || node_weight(v, x) > node_weight(v, (uint32_t)pick)))
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

int kmag__cmp_by_weight(const void *a, const void *b)
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

/*
 * Selects the functions of each of opts.chains (those left by focus and
 * filters) while the whole chain fits in @room more. Returns the functions
 * selected.
 */
static size_t keep_chains(struct kmag_cgview *v, struct pruning *p, size_t room)
{
	size_t used = 0, c;
	uint32_t k;

	for (c = 0; c < v->opts.nr_chains; c++) {
		const struct kmag_cgview_chain *ch = &v->opts.chains[c];
		size_t need = 0;

		/* a function twice in a chain (recursion) is counted once: marked 2 */
		for (k = 0; k < ch->len; k++) {
			uint32_t x = ch->nodes[k];

			if (x < v->n && !v->hide[x] && !p->sel[x]) {
				p->sel[x] = 2;
				need++;
			}
		}
		for (k = 0; k < ch->len; k++) {
			uint32_t x = ch->nodes[k];

			if (x < v->n && p->sel[x] == 2)
				p->sel[x] = used + need <= room;
		}
		if (used + need <= room)
			used += need;
	}
	return used;
}

/* Counts the chains of which pruning left out a function (after the selection). */
static void count_hidden_chains(struct kmag_cgview *v, const struct pruning *p)
{
	size_t c;
	uint32_t k;

	for (c = 0; c < v->opts.nr_chains; c++) {
		const struct kmag_cgview_chain *ch = &v->opts.chains[c];

		for (k = 0; k < ch->len; k++)
			if (ch->nodes[k] < v->n && !v->hide[ch->nodes[k]] && !p->sel[ch->nodes[k]]) {
				v->sum.chains_hidden++;
				break;
			}
	}
}

int kmag__cgview_prune(struct kmag_cgview *v, struct cgraph *g)
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
			order[alive++] = (struct by_weight){ (uint32_t)i,
							     node_weight(v, (uint32_t)i),
							     nodes[i].st.calls };
	qsort(order, alive, sizeof(*order), kmag__cmp_by_weight);
	for (i = 0; i < v->n; i++)
		if (!v->hide[i] && is_focus(v, (uint32_t)i) && nsel < max) {
			p.sel[i] = 1;
			nsel++;
		}
	nsel += keep_chains(v, &p, max - nsel);
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
	count_hidden_chains(v, &p);
	for (i = 0; i < v->n; i++)
		if (!v->hide[i] && !p.sel[i]) {
			v->hide[i] = KMAG_HIDE_PRUNED;
			v->sum.pruned_weight += node_weight(v, (uint32_t)i);
		}
	for (i = 0; i < v->n; i++)
		if (p.sel[i] && !anchored(v, &p, (uint32_t)i) &&
		    bridge_pruned(v, &p, g, (uint32_t)i))
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
