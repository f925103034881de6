// SPDX-License-Identifier: MIT
/*
 * cmd-replay.c - `kmag replay`: every call of a trace in time order, as the
 * kernel's function_graph text (render/calltree.c) or JSON Lines.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "kmag/render/calltree.h"
#include "kmag/durations.h"
#include "kmag/errors.h"

static const struct cli_command replay_cmd = {
	.name = "replay",
	.usage = "Usage: kmag replay [options] [FILE]\n"
		 "\n"
		 "Print every call of a trace (default ./trace.dat) in time order, as the\n"
		 "kernel's function_graph tracer does: \"f() {\" ... \"} /* f */\" with the\n"
		 "duration on the closing line, calls that made no call as \"f();\", each line\n"
		 "with its time, CPU and task. Interrupt entries, calls whose entry or exit\n"
		 "the trace lacks, and calls open while events were lost are marked; return\n"
		 "values are shown where the trace has them (funcgraph-retval). For a\n"
		 "function-tracer trace: each call with its caller (\"f <- caller\").\n"
		 "Durations above 10 us, 100 us, 1 ms, 10 ms, 100 ms, 1 s carry the kernel's\n"
		 "marks + ! # * @ $. Output starts at once; memory does not grow with the trace.\n",
};

struct replay_args {
	struct kmag_calltree_opts o;
	const char *output;
	const char *format;	/* -F */
	unsigned long depth, limit;
	enum cli_color color;
	struct kmag_session_opts so;
};

#define CLI_ARGS struct replay_args
static const struct cli_option replay_options[] = {
	CLI_SECTION("\nOptions:\n"),
	CLI_STRING('f', "function", "F", o.function, "only calls of F (a glob) and the calls they make"),
	CLI_ULONG_RANGE('d', "depth", "N", depth, 1, UINT32_MAX,
			"--depth expects a number of levels from 1, got \"%s\"",
			"at most N levels (below F with --function)"),
	CLI_MIN_DURATION_OPTION_HELP(so, "only calls lasting at least DUR (250us, 1.5ms, 2s; a\n"
					 "bare number is microseconds), with their callers"),
	CLI_FLAG(0, "errors", o.errors,
		 "only calls that returned an error (-errno), with\n"
		 "their callers (needs funcgraph-retval, Linux 6.5+)"),
	CLI_ERRNO_OPTION(o.errnum,
			 "only calls that returned -ERRNO (a name like EINVAL,\n"
			 "or 22), with their callers (needs funcgraph-retval,\n"
			 "Linux 6.5+)"),
	CLI_ULONG(0, "limit", "N", limit, "stop after N calls"),
	CLI_BTF_OPTION(so, "the kernel's BTF (a copy of /sys/kernel/btf/vmlinux, or\n"
			   "a vmlinux): name and print arguments as the kernel does"),
	CLI_VMLINUX_OPTION(so.vmlinux, "the kernel's vmlinux with DWARF: call sites\n"
				    "(funcgraph-retaddr) also as source lines"),
	CLI_FORMAT("text|json", format, "text,json",
		   "json: one object per call, when it returns (JSON\n"
		   "Lines: id, parent, function, task, pid, cpu, depth,\n"
		   "start_ns, start_from, duration_ns, self_ns, flags,\n"
		   "retval)"),
	CLI_STRING('o', "output", "PATH", output, "write to PATH (default: standard output)"),
	CLI_COLOR_OPTION(color),
	CLI_INPUT_OPTIONS(so),
	CLI_SECTION("\n"),
	CLI_HELP_OPTION,
	CLI_END,
};
#undef CLI_ARGS

static int parse_args(int argc, char **argv, struct replay_args *a)
{
	int ret = cli_parse(&replay_cmd, argc, argv, replay_options, a);

	if (ret || (ret = cli_input_arg("replay", argc, argv, &a->so.path)) ||
	    (ret = cli_output_format("replay", a->output, "text,json", &a->format)))
		return ret;
	a->o.max_depth = (uint32_t)a->depth;
	a->o.limit = a->limit;
	a->o.format = a->format && !strcmp(a->format, "json") ? KMAG_CALLTREE_JSON :
								 KMAG_CALLTREE_TEXT;
	/* the filter on durations is the printer's (it keeps the callers' lines), not the graph's */
	a->o.min_duration_ns = a->so.min_duration_ns;
	a->so.min_duration_ns = 0;
	if (a->output && !strcmp(a->output, "-"))
		a->output = NULL;
	return 0;
}

/* What the printer could not say itself: a function never called, no calls, lost events. */
static int tell(const struct replay_args *a, const struct kmag_session *s,
		const struct kmag_calltree *c)
{
	const struct kmag_calltree_stats *st = kmag_calltree_stats(c);
	const char *name = kmag_session_name(s);
	bool filtered = kmag_session_filters(s)[0];
	char similar[400];

	if (a->o.function && !st->function_seen && kmag_calltree_suggest(c, similar, sizeof(similar)))
		return cli_error("%s has no call of %s%s; did you mean %s?", name, a->o.function,
				 filtered ? " that passes the filters" : "", similar);
	if (a->o.function && !st->function_seen)
		return cli_error("%s has no call of %s%s", name, a->o.function,
				 filtered ? " that passes the filters" : "");
	if (!st->calls)
		cli_warn("%s holds no function calls%s", name, filtered ? " that pass the filters" : "");
	if (a->o.min_duration_ns && st->calls && !st->shown) {
		char msg[512];

		kmag_mindur_explain(msg, sizeof(msg), name, a->o.min_duration_ns, st->longest_ns,
				    st->longest_func == KMAG_FUNC_NONE ? NULL :
				    kmag_symtab_name(kmag_session_symtab(s), st->longest_func));
		return cli_error("%s", msg);
	}
	if (a->o.errnum && st->calls && !st->shown) {
		const char *e = kmag_errno_name(a->o.errnum);

		return cli_error("no call in %s%s returned -%d%s%s (--errno): `kmag errors %s` lists the errors it has",
				 name, filtered ? " that passes the filters" : "", a->o.errnum,
				 e ? " " : "", e ? e : "", name);
	}
	/* (text marks it in the output) */
	if (st->limited && a->o.format == KMAG_CALLTREE_JSON)
		fprintf(stderr, "kmag: stopped at --limit %lu%s%s; more: --limit %lu, all: --limit 0\n",
			a->limit, st->stopped_in[0] ? ", inside " : "", st->stopped_in, 2 * a->limit);
	cli_warn_lost(kmag_session_info(s));
	return 0;
}

/* The calls, printed while @s reads them; returns the exit code. */
static int print_calls(struct replay_args *a, struct kmag_session *s, bool tty)
{
	struct kmag_err err = { 0 };
	struct kmag_calltree *c;
	struct cli_out o;
	int ret;

	a->o.source = kmag_session_name(s);
	a->o.lines = kmag_session_srclines(s);
	a->o.tracer_cost_ns = kmag_session_tracer_cost(s);
	if ((ret = cli_out_open(a->output, &o)))
		return ret;
	a->o.colour = a->o.format == KMAG_CALLTREE_TEXT && cli_color_on(a->color, !a->output && tty);
	c = kmag_calltree_new(kmag_session_trace(s), o.f, &a->o, &err);
	if (!c || kmag_session_tap(s, kmag_calltree_event_fn, c)) {
		cli_out_close(&o, -ENOMEM);
		kmag_calltree_free(c);
		return cli_lib_error(&err, "cannot start the replay");
	}
	ret = cli_session_read(s);
	if (ret < 0) {
		err = *kmag_calltree_error(c);
		ret = err.code == EIO ? -EIO : cli_lib_error(&err, "cannot replay the trace");
	}
	if (!ret && kmag_calltree_finish(c, &err))
		ret = err.code == EIO ? -EIO : cli_lib_error(&err, "cannot replay the trace");
	ret = cli_out_close(&o, ret);
	if (!ret)
		ret = tell(a, s, c);
	kmag_calltree_free(c);
	return ret;
}

int cmd_replay(struct kmag_cli *cli, int argc, char **argv)
{
	struct replay_args a = { .color = CLI_COLOR_AUTO };
	struct kmag_session *s = NULL;
	int ret = parse_args(argc, argv, &a);

	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (!(ret = cli_session_open("replay", &a.so, &s)))
		ret = print_calls(&a, s, cli->stdout_tty);
	kmag_session_free(s);
	return ret;
}
