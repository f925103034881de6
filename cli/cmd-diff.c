// SPDX-License-Identifier: MIT
/*
 * cmd-diff.c - `kmag diff A B`: what changed between two recordings.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "kmag/cgdiff.h"
#include "kmag/render/diff.h"
#include "kmag/render/explore.h"

static const struct cli_command diff_cmd = {
	.name = "diff",
	.usage = "Usage: kmag diff [options] A B\n"
		 "\n"
		 "Compare two recordings of the same workload (say, before and after a patch):\n"
		 "which functions and call edges are new in B, gone from A, called more or less\n"
		 "often, or slower or faster. Growth is red, shrinkage blue.\n",
};

struct diff_args {
	const char *format, *output;
	struct cli_symmap sm_a, sm_b;	/* the same options, one map per trace */
	unsigned long limit;
	bool limit_set;
	bool all;
	unsigned long time_min;	/* --time-min */
	bool time_min_given;
	enum cli_color colour;	/* text */
	struct kmag_diff_opts opts;
	const char *path_a, *path_b;	/* the operands */
	struct cli_input in;
};

static int parse_pct(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	double *out = value;
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	if (!*arg || *end || errno || *out < 0 || *out > 100)
		return cli_usage_error(cmd, "--%s expects a percentage between 0 and 100, got \"%s\"",
				       o->long_name, arg);
	return 0;
}

#define CLI_ARGS struct diff_args
static const struct cli_option diff_options[] = {
	CLI_SECTION("\nOutput:\n"),
	CLI_FORMAT("FMT", format, "text,json,dot,html",
		   "text (default), json, dot (Graphviz, the changed part\n"
		   "of the graph) or html (interactive explorer)"),
	CLI_STRING('o', "output", "PATH", output,
		   "output file (default: standard output; html:\n"
		   "kmag-diff.html); without -F, a name ending .json,\n"
		   ".dot or .html picks the format (a picture: refused)"),
	CLI_ULONG_GIVEN(0, "limit", "N", limit, limit_set, "text: rows per section (default 30; 0 = all)"),
	CLI_FLAG(0, "all", all, "dot: also draw unchanged functions and edges"),
	CLI_COLOR_OPTION(colour),
	CLI_OPTION(0, "calls-pct", "P", parse_pct, opts.calls_pct, double *,
		   "a call count changed if it moved by P% (default 10)"),
	CLI_OPTION(0, "time-pct", "P", parse_pct, opts.time_pct, double *,
		   "a time changed if it moved by P% (default 25) ..."),
	CLI_ULONG_GIVEN(0, "time-min", "NS", time_min, time_min_given,
			"... and by at least NS nanoseconds (default 1000)"),
	CLI_SYMMAP_OPTIONS(sm_b),
	CLI_SECTION("  (each trace is looked up in the map of its own kernel)\n"),
	CLI_INPUT_OPTIONS(in),
	CLI_SECTION("  (the input options apply to both traces)\n\n"),
	CLI_HELP_OPTION,
	CLI_END,
};
#undef CLI_ARGS

static int parse_args(int argc, char **argv, struct diff_args *a)
{
	int ret = cli_parse(&diff_cmd, argc, argv, diff_options, a);

	if (ret)
		return ret;
	if (a->time_min_given)
		a->opts.time_min_ns = a->time_min;
	if (argc - optind != 2)
		return cli_usage_error("diff", "give two traces to compare, A (before) and B (after)%s",
				       argc - optind > 2 ? "; too many arguments" : "");
	a->path_a = argv[optind];
	a->path_b = argv[optind + 1];
	/* the output's name and the format agree (cli/formats.c) */
	if ((ret = cli_output_format("diff", a->output, "text,json,dot,html", &a->format)))
		return ret;
	if (!a->format)
		a->format = "text";
	if ((a->limit_set && (ret = cli_format_check("diff", "--limit", a->format))) ||
	    (a->all && (ret = cli_format_check("diff", "--all", a->format))))
		return ret;
	if (!strcmp(a->format, "dot") && cli_lacks_feature(KMAG_FEATURE_GRAPHVIZ, "diff -F dot"))
		return EXIT_ERR;
	if (!strcmp(a->format, "html") && !a->output)
		a->output = "kmag-diff.html";
	if (a->output && !strcmp(a->output, "-"))
		a->output = NULL;
	return 0;
}

static void warn_lost(const char *tag, const char *path, const struct kmag_trace_info *i)
{
	if (i->lost)
		cli_warn("%s (%s) lost %" PRIu64 " events; calls around the gaps are incomplete and may show up as changes",
			 tag, path, i->lost);
	else if (i->lost_unknown)
		cli_warn("%s (%s) lost events; calls around the gaps are incomplete and may show up as changes",
			 tag, path);
}

static int render(const struct diff_args *a, const struct kmag_diff_report *r, FILE *out)
{
	if (!strcmp(a->format, "json"))
		return kmag_diff_json(out, r);
	if (!strcmp(a->format, "dot"))
		return kmag_diff_dot(out, r);
	if (!strcmp(a->format, "html")) {
		struct kmag_explore x = {
			.diff = r->diff, .info = r->info_b, .info_a = r->info_a,
			.input = r->input_b, .input_a = r->input_a, .filters = r->filters,
			.visible = r->visible, .visible_ctx = r->visible_ctx,
			.visible_a = r->visible_a, .visible_a_ctx = r->visible_a_ctx,
			.path_filter = a->sm_b.filepath,
		};

		if (a->sm_b.loc) {
			x.srcline = kmag_srcloc_report_cb;
			x.srcline_ctx = a->sm_b.loc;
		}
		if (a->sm_a.loc) {
			x.srcline_a = kmag_srcloc_report_cb;
			x.srcline_a_ctx = a->sm_a.loc;
		}
		return kmag_explore_html(out, &x);
	}
	return kmag_diff_text(out, r);
}

int cmd_diff(struct kmag_cli *cli, int argc, char **argv)
{
	struct diff_args a = { .limit = 30 };
	struct cli_input *const in = &a.in;
	struct kmag_diff_report r = { 0 };
	struct cli_graph ga = { 0 }, gb = { 0 };
	struct kmag_cgdiff *d = NULL;
	struct cli_out o;
	int ret;

	kmag_diff_opts_init(&a.opts);
	a.sm_b.cmd = "diff";
	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	a.sm_a.cmd = "diff";
	a.sm_a.map_path = a.sm_b.map_path;
	a.sm_a.filepath = a.sm_b.filepath;
	in->after_open = cli_symmap_after_open;
	in->path = a.path_a;
	in->after_open_ctx = &a.sm_a;
	ret = cli_load_graph("diff", in, &ga);
	if (ret)
		goto out;
	in->path = a.path_b;
	in->after_open_ctx = &a.sm_b;
	ret = cli_load_graph("diff", in, &gb);
	if (ret)
		goto out;
	r.info_a = kmag_trace_info(ga.trace);
	r.info_b = kmag_trace_info(gb.trace);
	if (r.info_a->tracer != r.info_b->tracer)
		cli_warn("A was recorded with the %s tracer and B with %s; their call edges mean different things, compare with care",
			 kmag_tracer_name(r.info_a->tracer), kmag_tracer_name(r.info_b->tracer));
	d = kmag_cgdiff_new(ga.cg, kmag_trace_symtab(ga.trace), gb.cg, kmag_trace_symtab(gb.trace),
			    &a.opts);
	if (!d) {
		ret = cli_error("out of memory");
		goto out;
	}
	r.diff = d;
	r.input_a = ga.path;	/* "standard input" for "-" */
	r.input_b = gb.path;
	r.filters = ga.filters;
	r.limit = a.limit;
	r.all = a.all;
	if (a.sm_b.filter) {
		r.visible = kmag_srcloc_visible_cb;
		r.visible_ctx = a.sm_b.loc;
		r.visible_a = kmag_srcloc_visible_cb;
		r.visible_a_ctx = a.sm_a.loc;
		r.path_filter = a.sm_b.filepath;
	}
	ret = cli_out_open(a.output, &o);
	r.colour = cli_color_on(a.colour, !a.output && cli->stdout_tty);
	if (!ret)
		ret = cli_out_close(&o, render(&a, &r, o.f));
	if (!ret) {
		cli_symmap_warn(&a.sm_b);
		warn_lost("A", a.path_a, r.info_a);
		warn_lost("B", a.path_b, r.info_b);
	}
out:
	kmag_cgdiff_free(d);
	cli_graph_release(&ga);
	cli_graph_release(&gb);
	cli_symmap_release(&a.sm_a);
	cli_symmap_release(&a.sm_b);
	return ret;
}
