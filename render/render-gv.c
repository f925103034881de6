// SPDX-License-Identifier: MIT
/*
 * render-gv.c - making and writing Graphviz graphs (render-gv.h).
 */
#include <errno.h>

#include "render-gv.h"
#include "render-util.h"

#if KMAG_HAVE_GRAPHVIZ
void render_gv_defaults(Agraph_t *g, const struct render_gv_attr *attrs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		Agsym_t *sym = agattr(g, attrs[i].kind, (char *)attrs[i].name, (char *)attrs[i].value);

		if (attrs[i].sym)
			*attrs[i].sym = sym;
	}
}

Agraph_t *render_gv_graph(const char *name, const struct render_gv_attr *attrs, size_t n)
{
	Agraph_t *g = agopen((char *)name, Agdirected, NULL);

	if (g)
		render_gv_defaults(g, attrs, n);
	return g;
}

int render_gv_write_close(Agraph_t *g, FILE *out, int ret)
{
	if (!ret && agwrite(g, out))
		ret = -EIO;
	agclose(g);
	return ret ? ret : render_status(out);
}
#endif
