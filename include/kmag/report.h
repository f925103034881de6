/* SPDX-License-Identifier: MIT */
/*
 * report.h - tables over a call graph: sort keys, sorting and lookups (the
 * renderings are in render/report.h).
 */
#ifndef KMAG_REPORT_H
#define KMAG_REPORT_H

#include <stdio.h>

#include "callgraph.h"
#include "kmag.h"
#include "symtab.h"
#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

enum kmag_sort_key {
	KMAG_SORT_CALLS = 0,
	KMAG_SORT_TOTAL,
	KMAG_SORT_SELF,
	KMAG_SORT_AVG,
	KMAG_SORT_MAX,
	KMAG_SORT_MIN,
	KMAG_SORT_INCOMPLETE,
	KMAG_SORT_NAME,
};

/* Parses "calls", "total", "self", "avg", "max", "min", "incomplete", "name". */
int kmag_sort_key_parse(const char *s, enum kmag_sort_key *out);
/* The accepted names, comma separated; a static string. */
const char *kmag_sort_key_names(void);

/*
 * Value of @key for stats @st (avg: the mean of the timed calls, recursive
 * ones included, sum_ns / timed; total counts a recursion's outermost call
 * only); 0 where undefined.
 */
uint64_t kmag_stats_value(const struct kmag_cg_stats *st, enum kmag_sort_key key);

/*
 * Node indexes of @cg sorted by @key, descending (ascending for name), ties by
 * name. Returns a new array of kmag_cg_nr_nodes() entries (free() it), or NULL.
 */
uint32_t *kmag_cg_sorted_nodes(const struct kmag_cg *cg, const struct kmag_symtab *st,
			       enum kmag_sort_key key);

/*
 * Finds the node for a function name typed by a user: exact match first, then
 * a unique GCC clone ("name.isra.0", "name.cold"). Returns the node index or -1;
 * on -1, @suggest (if non-NULL, of @suggest_len bytes) receives close names.
 */
long kmag_cg_find_name(const struct kmag_cg *cg, const struct kmag_symtab *st, const char *name,
		       char *suggest, size_t suggest_len);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_REPORT_H */
