// SPDX-License-Identifier: MIT
/*
 * record-calibrate.c - `kmag record --calibrate-only`: what one traced call
 * costs function_graph on this machine, for each set of the tracer's
 * options the kernel has (none or return values; with call sites; with
 * arguments; a set it has not is skipped with a line saying why), and the
 * line `kmag record` prints about the cost it measured. The measurement is
 * lib/record's (record-calibrate.c); here each set is a recording of
 * nothing, set up and stopped at once, which measures on its way out.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "kmag/record.h"

void cli_print_tracer_cost(FILE *f, const struct kmag_tracer_cost *c, const char *prefix)
{
	fprintf(f,
		"%s%" PRIu64 " ns per traced call (quartiles %" PRIu64 " to %" PRIu64
		" ns; %u pairs of runs of %u one-byte reads, %u traced calls beneath ksys_read each)\n",
		prefix, c->ns, c->q1_ns, c->q3_ns, c->rounds, c->reads, c->beneath);
}

/* A set of options this kernel does not have: said, not measured. */
static int skipped(const char *set, const char *why)
{
	printf("function_graph with %s: skipped: %s\n", set, why);
	return -1;
}

/* One set of options: a recording of nothing, stopped at once. 0, -1 (not here), or an exit code. */
static int measure_set(const struct kmag_record_opts *base, bool retaddr, bool args)
{
	static const char *const root[] = { "ksys_read" };
	struct kmag_record_opts o = *base;
	struct kmag_err err = { 0 };
	struct kmag_recorder *r;
	const struct kmag_rec_result *res;
	char path[128], what[96];
	int ret = 0;

	o.tracer = KMAG_REC_TRACER_FUNCTION_GRAPH;
	o.graph_funcs = root;
	o.nr_graph_funcs = 1;
	o.no_retaddr = !retaddr;
	o.args = args;
	o.no_calibrate = false;
	snprintf(path, sizeof(path), "/tmp/kmag-calibrate-%d.dat", (int)getpid());
	o.output = path;
	if (!(r = kmag_recorder_new(&o, &err))) {
		if (args && err.code == ENODEV)
			return skipped("args", err.msg);
		return cli_lib_error(&err, "cannot set the tracer up");
	}
	res = kmag_recorder_result(r);
	if (retaddr && res->lacks) {
		ret = skipped(args ? "retaddr,args" : "retaddr", res->lacks);
		goto out;
	}
	if (kmag_recorder_start(r, &err) || kmag_recorder_stop(r, &err)) {
		ret = cli_lib_error(&err, "cannot measure the tracer's cost");
		goto out;
	}
	if (!res->cost.ns) {
		ret = cli_error("%s", res->cost_note ? res->cost_note : "the tracer's cost was not measured");
		goto out;
	}
	snprintf(what, sizeof(what), "function_graph%s%s: ", res->cost.options[0] ? " with " : "",
		 res->cost.options[0] ? res->cost.options : "");
	cli_print_tracer_cost(stdout, &res->cost, what);
out:
	kmag_recorder_free(r);
	return ret;
}

int cli_record_calibrate_only(const struct kmag_record_opts *base)
{
	/* call sites, arguments: each set where the kernel has them, said when it has not */
	static const bool sets[][2] = { { false, false }, { true, false }, { true, true } };
	size_t i;
	int ret;

	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		if ((ret = measure_set(base, sets[i][0], sets[i][1])) > 0)
			return ret;
	return EXIT_OK;
}
