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
#include "kmag/durations.h"
#include "kmag/filter.h"
#include "kmag/record.h"
#include "kmag/render/report.h"

static const struct cli_command record_cmd = {
	.name = "record",
	.usage = "Usage: kmag record [options] [-- COMMAND [ARGS...]]\n"
		 "\n"
		 "Record the kernel's function calls with ftrace into a trace.dat file, for\n"
		 "`kmag report` (and `trace-cmd report`). Needs root.\n",
	.footer = "\n"
		  "Everything kmag changes in tracefs is put back as it was on exit, on errors,\n"
		  "Ctrl-C and SIGTERM; after a SIGKILL the next kmag record repairs it.\n",
	.operands_end = true,
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

/* The symbol map's warnings, as every other warning. */
static void note_to_stderr_warning(void *ctx, const char *msg)
{
	(void)ctx;
	cli_warn("%s", msg);
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
	kmag_fmt_count(ev, sizeof(ev), res->events);
	fprintf(stderr, "kmag: wrote %s: %s events, %s (trace.dat v%d%s), %.1f s\n", o->output, ev,
		size, res->file_version, res->compressed ? ", zstd" : "",
		res->duration);
	for (i = 0; i < res->nr_cpus; i++) {
		const struct kmag_rec_cpu *c = &res->cpus[i];
		uint64_t lost = c->overrun + c->commit_overrun + c->dropped;

		if (!c->recorded)
			continue;
		kmag_fmt_count(ev, sizeof(ev), c->events);
		fprintf(stderr, "kmag:   CPU%d: %s events", c->cpu, ev);
		if (lost) {
			char l[32];

			kmag_fmt_count(l, sizeof(l), lost);
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
		kmag_fmt_count(ev, sizeof(ev), res->lost);
		fprintf(stderr, "kmag: %s events were lost: use a bigger -b, or filter more (-l, -g, -P, --cpu)\n",
			ev);
	}
	if (res->cost.ns)
		cli_print_tracer_cost(stderr, &res->cost, "kmag: the tracer's cost, taken off the times: ");
	else if (res->cost_note)
		fprintf(stderr, "kmag: %s\n", res->cost_note);
}

/* A parsed command line; the arrays are borrowed by .o (freed by record_args_release()). */
struct record_args {
	struct kmag_record_opts o;
	struct strvec funcs, notrace, graph, names, triggers;
	char *name_buf;			/* --func-list's text */
	struct { struct kmag_rec_event *v; size_t n; } events;
	struct { struct kmag_rec_probe *v; size_t n; } probes;
	struct { pid_t *v; size_t n; } pids;
	double seconds;
	bool time_given, quiet;
	struct kmag_symmap_choice sym;	/* --filter-filepath, --symbol-file-path */
	/* parsed into other types than kmag_record_opts has */
	unsigned long max_depth;
	int compression;	/* zstd, none */
	bool compression_given;
	unsigned long snapshots;
	bool last_boot;			/* --last-boot */
	bool calibrate_only;		/* --calibrate-only */
	const char *instance;		/* -B: its instance */
};

static void record_args_release(struct record_args *a)
{
	kmag_symmap_choice_release(&a->sym);
	free(a->funcs.v);
	free(a->names.v);
	free(a->name_buf);
	free(a->notrace.v);
	free(a->graph.v);
	free(a->triggers.v);
	free(a->events.v);
	free(a->probes.v);
	free(a->pids.v);
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

	a->pids.v = grow(a->pids.v, a->pids.n + 1, sizeof(*a->pids.v));
	a->pids.v[a->pids.n++] = (pid_t)pid;
	return 0;
}

static int parse_tracer(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	enum kmag_rec_tracer *t = value;

	if (!strcmp(arg, "function_graph"))
		*t = KMAG_REC_TRACER_FUNCTION_GRAPH;
	else if (!strcmp(arg, "function"))
		*t = KMAG_REC_TRACER_FUNCTION;
	else if (!strcmp(arg, "nop") || !strcmp(arg, "none"))
		*t = KMAG_REC_TRACER_NONE;
	else
		return cli_usage_error(cmd, "unknown tracer \"%s\" (choose function_graph, function or nop)",
				       arg);
	return 0;
}

/* -l, -n, -g: one more glob (value: struct strvec) */
static int push_glob(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	(void)cmd;
	strvec_push(value, arg);
	return 0;
}

static int parse_func_list(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	struct record_args *a = value;

	(void)cmd;
	return read_names(arg, &a->names, &a->name_buf);
}

static int add_event(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	struct record_args *a = value;

	(void)cmd;
	a->events.v = grow(a->events.v, a->events.n + 1, sizeof(*a->events.v));
	a->events.v[a->events.n++] = (struct kmag_rec_event){ arg, NULL };
	return 0;
}

static int add_event_filter(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	struct record_args *a = value;

	if (!a->events.n)
		return cli_usage_error(cmd, "--filter applies to the -e before it; give -e SYSTEM:EVENT first");
	if (a->events.v[a->events.n - 1].filter)
		return cli_usage_error(cmd, "two --filter for -e %s; combine them with && or ||",
				       a->events.v[a->events.n - 1].spec);
	a->events.v[a->events.n - 1].filter = arg;
	return 0;
}

/* --kprobe, --kretprobe, --uprobe, --uretprobe */
static int add_probe(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	struct record_args *a = value;
	const char *n = o->long_name;

	(void)cmd;
	a->probes.v = grow(a->probes.v, a->probes.n + 1, sizeof(*a->probes.v));
	a->probes.v[a->probes.n++] = (struct kmag_rec_probe){
		!strcmp(n, "kprobe")    ? KMAG_REC_KPROBE :
		!strcmp(n, "kretprobe") ? KMAG_REC_KRETPROBE :
		!strcmp(n, "uprobe")    ? KMAG_REC_UPROBE :
					  KMAG_REC_URETPROBE,
		arg
	};
	return 0;
}

static int parse_pids(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	struct kmag_err e = { 0 };

	/* a list, as --pid in every command, or repeated, as trace-cmd's -P */
	if (kmag_pid_list_parse(arg, add_pid, value, &e))
		return cli_usage_error(cmd, "%s", e.msg);
	return 0;
}

static int parse_mask_m(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	/* trace-cmd's -M is hex; a bare "10" reads as CPU 10 to most people */
	if (arg[strspn(arg, "0123456789,")] == '\0')
		return cli_usage_error(cmd, "-M %s is ambiguous: write -M 0x%s for the hex mask trace-cmd reads, or --cpu %s for CPUs by number",
				       arg, arg, arg);
	*(const char **)value = arg;
	return 0;
}

static int parse_seconds(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	double *seconds = value;
	char *end;

	errno = 0;
	*seconds = strtod(arg, &end);
	if (errno || *end || end == arg || *seconds < 0 || *seconds > 1e7)
		return cli_usage_error(cmd, "--record-time expects seconds (0 = until Ctrl-C), got \"%s\"",
				       arg);
	return 0;
}

static int parse_file_version(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	if (strcmp(arg, "6") && strcmp(arg, "7"))
		return cli_usage_error(cmd, "--file-version must be 6 or 7");
	*(int *)value = atoi(arg);
	return 0;
}

static int parse_flight(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	(void)o;
	return cli_parse_size(cmd, "--flight", arg, value) ? 0 : EXIT_USAGE;
}

static int parse_after(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	(void)o;
	if (kmag_duration_parse(arg, value) || !*(uint64_t *)value)
		return cli_usage_error(cmd, "--after expects a duration above 0 like 500ms, 1s or 2.5s, got \"%s\"",
				       arg);
	return 0;
}

#define CLI_ARGS struct record_args
static const struct cli_option record_options[] = {
	CLI_SECTION("\nWhat to record:\n"),
	CLI_OPTION('p', "tracer", "TRACER", parse_tracer, o.tracer, enum kmag_rec_tracer *,
		 "function_graph (default where the kernel has it),\n"
		 "function, or nop (only the -e events)"),
	CLI_OPTION('l', "func", "GLOB", push_glob, funcs, struct strvec *,
		 "trace only matching functions (repeatable); globs\n"
		 "like 'vfs_*', '*swap*', ':mod:ext4', 'ext4_*:mod:ext4'"),
	CLI_CALLBACK(0, "func-list", "FILE", parse_func_list,
		     "trace only the functions named in FILE (one per\n"
		     "line, # comments); with -l: those too"),
	CLI_OPTION(0, "filter-filepath", "P[,P...]", cli_opt_filepath, sym.filepath, const char **,
		 "trace only functions defined in matching source\n"
		 "files: a substring (net/), a glob (fs/*/inode.c),\n"
		 "'/' anchors at the tree root; needs a symbol map\n"
		 "(kmag generate-symbol-map)"),
	CLI_STRING(0, "symbol-file-path", "MAP", sym.path,
		   "the symbol map (default: the running kernel's in\n"
		   "~/.cache/kmag, or $KMAG_SYMBOL_MAP)"),
	CLI_OPTION('n', "notrace", "GLOB", push_glob, notrace, struct strvec *,
		 "never trace matching functions (repeatable)"),
	CLI_OPTION('g', "graph", "GLOB", push_glob, graph, struct strvec *,
		 "function_graph: record only what these functions\n"
		 "call (repeatable)"),
	CLI_ULONG_RANGE(0, "max-graph-depth", "N", max_depth, 1, 1000,
			"--max-graph-depth must be 1..1000",
			"function_graph: at most N levels of calls"),
	CLI_CALLBACK('e', "event", "SYSTEM:EVENT", add_event,
		     "also record this tracepoint (repeatable); SYSTEM\n"
		     "alone records all of its events; globs work"),
	CLI_CALLBACK(0, "filter", "EXPR", add_event_filter,
		     "kernel filter for the -e before it, e.g.\n"
		     "--filter 'prev_pid != 0'"),
	CLI_CALLBACK(0, "kprobe", "'FUNC[+OFFS] [NAME=FETCHARG...]'", add_probe,
		     "a kprobe with the arguments to fetch, in\n"
		     "kprobe_events syntax (repeatable), e.g.\n"
		     "--kprobe 'vfs_write count=%dx:u64' (x86-64 argument\n"
		     "registers: di si dx cx r8 r9); see report --probes"),
	CLI_CALLBACK(0, "kretprobe", "'FUNC [NAME=FETCHARG...]'", add_probe,
		     "a probe on the return, e.g. 'vfs_read ret=$retval:s64'"),
	CLI_CALLBACK(0, "uprobe", "'PATH:FUNC[+OFFS] [NAME=FETCHARG...]'", add_probe,
		     "a user-space probe (PATH:0xOFFSET works too)"),
	CLI_CALLBACK(0, "uretprobe", "'PATH:FUNC [NAME=FETCHARG...]'", add_probe,
		     "a user-space return probe"),
	CLI_ULONG_RANGE(0, "threshold", "USEC", o.threshold_us, 1, 100000000,
			"--threshold is in microseconds, 1..100000000",
			"function_graph: record only calls that take at\n"
			"least USEC microseconds (tracing_thresh)"),
	CLI_FLAG(0, "args", o.args,
		 "also record each call's arguments (Linux 6.15+\n"
		 "with CONFIG_FUNCTION_TRACE_ARGS; costs more)"),
	CLI_FLAG(0, "no-retaddr", o.no_retaddr,
		 "function_graph: no call sites (recorded by\n"
		 "default where the kernel can: Linux 6.13+)"),
	CLI_SECTION("\nWhich tasks and CPUs:\n"),
	CLI_CALLBACK('P', "pid", "PID[,PID...]", parse_pids, "only these tasks (repeatable)"),
	CLI_FLAG('c', "children", o.follow_forks, "with -P: also the tasks they fork"),
	CLI_OPERAND("-- COMMAND [ARGS]", "run COMMAND and trace only it and its children:\n"
					 "tracing starts right before it runs and stops when\n"
					 "it exits"),
	CLI_STRING(0, "cpu", "LIST", o.cpus, "only these CPUs (e.g. 0-3,8), as in every command"),
	CLI_STRING(0, "cpumask", "MASK", o.cpumask,
		   "only these CPUs, as a hex mask the way the seed and\n"
		   "tracing_cpumask take it (1 = CPU 0, 6 = CPUs 1-2)"),
	CLI_OPTION('M', NULL, "0xMASK", parse_mask_m, o.cpumask, const char **,
		 "trace-cmd's spelling of --cpumask; write the 0x\n"
		 "(-M 10 could mean CPU 10 or CPU 4; -M ff is clear)"),
	CLI_SECTION("\nHow long:\n"),
	CLI_OPTION_GIVEN('t', "record-time", "SEC", parse_seconds, seconds, double *, time_given,
			   "stop after SEC seconds (default 10; 0 = until Ctrl-C;\n"
			   "with a COMMAND or --flight: no limit unless given)"),
	CLI_SECTION("\nFlight recorder (record for hours, keep what led up to a failure):\n"),
	CLI_OPTION(0, "flight", "SIZE", parse_flight, o.flight_bytes, uint64_t *,
		   "keep only the newest SIZE (512K, 2M, 1G) of compressed\n"
		   "trace on disk, a ring per CPU, oldest dropped first;\n"
		   "on a trigger (or at the end without one) write -o"),
	CLI_OPTION(0, "trigger", "SPEC", push_glob, triggers, struct strvec *,
		   "write a snapshot when SPEC happens (repeatable):\n"
		   "  error[=ERRNO][@FUNC]  FUNC (or any call) returned\n"
		   "    -ERRNO (or any error); Linux 6.5+\n"
		   "  slow=FUNC>DURATION    a call of FUNC took longer\n"
		   "  event=SYSTEM:EVENT[/FILTER]  a tracepoint fired\n"
		   "    (recorded alongside; FILTER as the kernel's)"),
	CLI_OPTION(0, "after", "DURATION", parse_after, o.after_ns, uint64_t *,
		   "record this long after a trigger before writing\n"
		   "(default 1s; longer while its callers run)"),
	CLI_ULONG_RANGE(0, "snapshots", "N", snapshots, 1, 1000, "--snapshots must be 1..1000",
			"go on after a snapshot: write FILE, FILE.1, ...\n"
			"FILE.N-1 (default 1)"),
	CLI_FLAG(0, "last-boot", last_boot,
		 "record nothing: write the previous boot's trace,\n"
		 "kept by a persistent ring buffer (Linux 6.12+,\n"
		 "reserve_mem=...:trace trace_instance=NAME@trace),\n"
		 "as -o FILE, names moved to that boot's addresses"),
	CLI_STRING('B', "instance", "NAME", instance,
		   "with --last-boot: the tracefs instance to read\n"
		   "(default: the one holding a previous boot's trace)"),
	CLI_SECTION("\nOutput:\n"),
	CLI_STRING('o', "output", "FILE", o.output, "default ./trace.dat"),
	CLI_CHOICE_GIVEN(0, "compression", "zstd|none", compression, "zstd,none",
			 "compression", compression_given,
			 "zstd: trace.dat v7 (default); none: v6"),
	CLI_OPTION(0, "file-version", "6|7", parse_file_version, o.file_version, int *,
		 "the trace.dat version (7 with none: v7 uncompressed)"),
	CLI_ULONG_RANGE('b', "buffer-size", "KB", o.buffer_kb, 4, 0,
			"--buffer-size is in KiB per CPU and must be at least 4",
			"per-CPU ring buffer in KiB (default: 1/16 of free\n"
			"memory, 4-64 MiB per CPU)"),
	CLI_STRING('C', "clock", "CLOCK", o.clock,
		   "trace clock (see /sys/kernel/tracing/trace_clock)"),
	CLI_FLAG(0, "top-instance", o.top_instance,
		 "configure the top-level tracing instance even where\n"
		 "a private instance would do"),
	CLI_FLAG('q', "quiet", quiet, "no progress line and no summary"),
	CLI_SECTION("\nThe tracer's cost (taken off the times by every command):\n"),
	CLI_FLAG(0, "no-calibrate", o.no_calibrate,
		 "function_graph: do not measure what one traced call\n"
		 "costs after the capture (about a second)"),
	CLI_FLAG(0, "calibrate-only", calibrate_only,
		 "record nothing: print what one traced call costs,\n"
		 "for each set of tracer options the kernel has"),
	CLI_HELP_OPTION,
	CLI_END,
};
#undef CLI_ARGS

static int parse_args(int argc, char **argv, struct record_args *a)
{
	struct kmag_err err = { 0 };
	int ret = cli_parse(&record_cmd, argc, argv, record_options, a);

	if (ret)
		return ret;
	if (a->max_depth)
		a->o.max_graph_depth = (unsigned)a->max_depth;
	if (a->compression_given)
		a->o.compression = a->compression ? KMAG_REC_COMPRESS_NONE : KMAG_REC_COMPRESS_ZSTD;
	if (optind < argc)
		a->o.command = argv + optind;	/* after "--" (or the first non-option) */
	if (a->last_boot) {
		const struct kmag_record_opts *o = &a->o;

		/* only -o, -q and -B go with it */
		if (o->tracer || o->cpus || o->cpumask || o->buffer_kb || o->clock ||
		    o->file_version || o->top_instance || o->threshold_us || o->args ||
		    o->no_retaddr || o->follow_forks || o->flight_bytes || o->after_ns ||
		    a->time_given || a->funcs.n || a->names.n || a->notrace.n || a->graph.n ||
		    a->triggers.n || a->events.n || a->probes.n || a->pids.n || a->sym.filepath ||
		    a->sym.path || a->max_depth || a->compression_given || a->snapshots ||
		    optind < argc)
			return cli_usage_error("record", "--last-boot writes what the previous boot recorded: it takes only -o FILE, -B NAME and -q");
		return 0;
	}
	if (a->instance)
		return cli_usage_error("record", "-B NAME names the instance --last-boot reads: add --last-boot");
	if (a->calibrate_only) {
		const struct kmag_record_opts *o = &a->o;

		if (o->tracer || o->threshold_us || o->args || o->no_retaddr || o->follow_forks ||
		    o->flight_bytes || o->no_calibrate || a->names.n || a->graph.n ||
		    a->triggers.n || a->events.n || a->probes.n || a->pids.n || a->sym.filepath ||
		    a->max_depth || optind < argc)
			return cli_usage_error("record", "--calibrate-only measures the tracer's cost and records nothing: it takes only -l, -n, --cpu, -b, -C and --top-instance");
	}
	if (a->snapshots)
		a->o.snapshots = (unsigned)a->snapshots;
	if ((a->o.command || a->o.flight_bytes) && !a->time_given)
		a->seconds = 0;
	/* the lists the options collected, borrowed by the recorder's options */
#define LIST(field, vec) (a->o.field = (vec).v, a->o.nr_##field = (vec).n)
	LIST(funcs, a->funcs);
	LIST(func_names, a->names);
	LIST(notrace, a->notrace);
	LIST(graph_funcs, a->graph);
	LIST(events, a->events);
	LIST(probes, a->probes);
	LIST(pids, a->pids);
	LIST(triggers, a->triggers);
#undef LIST
	a->o.note = note_to_stderr;
	if (a->sym.filepath && a->o.tracer == KMAG_REC_TRACER_NONE)
		return cli_usage_error("record", "-l, --func-list, --filter-filepath and -n need a function tracer, not -p nop");
	if (kmag_record_opts_check(&a->o, &err))
		return cli_usage_error("record", "%s", err.msg);
	if (a->sym.filepath) {
		struct utsname u;

		/* the map of the running kernel: its functions are the ones to trace */
		a->sym.release = uname(&u) ? NULL : u.release;
		a->sym.for_what = "this machine runs";
		a->sym.warn = note_to_stderr_warning;
		ret = kmag_symmap_choose(&a->sym, &err);
		a->sym.release = NULL;	/* (@u goes out of scope) */
		if (ret)
			return cli_lib_error(&err, "cannot load the symbol map");
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

static bool has_event_trigger(const struct record_args *a)
{
	size_t i;

	for (i = 0; i < a->triggers.n; i++)
		if (!strncmp(a->triggers.v[i], "event=", 6))
			return true;
	return false;
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
		strcmp(res->tracer, "nop")		? res->tracer :
		a->events.n || has_event_trigger(a) ? "tracepoint events" :
							 "probe events",
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
	if (a.last_boot) {
		ret = cli_record_last_boot(a.instance, a.o.output, a.quiet);
		goto out;
	}
	if (a.calibrate_only) {
		ret = cli_record_calibrate_only(&a.o);
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
	if (a.o.flight_bytes) {
		struct cli_flight fl = { &a.o, a.seconds, a.quiet, cli->stderr_tty, &stop_signal };

		ret = cli_record_flight(r, &fl);
		goto out;
	}
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
