/* SPDX-License-Identifier: MIT */
/*
 * render-gv.h - the one way renderers make and write a Graphviz graph
 * (libcgraph): the picture (graphviz.c), the DOT of export (export.c) and of
 * diff (diff.c). Only with the graphviz feature; kept out of render-util.h so
 * the helpers every renderer shares need no optional library.
 */
#ifndef KMAG_RENDER_GV_H
#define KMAG_RENDER_GV_H

#include "config.h"

#if KMAG_HAVE_GRAPHVIZ
#include <stddef.h>
#include <stdio.h>
#include <graphviz/cgraph.h>

/* A default of a graph's attribute: AGRAPH, AGNODE or AGEDGE, name, value, its symbol. */
struct render_gv_attr {
	int kind;
	const char *name;
	const char *value;
	Agsym_t **sym;		/* where to keep the attribute's symbol, or NULL */
};

/*
 * A new directed graph @name with the defaults @attrs (@n of them; declared
 * once, so each node's and edge's own values stay short). Free with agclose()
 * or render_gv_write_close(). NULL on ENOMEM.
 */
Agraph_t *render_gv_graph(const char *name, const struct render_gv_attr *attrs, size_t n);
/* Declares more defaults on @g (as render_gv_graph()). */
void render_gv_defaults(Agraph_t *g, const struct render_gv_attr *attrs, size_t n);
/*
 * Writes @g as DOT to @out when @ret is 0, and closes @g. Returns @ret, -EIO
 * when writing failed, or render_status(@out).
 */
int render_gv_write_close(Agraph_t *g, FILE *out, int ret);
#endif

#endif /* KMAG_RENDER_GV_H */
