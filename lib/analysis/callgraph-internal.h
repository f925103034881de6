/* SPDX-License-Identifier: MIT */
/*
 * callgraph-internal.h - the call graph's state, shared by callgraph.c (built
 * from events) and profile.c (built from known sums: profiles and merges).
 */
#ifndef KMAG_CALLGRAPH_INTERNAL_H
#define KMAG_CALLGRAPH_INTERNAL_H

#include "internal.h"
#include "kmag/callgraph.h"
#include "kmag/dist.h"
#include "util/u64map.h"

#define NONE32 UINT32_MAX

/* A child call recorded under a placeholder frame, attributed once it is named. */
struct pending {
	uint32_t callee;	/* node index */
	uint32_t next;		/* next pending of the same frame, NONE32 = end */
	uint32_t edge_flags;
	struct kmag_cg_stats st;
};

struct kmag_cg {
	struct kmag_cg_opts opts;
	struct kmag_cg_node *nodes;
	size_t nr_nodes, cap_nodes;
	uint32_t *node_of_func;		/* dense: func id -> node index */
	size_t cap_node_of_func;
	struct kmag_cg_edge *edges;
	size_t nr_edges, cap_edges;
	struct u64map edge_index;	/* caller << 32 | callee -> edge */
	struct {
		uint64_t key;		/* caller << 32 | callee, 0 = empty */
		uint32_t edge;
	} ecache[4096];			/* direct-mapped front of edge_index: the hot path */
	uint32_t *out, *in;		/* adjacency, built by finish */

	struct kmag_replay *replay;	/* feeds the graph; owned unless made by kmag_cg_new_on() */
	bool own_replay;

	struct pending *pend;
	size_t nr_pend, cap_pend;
	uint32_t pend_free;		/* free list through next */

	struct kmag_cct_node *cct;
	size_t nr_cct, cap_cct;
	struct u64map cct_index;	/* parent << 32 | func -> cct node */

	struct kmag_cg_event_count *evcounts;
	size_t nr_evcounts, cap_evcounts;
	struct u64map evcount_index;	/* event name pointer -> evcounts index */

	char **owned;			/* event names copied by kmag_cg_add_event_count() */
	size_t nr_owned, cap_owned;

	struct kmag_dist *dists;	/* per node: its timed calls' durations (dist-internal.h) */
	size_t cap_dists;

	struct kmag_cg_summary sum;
	bool finished;
};

static inline void stats_init(struct kmag_cg_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->min_ns = UINT64_MAX;
}

static inline void stats_time(struct kmag_cg_stats *s, uint64_t dur)
{
	s->timed++;
	s->sum_ns += dur;
	if (dur < s->min_ns)
		s->min_ns = dur;
	if (dur > s->max_ns)
		s->max_ns = dur;
}

static inline void stats_merge(struct kmag_cg_stats *d, const struct kmag_cg_stats *s)
{
	d->calls += s->calls;
	d->timed += s->timed;
	d->total_ns += s->total_ns;
	d->sum_ns += s->sum_ns;
	d->self_ns += s->self_ns;
	d->incomplete += s->incomplete;
	if (s->min_ns < d->min_ns)
		d->min_ns = s->min_ns;
	if (s->max_ns > d->max_ns)
		d->max_ns = s->max_ns;
}

/*
 * Adds @n's timed calls (a duration, or all of @src when non-NULL) to node
 * @node's distribution. 0 or -ENOMEM.
 */
int kmag__cg_dist_add(struct kmag_cg *cg, uint32_t node, uint64_t dur,
		      const struct kmag_dist *src);
/* The node of @func, created empty if new; NONE32 when out of memory. */
uint32_t kmag__cg_node_get(struct kmag_cg *cg, kmag_func_t func);
/* The edge caller->callee (node indexes), created empty if new; NONE32 when out of memory. */
uint32_t kmag__cg_edge_get(struct kmag_cg *cg, uint32_t caller, uint32_t callee);

#endif /* KMAG_CALLGRAPH_INTERNAL_H */
