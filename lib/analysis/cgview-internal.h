/* SPDX-License-Identifier: MIT */
/*
 * cgview-internal.h - state shared by cgview.c and cgview-links.c.
 */
#ifndef KMAG_CGVIEW_INTERNAL_H
#define KMAG_CGVIEW_INTERNAL_H

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

struct by_weight {
	uint32_t node;
	uint64_t weight;
	uint64_t calls;
};

static inline uint64_t node_weight(const struct kmag_cgview *v, uint32_t i)
{
	return kmag_stats_value(&kmag_cg_nodes(v->cg)[i].st, v->opts.weight);
}

static inline bool is_focus(const struct kmag_cgview *v, uint32_t i)
{
	return (long)i == v->opts.root || (long)i == v->opts.callers;
}

/* qsort order of struct by_weight: heaviest first, then most calls, then index. */
int kmag__cmp_by_weight(const void *a, const void *b);
/*
 * Appends @e to @g. Returns 0 or -ENOMEM. Inline here, not in cgview.c, so
 * cgview-links.c (which cgview.c calls) does not call back into cgview.c.
 */
static inline int cgraph_add(struct cgraph *g, const struct cedge *e)
{
	if (kmag__grow(&g->e, &g->cap, g->nr + 1, sizeof(*g->e)))
		return -ENOMEM;
	g->e[g->nr++] = *e;
	return 0;
}
/* Adds the path-filter bridges to @g (before its CSR index is built). */
int kmag__cgview_add_bridges(struct kmag_cgview *v, struct cgraph *g);
/* Prunes to opts.max_nodes over the indexed @g; may append bridges to @g. */
int kmag__cgview_prune(struct kmag_cgview *v, struct cgraph *g);

#endif /* KMAG_CGVIEW_INTERNAL_H */
