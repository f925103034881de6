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
#include "kmag/probes.h"

#define KMAG_STR_(x) #x
#define KMAG_STR(x) KMAG_STR_(x)

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
	const char *output, *focus, *title;
	const char *root;	/* --root: one subtree's page */
	struct kmag_session_opts so;
};

#define CLI_ARGS struct html_args
static const struct cli_option html_options[] = {
	CLI_SECTION("\nOptions:\n"),
	CLI_STRING('o', "output", "PATH", output, "the page (default kmag.html; \"-\" = stdout)"),
	CLI_STRING(0, "focus", "FUNC", focus, "function shown first (default: the busiest)"),
	CLI_STRING(0, "root", "FUNC", root,
		   "only what FUNC calls, directly or not, with the numbers\n"
		   "of those calls (as visualize --root): the table, the\n"
		   "graph, the Calls view, errors and call sites; FUNC is\n"
		   "shown first (needs call stacks: function_graph)"),
	CLI_STRING(0, "title", "TEXT", title, "page title"),
	CLI_BTF_OPTION(so, "the kernel's BTF (a copy of /sys/kernel/btf/vmlinux, or\n"
			   "a vmlinux; default: the BTF a trace.dat stores): the\n"
			   "return types of the Errors panel (void and bool\n"
			   "functions are no errors) and the arguments' names"),
	CLI_VMLINUX_OPTION(so.vmlinux, "the kernel's vmlinux with DWARF: call sites\n"
				       "(funcgraph-retaddr) also as source lines, in the\n"
				       "functions' \"Called from\" lists and the Calls view"),
	CLI_SYMMAP_OPTIONS(so),
	CLI_SECTION("  (with a map, the page shows each function's file and line and can filter\n"
		    "  its table by path; --filter-filepath leaves the other functions out)\n"),
	CLI_INPUT_OPTIONS(so),
	CLI_SECTION("\n"),
	CLI_HELP_OPTION,
	CLI_END,
};
#undef CLI_ARGS

static int parse_args(int argc, char **argv, struct html_args *a)
{
	int ret = cli_parse(&html_cmd, argc, argv, html_options, a);

	if (ret || (ret = cli_input_arg("html", argc, argv, &a->so.path)) ||
	    /* the output's name and what is written agree (cli/formats.c) */
	    (ret = cli_output_format("html", a->output, "html", &(const char *){ "html" })))
		return ret;
	return 0;
}

/* The Errors panel: where the errors were born, when the trace has return values. */
static void page_errors(const struct html_args *a, const struct kmag_session *s,
			struct kmag_explore *x)
{
	struct kmag_errors *e = kmag_session_errors(s);

	if (!kmag_errors_stats(e)->calls_with_retval) {
		if (a->so.btf_path)
			cli_warn("%s has no return values (funcgraph-retval, Linux 6.5+): the page shows no errors",
				 kmag_session_name(s));
		return;
	}
	x->errors = e;
	x->errors_types = kmag_session_types_from(s);
}

/*
 * --root: the graph becomes the calls made under the root, with their own
 * numbers (kmag_cg_new_scoped(), as visualize --root); the other views
 * already saw only those calls (session views.root). The filters' text
 * names it into @buf.
 */
static int scope_to_root(const struct html_args *a, struct kmag_session *s, char *buf, size_t len)
{
	struct kmag_cg *cg = kmag_session_graph(s), *scoped;
	long n;
	int ret;

	if (!kmag_cg_summary(cg)->has_stacks)
		return cli_error("--root needs call stacks, which %s lacks (function tracer: callers only); record with function_graph, or use --focus %s",
				 kmag_session_name(s), a->root);
	if ((ret = cli_find_function(s, "--root", a->root, &n)))
		return ret;
	if (!(scoped = kmag_cg_new_scoped(cg, kmag_cg_nodes(cg)[n].func)))
		return cli_error("out of memory");
	kmag_session_set_graph(s, scoped);
	snprintf(buf, len, "%s%scalled from %s", kmag_session_filters(s),
		 kmag_session_filters(s)[0] ? ", " : "", a->root);
	return 0;
}

/* The page of @s; returns the exit code. */
static int write_page(const struct html_args *a, struct kmag_session *s)
{
	char filters[1200], title[1600];
	struct kmag_probes *p = kmag_session_probes(s);
	struct kmag_srcloc *loc = kmag_session_srcloc(s);
	struct kmag_explore x = {
		.calls = kmag_session_calls(s), .trace = kmag_session_trace(s),
		.callsites = kmag_session_callsites(s), .lines = kmag_session_srclines(s),
		.cg = kmag_session_graph(s), .st = kmag_session_symtab(s),
		.info = kmag_session_info(s), .input = kmag_session_name(s),
		.filters = kmag_session_filters(s), .title = a->title,
	};
	struct cli_out o;
	int ret;

	if (a->root) {
		if ((ret = scope_to_root(a, s, filters, sizeof(filters))))
			return ret;
		x.cg = kmag_session_graph(s);
		x.filters = filters;
		x.focus = a->root;	/* unless --focus names another */
	}
	x.filters = cli_title_times(s, x.filters, title, sizeof(title));
	page_errors(a, s, &x);
	if (p && kmag_probes_count(p)) {
		x.probe_hits = kmag_probes_hits_cb;
		x.probe_hits_ctx = p;
	}
	if (a->focus) {
		long n;

		if ((ret = cli_find_function(s, "--focus", a->focus, &n)))
			return ret;
		x.focus = kmag_symtab_name(x.st, kmag_cg_nodes(x.cg)[n].func);
	}
	if (loc) {
		x.srcline = kmag_srcloc_report_cb;
		x.srcline_ctx = loc;
	}
	if (kmag_session_pathfilter(s)) {
		x.visible = kmag_srcloc_visible_cb;
		x.visible_ctx = loc;
		x.path_filter = a->so.filter_filepath;
	}
	if ((ret = cli_out_open(a->output, &o)) ||
	    (ret = cli_out_close(&o, kmag_explore_html(o.f, &x))))
		return ret;
	if (!kmag_cg_summary(x.cg)->func_events)
		cli_warn("%s holds no function calls%s; the page is empty", x.input,
			 x.filters[0] ? " that pass the filters" : "");
	cli_warn_sources(s);
	cli_warn_lost(x.info);
	return 0;
}

int cmd_html(struct kmag_cli *cli, int argc, char **argv)
{
	/* the graph, each function's calls and call sites, errors, probe hits, source files */
	struct html_args a = {
		.output = "kmag.html",
		.so = { .symbols = true, .views = { .graph = true, .calls = true, .callsites = true,
						    .errors = true, .probes = true,
						    .durations = true } },
	};
	struct kmag_session *s = NULL;
	int ret = parse_args(argc, argv, &a);

	(void)cli;
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	/* --root: the call paths to scope the graph by, and the single calls under it only */
	a.so.views.call_paths = a.root != NULL;
	a.so.views.root = a.root;
	if (!(ret = cli_session_load("html", &a.so, &s)))
		ret = write_page(&a, s);
	kmag_session_free(s);
	return ret;
}
