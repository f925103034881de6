// SPDX-License-Identifier: MIT
/*
 * vis-sources.c - source files for `kmag visualize`: labels and the path
 * filter predicate over the graph's nodes, from the map cli_symmap loaded.
 */
#include <string.h>

#include "visualize.h"

int vis_sources_load(const struct cli_graph *g, struct cli_symmap *sym, struct vis_sources *s)
{
	const struct kmag_cg_node *nodes = kmag_cg_nodes(g->cg);
	size_t i;

	memset(s, 0, sizeof(*s));
	s->cg = g->cg;
	s->sym = sym;
	s->nr = kmag_cg_nr_nodes(g->cg);
	if (!sym->loc)
		return 0;
	for (i = 0; i < s->nr; i++) {
		if (kmag_srcloc_entry(sym->loc, nodes[i].func, NULL))
			s->with_file++;
		if (sym->filter && kmag_srcloc_match(sym->loc, sym->filter, nodes[i].func))
			s->matched++;
	}
	return 0;
}

void vis_sources_release(struct vis_sources *s)
{
	memset(s, 0, sizeof(*s));
}

bool vis_sources_keep(void *ctx, uint32_t node)
{
	const struct vis_sources *s = ctx;

	/* a function the map does not know cannot be shown to match */
	return node < s->nr && s->sym->loc &&
	       kmag_srcloc_match(s->sym->loc, s->sym->filter, kmag_cg_nodes(s->cg)[node].func);
}

const char *vis_sources_srcline(void *ctx, kmag_func_t func)
{
	const struct vis_sources *s = ctx;

	return s->sym->loc ? kmag_srcloc_label(s->sym->loc, func) : NULL;
}
