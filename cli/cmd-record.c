// SPDX-License-Identifier: MIT
/*
 * cmd-record.c - `kmag record`: capture a trace.dat with ftrace.
 */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "kmag/record.h"

static const char record_usage[] =
	"Usage: kmag record [options] [-- COMMAND [ARGS...]]\n"
	"\n"
	"Record the kernel's function calls with ftrace into a trace.dat file, for\n"
	"`kmag report` (and `trace-cmd report`). Needs root.\n"
	"\n"
	"What to record:\n"
	"  -p, --tracer TRACER       function_graph (default where the kernel has it),\n"
	"                            function, or nop (only the -e events)\n"
	"  -l, --func GLOB           trace only matching functions (repeatable); globs\n"
	"                            like 'vfs_*', '*swap*', ':mod:ext4', 'ext4_*:mod:ext4'\n"
	"      --func-list FILE      trace only the functions named in FILE (one per\n"
	"                            line, # comments); with -l: those too\n"
	"      --filter-filepath P[,P...]\n"
	"                            trace only functions defined in matching source\n"
	"                            files: a substring (net/), a glob (fs/*/inode.c),\n"
	"                            '/' anchors at the tree root; needs a symbol map\n"
	"                            (kmag generate-symbol-map)\n"
	"      --symbol-file-path MAP\n"
	"                            the symbol map (default: the running kernel's in\n"
	"                            ~/.cache/kmag, or $KMAG_SYMBOL_MAP)\n"
	"  -n, --notrace GLOB        never trace matching functions (repeatable)\n"
	"  -g, --graph GLOB          function_graph: record only what these functions\n"
	"                            call (repeatable)\n"
	"      --max-graph-depth N   function_graph: at most N levels of calls\n"
	"  -e, --event SYSTEM:EVENT  also record this tracepoint (repeatable); SYSTEM\n"
	"                            alone records all of its events; globs work\n"
	"      --filter EXPR         kernel filter for the -e before it, e.g.\n"
	"                            --filter 'prev_pid != 0'\n"
	"      --kprobe 'FUNC[+OFFS] [NAME=FETCHARG...]'\n"
	"                            a kprobe with the arguments to fetch, in\n"
	"                            kprobe_events syntax (repeatable), e.g.\n"
	"                            --kprobe 'vfs_write count=%dx:u64' (x86-64 argument\n"
	"                            registers: di si dx cx r8 r9); see report --probes\n"
	"      --kretprobe 'FUNC [NAME=FETCHARG...]'\n"
	"                            a probe on the return, e.g. 'vfs_read ret=$retval:s64'\n"
	"      --uprobe 'PATH:FUNC[+OFFS] [NAME=FETCHARG...]'\n"
	"                            a user-space probe (PATH:0xOFFSET works too)\n"
	"      --uretprobe 'PATH:FUNC [NAME=FETCHARG...]'\n"
	"                            a user-space return probe\n"
	"      --threshold USEC      function_graph: record only calls that take at\n"
	"                            least USEC microseconds (tracing_thresh)\n"
	"      --args                also record each call's arguments (Linux 6.15+\n"
	"                            with CONFIG_FUNCTION_TRACE_ARGS; costs more)\n"
	"      --no-retaddr          function_graph: no call sites (recorded by\n"
	"                            default where the kernel can: Linux 6.13+)\n"
	"\n"
	"Which tasks and CPUs:\n"
	"  -P, --pid PID[,PID...]    only these tasks (repeatable)\n"
	"  -c, --children            with -P: also the tasks they fork\n"
	"  -- COMMAND [ARGS]         run COMMAND and trace only it and its children:\n"
	"                            tracing starts right before it runs and stops when\n"
	"                            it exits\n"
	"      --cpu LIST            only these CPUs (e.g. 0-3,8), as in every command\n"
	"      --cpumask MASK        only these CPUs, as a hex mask the way the seed and\n"
	"                            tracing_cpumask take it (1 = CPU 0, 6 = CPUs 1-2)\n"
	"  -M 0xMASK                 trace-cmd's spelling of --cpumask; write the 0x\n"
	"                            (-M 10 could mean CPU 10 or CPU 4; -M ff is clear)\n"
	"\n"
	"How long:\n"
	"  -t, --record-time SEC     stop after SEC seconds (default 10; 0 = until Ctrl-C;\n"
	"                            with a COMMAND: no limit unless given)\n"
	"\n"
	"Output:\n"
	"  -o, --output FILE         default ./trace.dat\n"
	"      --compression zstd|none\n"
	"                            zstd: trace.dat v7 (default); none: v6\n"
	"      --file-version 6|7    the trace.dat version (7 with none: v7 uncompressed)\n"
	"  -b, --buffer-size KB      per-CPU ring buffer in KiB (default: 1/16 of free\n"
	"                            memory, 4-64 MiB per CPU)\n"
	"  -C, --clock CLOCK         trace clock (see /sys/kernel/tracing/trace_clock)\n"
	"      --top-instance        configure the top-level tracing instance even where\n"
	"                            a private instance would do\n"
	"  -q, --quiet               no progress line and no summary\n"
	"  -h, --help                show this help\n"
	"\n"
	"Everything kmag changes in tracefs is put back as it was on exit, on errors,\n"
	"Ctrl-C and SIGTERM; after a SIGKILL the next kmag record repairs it.\n";

enum {
	OPT_MAX_DEPTH = OPT_INPUT_LAST + 1,
	OPT_FILTER,
	OPT_COMPRESSION,
	OPT_FILE_VERSION,
	OPT_TOP,
	OPT_FUNC_LIST,
	OPT_KPROBE,
	OPT_KRETPROBE,
	OPT_UPROBE,
	OPT_URETPROBE,
	OPT_THRESHOLD,
	OPT_CPUMASK,
	OPT_ARGS,
	OPT_NO_RETADDR,
};

static void *grow(void *arr, size_t n, size_t elem);

/* A growable list of option values (borrowed from argv). */
struct strvec {
	const char **v;
	size_t n;
};

static void strvec_push(struct strvec *sv, const char *s)
{
	sv->v = grow(sv->v, sv->n + 1, sizeof(*sv->v));
	sv->v[sv->n++] = s;
}

/* Grows an option array by one element, or exits: the CLI may die on ENOMEM. */
static void *grow(void *arr, size_t n, size_t elem)
{
	void *p = realloc(arr, n * elem);

	if (!p) {
		cli_error("out of memory");
		exit(EXIT_ERR);
	}
	return p;
}

/* Option errors return from parse_args(); cmd_record() frees what was parsed. */
#define BAIL(code) return (code)
#define USAGE(...) BAIL(cli_usage_error("record", __VA_ARGS__))

/*
 * --func-list FILE: function names, one per line (blanks and # comments
 * ignored), appended to @names; the text stays in *@buf (one file only).
 */
static int read_names(const char *path, struct strvec *names, char **buf)
{
	FILE *f;
	size_t cap = 0;
	ssize_t n;
	char *line, *p;

	if (*buf)
		return cli_usage_error("record", "give --func-list once");
	f = fopen(path, "re");
	if (!f)
		return cli_error("cannot read --func-list %s: %s", path, strerror(errno));
	n = getdelim(buf, &cap, '\0', f);
	fclose(f);
	if (n < 0) {
		free(*buf);
		*buf = strdup("");
		if (!*buf)
			return cli_error("out of memory");
	}
	for (line = strtok_r(*buf, "\n", &p); line; line = strtok_r(NULL, "\n", &p)) {
		line += strspn(line, " \t");
		line[strcspn(line, " \t\r#")] = '\0';
		if (*line)
			strvec_push(names, line);
	}
	if (!names->n)
		return cli_error("--func-list %s names no function", path);
	return 0;
}

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa = { .sa_handler = on_signal };
	size_t i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* Notes (repairs of killed runs, fallbacks) are shown even with -q. */
static void note_to_stderr(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "kmag: %s\n", msg);
}

static void show_progress(struct cli_live *lv, const struct kmag_rec_progress *p, double limit)
{
	char total[32] = "", bytes[32], rate[48] = "", lost[32];

	if (limit > 0)
		snprintf(total, sizeof(total), " / %.0f s", limit);
	cli_human_bytes(bytes, sizeof(bytes), (double)p->bytes);
	if (cli_live_rate(lv, p->elapsed, p->events)) {
		char n[32];

		cli_human_count(n, sizeof(n), lv->rate);
		snprintf(rate, sizeof(rate), ", %s events/s", n);
	}
	cli_human_count(lost, sizeof(lost), (double)p->lost);
	cli_live_show(lv, "recording %.1f s%s, %s captured%s, lost %s", p->elapsed, total, bytes,
		      rate, lost);
}

static void print_summary(const struct kmag_record_opts *o, const struct kmag_rec_result *res)
{
	char size[32], ev[32];
	int i;

	cli_human_bytes(size, sizeof(size), (double)res->file_size);
	cli_group_digits(ev, sizeof(ev), res->events);
	fprintf(stderr, "kmag: wrote %s: %s events, %s (trace.dat v%d%s), %.1f s\n", o->output, ev,
		size, res->file_version, res->compressed ? ", zstd" : "",
		res->duration);
	for (i = 0; i < res->nr_cpus; i++) {
		const struct kmag_rec_cpu *c = &res->cpus[i];
		uint64_t lost = c->overrun + c->commit_overrun + c->dropped;

		if (!c->recorded)
			continue;
		cli_group_digits(ev, sizeof(ev), c->events);
		fprintf(stderr, "kmag:   CPU%d: %s events", c->cpu, ev);
		if (lost) {
			char l[32];

			cli_group_digits(l, sizeof(l), lost);
			fprintf(stderr, ", %s events lost (%.1f%%)", l,
				100.0 * (double)lost / (double)(lost + c->events));
		}
		if (c->missing_pages)
			fprintf(stderr, ", %" PRIu64 " gap%s marked in the data", c->missing_pages,
				c->missing_pages == 1 ? "" : "s");
		fputc('\n', stderr);
	}
	for (i = 0; i < res->nr_cpus; i++)
		if (res->cpus[i].left)
			fprintf(stderr, "kmag: CPU%d: %" PRIu64 " events stayed in the kernel buffer (not drained)\n",
				i, res->cpus[i].left);
	if (res->lost) {
		cli_group_digits(ev, sizeof(ev), res->lost);
		fprintf(stderr, "kmag: %s events were lost: use a bigger -b, or filter more (-l, -g, -P, --cpu)\n",
			ev);
	}
}

/* A parsed command line; the arrays are borrowed by .o (freed by record_args_release()). */
struct record_args {
	struct kmag_record_opts o;
	struct strvec funcs, notrace, graph, names;
	char *name_buf;			/* --func-list's text */
	struct kmag_rec_event *events;
	size_t nr_events;
	struct kmag_rec_probe *probes;
	size_t nr_probes;
	pid_t *pids;
	size_t nr_pids;
	double seconds;
	bool time_given, quiet;
	struct cli_symmap sym;
};

static void record_args_release(struct record_args *a)
{
	cli_symmap_release(&a->sym);
	free(a->funcs.v);
	free(a->names.v);
	free(a->name_buf);
	free(a->notrace.v);
	free(a->graph.v);
	free(a->events);
	free(a->probes);
	free(a->pids);
}

/*
 * Parses the options into @a and checks them (kmag_record_opts_check()); one
 * case per option, so long rather than deep.
 * Returns 0, -1 after --help, or the exit code of an error (printed).
 */
/* kmag_pid_list_parse() callback: one more -P/--pid task. */
static int add_pid(void *ctx, int32_t pid)
{
	struct record_args *a = ctx;

	a->pids = grow(a->pids, a->nr_pids + 1, sizeof(*a->pids));
	a->pids[a->nr_pids++] = (pid_t)pid;
	return 0;
}

static int parse_args(int argc, char **argv, struct record_args *a)
{
	static const struct option longopts[] = {
		{ "tracer", required_argument, NULL, 'p' },
		{ "func", required_argument, NULL, 'l' },
		{ "func-list", required_argument, NULL, OPT_FUNC_LIST },
		{ "notrace", required_argument, NULL, 'n' },
		{ "graph", required_argument, NULL, 'g' },
		{ "max-graph-depth", required_argument, NULL, OPT_MAX_DEPTH },
		{ "event", required_argument, NULL, 'e' },
		{ "filter", required_argument, NULL, OPT_FILTER },
		{ "kprobe", required_argument, NULL, OPT_KPROBE },
		{ "kretprobe", required_argument, NULL, OPT_KRETPROBE },
		{ "uprobe", required_argument, NULL, OPT_UPROBE },
		{ "uretprobe", required_argument, NULL, OPT_URETPROBE },
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		{ "args", no_argument, NULL, OPT_ARGS },
		{ "no-retaddr", no_argument, NULL, OPT_NO_RETADDR },
		{ "pid", required_argument, NULL, 'P' },
		{ "children", no_argument, NULL, 'c' },
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "cpumask", required_argument, NULL, OPT_CPUMASK },
		{ "record-time", required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' },
		{ "compression", required_argument, NULL, OPT_COMPRESSION },
		{ "file-version", required_argument, NULL, OPT_FILE_VERSION },
		{ "buffer-size", required_argument, NULL, 'b' },
		{ "clock", required_argument, NULL, 'C' },
		{ "top-instance", no_argument, NULL, OPT_TOP },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		CLI_SYMMAP_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct kmag_err err = { 0 };
	unsigned long v;
	int opt, ret;
	char *end;

	while ((opt = cli_getopt(argc, argv, "+:p:l:n:g:e:P:cM:t:o:b:C:qh", longopts)) != -1) {
		switch (opt) {
		case 'p':
			if (!strcmp(optarg, "function_graph"))
				a->o.tracer = KMAG_REC_TRACER_FUNCTION_GRAPH;
			else if (!strcmp(optarg, "function"))
				a->o.tracer = KMAG_REC_TRACER_FUNCTION;
			else if (!strcmp(optarg, "nop") || !strcmp(optarg, "none"))
				a->o.tracer = KMAG_REC_TRACER_NONE;
			else
				USAGE("unknown tracer \"%s\" (choose function_graph, function or nop)",
				      optarg);
			break;
		case 'l':
			strvec_push(&a->funcs, optarg);
			break;
		case OPT_FUNC_LIST:
			ret = read_names(optarg, &a->names, &a->name_buf);
			if (ret)
				return ret;
			break;
		case 'n':
			strvec_push(&a->notrace, optarg);
			break;
		case 'g':
			strvec_push(&a->graph, optarg);
			break;
		case OPT_MAX_DEPTH:
			if (!cli_parse_ulong("record", "--max-graph-depth", optarg, &v))
				BAIL(EXIT_USAGE);
			if (v == 0 || v > 1000)
				USAGE("--max-graph-depth must be 1..1000");
			a->o.max_graph_depth = (unsigned)v;
			break;
		case 'e':
			a->events = grow(a->events, a->nr_events + 1, sizeof(*a->events));
			a->events[a->nr_events++] = (struct kmag_rec_event){ optarg, NULL };
			break;
		case OPT_FILTER:
			if (!a->nr_events)
				USAGE("--filter applies to the -e before it; give -e SYSTEM:EVENT first");
			if (a->events[a->nr_events - 1].filter)
				USAGE("two --filter for -e %s; combine them with && or ||",
				      a->events[a->nr_events - 1].spec);
			a->events[a->nr_events - 1].filter = optarg;
			break;
		case OPT_KPROBE:
		case OPT_KRETPROBE:
		case OPT_UPROBE:
		case OPT_URETPROBE:
			a->probes = grow(a->probes, a->nr_probes + 1, sizeof(*a->probes));
			a->probes[a->nr_probes++] = (struct kmag_rec_probe){
				opt == OPT_KPROBE    ? KMAG_REC_KPROBE :
				opt == OPT_KRETPROBE ? KMAG_REC_KRETPROBE :
				opt == OPT_UPROBE    ? KMAG_REC_UPROBE :
						       KMAG_REC_URETPROBE,
				optarg
			};
			break;
		case OPT_THRESHOLD:
			if (!cli_parse_ulong("record", "--threshold", optarg, &v))
				BAIL(EXIT_USAGE);
			if (v == 0 || v > 100000000)
				USAGE("--threshold is in microseconds, 1..100000000");
			a->o.threshold_us = v;
			break;
		case 'P': {
			/* a list, as --pid in every command, or repeated, as trace-cmd's -P */
			struct kmag_err e = { 0 };

			if (kmag_pid_list_parse(optarg, add_pid, a, &e))
				USAGE("%s", e.msg);
			break;
		}
		case 'c':
			a->o.follow_forks = true;
			break;
		case OPT_CPU:
			a->o.cpus = optarg;
			break;
		case 'M':
			/* trace-cmd's -M is hex; a bare "10" reads as CPU 10 to most people */
			if (optarg[strspn(optarg, "0123456789,")] == '\0')
				USAGE("-M %s is ambiguous: write -M 0x%s for the hex mask trace-cmd reads, or --cpu %s for CPUs by number",
				      optarg, optarg, optarg);
			/* fall through */
		case OPT_CPUMASK:
			a->o.cpumask = optarg;
			break;
		case 't':
			errno = 0;
			a->seconds = strtod(optarg, &end);
			if (errno || *end || end == optarg || a->seconds < 0 || a->seconds > 1e7)
				USAGE("--record-time expects seconds (0 = until Ctrl-C), got \"%s\"", optarg);
			a->time_given = true;
			break;
		case 'o':
			a->o.output = optarg;
			break;
		case OPT_COMPRESSION:
			if (strcmp(optarg, "zstd") && strcmp(optarg, "none"))
				USAGE("unknown compression \"%s\" (choose zstd or none)", optarg);
			a->o.compression = strcmp(optarg, "zstd") ? KMAG_REC_COMPRESS_NONE :
								 KMAG_REC_COMPRESS_ZSTD;
			break;
		case OPT_FILE_VERSION:
			if (strcmp(optarg, "6") && strcmp(optarg, "7"))
				USAGE("--file-version must be 6 or 7");
			a->o.file_version = atoi(optarg);
			break;
		case 'b':
			if (!cli_parse_ulong("record", "--buffer-size", optarg, &v))
				BAIL(EXIT_USAGE);
			if (v < 4)
				USAGE("--buffer-size is in KiB per CPU and must be at least 4");
			a->o.buffer_kb = v;
			break;
		case 'C':
			a->o.clock = optarg;
			break;
		case OPT_TOP:
			a->o.top_instance = true;
			break;
		case OPT_ARGS:
			a->o.args = true;
			break;
		case OPT_NO_RETADDR:
			a->o.no_retaddr = true;
			break;
		case 'q':
			a->quiet = true;
			break;
		case 'h':
			fputs(record_usage, stdout);
			return -1;
		default:
			if ((ret = cli_shared_option("record", opt, argv,
						     &(struct cli_shared){ .sm = &a->sym })))
				BAIL(ret);
		}
	}
	if (optind < argc)
		a->o.command = argv + optind;	/* after "--" (or the first non-option) */
	if (a->o.command && !a->time_given)
		a->seconds = 0;
	a->o.funcs = a->funcs.v;
	a->o.nr_funcs = a->funcs.n;
	a->o.func_names = a->names.v;
	a->o.nr_func_names = a->names.n;
	a->o.notrace = a->notrace.v;
	a->o.nr_notrace = a->notrace.n;
	a->o.graph_funcs = a->graph.v;
	a->o.nr_graph_funcs = a->graph.n;
	a->o.events = a->events;
	a->o.nr_events = a->nr_events;
	a->o.probes = a->probes;
	a->o.nr_probes = a->nr_probes;
	a->o.pids = a->pids;
	a->o.nr_pids = a->nr_pids;
	a->o.note = note_to_stderr;
	if (a->sym.filepath && a->o.tracer == KMAG_REC_TRACER_NONE)
		USAGE("-l, --func-list, --filter-filepath and -n need a function tracer, not -p nop");
	if (kmag_record_opts_check(&a->o, &err))
		USAGE("%s", err.msg);
	if (a->sym.filepath) {
		struct utsname u;

		/* the map of the running kernel: its functions are the ones to trace */
		if ((ret = cli_symmap_load(&a->sym, uname(&u) ? NULL : u.release, "this machine runs")))
			return ret;
		a->o.path_map = a->sym.map;
		a->o.path_filter = a->sym.filter;
	}
	return 0;
}

/*
 * A failed kmag_recorder_new() or _start(): its one line; interrupted, the
 * status a shell expects of a process a signal stopped (128 + the signal:
 * 130 for Ctrl-C, 143 for SIGTERM).
 */
static int setup_failed(const struct kmag_err *err, const char *fallback)
{
	int ret = cli_lib_error(err, fallback);

	return err->code == EINTR && stop_signal ? 128 + stop_signal : ret;
}

/* The start line: what is recorded, where, and how it stops. */
static void announce(const struct record_args *a, struct kmag_recorder *r)
{
	const struct kmag_rec_result *res = kmag_recorder_result(r);
	char what[320] = "";
	int n = 0;

	if (a->sym.filepath)
		n = snprintf(what, sizeof(what), " of %zu functions in %.200s", res->path_functions,
			     a->sym.filepath);
	if (a->o.command)
		snprintf(what + n, sizeof(what) - (size_t)n, " %s %s (pid %d)", n ? "in" : "of",
			 a->o.command[0], (int)res->command_pid);
	fprintf(stderr, "kmag: recording %s%s%s%s%s%s on CPU%s %s (%lu KiB buffer per CPU, %s%s%s%s); %s\n",
		strcmp(res->tracer, "nop") ? res->tracer :
		a->nr_events               ? "tracepoint events" : "probe events",
		res->probe_group && strcmp(res->tracer, "nop") ? " and probes" : "",
		res->tracer_note ? " (" : "", res->tracer_note ? res->tracer_note : "",
		res->tracer_note ? ")" : "", what,
		strpbrk(res->cpulist, ",-") ? "s" : "", res->cpulist, res->buffer_kb,
		strcmp(res->instance, "top-level") ? "tracefs instance " : "", res->instance,
		*res->recorded ? "; with " : "", res->recorded,
		a->seconds > 0 ? "Ctrl-C stops early" : "Ctrl-C stops");
}

/* Waits for the end (time, a signal, the command's exit), with a live line on a terminal. */
static void wait_for_end(const struct record_args *a, struct kmag_recorder *r, bool tty)
{
	struct kmag_rec_progress p;
	struct cli_live lv = { 0 };

	for (;;) {
		struct timespec nap = { 0, 100 * 1000 * 1000 };

		kmag_recorder_progress(r, &p);
		if (stop_signal || p.failed || p.command_exited ||
		    (a->seconds > 0 && p.elapsed >= a->seconds))
			break;
		if (tty)
			show_progress(&lv, &p, a->seconds);
		nanosleep(&nap, NULL);
	}
	cli_live_clear(&lv);
}

/* After the file is written: a full disk, the summary, the command's status. Returns the exit code. */
static int report_result(const struct record_args *a, struct kmag_recorder *r)
{
	const struct kmag_rec_result *res = kmag_recorder_result(r);
	int ret = EXIT_OK;

	if (res->disk_full) {
		char *copy = strdup(a->o.output);

		ret = cli_error("no space left on device in %s after %.1f s: recording stopped; %s holds what was captured (%" PRIu64 " events), %" PRIu64 " more were not written; free space there or record elsewhere (-o)",
				copy ? dirname(copy) : ".", res->duration, a->o.output, res->events,
				res->unwritten + res->lost);
		free(copy);
	} else if (!a->quiet) {
		print_summary(&a->o, res);
	}
	if (!a->quiet && a->o.command && res->command_status != -1) {
		int st = res->command_status;

		if (WIFEXITED(st) && WEXITSTATUS(st))
			fprintf(stderr, "kmag: %s exited with status %d\n", a->o.command[0],
				WEXITSTATUS(st));
		else if (WIFSIGNALED(st))
			fprintf(stderr, "kmag: %s was killed by signal %d\n", a->o.command[0],
				WTERMSIG(st));
	}
	return ret;
}

int cmd_record(struct kmag_cli *cli, int argc, char **argv)
{
	struct record_args a = { .o = { .output = "trace.dat" }, .seconds = 10 };
	struct kmag_err err = { 0 };
	struct kmag_recorder *r = NULL;
	int ret = parse_args(argc, argv, &a);

	if (ret) {
		ret = ret < 0 ? EXIT_OK : ret;
		goto out;
	}
	catch_signals();
	/* a signal during the checks and the set-up stops them (tracefs restored) */
	a.o.interrupt = &stop_signal;
	r = kmag_recorder_new(&a.o, &err);
	if (!r) {
		ret = setup_failed(&err, "cannot record");
		goto out;
	}
	if (kmag_recorder_start(r, &err)) {
		ret = setup_failed(&err, "cannot start recording");
		goto out;
	}
	if (!a.quiet)
		announce(&a, r);
	wait_for_end(&a, r, cli->stderr_tty && !a.quiet);
	if (kmag_recorder_stop(r, &err))
		ret = cli_lib_error(&err, "cannot stop recording");
	else if (kmag_recorder_write(r, &err))
		ret = cli_lib_error(&err, "cannot write the trace file");
	else
		ret = report_result(&a, r);
out:
	kmag_recorder_free(r);
	record_args_release(&a);
	return ret;
}
