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
#include "kmag/srclines.h"
#include "kmag/render/calltree.h"
#include "kmag/durations.h"

#define CLI_MIN_DURATION_HELP_REPLAY                                                       \
	"      --min-duration DUR    only calls lasting at least DUR (250us, 1.5ms, 2s; a\n"   \
	"                            bare number is microseconds), with their callers\n"

static const char replay_usage[] =
	"Usage: kmag replay [options] [FILE]\n"
	"\n"
	"Print every call of a trace (default ./trace.dat) in time order, as the\n"
	"kernel's function_graph tracer does: \"f() {\" ... \"} /* f */\" with the\n"
	"duration on the closing line, calls that made no call as \"f();\", each line\n"
	"with its time, CPU and task. Interrupt entries, calls whose entry or exit\n"
	"the trace lacks, and calls open while events were lost are marked; return\n"
	"values are shown where the trace has them (funcgraph-retval). For a\n"
	"function-tracer trace: each call with its caller (\"f <- caller\").\n"
	"Durations above 10 us, 100 us, 1 ms, 10 ms, 100 ms, 1 s carry the kernel's\n"
	"marks + ! # * @ $. Output starts at once; memory does not grow with the trace.\n"
	"\n"
	"Options:\n"
	"  -f, --function F          only calls of F (a glob) and the calls they make\n"
	"  -d, --depth N             at most N levels (below F with --function)\n"
	CLI_MIN_DURATION_HELP_REPLAY
	"      --errors              only calls that returned an error (-errno), with\n"
	"                            their callers (needs funcgraph-retval, Linux 6.5+)\n"
	"      --limit N             stop after N calls\n"
	"      --btf FILE            the kernel's BTF (a copy of /sys/kernel/btf/vmlinux, or\n"
	"                            a vmlinux): name and print arguments as the kernel does\n"
	"      --vmlinux FILE        the kernel's vmlinux with DWARF: call sites\n"
	"                            (funcgraph-retaddr) also as source lines\n"
	"  -F, --format text|json    json: one object per call, when it returns (JSON\n"
	"                            Lines: id, parent, function, task, pid, cpu, depth,\n"
	"                            start_ns, duration_ns, self_ns, flags, retval)\n"
	"  -o, --output PATH         write to PATH (default: standard output)\n"
	CLI_COLOR_HELP
	"\n" CLI_INPUT_HELP
	"\n"
	"  -h, --help                show this help\n";

enum { OPT_ERRORS = OPT_INPUT_LAST + 1, OPT_VMLINUX };

struct replay_args {
	struct kmag_calltree_opts o;
	const char *output;
	const char *vmlinux;	/* --vmlinux */
	enum cli_color color;
	bool json_set;
};

static int parse_args(int argc, char **argv, struct replay_args *a, struct cli_input *in)
{
	static const struct option longopts[] = {
		{ "function", required_argument, NULL, 'f' },
		{ "depth", required_argument, NULL, 'd' },
		{ "limit", required_argument, NULL, 'n' },
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "errors", no_argument, NULL, OPT_ERRORS },
		CLI_BTF_LONGOPT,
		{ "vmlinux", required_argument, NULL, OPT_VMLINUX },
		CLI_COLOR_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		CLI_MIN_DURATION_LONGOPT,
		CLI_INPUT_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	const char *fmt = NULL;
	unsigned long v;
	int opt, ret;

	while ((opt = cli_getopt(argc, argv, ":f:d:F:o:h", longopts)) != -1) {
		switch (opt) {
		case 'f':
			a->o.function = optarg;
			break;
		case 'd':
			if (!cli_parse_ulong("replay", "--depth", optarg, &v))
				return EXIT_USAGE;
			if (!v || v > UINT32_MAX)
				return cli_usage_error("replay", "--depth expects a number of levels from 1, got \"%s\"",
						       optarg);
			a->o.max_depth = (uint32_t)v;
			break;
		case 'n':
			if (!cli_parse_ulong("replay", "--limit", optarg, &v))
				return EXIT_USAGE;
			a->o.limit = v;
			break;
		case 'F':
			if ((ret = cli_format_arg("replay", optarg, "text,json", &fmt)))
				return ret;
			break;
		case 'o':
			a->output = optarg;
			break;
		case OPT_ERRORS:
			a->o.errors = true;
			break;
		case OPT_VMLINUX:
			if (cli_lacks_feature(KMAG_FEATURE_LIBDW, "--vmlinux"))
				return EXIT_ERR;
			a->vmlinux = optarg;
			break;
		case 'h':
			fputs(replay_usage, stdout);
			return -1;
		default:
			ret = cli_shared_option("replay", opt, argv,
						&(struct cli_shared){ .in = in, .color = &a->color });
			if (ret)
				return ret;
			break;
		}
	}
	if ((ret = cli_input_arg("replay", argc, argv, in)))
		return ret;
	if ((ret = cli_output_format("replay", a->output, "text,json", &fmt)))
		return ret;
	a->o.format = fmt && !strcmp(fmt, "json") ? KMAG_CALLTREE_JSON : KMAG_CALLTREE_TEXT;
	/* the filter on durations is the printer's (it keeps the callers' lines), not the graph's */
	a->o.min_duration_ns = in->min_duration_ns;
	in->min_duration_ns = 0;
	if (a->output && !strcmp(a->output, "-"))
		a->output = NULL;
	return 0;
}

static int run(struct replay_args *a, struct cli_input *in, struct kmag_cli *cli)
{
	const struct kmag_calltree_stats *st;
	struct kmag_err err = { 0 };
	struct kmag_calltree *c;
	struct cli_stream s;
	struct cli_out o;
	int ret;

	in->unordered = false;	/* per-task call stacks need time order */
	if (a->vmlinux && !(a->o.lines = kmag_srclines_open(a->vmlinux, &err)))
		return cli_lib_error(&err, "cannot read the vmlinux");
	if ((ret = cli_stream_open("replay", in, &s))) {
		kmag_srclines_free(a->o.lines);
		return ret;
	}
	a->o.source = s.path;
	if ((ret = cli_out_open(a->output, &o))) {
		cli_stream_close(&s);
		kmag_srclines_free(a->o.lines);
		return ret;
	}
	a->o.colour = a->o.format == KMAG_CALLTREE_TEXT &&
		      cli_color_on(a->color, !a->output && cli->stdout_tty);
	c = kmag_calltree_new(s.trace, o.f, &a->o, &err);
	if (!c) {
		cli_out_close(&o, -ENOMEM);
		cli_stream_close(&s);
		kmag_srclines_free(a->o.lines);
		return cli_lib_error(&err, "cannot start the replay");
	}
	ret = cli_stream_read(&s, kmag_calltree_event_fn, c);
	if (ret < 0) {
		err = *kmag_calltree_error(c);
		ret = err.code == EIO ? -EIO : cli_lib_error(&err, "cannot replay the trace");
	}
	if (!ret && kmag_calltree_finish(c, &err))
		ret = err.code == EIO ? -EIO : cli_lib_error(&err, "cannot replay the trace");
	ret = cli_out_close(&o, ret);
	st = kmag_calltree_stats(c);
	if (!ret && a->o.function && !st->function_seen)
		ret = cli_error("%s has no call of %s%s", s.path, a->o.function,
				s.filters[0] ? " that passes the filters" : "");
	else if (!ret && !st->calls)
		cli_warn("%s holds no function calls%s", s.path,
			 s.filters[0] ? " that pass the filters" : "");
	if (!ret)
		cli_warn_lost(kmag_trace_info(s.trace));
	kmag_calltree_free(c);
	cli_stream_close(&s);
	kmag_srclines_free(a->o.lines);
	return ret;
}

int cmd_replay(struct kmag_cli *cli, int argc, char **argv)
{
	struct replay_args a = { .color = CLI_COLOR_AUTO };
	struct cli_input in = { .unordered = false };
	int ret = parse_args(argc, argv, &a, &in);

	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	return run(&a, &in, cli);
}
