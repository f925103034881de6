// SPDX-License-Identifier: MIT
/*
 * cmd-errors.c - `kmag errors`: where the errors of a trace were born
 * (lib/analysis/errors.c), as a table or JSON (render/errors.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kmag/btf.h"
#include "kmag/errors.h"
#include "kmag/render/errors.h"
#include "kmag/replay.h"

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
	struct kmag_errors_render_opts o;
	const char *output;
	const char *format;	/* -F */
	unsigned long limit;
	struct cli_errors_types types;
	struct cli_input in;
};

#define CLI_ARGS struct errors_args
static const struct cli_option errors_options[] = {
	CLI_SECTION("\nOptions:\n"),
	CLI_BTF_OPTION(in, "the kernel's return types from its BTF (a copy of\n"
			   "/sys/kernel/btf/vmlinux, or a vmlinux; default: the\n"
			   "BTF a trace.dat stores): void, bool and unsigned\n"
			   "returns are then never errors, pointers only as\n"
			   "ERR_PTR values"),
	CLI_ULONG(0, "limit", "N", limit, "at most N groups"),
	CLI_FORMAT("text|json", format, "text,json",
		   "text: a table with the example chain below each row"),
	CLI_STRING('o', "output", "PATH", output, "write to PATH (default: standard output)"),
	CLI_INPUT_OPTIONS(in),
	CLI_SECTION("\n"),
	CLI_HELP_OPTION,
	CLI_END,
};
#undef CLI_ARGS

static int parse_args(int argc, char **argv, struct errors_args *a)
{
	struct cli_input *in = &a->in;
	const char *fmt;
	int ret = cli_parse(&errors_cmd, argc, argv, errors_options, a);

	if (ret)
		return ret;
	a->o.limit = a->limit;
	fmt = a->format;
	if ((ret = cli_input_arg("errors", argc, argv, in)))
		return ret;
	if ((ret = cli_output_format("errors", a->output, "text,json", &fmt)))
		return ret;
	a->o.format = fmt && !strcmp(fmt, "json") ? KMAG_ERRORS_JSON : KMAG_ERRORS_TEXT;
	if (a->output && !strcmp(a->output, "-"))
		a->output = NULL;
	return 0;
}

int cli_errors_use_types(struct cli_errors_types *ty, struct kmag_errors *e,
			 struct kmag_trace *t, const char *btf_path)
{
	/* --btf, else the BTF the trace.dat stores: cli_input_btf() gave it to @t */
	const struct kmag_btf *btf = kmag_trace_get_btf(t);

	ty->from = NULL;
	if (!btf)
		return 0;
	if (btf_path)
		snprintf(ty->buf, sizeof(ty->buf), "BTF of %s", btf_path);
	else
		snprintf(ty->buf, sizeof(ty->buf), "the BTF the trace stores");
	kmag_errors_use_btf(e, btf);
	ty->from = ty->buf;
	return 0;
}

/* Replays the trace into @e; 0 or an exit code (printed). */
static int analyse(struct cli_stream *s, struct kmag_errors *e)
{
	struct kmag_replay *r = kmag_replay_new();
	int ret;

	if (!r || kmag_errors_subscribe(e, r)) {
		kmag_replay_free(r);
		return cli_error("out of memory");
	}
	ret = cli_stream_read(s, kmag_replay_event_fn, r);
	if (ret < 0)
		ret = cli_error("cannot replay %s: %s", s->path, strerror(-ret));
	if (!ret && (ret = kmag_replay_finish(r, KMAG_TS_NONE)))
		ret = cli_error("cannot replay %s: %s", s->path, strerror(-ret));
	if (!ret && (ret = kmag_errors_finish(e)))
		ret = cli_error("cannot find the errors of %s: %s", s->path, strerror(-ret));
	kmag_replay_free(r);
	return ret;
}

static int run(struct errors_args *a, struct cli_input *in)
{
	const struct kmag_errors_stats *st;
	struct kmag_errors *e = NULL;
	struct cli_stream s;
	struct cli_out o;
	int ret;

	in->unordered = false;	/* per-task call stacks need time order */
	if ((ret = cli_stream_open("errors", in, &s)))
		return ret;
	a->o.source = s.path;
	e = kmag_errors_new(kmag_trace_symtab(s.trace));
	if (!e) {
		ret = cli_error("out of memory");
		goto out;
	}
	if ((ret = cli_errors_use_types(&a->types, e, s.trace, in->btf_path)))
		goto out;
	a->o.types_from = a->types.from;
	if ((ret = analyse(&s, e)))
		goto out;
	st = kmag_errors_stats(e);
	if (!st->calls_with_retval) {
		/* nothing to say without return values: no table of zeros */
		ret = st->calls || !s.filters[0] ? cli_error("%s: " CLI_ERRORS_NEED_RETVAL, s.path)
						  : cli_error("%s holds no function calls that pass the filters",
							      s.path);
		goto out;
	}
	if ((ret = cli_out_open(a->output, &o)))
		goto out;
	ret = cli_out_close(&o, kmag_errors_render(o.f, e, kmag_trace_symtab(s.trace), &a->o));
	if (!ret)
		cli_warn_lost(kmag_trace_info(s.trace));
out:
	kmag_errors_free(e);
	cli_stream_close(&s);
	return ret;
}

int cmd_errors(struct kmag_cli *cli, int argc, char **argv)
{
	struct errors_args a = { 0 };
	int ret = parse_args(argc, argv, &a);

	(void)cli;
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	return run(&a, &a.in);
}
