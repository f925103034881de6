// SPDX-License-Identifier: MIT
/*
 * vis-sources.c - source files for `kmag visualize`: which symbol map to
 * read, the file of every function in the graph, and the path filter.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "visualize.h"

#define SEED_SYMBOL_MAP "symbol-filepath.map"	/* where the seed writes and reads its map */

/* The map the user did not name: kmag's default places, then the seed's file name. */
static const char *default_map(void)
{
	const char *p = kmag_symmap_default_path(NULL);

	if (p)
		return p;
	return access(SEED_SYMBOL_MAP, R_OK) == 0 ? SEED_SYMBOL_MAP : NULL;
}

static int find_files(const struct cli_graph *g, struct vis_sources *s)
{
	const struct kmag_cg_node *nodes = kmag_cg_nodes(g->cg);
	struct kmag_symtab *st = kmag_trace_symtab(g->trace);
	size_t i;

	s->file = calloc(s->nr + 1, sizeof(*s->file));
	s->srcline = calloc(s->nr + 1, sizeof(*s->srcline));
	if (!s->file || !s->srcline)
		return cli_error("out of memory");
	if (!s->map)
		return 0;
	/* runtime addresses (trace.dat kallsyms) tell same-named static functions apart */
	kmag_symmap_bind(s->map, st);
	for (i = 0; i < s->nr; i++) {
		kmag_func_t f = nodes[i].func;
		const char *name = kmag_symtab_name(st, f);
		const struct kmag_symmap_entry *e;

		if (!name)
			continue;
		e = kmag_symmap_lookup(s->map, name, kmag_symtab_addr(st, f), NULL);
		if (!e || !e->file || !*e->file)
			continue;
		s->file[i] = e->file;
		s->with_file++;
		if (e->line) {
			if (asprintf(&s->srcline[i], "%s:%u", e->file, e->line) < 0) {
				s->srcline[i] = NULL;
				return cli_error("out of memory");
			}
		}
	}
	return 0;
}

int vis_sources_load(const struct cli_graph *g, const char *symfile, const char *filepath,
		     struct vis_sources *s)
{
	struct kmag_err err = { 0 };
	const char *path = symfile ? symfile : default_map();
	size_t i;

	memset(s, 0, sizeof(*s));
	s->cg = g->cg;
	s->nr = kmag_cg_nr_nodes(g->cg);
	if (filepath) {
		s->filter = kmag_pathfilter_new(filepath, &err);
		if (!s->filter)
			return cli_usage_error("visualize", "--filter-filepath: %s", err.msg);
		if (!path)
			return cli_error("--filter-filepath needs a symbol map (function -> source file) and none was found; run `kmag generate-symbol-map` or pass --symbol-file-path MAP");
	}
	if (path) {
		snprintf(s->map_path, sizeof(s->map_path), "%s", path);
		s->map = kmag_symmap_load(path, &err);
		if (!s->map) {
			/* a map found by default that does not load is no reason to fail */
			if (symfile || filepath)
				return cli_lib_error(&err, "cannot load the symbol map");
			cli_warn("ignoring the symbol map: %s", err.msg);
		}
	}
	if (find_files(g, s))
		return EXIT_ERR;
	if (s->filter)
		for (i = 0; i < s->nr; i++)
			s->matched += vis_sources_keep(s, (uint32_t)i);
	return 0;
}

void vis_sources_release(struct vis_sources *s)
{
	size_t i;

	for (i = 0; s->srcline && i < s->nr; i++)
		free(s->srcline[i]);
	free(s->srcline);
	free(s->file);
	kmag_pathfilter_free(s->filter);
	kmag_symmap_free(s->map);
	memset(s, 0, sizeof(*s));
}

bool vis_sources_keep(void *ctx, uint32_t node)
{
	const struct vis_sources *s = ctx;

	/* a function the map does not know cannot be shown to match */
	return node < s->nr && s->file[node] && kmag_pathfilter_match(s->filter, s->file[node]);
}

const char *vis_sources_srcline(void *ctx, kmag_func_t func)
{
	const struct vis_sources *s = ctx;
	long i = kmag_cg_node_index(s->cg, func);

	if (i < 0 || (size_t)i >= s->nr)
		return NULL;
	return s->srcline[i] ? s->srcline[i] : s->file[i];
}
