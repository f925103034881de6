/* SPDX-License-Identifier: MIT */
/*
 * callgraph.h - the call-graph model built from a stream of events.
 *
 * Function tracer events give caller->callee edges and call counts.
 * function_graph events are replayed on per-task stacks, so edges are true
 * call chains and every node and edge gets calls, total (inclusive) time,
 * self time, min and max. Memory grows with distinct functions and edges
 * (and, with build_cct, distinct call paths), never with the event count.
 *
 * Calls the trace does not show whole (entry or exit missing because the
 * trace started or stopped mid-call, or events were lost) are counted as
 * incomplete; their time is not guessed.
 */
#ifndef KMAG_CALLGRAPH_H
#define KMAG_CALLGRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dist.h"
#include "event.h"
#include "replay.h"
#include "symtab.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kmag_cg_stats {
	uint64_t calls;		/* times called, complete or not */
	uint64_t timed;		/* calls whose duration is known */
	uint64_t total_ns;	/* inclusive time of timed calls (outermost activation only
				   for recursion, so time is not counted twice) */
	uint64_t self_ns;	/* total_ns minus time spent in traced callees */
	uint64_t min_ns;	/* shortest timed call (UINT64_MAX when timed == 0) */
	uint64_t max_ns;	/* longest timed call */
	uint64_t incomplete;	/* calls missing their entry, exit or caller */
	uint64_t sum_ns;	/* durations of all timed calls, recursive ones included:
				   the mean call (Avg) is sum_ns / timed */
};

enum kmag_cg_edge_flags {
	KMAG_EDGE_IRQ = 1u << 0,	/* callee ran in interrupt context entered from caller */
};

struct kmag_cg_node {
	kmag_func_t func;	/* symtab id */
	struct kmag_cg_stats st;
	/* After kmag_cg_finish(): */
	uint32_t out_first, out_count;	/* range in kmag_cg_out_edges() */
	uint32_t in_first, in_count;	/* range in kmag_cg_in_edges() */
};

struct kmag_cg_edge {
	uint32_t caller;	/* node index */
	uint32_t callee;	/* node index */
	uint32_t flags;		/* enum kmag_cg_edge_flags */
	struct kmag_cg_stats st;	/* the callee's calls made from this caller */
};

/* A node of the calling-context tree: one distinct call path. Index 0 is the root. */
struct kmag_cct_node {
	kmag_func_t func;	/* KMAG_FUNC_NONE for the root */
	uint32_t parent;	/* index of the parent path, 0 for top-level frames */
	uint32_t first_child;	/* 0 = none */
	uint32_t next_sibling;	/* 0 = none */
	struct kmag_cg_stats st;
};

struct kmag_cg_summary {
	uint64_t events;		/* events fed in */
	uint64_t func_events;		/* FUNC + GRAPH_* events */
	uint64_t lost_markers;		/* LOST events seen */
	uint64_t incomplete_calls;	/* sum of incomplete over nodes */
	uint64_t unmatched_exits;	/* exits whose entry was never seen */
	uint64_t unfinished_entries;	/* entries still open at the end or dropped on loss */
	uint64_t tasks;			/* distinct stacks replayed */
	uint64_t other_events;		/* events that are not function calls */
	bool has_time;			/* durations known (function_graph) */
	bool has_stacks;		/* true call chains (function_graph) */
};

struct kmag_cg_opts {
	bool build_cct;		/* also build the calling-context tree (flame graphs) */
	/*
	 * Positive: count only the calls that returned -errnum (their return
	 * value as the kernel's funcgraph-retval prints it, kmag_call_errno()),
	 * and an edge only where such a call's caller returned it too (the
	 * error passed up); self time stays the call's own (its duration less
	 * all the calls it made). No calling-context tree. 0: every call.
	 */
	int errnum;
	uint64_t tracer_cost_ns;	/* its own replay's kmag_replay_set_cost(); 0: none */
	/*
	 * Also keep each function's durations (kmag_cg_node_dist(): percentiles,
	 * histograms). Off, a reading that shows none does not pay for them.
	 */
	bool durations;
};

struct kmag_cg;

/* Returns a new empty graph (opts may be NULL); free with kmag_cg_free(). */
struct kmag_cg *kmag_cg_new(const struct kmag_cg_opts *opts);
/*
 * Returns a new empty graph fed by @r (borrowed; it must outlive the graph):
 * the graph subscribes to @r as every view does, before @r's first event, and
 * counts the calls @r delivers. @r's owner feeds it and finishes it
 * (kmag_replay_finish()) before kmag_cg_finish(). Free with kmag_cg_free().
 * NULL on ENOMEM, or with events already fed to @r.
 */
struct kmag_cg *kmag_cg_new_on(struct kmag_replay *r, const struct kmag_cg_opts *opts);
/* Frees @cg (and its replay, unless it was made by kmag_cg_new_on()). Accepts NULL. */
void kmag_cg_free(struct kmag_cg *cg);

/*
 * Feeds one event to the graph's replay (replay.h). Returns 0, -ENOMEM, or
 * the error of another subscriber. Events must arrive in time order per task.
 */
int kmag_cg_add(struct kmag_cg *cg, const struct kmag_event *ev);
/*
 * The replay that feeds @cg (borrowed; owned by @cg unless it was made by
 * kmag_cg_new_on()): other views subscribe to it before the first event, so
 * they see exactly the graph's calls. kmag_cg_finish() finishes one it owns.
 */
struct kmag_replay *kmag_cg_replay(struct kmag_cg *cg);
/* kmag_event_fn adapter: @ctx is the struct kmag_cg *. */
int kmag_cg_event_fn(const struct kmag_event *ev, void *ctx);

/*
 * Closes all open frames (counted incomplete) and builds the adjacency
 * lists. Call once after the last event. Returns 0 or -ENOMEM.
 */
int kmag_cg_finish(struct kmag_cg *cg);

/*
 * A new graph of only the calls made under @root, directly or not, and of
 * @root's own calls, with the numbers of those calls: from the calling-
 * context tree of @cg (finished, built with opts.build_cct), so a function
 * that also runs elsewhere counts only its calls under @root. Free with
 * kmag_cg_free(). NULL with errno EINVAL (no tree) or ENOMEM.
 */
struct kmag_cg *kmag_cg_new_scoped(const struct kmag_cg *cg, kmag_func_t root);

/* How many functions (nodes) and call edges the graph has. */
size_t kmag_cg_nr_nodes(const struct kmag_cg *cg);
/* Node array (index = node index); borrowed, valid until the next kmag_cg_add or free. */
const struct kmag_cg_node *kmag_cg_nodes(const struct kmag_cg *cg);
size_t kmag_cg_nr_edges(const struct kmag_cg *cg);
const struct kmag_cg_edge *kmag_cg_edges(const struct kmag_cg *cg);
/* Edge indexes grouped by caller / by callee (after finish); see node out_/in_ ranges. */
const uint32_t *kmag_cg_out_edges(const struct kmag_cg *cg);
const uint32_t *kmag_cg_in_edges(const struct kmag_cg *cg);
/* Node index of @func, or -1 when the graph never saw it. */
long kmag_cg_node_index(const struct kmag_cg *cg, kmag_func_t func);
/* Edge index of caller->callee (node indexes), or -1. */
long kmag_cg_edge_index(const struct kmag_cg *cg, uint32_t caller, uint32_t callee);
const struct kmag_cg_summary *kmag_cg_summary(const struct kmag_cg *cg);
/*
 * The durations of node @i's timed calls (every call whose duration is known,
 * a recursion's inner calls too: the calls its Avg, min and max are taken
 * over) as a distribution (dist.h), ready to read after kmag_cg_finish();
 * borrowed, valid until kmag_cg_free(). NULL when the graph holds no
 * durations for all of them: made without opts.durations, no timed call, or
 * sums without durations (a profile read back, a scoped graph, a merge with
 * one of those).
 */
const struct kmag_dist *kmag_cg_node_dist(const struct kmag_cg *cg, size_t i);

/* Other (non-function) events seen, counted per event name. */
struct kmag_cg_event_count {
	const char *system;	/* "sched", or NULL when the input does not say */
	const char *name;	/* "sched_switch"; borrowed from the trace */
	uint64_t count;
};
size_t kmag_cg_nr_event_counts(const struct kmag_cg *cg);
/* Borrowed array in first-seen order, valid until the trace is closed. */
const struct kmag_cg_event_count *kmag_cg_event_counts(const struct kmag_cg *cg);

/* Calling-context tree (only with opts.build_cct; otherwise count 0). */
size_t kmag_cg_nr_cct(const struct kmag_cg *cg);
const struct kmag_cct_node *kmag_cg_cct(const struct kmag_cg *cg);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_CALLGRAPH_H */
