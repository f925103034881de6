/* SPDX-License-Identifier: MIT */
/*
 * record.h - capture kernel function call chains (and tracepoints) with
 * ftrace into a trace.dat file that kmag and `trace-cmd report` read.
 *
 * Life of a recording:
 *
 *   r = kmag_recorder_new(&opts, &err);   validates everything; touches nothing
 *   kmag_recorder_start(r, &err);          configures tracefs, starts the CPU readers
 *   ... kmag_recorder_progress(r, &p) until done (time, signal, command exit) ...
 *   kmag_recorder_stop(r, &err);           stops tracing, drains every buffer
 *   kmag_recorder_write(r, &err);          writes opts.output
 *   kmag_recorder_free(r);                 restores tracefs exactly as found
 *
 * A flight recording (opts.flight_bytes) keeps only the newest data on disk
 * and writes snapshots: while kmag_recorder_progress() says one is due (a
 * trigger fired and its window closed), kmag_recorder_snapshot() writes it;
 * after the stop, kmag_recorder_snapshot() writes what is pending (a window
 * cut short, or without any trigger the ring's content), and
 * kmag_recorder_write() is not used.
 *
 * tracefs is configured in a private instance ("kmag-<pid>") where the kernel
 * allows the chosen tracer there, otherwise in the top-level instance after
 * saving every file kmag changes (also to a state file, so that a run killed
 * with SIGKILL is repaired by the next one). kmag_recorder_stop() and
 * kmag_recorder_free() put everything back. None of these functions is
 * async-signal-safe: a signal handler should only set a flag that the main
 * loop checks before calling kmag_recorder_stop().
 */
#ifndef KMAG_RECORD_H
#define KMAG_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

#include "kmag.h"
#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

enum kmag_rec_tracer {
	/* function_graph where the kernel has it, else function; no function
	 * tracer at all when only events (-e) were asked for */
	KMAG_REC_TRACER_AUTO = 0,
	KMAG_REC_TRACER_NONE,		/* events only ("nop") */
	KMAG_REC_TRACER_FUNCTION,
	KMAG_REC_TRACER_FUNCTION_GRAPH,
};

/* Dynamic probes (kprobe_events / uprobe_events syntax). */
enum kmag_rec_probe_type {
	KMAG_REC_KPROBE = 0,	/* "FUNCTION[+OFFS] [NAME=FETCHARG ...]" ("vfs_write count=%dx:u64") */
	KMAG_REC_KRETPROBE,	/* "FUNCTION [NAME=FETCHARG ...]" ("vfs_read ret=$retval:s64") */
	KMAG_REC_UPROBE,	/* "PATH:FUNCTION[+OFFS] [ARGS]" or "PATH:0xOFFSET [ARGS]" */
	KMAG_REC_URETPROBE,
};

enum kmag_rec_compression {
	KMAG_REC_COMPRESS_DEFAULT = 0,	/* zstd in v7 */
	KMAG_REC_COMPRESS_ZSTD,
	KMAG_REC_COMPRESS_NONE,
};

struct kmag_rec_probe {
	enum kmag_rec_probe_type type;
	const char *spec;	/* as above; borrowed */
};

struct kmag_rec_event {
	const char *spec;	/* "sched:sched_switch", "sched" (whole system), "sched:sched_wak*" */
	const char *filter;	/* kernel event filter ("prev_pid != 0"), or NULL */
};

/* Receives one user-facing note (no trailing newline), e.g. a stale instance removed. */
typedef void (*kmag_rec_note_fn)(void *ctx, const char *msg);

struct kmag_record_opts {
	enum kmag_rec_tracer tracer;
	const char *const *funcs;	/* -l: set_ftrace_filter globs ("vfs_*", ":mod:ext4") */
	size_t nr_funcs;
	/*
	 * Exact function names to trace, next to @funcs (e.g. every function
	 * of some source files, from a symbol map); matched in one pass over
	 * available_filter_functions and written as indexes, so thousands are
	 * cheap. Names the kernel cannot trace (inlined, notrace) are skipped
	 * with a note; none traceable is an error.
	 */
	const char *const *func_names;
	size_t nr_func_names;
	/*
	 * Every traceable function whose source file matches @path_filter in
	 * @path_map (both borrowed; both or neither), next to @funcs and
	 * @func_names: how `--filter-filepath net/` records only the network
	 * stack. A filter that covers no traceable function is an error.
	 */
	const struct kmag_symmap *path_map;
	const struct kmag_pathfilter *path_filter;
	const char *const *notrace;	/* -n: set_ftrace_notrace globs */
	size_t nr_notrace;
	const char *const *graph_funcs;	/* -g: function_graph roots (globs) */
	size_t nr_graph_funcs;
	unsigned max_graph_depth;	/* 0 = unlimited */
	const pid_t *pids;		/* -P: only these tasks */
	size_t nr_pids;
	bool follow_forks;		/* also trace children the @pids fork */
	char *const *command;		/* NULL-terminated argv to run and trace, or NULL */
	const struct kmag_rec_event *events;	/* -e: tracepoints recorded alongside */
	size_t nr_events;
	const char *cpus;		/* --cpu: CPU list ("0-3,8"); NULL = all */
	/* --cpumask, -M: hex mask as tracing_cpumask takes it ("3", "0x10",
	 * "ff,ffffffff"); NULL = all; not with @cpus */
	const char *cpumask;
	unsigned long buffer_kb;	/* per-CPU ring buffer in KiB; 0 = chosen from free memory */
	const char *clock;		/* trace clock ("local", "global", ...); NULL = default */
	const char *output;		/* the trace.dat to write */
	int file_version;		/* 6 or 7; 0 = 7 (6 with KMAG_REC_COMPRESS_NONE) */
	enum kmag_rec_compression compression;	/* v7 only */
	bool top_instance;		/* record in the top-level instance even if an instance works */
	const char *state_dir;		/* saved-state and lock files; NULL = /run/kmag */
	kmag_rec_note_fn note;		/* notes for the user; NULL = logged at info level */
	void *note_ctx;
	/*
	 * Probes created in the event group "kmag_<pid>" for the recording and
	 * removed afterwards (a killed run's group is removed by the next run).
	 * Probe events are named after the function ("vfs_read", returns
	 * "vfs_read__return"). Kernel rejections carry error_log's text.
	 */
	const struct kmag_rec_probe *probes;
	size_t nr_probes;
	/* function_graph: record only calls lasting at least this many
	 * microseconds (tracing_thresh; top-level instance only); 0 = all */
	unsigned long threshold_us;
	/*
	 * function_graph records each call's site (funcgraph-retaddr, Linux
	 * 6.13+: fgraph_retaddr_entry events) where the kernel can; this turns
	 * it off. (funcgraph-retval, 6.5+, is turned on too, but it only
	 * changes the text output: a kernel with CONFIG_FUNCTION_GRAPH_RETVAL
	 * puts the return value in every funcgraph_exit record anyway.)
	 */
	bool no_retaddr;
	/*
	 * Record function arguments (funcgraph-args or func-args: Linux 6.15+
	 * with CONFIG_FUNCTION_TRACE_ARGS); kmag_recorder_new() fails on a
	 * kernel without them. Costs more per call.
	 */
	bool args;
	/*
	 * Borrowed flag a signal handler sets (non-zero) to stop the set-up:
	 * kmag_recorder_new() and kmag_recorder_start() look at it between
	 * their steps (and before each slow one: the function filter, the
	 * tracer), put tracefs back and fail with -EINTR (err->code EINTR). NULL
	 * = not interruptible. Test hook: KMAG_TEST_SETUP_PAUSE=STEP:FILE makes
	 * the set-up stop at step STEP (tests/vm/README.md lists them), create
	 * FILE and wait there (at most 60 s) for the flag.
	 */
	volatile sig_atomic_t *interrupt;
	/*
	 * Flight recorder (--flight SIZE): record until stopped, keeping on disk
	 * only the newest @flight_bytes of compressed trace (per recorded CPU a
	 * ring of SIZE/CPUs, oldest data dropped first), written by
	 * kmag_recorder_snapshot() as opts.output, then "<output>.1", ".2"...
	 * (trace.dat v7, zstd). 0: a normal recording.
	 */
	uint64_t flight_bytes;
	/*
	 * --trigger: specs watched live on the captured events (flight only):
	 * "error[=ERRNO][@FUNC]", "slow=FUNC>DURATION",
	 * "event=SYSTEM:EVENT[/FILTER]" (the event is recorded alongside).
	 */
	const char *const *triggers;
	size_t nr_triggers;
	uint64_t after_ns;	/* recording after a trigger fired; 0 = 1 s */
	unsigned snapshots;	/* snapshots (files) to write; 0 = 1 */
	/*
	 * function_graph: do not measure the tracer's cost per traced call
	 * after the capture (kmag_rec_result.cost; flight recordings never do).
	 */
	bool no_calibrate;
};

/* Live counters, read while recording (kmag_recorder_progress()). */
struct kmag_rec_progress {
	double elapsed;		/* seconds since tracing started */
	uint64_t bytes;		/* ring-buffer data captured so far (uncompressed): moved to the
				   output or still in the kernel's buffers */
	uint64_t events;	/* events the kernel has recorded so far (all CPUs) */
	uint64_t lost;		/* events lost so far (overrun + commit overrun + dropped) */
	bool failed;		/* a reader hit an error (disk full, ...): stop now */
	bool command_exited;	/* the traced command has exited */
	/* flight recordings */
	uint64_t fires;		/* trigger windows opened so far (kmag_recorder_fire()) */
	bool snapshot_due;	/* call kmag_recorder_snapshot() */
	uint64_t kept_bytes;	/* compressed data the rings hold */
	double kept_seconds;	/* the time it covers */
	uint64_t unwatched;	/* bytes the trigger watcher could not keep up with */
	uint64_t stored_raw;	/* bytes stored uncompressed: the readers fell behind the kernel */
};

/* A trigger that fired (flight recordings). Strings borrowed, valid until the next call. */
struct kmag_rec_fire {
	uint64_t seq;		/* 1, 2, ...: the window it opened */
	const char *trigger;	/* its spec */
	uint64_t ts;		/* when (trace clock, ns): the exit or the tracepoint */
	int pid, cpu;
	const char *comm;	/* the task's name, or NULL */
	const char *func;	/* error/slow: the function of the call; NULL for event */
	int errnum;		/* error: the errno it returned (positive) */
	uint64_t duration;	/* error/slow: the call's, in ns (UINT64_MAX: unknown) */
	const char *event;	/* event: "system:name"; else NULL */
	unsigned depth;		/* error/slow: its callers (calls open around it) */
	const char *root;	/* the outermost of them (the chain's root), or NULL */
};

/* A snapshot written (flight recordings). Strings borrowed, valid until the next call. */
struct kmag_rec_snapshot {
	const char *path;	/* the file written */
	unsigned index;		/* 0 for opts.output, then 1, 2, ... */
	bool triggered;		/* a trigger's window (else the ring's content at the end) */
	struct kmag_rec_fire fire;	/* when triggered */
	bool cut_short;		/* the window closed early: the recording stopped, or the
				   ring filled with it */
	bool chain_whole;	/* the chain's outermost call is in the file, entry to exit */
	uint64_t more;		/* further matches inside the window */
	uint64_t first_ts, last_ts;	/* of the records (trace clock, ns) */
	uint64_t events, lost;
	uint64_t file_size;
};

/* Per-CPU result, valid after kmag_recorder_write() (events, missing_pages) / _stop(). */
struct kmag_rec_cpu {
	int cpu;
	bool recorded;		/* in the CPU mask */
	uint64_t bytes;		/* raw data captured */
	uint64_t events;	/* events in the written file (counted while writing) */
	uint64_t missing_pages;	/* sub-buffers flagged MISSING_EVENTS */
	uint64_t overrun;	/* per_cpu/cpuN/stats at stop */
	uint64_t commit_overrun;
	uint64_t dropped;
	uint64_t left;		/* "entries" still in the kernel buffer after draining */
};

/* Valid after kmag_recorder_start() (setup) and _stop()/_write() (the counts). */
struct kmag_rec_result {
	const char *tracer;	/* "function_graph", "function", "nop" */
	const char *tracer_note;	/* why the tracer was chosen over the default, or NULL */
	const char *instance;	/* "kmag-1234" or "top-level" */
	/* what the tracer records beyond calls ("return values, call sites"), or "" */
	const char *recorded;
	const char *cpulist;	/* recorded CPUs, "0-3" */
	size_t path_functions;	/* functions opts.path_filter selected (0 without one) */
	unsigned long buffer_kb;	/* per-CPU ring buffer used */
	int nr_cpus;
	const struct kmag_rec_cpu *cpus;	/* nr_cpus entries */
	uint64_t events;	/* total events written */
	uint64_t lost;		/* total lost (stats) */
	uint64_t file_size;	/* bytes of the trace.dat (after kmag_recorder_write()) */
	double duration;	/* seconds of tracing */
	bool disk_full;		/* capture stopped early: the disk was full */
	uint64_t unwritten;	/* disk full: events left unwritten in the kernel buffers */
	pid_t command_pid;	/* the traced command's pid (after _start()), 0 if none */
	int command_status;	/* wait status of the traced command, -1 if none */
	const char *probe_group;	/* "kmag_1234" with probes, else NULL */
	int file_version;	/* of the written file: 6 or 7 */
	bool compressed;	/* zstd (v7) */
	/*
	 * After kmag_recorder_stop(), function_graph: what one traced call
	 * costs the tracer with the recording's options, measured right after
	 * the capture (written into the trace.dat); ns 0: not measured, and
	 * @cost_note says why (NULL: not asked for).
	 */
	struct kmag_tracer_cost cost;
	const char *cost_note;
	/*
	 * Valid from kmag_recorder_new(): what the options ask the tracer to
	 * record that this kernel cannot (call sites before Linux 6.13: "this
	 * kernel has no options/funcgraph-retaddr (...)"), or NULL. The
	 * recording goes on without it.
	 */
	const char *lacks;
};

struct kmag_recorder;

/*
 * Checks @opts for what needs no kernel (option syntax and combinations):
 * kmag_recorder_new() does it first, and a command line can call it right
 * after parsing. Returns 0 or -EINVAL with @err set to one line naming the
 * option and the fix.
 */
int kmag_record_opts_check(const struct kmag_record_opts *opts, struct kmag_err *err);

/*
 * Validates @opts against the running kernel (root, tracefs, tracer, globs,
 * events, CPUs, pids, command, output directory) and repairs what a killed
 * kmag run left behind (reported through opts->note). Nothing in tracefs is
 * changed by this call except that repair. Returns a recorder to free with
 * kmag_recorder_free(), or NULL with @err set. @opts and its arrays must
 * outlive the recorder.
 */
struct kmag_recorder *kmag_recorder_new(const struct kmag_record_opts *opts, struct kmag_err *err);

/*
 * Configures tracefs, writes the file's metadata, starts one reader thread per
 * recorded CPU and turns tracing on (and, with a command, starts it). On
 * failure tracefs is already restored. Returns 0 or -errno with @err set.
 */
int kmag_recorder_start(struct kmag_recorder *r, struct kmag_err *err);

/* Fills @p with live counters; cheap enough for a few calls per second. */
void kmag_recorder_progress(struct kmag_recorder *r, struct kmag_rec_progress *p);

/*
 * Turns tracing off, drains every CPU buffer to the end, collects the
 * kernel's per-CPU statistics and puts tracefs back exactly as it was found
 * (kmag_recorder_free() does the same for a run that never stopped). Returns 0 or -errno with @err set (a full disk
 * is not an error here: see kmag_rec_result.disk_full).
 */
int kmag_recorder_stop(struct kmag_recorder *r, struct kmag_err *err);

/* Writes opts->output (atomically replaced). Returns 0 or -errno with @err set. */
int kmag_recorder_write(struct kmag_recorder *r, struct kmag_err *err);

/*
 * Flight recordings: the trigger that opened window @seq - the latest one
 * when @seq is 0 (kmag_rec_progress.fires counts them). Returns 0, or
 * -ENOENT when there is no such window.
 */
int kmag_recorder_fire(struct kmag_recorder *r, uint64_t seq, struct kmag_rec_fire *f);

/*
 * Flight recordings: writes the next snapshot (opts.output, then
 * "<output>.1", ...; atomically, as every output) and describes it in @s.
 * While recording: the window of the trigger that fired (call it when
 * kmag_rec_progress.snapshot_due). After kmag_recorder_stop(): the open
 * window cut short, or (no snapshot written yet) the ring's content;
 * -ENOENT when there is nothing to write. Returns 0 or -errno with @err set.
 */
int kmag_recorder_snapshot(struct kmag_recorder *r, struct kmag_rec_snapshot *s,
			   struct kmag_err *err);

/* Results; borrowed, valid until kmag_recorder_free(). */
const struct kmag_rec_result *kmag_recorder_result(const struct kmag_recorder *r);

/* Restores tracefs (if not yet done), removes temporary files, frees. Accepts NULL. */
void kmag_recorder_free(struct kmag_recorder *r);

/* kmag record --last-boot */
struct kmag_lastboot_opts {
	const char *instance;	/* the tracefs instance; NULL: the one holding a previous boot's trace */
	const char *output;	/* the trace.dat to write (atomically replaced) */
};

struct kmag_lastboot_result {
	char instance[64];	/* the instance read */
	uint64_t text_then;	/* the previous boot's _text (last_boot_info) */
	uint64_t text_now;	/* this boot's */
	int64_t delta;		/* then - now: what the file's kallsyms are moved by */
	size_t modules;		/* modules whose symbols were moved too */
	int nr_cpus;
	uint64_t events;
	uint64_t first_ts, last_ts;	/* of the events (the previous boot's clock), UINT64_MAX: none */
	uint64_t file_size;
};

/*
 * Writes the previous boot's trace, which a boot-mapped persistent ring
 * buffer holds (Linux 6.12+: reserve_mem=SIZE:ALIGN:trace
 * trace_instance=NAME@trace, and 6.19's trace_instance=backup=NAME), as a
 * trace.dat v7 (zstd) at opts->output: its pages, this kernel's formats and
 * kallsyms moved to the previous boot's addresses (by last_boot_info), and
 * trace-cmd 3.4's LAST_BOOT_INFO option. Reading empties the instance.
 * Returns 0 with @res filled, or -errno with @err set (no such instance,
 * one holding this boot's trace, several to choose from, not root, ...).
 */
int kmag_record_last_boot(const struct kmag_lastboot_opts *opts,
			  struct kmag_lastboot_result *res, struct kmag_err *err);

/* Static name of a tracer choice ("function_graph", ...). */
const char *kmag_rec_tracer_name(enum kmag_rec_tracer t);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_RECORD_H */
