// SPDX-License-Identifier: MIT
/*
 * kmag.c - main(): global options and the command table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

struct command {
	const char *name;
	int (*fn)(struct kmag_cli *cli, int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "report", cmd_report, "table of the functions in a trace: calls, total/self time" },
	{ "visualize", cmd_visualize, "call graph picture (PDF/PNG/SVG/DOT) and call-count chart" },
	{ "generate-symbol-map", cmd_generate_symbol_map, "map kernel functions to source file:line (DWARF)" },
	{ "flame", cmd_flame, "flame graph (interactive SVG, folded stacks) of a function_graph trace" },
	{ "html", cmd_html, "interactive HTML explorer of a trace: search, callers/callees graph, table" },
	{ "diff", cmd_diff, "what changed between two recordings: functions and calls added, removed, grown" },
	{ "export", cmd_export, "calls as Chrome trace events (Perfetto), folded stacks, CSV, JSON or DOT" },
	{ "record", cmd_record, "record kernel function calls with ftrace into trace.dat" },
	{ "replay", cmd_replay, "every call in time order, as a call tree per task (function_graph text, JSON)" },
	{ "tui", cmd_tui, "terminal explorer: function table, callers/callees, single calls and their trees" },
	{ "stack", cmd_stack, "the deepest kernel stack, frame by frame (the kernel's stack tracer)" },
	{ "errors", cmd_errors, "where errors were born: innermost function returning each -errno, by entry point" },
	{ "merge", cmd_merge, "sum many recordings' profiles (traces, report JSON) into one, for fleets" },
};

static void usage(FILE *out)
{
	size_t i;

	fputs("Usage: kmag [-v] [--version] [--help] <command> [options]\n"
	      "\n"
	      "kmag shows what the Linux kernel executes: it records function call chains\n"
	      "with ftrace and turns them into call graphs, tables and charts.\n"
	      "\n"
	      "Commands:\n",
	      out);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-20s %s\n", commands[i].name, commands[i].summary);
	fputs("\nRun 'kmag <command> --help' for the options of a command.\n", out);
}

static void log_to_stderr(enum kmag_log_level level, const char *domain, const char *msg)
{
	(void)domain;
	fprintf(stderr, "kmag: %s%s\n", level == KMAG_LOG_WARN ? "warning: " : "", msg);
}

static int run(int argc, char **argv);

int main(int argc, char **argv)
{
	cli_stdout_init();
	return cli_stdout_finish(run(argc, argv));
}

/* An unknown command, with the commands it resembles ("visualise": visualize). */
static int unknown_command(const char *name)
{
	const char *names[sizeof(commands) / sizeof(commands[0])];
	char list[300];
	size_t c;

	for (c = 0; c < sizeof(commands) / sizeof(commands[0]); c++)
		names[c] = commands[c].name;
	if (kmag_suggest(name, names, c, "", list, sizeof(list)))
		fprintf(stderr, "kmag: unknown command \"%s\"; did you mean %s? (see 'kmag --help')\n",
			name, list);
	else
		fprintf(stderr, "kmag: unknown command \"%s\" (see 'kmag --help')\n", name);
	return EXIT_USAGE;
}

static int run(int argc, char **argv)
{
	struct kmag_cli cli = { .argv0 = argv[0] };
	int i;
	size_t c;

	cli.stdout_tty = isatty(STDOUT_FILENO);
	cli.stderr_tty = isatty(STDERR_FILENO);
	cli_progress_init(cli.stderr_tty);
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return EXIT_OK;
		}
		if (!strcmp(argv[i], "--version")) {
			enum kmag_feature f;

			/* the optional libraries this build has (+) or lacks (-) */
			printf("kmag %s\nfeatures:", kmag_version());
			for (f = 0; f < KMAG_FEATURE_COUNT; f++)
				printf(" %c%s", kmag_has_feature(f) ? '+' : '-', kmag_feature_name(f));
			putchar('\n');
			return EXIT_OK;
		}
		if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
			cli.verbose++;
			continue;
		}
		fprintf(stderr, "kmag: unknown option \"%s\" (see 'kmag --help')\n", argv[i]);
		return EXIT_USAGE;
	}
	if (i >= argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	kmag_set_log(log_to_stderr, cli.verbose >= 2 ? KMAG_LOG_DEBUG :
				    cli.verbose ? KMAG_LOG_INFO : KMAG_LOG_WARN);
	for (c = 0; c < sizeof(commands) / sizeof(commands[0]); c++) {
		if (strcmp(argv[i], commands[c].name))
			continue;
		optind = 1;
		opterr = 0;
		return commands[c].fn(&cli, argc - i, argv + i);
	}
	/* "kmag help [COMMAND]", as git and trace-cmd have it */
	if (!strcmp(argv[i], "help")) {
		if (i + 1 >= argc) {
			usage(stdout);
			return EXIT_OK;
		}
		for (c = 0; c < sizeof(commands) / sizeof(commands[0]); c++)
			if (!strcmp(argv[i + 1], commands[c].name)) {
				char *help[] = { argv[i + 1], (char *)"--help", NULL };

				optind = 1;
				opterr = 0;
				return commands[c].fn(&cli, 2, help);
			}
		i++;
	}
	return unknown_command(argv[i]);
}
