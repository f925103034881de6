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
	unsigned long limit;
	bool limit_set;
	bool all;
	unsigned long time_min;	/* --time-min */
	bool time_min_given;
	enum cli_color colour;	/* text */
	struct kmag_diff_opts opts;
	const char *path_a, *path_b;	/* the operands */
	struct kmag_session_opts so;	/* for both traces, each with the map of its kernel */
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
	CLI_SYMMAP_OPTIONS(so),
	CLI_SECTION("  (each trace is looked up in the map of its own kernel)\n"),
	CLI_INPUT_OPTIONS(so),
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
	if (!strcmp(a->path_a, "-") && !strcmp(a->path_b, "-"))
		return cli_usage_error("diff", "A and B are both standard input (\"-\"), which holds one trace: give at least one of them as a file");
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

/* A and B from different kernels: functions may have been renamed (kmag-diff(1)). */
static void warn_kernels(const struct kmag_trace_info *a, const struct kmag_trace_info *b,
			 const struct kmag_cgdiff *d)
{
	char ra[128], rb[128];

	if (!kmag_uname_differ(a->uname, b->uname))
		return;
	kmag_uname_release(a->uname, ra, sizeof(ra));
	kmag_uname_release(b->uname, rb, sizeof(rb));
	cli_warn("A and B come from different kernels (%s, %s): functions are matched by name, %zu renamed or cloned ones paired with their twin (the rules: man kmag-diff)",
		 ra, rb, kmag_cgdiff_nr_renamed(d));
}

static int render(const struct diff_args *a, const struct kmag_diff_report *r,
		  struct kmag_session *const sab[2], FILE *out)
{
	struct kmag_srcloc *loc_a = kmag_session_srcloc(sab[0]), *loc_b = kmag_session_srcloc(sab[1]);

	if (!strcmp(a->format, "json"))
		return kmag_diff_json(out, r);
	if (!strcmp(a->format, "dot"))
		return kmag_diff_dot(out, r);
	if (!strcmp(a->format, "html")) {
		char title[1600];
		struct kmag_explore x = {
			.diff = r->diff, .info = r->info_b, .info_a = r->info_a,
			.input = r->input_b, .input_a = r->input_a, .filters = r->filters,
			.visible = r->visible, .visible_ctx = r->visible_ctx,
			.visible_a = r->visible_a, .visible_a_ctx = r->visible_a_ctx,
			.path_filter = a->so.filter_filepath,
		};

		/* the page has one line for both */
		if (r->times[0]) {
			snprintf(title, sizeof(title), "%s%s%s", r->filters, r->filters[0] ? "; " : "",
				 r->times);
			x.filters = title;
		}
		if (loc_b) {
			x.srcline = kmag_srcloc_report_cb;
			x.srcline_ctx = loc_b;
		}
		if (loc_a) {
			x.srcline_a = kmag_srcloc_report_cb;
			x.srcline_a_ctx = loc_a;
		}
		return kmag_explore_html(out, &x);
	}
	return kmag_diff_text(out, r);
}

/* The tracer's cost taken off A's and B's times: one line when they agree, each its own otherwise. */
static const char *diff_times(struct kmag_session *const sab[2], char *buf, size_t len)
{
	const char *ta = kmag_session_times(sab[0]), *tb = kmag_session_times(sab[1]);

	if (!strcmp(ta, tb))
		return ta;
	snprintf(buf, len, "A: %s; B: %s", ta[0] ? ta : "the kernel's times",
		 tb[0] ? tb : "the kernel's times");
	return buf;
}

/* What changed from A to B, in the format asked for; returns the exit code. */
static int write_diff(const struct diff_args *a, struct kmag_session *const sab[2], bool tty)
{
	char times[1200];
	struct kmag_diff_report r = {
		.info_a = kmag_session_info(sab[0]), .info_b = kmag_session_info(sab[1]),
		.input_a = kmag_session_name(sab[0]),	/* "standard input" for "-" */
		.input_b = kmag_session_name(sab[1]),
		.filters = kmag_session_filters(sab[0]), .times = diff_times(sab, times, sizeof(times)),
		.limit = a->limit, .all = a->all,
		.colour = cli_color_on(a->colour, !a->output && tty),
	};
	struct kmag_cgdiff *d;
	struct cli_out o;
	int ret;

	if (r.info_a->tracer != r.info_b->tracer)
		cli_warn("A was recorded with the %s tracer and B with %s; their call edges mean different things, compare with care",
			 kmag_tracer_name(r.info_a->tracer), kmag_tracer_name(r.info_b->tracer));
	d = kmag_cgdiff_new(kmag_session_graph(sab[0]), kmag_session_symtab(sab[0]),
			    kmag_session_graph(sab[1]), kmag_session_symtab(sab[1]), &a->opts);
	if (!d)
		return cli_error("out of memory");
	warn_kernels(r.info_a, r.info_b, d);
	r.diff = d;
	if (kmag_session_pathfilter(sab[1])) {
		r.visible = kmag_srcloc_visible_cb;
		r.visible_ctx = kmag_session_srcloc(sab[1]);
		r.visible_a = kmag_srcloc_visible_cb;
		r.visible_a_ctx = kmag_session_srcloc(sab[0]);
		r.path_filter = a->so.filter_filepath;
	}
	ret = cli_out_open(a->output, &o);
	if (!ret)
		ret = cli_out_close(&o, render(a, &r, sab, o.f));
	if (!ret) {
		cli_warn_sources(sab[1]);
		warn_lost("A", a->path_a, r.info_a);
		warn_lost("B", a->path_b, r.info_b);
	}
	kmag_cgdiff_free(d);
	return ret;
}

int cmd_diff(struct kmag_cli *cli, int argc, char **argv)
{
	struct diff_args a = { .limit = 30, .so = { .symbols = true, .views = { .graph = true,
										     .durations = true } } };
	struct kmag_session *sab[2] = { NULL, NULL };
	int ret;

	kmag_diff_opts_init(&a.opts);
	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	a.so.path = a.path_a;
	if (!(ret = cli_session_load("diff", &a.so, &sab[0]))) {
		a.so.path = a.path_b;
		ret = cli_session_load("diff", &a.so, &sab[1]);
	}
	if (!ret)
		ret = write_diff(&a, sab, cli->stdout_tty);
	kmag_session_free(sab[0]);
	kmag_session_free(sab[1]);
	return ret;
}
