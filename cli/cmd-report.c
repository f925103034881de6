// SPDX-License-Identifier: MIT
/*
 * cmd-report.c - `kmag report`: the functions of a trace as a table.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "cli.h"
#include "kmag/argstats.h"
#include "kmag/callsites.h"
#include "kmag/srclines.h"
#include "kmag/durations.h"
#include "kmag/errors.h"
#include "kmag/probes.h"
#include "kmag/render/argstats.h"
#include "kmag/render/durations.h"
#include "kmag/render/errors.h"
#include "kmag/render/latency.h"
#include "kmag/render/probes.h"
#include "kmag/render/report.h"
#include "kmag/report.h"

static const struct cli_command report_cmd = {
	.name = "report",
	.usage = "Usage: kmag report [options] [FILE]\n"
		 "\n"
		 "Summarise a trace (trace.dat v6/v7 or ftrace text; default ./trace.dat):\n"
		 "the functions it ran, how often, and (function_graph) for how long.\n",
};

#define MAX_ARG_SPECS 16

/* The command line of a report. */
struct report_args {
	const char *format, *focus;	/* focus: --callers/--callees FUNC */
	const char *latency;		/* --latency FUNC */
	unsigned long limit, slowest;
	bool limit_set, sort_set;
	bool probes, errors;		/* --probes, --errors */
	const char *arg_specs[MAX_ARG_SPECS];	/* --arg FUNC:ARG */
	size_t nr_arg_specs;
	struct kmag_report r;		/* sort, callers */
	struct kmag_session_opts so;
};

static int parse_sort(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	(void)o;
	if (kmag_sort_key_parse(arg, value))
		return cli_usage_error(cmd, "unknown sort key \"%s\" (choose %s)", arg,
				       kmag_sort_key_names());
	return 0;
}

/* --callers/--callees FUNC: one function to focus on */
static int parse_focus(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	struct report_args *a = value;

	if (a->focus)
		return cli_usage_error(cmd, "give only one of --callers and --callees");
	a->focus = arg;
	a->r.callers = !strcmp(o->long_name, "callers");
	return 0;
}

static int parse_arg_spec(const struct cli_option *o, void *value, const char *arg,
			  const char *cmd)
{
	struct report_args *a = value;

	(void)o;
	if (!strchr(arg, ':') || arg[0] == ':' || !strchr(arg, ':')[1])
		return cli_usage_error(cmd, "--arg expects FUNCTION:ARGUMENT like vfs_write:count, got \"%s\"",
				       arg);
	if (a->nr_arg_specs == MAX_ARG_SPECS)
		return cli_usage_error(cmd, "at most %d --arg options", MAX_ARG_SPECS);
	a->arg_specs[a->nr_arg_specs++] = arg;
	return 0;
}

#define CLI_ARGS struct report_args
static const struct cli_option report_options[] = {
	CLI_SECTION("\nOutput:\n"),
	CLI_OPTION_GIVEN('s', "sort", "KEY", parse_sort, r.sort, enum kmag_sort_key *, sort_set,
			 "calls (default), total, self, avg, max, min,\n"
			 "incomplete, name"),
	CLI_ULONG_GIVEN(0, "limit", "N", limit, limit_set,
			"show the top N functions (default 50 for text, all\n"
			"for json/csv; 0 = all)"),
	CLI_CALLBACK(0, "callers", "FUNC", parse_focus, "who called FUNC, with counts and times"),
	CLI_CALLBACK(0, "callees", "FUNC", parse_focus, "what FUNC called"),
	CLI_STRING(0, "latency", "FUNC", latency,
		   "FUNC's durations as bcc's funclatency shows them: a\n"
		   "log2 histogram with counts, avg, total, count and\n"
		   "p50/p90/p99 (function_graph traces; text or json)"),
	CLI_FORMAT("FMT", format, "text,json,csv", "text (default), json or csv"),
	CLI_FLAG(0, "probes", probes,
		 "the probe events (kmag record --kprobe/--uprobe):\n"
		 "hits per probe, and per argument min, max, mean,\n"
		 "the most frequent values and a histogram (text or\n"
		 "json)"),
	CLI_ULONG_RANGE(0, "slowest", "N", slowest, 1, 100000, "--slowest N takes 1..100000 calls",
			"the N longest calls with their call chains, and\n"
			"where recorded their arguments, return values and\n"
			"call sites (function_graph traces; text or json)"),
	CLI_FLAG(0, "errors", errors,
		 "where the errors were born, as `kmag errors` shows\n"
		 "them (needs funcgraph-retval; text or json)"),
	CLI_CALLBACK(0, "arg", "FUNC:ARG", parse_arg_spec,
		     "a summary of argument ARG over FUNC's calls: count,\n"
		     "min, max, the most frequent values, a histogram by\n"
		     "power of two (funcgraph-args, Linux 6.15+; text or\n"
		     "json; repeatable)"),
	CLI_BTF_OPTION(so, "the kernel's BTF (a copy of /sys/kernel/btf/vmlinux, or\n"
			   "a vmlinux): names a trace.dat's arguments for --arg\n"
			   "and --slowest"),
	CLI_VMLINUX_OPTION(so.vmlinux, "the kernel's vmlinux with DWARF: call sites\n"
				       "(funcgraph-retaddr) as source lines, per caller with\n"
				       "--callers/--callees, per call with --slowest"),
	CLI_MIN_DURATION_OPTION(so),
	CLI_ERRNO_OPTION(so.errnum,
			 "count only the calls that returned -ERRNO (a name\n"
			 "like EINVAL, or 22): who returns it, how often, for\n"
			 "how long; with --errors, only its origins (needs\n"
			 "funcgraph-retval, Linux 6.5+)"),
	CLI_SYMMAP_OPTIONS(so),
	CLI_INPUT_OPTIONS(so),
	CLI_SECTION("\n"),
	CLI_HELP_OPTION,
	CLI_END,
};
#undef CLI_ARGS

/* The options that only some views take, or in some formats: refused rather than ignored. */
static int check_views(const struct report_args *a)
{
	int ret;

	/* one view at a time; which formats each view has: cli/formats.c */
	if (a->probes + !!a->slowest + !!a->focus + a->errors + !!a->nr_arg_specs + !!a->latency > 1)
		return cli_usage_error("report", "--probes, --slowest, --errors, --arg, --latency and --callers/--callees are separate views: give one");
	if (a->so.vmlinux && !a->slowest && !a->focus)
		return cli_usage_error("report", "--vmlinux shows call sites with --callers, --callees or --slowest: add one");
	if (a->slowest && a->so.filter_filepath)
		return cli_usage_error("report", "--filter-filepath filters the functions table, not the --slowest calls: leave it out");
	if (a->latency && (a->sort_set || a->limit_set))
		return cli_usage_error("report", "--sort and --limit order and cut the functions table; --latency shows one function");
	if (a->slowest && (a->sort_set || a->limit_set))
		return cli_usage_error("report", "--sort and --limit order and cut the functions table; --slowest N keeps the N longest calls, longest first");
	if ((a->so.vmlinux && (ret = cli_format_check("report", "--vmlinux", a->format))) ||
	    (a->errors && (ret = cli_format_check("report", "--errors", a->format))) ||
	    (a->nr_arg_specs && (ret = cli_format_check("report", "--arg", a->format))) ||
	    (a->probes && (ret = cli_format_check("report", "--probes", a->format))) ||
	    (a->slowest && (ret = cli_format_check("report", "--slowest", a->format))) ||
	    (a->latency && (ret = cli_format_check("report", "--latency", a->format))))
		return ret;
	return 0;
}

/* Parses the options; returns 0, -1 after --help, or the exit code of a usage error. */
static int parse_args(int argc, char **argv, struct report_args *a)
{
	struct kmag_session_views *v = &a->so.views;
	int ret = cli_parse(&report_cmd, argc, argv, report_options, a);

	if (ret || (ret = cli_input_arg("report", argc, argv, &a->so.path)) ||
	    (ret = check_views(a)))
		return ret;
	if (!a->limit_set && !strcmp(a->format, "text") && !a->focus)
		a->limit = 50;
	/* the views: the functions table always; probe hits annotate it (not --slowest's) */
	v->graph = true;
	/* percentiles: in JSON and CSV, and --latency's histogram; the text table has none */
	v->durations = strcmp(a->format, "text") || a->latency;
	v->probes = !a->slowest;
	v->slowest = a->slowest;
	v->errors = a->errors;
	v->args = a->arg_specs;
	v->nr_args = a->nr_arg_specs;
	v->callsites = a->so.vmlinux && a->focus;	/* --slowest resolves its calls' own */
	/* the header says what a trace holds, also without calls (then, why the table is empty) */
	a->so.calls_optional = !a->slowest && !a->errors && !a->nr_arg_specs && !a->latency;
	a->so.symbols = true;
	return 0;
}

/*
 * Views built on call durations need a trace that has them (function_graph):
 * refused with a message, as visualize --heat total is, rather than a table
 * of zeros sorted by nothing. Returns 0 or EXIT_ERR.
 */
static int check_durations(const struct report_args *a, const struct kmag_session *s)
{
	static const char *const timed[] = {
		[KMAG_SORT_TOTAL] = "total", [KMAG_SORT_SELF] = "self", [KMAG_SORT_AVG] = "avg",
		[KMAG_SORT_MAX] = "max", [KMAG_SORT_MIN] = "min",
	};

	const struct kmag_trace_info *info = kmag_session_info(s);

	if ((a->slowest || a->latency) && info->format == KMAG_INPUT_PROFILE)
		return cli_error("%s is a profile (sums of calls, from report --format json or merge): %s needs a trace's calls",
				 kmag_session_name(s), a->slowest ? "--slowest" : "--latency");
	/* has_durations tells the exit format has times; a function tracer never fills them */
	if (info->tracer == KMAG_TRACER_FUNCTION_GRAPH && info->has_durations)
		return 0;
	if (a->slowest || a->latency)
		return cli_error("%s needs call durations, which this trace lacks (function tracer); record with function_graph",
				 a->slowest ? "--slowest" : "--latency");
	if (a->sort_set && (size_t)a->r.sort < sizeof(timed) / sizeof(timed[0]) && timed[a->r.sort])
		return cli_error("--sort %s needs call durations, which this trace lacks (function tracer); use --sort calls, incomplete or name, or record with function_graph",
				 timed[a->r.sort]);
	return 0;
}

/* --slowest N: prints the calls; returns the exit code. */
static int print_slowest(const struct report_args *a, const struct kmag_session *s)
{
	int (*print)(FILE *, const struct kmag_slowest *, const struct kmag_symtab *,
		     const struct kmag_trace *, struct kmag_srclines *) =
		!strcmp(a->format, "json") ? kmag_slowest_json : kmag_slowest_text;

	return cli_write_error(NULL, print(stdout, kmag_session_slowest(s), kmag_session_symtab(s),
					   kmag_session_trace(s), kmag_session_srclines(s)));
}

/* --latency FUNC: prints FUNC's histogram; returns the exit code. */
static int print_latency(const struct report_args *a, const struct kmag_session *s)
{
	const struct kmag_cg *cg = kmag_session_graph(s);
	struct kmag_latency l = { .name = a->latency };
	long node;
	int ret = cli_find_function(s, "--latency", a->latency, &node);

	if (ret)
		return ret;
	l.st = &kmag_cg_nodes(cg)[node].st;
	l.dist = kmag_cg_node_dist(cg, (size_t)node);
	if (!l.dist)
		return cli_error("%s has no call with a duration in %s (%" PRIu64 " call%s, none with both its entry and exit): record longer, or look at another function",
				 a->latency, kmag_session_name(s), l.st->calls,
				 l.st->calls == 1 ? "" : "s");
	return cli_write_error(NULL, !strcmp(a->format, "json") ? kmag_latency_json(stdout, &l) :
								  kmag_latency_text(stdout, &l));
}

/* --errors: prints where the errors were born; returns the exit code. */
static int print_errors(const struct report_args *a, const struct kmag_session *s)
{
	struct kmag_errors *e = kmag_session_errors(s);
	struct kmag_errors_render_opts o = {
		.format = !strcmp(a->format, "json") ? KMAG_ERRORS_JSON : KMAG_ERRORS_TEXT,
		.limit = a->limit_set ? a->limit : 0,
		.source = kmag_session_name(s),
		.types_from = kmag_session_types_from(s),
	};

	if (kmag_session_info(s)->format == KMAG_INPUT_PROFILE)
		return cli_error("%s is a profile (sums of calls, from report --format json or merge): --errors needs a trace's calls",
				 o.source);
	if (!kmag_errors_stats(e)->calls_with_retval)
		return cli_error("%s: " CLI_ERRORS_NEED_RETVAL, o.source);
	return cli_write_error(NULL, kmag_errors_render(stdout, e, kmag_session_symtab(s), &o));
}

/* --arg: prints the argument summaries; returns the exit code. */
static int print_argstats(const struct report_args *a, const struct kmag_session *s)
{
	struct kmag_argstats *st = kmag_session_argstats(s);

	return cli_write_error(NULL, !strcmp(a->format, "json") ? kmag_argstats_json(stdout, st) :
								  kmag_argstats_text(stdout, st));
}

/* --probes: prints the probe statistics; returns the exit code. */
static int print_probes(const struct report_args *a, const struct kmag_session *s)
{
	struct kmag_probes *p = kmag_session_probes(s);

	if (!p)
		return cli_error("--probes needs a trace.dat: text traces carry no event formats to decode probe arguments");
	return cli_write_error(NULL, !strcmp(a->format, "json") ?
					     kmag_probes_json(stdout, p, kmag_session_symtab(s)) :
					     kmag_probes_text(stdout, p, kmag_session_symtab(s)));
}

static const char *call_sites_cb(void *ctx, kmag_func_t caller, kmag_func_t callee, char *buf,
				 size_t size)
{
	return kmag_callsites_describe(ctx, caller, callee, buf, size);
}

/* The source files of the table: file:line, and the path filter with its counts. */
static void table_sources(struct report_args *a, const struct kmag_session *s, char *filters,
			  size_t size)
{
	struct kmag_report *r = &a->r;
	struct kmag_srcloc *loc = kmag_session_srcloc(s);
	char path[600];

	if (!loc)
		return;
	r->srcline = kmag_srcloc_report_cb;
	r->srcline_ctx = loc;
	if (!kmag_session_pathfilter(s))
		return;
	r->visible = kmag_srcloc_visible_cb;
	r->visible_ctx = loc;
	cli_describe_path(s, a->so.filter_filepath, path, sizeof(path));
	snprintf(filters, size, "%s%s%s", r->filters, r->filters[0] ? ", " : "", path);
	r->filters = filters;
}

/* The functions table, or one function's callers/callees; returns the exit code. */
static int print_table(struct report_args *a, const struct kmag_session *s)
{
	struct kmag_probes *p = kmag_session_probes(s);
	struct kmag_report *r = &a->r;
	char filters[1200];
	int ret;

	if (p && kmag_probes_count(p)) {
		r->probe_hits = kmag_probes_hits_cb;
		r->probe_hits_ctx = p;
	}
	if (kmag_session_callsites(s)) {
		r->call_sites = call_sites_cb;
		r->call_sites_ctx = kmag_session_callsites(s);
	}
	r->cg = kmag_session_graph(s);
	r->st = kmag_session_symtab(s);
	r->info = kmag_session_info(s);
	r->input = kmag_session_name(s);
	r->filters = kmag_session_filters(s);
	r->times = kmag_session_times(s);
	r->tracer_cost_ns = kmag_session_tracer_cost(s);
	r->limit = a->limit;
	table_sources(a, s, filters, sizeof(filters));
	if (a->focus && (ret = cli_find_function(s, r->callers ? "--callers" : "--callees",
						 a->focus, &r->focus)))
		return ret;
	if (!strcmp(a->format, "json"))
		ret = kmag_report_json(stdout, r);
	else if (!strcmp(a->format, "csv"))
		ret = kmag_report_csv(stdout, r);
	else
		ret = kmag_report_text(stdout, r);
	/* said, not left as empty cells: a profile's sums hold no single call */
	if (strcmp(a->format, "text") && r->info->format == KMAG_INPUT_PROFILE &&
	    kmag_cg_summary(r->cg)->has_time)
		fprintf(stderr, "kmag: note: %s is a profile, which keeps sums and not each call's duration: its p50, p90 and p99 are %s; report the traces it was made from for them\n",
			r->input, strcmp(a->format, "json") ? "empty" : "null");
	if (kmag_session_no_calls(s))
		cli_warn("%s", kmag_session_no_calls(s));
	cli_warn_sources(s);
	return cli_write_error(NULL, ret);
}

/* The view the options asked for; returns the exit code. */
static int render(struct report_args *a, const struct kmag_session *s)
{
	int ret = check_durations(a, s);

	if (ret)
		return ret;
	if (a->slowest)
		return print_slowest(a, s);
	if (a->latency)
		return print_latency(a, s);
	if (a->errors)
		return print_errors(a, s);
	if (a->nr_arg_specs)
		return print_argstats(a, s);
	if (a->probes)
		return print_probes(a, s);
	return print_table(a, s);
}

int cmd_report(struct kmag_cli *cli, int argc, char **argv)
{
	struct report_args a = { .format = "text", .r = { .focus = -1 } };
	struct kmag_session *s = NULL;
	int ret = parse_args(argc, argv, &a);

	(void)cli;
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (!(ret = cli_session_load("report", &a.so, &s)))
		ret = render(&a, s);
	kmag_session_free(s);
	return ret;
}
