/* SPDX-License-Identifier: MIT */
/*
 * visualize.h - pieces of `kmag visualize` shared between its CLI files.
 */
#ifndef KMAG_CLI_VISUALIZE_H
#define KMAG_CLI_VISUALIZE_H

#include "cli.h"
#include "kmag/symmap.h"

/*
 * Source files of the graph's functions (through the symbol map loaded by
 * cli_symmap) and the path-filter predicate for the graph view.
 */
struct vis_sources {
	const struct kmag_cg *cg;
	struct cli_symmap *sym;		/* borrowed: the map, its cache and the filter */
	size_t nr;			/* cg nodes */
	size_t with_file;		/* nodes the map knows */
	size_t matched;			/* nodes the filter keeps */
};

/* Counts what the map knows of @g and what the filter keeps. Returns 0. */
int vis_sources_load(const struct cli_graph *g, struct cli_symmap *sym, struct vis_sources *s);
void vis_sources_release(struct vis_sources *s);
/* struct kmag_cgview_opts.keep: does cg node @node's file pass the path filter? */
bool vis_sources_keep(void *ctx, uint32_t node);
/* struct kmag_graph_doc.srcline: "file:line" of @func, or NULL. */
const char *vis_sources_srcline(void *ctx, kmag_func_t func);

#endif /* KMAG_CLI_VISUALIZE_H */
