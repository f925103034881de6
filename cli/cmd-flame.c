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
	const char *root;	/* --root */
	int weight;		/* enum kmag_flame_weight: time, calls (their order) */
	bool reverse, icicle, per;
	int per_key;		/* enum kmag_split_key: pid, comm (their order) */
	unsigned long width;
	double min_width;
	struct kmag_session_opts so;
};

/* The input filters, the path filter and --root, for the subtitle. */
static const char *all_filters(const struct flame_args *a, const struct kmag_session *s,
			       char *buf, size_t len)
{
	const char *filters = kmag_session_filters(s);
	size_t used;

	if (!kmag_session_pathfilter(s) && !a->root)
		return filters;
	used = (size_t)snprintf(buf, len, "%s", filters);
	if (kmag_session_pathfilter(s) && used < len)
		used += (size_t)snprintf(buf + used, len - used, "%spath %s", used ? ", " : "",
					 a->so.filter_filepath);
	if (a->root && used < len)
		snprintf(buf + used, len - used, "%scalled from %s", used ? ", " : "", a->root);
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
	CLI_STRING(0, "root", "FUNC", root,
		   "only what FUNC calls, directly or not: the stacks start\n"
		   "at FUNC's outermost calls (as visualize --root)"),
	CLI_STRING(0, "title", "TEXT", title, "heading of the SVG"),
	CLI_ULONG_RANGE(0, "width", "PX", width, 200, 100000, "--width must be between 200 and 100000 px",
			"SVG width (default 1200)"),
	CLI_OPTION(0, "min-width", "PX", parse_min_width, min_width, double *,
		   "leave out frames narrower than PX (default 0.1)"),
	CLI_SYMMAP_OPTIONS(so),
	CLI_NOTE("(a hidden function's callees sit on its nearest\n"
		 "shown caller, its own time counts there)"),
	CLI_INPUT_OPTIONS(so),
	CLI_SECTION("\n"),
	CLI_HELP_OPTION,
	CLI_END,
};
#undef CLI_ARGS
_Static_assert(KMAG_FLAME_TIME == 0 && KMAG_FLAME_CALLS == 1 && KMAG_SPLIT_PID == 0 &&
	       KMAG_SPLIT_COMM == 1, "--weight's and --per's words in the order of their enums");

static int parse_args(int argc, char **argv, struct flame_args *a)
{
	int ret = cli_parse(&flame_cmd, argc, argv, flame_options, a);

	if (ret || (ret = cli_input_arg("flame", argc, argv, &a->so.path)))
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

/* Explains why @s has no stacks to draw; returns EXIT_ERR. */
static int no_stacks(uint64_t func_events, bool has_stacks, const struct kmag_session *s)
{
	const char *path = kmag_session_name(s);

	if (!func_events)
		return cli_error("%s holds no function calls%s; nothing to draw", path,
				 kmag_session_filters(s)[0] ? " that pass the filters" : "");
	if (kmag_session_info(s)->tracer == KMAG_TRACER_FUNCTION || !has_stacks)
		return cli_error("%s was recorded with the function tracer, which keeps only each call's direct caller, not its stack; record with function_graph (trace-cmd record -p function_graph) for a flame graph",
				 path);
	return cli_error("%s has no call stacks to draw", path);
}

static int write_outputs(const struct flame_args *a, struct kmag_flame *fl, const char *path,
			 const char *filters)
{
	char subtitle[1536];
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
}

/* --root with --per: FUNC must have run in one of the tasks' graphs. */
static int root_of_tasks(const struct flame_args *a, const struct kmag_session *s,
			 struct kmag_flame *fl)
{
	const struct kmag_cg_split *split = kmag_session_split(s);
	kmag_func_t func = kmag_symtab_find(kmag_session_symtab(s), a->root);
	size_t i;
	long node;
	int ret;

	for (i = 0; func != KMAG_FUNC_NONE && i < kmag_cg_split_count(split); i++)
		if (kmag_cg_node_index(kmag_cg_split_graph(split, i), func) >= 0) {
			kmag_flame_set_root(fl, func);
			return 0;
		}
	/* in no task's graph: the session's one message (and its suggestions) */
	ret = cli_find_function(s, "--root", a->root, &node);
	return ret ? ret : cli_error("--root: function \"%s\" is in no task's graph", a->root);
}

/* Adds each task's graph (--per) to @fl; 0 or the exit code (printed). */
static int add_tasks(const struct kmag_session *s, struct kmag_flame *fl)
{
	const struct kmag_cg_split *split = kmag_session_split(s);
	uint64_t func_events = 0;
	size_t i, drawn = 0;

	for (i = 0; i < kmag_cg_split_count(split); i++) {
		const struct kmag_cg *cg = kmag_cg_split_graph(split, i);
		int r = kmag_flame_add_graph(fl, cg, kmag_session_symtab(s),
					     kmag_cg_split_name(split, i));

		func_events += kmag_cg_summary(cg)->func_events;
		if (r == -ENODATA)
			continue;	/* a task with no function_graph calls */
		if (r)
			return cli_error("out of memory");
		drawn++;
	}
	return drawn ? 0 : no_stacks(func_events, false, s);
}

/* The flame graph of @s's stacks (of each task's, with --per); 0 or the exit code. */
static int build(const struct flame_args *a, const struct kmag_session *s, struct kmag_flame *fl)
{
	const struct kmag_cg *cg = kmag_session_graph(s);
	int ret;

	if (kmag_session_pathfilter(s))
		kmag_flame_set_keep(fl, kmag_srcloc_visible_cb, kmag_session_srcloc(s));
	if (a->per) {
		ret = a->root ? root_of_tasks(a, s, fl) : 0;
		if (!ret)
			ret = add_tasks(s, fl);
	} else {
		long node;

		/* --root: the calls under it (a function-tracer graph has no stacks: refused below) */
		if (a->root && kmag_cg_summary(cg)->has_stacks) {
			if ((ret = cli_find_function(s, "--root", a->root, &node)))
				return ret;
			kmag_flame_set_root(fl, kmag_cg_nodes(cg)[node].func);
		}
		ret = kmag_flame_add_graph(fl, cg, kmag_session_symtab(s), NULL);
		if (ret == -ENODATA)
			ret = no_stacks(kmag_cg_summary(cg)->func_events,
					kmag_cg_summary(cg)->has_stacks, s);
		else if (ret)
			ret = cli_error("out of memory");
	}
	if (!ret && kmag_flame_finish(fl, (enum kmag_flame_weight)a->weight))
		ret = cli_error("out of memory");
	if (!ret && !kmag_flame_total(fl, 0))
		ret = cli_error("%s has no call durations to weigh the stacks by; use --weight calls",
				kmag_session_name(s));
	return ret;
}

int cmd_flame(struct kmag_cli *cli, int argc, char **argv)
{
	struct flame_args a = { .min_width = -1, .so = { .symbols = true } };
	struct kmag_session *s = NULL;
	struct kmag_flame *fl = NULL;
	char buf[1200], title[1600];
	int ret;

	(void)cli;
	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	/* the stacks of the whole trace, or one graph of stacks per task */
	a.so.views.call_paths = true;
	a.so.views.graph = !a.per;
	a.so.views.split = a.per;
	a.so.views.split_key = (enum kmag_split_key)a.per_key;
	if (!(fl = kmag_flame_new(a.reverse)))
		ret = cli_error("out of memory");
	if (!ret && !(ret = cli_session_load("flame", &a.so, &s)) && !(ret = build(&a, s, fl))) {
		cli_warn_lost(kmag_session_info(s));
		cli_warn_sources(s);
		ret = write_outputs(&a, fl, kmag_session_name(s),
				    cli_title_times(s, all_filters(&a, s, buf, sizeof(buf)), title,
						    sizeof(title)));
	}
	kmag_flame_free(fl);
	kmag_session_free(s);
	return ret;
}
