// SPDX-License-Identifier: MIT
/*
 * cmd-visualize.c - `kmag visualize`: the call graph (Graphviz) and the
 * sorted call-count chart (cairo) of a trace, compatible with the seed's
 * `kernel-magnifier.py visualize`.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "kmag/cgview.h"
#include "kmag/render/chart.h"
#include "kmag/render/explore.h"
#include "kmag/render/graph.h"
#include "kmag/report.h"
#include "visualize.h"

#define DEFAULT_IMAGE "kernel-magnifier.pdf"
#define DEFAULT_CHART "function-calls.png"
#define DEFAULT_MAX_NODES 100
#define DEFAULT_TOP 30

static const struct cli_command visualize_cmd = {
	.name = "visualize",
	.usage = "Usage: kmag visualize [options] [FILE]\n"
		 "\n"
		 "Draw the call graph of a trace (default ./trace.dat, else ./kernel-magnifier.data)\n"
		 "and a chart of the most called functions.\n",
};

struct vis_opts {
	const char *image, *chart, *layout;
	const char *image_format, *chart_format;
	kmag_graph_render_fn render;
	bool no_chart;
	int heat;		/* enum kmag_sort_key: calls, total or self (their order) */
	unsigned long top, max_nodes, exec_no, depth;
	bool depth_set;
	const char *root, *callers;
	bool errors;
	struct cli_input in;
	struct cli_symmap sym;
};

/* --errors: where errors were born, from the graph's own replay */
struct vis_errors {
	struct cli_probe_hits *ph;
	struct kmag_errors *e;
	const char *btf_path;		/* --btf */
	struct cli_errors_types types;	/* where the return types came from */
};

static int vis_after_open(void *ctx, struct kmag_trace *t)
{
	struct vis_errors *x = ctx;
	int ret = cli_probe_hits_after_open(x->ph, t);

	if (!ret && !(x->e = kmag_errors_new(kmag_trace_symtab(t))))
		ret = cli_error("out of memory");
	if (!ret)
		ret = cli_errors_use_types(&x->types, x->e, t, x->btf_path);
	return ret;
}

static int vis_errors_with_graph(void *ctx, struct kmag_cg *cg)
{
	struct vis_errors *x = ctx;

	if (kmag_errors_subscribe(x->e, kmag_cg_replay(cg)))
		return cli_error("out of memory");
	return 0;
}

/* Pictures by file extension. A new kind of output is one line here. */
static const struct graph_format {
	const char *ext;
	const char *format;
	kmag_graph_render_fn render;
} graph_formats[] = {
	{ ".pdf", "pdf", kmag_render_graphviz },
	{ ".png", "png", kmag_render_graphviz },
	{ ".svg", "svg", kmag_render_graphviz },
	{ ".dot", "dot", kmag_render_graphviz },
	{ ".html", "html", kmag_render_explorer },
	{ ".gv", "dot", kmag_render_graphviz },
};

static const struct chart_format {
	const char *ext;
	const char *format;
} chart_formats[] = {
	{ ".png", "png" },
	{ ".pdf", "pdf" },
	{ ".svg", "svg" },
};

static bool has_ext(const char *path, const char *ext)
{
	size_t n = strlen(path), e = strlen(ext);

	return n > e && !strcasecmp(path + n - e, ext);
}

static int pick_formats(struct vis_opts *o)
{
	size_t i;

	for (i = 0; i < sizeof(graph_formats) / sizeof(graph_formats[0]); i++)
		if (has_ext(o->image, graph_formats[i].ext)) {
			o->image_format = graph_formats[i].format;
			o->render = graph_formats[i].render;
		}
	if (!o->render)
		return cli_usage_error("visualize", "--image-name \"%s\": unknown picture type (name it .pdf, .png, .svg, .dot or .html)",
				       o->image);
	for (i = 0; i < sizeof(chart_formats) / sizeof(chart_formats[0]); i++)
		if (has_ext(o->chart, chart_formats[i].ext))
			o->chart_format = chart_formats[i].format;
	if (!o->chart_format && !o->no_chart)
		return cli_usage_error("visualize", "--chart-name \"%s\": unknown picture type (name it .png, .pdf or .svg)",
				       o->chart);
	return 0;
}

/* The optional libraries the pictures asked for need; EXIT_ERR with one line when one is missing. */
static int need_libraries(const struct vis_opts *o)
{
	char what[64];

	snprintf(what, sizeof(what), "visualize's %s picture", o->image_format);
	if (o->render == kmag_render_graphviz && cli_lacks_feature(KMAG_FEATURE_GRAPHVIZ, what))
		return EXIT_ERR;
	if (!o->no_chart && cli_lacks_feature(KMAG_FEATURE_CAIRO, "visualize's chart (--no-chart leaves it out)"))
		return EXIT_ERR;
	return 0;
}

#define CLI_ARGS struct vis_opts
static const struct cli_option visualize_options[] = {
	CLI_SECTION("\nOutput:\n"),
	CLI_STRING('o', "output", "FILE", image,
		   "the call graph: .pdf, .png, .svg, .dot, or .html\n"
		   "(the interactive explorer, as `kmag html`)\n"
		   "(default " DEFAULT_IMAGE ")"),
	CLI_ALIAS("image-name"),
	CLI_STRING(0, "chart-name", "FILE", chart,
		   "the chart: .png, .pdf or .svg (default " DEFAULT_CHART ")"),
	CLI_FLAG(0, "no-chart", no_chart, "do not draw the chart"),
	/* in the order of enum kmag_sort_key's first three */
	CLI_CHOICE(0, "heat", "METRIC", heat, "calls,total,self", "--heat",
		   "colour, prune and chart by calls (default), total or self\n"
		   "(total/self need a function_graph trace)"),
	CLI_ULONG_RANGE(0, "top", "N", top, 1, 0, "--top must be at least 1 (or use --no-chart)",
			"functions in the chart (default 30)"),
	CLI_ULONG(0, "max-nodes", "N", max_nodes,
		  "keep the N heaviest functions and the paths to them\n"
		  "(default 100; 0 = all)"),
	CLI_STRING(0, "layout", "ENGINE", layout,
		   "Graphviz layout: dot, sfdp, neato, ... (default: dot up to\n"
		   "300 functions, else sfdp)"),
	CLI_SECTION("\nWhat to show:\n"),
	CLI_STRING(0, "root", "FUNC", root, "only what FUNC calls, directly or not"),
	CLI_STRING(0, "callers", "FUNC", callers, "only the functions through which FUNC is reached"),
	CLI_ULONG_GIVEN(0, "depth", "N", depth, depth_set,
			"at most N calls away from --root/--callers (or from the\n"
			"trace's entry points)"),
	CLI_ULONG(0, "filter-execution-no", "N", exec_no,
		  "hide functions called N times or less, with their calls"),
	CLI_FLAG(0, "errors", errors,
		 "mark the error paths in purple: the calls from each\n"
		 "entry point down to where an error it returned was\n"
		 "born, as `kmag errors` finds them (needs\n"
		 "funcgraph-retval); pruning keeps the chain of every\n"
		 "origin it lists, or says how many do not fit"),
	CLI_BTF_OPTION(in, "the kernel's return types for --errors (a copy of\n"
			   "/sys/kernel/btf/vmlinux, or a vmlinux; default: the\n"
			   "BTF a trace.dat stores): void and bool functions are\n"
			   "never error origins"),
	CLI_SYMMAP_OPTIONS(sym),
	CLI_NOTE("(calls through functions hidden by --filter-filepath\n"
		 "become dashed \"via N hidden\" edges)"),
	CLI_INPUT_OPTIONS(in),
	CLI_MIN_DURATION_OPTION(in),
	CLI_SECTION("\n"),
	CLI_HELP_OPTION,
	CLI_END,
};
#undef CLI_ARGS
_Static_assert(KMAG_SORT_CALLS == 0 && KMAG_SORT_TOTAL == 1 && KMAG_SORT_SELF == 2,
	       "--heat's words in the order of enum kmag_sort_key");

static int parse_args(int argc, char **argv, struct vis_opts *o)
{
	struct cli_input *in = &o->in;
	int ret = cli_parse(&visualize_cmd, argc, argv, visualize_options, o);

	if (ret)
		return ret;
	if ((ret = cli_input_arg("visualize", argc, argv, in)))
		return ret;
	if (o->depth_set && o->depth > 100000)
		return cli_usage_error("visualize", "--depth %lu is too large", o->depth);
	return pick_formats(o);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Resolves a function name from the command line to a node, or explains. */
/*
 * --root on a trace with call stacks: the graph becomes the calls made under
 * the root, with their own numbers (not the whole trace's); *@root is then
 * the root's node in it.
 */
static int scope_to_root(struct cli_graph *g, long *root)
{
	kmag_func_t func = kmag_cg_nodes(g->cg)[*root].func;
	struct kmag_cg *scoped;

	if (!kmag_cg_summary(g->cg)->has_stacks)
		return 0;	/* function tracer: what the aggregate graph reaches */
	scoped = kmag_cg_new_scoped(g->cg, func);
	if (!scoped)
		return cli_error("out of memory");
	kmag_cg_free(g->cg);
	g->cg = scoped;
	*root = kmag_cg_node_index(scoped, func);
	return 0;
}

static void append(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 3 >= len)
		return;
	if (used)
		used += (size_t)snprintf(buf + used, len - used, "; ");
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

/* One line naming every filter in effect, for the picture titles. */
static void describe_filters(const struct cli_graph *g, const struct vis_opts *o,
			     const struct cli_symmap *sym, char *buf, size_t len)
{
	buf[0] = '\0';
	if (g->filters[0])
		append(buf, len, "%s", g->filters);
	if (o->root)
		append(buf, len, "called from %s", o->root);
	if (o->callers)
		append(buf, len, "leading to %s", o->callers);
	if (o->depth_set)
		append(buf, len, "depth <= %lu", o->depth);
	if (o->exec_no)
		append(buf, len, "called > %lu times", o->exec_no);
	if (sym->filepath)
		append(buf, len, "source in %s", sym->filepath);
}

/* Explains an empty view by its main cause. Returns EXIT_ERR. */
static int explain_empty(const struct cli_graph *g, const struct vis_opts *o,
			 const struct vis_sources *src, const struct kmag_cgview_summary *s)
{
	const struct kmag_cg_node *nodes = kmag_cg_nodes(g->cg);
	uint64_t busiest = 0;
	size_t i;

	for (i = 0; i < kmag_cg_nr_nodes(g->cg); i++)
		if (nodes[i].st.calls > busiest)
			busiest = nodes[i].st.calls;
	if (src->sym->filepath && !src->matched)
		return cli_error("--filter-filepath \"%s\" matches none of the %zu functions (%zu of them have a source file in %s); check the paths or the symbol map",
				 src->sym->filepath, s->graph_nodes, src->with_file, src->sym->used);
	if (s->hidden[KMAG_HIDE_FEW_CALLS] && busiest <= o->exec_no)
		return cli_error("every function was called at most %lu times (the busiest %" PRIu64 "); lower --filter-execution-no",
				 o->exec_no, busiest);
	return cli_error("no function passes all filters together (%zu outside the source filter, %zu called <= %lu times); relax one of them",
			 s->hidden[KMAG_HIDE_PATH], s->hidden[KMAG_HIDE_FEW_CALLS], o->exec_no);
}

static void print_view(const struct vis_opts *o, const struct kmag_cgview_summary *s,
		       size_t nr_chains)
{
	printf("graph: %zu of %zu functions shown", s->shown_nodes, s->graph_nodes);
	if (s->hidden[KMAG_HIDE_FOCUS])
		printf(", %zu outside --root/--callers/--depth", s->hidden[KMAG_HIDE_FOCUS]);
	if (s->hidden[KMAG_HIDE_FEW_CALLS])
		printf(", %zu called <= %lu times", s->hidden[KMAG_HIDE_FEW_CALLS], o->exec_no);
	if (s->hidden[KMAG_HIDE_PATH])
		printf(", %zu outside --filter-filepath", s->hidden[KMAG_HIDE_PATH]);
	if (s->hidden[KMAG_HIDE_PRUNED])
		printf(", %zu lighter ones pruned (--max-nodes %lu; 0 shows all)",
		       s->hidden[KMAG_HIDE_PRUNED], o->max_nodes);
	if (s->bridges)
		printf("; %zu dashed edge%s for calls through hidden functions", s->bridges,
		       s->bridges == 1 ? " stands" : "s stand");
	/* the error paths are kept whole before the heaviest functions, while they fit */
	if (s->chains_hidden)
		printf("; %zu of %zu error paths not drawn whole, they do not fit in --max-nodes %lu (0 shows all)",
		       s->chains_hidden, nr_chains, o->max_nodes);
	else if (nr_chains && s->hidden[KMAG_HIDE_PRUNED])
		printf("; all %zu error paths kept", nr_chains);
	putchar('\n');
}

static const char *chart_title(enum kmag_sort_key k)
{
	return k == KMAG_SORT_TOTAL ? "Kernel functions by total time (including callees)" :
	       k == KMAG_SORT_SELF  ? "Kernel functions by self time" :
				      "Most called kernel functions";
}

static int draw_chart(const struct cli_graph *g, const struct vis_opts *o,
		      const struct kmag_cgview *view, const char *filters)
{
	const struct kmag_cg_node *nodes = kmag_cg_nodes(g->cg);
	struct kmag_symtab *st = kmag_trace_symtab(g->trace);
	size_t cap = o->top < kmag_cg_nr_nodes(g->cg) ? o->top : kmag_cg_nr_nodes(g->cg), nr, i;
	uint32_t *top = malloc((cap + 1) * sizeof(*top));
	const char **names = malloc((cap + 1) * sizeof(*names));
	uint64_t *values = malloc((cap + 1) * sizeof(*values));
	double *heat = malloc((cap + 1) * sizeof(*heat));
	const char *axis = o->heat == KMAG_SORT_TOTAL ? "total time" :
			   o->heat == KMAG_SORT_SELF  ? "self time" : "calls";
	struct kmag_chart c = { 0 };
	struct kmag_err err = { 0 };
	char subtitle[1536];
	int ret = EXIT_OK;

	if (!top || !names || !values || !heat) {
		ret = cli_error("out of memory");
		goto out;
	}
	nr = kmag_cgview_top(view, top, cap);
	for (i = 0; i < nr; i++) {
		names[i] = kmag_symtab_name(st, nodes[top[i]].func);
		values[i] = kmag_stats_value(&nodes[top[i]].st, o->heat);
		heat[i] = kmag_cgview_heat(view, values[i]);
	}
	/* functions seen only as callers (0 calls, no time) are not "top" of anything */
	while (nr && !values[nr - 1])
		nr--;
	if (!nr) {
		ret = cli_error("no function has any %s to chart; use --no-chart", axis);
		goto out;
	}
	snprintf(subtitle, sizeof(subtitle), "%s: top %zu of %zu functions%s%s", g->path, nr,
		 kmag_cgview_summary(view)->graph_nodes, filters[0] ? " | " : "", filters);
	c.title = chart_title(o->heat);
	c.subtitle = subtitle;
	c.axis_label = axis;
	c.durations = o->heat != KMAG_SORT_CALLS;
	c.nr = nr;
	c.names = names;
	c.values = values;
	c.heat = heat;
	if (kmag_render_chart(&c, o->chart, o->chart_format, &err))
		ret = cli_lib_error(&err, "cannot draw the chart");
	else
		printf("%s generated\n", o->chart);
out:
	free(top);
	free(names);
	free(values);
	free(heat);
	return ret;
}

static int draw_graph(const struct cli_graph *g, const struct vis_opts *o,
		      const struct kmag_cgview *view, struct vis_sources *src, const char *filters,
		      struct cli_probe_hits *ph, const struct vis_errors *vx)
{
	struct kmag_graph_doc doc = {
		.cg = g->cg,
		.view = view,
		.st = kmag_trace_symtab(g->trace),
		.info = kmag_trace_info(g->trace),
		.input = g->path,
		.filters = filters,
		.heat = o->heat,
		.srcline = vis_sources_srcline,
		.srcline_ctx = src,
		.layout = o->layout,
		.errors = vx->e,
		.errors_types = vx->types.from,
	};
	struct kmag_err err = { 0 };

	if (cli_probe_hits_any(ph)) {
		doc.probe_hits = cli_probe_hits_of;
		doc.probe_hits_ctx = ph;
	}

	if (o->render(&doc, o->image, o->image_format, &err))
		return cli_lib_error(&err, "cannot draw the call graph");
	printf("%s generated\n", o->image);
	return EXIT_OK;
}

int cmd_visualize(struct kmag_cli *cli, int argc, char **argv)
{
	struct vis_opts o = { .image = DEFAULT_IMAGE, .chart = DEFAULT_CHART, .top = DEFAULT_TOP,
			      .max_nodes = DEFAULT_MAX_NODES, .heat = KMAG_SORT_CALLS };
	struct kmag_cgview_opts vo = { .root = -1, .callers = -1, .depth = -1 };
	struct cli_symmap *const sym = &o.sym;
	struct cli_input *const in = &o.in;
	struct cli_probe_hits ph = { .sm = sym };
	const struct kmag_cgview_summary *vs;
	const struct kmag_trace_info *info;
	struct vis_sources src = { 0 };
	struct kmag_cgview *view = NULL;
	struct kmag_cgview_chain *chains = NULL;
	struct vis_errors vx = { .ph = &ph };
	struct kmag_err err = { 0 };
	double t0 = now_s(), t1, t2, t3 = 0, t4;
	char filters[1024];
	struct cli_graph g;
	int ret;

	sym->cmd = "visualize";
	in->after_open = cli_probe_hits_after_open;
	in->after_open_ctx = &ph;
	in->tap = cli_probe_hits_tap;
	in->tap_ctx = &ph;
	ret = parse_args(argc, argv, &o);
	if (ret) {
		cli_symmap_release(sym);
		return ret < 0 ? EXIT_OK : ret;
	}
	in->build_cct = o.root != NULL;
	if (in->btf_path && !o.errors) {
		cli_symmap_release(sym);
		return cli_usage_error("visualize", "--btf gives the return types for --errors: add --errors");
	}
	if (o.errors) {
		vx.btf_path = in->btf_path;
		in->after_open = vis_after_open;
		in->after_open_ctx = &vx;
		in->with_graph = vis_errors_with_graph;
		in->with_graph_ctx = &vx;
	}	/* the calls under the root: scope_to_root() */
	/* both pictures' places are checked before either is drawn */
	if (!o.no_chart && !strcmp(o.image, o.chart))
		return cli_usage_error("visualize", "the call graph and the chart cannot both be \"%s\"",
				       o.image);
	if (need_libraries(&o)) {
		cli_symmap_release(sym);
		return EXIT_ERR;
	}
	if (o.layout && kmag_graphviz_check_layout(o.layout, &err))
		return cli_usage_error("visualize", "--layout: %s", err.msg);
	if ((ret = cli_out_check(o.image)) || (!o.no_chart && (ret = cli_out_check(o.chart)))) {
		cli_symmap_release(sym);
		return ret;
	}
	ret = cli_load_graph("visualize", in, &g);
	if (ret) {
		kmag_errors_free(vx.e);
		cli_probe_hits_release(&ph);
		cli_symmap_release(sym);
		return ret;
	}
	t1 = now_s();
	if (vx.e && (ret = kmag_errors_finish(vx.e))) {
		ret = cli_error("cannot find the errors of %s: %s", g.path, strerror(-ret));
		goto out;
	}
	if (vx.e && !kmag_errors_stats(vx.e)->calls_with_retval) {
		ret = cli_error("%s: " CLI_ERRORS_NEED_RETVAL, g.path);
		goto out;
	}
	if (vx.e)
		printf("error paths: return types %s%s\n", vx.types.from ? "from " : "",
		       vx.types.from ? vx.types.from : "unknown (give --btf or a trace with BTF: a void or bool function may show as an origin)");
	info = kmag_trace_info(g.trace);
	printf("parsing completed, found %" PRIu64 " events", info->events);
	if (info->lost)
		printf(", %" PRIu64 " lost (%.2f%%)", info->lost,
		       100.0 * (double)info->lost / (double)(info->lost + info->events));
	else if (info->lost_unknown)
		printf(", some lost (count unknown)");
	putchar('\n');
	if (!kmag_cg_nr_nodes(g.cg)) {
		if (g.filters[0])
			ret = cli_error("no function calls pass the filters (%s); widen --pid/--comm/--cpu/--time",
					g.filters);
		else
			ret = cli_error("%s holds no function calls; record with the function or function_graph tracer",
					g.path);
		goto out;
	}
	if (o.heat != KMAG_SORT_CALLS && !kmag_cg_summary(g.cg)->has_time) {
		ret = cli_error("--heat %s needs call durations, which this trace lacks (function tracer); use --heat calls or record with function_graph",
				o.heat == KMAG_SORT_TOTAL ? "total" : "self");
		goto out;
	}
	if ((o.root && (cli_find_function(&g, "--root", o.root, &vo.root) || scope_to_root(&g, &vo.root))) ||
	    (o.callers && cli_find_function(&g, "--callers", o.callers, &vo.callers))) {
		ret = EXIT_ERR;
		goto out;
	}
	ret = vis_sources_load(&g, sym, &src);
	if (ret)
		goto out;
	vo.weight = o.heat;
	vo.depth = o.depth_set ? (int)o.depth : -1;
	vo.hide_calls_upto = o.exec_no;
	vo.max_nodes = o.max_nodes;
	if (sym->filter) {
		vo.keep = vis_sources_keep;
		vo.keep_ctx = &src;
	}
	/* every origin kmag errors lists keeps its chain when the graph is pruned */
	if (vx.e && !(chains = kmag_errors_view_chains(vx.e, g.cg, &vo.nr_chains)) && errno) {
		ret = cli_error("out of memory");
		goto out;
	}
	vo.chains = chains;
	view = kmag_cgview_new(g.cg, &vo);
	if (!view) {
		ret = cli_error("out of memory");
		goto out;
	}
	t2 = now_s();
	vs = kmag_cgview_summary(view);
	if (!vs->shown_nodes) {
		ret = explain_empty(&g, &o, &src, vs);
		goto out;
	}
	print_view(&o, vs, vo.nr_chains);
	describe_filters(&g, &o, sym, filters, sizeof(filters));
	if (!o.no_chart) {
		ret = draw_chart(&g, &o, view, filters);
		if (ret)
			goto out;
	}
	t3 = now_s();
	if (!o.layout && strcmp(kmag_graphviz_layout_for(vs->shown_nodes), "dot"))
		printf("graph: %zu functions are too many for a layered layout; drawing an overview with %s (this takes a few seconds)\n",
		       vs->shown_nodes, kmag_graphviz_layout_for(vs->shown_nodes));
	ret = draw_graph(&g, &o, view, &src, filters, &ph, &vx);
	t4 = now_s();
	if (cli->verbose)
		fprintf(stderr, "kmag: time: read %.3f s, view %.3f s, chart %.3f s, graph %.3f s (%s layout)\n",
			t1 - t0, t2 - t1, t3 - t2, t4 - t3,
			o.layout ? o.layout : kmag_graphviz_layout_for(vs->shown_nodes));
	cli_symmap_warn(sym);
out:
	kmag_cgview_free(view);
	free(chains);
	vis_sources_release(&src);
	cli_graph_release(&g);
	kmag_errors_free(vx.e);
	cli_probe_hits_release(&ph);
	cli_symmap_release(sym);
	return ret;
}
