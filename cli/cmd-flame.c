// SPDX-License-Identifier: MIT
/*
 * cmd-flame.c - `kmag flame`: flame graphs (interactive SVG, folded stacks)
 * from function_graph traces.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kmag/cgsplit.h"
#include "kmag/flame.h"
#include "kmag/render/flame.h"

static const struct cli_command flame_cmd = {
	.name = "flame",
	.usage = "Usage: kmag flame [options] [FILE]\n"
		 "\n"
		 "Draw a flame graph of a function_graph trace (default ./trace.dat): every\n"
		 "call stack the kernel ran, as wide as the time (or the calls) spent in it.\n"
		 "Function-tracer traces record only each call's direct caller, not stacks,\n"
		 "so they cannot give a flame graph.\n",
};

struct flame_args {
	const char *svg, *folded, *title;
	int weight;		/* enum kmag_flame_weight: time, calls (their order) */
	bool reverse, icicle, per;
	int per_key;		/* enum kmag_split_key: pid, comm (their order) */
	unsigned long width;
	double min_width;
	struct cli_symmap sm;
	struct cli_input in;
};

/* The input filters and the path filter, for the subtitle. */
static const char *all_filters(const struct flame_args *a, const char *filters, char *buf,
			       size_t len)
{
	if (!a->sm.filter)
		return filters;
	snprintf(buf, len, "%s%spath %s", filters, filters[0] ? ", " : "", a->sm.filepath);
	return buf;
}

static int parse_min_width(const struct cli_option *o, void *value, const char *arg,
			   const char *cmd)
{
	double *w = value;
	char *end;

	(void)o;
	errno = 0;
	*w = strtod(arg, &end);
	if (!*arg || *end || errno || *w < 0)
		return cli_usage_error(cmd, "--min-width expects a number of pixels >= 0, got \"%s\"",
				       arg);
	return 0;
}

#define CLI_ARGS struct flame_args
static const struct cli_option flame_options[] = {
	CLI_SECTION("\nOutput:\n"),
	CLI_STRING('o', "output", "PATH", svg,
		   "interactive SVG (default flame.svg; \"-\" = stdout):\n"
		   "hover for calls and time, click to zoom, Ctrl-F to search"),
	CLI_STRING('f', "folded", "PATH", folded,
		   "folded stacks (\"a;b;c 123\" lines, for flamegraph.pl,\n"
		   "speedscope, inferno; \"-\" = stdout). Without -o, only\n"
		   "the folded stacks are written"),
	CLI_CHOICE('w', "weight", "time|calls", weight, "time,calls", "weight",
		   "frame width: time spent (default) or number of calls"),
	CLI_FLAG(0, "reverse", reverse, "merge stacks from the leaf: who calls the hot functions"),
	CLI_ALIAS("inverted"),
	CLI_FLAG(0, "icicle", icicle, "draw the outermost frame at the top"),
	CLI_CHOICE_GIVEN(0, "per", "pid|comm", per_key, "pid,comm", "--per", per,
			 "one base frame per task (\"comm-pid\") or command name"),
	CLI_STRING(0, "title", "TEXT", title, "heading of the SVG"),
	CLI_ULONG_RANGE(0, "width", "PX", width, 200, 100000, "--width must be between 200 and 100000 px",
			"SVG width (default 1200)"),
	CLI_OPTION(0, "min-width", "PX", parse_min_width, min_width, double *,
		   "leave out frames narrower than PX (default 0.1)"),
	CLI_SYMMAP_OPTIONS(sm),
	CLI_NOTE("(a hidden function's callees sit on its nearest\n"
		 "shown caller, its own time counts there)"),
	CLI_INPUT_OPTIONS(in),
	CLI_SECTION("\n"),
	CLI_HELP_OPTION,
	CLI_END,
};
#undef CLI_ARGS
_Static_assert(KMAG_FLAME_TIME == 0 && KMAG_FLAME_CALLS == 1 && KMAG_SPLIT_PID == 0 &&
	       KMAG_SPLIT_COMM == 1, "--weight's and --per's words in the order of their enums");

static int parse_args(int argc, char **argv, struct flame_args *a)
{
	struct cli_input *in = &a->in;
	int ret = cli_parse(&flame_cmd, argc, argv, flame_options, a);

	if (ret)
		return ret;
	if ((ret = cli_input_arg("flame", argc, argv, in)))
		return ret;
	if (!a->svg && !a->folded)
		a->svg = "flame.svg";
	/* the output's name and what is written agree (cli/formats.c) */
	if ((a->svg && (ret = cli_output_format("flame", a->svg, "svg", &(const char *){ "svg" }))) ||
	    (a->folded && (ret = cli_output_format("flame", a->folded, "folded", &(const char *){ "folded" }))))
		return ret;
	if (a->svg && a->folded && !strcmp(a->svg, "-") && !strcmp(a->folded, "-"))
		return cli_usage_error("flame", "only one of --output and --folded can be \"-\"");
	return 0;
}

/* Explains why a graph has no stacks to draw; returns EXIT_ERR. */
static int no_stacks(uint64_t func_events, bool has_stacks, const struct kmag_trace *t,
		     const char *path, const char *filters)
{
	if (!func_events)
		return cli_error("%s holds no function calls%s; nothing to draw", path,
				 filters[0] ? " that pass the filters" : "");
	if (kmag_trace_info(t)->tracer == KMAG_TRACER_FUNCTION || !has_stacks)
		return cli_error("%s was recorded with the function tracer, which keeps only each call's direct caller, not its stack; record with function_graph (trace-cmd record -p function_graph) for a flame graph",
				 path);
	return cli_error("%s has no call stacks to draw", path);
}

static int write_outputs(const struct flame_args *a, struct kmag_flame *fl, const char *path,
			 const char *filters)
{
	char subtitle[1024];
	struct kmag_flame_svg_opts so = {
		.title = a->title, .width = (unsigned)a->width, .icicle = a->icicle,
		.min_width = a->min_width, .subtitle = subtitle,
	};
	struct cli_out fo = { 0 }, sv = { 0 };
	int ret = 0, wf = 0, ws = 0;

	snprintf(subtitle, sizeof(subtitle), "%s, weighted by %s%s%s%s%s", path,
		 a->weight == KMAG_FLAME_CALLS ? "calls" : "time", a->reverse ? ", reversed" : "",
		 filters[0] ? " (" : "", filters, filters[0] ? ")" : "");
	if (!a->title)
		so.title = a->reverse ? "Reversed Flame Graph" : a->icicle ? "Icicle Graph" : "Flame Graph";
	/* both outputs are opened before either is written, and appear together */
	if (a->folded)
		ret = cli_out_open(a->folded, &fo);
	if (!ret && a->svg && (ret = cli_out_open(a->svg, &sv)))
		cli_out_close(&fo, ret);
	if (ret)
		return ret;
	if (a->folded)
		wf = kmag_flame_write_folded(fo.f, fl);
	if (a->svg && !wf)
		ws = kmag_flame_write_svg(sv.f, fl, &so);
	/* the output that failed says why; the other one is dropped unwritten */
	if (ws) {
		ret = cli_out_close(&sv, ws);
		return cli_out_close(&fo, ret);
	}
	ret = cli_out_close(&fo, wf);
	return cli_out_close(&sv, ret);
	return 0;
}

/* Builds the flame from one graph per task. */
static int flame_per_task(const struct flame_args *a, struct cli_input *in, struct kmag_flame *fl)
{
	struct kmag_cg_opts copts = { .build_cct = true };
	struct kmag_cg_split *split = NULL;
	struct cli_stream s;
	char buf[1200];
	size_t i, drawn = 0;
	uint64_t func_events = 0;
	int ret;

	in->unordered = false;	/* per-task stacks need time order */
	ret = cli_stream_open("flame", in, &s);
	if (ret)
		return ret;
	if (a->sm.filter)
		kmag_flame_set_keep(fl, kmag_srcloc_visible_cb, a->sm.loc);
	split = kmag_cg_split_new(s.trace, a->per_key, &copts);
	if (!split) {
		cli_stream_close(&s);
		return cli_error("out of memory");
	}
	ret = cli_stream_read(&s, kmag_cg_split_event_fn, split);
	if (ret < 0)
		ret = cli_error("out of memory");
	if (!ret && kmag_cg_split_finish(split))
		ret = cli_error("out of memory");
	for (i = 0; !ret && i < kmag_cg_split_count(split); i++) {
		const struct kmag_cg *cg = kmag_cg_split_graph(split, i);
		int r = kmag_flame_add_graph(fl, cg, kmag_trace_symtab(s.trace),
					     kmag_cg_split_name(split, i));

		func_events += kmag_cg_summary(cg)->func_events;
		if (r == -ENODATA)
			continue;	/* a task with no function_graph calls */
		if (r)
			ret = cli_error("out of memory");
		drawn++;
	}
	if (!ret && !drawn)
		ret = no_stacks(func_events, false, s.trace, s.path, s.filters);
	if (!ret)
		ret = kmag_flame_finish(fl, a->weight) ? cli_error("out of memory") : 0;
	if (!ret && !kmag_flame_total(fl, 0))
		ret = cli_error("%s has no call durations to weigh the stacks by; use --weight calls",
				s.path);
	if (!ret) {
		cli_warn_lost(kmag_trace_info(s.trace));
		cli_symmap_warn(&a->sm);
		ret = write_outputs(a, fl, s.path, all_filters(a, s.filters, buf, sizeof(buf)));
	}
	kmag_cg_split_free(split);
	cli_stream_close(&s);
	return ret;
}

int cmd_flame(struct kmag_cli *cli, int argc, char **argv)
{
	struct flame_args a = { .min_width = -1,
				.in = { .build_cct = true, .after_open = cli_symmap_after_open } };
	struct cli_input *const in = &a.in;
	struct kmag_flame *fl;
	struct cli_graph g;
	char buf[1200];
	int ret;

	(void)cli;
	a.sm.cmd = "flame";
	in->after_open_ctx = &a.sm;
	ret = parse_args(argc, argv, &a);
	if (!ret && !(fl = kmag_flame_new(a.reverse)))
		ret = cli_error("out of memory");
	if (ret) {
		cli_symmap_release(&a.sm);
		return ret < 0 ? EXIT_OK : ret;
	}
	if (a.per) {
		ret = flame_per_task(&a, in, fl);
		kmag_flame_free(fl);
		cli_symmap_release(&a.sm);
		return ret;
	}
	ret = cli_load_graph("flame", in, &g);
	if (ret) {
		kmag_flame_free(fl);
		cli_symmap_release(&a.sm);
		return ret;
	}
	if (a.sm.filter)
		kmag_flame_set_keep(fl, kmag_srcloc_visible_cb, a.sm.loc);
	ret = kmag_flame_add_graph(fl, g.cg, kmag_trace_symtab(g.trace), NULL);
	if (ret == -ENODATA)
		ret = no_stacks(kmag_cg_summary(g.cg)->func_events,
				kmag_cg_summary(g.cg)->has_stacks, g.trace, g.path, g.filters);
	else if (ret)
		ret = cli_error("out of memory");
	if (!ret && kmag_flame_finish(fl, a.weight))
		ret = cli_error("out of memory");
	if (!ret && !kmag_flame_total(fl, 0))
		ret = cli_error("%s has no call durations to weigh the stacks by; use --weight calls",
				g.path);
	if (!ret) {
		cli_warn_lost(kmag_trace_info(g.trace));
		cli_symmap_warn(&a.sm);
		ret = write_outputs(&a, fl, g.path, all_filters(&a, g.filters, buf, sizeof(buf)));
	}
	kmag_flame_free(fl);
	cli_graph_release(&g);
	cli_symmap_release(&a.sm);
	return ret;
}
