// SPDX-License-Identifier: MIT
/*
 * cmd-stack.c - `kmag stack`: the deepest kernel stack while a command or a
 * time span runs, with each frame's size (the kernel's stack tracer).
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "kmag/render/stack.h"
#include "kmag/stack.h"

static const struct cli_command stack_cmd = {
	.name = "stack",
	.usage = "Usage: kmag stack [options] [-- COMMAND [ARGS...]]\n"
		 "\n"
		 "Find the deepest kernel stack: turn on the kernel's stack tracer\n"
		 "(CONFIG_STACK_TRACER) while COMMAND runs, or for a time, then show the\n"
		 "maximum stack use and the call chain that reached it, with each frame's\n"
		 "size. The stack tracer watches the whole system, not only COMMAND, and is\n"
		 "put back as it was afterwards (also on Ctrl-C; after a SIGKILL the next\n"
		 "kmag stack repairs it). Needs root.\n"
		 "\n",
	.operands_end = true,
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void note_to_stderr(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "kmag: %s\n", msg);
}

/* Runs @argv to its end (or a stop signal). Returns 0, or an exit code after printing. */
static int run_command(char **argv, int *status)
{
	pid_t pid = fork();

	if (pid < 0)
		return cli_error("cannot start %s: %s", argv[0], strerror(errno));
	if (!pid) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execvp(argv[0], argv);
		fprintf(stderr, "kmag: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR)
			return cli_error("cannot wait for %s: %s", argv[0], strerror(errno));
		if (stop_signal)
			kill(pid, SIGTERM);
	}
	return 0;
}

/* The command line of stack. */
struct stack_args {
	double seconds;
	bool time_given;
	const char **filter;	/* -l, in argv */
	size_t nr_filter;
	const char *format;
};

static int parse_seconds(const struct cli_option *o, void *value, const char *arg,
			 const char *cmd)
{
	double *seconds = value;
	char *end;

	errno = 0;
	*seconds = strtod(arg, &end);
	if (errno || *end || end == arg || *seconds <= 0 || *seconds > 1e7)
		return cli_usage_error(cmd, "--time expects seconds above 0, got \"%s\"", arg);
	return 0;
}

static int add_filter(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	struct stack_args *a = value;
	const char **f = realloc(a->filter, (a->nr_filter + 1) * sizeof(*f));

	(void)o, (void)cmd;
	if (!f)
		return cli_error("out of memory");
	a->filter = f;
	a->filter[a->nr_filter++] = arg;
	return 0;
}

#define CLI_ARGS struct stack_args
static const struct cli_option stack_options[] = {
	CLI_OPTION_GIVEN('t', "record-time", "SEC", parse_seconds, seconds, double *, time_given,
			 "watch for SEC seconds (default 10; with a\n"
			 "COMMAND: until it exits)"),
	CLI_CALLBACK('l', "filter", "GLOB", add_filter,
		     "watch only the stack on entry to matching\n"
		     "functions (stack_trace_filter; repeatable)"),
	CLI_FORMAT("FMT", format, "text,json", "text (default) or json"),
	CLI_HELP_OPTION,
	CLI_END,
};
#undef CLI_ARGS

static int parse_args(int argc, char **argv, struct stack_args *a)
{
	int ret = cli_parse(&stack_cmd, argc, argv, stack_options, a);

	if (ret)
		return ret;
	if (optind < argc && a->time_given)
		return cli_usage_error("stack", "give either --time or a COMMAND, not both");
	return 0;
}

int cmd_stack(struct kmag_cli *cli, int argc, char **argv)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct kmag_stack_opts o = { .note = note_to_stderr };
	struct sigaction sa = { .sa_handler = on_signal };
	struct stack_args a = { .seconds = 10, .format = "text" };
	struct kmag_stack_result res;
	struct kmag_err err = { 0 };
	struct kmag_stack *s;
	int ret, status = -1;
	size_t i;

	(void)cli;
	ret = parse_args(argc, argv, &a);
	if (ret) {
		free(a.filter);
		return ret < 0 ? EXIT_OK : ret;
	}
	o.filter = a.filter;
	o.nr_filter = a.nr_filter;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);

	s = kmag_stack_start(&o, &err);
	if (!s) {
		free(a.filter);
		return cli_lib_error(&err, "cannot start the stack tracer");
	}
	if (optind < argc) {
		fprintf(stderr, "kmag: watching the kernel stack while %s runs\n", argv[optind]);
		ret = run_command(argv + optind, &status);
	} else {
		struct timespec t0, now, nap = { 0, 50 * 1000 * 1000 };

		fprintf(stderr, "kmag: watching the kernel stack for %.1f s; Ctrl-C stops\n", a.seconds);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		do {
			nanosleep(&nap, NULL);
			clock_gettime(CLOCK_MONOTONIC, &now);
		} while (!stop_signal && (double)(now.tv_sec - t0.tv_sec) +
						 (double)(now.tv_nsec - t0.tv_nsec) / 1e9 < a.seconds);
	}
	if (kmag_stack_stop(s, &res, &err)) {
		ret = cli_lib_error(&err, "cannot read the stack tracer");
	} else if (!ret) {
		int w = !strcmp(a.format, "json") ? kmag_stack_json(stdout, &res) :
						  kmag_stack_text(stdout, &res);

		if (w)
			ret = cli_write_error(NULL, w);
		if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status))
			cli_warn("%s exited with status %d", argv[optind], WEXITSTATUS(status));
	}
	kmag_stack_result_release(&res);
	kmag_stack_free(s);
	free(a.filter);
	return ret;
}
