// SPDX-License-Identifier: MIT
/*
 * cmd-report.c - `kmag report`: the functions of a trace as a table.
 */
#include <string.h>

#include "cli.h"
#include "kmag/durations.h"
#include "kmag/probes.h"
#include "kmag/report.h"

static const char report_usage[] =
	"Usage: kmag report [options] [FILE]\n"
	"\n"
	"Summarise a trace (trace.dat v6/v7 or ftrace text; default ./trace.dat):\n"
	"the functions it ran, how often, and (function_graph) for how long.\n"
	"\n"
	"Output:\n"
	"  -s, --sort KEY            calls (default), total, self, avg, max, min,\n"
	"                            incomplete, name\n"
	"  -n, --limit N             show the top N functions (default 50 for text, all\n"
	"                            for json/csv; 0 = all)\n"
	"      --callers FUNC        who called FUNC, with counts and times\n"
	"      --callees FUNC        what FUNC called\n"
	"  -F, --format FMT          text (default), json or csv\n"
	"      --probes              the probe events (kmag record --kprobe/--uprobe):\n"
	"                            hits per probe, and per argument min, max, mean,\n"
	"                            the most frequent values and a histogram (text or\n"
	"                            json)\n"
	"      --slowest N           the N longest calls with their call chains\n"
	"                            (function_graph traces; text or json)\n"
	CLI_MIN_DURATION_HELP
	"\n" CLI_SYMMAP_HELP
	"\n" CLI_INPUT_HELP
	"\n"
	"  -h, --help                show this help\n";

enum { OPT_PROBES = OPT_INPUT_LAST + 1, OPT_SLOWEST };

/* What the report collects next to the call graph. */
struct report_extra {
	struct cli_symmap *sm;
	bool want_probes;
	struct cli_probe_hits ph;	/* probes of a trace.dat (not with --slowest) */
	struct kmag_slowest *slowest;
};

static int report_after_open(void *ctx, struct kmag_trace *t)
{
	struct report_extra *x = ctx;
	/* probe hits annotate the functions they probe, whenever the trace has formats */
	int ret = x->slowest ? cli_symmap_after_open(x->sm, t) : cli_probe_hits_after_open(&x->ph, t);

	if (ret)
		return ret;
	if (x->want_probes && kmag_trace_info(t)->format != KMAG_INPUT_TRACEDAT)
		return cli_error("--probes needs a trace.dat: text traces carry no event formats to decode probe arguments");
	return 0;
}

static int extra_tap(const struct kmag_event *ev, void *ctx)
{
	struct report_extra *x = ctx;

	return x->ph.probes ? cli_probe_hits_tap(ev, &x->ph) : 0;
}

/* --slowest: the slowest calls are the graph's own, from its replay */
static int slowest_with_graph(void *ctx, struct kmag_cg *cg)
{
	struct report_extra *x = ctx;

	if (kmag_slowest_subscribe(x->slowest, kmag_cg_replay(cg)))
		return cli_error("out of memory");
	return 0;
}

/* --slowest N: prints the calls; returns the exit code. */
static int print_slowest(struct report_extra *x, struct cli_graph *g, const char *format)
{
	const struct kmag_trace_info *info = kmag_trace_info(g->trace);
	int ret;

	kmag_slowest_finish(x->slowest);
	if (!info->has_durations && !strcmp(format, "text"))
		cli_warn("this trace has no call durations (--slowest needs a function_graph recording)");
	if (!strcmp(format, "json"))
		ret = kmag_slowest_json(stdout, x->slowest, kmag_trace_symtab(g->trace), g->trace);
	else
		ret = kmag_slowest_text(stdout, x->slowest, kmag_trace_symtab(g->trace), g->trace);
	return cli_write_error(NULL, ret);
}

int cmd_report(struct kmag_cli *cli, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "sort", required_argument, NULL, 's' },
		{ "limit", required_argument, NULL, 'n' },
		{ "callers", required_argument, NULL, 'C' },
		{ "callees", required_argument, NULL, 'E' },
		{ "format", required_argument, NULL, 'F' },
		{ "probes", no_argument, NULL, OPT_PROBES },
		{ "slowest", required_argument, NULL, OPT_SLOWEST },
		CLI_MIN_DURATION_LONGOPT,
		{ "help", no_argument, NULL, 'h' },
		CLI_INPUT_LONGOPTS,
		CLI_SYMMAP_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct cli_symmap sm = { .cmd = "report" };
	struct report_extra x = { .sm = &sm, .ph = { .sm = &sm } };
	struct cli_input in = { .unordered = false, .after_open = report_after_open,
				.after_open_ctx = &x };
	char filters[1200];
	struct kmag_report r = { .focus = -1 };
	const char *format = "text", *focus = NULL;
	unsigned long limit = 0, slowest = 0;
	bool limit_set = false;
	struct cli_graph g;
	int opt, ret;

	(void)cli;
	while ((opt = cli_getopt(argc, argv, ":s:n:F:h", longopts)) != -1) {
		switch (opt) {
		case 's':
			if (kmag_sort_key_parse(optarg, &r.sort))
				return cli_usage_error("report", "unknown sort key \"%s\" (choose %s)",
						       optarg, kmag_sort_key_names());
			break;
		case 'n':
			if (!cli_parse_ulong("report", "--limit", optarg, &limit))
				return EXIT_USAGE;
			limit_set = true;
			break;
		case 'C':
		case 'E':
			if (focus)
				return cli_usage_error("report", "give only one of --callers and --callees");
			focus = optarg;
			r.callers = opt == 'C';
			break;
		case 'F':
			if (strcmp(optarg, "text") && strcmp(optarg, "json") && strcmp(optarg, "csv"))
				return cli_usage_error("report", "unknown format \"%s\" (choose text, json or csv)",
						       optarg);
			format = optarg;
			break;
		case OPT_PROBES:
			x.want_probes = true;
			break;
		case OPT_SLOWEST:
			if (!cli_parse_ulong("report", "--slowest", optarg, &slowest))
				return EXIT_USAGE;
			if (slowest < 1 || slowest > 100000)
				return cli_usage_error("report", "--slowest N takes 1..100000 calls");
			break;
		case 'h':
			fputs(report_usage, stdout);
			return EXIT_OK;
		default:
			ret = cli_shared_option("report", opt, argv,
						&(struct cli_shared){ .in = &in, .sm = &sm });
			if (ret)
				return ret;
			break;
		}
	}
	if (optind < argc)
		in.path = argv[optind++];
	if (optind < argc)
		return cli_usage_error("report", "unexpected argument \"%s\"", argv[optind]);
	if (!limit_set && !strcmp(format, "text") && !focus)
		limit = 50;
	/* one view at a time; which formats each view has: cli/formats.c */
	if (x.want_probes + !!slowest + !!focus > 1)
		return cli_usage_error("report", "--probes, --slowest and --callers/--callees are separate views: give one");
	if ((x.want_probes && (ret = cli_format_check("report", "--probes", format))) ||
	    (slowest && (ret = cli_format_check("report", "--slowest", format))))
		return ret;
	if (slowest) {
		x.slowest = kmag_slowest_new(slowest);
		if (!x.slowest)
			return cli_error("out of memory");
		in.with_graph = slowest_with_graph;
		in.with_graph_ctx = &x;
	}
	/* x.ph.probes is made by report_after_open() once the trace is open */
	in.tap = extra_tap;
	in.tap_ctx = &x;

	ret = cli_load_graph("report", &in, &g);
	if (ret) {
		cli_probe_hits_release(&x.ph);
		kmag_slowest_free(x.slowest);
		cli_symmap_release(&sm);
		return ret;
	}
	if (x.slowest) {
		ret = print_slowest(&x, &g, format);
		kmag_slowest_free(x.slowest);
		cli_graph_release(&g);
		cli_symmap_release(&sm);
		return ret;
	}
	if (x.want_probes) {
		if (kmag_probes_finish(x.ph.probes))
			ret = cli_error("out of memory");
		else if (!strcmp(format, "json"))
			ret = kmag_probes_json(stdout, x.ph.probes, kmag_trace_symtab(g.trace));
		else
			ret = kmag_probes_text(stdout, x.ph.probes, kmag_trace_symtab(g.trace));
		cli_probe_hits_release(&x.ph);
		cli_graph_release(&g);
		cli_symmap_release(&sm);
		return cli_write_error(NULL, ret);
	}
	if (cli_probe_hits_any(&x.ph)) {
		r.probe_hits = cli_probe_hits_of;
		r.probe_hits_ctx = &x.ph;
	}
	r.cg = g.cg;
	r.st = kmag_trace_symtab(g.trace);
	r.info = kmag_trace_info(g.trace);
	r.input = g.path;
	r.filters = g.filters;
	r.limit = limit;
	if (sm.loc) {
		char path[600];

		r.srcline = kmag_srcloc_report_cb;
		r.srcline_ctx = sm.loc;
		if (sm.filter) {
			r.visible = kmag_srcloc_visible_cb;
			r.visible_ctx = sm.loc;
			cli_symmap_describe(&sm, &g, path, sizeof(path));
			snprintf(filters, sizeof(filters), "%s%s%s", g.filters, g.filters[0] ? ", " : "",
				 path);
			r.filters = filters;
		}
	}
	if (focus) {
		char suggest[512];

		r.focus = kmag_cg_find_name(g.cg, r.st, focus, suggest, sizeof(suggest));
		if (r.focus < 0) {
			if (suggest[0])
				ret = cli_error("function \"%s\" is not in the trace; similar names: %s", focus,
						suggest);
			else
				ret = cli_error("function \"%s\" is not in the trace (check the filters, or record it with -l/-g)",
						focus);
			cli_probe_hits_release(&x.ph);
			cli_graph_release(&g);
			cli_symmap_release(&sm);
			return ret;
		}
	}
	if (!strcmp(format, "json"))
		ret = kmag_report_json(stdout, &r);
	else if (!strcmp(format, "csv"))
		ret = kmag_report_csv(stdout, &r);
	else
		ret = kmag_report_text(stdout, &r);
	if (!strcmp(format, "text") && kmag_cg_summary(g.cg)->events == 0)
		cli_warn("the trace holds no events%s", g.filters[0] ? " that pass the filters" : "");
	cli_symmap_warn(&sm);
	cli_probe_hits_release(&x.ph);
	cli_graph_release(&g);
	cli_symmap_release(&sm);
	return cli_write_error(NULL, ret);
}
