/* SPDX-License-Identifier: MIT */
/*
 * cgview.h - a view over a finished call graph: which functions and calls to
 * draw, and how hot each one is. Renderer-independent; used by the Graphviz
 * graph, the call-count chart and (later) the HTML explorer.
 *
 * A view starts from every node of a struct kmag_cg and hides functions for
 * one of four reasons, applied in this order:
 *
 *   1. focus (KMAG_HIDE_FOCUS): with opts.root, only what the root calls,
 *      transitively; with opts.callers, only what reaches that function; with
 *      both, only functions on a path from root to callers. opts.depth limits
 *      the number of calls from the focus (from the graph's entry points when
 *      no focus is given). Measured on the whole graph.
 *   2. few calls (KMAG_HIDE_FEW_CALLS): functions called <= opts.hide_calls_upto
 *      times, together with their edges (the seed's --filter-execution-no).
 *   3. path filter (KMAG_HIDE_PATH): functions opts.keep() rejects (source
 *      file outside --filter-filepath). They are hidden, but chains through
 *      them are kept as "bridge" edges: caller ~> callee "via N hidden
 *      functions", N counting the hidden functions on the shortest such chain
 *      (at most KMAG_CGVIEW_MAX_VIA). Reachability in an aggregated graph
 *      overstates real call paths and through hub functions links almost
 *      every pair, so each shown function keeps only its heaviest incoming
 *      and its heaviest outgoing bridge (weight: the smallest call weight
 *      along the chain). Nodes are never invented and bridges never
 *      duplicate a direct edge.
 *   4. pruning (KMAG_HIDE_PRUNED): when more than opts.max_nodes functions are
 *      left, the heaviest ones (opts.weight) are kept, heaviest first, each
 *      together with the chain linking it to an entry point (or the focus)
 *      along its widest-bottleneck path, so kept functions stay connected to
 *      where they were called from. When a heavy function's chain does not
 *      fit, the function is kept alone (with the chain's start if nothing on
 *      it is kept) and linked to its nearest kept ancestor by one bridge.
 *      Pruned functions are not bridged otherwise (that would draw a dashed
 *      edge from every caller to every hot helper); their count per caller is
 *      in struct kmag_cgview_node.pruned_callees.
 *      Before the heaviest, pruning keeps the chains of opts.chains (error
 *      paths: kmag_errors_view_chains()), in their order, each whole (its
 *      functions left by steps 1-3) while it fits in max_nodes; the chains
 *      of which a function was pruned in the end are counted in
 *      summary.chains_hidden, so a picture never cuts one without saying so.
 *
 * The focus functions themselves are never hidden.
 *
 * Finally the view marks the hottest path: from the focus root (or the entry
 * point with the largest weight) it follows the heaviest visible call at each
 * step. Heat maps each node's weight onto 0..1, on a log scale when the
 * weights spread over more than KMAG_CGVIEW_LOG_SPREAD, else linearly.
 */
#ifndef KMAG_CGVIEW_H
#define KMAG_CGVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "callgraph.h"
#include "report.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KMAG_CGVIEW_LOG_SPREAD 50	/* max/min weight ratio from which heat is logarithmic */
#define KMAG_CGVIEW_MAX_VIA 4		/* most hidden functions one bridge stands for */

enum kmag_cgview_hide {
	KMAG_HIDE_NONE = 0,		/* shown */
	KMAG_HIDE_FOCUS,		/* outside --root/--callers/--depth */
	KMAG_HIDE_FEW_CALLS,		/* called <= hide_calls_upto times */
	KMAG_HIDE_PATH,			/* rejected by the path filter (bridged) */
	KMAG_HIDE_PRUNED,		/* cut by max_nodes */
	KMAG_HIDE_NR,
};

/* A chain of functions pruning keeps whole: cg node indexes, caller side first. */
struct kmag_cgview_chain {
	const uint32_t *nodes;
	uint32_t len;
};

struct kmag_cgview_opts {
	enum kmag_sort_key weight;	/* for heat, pruning, hot path: calls, total, self... */
	long root;			/* cg node index, or -1: show what it calls */
	long callers;			/* cg node index, or -1: show what reaches it */
	int depth;			/* calls from the focus (or entry points); < 0: any */
	uint64_t hide_calls_upto;	/* hide functions called <= this often; 0 = none */
	/* path filter: return false to hide cg node @node (bridged); NULL keeps all */
	bool (*keep)(void *ctx, uint32_t node);
	void *keep_ctx;
	size_t max_nodes;		/* 0 = no limit */
	/* chains kept before the heaviest functions (borrowed; see 4.) */
	const struct kmag_cgview_chain *chains;
	size_t nr_chains;
};

enum kmag_cgview_flags {
	KMAG_VIEW_HOT = 1u << 0,	/* on the hottest path */
	KMAG_VIEW_FOCUS = 1u << 1,	/* node: the root or callers function */
	KMAG_VIEW_ENTRY = 1u << 2,	/* node: no visible caller */
	KMAG_VIEW_BRIDGE = 1u << 3,	/* edge: stands for a chain of hidden functions */
};

struct kmag_cgview_node {
	uint32_t node;			/* index into kmag_cg_nodes() */
	uint32_t flags;			/* enum kmag_cgview_flags */
	uint64_t weight;		/* kmag_stats_value(node stats, opts.weight) */
	double heat;			/* 0 (coldest shown) .. 1 (hottest shown) */
	uint32_t hidden_callees;	/* callees of this function not in the view */
	uint32_t pruned_callees;	/* ... of which cut by max_nodes */
};

struct kmag_cgview_edge {
	uint32_t from, to;		/* indexes into kmag_cgview_nodes() */
	uint32_t flags;			/* enum kmag_cgview_flags */
	long edge;			/* index into kmag_cg_edges(), -1 for a bridge */
	uint64_t weight;		/* edge stats value; bridge: the smallest along its chain */
	uint32_t via;			/* bridge: hidden functions on the shortest chain */
	uint32_t via_first;		/* bridge: offset of the chain in kmag_cgview_via() */
};

struct kmag_cgview_summary {
	size_t graph_nodes;		/* functions in the call graph */
	size_t shown_nodes, shown_edges, bridges;
	size_t hidden[KMAG_HIDE_NR];	/* functions hidden, by reason */
	uint64_t pruned_weight;		/* sum of the weights of pruned functions */
	uint64_t weight_min, weight_max;	/* smallest non-zero, largest; shown functions */
	bool log_scale;			/* heat is logarithmic */
	long hot_start;			/* view node starting the hottest path, -1 if none */
	size_t hot_len;			/* nodes on the hottest path */
	size_t chains_hidden;		/* opts.chains pruning cut (they did not fit) */
};

struct kmag_cgview;

/*
 * Builds a view of the finished graph @cg (kmag_cg_finish() called). @cg
 * must outlive the view. Returns a view to free with kmag_cgview_free(), or
 * NULL with errno set (ENOMEM, or EINVAL for a bad root/callers index).
 */
struct kmag_cgview *kmag_cgview_new(const struct kmag_cg *cg, const struct kmag_cgview_opts *opts);
/* Frees @v. Accepts NULL. */
void kmag_cgview_free(struct kmag_cgview *v);

/* Shown functions, in call-graph index order; borrowed, valid until kmag_cgview_free(). */
size_t kmag_cgview_nr_nodes(const struct kmag_cgview *v);
const struct kmag_cgview_node *kmag_cgview_nodes(const struct kmag_cgview *v);
/* Shown calls and bridges, ordered by (from, to); borrowed. */
size_t kmag_cgview_nr_edges(const struct kmag_cgview *v);
const struct kmag_cgview_edge *kmag_cgview_edges(const struct kmag_cgview *v);
/*
 * The hidden chain of a bridge: e->via cg node indexes, caller side first;
 * borrowed. NULL for a real edge.
 */
const uint32_t *kmag_cgview_via(const struct kmag_cgview *v, const struct kmag_cgview_edge *e);

/* View index of cg node @node, or -1 when it is hidden. */
long kmag_cgview_find(const struct kmag_cgview *v, uint32_t node);
/* Why cg node @node is hidden (KMAG_HIDE_NONE when shown). */
enum kmag_cgview_hide kmag_cgview_hidden(const struct kmag_cgview *v, uint32_t node);

/* What the view shows and hides, counted; borrowed, valid until the view is freed. */
const struct kmag_cgview_summary *kmag_cgview_summary(const struct kmag_cgview *v);

/*
 * The up to @max heaviest functions that pass focus and filters (shown or
 * pruned: pruning only thins the picture), heaviest first, ties by more
 * calls. Writes cg node indexes to @out and returns how many.
 */
size_t kmag_cgview_top(const struct kmag_cgview *v, uint32_t *out, size_t max);
/* Heat (0..1) of any weight on this view's scale, e.g. for legends and edges. */
double kmag_cgview_heat(const struct kmag_cgview *v, uint64_t weight);
/* Weight at heat @t (inverse of kmag_cgview_heat), for legend ticks. */
uint64_t kmag_cgview_weight_at(const struct kmag_cgview *v, double t);

/*
 * The heat colour scale shared by every renderer: a sequential yellow ->
 * orange -> red -> dark red ramp (ColorBrewer YlOrRd, perceptually ordered).
 * Writes the colour for @t (clamped to 0..1) to @rgb and returns true when
 * text on it must be light (white) to stay readable.
 */
bool kmag_heat_rgb(double t, uint8_t rgb[3]);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_CGVIEW_H */
