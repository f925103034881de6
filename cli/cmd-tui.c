// SPDX-License-Identifier: MIT
/*
 * cmd-tui.c - `kmag tui`: the terminal explorer (tui/). Reads the trace into
 * the call graph and, from the graph's replay, a sample of each function's
 * calls with their trees (callsample.h, as the HTML explorer's Calls view);
 * then hands both to the explorer.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "config.h"
#include "kmag/callsample.h"
#include "kmag/srclines.h"
#include "tui.h"

static const struct cli_command tui_cmd = {
	.name = "tui",
	.usage = "Usage: kmag tui [options] [FILE]\n"
		 "\n"
		 "Explore a trace (default ./trace.dat) on the terminal, e.g. over SSH: the\n"
		 "function table (calls, total, self, average time; sort with s or 1/2/3),\n"
		 "Enter for a function's callers and callees, c for its individual calls\n"
		 "(start, task, CPU, duration, return value: the slowest, the first\n"
		 "failing and the first ones), Enter on a call for its call tree in time\n"
		 "order, folded and unfolded with Enter/Space or Left/Right; / searches,\n"
		 "n finds the next match, ? lists every key, q goes back and quits. No\n"
		 "mouse needed.\n",
	.footer = "\nKMAG_TUI_TRACE=FILE appends the time to the first screen and of each key to FILE.\n",
};

/* The command line of tui. */
struct tui_args {
	unsigned long keep;	/* --keep-calls, 0: not given */
	struct kmag_callsample_opts ko;
	struct kmag_session_opts so;
};

#define CLI_ARGS struct tui_args
static const struct cli_option tui_options[] = {
	CLI_SECTION("\nOptions:\n"),
	CLI_ULONG_RANGE(0, "keep-calls", "N", keep, 1, 10000,
			"--keep-calls expects 1 to 10000, got \"%s\"",
			"calls kept per function for each reason: the N\n"
			"slowest, the first N failing, the first N (default\n"
			"50, 50 and 20); trees keep up to 2000 calls each"),
	CLI_BTF_OPTION(so, "the kernel's BTF (a copy of /sys/kernel/btf/vmlinux, or\n"
			   "a vmlinux): a call tree's arguments named and printed\n"
			   "as the kernel does (default: the BTF a trace.dat\n"
			   "stores)"),
	CLI_VMLINUX_OPTION(so.vmlinux, "the kernel's vmlinux with DWARF: a call's call site\n"
				       "(funcgraph-retaddr) also as its source line"),
	CLI_INPUT_OPTIONS_TITLED(so, "\nInput selection (FILE cannot be \"-\": the keys come from standard input):\n"),
	CLI_SECTION("\n"),
	CLI_HELP_OPTION,
	CLI_END,
};
#undef CLI_ARGS

static int parse_args(int argc, char **argv, struct tui_args *a)
{
	int ret = cli_parse(&tui_cmd, argc, argv, tui_options, a);

	if (ret)
		return ret;
	if (a->keep)
		a->ko.slowest = a->ko.failing = a->ko.first = a->keep;
	if ((ret = cli_input_arg("tui", argc, argv, &a->so.path)))
		return ret;
	if (a->so.path && !strcmp(a->so.path, "-"))
		return cli_usage_error("tui", "the trace cannot come from standard input (\"-\"): tui reads its keys there; save the trace to a file and name it");
	return 0;
}

/* The explorer on @s, until the user quits; returns the exit code. */
static int explore(const struct kmag_session *s, const struct kmag_session_opts *so,
		   uint64_t start)
{
	char title[1024], buf[1024];
	const char *filters = cli_title_times(s, kmag_session_filters(s), buf, sizeof(buf));
	struct tui *t;
	int ret = 0;

	snprintf(title, sizeof(title), "%s%s%s%s", kmag_session_name(s), filters[0] ? " (" : "",
		 filters, filters[0] ? ")" : "");
	t = tui_new(&(struct tui_data){ .cg = kmag_session_graph(s), .st = kmag_session_symtab(s),
					.trace = kmag_session_trace(s),
					.sample = kmag_session_calls(s), .title = title,
					.path = kmag_session_name(s), .btf = so->btf_path,
					.vmlinux = so->vmlinux, .lines = kmag_session_srclines(s) });
	if (!t)
		ret = cli_error("out of memory");
#if KMAG_HAVE_TUI
	else
		ret = tui_run(t, getenv("KMAG_TUI_TRACE"), start);
#else
	(void)start;
#endif
	tui_free(t);
	return ret;
}

int cmd_tui(struct kmag_cli *cli, int argc, char **argv)
{
	/* the graph and a sample of each function's calls, with longer trees than the
	   page's: a terminal scrolls them cheaply */
	struct tui_args a = {
		.ko = { .slowest = KMAG_CALLSAMPLE_SLOWEST, .failing = KMAG_CALLSAMPLE_FAILING,
			.first = KMAG_CALLSAMPLE_FIRST, .tree_max = 2000, .budget = 200000 },
		.so = { .views = { .graph = true, .calls = true, .durations = true } },
	};
	struct kmag_session *s = NULL;
	struct timespec ts;
	uint64_t start;
	int ret;

	(void)cli;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	start = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	if ((ret = parse_args(argc, argv, &a)))
		return ret < 0 ? EXIT_OK : ret;
	if (cli_lacks_feature(KMAG_FEATURE_TUI, "tui"))
		return EXIT_ERR;
	/* before reading what may be gigabytes */
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return cli_error("tui needs a terminal (standard input and output)");
	a.so.views.calls_opts = &a.ko;
	if (!(ret = cli_session_load("tui", &a.so, &s)))
		ret = explore(s, &a.so, start);
	kmag_session_free(s);
	return ret;
}
