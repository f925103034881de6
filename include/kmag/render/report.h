/* SPDX-License-Identifier: MIT */
/*
 * render/report.h - the tables of `kmag report` as text, JSON and CSV.
 * Implemented in libkmag-render (render/).
 */
#ifndef KMAG_RENDER_REPORT_H
#define KMAG_RENDER_REPORT_H

#include <stdio.h>

#include "../callgraph.h"
#include "../report.h"
#include "../symtab.h"
#include "../trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a report shows; every pointer is borrowed. */
struct kmag_report {
	const struct kmag_cg *cg;
	const struct kmag_symtab *st;
	const struct kmag_trace_info *info;
	const char *input;		/* path, for the header */
	const char *filters;		/* description of filters applied, or NULL/"" */
	const char *times;		/* kmag_session_times(): the tracer's cost taken off, or NULL/"" */
	uint64_t tracer_cost_ns;	/* kmag_session_tracer_cost(), 0: the kernel's times */
	enum kmag_sort_key sort;
	size_t limit;			/* 0 = all */
	long focus;			/* node index for callers/callees tables, -1 = none */
	bool callers;			/* with focus: list callers (else callees) */
	/* optional source locations (symbol map), may be NULL */
	const char *(*srcline)(void *ctx, kmag_func_t func);
	void *srcline_ctx;
	/* optional (--callers with a vmlinux): the source lines @callee was called
	 * from in @caller, "fs/read_write.c:738 x9, ..." in @buf, or NULL; shown as
	 * "called from ..." and the edges' "call_sites"; may be NULL */
	const char *(*call_sites)(void *ctx, kmag_func_t caller, kmag_func_t callee, char *buf,
				  size_t size);
	void *call_sites_ctx;
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

#ifdef __cplusplus
}
#endif

#endif /* KMAG_RENDER_REPORT_H */
