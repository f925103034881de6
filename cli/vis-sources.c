// SPDX-License-Identifier: MIT
/*
 * vis-sources.c - source files for `kmag visualize`: labels and the path
 * filter predicate over the graph's nodes, from the session's symbol map.
 */
#include <string.h>

#include "visualize.h"

void vis_sources_load(const struct kmag_session *s, struct vis_sources *src)
{
	memset(src, 0, sizeof(*src));
	src->cg = kmag_session_graph(s);
	src->loc = kmag_session_srcloc(s);
	src->filter = kmag_session_pathfilter(s);
	src->nr = kmag_cg_nr_nodes(src->cg);
}

bool vis_sources_keep(void *ctx, uint32_t node)
{
	const struct vis_sources *s = ctx;

	/* a function the map does not know cannot be shown to match */
	return node < s->nr && s->loc &&
	       kmag_srcloc_match(s->loc, s->filter, kmag_cg_nodes(s->cg)[node].func);
}

const char *vis_sources_srcline(void *ctx, kmag_func_t func)
{
	const struct vis_sources *s = ctx;

	return s->loc ? kmag_srcloc_label(s->loc, func) : NULL;
}
