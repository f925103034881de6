/* SPDX-License-Identifier: MIT */
/*
 * profile.h - call graphs made of sums rather than events: a kmag profile
 * read back (the JSON of `kmag report --format json` or `kmag merge`), and
 * the sum of many graphs (a fleet's recordings) into one.
 *
 * Every aggregate is a sum (calls, timed calls, total and self time,
 * incomplete calls, events), a minimum of minimums or a maximum of maximums,
 * so summing is associative and commutative: merge(merge(A, B), C) equals
 * merge(C, A, B).
 */
#ifndef KMAG_PROFILE_H
#define KMAG_PROFILE_H

#include "callgraph.h"
#include "kmag.h"
#include "symmap.h"
#include "symtab.h"
#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Fills @cg (new, unfinished) from the profile @t was opened on
 * (kmag_trace_info(t)->format == KMAG_INPUT_PROFILE); function ids are those
 * of kmag_trace_symtab(@t), event names are borrowed from @t. Call
 * kmag_cg_finish() after. Returns 0, or -errno with @err set (EINVAL: @t is
 * not a profile).
 */
int kmag_cg_load_profile(struct kmag_cg *cg, const struct kmag_trace *t, struct kmag_err *err);

/*
 * The source files a profile names for its functions ("source" and "module",
 * written where report or merge had a symbol map), as a symbol map for
 * kmag_srcloc_new() with kmag_trace_symtab(@t). Returns a new map to free with
 * kmag_symmap_free(), or NULL with errno ENOENT (@t is no profile or names no
 * file) or ENOMEM.
 */
struct kmag_symmap *kmag_profile_symmap(const struct kmag_trace *t);

/*
 * Adds the finished graph @src (function ids of @src_st) to @dst (unfinished;
 * function ids of @dst_st, where @src's names are interned): functions and
 * edges are matched by name, their statistics summed; event counts and the
 * summary's counts are summed too (event names are copied). Call
 * kmag_cg_finish() on @dst after the last one. Returns 0 or -ENOMEM.
 */
int kmag_cg_merge(struct kmag_cg *dst, struct kmag_symtab *dst_st, const struct kmag_cg *src,
		  const struct kmag_symtab *src_st);

/* The building blocks of both, for graphs made of known sums (not of events). */
/* Adds @st to @func's node (created if new). 0 or -ENOMEM. */
int kmag_cg_add_node_stats(struct kmag_cg *cg, kmag_func_t func, const struct kmag_cg_stats *st);
/* Adds @st (and @flags) to the edge @caller -> @callee (nodes created if new). 0 or -ENOMEM. */
int kmag_cg_add_edge_stats(struct kmag_cg *cg, kmag_func_t caller, kmag_func_t callee,
			   uint32_t flags, const struct kmag_cg_stats *st);
/* Adds @count events named @system:@name (@system may be NULL; both copied). 0 or -ENOMEM. */
int kmag_cg_add_event_count(struct kmag_cg *cg, const char *system, const char *name,
			    uint64_t count);
/* Adds @sum's counts to @cg's summary; has_time and has_stacks are or-ed. */
void kmag_cg_add_summary(struct kmag_cg *cg, const struct kmag_cg_summary *sum);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_PROFILE_H */
