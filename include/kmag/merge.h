/* SPDX-License-Identifier: MIT */
/*
 * merge.h - the sum of many recordings' profiles into one (kmag merge): each
 * input is read through a session (a trace, the JSON of `kmag report
 * --format json --limit 0`, an earlier merge) and added; the result is a
 * profile of sums (profile.h: associative and commutative) with the
 * recordings it sums, the source files the inputs named, and the kernel they
 * share.
 *
 *	struct kmag_merge *m = kmag_merge_new();
 *	for each input: read a session with views.graph and symbols, then
 *		kmag_merge_add(m, s, path, &err); kmag_session_free(s);
 *	kmag_merge_finish(m, &err);
 *	... kmag_merge_graph(m), kmag_merge_symtab(m), kmag_merge_info(m) ...
 *	kmag_merge_free(m);
 */
#ifndef KMAG_MERGE_H
#define KMAG_MERGE_H

#include <stdbool.h>
#include <stddef.h>

#include "callgraph.h"
#include "kmag.h"
#include "symtab.h"
#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kmag_merge;
struct kmag_session;
struct kmag_srcloc;

/* An empty sum, to free with kmag_merge_free(); NULL on ENOMEM. */
struct kmag_merge *kmag_merge_new(void);
void kmag_merge_free(struct kmag_merge *m);

/*
 * Adds what the session @s read from @path (read with views.graph): its
 * sums, the source files its symbol map or profile names for functions no
 * earlier input named, and its recordings (a profile's own list, else @path
 * as one). @s is only read; free it after. Returns 0, or -errno with @err
 * set: EINVAL when @s was recorded with another tracer than the earlier
 * inputs (function and function_graph sums do not mix), ENOMEM.
 */
int kmag_merge_add(struct kmag_merge *m, const struct kmag_session *s, const char *path,
		   struct kmag_err *err);

/* Finishes the sums after the last kmag_merge_add(). 0, or -ENOMEM with @err set. */
int kmag_merge_finish(struct kmag_merge *m, struct kmag_err *err);

/* ---- the merged profile, after kmag_merge_finish(); borrowed until kmag_merge_free() ---- */
const struct kmag_cg *kmag_merge_graph(const struct kmag_merge *m);
const struct kmag_symtab *kmag_merge_symtab(const struct kmag_merge *m);
/*
 * What was summed: a profile (no times: clocks of different machines do not
 * compare), its tracer, events and losses, its recordings; uname is theirs
 * when no two name different kernel releases (an input that names none, a
 * text trace, differs from none: kmag_uname_differ(), as diff decides), else
 * NULL (kmag_merge_kernels()); NULL too when none names one.
 */
const struct kmag_trace_info *kmag_merge_info(const struct kmag_merge *m);
/* The source files the inputs named (for a report's srcline hook), or NULL. */
struct kmag_srcloc *kmag_merge_srcloc(const struct kmag_merge *m);
/*
 * When two recordings name different kernel releases (kmag_uname_differ():
 * one that names none differs from none): true, and @buf holds each release
 * with its inputs, "6.1.0-56 (a.json, b.dat); 6.19.0 (c.dat); unknown
 * (d.txt)" (cut to @size); else false.
 */
bool kmag_merge_kernels(const struct kmag_merge *m, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_MERGE_H */
