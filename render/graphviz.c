// SPDX-License-Identifier: MIT
/*
 * graphviz.c - the call-graph picture, laid out and rendered in process with
 * Graphviz (libcgraph builds the graph, libgvc lays it out and writes PDF,
 * PNG or SVG through its cairo and core plugins).
 *
 * Nodes are named "n<view index>" so no function name ever has to survive as
 * a DOT identifier; names appear only in HTML-like labels (escaped here for
 * HTML) and tooltips (escaped for Graphviz's backslash sequences). Graphviz
 * escapes both again for DOT, SVG or PDF output.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "kmag/outfile.h"
#include "kmag/render/graph.h"
#include "render-util.h"

#if KMAG_HAVE_GRAPHVIZ
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include "render-gv.h"
#endif

#define DOT_MAX_NODES 300	/* above this, dot takes seconds: use sfdp */
#define BOTH_WAYS_MAX 150	/* up to this many nodes, try dot left-right and top-down */
#define SCREEN_ASPECT 1.6	/* the picture shape to aim for: a 16:10 screen */
#define FONT "DejaVu Sans,Helvetica,Arial,sans-serif"
#define IRQ_COLOR "#2166ac"	/* interrupt edges: blue, apart from the heat and hot-path reds */
#define ERR_COLOR "#7a0177"	/* error paths (kmag errors): purple, apart from heat, hot path, interrupts */

const char *kmag_graphviz_layout_for(size_t nodes)
{
	return nodes <= DOT_MAX_NODES ? "dot" : "sfdp";
}

#if KMAG_HAVE_GRAPHVIZ

/* Graphviz reports errors through a process-wide callback; keep the last one. */
static char gv_last_error[512];

static int gv_error(char *msg)
{
	size_t len;

	snprintf(gv_last_error, sizeof(gv_last_error), "%s", msg);
	len = strlen(gv_last_error);
	while (len && (gv_last_error[len - 1] == '\n' || gv_last_error[len - 1] == ' '))
		gv_last_error[--len] = '\0';
	return 0;
}

int kmag_graphviz_check_layout(const char *name, struct kmag_err *err)
{
	GVC_t *gvc = gvContext();
	char **list, known[256] = "";
	int n = 0, i, found = 0;
	size_t used = 0;

	if (!gvc)
		return kmag_err_set(err, ENOMEM, "cannot start Graphviz (out of memory)");
	list = gvPluginList(gvc, "layout", &n, NULL);
	for (i = 0; i < n; i++) {
		/* entries may carry ":plugin" suffixes */
		char *colon = strchr(list[i], ':');

		if (colon)
			*colon = '\0';
		if (!strcmp(list[i], name))
			found = 1;
		if (used + strlen(list[i]) + 3 < sizeof(known))
			used += (size_t)snprintf(known + used, sizeof(known) - used, "%s%s",
						 used ? ", " : "", list[i]);
		free(list[i]);
	}
	free(list);
	gvFreeContext(gvc);
	if (found)
		return 0;
	return kmag_err_set(err, ENOENT, "unknown layout \"%s\"; Graphviz here knows: %s", name,
			    known[0] ? known : "none (is libgvc's plugin config installed?)");
}

/* ---- text helpers ---- */

/*
 * A control character of a name as visible text (\\xNN: the backslash
 * doubled, see below), a byte that is not UTF-8 as U+FFFD: Graphviz copies
 * both raw into the SVG, which XML parsers then reject. Returns the bytes
 * used at @p, or 0 when the character is ordinary (to be written by the caller).
 */
static size_t put_odd(FILE *f, const unsigned char *p)
{
	size_t n = render_utf8_len(p), i;

	if (!n) {
		fputs(RENDER_UTF8_REPLACEMENT, f);
		return 1;
	}
	if (!render_is_control(p, n))
		return 0;
	for (i = 0; i < n; i++)
		fprintf(f, "\\\\x%02x", p[i]);
	return n;
}

/* The HTML entity of ASCII character @c, or NULL when it stands as itself. */
static const char *html_entity(unsigned char c)
{
	switch (c) {
	case '&':
		return "&amp;";
	case '<':
		return "&lt;";
	case '>':
		return "&gt;";
	case '"':
		return "&quot;";
	default:
		return NULL;
	}
}

/*
 * @str for Graphviz, in an HTML label (@html) or a plain label or tooltip:
 * odd bytes as visible text (put_odd()), backslashes doubled (Graphviz
 * expands \N, \G, \n, \l ... in both, and reads past the end of a text that
 * ends in a backslash), in HTML & < > " as entities.
 */
static void put_gv(FILE *f, const char *str, bool html)
{
	const unsigned char *s = (const unsigned char *)str;
	const char *entity;
	size_t n;

	for (; *s; s++) {
		if ((n = put_odd(f, s))) {
			s += n - 1;
			continue;
		}
		n = render_utf8_len(s);
		if (html && (entity = html_entity(*s))) {
			fputs(entity, f);
			continue;
		}
		if (*s == '\\')
			fputc('\\', f);
		fwrite(s, 1, n, f);
		s += n - 1;
	}
}

static void put_html(FILE *f, const char *str)
{
	put_gv(f, str, true);
}

/* @str cut to @max characters (render_name_cut()), for a label (HTML) or a tooltip. */
static void put_html_cut(FILE *f, const char *str, size_t max)
{
	char *tmp = NULL;

	put_gv(f, render_name_cut(str, max, &tmp), true);
	free(tmp);
}

static void put_esc_cut(FILE *f, const char *str, size_t max)
{
	char *tmp = NULL;

	put_gv(f, render_name_cut(str, max, &tmp), false);
	free(tmp);
}

static bool is_time_key(enum kmag_sort_key k)
{
	return k != KMAG_SORT_CALLS && k != KMAG_SORT_INCOMPLETE && k != KMAG_SORT_NAME;
}

static const char *key_name(enum kmag_sort_key k)
{
	switch (k) {
	case KMAG_SORT_CALLS:
		return "calls";
	case KMAG_SORT_TOTAL:
		return "total time";
	case KMAG_SORT_SELF:
		return "self time";
	case KMAG_SORT_AVG:
		return "average time";
	case KMAG_SORT_MAX:
		return "longest call";
	case KMAG_SORT_MIN:
		return "shortest call";
	default:
		return "weight";
	}
}

static char *fmt_value(char *buf, size_t len, uint64_t v, enum kmag_sort_key k)
{
	return is_time_key(k) ? kmag_format_duration(buf, len, v) : kmag_fmt_count(buf, len, v);
}

static const char *func_name(const struct kmag_graph_doc *d, uint32_t cg_node)
{
	const char *s = kmag_symtab_name(d->st, kmag_cg_nodes(d->cg)[cg_node].func);

	return s ? s : "?";
}

/* The calls cg node @node made (its outgoing edges), recursion left out. */
static uint64_t calls_made(const struct kmag_graph_doc *d, uint32_t node)
{
	const struct kmag_cg_node *cn = &kmag_cg_nodes(d->cg)[node];
	const struct kmag_cg_edge *edges = kmag_cg_edges(d->cg);
	const uint32_t *out = kmag_cg_out_edges(d->cg);
	uint64_t n = 0;
	uint32_t k;

	for (k = 0; k < cn->out_count; k++)
		if (edges[out[cn->out_first + k]].callee != node)
			n += edges[out[cn->out_first + k]].st.calls;
	return n;
}

static void hex_color(char out[8], double t, bool *light_text)
{
	uint8_t rgb[3];
	bool light = kmag_heat_rgb(t, rgb);

	snprintf(out, 8, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
	if (light_text)
		*light_text = light;
}

/* ---- building the graph ---- */

struct gv {
	Agraph_t *g;
	Agsym_t *n_label, *n_fill, *n_font, *n_pen, *n_color, *n_tip, *n_peri;
	Agsym_t *e_label, *e_pen, *e_color, *e_style, *e_tip, *e_weight, *e_font;
	bool big;		/* force-directed layout of many nodes: no edge labels */
	bool has_irq;		/* some shown call is an interrupt taken inside the caller */
	bool has_err;		/* some shown call is on an error path */
	char *buf;		/* scratch text, from open_memstream */
	size_t len;
	FILE *f;
};

static int scratch_begin(struct gv *gv)
{
	free(gv->buf);
	gv->buf = NULL;
	gv->f = open_memstream(&gv->buf, &gv->len);
	return gv->f ? 0 : -ENOMEM;
}

static const char *scratch_end(struct gv *gv)
{
	if (fclose(gv->f) || !gv->buf)
		return NULL;
	gv->f = NULL;
	return gv->buf;
}

static void set_html(struct gv *gv, void *obj, Agsym_t *sym, const char *html)
{
	char *h = agstrdup_html(gv->g, (char *)html);

	agxset(obj, sym, h);
	agstrfree(gv->g, h);
}

static int node_attrs(const struct kmag_graph_doc *d, struct gv *gv, Agnode_t *n,
		      const struct kmag_cgview_node *vn)
{
	const struct kmag_cg_node *cn = &kmag_cg_nodes(d->cg)[vn->node];
	const char *name = func_name(d, vn->node), *src = NULL, *text;
	bool timed = cn->st.timed > 0, light;
	char fill[8], a[32], b[32], c[32];
	uint64_t probe_hits = 0;

	if (d->srcline)
		src = d->srcline(d->srcline_ctx, cn->func);
	if (d->probe_hits && cn->func != KMAG_FUNC_NONE)
		probe_hits = d->probe_hits(d->probe_hits_ctx, cn->func);
	if (scratch_begin(gv))
		return -ENOMEM;
	/* one row per line: rows keep underscores clear of the next line */
	fputs("<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"1\"><TR><TD><B>",
	      gv->f);
	put_html_cut(gv->f, name, RENDER_LABEL_MAX);
	fputs("</B></TD></TR>", gv->f);
	if (src && *src) {
		fputs("<TR><TD><FONT POINT-SIZE=\"9\">", gv->f);
		put_html_cut(gv->f, src, RENDER_LABEL_MAX);
		fputs("</FONT></TD></TR>", gv->f);
	}
	/* a function seen only as the caller of traced ones (function tracer): not "0 calls" */
	if (!cn->st.calls)
		fputs("<TR><TD><FONT POINT-SIZE=\"10\"><I>not traced</I>", gv->f);
	else
		fprintf(gv->f, "<TR><TD><FONT POINT-SIZE=\"10\">%s call%s",
			kmag_fmt_count(a, sizeof(a), cn->st.calls), cn->st.calls == 1 ? "" : "s");
	if (timed)
		fprintf(gv->f, " &#183; total %s &#183; self %s",
			kmag_format_duration(b, sizeof(b), cn->st.total_ns),
			kmag_format_duration(c, sizeof(c), cn->st.self_ns));
	fputs("</FONT></TD></TR>", gv->f);
	if (probe_hits)
		fprintf(gv->f, "<TR><TD><FONT POINT-SIZE=\"10\"><B>probe: %s hit%s</B></FONT></TD></TR>",
			kmag_fmt_count(a, sizeof(a), probe_hits), probe_hits == 1 ? "" : "s");
	if (vn->pruned_callees)
		fprintf(gv->f, "<TR><TD><FONT POINT-SIZE=\"9\"><I>+%u callee%s pruned</I></FONT></TD></TR>",
			vn->pruned_callees, vn->pruned_callees == 1 ? "" : "s");
	fputs("</TABLE>", gv->f);
	if (!(text = scratch_end(gv)))
		return -ENOMEM;
	set_html(gv, n, gv->n_label, text);

	hex_color(fill, vn->heat, &light);
	agxset(n, gv->n_fill, fill);
	if (light)
		agxset(n, gv->n_font, "white");
	if (vn->flags & KMAG_VIEW_HOT) {
		agxset(n, gv->n_pen, "3");
		agxset(n, gv->n_color, "#08306b");
	}
	if (vn->flags & KMAG_VIEW_FOCUS || probe_hits)
		agxset(n, gv->n_peri, "2");	/* a double border: the focus, or a probed function */
	if (d->errors && kmag_errors_path_origin(d->errors, cn->func)) {
		/* where a failed call's error was born: a thick double border */
		agxset(n, gv->n_pen, "3");
		agxset(n, gv->n_color, ERR_COLOR);
		agxset(n, gv->n_peri, "2");
		gv->has_err = true;
	}

	if (scratch_begin(gv))
		return -ENOMEM;
	put_esc_cut(gv->f, name, RENDER_TIP_MAX);
	if (src && *src) {
		fputs("\n", gv->f);
		put_esc_cut(gv->f, src, RENDER_TIP_MAX);
	}
	if (!cn->st.calls)
		fprintf(gv->f, "\nnot traced: only seen calling traced functions (%s calls)",
			kmag_fmt_count(a, sizeof(a), calls_made(d, vn->node)));
	else
		fprintf(gv->f, "\n%s calls", kmag_fmt_count(a, sizeof(a), cn->st.calls));
	if (timed)
		fprintf(gv->f, ", total %s, self %s, max %s",
			kmag_format_duration(a, sizeof(a), cn->st.total_ns),
			kmag_format_duration(b, sizeof(b), cn->st.self_ns),
			kmag_format_duration(c, sizeof(c), cn->st.max_ns));
	if (cn->st.incomplete)
		fprintf(gv->f, ", %s incomplete", kmag_fmt_count(a, sizeof(a), cn->st.incomplete));
	if (probe_hits)
		fprintf(gv->f, "\nprobe: %s hits", kmag_fmt_count(a, sizeof(a), probe_hits));
	if (vn->hidden_callees)
		fprintf(gv->f, "\n%u callee%s not shown", vn->hidden_callees,
			vn->hidden_callees == 1 ? "" : "s");
	if (!(text = scratch_end(gv)))
		return -ENOMEM;
	agxset(n, gv->n_tip, (char *)text);
	return 0;
}

static int edge_attrs(const struct kmag_graph_doc *d, struct gv *gv, Agedge_t *ge,
		      const struct kmag_cgview_edge *e, double max_w)
{
	const struct kmag_cgview_node *vn = kmag_cgview_nodes(d->view);
	char buf[64], a[32], b[32];
	const char *text;
	bool on_err = false;

	if (e->flags & KMAG_VIEW_BRIDGE) {
		const uint32_t *chain = kmag_cgview_via(d->view, e);
		uint32_t i;

		snprintf(buf, sizeof(buf), "via %u hidden", e->via);
		if (!gv->big)
			agxset(ge, gv->e_label, buf);
		agxset(ge, gv->e_style, "dashed");
		agxset(ge, gv->e_color, (e->flags & KMAG_VIEW_HOT) ? "#cb181d" : "#7f7f7f");
		agxset(ge, gv->e_font, "#7f7f7f");
		if (scratch_begin(gv))
			return -ENOMEM;
		fputs("via ", gv->f);
		for (i = 0; chain && i < e->via; i++) {
			if (i == 6) {
				fprintf(gv->f, " -> ... (%u more)", e->via - i);
				break;
			}
			fputs(i ? " -> " : "", gv->f);
			put_esc_cut(gv->f, func_name(d, chain[i]), RENDER_TIP_MAX);
		}
		if (!(text = scratch_end(gv)))
			return -ENOMEM;
		agxset(ge, gv->e_tip, (char *)text);
	} else {
		const struct kmag_cg_edge *ce = &kmag_cg_edges(d->cg)[e->edge];
		/* square root: only the really heavy calls get thick lines */
		double t = max_w > 0 ? sqrt((double)e->weight / max_w) : 1;

		if (ce->st.timed)
			snprintf(buf, sizeof(buf), "%s / %s", kmag_fmt_count(a, sizeof(a), ce->st.calls),
				 kmag_format_duration(b, sizeof(b), ce->st.total_ns));
		else
			kmag_fmt_count(buf, sizeof(buf), ce->st.calls);
		/* placing thousands of edge labels dominates a big layout; tooltips keep them */
		if (!gv->big)
			agxset(ge, gv->e_label, buf);
		snprintf(buf, sizeof(buf), "%.2f", 0.7 + 4.3 * t + ((e->flags & KMAG_VIEW_HOT) ? 1.5 : 0));
		agxset(ge, gv->e_pen, buf);
		on_err = d->errors && kmag_errors_path_edge(d->errors, kmag_cg_nodes(d->cg)[vn[e->from].node].func,
								 kmag_cg_nodes(d->cg)[vn[e->to].node].func);
		if (on_err) {
			snprintf(buf, sizeof(buf), "%.2f", 2.5 + 4.3 * t);
			agxset(ge, gv->e_pen, buf);
			agxset(ge, gv->e_color, ERR_COLOR);
			agxset(ge, gv->e_font, ERR_COLOR);
			gv->has_err = true;
		} else if (e->flags & KMAG_VIEW_HOT) {
			agxset(ge, gv->e_color, "#cb181d");
		} else if (ce->flags & KMAG_EDGE_IRQ) {
			/* not a call: an interrupt arrived while the caller ran */
			agxset(ge, gv->e_color, IRQ_COLOR "b0");
			agxset(ge, gv->e_font, IRQ_COLOR);
			gv->has_irq = true;
		}
		if (scratch_begin(gv))
			return -ENOMEM;
		put_esc_cut(gv->f, func_name(d, vn[e->from].node), RENDER_TIP_MAX);
		fputs(" -> ", gv->f);
		put_esc_cut(gv->f, func_name(d, vn[e->to].node), RENDER_TIP_MAX);
		fprintf(gv->f, ": %s calls", kmag_fmt_count(a, sizeof(a), ce->st.calls));
		if (ce->flags & KMAG_EDGE_IRQ)
			fputs(" (in interrupt context)", gv->f);
		if (on_err)
			fputs(" (on an error path)", gv->f);
		if (!(text = scratch_end(gv)))
			return -ENOMEM;
		agxset(ge, gv->e_tip, (char *)text);
	}
	if (e->flags & KMAG_VIEW_HOT)
		agxset(ge, gv->e_weight, "8");	/* keep the hottest path straight */
	return 0;
}

/* The title block: input, events and losses, filters, what was left out, heat scale. */
static int legend(const struct kmag_graph_doc *d, struct gv *gv)
{
	const struct kmag_cgview_summary *s = kmag_cgview_summary(d->view);
	const struct kmag_cg_summary *cs = kmag_cg_summary(d->cg);
	char a[32], b[32], color[8];
	const char *text;
	int i;

	if (scratch_begin(gv))
		return -ENOMEM;
	fputs("<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"2\">", gv->f);
	fputs("<TR><TD ALIGN=\"LEFT\" BALIGN=\"LEFT\"><FONT POINT-SIZE=\"18\"><B>Kernel call graph</B></FONT>",
	      gv->f);
	if (d->input) {
		fputs("<FONT POINT-SIZE=\"14\">  ", gv->f);
		put_html(gv->f, d->input);
		fputs("</FONT>", gv->f);
	}
	fputs("</TD></TR><TR><TD ALIGN=\"LEFT\" BALIGN=\"LEFT\"><FONT POINT-SIZE=\"11\">", gv->f);
	if (d->info) {
		fprintf(gv->f, "%s, %s tracer &#183; %s events",
			kmag_input_format_name(d->info->format), kmag_tracer_name(d->info->tracer),
			kmag_fmt_count(a, sizeof(a), d->info->events));
		if (d->info->lost)
			fprintf(gv->f, " &#183; %s lost", kmag_fmt_count(b, sizeof(b), d->info->lost));
		else if (d->info->lost_unknown || cs->lost_markers)
			fputs(" &#183; events lost (count unknown)", gv->f);
		else
			fputs(" &#183; none lost", gv->f);
	}
	/* "calls" means invocations everywhere else: these are caller->callee edges */
	fprintf(gv->f, "<BR/>shown: %zu of %zu functions, %zu call edges", s->shown_nodes,
		s->graph_nodes, s->shown_edges - s->bridges);
	if (s->bridges)
		fprintf(gv->f, ", %zu dashed edges: calls through hidden functions", s->bridges);
	if (s->hidden[KMAG_HIDE_PRUNED])
		fprintf(gv->f, "<BR/>pruned: %zu lighter functions (%s %s in all) to keep the graph readable",
			s->hidden[KMAG_HIDE_PRUNED],
			fmt_value(a, sizeof(a), s->pruned_weight, d->heat), key_name(d->heat));
	if (s->chains_hidden)
		fprintf(gv->f, "<BR/>error paths: %zu not drawn whole, they do not fit in the node limit",
			s->chains_hidden);
	if (d->filters && *d->filters) {
		fputs("<BR/>filters: ", gv->f);
		put_html(gv->f, d->filters);
	}
	fputs("</FONT></TD></TR>", gv->f);
	/* the heat scale: nine swatches labelled at both ends and the middle */
	fprintf(gv->f, "<TR><TD ALIGN=\"LEFT\"><TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"1\" CELLPADDING=\"1\"><TR>"
		"<TD><FONT POINT-SIZE=\"11\">heat: %s%s  </FONT></TD>",
		key_name(d->heat), s->log_scale ? " (log scale)" : "");
	for (i = 0; i <= 8; i++) {
		bool light;
		double t = i / 8.0;

		hex_color(color, t, &light);
		fprintf(gv->f, "<TD BGCOLOR=\"%s\" WIDTH=\"62\"><FONT POINT-SIZE=\"9\" COLOR=\"%s\">%s</FONT></TD>",
			color, light ? "white" : "black",
			fmt_value(a, sizeof(a), kmag_cgview_weight_at(d->view, t), d->heat));
	}
	fputs("<TD><FONT POINT-SIZE=\"11\">  ", gv->f);
	if (s->hot_len > 1)
		fputs("<FONT COLOR=\"#cb181d\"><B>red arrows</B></FONT>: hottest path", gv->f);
	if (gv->has_irq)
		fputs("  <FONT COLOR=\"" IRQ_COLOR "\"><B>blue arrows</B></FONT>: interrupts", gv->f);
	if (gv->has_err)
		fputs("  <FONT COLOR=\"" ERR_COLOR "\"><B>purple arrows</B></FONT>: error paths, from the entry point down to where the error was born (a purple double border)",
		      gv->f);
	fputs("</FONT></TD></TR></TABLE></TD></TR></TABLE>", gv->f);
	if (!(text = scratch_end(gv)))
		return -ENOMEM;
	set_html(gv, gv->g, agattr(gv->g, AGRAPH, "label", ""), text);
	return 0;
}

/* The picture's defaults; each object's own values stay short. */
static void declare_attrs(struct gv *gv, bool big)
{
	static const struct render_gv_attr graph[] = {
		{ AGRAPH, "fontname", FONT, NULL },
		{ AGRAPH, "labelloc", "t", NULL },
		{ AGRAPH, "labeljust", "l", NULL },
		{ AGRAPH, "outputorder", "edgesfirst", NULL },
		{ AGRAPH, "pad", "0.3", NULL },
		{ AGRAPH, "bgcolor", "white", NULL },
	};
	/* an overview (sfdp), or layers left to right (dot) */
	static const struct render_gv_attr overview[] = {
		{ AGRAPH, "overlap", "prism", NULL },
		{ AGRAPH, "splines", "false", NULL },
	};
	static const struct render_gv_attr layered[] = {
		{ AGRAPH, "rankdir", "LR", NULL },
		{ AGRAPH, "nodesep", "0.15", NULL },
		{ AGRAPH, "ranksep", "0.6", NULL },
	};
	const struct render_gv_attr objects[] = {
		{ AGNODE, "shape", "box", NULL },
		{ AGNODE, "style", "rounded,filled", NULL },
		{ AGNODE, "fontname", FONT, NULL },
		{ AGNODE, "fontsize", "12", NULL },
		{ AGNODE, "margin", "0.10,0.04", NULL },
		{ AGNODE, "label", "", &gv->n_label },
		{ AGNODE, "fillcolor", "#ffffcc", &gv->n_fill },
		{ AGNODE, "fontcolor", "black", &gv->n_font },
		{ AGNODE, "penwidth", "1", &gv->n_pen },
		{ AGNODE, "color", "#4d4d4d", &gv->n_color },
		{ AGNODE, "tooltip", "", &gv->n_tip },
		{ AGNODE, "peripheries", "1", &gv->n_peri },
		{ AGEDGE, "fontname", FONT, NULL },
		{ AGEDGE, "fontsize", "9", NULL },
		{ AGEDGE, "arrowsize", "0.6", NULL },
		{ AGEDGE, "fontcolor", "#333333", &gv->e_font },
		{ AGEDGE, "label", "", &gv->e_label },
		{ AGEDGE, "penwidth", "1", &gv->e_pen },
		/* translucent: crossings stay readable */
		{ AGEDGE, "color", "#4d4d4d99", &gv->e_color },
		{ AGEDGE, "style", "solid", &gv->e_style },
		{ AGEDGE, "tooltip", "", &gv->e_tip },
		{ AGEDGE, "weight", "1", &gv->e_weight },
	};

	render_gv_defaults(gv->g, graph, sizeof(graph) / sizeof(graph[0]));
	if (big)
		render_gv_defaults(gv->g, overview, sizeof(overview) / sizeof(overview[0]));
	else
		render_gv_defaults(gv->g, layered, sizeof(layered) / sizeof(layered[0]));
	render_gv_defaults(gv->g, objects, sizeof(objects) / sizeof(objects[0]));
}

static int build(const struct kmag_graph_doc *d, struct gv *gv, bool big)
{
	const struct kmag_cgview_node *vn = kmag_cgview_nodes(d->view);
	const struct kmag_cgview_edge *ve = kmag_cgview_edges(d->view);
	size_t nn = kmag_cgview_nr_nodes(d->view), ne = kmag_cgview_nr_edges(d->view), i;
	Agnode_t **nodes = calloc(nn + 1, sizeof(*nodes));
	double max_w = 0;
	int ret = -ENOMEM;

	if (!nodes)
		return -ENOMEM;
	gv->g = render_gv_graph("kmag", NULL, 0);
	if (!gv->g)
		goto out;
	gv->big = big;
	declare_attrs(gv, big);
	for (i = 0; i < nn; i++) {
		char id[24];

		snprintf(id, sizeof(id), "n%zu", i);
		nodes[i] = agnode(gv->g, id, 1);
		if (!nodes[i] || node_attrs(d, gv, nodes[i], &vn[i]))
			goto out;
	}
	for (i = 0; i < ne; i++)
		if (!(ve[i].flags & KMAG_VIEW_BRIDGE) && (double)ve[i].weight > max_w)
			max_w = (double)ve[i].weight;
	for (i = 0; i < ne; i++) {
		Agedge_t *e = agedge(gv->g, nodes[ve[i].from], nodes[ve[i].to], NULL, 1);

		if (!e || edge_attrs(d, gv, e, &ve[i], max_w))
			goto out;
	}
	ret = legend(d, gv);
out:
	free(nodes);
	return ret;
}

/* How far the laid-out graph's shape is from a screen's: |ln(aspect / 16:10)|. */
static double shape_penalty(Agraph_t *g)
{
	boxf bb = GD_bb(g);	/* the layout's bounding box (the "bb" attribute comes later) */
	double w = bb.UR.x - bb.LL.x, h = bb.UR.y - bb.LL.y;

	if (!(w > 0 && h > 0))
		return 1e9;
	return fabs(log(w / h / SCREEN_ASPECT));
}

/*
 * Lays @g out. Deep call chains are wide left to right and broad fan-outs
 * tall top-down; for small dot graphs both are tried and the shape closer to
 * a screen's kept, so the picture reads at 100% without endless scrolling.
 */
static int layout(GVC_t *gvc, Agraph_t *g, const char *engine, size_t nodes)
{
	Agsym_t *rankdir;
	double lr;

	if (strcmp(engine, "dot") || nodes > BOTH_WAYS_MAX)
		return gvLayout(gvc, g, engine);
	rankdir = agattr(g, AGRAPH, "rankdir", "LR");
	if (gvLayout(gvc, g, engine))
		return -1;
	lr = shape_penalty(g);
	gvFreeLayout(gvc, g);
	agxset(g, rankdir, "TB");
	if (gvLayout(gvc, g, engine))
		return -1;
	if (shape_penalty(g) <= lr)
		return 0;
	gvFreeLayout(gvc, g);
	agxset(g, rankdir, "LR");
	return gvLayout(gvc, g, engine);
}

int kmag_render_graphviz(const struct kmag_graph_doc *d, const char *path, const char *format,
			 struct kmag_err *err)
{
	size_t nn = kmag_cgview_nr_nodes(d->view);
	const char *engine = d->layout ? d->layout : kmag_graphviz_layout_for(nn);
	bool text = !strcmp(format, "dot");
	struct kmag_outfile *file = NULL;
	struct gv gv = { 0 };
	GVC_t *gvc = NULL;
	FILE *out = NULL;
	int ret;

	if (strcmp(format, "dot") && strcmp(format, "svg") && strcmp(format, "png") &&
	    strcmp(format, "pdf"))
		return kmag_err_set(err, EINVAL, "cannot write a graph as \"%s\" (choose pdf, png, svg or dot)",
				    format);
	if (!nn)
		return kmag_err_set(err, EINVAL, "no function to draw");
	gv_last_error[0] = '\0';
	agseterr(AGERR);	/* warnings (e.g. "scaling to fit") stay quiet */
	agseterrf(gv_error);
	ret = build(d, &gv, strcmp(engine, "dot") != 0);
	if (ret) {
		kmag_err_set(err, -ret, "out of memory while building the graph");
		goto out;
	}
	if (!(out = render_out_open(path, &file, &ret, err)))
		goto out;
	if (text) {
		if (agwrite(gv.g, out) != 0 && !(ret = kmag_outfile_close(file, err)))
			ret = kmag_err_set(err, EIO, "cannot write %s", path);
	} else {
		gvc = gvContext();
		if (!gvc) {
			ret = kmag_err_set(err, ENOMEM, "cannot start Graphviz (out of memory)");
			goto out;
		}
		if (layout(gvc, gv.g, engine, nn) != 0) {
			ret = kmag_err_set(err, EINVAL, "Graphviz layout \"%s\" failed%s%s", engine,
					   gv_last_error[0] ? ": " : "", gv_last_error);
			goto out;
		}
		int rc = gvRender(gvc, gv.g, format, out);

		if (rc && kmag_outfile_error(file))
			ret = kmag_outfile_close(file, err);	/* the file's own cause */
		else if (rc)
			ret = kmag_err_set(err, EIO,
					   "Graphviz cannot write %s%s%s (are its cairo plugins installed? libgvc6)",
					   format, gv_last_error[0] ? ": " : "", gv_last_error);
		gvFreeLayout(gvc, gv.g);
	}
	if (!ret)
		ret = kmag_outfile_commit(file, err);
	else
		kmag_outfile_abort(file);	/* no half-written picture; the path stays as it was */
	file = NULL;
out:
	kmag_outfile_abort(file);
	if (gv.f)
		fclose(gv.f);
	free(gv.buf);
	if (gv.g)
		agclose(gv.g);
	if (gvc)
		gvFreeContext(gvc);
	agseterrf(NULL);
	return ret;
}

#else /* !KMAG_HAVE_GRAPHVIZ: say which package the build lacks */

int kmag_graphviz_check_layout(const char *name, struct kmag_err *err)
{
	return kmag_need_feature(KMAG_FEATURE_GRAPHVIZ, "--layout", err);
}

int kmag_render_graphviz(const struct kmag_graph_doc *d, const char *path, const char *format,
			 struct kmag_err *err)
{
	return kmag_need_feature(KMAG_FEATURE_GRAPHVIZ, "drawing the call graph as PDF, PNG, SVG or DOT",
				 err);
}

#endif /* KMAG_HAVE_GRAPHVIZ */
