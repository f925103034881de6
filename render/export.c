// SPDX-License-Identifier: MIT
/*
 * export.c - the call graph as an edge CSV and as Graphviz DOT.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "kmag/render/export.h"
#include "kmag/report.h"
#include "render-util.h"

#if KMAG_HAVE_GRAPHVIZ
#include <graphviz/cgraph.h>
#include "render-gv.h"
#endif

static bool shown(const struct kmag_export *x, uint32_t node)
{
	return !x->visible || x->visible(x->visible_ctx, kmag_cg_nodes(x->cg)[node].func);
}

static const char *func_name(const struct kmag_export *x, uint32_t node)
{
	const char *s = kmag_symtab_name(x->st, kmag_cg_nodes(x->cg)[node].func);

	return s ? s : "?";
}

int kmag_export_edges_csv(FILE *out, const struct kmag_export *x)
{
	const struct kmag_cg_edge *edges = kmag_cg_edges(x->cg);
	bool has_time = kmag_cg_summary(x->cg)->has_time;
	size_t i, n = kmag_cg_nr_edges(x->cg);

	fputs("caller,callee,calls,total_ns,self_ns,avg_ns,min_ns,max_ns,incomplete,interrupt\n", out);
	for (i = 0; i < n; i++) {
		const struct kmag_cg_edge *e = &edges[i];

		if (!shown(x, e->caller) || !shown(x, e->callee))
			continue;
		kmag_fput_csv_field(out, func_name(x, e->caller));
		fputc(',', out);
		kmag_fput_csv_field(out, func_name(x, e->callee));
		fprintf(out, ",%" PRIu64, e->st.calls);
		if (has_time && e->st.timed)
			fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64,
				e->st.total_ns, e->st.self_ns, e->st.sum_ns / e->st.timed,
				e->st.min_ns, e->st.max_ns);
		else
			fputs(",,,,,", out);
		fprintf(out, ",%" PRIu64 ",%d\n", e->st.incomplete, e->flags & KMAG_EDGE_IRQ ? 1 : 0);
	}
	return render_status(out);
}

#if KMAG_HAVE_GRAPHVIZ

static void set_u64(void *obj, const char *key, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	agsafeset(obj, (char *)key, buf, "");
}

/* Sets string attribute @key of @obj to @s (backslashes doubled) and @suffix; 0 or -ENOMEM. */
static int set_esc(void *obj, const char *key, const char *s, const char *suffix)
{
	char *v = render_dot_esc(s, suffix);

	if (!v)
		return -ENOMEM;
	agsafeset(obj, (char *)key, v, "");
	free(v);
	return 0;
}

static void set_stats(void *obj, const struct kmag_cg_stats *st, bool has_time)
{
	set_u64(obj, "kmag_calls", st->calls);
	if (has_time && st->timed) {
		set_u64(obj, "kmag_total_ns", st->total_ns);
		set_u64(obj, "kmag_self_ns", st->self_ns);
		set_u64(obj, "kmag_max_ns", st->max_ns);
	}
	if (st->incomplete)
		set_u64(obj, "kmag_incomplete", st->incomplete);
}

/* The DOT graph's defaults. */
static const struct render_gv_attr dot_defaults[] = {
	{ AGRAPH, "rankdir", "LR", NULL },
	{ AGRAPH, "label", "", NULL },
	{ AGNODE, "shape", "box", NULL },
	{ AGNODE, "fontname", "monospace", NULL },
	{ AGNODE, "label", "\\N", NULL },
	{ AGNODE, "tooltip", "", NULL },
	{ AGEDGE, "label", "", NULL },
	{ AGEDGE, "penwidth", "1", NULL },
	{ AGEDGE, "style", "solid", NULL },
};

int kmag_export_dot(FILE *out, const struct kmag_export *x)
{
	const struct kmag_cg_node *nodes = kmag_cg_nodes(x->cg);
	const struct kmag_cg_edge *edges = kmag_cg_edges(x->cg);
	size_t nn = kmag_cg_nr_nodes(x->cg), ne = kmag_cg_nr_edges(x->cg), i;
	bool has_time = kmag_cg_summary(x->cg)->has_time;
	uint64_t max_calls = 1;
	Agnode_t **agn;
	Agraph_t *g;
	char buf[4096];
	int ret = 0;

	agn = calloc(nn + 1, sizeof(*agn));
	g = render_gv_graph("kmag", dot_defaults, sizeof(dot_defaults) / sizeof(dot_defaults[0]));
	if (!agn || !g) {
		free(agn);
		if (g)
			agclose(g);
		return -ENOMEM;
	}
	snprintf(buf, sizeof(buf), "kmag call graph of %s", x->input ? x->input : "-");
	ret = set_esc(g, "label", buf, NULL);
	for (i = 0; i < ne; i++)
		if (edges[i].st.calls > max_calls)
			max_calls = edges[i].st.calls;
	for (i = 0; i < nn && !ret; i++) {
		const char *name = func_name(x, (uint32_t)i);
		const char *loc = x->srcline ? x->srcline(x->srcline_ctx, nodes[i].func) : NULL;
		char *id, *tip = NULL, *cut = NULL;
		const char *tipname;

		if (!shown(x, (uint32_t)i))
			continue;
		id = render_dot_id(name, i);
		agn[i] = id ? agnode(g, id, 1) : NULL;
		free(id);
		if (!agn[i]) {
			ret = -ENOMEM;
			break;
		}
		snprintf(buf, sizeof(buf), "\\n%" PRIu64 " calls", nodes[i].st.calls);
		/* the label shows a name cut to what a picture holds, the tooltip all of it */
		ret = set_esc(agn[i], "label", render_name_cut(name, RENDER_LABEL_MAX, &cut), buf);
		free(cut);
		cut = NULL;
		tipname = render_name_cut(name, RENDER_TIP_MAX, &cut);
		if (!ret && loc && asprintf(&tip, "%s %s", tipname, loc) < 0) {
			tip = NULL;
			ret = -ENOMEM;
		}
		if (!ret)
			ret = set_esc(agn[i], "tooltip", tip ? tip : tipname, NULL);
		free(tip);
		free(cut);
		if (!ret && loc)
			ret = set_esc(agn[i], "kmag_source", loc, NULL);
		set_stats(agn[i], &nodes[i].st, has_time);
	}
	for (i = 0; i < ne && !ret; i++) {
		const struct kmag_cg_edge *e = &edges[i];
		Agedge_t *ae;

		if (!agn[e->caller] || !agn[e->callee])
			continue;
		ae = agedge(g, agn[e->caller], agn[e->callee], NULL, 1);
		if (!ae) {
			ret = -ENOMEM;
			break;
		}
		snprintf(buf, sizeof(buf), "%" PRIu64, e->st.calls);
		agset(ae, "label", buf);
		/* 1..5 px, logarithmic in the call count */
		snprintf(buf, sizeof(buf), "%.2f",
			 1.0 + 4.0 * log((double)e->st.calls + 1) / log((double)max_calls + 1));
		agset(ae, "penwidth", buf);
		if (e->flags & KMAG_EDGE_IRQ)
			agset(ae, "style", "dashed");
		set_stats(ae, &e->st, has_time);
	}
	free(agn);
	return render_gv_write_close(g, out, ret);
}

#else /* !KMAG_HAVE_GRAPHVIZ: DOT is written with libcgraph */

int kmag_export_dot(FILE *out, const struct kmag_export *x)
{
	return -ENOTSUP;
}

#endif /* KMAG_HAVE_GRAPHVIZ */
