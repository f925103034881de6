/* SPDX-License-Identifier: MIT */
/*
 * report.h - tables over a call graph: sorting, lookups, and the text, JSON
 * and CSV renderings used by `kmag report`.
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

/* Value of @key for stats @st (avg = total / timed); 0 where undefined. */
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

/* What a report shows; every pointer is borrowed. */
struct kmag_report {
	const struct kmag_cg *cg;
	const struct kmag_symtab *st;
	const struct kmag_trace_info *info;
	const char *input;		/* path, for the header */
	const char *filters;		/* description of filters applied, or NULL/"" */
	enum kmag_sort_key sort;
	size_t limit;			/* 0 = all */
	long focus;			/* node index for callers/callees tables, -1 = none */
	bool callers;			/* with focus: list callers (else callees) */
	/* optional source locations (symbol map), may be NULL */
	const char *(*srcline)(void *ctx, kmag_func_t func);
	void *srcline_ctx;
	/* optional row filter (e.g. by source path): functions it rejects are not listed */
	bool (*visible)(void *ctx, kmag_func_t func);
	void *visible_ctx;
	/* optional: hits of probes on the function (probes recorded next to a
	 * function tracer), shown as "{probe: N hits}" and "probe_hits"; may be NULL */
	uint64_t (*probe_hits)(void *ctx, kmag_func_t func);
	void *probe_hits_ctx;
};

/* Renders @r as a human-readable table. Returns 0 or -errno (write error). */
int kmag_report_text(FILE *out, const struct kmag_report *r);
/* Renders @r as one JSON object. */
int kmag_report_json(FILE *out, const struct kmag_report *r);
/* Renders the functions table of @r as CSV with a header row. */
int kmag_report_csv(FILE *out, const struct kmag_report *r);

/* Output helpers shared by the renderers: write @s escaped for the format. */
void kmag_fput_json_string(FILE *out, const char *s);
void kmag_fput_csv_field(FILE *out, const char *s);
/* Formats @ns as "12.345 us" style text into @buf; returns @buf. */
char *kmag_format_duration(char *buf, size_t len, uint64_t ns);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_REPORT_H */
