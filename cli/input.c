// SPDX-License-Identifier: MIT
/*
 * input.c - the input options every analysis command shares, and loading a
 * trace into a call graph through them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "kmag/btf.h"
#include "kmag/report.h"
#include "kmag/durations.h"
#include "kmag/profile.h"

int cli_input_btf(const struct cli_input *in, struct kmag_trace *t, struct kmag_btf **out)
{
	struct kmag_err err = { 0 };

	if (!in->btf_path) {	/* the BTF the trace.dat stores (trace-cmd 3.4, kmag record) */
		size_t size = 0;
		const void *blob = kmag_trace_btf(t, &size);

		if (!blob || !kmag_has_feature(KMAG_FEATURE_BTF))
			return 0;
		if (!(*out = kmag_btf_from_blob(blob, size, &err))) {
			cli_warn("%s: arguments stay unnamed", err.msg);
			return 0;
		}
		kmag_trace_set_btf(t, *out);
		return 0;
	}
	if (!*out && !(*out = kmag_btf_open(in->btf_path, &err)))
		return cli_lib_error(&err, "cannot read BTF");
	kmag_trace_set_btf(t, *out);
	return 0;
}

const char *cli_default_input(void)
{
	if (access("trace.dat", F_OK) == 0)
		return "trace.dat";
	if (access("kernel-magnifier.data", F_OK) == 0)
		return "kernel-magnifier.data";
	return "trace.dat";
}

void cli_warn_lost(const struct kmag_trace_info *info)
{
	int i;

	if (info->lost_unattributed)
		cli_warn("%" PRIu64 " events were overwritten in the ring buffer before the trace was read",
			 info->lost_unattributed);
	for (i = 0; i < info->nr_cpus; i++) {
		const struct kmag_cpu_info *ci = &info->cpus[i];
		uint64_t stat = ci->stat_overrun + ci->stat_commit_overrun + ci->stat_dropped;
		uint64_t lost = ci->has_stats && stat >= ci->lost ? stat : ci->lost;

		if (lost)
			cli_warn("CPU%d: %" PRIu64 " events lost (%.1f%%); calls around the gaps are counted as incomplete",
				 i, lost, 100.0 * (double)lost / (double)(lost + ci->events));
		else if (ci->lost_unknown)
			cli_warn("CPU%d: events lost (count unknown, %u gap%s)", i, ci->lost_markers,
				 ci->lost_markers == 1 ? "" : "s");
	}
}

struct tap_chain {
	kmag_event_fn tap;
	void *tap_ctx;
	struct kmag_cg *cg;
};

int cli_input_filter(const char *cmd, const struct cli_input *in, struct kmag_filter **out)
{
	struct kmag_filter *f = kmag_filter_new();
	struct kmag_err err = { 0 };

	*out = NULL;
	if (!f)
		return cli_error("out of memory");
	if ((in->pids && kmag_filter_add_pids(f, in->pids, &err)) ||
	    (in->comms && kmag_filter_add_comms(f, in->comms, &err)) ||
	    (in->cpus && kmag_filter_add_cpus(f, in->cpus, &err)) ||
	    (in->time && kmag_filter_set_time(f, in->time, &err))) {
		kmag_filter_free(f);
		return cli_usage_error(cmd, "%s", err.msg);
	}
	*out = f;
	return 0;
}

/* in->tap first, then the call graph */
static int tap_then_graph(const struct kmag_event *ev, void *ctx)
{
	struct tap_chain *c = ctx;
	int ret = c->tap(ev, c->tap_ctx);

	return ret ? ret : kmag_cg_event_fn(ev, c->cg);
}

/*
 * A profile (report --format json, kmag merge output) holds sums, no events:
 * the options that choose events or follow call paths cannot apply. Returns
 * 0, or prints which option needs a trace and returns EXIT_ERR.
 */
static int profile_refuses(const char *cmd, const struct cli_input *in, const char *path)
{
	const char *opt = in->pids ? "--pid" : in->comms ? "--comm" : in->cpus ? "--cpu" :
			  in->time ? "--time" : in->min_duration_ns ? "--min-duration" : NULL;

	if (opt)
		return cli_error("%s is a profile (sums of calls, from report --format json or merge): %s needs a trace's events",
				 path, opt);
	if (in->build_cct && !in->cct_optional)
		return cli_error("%s is a profile (sums of calls per function and call edge): %s needs a trace's call paths here",
				 path, cmd);
	return 0;
}

/* The call graph of a profile: its sums, read at open. Returns 0 or an exit code (printed). */
static int load_profile(const char *cmd, const struct cli_input *in, struct cli_graph *g)
{
	struct kmag_err err = { 0 };
	int ret = profile_refuses(cmd, in, g->path);

	if (ret)
		return ret;
	if (kmag_cg_load_profile(g->cg, g->trace, &err))
		return cli_lib_error(&err, "cannot read the profile");
	if (kmag_cg_finish(g->cg))
		return cli_error("out of memory");
	return 0;
}

int cli_load_graph(const char *cmd, const struct cli_input *in, struct cli_graph *g)
{
	struct tap_chain chain = { in->tap, in->tap_ctx, NULL };
	struct kmag_mindur *mindur = NULL;
	struct kmag_trace_opts topts = { .reader = in->reader, .unordered = in->unordered };
	struct kmag_cg_opts copts = { .build_cct = in->build_cct };
	struct kmag_err err = { 0 };
	kmag_event_fn fn = kmag_cg_event_fn;
	void *ctx;
	const char *open_path;
	int ret;

	memset(g, 0, sizeof(*g));
	g->path = in->path ? in->path : cli_default_input();
	if ((ret = cli_input_filter(cmd, in, &g->filter)))
		return ret;
	/* time windows and per-task stacks need events in time order */
	if (in->time || in->build_cct)
		topts.unordered = false;
	if ((ret = cli_input_path(g->path, &open_path))) {
		cli_graph_release(g);
		return ret;
	}
	if (!strcmp(g->path, "-"))
		g->path = "standard input";
	g->trace = kmag_trace_open(open_path, &topts, &err);
	if (!g->trace) {
		if (!in->path && err.code == ENOENT)
			ret = cli_error("no trace file given and ./trace.dat does not exist; record one with `kmag record` or pass a file");
		else
			ret = cli_lib_error(&err, "cannot open the trace");
		cli_graph_release(g);
		return ret;
	}
	if ((ret = cli_input_btf(in, g->trace, &g->btf)) ||
	    (in->after_open && (ret = in->after_open(in->after_open_ctx, g->trace)))) {
		cli_graph_release(g);
		return ret;
	}
	g->cg = kmag_cg_new(&copts);
	if (!g->cg) {
		cli_graph_release(g);
		return cli_error("out of memory");
	}
	if (in->with_graph && (ret = in->with_graph(in->with_graph_ctx, g->cg))) {
		cli_graph_release(g);
		return ret;
	}
	/* a profile's views of single calls (with_graph) see none: it has sums only */
	if (kmag_trace_info(g->trace)->format == KMAG_INPUT_PROFILE) {
		if ((ret = load_profile(cmd, in, g)))
			cli_graph_release(g);
		return ret;
	}
	ctx = g->cg;
	if (in->tap) {
		chain.cg = g->cg;
		fn = tap_then_graph;
		ctx = &chain;
	}
	if (in->min_duration_ns) {
		mindur = kmag_mindur_new(in->min_duration_ns, fn, ctx);
		if (!mindur) {
			cli_graph_release(g);
			return cli_error("out of memory");
		}
		fn = kmag_mindur_event_fn;
		ctx = mindur;
	}
	if (!kmag_filter_is_empty(g->filter)) {
		kmag_filter_bind(g->filter, g->trace, fn, ctx);
		fn = kmag_filter_event_fn;
		ctx = g->filter;
		snprintf(g->filters, sizeof(g->filters), "%s", kmag_filter_describe(g->filter));
	}
	ret = cli_trace_read(g->trace, g->path, fn, ctx, &err);
	if (mindur) {
		size_t n = strlen(g->filters);

		snprintf(g->filters + n, sizeof(g->filters) - n, "%scalls >= %.3f us (%" PRIu64 " shorter calls left out)",
			 n ? ", " : "", (double)in->min_duration_ns / 1e3, kmag_mindur_dropped(mindur));
	}
	kmag_mindur_free(mindur);
	if (ret >= 0 && in->min_duration_ns && kmag_trace_info(g->trace)->tracer == KMAG_TRACER_FUNCTION)
		cli_warn("--min-duration needs call durations, which only function_graph traces have: nothing was left out");
	if (ret < 0) {
		ret = cli_lib_error(&err, ret == -ENOMEM ? "out of memory" : "cannot read the trace");
		cli_graph_release(g);
		return ret;
	}
	if (!kmag_filter_is_empty(g->filter) &&
	    (ret = cli_filter_matched(g->path, g->filter, g->filters, g->trace))) {
		cli_graph_release(g);
		return ret;
	}
	if (kmag_cg_finish(g->cg)) {
		cli_graph_release(g);
		return cli_error("out of memory");
	}
	return 0;
}

int cli_input_arg(const char *cmd, int argc, char **argv, struct cli_input *in)
{
	if (optind < argc)
		in->path = argv[optind++];
	if (optind < argc)
		return cli_usage_error(cmd, "unexpected argument \"%s\"", argv[optind]);
	return 0;
}

int cli_find_function(const struct cli_graph *g, const char *opt, const char *name, long *node)
{
	const struct kmag_symtab *st = kmag_trace_symtab(g->trace);
	const struct kmag_cg_node *nodes = kmag_cg_nodes(g->cg);
	size_t n = kmag_cg_nr_nodes(g->cg), i;
	char suggest[512] = "";
	const char **names;

	*node = kmag_cg_find_name(g->cg, st, name, suggest, sizeof(suggest));
	if (*node >= 0)
		return 0;
	/* no name contains it: a typo of one? */
	if (!suggest[0] && (names = calloc(n + 1, sizeof(*names)))) {
		for (i = 0; i < n; i++)
			names[i] = kmag_symtab_name(st, nodes[i].func);
		for (i = 0; i < n; i++)
			if (!names[i])
				names[i] = "";
		cli_suggest(name, names, n, "", suggest, sizeof(suggest));
		free(names);
	}
	if (suggest[0])
		return cli_error("%s: function \"%s\" is not in the trace; did you mean %s?", opt, name,
				 suggest);
	return cli_error("%s: function \"%s\" is not in the trace (check the spelling and the --pid/--comm/--cpu/--time filters, or record it with -l/-g)",
			 opt, name);
}

void cli_graph_release(struct cli_graph *g)
{
	kmag_cg_free(g->cg);
	kmag_trace_close(g->trace);
	kmag_btf_free(g->btf);
	kmag_filter_free(g->filter);
	memset(g, 0, sizeof(*g));
}
