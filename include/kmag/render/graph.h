/* SPDX-License-Identifier: MIT */
/*
 * render/graph.h - the picture of a call-graph view, drawn through Graphviz
 * (in process, libgvc/libcgraph) to a file whose format the caller names
 * ("pdf", "png", "svg", "dot"); the CLI maps file extensions to formats.
 * The chart is in render/chart.h.
 */
#ifndef KMAG_RENDER_GRAPH_H
#define KMAG_RENDER_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../callgraph.h"
#include "../cgview.h"
#include "../errors.h"
#include "../kmag.h"
#include "../report.h"
#include "../symtab.h"
#include "../trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Everything a call-graph picture shows; every pointer is borrowed. */
struct kmag_graph_doc {
	const struct kmag_cg *cg;
	const struct kmag_cgview *view;		/* what to draw */
	const struct kmag_symtab *st;		/* function names */
	const struct kmag_trace_info *info;	/* events, lost events, tracer; may be NULL */
	const char *input;			/* input path, for the title */
	const char *filters;			/* what was filtered, one line; NULL or "" = nothing */
	enum kmag_sort_key heat;		/* the metric the view was weighted by */
	/* source location of a function ("kernel/sched/fair.c:123") or NULL */
	const char *(*srcline)(void *ctx, kmag_func_t func);
	void *srcline_ctx;
	const char *layout;			/* Graphviz engine; NULL: by size */
	/* hits of dynamic probes on a function (kmag record --kprobe next to a
	 * function tracer), drawn as a "probe: N hits" row; may be NULL */
	uint64_t (*probe_hits)(void *ctx, kmag_func_t func);
	void *probe_hits_ctx;
	/* error paths to mark (kmag_errors_path_edge/_origin), finished; may be NULL */
	const struct kmag_errors *errors;
	/* where their return types came from ("BTF of FILE"), NULL = unknown (the HTML page says so) */
	const char *errors_types;
};

/* Writes one picture of @doc to @path in @format. Returns 0 or -errno with @err set. */
typedef int (*kmag_graph_render_fn)(const struct kmag_graph_doc *doc, const char *path,
				    const char *format, struct kmag_err *err);

/*
 * Lays @doc out with Graphviz and writes it as "pdf", "png" or "svg", or
 * writes the un-laid-out graph as DOT text ("dot"). Node and edge names in
 * the output are escaped for the format.
 */
int kmag_render_graphviz(const struct kmag_graph_doc *doc, const char *path, const char *format,
			 struct kmag_err *err);

/* The layout engine kmag picks for @nodes functions: "dot" while it stays fast, else "sfdp". */
const char *kmag_graphviz_layout_for(size_t nodes);
/* Checks that Graphviz knows layout engine @name; 0 or -ENOENT with @err listing the known ones. */
int kmag_graphviz_check_layout(const char *name, struct kmag_err *err);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_RENDER_GRAPH_H */
