// SPDX-License-Identifier: MIT
/*
 * cmd-report.c - `kmag report`: the functions of a trace as a table.
 */
#include <errno.h>
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

/* What the report collects next to the call graph. */
struct report_extra {
	struct cli_symmap *sm;
	bool want_probes;
	struct cli_probe_hits ph;	/* probes of a trace.dat (not with --slowest) */
	struct kmag_slowest *slowest;
	bool want_errors;
	struct kmag_errors *errors;	/* --errors, made once the trace is open */
	struct cli_errors_types types;	/* its return types */
	const char *btf_path;		/* --btf */
	const char *arg_specs[MAX_ARG_SPECS];	/* --arg FUNC:ARG */
	size_t nr_arg_specs;
	struct kmag_argstats *argstats;
	const char *vmlinux;		/* --vmlinux */
	bool want_callsites;		/* --vmlinux with --callers/--callees */
	struct kmag_srclines *lines;
	struct kmag_callsites *callsites;
};

static int report_after_open(void *ctx, struct kmag_trace *t)
{
	struct report_extra *x = ctx;
	/* probe hits annotate the functions they probe, whenever the trace has formats */
	int ret = x->slowest ? cli_symmap_after_open(x->sm, t) : cli_probe_hits_after_open(&x->ph, t);

	if (ret)
		return ret;
	if (x->want_errors) {
		if (!(x->errors = kmag_errors_new(kmag_trace_symtab(t))))
			return cli_error("out of memory");
		if ((ret = cli_errors_use_types(&x->types, x->errors, t, x->btf_path)))
			return ret;
	}
	if (x->want_probes && kmag_trace_info(t)->format != KMAG_INPUT_TRACEDAT)
		return cli_error("--probes needs a trace.dat: text traces carry no event formats to decode probe arguments");
	if (x->want_callsites && !(x->callsites = kmag_callsites_new(kmag_trace_symtab(t), x->lines)))
		return cli_error("out of memory");
	if (x->nr_arg_specs) {
		struct kmag_err err = { 0 };

		if (!(x->argstats = kmag_argstats_new(t)))
			return cli_error("out of memory");
		for (size_t i = 0; i < x->nr_arg_specs; i++)
			if (kmag_argstats_want(x->argstats, x->arg_specs[i], &err))
				return cli_lib_error(&err, "out of memory");
	}
	return 0;
}

static int extra_tap(const struct kmag_event *ev, void *ctx)
{
	struct report_extra *x = ctx;

	return x->ph.probes ? cli_probe_hits_tap(ev, &x->ph) : 0;
}

/* --slowest, --arg: the calls are the graph's own, from its replay */
static int slowest_with_graph(void *ctx, struct kmag_cg *cg)
{
	struct report_extra *x = ctx;

	if (x->slowest && kmag_slowest_subscribe(x->slowest, kmag_cg_replay(cg)))
		return cli_error("out of memory");
	if (x->argstats && kmag_argstats_subscribe(x->argstats, kmag_cg_replay(cg)))
		return cli_error("out of memory");
	if (x->callsites && kmag_callsites_subscribe(x->callsites, kmag_cg_replay(cg)))
		return cli_error("out of memory");
	return 0;
}

/* --errors: where errors were born, from the graph's replay */
static int errors_with_graph(void *ctx, struct kmag_cg *cg)
{
	struct report_extra *x = ctx;

	if (kmag_errors_subscribe(x->errors, kmag_cg_replay(cg)))
		return cli_error("out of memory");
	return 0;
}

/* The command line of a report. */
struct report_args {
	const char *format, *focus;	/* focus: --callers/--callees FUNC */
	unsigned long limit, slowest;
	bool limit_set, sort_set;
	struct kmag_report r;		/* sort, callers */
	struct report_extra x;		/* --probes, --errors, --arg, --vmlinux */
	struct cli_input in;
	struct cli_symmap sm;
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
	struct report_extra *x = &((struct report_args *)value)->x;

	(void)o;
	if (!strchr(arg, ':') || arg[0] == ':' || !strchr(arg, ':')[1])
		return cli_usage_error(cmd, "--arg expects FUNCTION:ARGUMENT like vfs_write:count, got \"%s\"",
				       arg);
	if (x->nr_arg_specs == MAX_ARG_SPECS)
		return cli_usage_error(cmd, "at most %d --arg options", MAX_ARG_SPECS);
	x->arg_specs[x->nr_arg_specs++] = arg;
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
	CLI_FORMAT("FMT", format, "text,json,csv", "text (default), json or csv"),
	CLI_FLAG(0, "probes", x.want_probes,
		 "the probe events (kmag record --kprobe/--uprobe):\n"
		 "hits per probe, and per argument min, max, mean,\n"
		 "the most frequent values and a histogram (text or\n"
		 "json)"),
	CLI_ULONG_RANGE(0, "slowest", "N", slowest, 1, 100000, "--slowest N takes 1..100000 calls",
			"the N longest calls with their call chains, and\n"
			"where recorded their arguments, return values and\n"
			"call sites (function_graph traces; text or json)"),
	CLI_FLAG(0, "errors", x.want_errors,
		 "where the errors were born, as `kmag errors` shows\n"
		 "them (needs funcgraph-retval; text or json)"),
	CLI_CALLBACK(0, "arg", "FUNC:ARG", parse_arg_spec,
		     "a summary of argument ARG over FUNC's calls: count,\n"
		     "min, max, the most frequent values, a histogram by\n"
		     "power of two (funcgraph-args, Linux 6.15+; text or\n"
		     "json; repeatable)"),
	CLI_BTF_OPTION(in, "the kernel's BTF (a copy of /sys/kernel/btf/vmlinux, or\n"
			   "a vmlinux): names a trace.dat's arguments for --arg\n"
			   "and --slowest"),
	CLI_VMLINUX_OPTION(x.vmlinux, "the kernel's vmlinux with DWARF: call sites\n"
				      "(funcgraph-retaddr) as source lines, per caller with\n"
				      "--callers/--callees, per call with --slowest"),
	CLI_MIN_DURATION_OPTION(in),
	CLI_SYMMAP_OPTIONS(sm),
	CLI_INPUT_OPTIONS(in),
	CLI_SECTION("\n"),
	CLI_HELP_OPTION,
	CLI_END,
};
#undef CLI_ARGS

/* Parses the options; returns 0, -1 after --help, or the exit code of a usage error. */
static int parse_args(int argc, char **argv, struct report_args *a)
{
	struct report_extra *x = &a->x;
	struct cli_input *in = &a->in;
	struct cli_symmap *sm = &a->sm;
	int ret = cli_parse(&report_cmd, argc, argv, report_options, a);

	if (ret)
		return ret;
	if ((ret = cli_input_arg("report", argc, argv, in)))
		return ret;
	if (!a->limit_set && !strcmp(a->format, "text") && !a->focus)
		a->limit = 50;
	/* one view at a time; which formats each view has: cli/formats.c */
	if (x->want_probes + !!a->slowest + !!a->focus + x->want_errors + !!x->nr_arg_specs > 1)
		return cli_usage_error("report", "--probes, --slowest, --errors, --arg and --callers/--callees are separate views: give one");
	/* options that only some views use: refused elsewhere rather than ignored */
	if (x->vmlinux && !a->slowest && !a->focus)
		return cli_usage_error("report", "--vmlinux shows call sites with --callers, --callees or --slowest: add one");
	if (a->slowest && sm->filepath)
		return cli_usage_error("report", "--filter-filepath filters the functions table, not the --slowest calls: leave it out");
	if (a->slowest && (a->sort_set || a->limit_set))
		return cli_usage_error("report", "--sort and --limit order and cut the functions table; --slowest N keeps the N longest calls, longest first");
	if (x->vmlinux && (ret = cli_format_check("report", "--vmlinux", a->format)))
		return ret;
	if (x->want_errors && (ret = cli_format_check("report", "--errors", a->format)))
		return ret;
	if (x->nr_arg_specs && (ret = cli_format_check("report", "--arg", a->format)))
		return ret;
	if (x->want_probes && (ret = cli_format_check("report", "--probes", a->format)))
		return ret;
	if (a->slowest && (ret = cli_format_check("report", "--slowest", a->format)))
		return ret;
	return 0;
}

/*
 * Views built on call durations need a trace that has them (function_graph):
 * refused with a message, as visualize --heat total is, rather than a table
 * of zeros sorted by nothing. Returns 0 or EXIT_ERR.
 */
static int check_durations(const struct report_args *a, const struct cli_graph *g)
{
	static const char *const timed[] = {
		[KMAG_SORT_TOTAL] = "total", [KMAG_SORT_SELF] = "self", [KMAG_SORT_AVG] = "avg",
		[KMAG_SORT_MAX] = "max", [KMAG_SORT_MIN] = "min",
	};

	const struct kmag_trace_info *info = kmag_trace_info(g->trace);

	if (a->slowest && info->format == KMAG_INPUT_PROFILE)
		return cli_error("%s is a profile (sums of calls, from report --format json or merge): --slowest needs a trace's calls",
				 g->path);
	/* has_durations tells the exit format has times; a function tracer never fills them */
	if (info->tracer == KMAG_TRACER_FUNCTION_GRAPH && info->has_durations)
		return 0;
	if (a->slowest)
		return cli_error("--slowest needs call durations, which this trace lacks (function tracer); record with function_graph");
	if (a->sort_set && (size_t)a->r.sort < sizeof(timed) / sizeof(timed[0]) && timed[a->r.sort])
		return cli_error("--sort %s needs call durations, which this trace lacks (function tracer); use --sort calls, incomplete or name, or record with function_graph",
				 timed[a->r.sort]);
	return 0;
}

/* --slowest N: prints the calls; returns the exit code. */
static int print_slowest(struct report_extra *x, struct cli_graph *g, const char *format)
{
	int ret;

	kmag_slowest_finish(x->slowest);
	if (!strcmp(format, "json"))
		ret = kmag_slowest_json(stdout, x->slowest, kmag_trace_symtab(g->trace), g->trace,
					x->lines);
	else
		ret = kmag_slowest_text(stdout, x->slowest, kmag_trace_symtab(g->trace), g->trace,
					x->lines);
	return cli_write_error(NULL, ret);
}

/* --errors: prints where the errors were born; returns the exit code. */
static int print_errors(struct report_args *a, struct report_extra *x, struct cli_graph *g)
{
	struct kmag_errors_render_opts o = {
		.format = !strcmp(a->format, "json") ? KMAG_ERRORS_JSON : KMAG_ERRORS_TEXT,
		.limit = a->limit_set ? a->limit : 0,
		.source = g->path,
		.types_from = x->types.from,
	};
	int ret = kmag_errors_finish(x->errors);

	if (ret)
		return cli_error("cannot find the errors of %s: %s", g->path, strerror(-ret));
	if (kmag_trace_info(g->trace)->format == KMAG_INPUT_PROFILE)
		return cli_error("%s is a profile (sums of calls, from report --format json or merge): --errors needs a trace's calls",
				 g->path);
	if (!kmag_errors_stats(x->errors)->calls_with_retval)
		return cli_error("%s: " CLI_ERRORS_NEED_RETVAL, g->path);
	ret = kmag_errors_render(stdout, x->errors, kmag_trace_symtab(g->trace), &o);
	return cli_write_error(NULL, ret);
}

/* --arg: prints the argument summaries; returns the exit code. */
static int print_argstats(struct report_extra *x, const char *format)
{
	int ret;

	kmag_argstats_finish(x->argstats);
	if (!strcmp(format, "json"))
		ret = kmag_argstats_json(stdout, x->argstats);
	else
		ret = kmag_argstats_text(stdout, x->argstats);
	return cli_write_error(NULL, ret);
}

/* --probes: prints the probe statistics; returns the exit code. */
static int print_probes(struct report_extra *x, struct cli_graph *g, const char *format)
{
	int ret;

	if (kmag_probes_finish(x->ph.probes))
		return cli_error("out of memory");
	if (!strcmp(format, "json"))
		ret = kmag_probes_json(stdout, x->ph.probes, kmag_trace_symtab(g->trace));
	else
		ret = kmag_probes_text(stdout, x->ph.probes, kmag_trace_symtab(g->trace));
	return cli_write_error(NULL, ret);
}

static const char *call_sites_cb(void *ctx, kmag_func_t caller, kmag_func_t callee, char *buf,
				 size_t size)
{
	return kmag_callsites_describe(ctx, caller, callee, buf, size);
}

/* The functions table, or one function's callers/callees; returns the exit code. */
static int print_table(struct report_args *a, struct report_extra *x, struct cli_graph *g,
		       struct cli_symmap *sm)
{
	struct kmag_report *r = &a->r;
	char filters[1200];
	int ret;

	if (cli_probe_hits_any(&x->ph)) {
		r->probe_hits = cli_probe_hits_of;
		r->probe_hits_ctx = &x->ph;
	}
	if (x->callsites) {
		r->call_sites = call_sites_cb;
		r->call_sites_ctx = x->callsites;
	}
	r->cg = g->cg;
	r->st = kmag_trace_symtab(g->trace);
	r->info = kmag_trace_info(g->trace);
	r->input = g->path;
	r->filters = g->filters;
	r->limit = a->limit;
	if (sm->loc) {
		char path[600];

		r->srcline = kmag_srcloc_report_cb;
		r->srcline_ctx = sm->loc;
		if (sm->filter) {
			r->visible = kmag_srcloc_visible_cb;
			r->visible_ctx = sm->loc;
			cli_symmap_describe(sm, g, path, sizeof(path));
			snprintf(filters, sizeof(filters), "%s%s%s", g->filters,
				 g->filters[0] ? ", " : "", path);
			r->filters = filters;
		}
	}
	if (a->focus) {
		if ((ret = cli_find_function(g, r->callers ? "--callers" : "--callees", a->focus,
					     &r->focus)))
			return ret;
	}
	if (!strcmp(a->format, "json"))
		ret = kmag_report_json(stdout, r);
	else if (!strcmp(a->format, "csv"))
		ret = kmag_report_csv(stdout, r);
	else
		ret = kmag_report_text(stdout, r);
	if (!strcmp(a->format, "text") && kmag_cg_summary(g->cg)->events == 0)
		cli_warn("the trace holds no events%s", g->filters[0] ? " that pass the filters" : "");
	cli_symmap_warn(sm);
	return cli_write_error(NULL, ret);
}

int cmd_report(struct kmag_cli *cli, int argc, char **argv)
{
	struct report_args a = { .format = "text", .r = { .focus = -1 }, .sm = { .cmd = "report" } };
	struct report_extra *const x = &a.x;
	struct cli_input *const in = &a.in;
	struct cli_symmap *const sm = &a.sm;
	struct cli_graph g = { 0 };
	int ret;

	(void)cli;
	x->sm = sm;
	x->ph.sm = sm;
	in->after_open = report_after_open;
	in->after_open_ctx = x;
	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (a.slowest) {
		x->slowest = kmag_slowest_new(a.slowest);
		if (!x->slowest)
			return cli_error("out of memory");
	}
	if (x->vmlinux) {
		struct kmag_err err = { 0 };

		if (!(x->lines = kmag_srclines_open(x->vmlinux, &err)))
			return cli_lib_error(&err, "cannot read the vmlinux");
		x->want_callsites = a.focus != NULL;	/* --slowest resolves its calls' own */
	}
	if (a.slowest || x->nr_arg_specs || x->vmlinux) {
		in->with_graph = slowest_with_graph;
		in->with_graph_ctx = x;
	}
	if (x->want_errors) {
		in->with_graph = errors_with_graph;
		in->with_graph_ctx = x;
	}
	/* x->ph.probes is made by report_after_open() once the trace is open */
	in->tap = extra_tap;
	in->tap_ctx = x;

	x->btf_path = in->btf_path;
	ret = cli_load_graph("report", in, &g);
	if (ret)
		goto out;
	if ((ret = check_durations(&a, &g)))
		goto out;
	if (x->slowest)
		ret = print_slowest(x, &g, a.format);
	else if (x->want_errors)
		ret = print_errors(&a, x, &g);
	else if (x->argstats)
		ret = print_argstats(x, a.format);
	else if (x->want_probes)
		ret = print_probes(x, &g, a.format);
	else
		ret = print_table(&a, x, &g, sm);
out:
	cli_probe_hits_release(&x->ph);
	kmag_slowest_free(x->slowest);
	kmag_errors_free(x->errors);
	kmag_argstats_free(x->argstats);
	kmag_callsites_free(x->callsites);
	kmag_srclines_free(x->lines);
	cli_graph_release(&g);
	cli_symmap_release(sm);
	return ret;
}
