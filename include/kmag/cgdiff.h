/* SPDX-License-Identifier: MIT */
/*
 * cgdiff.h - structural difference of two call graphs (two recordings of
 * the same workload, e.g. before and after a patch): functions and call
 * edges matched by name, with the change of calls and time, and which are
 * new or gone. Renderings: text, JSON and Graphviz DOT.
 *
 * Across kernels a function often changes its name but not its place (Linux
 * 6.1's __fdget_pos is 6.12's fdget_pos). Functions left unmatched by name
 * are paired with their renamed twin by three rules, in this order, each
 * pairing only what is unambiguous (exactly one unmatched function of A and
 * one of B), and only when neither name is in the other trace's symbol
 * table (a trace.dat carries its kernel's kallsyms: a function the other
 * kernel still has was not renamed there, only not called):
 *
 *   1. clone: the names are equal once the suffixes the compilers give a
 *      function's clones and split parts are removed (GCC: .isra.N,
 *      .constprop.N, .part.N, .cold[.N], .lto_priv.N, .localalias; clang:
 *      .llvm.N), e.g. inode_needs_update_time.part.0 and
 *      inode_needs_update_time;
 *   2. noprof: equal once, in addition, a trailing "_noprof" is removed: the
 *      memory allocation profiling of Linux 6.10 (CONFIG_MEM_ALLOC_PROFILING)
 *      made the allocators macros around renamed functions (vma_alloc_folio
 *      became vma_alloc_folio_noprof);
 *   3. prefix: equal once, in addition, a leading "__" is removed from one
 *      of them (__fdget_pos and fdget_pos), and only when the two sit at the
 *      same place in the call graphs: a caller of one in A is matched (by
 *      name or rules 1-2) with a caller of the other in B, or, for two
 *      functions without callers, a callee.
 *
 * A pair is one function with two names (name, name_b) and its rule: its
 * calls and edges are compared as any other function's, never as one added
 * and one removed.
 */
#ifndef KMAG_CGDIFF_H
#define KMAG_CGDIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "callgraph.h"
#include "kmag.h"
#include "symtab.h"
#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

enum kmag_diff_status {
	KMAG_DIFF_SAME = 0,	/* in both, change below the thresholds */
	KMAG_DIFF_GREW,		/* in both, more calls (or time) in B */
	KMAG_DIFF_SHRANK,	/* in both, fewer calls (or less time) in B */
	KMAG_DIFF_ADDED,	/* only in B */
	KMAG_DIFF_REMOVED,	/* only in A */
};

/* "same", "grew", "shrank", "added", "removed"; a static string. */
const char *kmag_diff_status_name(enum kmag_diff_status s);

/* Why a function of A and one of B with different names are one (see above). */
enum kmag_diff_rename {
	KMAG_RENAME_NONE = 0,	/* the same name (or in one graph only) */
	KMAG_RENAME_CLONE,	/* compiler clone suffixes */
	KMAG_RENAME_NOPROF,	/* the _noprof allocator wrappers */
	KMAG_RENAME_PREFIX,	/* a leading "__", at the same place in the call graph */
};

/* "clone", "noprof", "prefix" (NULL for KMAG_RENAME_NONE); a static string. */
const char *kmag_diff_rename_name(enum kmag_diff_rename r);

struct kmag_diff_func {
	const char *name;		/* A's name (B's when only in B); borrowed from the
					   symbol tables */
	const char *name_b;		/* B's name, != name only for a rename; NULL when
					   only in A */
	enum kmag_diff_rename rename;	/* why name and name_b are one function */
	kmag_func_t func_a, func_b;	/* ids in each trace, KMAG_FUNC_NONE when absent */
	long node_a, node_b;		/* node index in each graph, -1 when absent */
	struct kmag_cg_stats a, b;	/* all zero where absent */
	enum kmag_diff_status status;
};

struct kmag_diff_edge {
	uint32_t caller, callee;	/* indexes into kmag_cgdiff_funcs() */
	uint32_t flags;			/* enum kmag_cg_edge_flags of A | B */
	bool in_a, in_b;		/* the edge is in graph A / B */
	struct kmag_cg_stats a, b;	/* all zero where absent */
	enum kmag_diff_status status;
};

struct kmag_diff_opts {
	/*
	 * A call count counts as changed when it moved by at least
	 * calls_min calls and calls_pct percent of the larger count; time (with
	 * durations in both) when it moved by time_min_ns and time_pct percent.
	 * A change in calls decides the direction; time only when calls did not
	 * change.
	 */
	uint64_t calls_min;		/* default 1 */
	double calls_pct;		/* default 10 */
	uint64_t time_min_ns;		/* default 1000 */
	double time_pct;		/* default 25 */
};

/* Fills @o with the defaults above. */
void kmag_diff_opts_init(struct kmag_diff_opts *o);

struct kmag_cgdiff;

/*
 * Compares finished graphs @a and @b (with their symbol tables; all borrowed
 * and used by the result until it is freed). @o may be NULL for defaults.
 * Returns a new diff to free with kmag_cgdiff_free(), or NULL (ENOMEM).
 */
struct kmag_cgdiff *kmag_cgdiff_new(const struct kmag_cg *a, const struct kmag_symtab *sta,
				    const struct kmag_cg *b, const struct kmag_symtab *stb,
				    const struct kmag_diff_opts *o);
void kmag_cgdiff_free(struct kmag_cgdiff *d);

/* Functions (A's in A's node order, then B-only) and edges; borrowed. */
size_t kmag_cgdiff_nr_funcs(const struct kmag_cgdiff *d);
const struct kmag_diff_func *kmag_cgdiff_funcs(const struct kmag_cgdiff *d);
size_t kmag_cgdiff_nr_edges(const struct kmag_cgdiff *d);
const struct kmag_diff_edge *kmag_cgdiff_edges(const struct kmag_cgdiff *d);
/* Index of function @name (A's name, or B's of a rename) in the diff, or -1. */
long kmag_cgdiff_find(const struct kmag_cgdiff *d, const char *name);
/* Number of functions paired by a rename rule. */
size_t kmag_cgdiff_nr_renamed(const struct kmag_cgdiff *d);
/* Both graphs carry durations. */
bool kmag_cgdiff_has_time(const struct kmag_cgdiff *d);
/* Number of functions with status @s. */
size_t kmag_cgdiff_count_funcs(const struct kmag_cgdiff *d, enum kmag_diff_status s);

/*
 * The order renderings list changes in: by size of the change (time when
 * both traces have it, else calls), largest first. Returns a new array of
 * kmag_cgdiff_nr_funcs() (or _nr_edges()) indexes to free(), or NULL.
 */
uint32_t *kmag_cgdiff_sorted_funcs(const struct kmag_cgdiff *d);
uint32_t *kmag_cgdiff_sorted_edges(const struct kmag_cgdiff *d);

/*
 * A function's latency in A and B: the nearest-rank p50 and p99 of its
 * timed calls (kmag_cg_node_dist()), and whether either moved by the
 * diff's time thresholds (time_min_ns and time_pct of the larger).
 */
struct kmag_diff_latency {
	uint64_t p50_a, p50_b, p99_a, p99_b;
	bool changed;
};

/*
 * Fills @l for function @i of the diff; false (@l untouched) when it is not
 * in both graphs or either holds no durations of it.
 */
bool kmag_cgdiff_latency(const struct kmag_cgdiff *d, size_t i, struct kmag_diff_latency *l);
/*
 * The functions whose latency changed, the largest move of p50 or p99
 * first: a new array of *@n function indexes to free(), or NULL (ENOMEM).
 */
uint32_t *kmag_cgdiff_latency_changes(const struct kmag_cgdiff *d, size_t *n);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_CGDIFF_H */
