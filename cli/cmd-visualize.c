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
#include "kmag/errors.h"
#include "kmag/probes.h"
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
	struct kmag_session_opts so;
};

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
	CLI_BTF_OPTION(so, "the kernel's return types for --errors (a copy of\n"
			   "/sys/kernel/btf/vmlinux, or a vmlinux; default: the\n"
			   "BTF a trace.dat stores): void and bool functions are\n"
			   "never error origins"),
	CLI_SYMMAP_OPTIONS(so),
	CLI_NOTE("(calls through functions hidden by --filter-filepath\n"
		 "become dashed \"via N hidden\" edges)"),
	CLI_INPUT_OPTIONS(so),
	CLI_MIN_DURATION_OPTION(so),
	CLI_SECTION("\n"),
	CLI_HELP_OPTION,
	CLI_END,
};
#undef CLI_ARGS
_Static_assert(KMAG_SORT_CALLS == 0 && KMAG_SORT_TOTAL == 1 && KMAG_SORT_SELF == 2,
	       "--heat's words in the order of enum kmag_sort_key");

static int parse_args(int argc, char **argv, struct vis_opts *o)
{
	int ret = cli_parse(&visualize_cmd, argc, argv, visualize_options, o);

	if (ret || (ret = cli_input_arg("visualize", argc, argv, &o->so.path)))
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

/*
 * --root on a trace with call stacks: the graph becomes the calls made under
 * the root, with their own numbers (not the whole trace's); *@root is then
 * the root's node in it.
 */
static int scope_to_root(struct kmag_session *s, long *root)
{
	const struct kmag_cg *cg = kmag_session_graph(s);
	kmag_func_t func = kmag_cg_nodes(cg)[*root].func;
	struct kmag_cg *scoped;

	if (!kmag_cg_summary(cg)->has_stacks)
		return 0;	/* function tracer: what the aggregate graph reaches */
	scoped = kmag_cg_new_scoped(cg, func);
	if (!scoped)
		return cli_error("out of memory");
	kmag_session_set_graph(s, scoped);
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
static void describe_filters(const struct kmag_session *s, const struct vis_opts *o, char *buf,
			     size_t len)
{
	buf[0] = '\0';
	if (kmag_session_filters(s)[0])
		append(buf, len, "%s", kmag_session_filters(s));
	if (o->root)
		append(buf, len, "called from %s", o->root);
	if (o->callers)
		append(buf, len, "leading to %s", o->callers);
	if (o->depth_set)
		append(buf, len, "depth <= %lu", o->depth);
	if (o->exec_no)
		append(buf, len, "called > %lu times", o->exec_no);
	if (o->so.filter_filepath)
		append(buf, len, "source in %s", o->so.filter_filepath);
}

/* Explains an empty view by its main cause. Returns EXIT_ERR. */
static int explain_empty(const struct kmag_session *s, const struct vis_opts *o,
			 const struct kmag_cgview_summary *vs)
{
	const struct kmag_cg *cg = kmag_session_graph(s);
	const struct kmag_cg_node *nodes = kmag_cg_nodes(cg);
	uint64_t busiest = 0;
	size_t i;

	for (i = 0; i < kmag_cg_nr_nodes(cg); i++)
		if (nodes[i].st.calls > busiest)
			busiest = nodes[i].st.calls;
	/* (a path filter matching no function at all: the session said so) */
	if (vs->hidden[KMAG_HIDE_FEW_CALLS] && busiest <= o->exec_no)
		return cli_error("every function was called at most %lu times (the busiest %" PRIu64 "); lower --filter-execution-no",
				 o->exec_no, busiest);
	return cli_error("no function passes all filters together (%zu outside the source filter, %zu called <= %lu times); relax one of them",
			 vs->hidden[KMAG_HIDE_PATH], vs->hidden[KMAG_HIDE_FEW_CALLS], o->exec_no);
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

static int draw_chart(const struct kmag_session *s, const struct vis_opts *o,
		      const struct kmag_cgview *view, const char *filters)
{
	const struct kmag_cg *cg = kmag_session_graph(s);
	const struct kmag_cg_node *nodes = kmag_cg_nodes(cg);
	struct kmag_symtab *st = kmag_session_symtab(s);
	size_t cap = o->top < kmag_cg_nr_nodes(cg) ? o->top : kmag_cg_nr_nodes(cg), nr, i;
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
		values[i] = kmag_stats_value(&nodes[top[i]].st, (enum kmag_sort_key)o->heat);
		heat[i] = kmag_cgview_heat(view, values[i]);
	}
	/* functions seen only as callers (0 calls, no time) are not "top" of anything */
	while (nr && !values[nr - 1])
		nr--;
	if (!nr) {
		ret = cli_error("no function has any %s to chart; use --no-chart", axis);
		goto out;
	}
	snprintf(subtitle, sizeof(subtitle), "%s: top %zu of %zu functions%s%s", kmag_session_name(s), nr,
		 kmag_cgview_summary(view)->graph_nodes, filters[0] ? " | " : "", filters);
	c.title = chart_title((enum kmag_sort_key)o->heat);
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

static int draw_graph(const struct kmag_session *s, const struct vis_opts *o,
		      const struct kmag_cgview *view, struct vis_sources *src, const char *filters)
{
	struct kmag_probes *p = kmag_session_probes(s);
	struct kmag_graph_doc doc = {
		.cg = kmag_session_graph(s),
		.view = view,
		.st = kmag_session_symtab(s),
		.info = kmag_session_info(s),
		.input = kmag_session_name(s),
		.filters = filters,
		.heat = (enum kmag_sort_key)o->heat,
		.srcline = vis_sources_srcline,
		.srcline_ctx = src,
		.layout = o->layout,
		.errors = kmag_session_errors(s),
		.errors_types = kmag_session_types_from(s),
	};
	struct kmag_err err = { 0 };

	if (p && kmag_probes_count(p)) {
		doc.probe_hits = kmag_probes_hits_cb;
		doc.probe_hits_ctx = p;
	}
	if (o->render(&doc, o->image, o->image_format, &err))
		return cli_lib_error(&err, "cannot draw the call graph");
	printf("%s generated\n", o->image);
	return EXIT_OK;
}

/* The outputs and what they need, checked before the trace is read; 0 or the exit code. */
static int check_outputs(const struct vis_opts *o)
{
	struct kmag_err err = { 0 };
	int ret;

	if (o->so.btf_path && !o->errors)
		return cli_usage_error("visualize", "--btf gives the return types for --errors: add --errors");
	/* both pictures' places are checked before either is drawn */
	if (!o->no_chart && !strcmp(o->image, o->chart))
		return cli_usage_error("visualize", "the call graph and the chart cannot both be \"%s\"",
				       o->image);
	if (need_libraries(o))
		return EXIT_ERR;
	if (o->layout && kmag_graphviz_check_layout(o->layout, &err))
		return cli_usage_error("visualize", "--layout: %s", err.msg);
	if ((ret = cli_out_check(o->image)) || (!o->no_chart && (ret = cli_out_check(o->chart))))
		return ret;
	return 0;
}

/* Whether there is anything to draw; 0 or the exit code (before any output). */
static int check_read(const struct vis_opts *o, const struct kmag_session *s)
{
	struct kmag_errors *e = kmag_session_errors(s);

	if (e && !kmag_errors_stats(e)->calls_with_retval)
		return cli_error("%s: " CLI_ERRORS_NEED_RETVAL, kmag_session_name(s));
	/* (no calls, or none passing the filters: the session said so) */
	if (!kmag_cg_nr_nodes(kmag_session_graph(s)))
		return cli_error("%s holds no function calls; record with the function or function_graph tracer",
				 kmag_session_name(s));
	if (o->heat != KMAG_SORT_CALLS && !kmag_cg_summary(kmag_session_graph(s))->has_time)
		return cli_error("--heat %s needs call durations, which this trace lacks (function tracer); use --heat calls or record with function_graph",
				 o->heat == KMAG_SORT_TOTAL ? "total" : "self");
	return 0;
}

/* What was read, once the view is made (the progress lines of the seed's visualize). */
static void tell_read(const struct kmag_session *s)
{
	const struct kmag_trace_info *info = kmag_session_info(s);
	struct kmag_errors *e = kmag_session_errors(s);
	const char *types = kmag_session_types_from(s);

	if (e)
		printf("error paths: return types %s%s\n", types ? "from " : "",
		       types ? types : "unknown (give --btf or a trace with BTF: a void or bool function may show as an origin)");
	printf("parsing completed, found %" PRIu64 " events", info->events);
	if (info->lost)
		printf(", %" PRIu64 " lost (%.2f%%)", info->lost,
		       100.0 * (double)info->lost / (double)(info->lost + info->events));
	else if (info->lost_unknown)
		printf(", some lost (count unknown)");
	putchar('\n');
}

/*
 * The view of the graph the options ask for, into *@view (kmag_cgview_free()),
 * keeping the error paths *@chains (free() after the view) whole when pruning.
 */
static int make_view(const struct vis_opts *o, struct kmag_session *s, struct vis_sources *src,
		     struct kmag_cgview **view, struct kmag_cgview_chain **chains, size_t *nr_chains)
{
	struct kmag_cgview_opts vo = { .root = -1, .callers = -1, .depth = -1 };
	struct kmag_errors *e = kmag_session_errors(s);

	if ((o->root && (cli_find_function(s, "--root", o->root, &vo.root) ||
			 scope_to_root(s, &vo.root))) ||
	    (o->callers && cli_find_function(s, "--callers", o->callers, &vo.callers)))
		return EXIT_ERR;
	vis_sources_load(s, src);
	vo.weight = (enum kmag_sort_key)o->heat;
	vo.depth = o->depth_set ? (int)o->depth : -1;
	vo.hide_calls_upto = o->exec_no;
	vo.max_nodes = o->max_nodes;
	if (kmag_session_pathfilter(s)) {
		vo.keep = vis_sources_keep;
		vo.keep_ctx = src;
	}
	/* every origin kmag errors lists keeps its chain when the graph is pruned */
	errno = 0;
	if (e && !(*chains = kmag_errors_view_chains(e, kmag_session_graph(s), &vo.nr_chains)) &&
	    errno)
		return cli_error("out of memory");
	vo.chains = *chains;
	*nr_chains = vo.nr_chains;
	*view = kmag_cgview_new(kmag_session_graph(s), &vo);
	return *view ? 0 : cli_error("out of memory");
}

/* The chart and the call graph of @s; returns the exit code. */
static int draw(const struct vis_opts *o, struct kmag_session *s, int verbose, double t0)
{
	double t1 = now_s(), t2, t3 = 0, t4;
	const struct kmag_cgview_summary *vs;
	struct vis_sources src = { 0 };
	struct kmag_cgview *view = NULL;
	struct kmag_cgview_chain *chains = NULL;
	size_t nr_chains = 0;
	char filters[1024];
	int ret;

	if ((ret = check_read(o, s)) || (ret = make_view(o, s, &src, &view, &chains, &nr_chains)))
		goto out;
	t2 = now_s();
	vs = kmag_cgview_summary(view);
	if (!vs->shown_nodes) {
		ret = explain_empty(s, o, vs);
		goto out;
	}
	tell_read(s);
	print_view(o, vs, nr_chains);
	describe_filters(s, o, filters, sizeof(filters));
	if (!o->no_chart && (ret = draw_chart(s, o, view, filters)))
		goto out;
	t3 = now_s();
	if (!o->layout && strcmp(kmag_graphviz_layout_for(vs->shown_nodes), "dot"))
		printf("graph: %zu functions are too many for a layered layout; drawing an overview with %s (this takes a few seconds)\n",
		       vs->shown_nodes, kmag_graphviz_layout_for(vs->shown_nodes));
	ret = draw_graph(s, o, view, &src, filters);
	t4 = now_s();
	if (verbose)
		fprintf(stderr, "kmag: time: read %.3f s, view %.3f s, chart %.3f s, graph %.3f s (%s layout)\n",
			t1 - t0, t2 - t1, t3 - t2, t4 - t3,
			o->layout ? o->layout : kmag_graphviz_layout_for(vs->shown_nodes));
	cli_warn_sources(s);
out:
	kmag_cgview_free(view);
	free(chains);
	return ret;
}

int cmd_visualize(struct kmag_cli *cli, int argc, char **argv)
{
	struct vis_opts o = { .image = DEFAULT_IMAGE, .chart = DEFAULT_CHART, .top = DEFAULT_TOP,
			      .max_nodes = DEFAULT_MAX_NODES, .heat = KMAG_SORT_CALLS };
	struct kmag_session *s = NULL;
	double t0 = now_s();
	int ret = parse_args(argc, argv, &o);

	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if ((ret = check_outputs(&o)))
		return ret;
	/* the graph (its call paths for --root's scope), probe hits, error paths, source files */
	o.so.views.graph = true;
	o.so.views.call_paths = o.root != NULL;
	o.so.views.probes = true;
	o.so.views.errors = o.errors;
	o.so.symbols = true;
	if (!(ret = cli_session_load("visualize", &o.so, &s)))
		ret = draw(&o, s, cli->verbose, t0);
	kmag_session_free(s);
	return ret;
}
