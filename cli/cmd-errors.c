// SPDX-License-Identifier: MIT
/*
 * cmd-errors.c - `kmag errors`: where the errors of a trace were born
 * (lib/analysis/errors.c), as a table or JSON (render/errors.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kmag/errors.h"
#include "kmag/render/errors.h"

static const struct cli_command errors_cmd = {
	.name = "errors",
	.usage = "Usage: kmag errors [options] [FILE]\n"
		 "\n"
		 "Where the errors of a trace (default ./trace.dat) were born: for every call\n"
		 "that returned a negative errno, the innermost function that produced it (it\n"
		 "returned the error and none of the calls it made returned the same one),\n"
		 "grouped by that origin, the errno and the entry point (the outermost call of\n"
		 "the stack, e.g. the system call), with counts, how often the entry point\n"
		 "itself returned the error, and one example chain from the entry point down\n"
		 "to the origin with durations. Needs return values (funcgraph-retval, Linux\n"
		 "6.5+); without the kernel's return types (BTF) the registers of void and bool\n"
		 "functions may read as errors, which the output says.\n",
};

struct errors_args {
	const char *output;
	const char *format;	/* -F */
	unsigned long limit;
	struct kmag_session_opts so;
};

#define CLI_ARGS struct errors_args
static const struct cli_option errors_options[] = {
	CLI_SECTION("\nOptions:\n"),
	CLI_BTF_OPTION(so, "the kernel's return types from its BTF (a copy of\n"
			   "/sys/kernel/btf/vmlinux, or a vmlinux; default: the\n"
			   "BTF a trace.dat stores): void, bool and unsigned\n"
			   "returns are then never errors, pointers only as\n"
			   "ERR_PTR values"),
	CLI_ERRNO_OPTION(so.errnum, "only the origins of -ERRNO (a name like EINVAL,\n"
				    "or 22)"),
	CLI_ULONG(0, "limit", "N", limit, "at most N groups"),
	CLI_FORMAT("text|json", format, "text,json",
		   "text: a table with the example chain below each row"),
	CLI_STRING('o', "output", "PATH", output, "write to PATH (default: standard output)"),
	CLI_INPUT_OPTIONS(so),
	CLI_SECTION("\n"),
	CLI_HELP_OPTION,
	CLI_END,
};
#undef CLI_ARGS

static int parse_args(int argc, char **argv, struct errors_args *a)
{
	int ret = cli_parse(&errors_cmd, argc, argv, errors_options, a);

	if (ret || (ret = cli_input_arg("errors", argc, argv, &a->so.path)) ||
	    (ret = cli_output_format("errors", a->output, "text,json", &a->format)))
		return ret;
	if (a->output && !strcmp(a->output, "-"))
		a->output = NULL;
	return 0;
}

/* The groups, as a table or JSON; returns the exit code. */
static int render(const struct errors_args *a, const struct kmag_session *s)
{
	struct kmag_errors *e = kmag_session_errors(s);
	const struct kmag_errors_stats *st = kmag_errors_stats(e);
	const char *name = kmag_session_name(s);
	struct kmag_errors_render_opts ro = {
		.format = a->format && !strcmp(a->format, "json") ? KMAG_ERRORS_JSON :
								    KMAG_ERRORS_TEXT,
		.limit = a->limit,
		.source = name,
		.types_from = kmag_session_types_from(s),
		.times = kmag_session_times(s),
	};
	struct cli_out o;
	int ret;

	if (!st->calls_with_retval) {
		/* nothing to say without return values: no table of zeros */
		if (st->calls || !kmag_session_filters(s)[0])
			return cli_error("%s: " CLI_ERRORS_NEED_RETVAL, name);
		return cli_error("%s holds no function calls that pass the filters", name);
	}
	if ((ret = cli_out_open(a->output, &o)))
		return ret;
	ret = cli_out_close(&o, kmag_errors_render(o.f, e, kmag_session_symtab(s), &ro));
	if (!ret)
		cli_warn_lost(kmag_session_info(s));
	return ret;
}

int cmd_errors(struct kmag_cli *cli, int argc, char **argv)
{
	struct errors_args a = { .so = { .views = { .errors = true } } };
	struct kmag_session *s = NULL;
	int ret = parse_args(argc, argv, &a);

	(void)cli;
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (!(ret = cli_session_load("errors", &a.so, &s)))
		ret = render(&a, s);
	kmag_session_free(s);
	return ret;
}
