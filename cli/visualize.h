/* SPDX-License-Identifier: MIT */
/*
 * visualize.h - pieces of `kmag visualize` shared between its CLI files.
 */
#ifndef KMAG_CLI_VISUALIZE_H
#define KMAG_CLI_VISUALIZE_H

#include "cli.h"
#include "kmag/symmap.h"

/*
 * Source files of the graph's functions (through the session's symbol map)
 * and the path-filter predicate for the graph view.
 */
struct vis_sources {
	const struct kmag_cg *cg;
	struct kmag_srcloc *loc;		/* borrowed from the session, or NULL */
	const struct kmag_pathfilter *filter;	/* borrowed, or NULL */
	size_t nr;			/* cg nodes */
};

/* The graph, map and filter of @s. */
void vis_sources_load(const struct kmag_session *s, struct vis_sources *src);
/* struct kmag_cgview_opts.keep: does cg node @node's file pass the path filter? */
bool vis_sources_keep(void *ctx, uint32_t node);
/* struct kmag_graph_doc.srcline: "file:line" of @func, or NULL. */
const char *vis_sources_srcline(void *ctx, kmag_func_t func);

#endif /* KMAG_CLI_VISUALIZE_H */
