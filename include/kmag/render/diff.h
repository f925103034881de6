/* SPDX-License-Identifier: MIT */
/*
 * render/diff.h - a call-graph diff as text, JSON and DOT (`kmag diff`).
 * Implemented in libkmag-render (render/).
 */
#ifndef KMAG_RENDER_DIFF_H
#define KMAG_RENDER_DIFF_H

#include <stdio.h>

#include "../cgdiff.h"
#include "../trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a diff rendering shows; every pointer is borrowed. */
struct kmag_diff_report {
	const struct kmag_cgdiff *diff;
	const char *input_a, *input_b;
	const struct kmag_trace_info *info_a, *info_b;
	const char *filters;		/* description of the filters applied to both */
	/*
	 * The tracer's cost taken off the times (kmag_session_times()), A's
	 * and B's when they differ, or NULL/"" (the kernel's times)
	 */
	const char *times;
	size_t limit;			/* per section in text; 0 = all */
	bool all;			/* DOT: also unchanged functions and edges */
	bool colour;			/* text: ANSI colours, red for growth, blue for shrinkage */
	/*
	 * Optional: functions to leave out with their edges (a source path
	 * filter), asked with B's function ids, and A's for functions only A has.
	 */
	bool (*visible)(void *ctx, kmag_func_t func);
	void *visible_ctx;
	bool (*visible_a)(void *ctx, kmag_func_t func);
	void *visible_a_ctx;
	const char *path_filter;	/* that filter as given, for the header; or NULL */
};

/* Text report of the changes. Returns 0 or -errno. */
int kmag_diff_text(FILE *out, const struct kmag_diff_report *r);
/* Every function and edge of both graphs with its status, as one JSON object. */
int kmag_diff_json(FILE *out, const struct kmag_diff_report *r);
/*
 * The changed part of the graph (changed functions and edges, with their
 * endpoints; everything with r->all) as Graphviz DOT: growth red, shrinkage
 * blue, added bold, removed dashed. -ENOTSUP in a build without Graphviz.
 */
int kmag_diff_dot(FILE *out, const struct kmag_diff_report *r);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_RENDER_DIFF_H */
