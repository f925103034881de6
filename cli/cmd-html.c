// SPDX-License-Identifier: MIT
/*
 * cmd-html.c - `kmag html`: the interactive explorer page of a trace.
 */
#include <errno.h>
#include <string.h>

#include "cli.h"
#include "kmag/callsample.h"
#include "kmag/render/explore.h"
#include "kmag/report.h"

#define KMAG_STR_(x) #x
#define KMAG_STR(x) KMAG_STR_(x)

/* The Calls view's sample subscribes to the graph's replay before the first event. */
static int calls_with_graph(void *ctx, struct kmag_cg *cg)
{
	return kmag_callsample_subscribe(ctx, kmag_cg_replay(cg)) ? cli_error("out of memory") : 0;
}

static const char html_usage[] =
	"Usage: kmag html [options] [FILE]\n"
	"\n"
	"Write one self-contained HTML page (no network needed) to explore a trace\n"
	"(default ./trace.dat): search a function, see its callers and callees as a\n"
	"graph, walk the graph by clicking, and sort and filter the function table.\n"
	"Its Calls view lists a function's individual calls (function_graph traces)\n"
	"and opens each one's call tree: per function the " KMAG_STR(KMAG_CALLSAMPLE_SLOWEST) " slowest, the first\n"
	KMAG_STR(KMAG_CALLSAMPLE_FAILING) " that returned an error and the first " KMAG_STR(KMAG_CALLSAMPLE_FIRST) " calls, trees of up to\n"
	KMAG_STR(KMAG_CALLSAMPLE_TREE_MAX) " calls, " KMAG_STR(KMAG_CALLSAMPLE_BUDGET) " calls in all trees at most (the page says what it kept).\n"
	"\n"
	"Options:\n"
	"  -o, --output PATH         the page (default kmag.html; \"-\" = stdout)\n"
	"      --focus FUNC          function shown first (default: the busiest)\n"
	"      --title TEXT          page title\n"
	"\n" CLI_SYMMAP_HELP
	"  (with a map, the page shows each function's file and line and can filter\n"
	"  its table by path; --filter-filepath leaves the other functions out)\n"
	"\n" CLI_INPUT_HELP
	"\n"
	"  -h, --help                show this help\n";

enum { OPT_FOCUS = OPT_INPUT_LAST + 1, OPT_TITLE };

int cmd_html(struct kmag_cli *cli, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "focus", required_argument, NULL, OPT_FOCUS },
		{ "title", required_argument, NULL, OPT_TITLE },
		{ "help", no_argument, NULL, 'h' },
		CLI_INPUT_LONGOPTS,
		CLI_SYMMAP_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	const char *output = "kmag.html", *focus = NULL, *title = NULL;
	struct cli_symmap sm = { .cmd = "html" };
	struct cli_probe_hits ph = { .sm = &sm };
	struct cli_input in = { .unordered = false, .after_open = cli_probe_hits_after_open,
				.after_open_ctx = &ph, .tap = cli_probe_hits_tap, .tap_ctx = &ph };
	struct kmag_explore x = { 0 };
	struct kmag_callsample *calls = kmag_callsample_new(NULL);
	struct cli_out o;
	struct cli_graph g = { 0 };
	int opt, ret;

	(void)cli;
	if (!calls)
		return cli_error("out of memory");
	in.with_graph = calls_with_graph;
	in.with_graph_ctx = calls;
	while ((opt = cli_getopt(argc, argv, ":o:h", longopts)) != -1) {
		switch (opt) {
		case 'o':
			output = optarg;
			break;
		case OPT_FOCUS:
			focus = optarg;
			break;
		case OPT_TITLE:
			title = optarg;
			break;
		case 'h':
			fputs(html_usage, stdout);
			kmag_callsample_free(calls);
			return EXIT_OK;
		default:
			ret = cli_shared_option("html", opt, argv,
						&(struct cli_shared){ .in = &in, .sm = &sm });
			if (ret) {
				kmag_callsample_free(calls);
				return ret;
			}
			break;
		}
	}
	if ((ret = cli_input_arg("html", argc, argv, &in)) ||
	    /* the output's name and what is written agree (cli/formats.c) */
	    (ret = cli_output_format("html", output, "html", &(const char *){ "html" }))) {
		kmag_callsample_free(calls);
		return ret;
	}

	ret = cli_load_graph("html", &in, &g);
	if (ret)
		goto out;
	if (kmag_callsample_finish(calls)) {
		ret = cli_error("out of memory");
		goto out;
	}
	x.calls = calls;
	x.trace = g.trace;
	if (cli_probe_hits_any(&ph)) {
		x.probe_hits = cli_probe_hits_of;
		x.probe_hits_ctx = &ph;
	}
	x.cg = g.cg;
	x.st = kmag_trace_symtab(g.trace);
	x.info = kmag_trace_info(g.trace);
	x.input = g.path;
	x.filters = g.filters;
	x.title = title;
	if (focus) {
		long n;

		if ((ret = cli_find_function(&g, "--focus", focus, &n)))
			goto out;
		x.focus = kmag_symtab_name(x.st, kmag_cg_nodes(g.cg)[n].func);
	}
	if (sm.loc) {
		x.srcline = kmag_srcloc_report_cb;
		x.srcline_ctx = sm.loc;
	}
	if (sm.filter) {
		x.visible = kmag_srcloc_visible_cb;
		x.visible_ctx = sm.loc;
		x.path_filter = sm.filepath;
	}
	ret = cli_out_open(output, &o);
	if (!ret)
		ret = cli_out_close(&o, kmag_explore_html(o.f, &x));
	if (!ret) {
		if (!kmag_cg_summary(g.cg)->func_events)
			cli_warn("%s holds no function calls%s; the page is empty", g.path,
				 g.filters[0] ? " that pass the filters" : "");
		cli_symmap_warn(&sm);
		cli_warn_lost(x.info);
	}
out:
	kmag_callsample_free(calls);
	cli_probe_hits_release(&ph);
	cli_symmap_release(&sm);
	cli_graph_release(&g);
	return ret;
}
