/* SPDX-License-Identifier: MIT */
/*
 * render/explore.h - the interactive HTML explorer: one self-contained page (data,
 * script and style inlined; no network) to search a call graph, focus a
 * function and see its callers and callees as a graph, and sort and filter
 * the function table. Also shows a call-graph diff (red growth, blue
 * shrinkage).
 */
#ifndef KMAG_EXPLORE_H
#define KMAG_EXPLORE_H

#include <stdbool.h>
#include <stdio.h>

#include "../callgraph.h"
#include "../callsample.h"
#include "../callsites.h"
#include "../cgdiff.h"
#include "../errors.h"
#include "../kmag.h"
#include "../symtab.h"
#include "../trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the page shows; every pointer is borrowed for the duration of the call. */
struct kmag_explore {
	/* A call graph and its names ... */
	const struct kmag_cg *cg;
	const struct kmag_symtab *st;
	/* ... or a diff (then cg and st are not used). */
	const struct kmag_cgdiff *diff;
	const struct kmag_trace_info *info;	/* of the graph (diff: of B) */
	const struct kmag_trace_info *info_a;	/* diff: of A */
	const char *input;			/* trace path (diff: B) */
	const char *input_a;			/* diff: A */
	const char *filters;			/* filters applied, or NULL/"" */
	const char *title;			/* page title; NULL = from the input */
	const char *focus;			/* function shown first; NULL = the busiest */
	/*
	 * Optional source locations, "file:line" or "file" (as
	 * kmag_srcloc_report_cb() gives them), asked with the graph's function
	 * ids (diff: B's ids; srcline_a for functions only A has).
	 */
	const char *(*srcline)(void *ctx, kmag_func_t func);
	void *srcline_ctx;
	const char *(*srcline_a)(void *ctx, kmag_func_t func);
	void *srcline_a_ctx;
	/*
	 * Optional: functions to leave out (the --filter-filepath of the CLI),
	 * with their calls. Asked as above; NULL shows every function.
	 */
	bool (*visible)(void *ctx, kmag_func_t func);
	void *visible_ctx;
	bool (*visible_a)(void *ctx, kmag_func_t func);
	void *visible_a_ctx;
	const char *path_filter;		/* that filter as given, for the page; or NULL */
	/* Optional: hits of dynamic probes on a function (graph pages only). */
	uint64_t (*probe_hits)(void *ctx, kmag_func_t func);
	void *probe_hits_ctx;
	/*
	 * Optional (graph pages only): the Calls view's sampled calls with their
	 * trees, finished (kmag_callsample_finish()), and the trace for the
	 * tasks' names (may be NULL).
	 */
	const struct kmag_callsample *calls;
	const struct kmag_trace *trace;
	/*
	 * Optional (graph pages only): where the trace's errors were born,
	 * finished (kmag_errors_finish()), for the Errors panel and the error
	 * paths marked in the graph; NULL or an analysis without return values
	 * shows neither. errors_types says where the return types came from
	 * ("BTF of FILE"), NULL = unknown.
	 */
	const struct kmag_errors *errors;
	const char *errors_types;
	/*
	 * Optional (graph pages only): call sites (funcgraph-retaddr). @callsites
	 * (fed by the graph's replay) gives each function's "Called from" list:
	 * caller+offset and count per distinct site; @lines (kmag_srclines_open()
	 * of the vmlinux; not const: it caches) adds their source lines, there
	 * and in the Calls view. NULL: neither.
	 */
	const struct kmag_callsites *callsites;
	struct kmag_srclines *lines;
};

/* Writes the page to @out. Returns 0, -ENOMEM or -EIO. */
int kmag_explore_html(FILE *out, const struct kmag_explore *x);

struct kmag_graph_doc;

/*
 * kmag_graph_render_fn for `kmag visualize --image-name x.html`: the page of
 * @doc's whole graph (functions the view hides for its focus, call counts or
 * path filter are left out; pruned ones stay, the page shows them on demand).
 * @format is ignored. Returns 0 or -errno with @err set.
 */
int kmag_render_explorer(const struct kmag_graph_doc *doc, const char *path, const char *format,
			 struct kmag_err *err);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_EXPLORE_H */
