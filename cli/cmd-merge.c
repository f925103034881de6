// SPDX-License-Identifier: MIT
/*
 * cmd-merge.c - `kmag merge`: the sum of many recordings' profiles (traces,
 * report --format json, earlier merges) as one profile: parse -> a session
 * per input, summed by kmag_merge (lib/session/merge.c) -> report's JSON.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "kmag/merge.h"
#include "kmag/symmap.h"
#include "kmag/render/report.h"

static const struct cli_command merge_cmd = {
	.name = "merge",
	.usage = "Usage: kmag merge [-o OUT] INPUT...\n"
		 "\n"
		 "Sum the profiles of many recordings into one profile: calls, total and self\n"
		 "time per function and per call edge, the shortest and longest call. An INPUT\n"
		 "is any trace kmag reads, the output of `kmag report --format json --limit 0`\n"
		 "or of an earlier merge, so a fleet reduces each host to a small JSON file and\n"
		 "merges centrally, without moving traces; sums do not depend on the order or\n"
		 "grouping of the inputs. report, visualize, html and diff read the result\n"
		 "wherever they read a trace. The recordings summed are listed in it (name,\n"
		 "kernel, calls); when their kernels differ, a note on stderr says so.\n",
	.footer = "\n"
		  "Example:\n"
		  "  kmag merge -o fleet.json host1.json host2.json trace.dat\n",
};

/* Reads @path (a trace or a profile) and adds it. Returns 0 or an exit code (printed). */
static int merge_one(struct kmag_merge *m, const char *path)
{
	/* sums only: the order across CPUs does not matter */
	const struct kmag_session_opts so = { .path = path, .unordered = true, .symbols = true,
					      .calls_optional = true, .views = { .graph = true, .durations = true } };
	struct kmag_err err = { 0 };
	struct kmag_session *s;
	int ret = cli_session_load("merge", &so, &s);

	if (ret)
		return ret;
	if (kmag_merge_add(m, s, path, &err))
		ret = cli_lib_error(&err, "cannot merge");
	kmag_session_free(s);
	return ret;
}

/*
 * Inputs summed twice: the same file named twice (also by another path), or
 * one recording that two profiles both hold (same name, kernel, tracer,
 * events and calls). Summing is what merge does, so a warning, not an error.
 */
static void warn_twice(char **inputs, int n, const struct kmag_trace_info *info)
{
	struct stat a, b;
	size_t i, j;
	int x, y;

	for (x = 0; x < n; x++)
		for (y = x + 1; y < n; y++)
			if (!stat(inputs[x], &a) && !stat(inputs[y], &b) && a.st_dev == b.st_dev &&
			    a.st_ino == b.st_ino) {
				cli_warn("%s and %s are the same file: its calls are counted twice",
					 inputs[x], inputs[y]);
				return;
			}
	for (i = 0; i < info->nr_sources; i++)
		for (j = i + 1; j < info->nr_sources; j++) {
			const struct kmag_trace_source *p = &info->sources[i], *q = &info->sources[j];

			if (!strcmp(p->name, q->name) && p->events == q->events && p->calls == q->calls &&
			    !strcmp(p->uname ? p->uname : "", q->uname ? q->uname : "") &&
			    !strcmp(p->tracer ? p->tracer : "", q->tracer ? q->tracer : "")) {
				cli_warn("the recording %s is in the inputs twice (same kernel, events and calls): its calls are counted twice",
					 p->name);
				return;
			}
		}
}

/* The merged profile as report's JSON, to @output or standard output. */
static int write_profile(const struct kmag_merge *m, const char *output)
{
	struct kmag_srcloc *loc = kmag_merge_srcloc(m);
	struct kmag_report r = { .cg = kmag_merge_graph(m), .st = kmag_merge_symtab(m),
				 .info = kmag_merge_info(m), .input = "kmag merge",
				 .sort = KMAG_SORT_CALLS, .focus = -1,
				 .srcline = loc ? kmag_srcloc_report_cb : NULL, .srcline_ctx = loc };
	char kernels[1024];
	struct cli_out o;
	uint64_t lo, hi;
	int ret;

	/* the cost all its recordings had taken off, else each source says its own */
	if (kmag_trace_sources_cost(r.info, &lo, &hi) == r.info->nr_sources && lo == hi)
		r.tracer_cost_ns = lo;

	if (kmag_merge_kernels(m, kernels, sizeof(kernels)))
		fprintf(stderr, "kmag: note: the inputs come from different kernels, summed by function name: %s\n",
			kernels);
	if (!(ret = cli_out_open(output, &o)))
		ret = cli_out_close(&o, kmag_report_json(o.f, &r));
	return ret;
}

/* The command line of merge. */
struct merge_args {
	const char *output;
};

#define CLI_ARGS struct merge_args
static const struct cli_option merge_options[] = {
	CLI_SECTION("\nOptions:\n"),
	CLI_STRING('o', "output", "PATH", output, "the merged profile (default: standard output)"),
	CLI_HELP_OPTION,
	CLI_END,
};
#undef CLI_ARGS

int cmd_merge(struct kmag_cli *cli, int argc, char **argv)
{
	struct merge_args a = { 0 };
	struct kmag_err err = { 0 };
	struct kmag_merge *m;
	int ret, first, stdin_seen = 0;

	(void)cli;
	ret = cli_parse(&merge_cmd, argc, argv, merge_options, &a);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (optind >= argc)
		return cli_usage_error("merge", "no input: name the traces and profiles to merge");
	for (first = optind; first < argc; first++)
		if (!strcmp(argv[first], "-") && (stdin_seen++))
			return cli_usage_error("merge", "standard input (\"-\") is given twice; it holds one input: give it once");
	first = optind;
	if ((ret = cli_out_check(a.output)))
		return ret;
	if (!(m = kmag_merge_new()))
		return cli_error("out of memory");
	for (; optind < argc && !ret; optind++)
		ret = merge_one(m, argv[optind]);
	if (!ret && kmag_merge_finish(m, &err))
		ret = cli_lib_error(&err, "out of memory");
	if (!ret)
		warn_twice(argv + first, argc - first, kmag_merge_info(m));
	if (!ret)
		ret = write_profile(m, a.output);
	kmag_merge_free(m);
	return ret;
}
