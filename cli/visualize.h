/* SPDX-License-Identifier: MIT */
/*
 * visualize.h - pieces of `kmag visualize` shared between its CLI files.
 */
#ifndef KMAG_CLI_VISUALIZE_H
#define KMAG_CLI_VISUALIZE_H

#include "cli.h"
#include "kmag/symmap.h"

/* Source files of the graph's functions, from a symbol map, and the path filter. */
struct vis_sources {
	const struct kmag_cg *cg;
	struct kmag_symmap *map;	/* NULL when no map was found (and none was needed) */
	char map_path[4096];
	struct kmag_pathfilter *filter;	/* NULL without --filter-filepath */
	const char **file;		/* per cg node: source file, or NULL */
	char **srcline;			/* per cg node: "file:line" for labels, or NULL */
	size_t nr;			/* cg nodes */
	size_t with_file;		/* nodes the map knows */
	size_t matched;			/* nodes the filter keeps */
};

/*
 * Finds and loads the symbol map (@symfile, else the default places) and
 * compiles @filepath. A map is required only with a path filter. Prints the
 * error and returns an exit code on failure, 0 on success.
 */
int vis_sources_load(const struct cli_graph *g, const char *symfile, const char *filepath,
		     struct vis_sources *s);
void vis_sources_release(struct vis_sources *s);
/* struct kmag_cgview_opts.keep: does cg node @node's file pass the path filter? */
bool vis_sources_keep(void *ctx, uint32_t node);
/* struct kmag_graph_doc.srcline: "file:line" of @func, or NULL. */
const char *vis_sources_srcline(void *ctx, kmag_func_t func);

#endif /* KMAG_CLI_VISUALIZE_H */
