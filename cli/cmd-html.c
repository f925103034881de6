// SPDX-License-Identifier: MIT
/*
 * cmd-html.c - `kmag html`: the interactive explorer page of a trace.
 */
#include <errno.h>
#include <string.h>

#include "cli.h"
#include "kmag/callsample.h"
#include "kmag/callsites.h"
#include "kmag/errors.h"
#include "kmag/render/explore.h"
#include "kmag/report.h"
#include "kmag/srclines.h"

#define KMAG_STR_(x) #x
#define KMAG_STR(x) KMAG_STR_(x)

/* What the page collects next to the call graph. */
struct html_extra {
	struct kmag_callsample *calls;	/* the Calls view's sample */
	struct cli_probe_hits *ph;
	struct kmag_errors *errors;	/* the Errors panel's, made once the trace is open */
	struct cli_errors_types types;	/* its return types */
	const char *btf_path;		/* --btf */
	/* the "Called from" lists: call sites, with --vmlinux their source lines */
	struct kmag_callsites *sites;
	struct kmag_srclines *lines;
};

/* The call sites' collector, once the trace names the functions. */
static int sites_after_open(struct html_extra *hx, struct kmag_trace *t)
{
	if (!(hx->sites = kmag_callsites_new(kmag_trace_symtab(t), hx->lines)))
		return cli_error("out of memory");
	return 0;
}

static int html_after_open(void *ctx, struct kmag_trace *t)
{
	struct html_extra *hx = ctx;
	int ret = cli_probe_hits_after_open(hx->ph, t);

	if (ret || (ret = sites_after_open(hx, t)))
		return ret;
	if (!(hx->errors = kmag_errors_new(kmag_trace_symtab(t))))
		return cli_error("out of memory");
	return cli_errors_use_types(&hx->types, hx->errors, t, hx->btf_path);
}

/* The Calls view's sample and the errors subscribe to the graph's replay before the first event. */
static int calls_with_graph(void *ctx, struct kmag_cg *cg)
{
	struct html_extra *hx = ctx;

	if (kmag_callsample_subscribe(hx->calls, kmag_cg_replay(cg)) ||
	    kmag_errors_subscribe(hx->errors, kmag_cg_replay(cg)) ||
	    kmag_callsites_subscribe(hx->sites, kmag_cg_replay(cg)))
		return cli_error("out of memory");
	return 0;
}

/* The Errors panel: where the errors were born, when the trace has return values. */
static int html_errors(struct html_extra *hx, struct cli_graph *g, struct kmag_explore *x)
{
	int ret = kmag_errors_finish(hx->errors);

	if (ret)
		return cli_error("cannot find the errors of %s: %s", g->path, strerror(-ret));
	if (!kmag_errors_stats(hx->errors)->calls_with_retval) {
		if (hx->btf_path)
			cli_warn("%s has no return values (funcgraph-retval, Linux 6.5+): the page shows no errors",
				 g->path);
		return 0;
	}
	x->errors = hx->errors;
	x->errors_types = hx->types.from;
	return 0;
}

static const struct cli_command html_cmd = {
	.name = "html",
	.usage = "Usage: kmag html [options] [FILE]\n"
		 "\n"
		 "Write one self-contained HTML page (no network needed) to explore a trace\n"
		 "(default ./trace.dat): search a function, see its callers and callees as a\n"
		 "graph, walk the graph by clicking, and sort and filter the function table.\n"
		 "Its Calls view lists a function's individual calls (function_graph traces)\n"
		 "and opens each one's call tree: per function the " KMAG_STR(KMAG_CALLSAMPLE_SLOWEST) " slowest, the first\n"
		 KMAG_STR(KMAG_CALLSAMPLE_FAILING) " that returned an error and the first " KMAG_STR(KMAG_CALLSAMPLE_FIRST) " calls, trees of up to\n"
		 KMAG_STR(KMAG_CALLSAMPLE_TREE_MAX) " calls, " KMAG_STR(KMAG_CALLSAMPLE_BUDGET) " calls in all trees at most (the page says what it kept).\n"
		 "With return values (funcgraph-retval, Linux 6.5+) its Errors panel lists\n"
		 "where the errors were born, as `kmag errors` shows them, and the graph marks\n"
		 "the error paths in purple; a click on an origin shows its path.\n",
};

/* The command line of html. */
struct html_args {
	const char *output, *focus, *title, *vmlinux;
	struct cli_symmap sm;
	struct cli_input in;
};

#define CLI_ARGS struct html_args
static const struct cli_option html_options[] = {
	CLI_SECTION("\nOptions:\n"),
	CLI_STRING('o', "output", "PATH", output, "the page (default kmag.html; \"-\" = stdout)"),
	CLI_STRING(0, "focus", "FUNC", focus, "function shown first (default: the busiest)"),
	CLI_STRING(0, "title", "TEXT", title, "page title"),
	CLI_BTF_OPTION(in, "the kernel's BTF (a copy of /sys/kernel/btf/vmlinux, or\n"
			   "a vmlinux; default: the BTF a trace.dat stores): the\n"
			   "return types of the Errors panel (void and bool\n"
			   "functions are no errors) and the arguments' names"),
	CLI_VMLINUX_OPTION(vmlinux, "the kernel's vmlinux with DWARF: call sites\n"
				    "(funcgraph-retaddr) also as source lines, in the\n"
				    "functions' \"Called from\" lists and the Calls view"),
	CLI_SYMMAP_OPTIONS(sm),
	CLI_SECTION("  (with a map, the page shows each function's file and line and can filter\n"
		    "  its table by path; --filter-filepath leaves the other functions out)\n"),
	CLI_INPUT_OPTIONS(in),
	CLI_SECTION("\n"),
	CLI_HELP_OPTION,
	CLI_END,
};
#undef CLI_ARGS

int cmd_html(struct kmag_cli *cli, int argc, char **argv)
{
	struct html_args a = { .output = "kmag.html", .sm = { .cmd = "html" } };
	struct cli_symmap *const sm = &a.sm;
	struct cli_input *const in = &a.in;
	struct cli_probe_hits ph = { .sm = sm };
	struct kmag_callsample *calls = kmag_callsample_new(NULL);
	struct html_extra hx = { .calls = calls, .ph = &ph };
	struct kmag_explore x = { 0 };
	struct cli_out o;
	struct cli_graph g = { 0 };
	int ret;

	(void)cli;
	if (!calls)
		return cli_error("out of memory");
	in->after_open = html_after_open;
	in->after_open_ctx = &hx;
	in->tap = cli_probe_hits_tap;
	in->tap_ctx = &ph;
	in->with_graph = calls_with_graph;
	in->with_graph_ctx = &hx;
	ret = cli_parse(&html_cmd, argc, argv, html_options, &a);
	if (ret) {
		kmag_callsample_free(calls);
		return ret < 0 ? EXIT_OK : ret;
	}
	if ((ret = cli_input_arg("html", argc, argv, in)) ||
	    /* the output's name and what is written agree (cli/formats.c) */
	    (ret = cli_output_format("html", a.output, "html", &(const char *){ "html" }))) {
		kmag_callsample_free(calls);
		return ret;
	}

	hx.btf_path = in->btf_path;
	if (a.vmlinux) {
		struct kmag_err err = { 0 };

		if (!(hx.lines = kmag_srclines_open(a.vmlinux, &err))) {
			ret = cli_lib_error(&err, "cannot read the vmlinux");
			goto out;
		}
	}
	ret = cli_load_graph("html", in, &g);
	if (ret || (ret = html_errors(&hx, &g, &x)))
		goto out;
	if (kmag_callsample_finish(calls)) {
		ret = cli_error("out of memory");
		goto out;
	}
	x.calls = calls;
	x.trace = g.trace;
	x.callsites = hx.sites;
	x.lines = hx.lines;
	if (cli_probe_hits_any(&ph)) {
		x.probe_hits = cli_probe_hits_of;
		x.probe_hits_ctx = &ph;
	}
	x.cg = g.cg;
	x.st = kmag_trace_symtab(g.trace);
	x.info = kmag_trace_info(g.trace);
	x.input = g.path;
	x.filters = g.filters;
	x.title = a.title;
	if (a.focus) {
		long n;

		if ((ret = cli_find_function(&g, "--focus", a.focus, &n)))
			goto out;
		x.focus = kmag_symtab_name(x.st, kmag_cg_nodes(g.cg)[n].func);
	}
	if (sm->loc) {
		x.srcline = kmag_srcloc_report_cb;
		x.srcline_ctx = sm->loc;
	}
	if (sm->filter) {
		x.visible = kmag_srcloc_visible_cb;
		x.visible_ctx = sm->loc;
		x.path_filter = sm->filepath;
	}
	ret = cli_out_open(a.output, &o);
	if (!ret)
		ret = cli_out_close(&o, kmag_explore_html(o.f, &x));
	if (!ret) {
		if (!kmag_cg_summary(g.cg)->func_events)
			cli_warn("%s holds no function calls%s; the page is empty", g.path,
				 g.filters[0] ? " that pass the filters" : "");
		cli_symmap_warn(sm);
		cli_warn_lost(x.info);
	}
out:
	kmag_callsites_free(hx.sites);
	kmag_srclines_free(hx.lines);
	kmag_errors_free(hx.errors);
	kmag_callsample_free(calls);
	cli_probe_hits_release(&ph);
	cli_symmap_release(sm);
	cli_graph_release(&g);
	return ret;
}
