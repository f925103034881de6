/* SPDX-License-Identifier: MIT */
/*
 * record-internal.h - the recorder object shared by lib/record/record-*.c. Internal.
 *
 *   record.c          kmag_recorder_new(): validation, stale-run repair, free
 *   record-common.c   notes to the user, telling a killed run from a live one,
 *                     the page geometry, a CPU reader's poll and splice loops,
 *                     the per-CPU stats
 *   record-setup.c    tracefs configuration (private instance or saved top level)
 *   record-stale.c    lock files; repairing what a killed run left
 *   record-capture.c  per-CPU reader threads, the traced command, stop, stats
 *   record-output.c   metadata capture and trace.dat assembly
 *   record-state.c    saved tracefs state and its restoration
 *   record-topts.c    tracer options: return values, call sites, arguments
 *   flight*.c         the flight recorder (--flight, --trigger; flight.h)
 *   lastboot.c        --last-boot: a persistent ring buffer's previous boot
 */
#ifndef KMAG_RECORD_INTERNAL_H
#define KMAG_RECORD_INTERNAL_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#include "internal.h"
#include "kmag/record.h"
#include "kmag/symmap.h"
#include "record-state.h"
#include "util/files.h"
#include "tracefs-io.h"
#include "trace/pagewalk.h"
#include "trace/tracedat-write.h"

#define REC_MAX_CPUS 4096
#define REC_MASK_WORDS (REC_MAX_CPUS / 64)
/* Space kept next to the output for finishing the file on a full disk. */
#define REC_RESERVE_BYTES (16ull << 20)

struct tracefs_instance;

/* One expanded -e: a concrete event, with its filter. */
struct rec_event {
	char *system;
	char *name;
	const char *filter;	/* borrowed from the options, or NULL */
};

/* A -l/-n glob split into pattern and module (":mod:ext4"). */
struct rec_glob {
	char *pattern;		/* NULL when only a module was named */
	char *module;		/* or NULL */
	const char *spec;	/* as the user wrote it */
};

/* One --kprobe/--kretprobe/--uprobe/--uretprobe. */
struct rec_probe {
	enum kmag_rec_probe_type type;
	const char *spec;		/* borrowed from the options */
	char *event;			/* event name in the group */
	char *addr;			/* kprobes: "vfs_read+4"; uprobes: the path as given */
	char *fetchargs;		/* or NULL */
	char *path;			/* uprobes: the resolved file */
	unsigned long long offset;	/* uprobes: file offset */
	struct tracefs_dynevent *dev;
	bool created;			/* exists in tracefs */
};

struct kmag_recorder;

/* What the file holds besides the pages: read at the start (record-output.c). */
struct rec_meta {
	struct tdw_meta m;
	char *header_page, *header_event, *kallsyms, *printk;
	struct tdw_blob *ftrace;
	struct tdw_system *systems;
	struct tdw_blob *event_formats;	/* all systems' formats, in system order */
};

struct fl_state;

struct rec_cpu {
	struct kmag_recorder *r;
	int cpu;
	int index;		/* in r->cpus */
	int trace_fd;		/* per_cpu/cpuN/trace_pipe_raw, O_NONBLOCK */
	int out_fd;		/* the captured pages */
	int pipe_rd, pipe_wr;	/* splice bounce pipe */
	int pipe_size;
	char *path;		/* temporary file of out_fd */
	pthread_t thread;
	bool thread_started;
	_Atomic pid_t tid;	/* the reader thread, once running */
	_Atomic uint64_t bytes;	/* written to out_fd (a flight recording: to its ring, uncompressed) */
	_Atomic int error;	/* errno that stopped the reader, 0 if none */
	char *stats;		/* per_cpu/cpuN/stats at stop */
};

struct kmag_recorder {
	struct kmag_record_opts o;	/* shallow copy; arrays borrowed */
	char *dir;			/* tracing directory */
	bool mounted_tracefs;		/* we mounted it: unmount at the end */
	char *state_dir;
	enum kmag_rec_tracer tracer;	/* resolved */
	const char *tracer_name;
	int version;			/* 6 or 7 */

	/* validated selections */
	struct rec_glob *funcs, *notrace;
	char **graph_names;		/* expanded -g names */
	size_t nr_graph_names;
	/*
	 * opts.func_names and the functions opts.path_filter selects, as
	 * available_filter_functions lines, with their names (borrowed from
	 * opts.func_names or @path_sel) for kernels that take only names.
	 */
	unsigned *func_index;
	const char **func_index_names;
	size_t nr_func_index;
	struct kmag_selection path_sel;	/* owned: opts.path_filter expanded */
	struct rec_event *events;
	size_t nr_events;
	uint64_t mask[REC_MASK_WORDS];	/* CPUs to record */
	char cpulist[256];		/* @mask as a CPU list ("0-3,8") */
	int nr_cpus;			/* possible CPUs (per_cpu/cpuN in tracefs) */
	unsigned long buffer_kb;

	/* tracefs configuration */
	struct tracefs_instance *inst;	/* NULL: the top-level instance */
	char inst_name[32];
	char *inst_dir;			/* directory holding the instance's files */
	bool inst_created;
	int inst_lock_fd, top_lock_fd;
	bool top_saved;			/* state holds the top-level files */
	struct rec_state state;
	bool configured;		/* something in tracefs may differ: restore needed */
	char recorded[96];		/* kmag_rec_result.recorded */
	char cost_text[160];		/* the tracer's cost as the trace.dat option says it */
	char cost_note[700];		/* kmag_rec_result.cost_note */
	char topt_why[160];		/* why the instance cannot take a tracer option */
	bool restored;

	/* capture */
	struct rec_cpu *cpus;		/* nr_rec entries */
	int nr_rec;
	int stop_efd;			/* eventfd waking the readers */
	atomic_bool stopping;
	uint32_t page_size;
	struct timespec t_start, t_stop;

	/* traced command */
	pid_t child;
	int child_go_fd;		/* write end: one byte lets it exec */
	int child_err_fd;		/* read end: errno if exec failed, EOF if it ran */
	int child_status;
	bool child_reaped;

	/* flight recording (flight.c), or NULL */
	struct fl_state *fl;
	struct rec_meta meta;		/* kept for the snapshots of a flight recording */

	/* output */
	char *tmp_out;			/* <output>.kmag-<pid>.tmp */
	char *reserve_path;		/* space kept for finishing the file on a full disk */
	int out_fd;
	struct tdw w;
	char *clock_file, *clock_name, *cmdlines;
	size_t cmdlines_len;
	char *uname;
	char **cpustats;		/* nr_cpus CPUSTAT texts, collected at stop */
	int commit_size;		/* bytes of a sub-buffer's commit field (4 or 8) */

	/* dynamic probes (record-probes.c) */
	struct rec_probe *probes;
	size_t nr_probes;
	char probe_group[32];		/* "kmag_<pid>" */

	struct kmag_rec_cpu *res_cpus;	/* nr_cpus entries */
	struct kmag_rec_result res;
	bool started, stopped, written;
};

/* record-common.c: helpers every part of the recorder uses */
/* Passes a note to the user (opts.note or the log). */
#define kmag__rec_note(r, ...)                                                              \
	kmag__tell((r)->o.note, (r)->o.note_ctx, KMAG_LOG_INFO, PR_DOMAIN, __VA_ARGS__)
/* True when the kmag run @pid is gone (its lock released, or no such process). */
bool kmag__rec_owner_gone(const char *state_dir, int pid);
/*
 * The ring buffer's page geometry (page size, commit size, header size)
 * from an events/header_page text; @whose names it in the messages ("the
 * kernel's"). Returns 0 or -errno with @err set.
 */
int kmag__rec_page_geometry(const char *header_page, const char *whose,
			    struct kmag_page_geom *g, struct kmag_err *err);

/* A field of a per_cpu/cpuN/stats text ("overrun: 12"); 0 when absent. */
uint64_t kmag__rec_stat(const char *text, const char *key);

#define REC_POLL_MS 250	/* a CPU reader drains at least this often */
#define REC_IDLE_MS 50	/* its back-off when woken without a whole page */
/*
 * Moves every whole page @c's buffer holds into its bounce pipe with
 * splice(2), handing each batch (@n bytes, whole pages) to @sink, which
 * empties the pipe and returns 0 or -errno. Returns the bytes moved or
 * -errno.
 */
int64_t kmag__rec_splice_pages(struct rec_cpu *c, int (*sink)(struct rec_cpu *c, size_t n));
/*
 * A CPU reader thread's loop until the recording stops: sleeps in poll(2)
 * on the stop eventfd and the buffer (at most REC_POLL_MS) and calls @move,
 * which returns how much it moved (0: nothing) or -errno. The final drain
 * is the caller's. Returns 0 or -errno (poll's or @move's).
 */
int kmag__rec_reader_loop(struct rec_cpu *c, int64_t (*move)(struct rec_cpu *c, void *ctx),
			  void *ctx);


/*
 * --cpumask: a hex mask as tracing_cpumask takes it ("3", "0x3",
 * "ff,ffffffff"). Fills @mask (REC_MASK_WORDS words). Returns 0 or
 * -EINVAL/-ERANGE.
 */
int kmag__rec_parse_cpumask(const char *spec, uint64_t *mask);
/*
 * The tracer for @o on a kernel offering @avail (available_tracers), with
 * *@note saying why it is not the default; checks the options that need it.
 * Returns 0 or -errno with @err set.
 */
int kmag__rec_choose_tracer(const struct kmag_record_opts *o, const char *avail,
			    enum kmag_rec_tracer *out, const char **note, struct kmag_err *err);
/* The CPUs of @o's --cpu or --cpumask (all zero: neither) in @mask. Returns 0 or -EINVAL, @err set. */
int kmag__rec_parse_cpus(const struct kmag_record_opts *o, uint64_t *mask, struct kmag_err *err);
/* @mask as a CPU list ("0-3,8") in @buf. */
void kmag__rec_mask_to_list(const uint64_t *mask, char *buf, size_t size);

/* The event triggers of a flight recording (they record their events). */
static inline size_t kmag__rec_event_triggers(const struct kmag_record_opts *o)
{
	size_t i, n = 0;

	for (i = 0; i < o->nr_triggers; i++)
		n += !strncmp(o->triggers[i], "event=", 6);
	return n;
}

/* The options narrow set_ftrace_filter (-l, --func-list, a path filter). */
static inline bool rec_filters_funcs(const struct kmag_record_opts *o)
{
	return o->nr_funcs || o->nr_func_names || o->path_filter;
}

static inline bool rec_cpu_wanted(const struct kmag_recorder *r, int cpu)
{
	return cpu >= 0 && cpu < REC_MAX_CPUS && (r->mask[cpu / 64] >> (cpu % 64)) & 1;
}

/* record-stale.c */
int kmag__rec_cleanup_stale(struct kmag_recorder *r, struct kmag_err *err);
/* Names (@on) or forgets the output in the state directory, for repairs after a kill. */
int kmag__rec_track_output(struct kmag_recorder *r, bool on, struct kmag_err *err);
/* Turns tracing off in instance @name and removes it. Returns 0 or -errno. */
int kmag__rec_remove_instance(const char *name);


/* record-probes.c */
/* Parses and checks the probes (kernel support, uprobe symbols); adds them to r->events. */
int kmag__rec_probes_check(struct kmag_recorder *r, struct kmag_err *err);
/* Creates the probes in tracefs; a rejection carries the kernel's error_log text. */
int kmag__rec_probes_create(struct kmag_recorder *r, struct kmag_err *err);
/* Removes the probes created (idempotent). Returns 0 or -errno with @err set. */
int kmag__rec_probes_destroy(struct kmag_recorder *r, struct kmag_err *err);
void kmag__rec_probes_free(struct kmag_recorder *r);
/* Removes probe groups "kmag_<pid>" whose run was killed, with a note each. */
void kmag__rec_probes_cleanup_stale(struct kmag_recorder *r);

/* record-setup.c */
int kmag__rec_configure(struct kmag_recorder *r, struct kmag_err *err);
/*
 * Between two set-up steps: -EINTR with @err set ("interrupted during
 * set-up") when opts.interrupt is up, else 0. @step names the step that
 * comes next, for the KMAG_TEST_SETUP_PAUSE hook (record-common.c).
 */
int kmag__rec_checkpoint(struct kmag_recorder *r, const char *step, struct kmag_err *err);
/* The KMAG_TEST_SETUP_PAUSE hook alone: at @step, wait for the interrupt flag (tests). */
void kmag__rec_test_pause(struct kmag_recorder *r, const char *step);
static inline bool rec_interrupted(const struct kmag_recorder *r)
{
	return r->o.interrupt && *r->o.interrupt;
}
int kmag__rec_tracing_on(struct kmag_recorder *r, bool on, struct kmag_err *err);
int kmag__rec_set_notrace_pids(struct kmag_recorder *r, struct kmag_err *err);
int kmag__rec_restore(struct kmag_recorder *r, struct kmag_err *err);
/* Reads a file of the recording instance (or the top level); free the result. */
char *kmag__rec_read(const struct kmag_recorder *r, const char *rel);
/*
 * record-calibrate.c: what one traced call costs function_graph with the
 * recording's options, measured in its instance (after the capture, before
 * the restore, which puts back every file it changes). 0, or -errno with
 * @err saying why (ksys_read untraceable, the runs too noisy).
 */
int kmag__rec_calibrate(struct kmag_recorder *r, struct kmag_tracer_cost *cost,
			struct kmag_err *err);
/*
 * The CPU the calibration runs on: the first of the recorded @mask this
 * thread may run on (@allowed); else, kmag kept off the recorded CPUs
 * (taskset -c 0 kmag record --cpu 1 -- taskset -c 1 CMD), the first of
 * @mask, which sched_setaffinity() may still grant; -1 for an empty mask.
 */
int kmag__rec_calibrate_cpu(const uint64_t *mask, int nr_cpus, const cpu_set_t *allowed);

/* record-topts.c */
/*
 * --args on a kernel without argument recording, or without a function
 * tracer: -errno. Call sites the kernel cannot record: res.lacks.
 */
int kmag__rec_topts_check(struct kmag_recorder *r, struct kmag_err *err);
/*
 * Why the new instance (r->inst_dir) cannot hold the tracer options this
 * recording wants, or NULL; may already have set them there.
 */
const char *kmag__rec_topts_instance_lacks(struct kmag_recorder *r);
/* Sets the tracer options (saved first at the top level); fills res.recorded. */
int kmag__rec_topts_set(struct kmag_recorder *r, struct kmag_err *err);

/* record-capture.c */
int kmag__rec_spawn(struct kmag_recorder *r, struct kmag_err *err);
int kmag__rec_release_child(struct kmag_recorder *r, struct kmag_err *err);
void kmag__rec_cancel_child(struct kmag_recorder *r);
bool kmag__rec_child_exited(struct kmag_recorder *r);
int kmag__rec_open_readers(struct kmag_recorder *r, struct kmag_err *err);
void kmag__rec_stop_readers(struct kmag_recorder *r);
void kmag__rec_close_readers(struct kmag_recorder *r);

/* record-output.c */
/*
 * Space kept next to the output for finishing the file on a full disk: a
 * flight recording's snapshot can be as big as its rings.
 */
static inline uint64_t kmag__rec_reserve_bytes(const struct kmag_record_opts *o)
{
	return REC_RESERVE_BYTES + o->flight_bytes;
}
int kmag__rec_out_begin(struct kmag_recorder *r, struct kmag_err *err);
int kmag__rec_make_reserve(struct kmag_recorder *r, struct kmag_err *err);
void kmag__rec_meta_free(struct rec_meta *f);
/* saved_cmdlines and the live tasks into r->cmdlines (replacing it). */
int kmag__rec_collect_cmdlines(struct kmag_recorder *r);
/* /sys/kernel/btf/vmlinux, or NULL (then *size is 0). */
char *kmag__rec_read_btf(size_t *size);
int kmag__rec_out_collect_tail(struct kmag_recorder *r, struct kmag_err *err);
int kmag__rec_out_finish(struct kmag_recorder *r, struct kmag_err *err);
void kmag__rec_out_discard(struct kmag_recorder *r);
void kmag__rec_release_reserve(struct kmag_recorder *r);

/* lastboot.c */
/* The previous boot's _text of last_boot_info @info; 0 when it is this boot's ("# Current", 0). */
uint64_t kmag__lastboot_text(const char *info);
/*
 * This boot's kallsyms @cur moved to the previous boot's addresses named by
 * @info (modules by their own bases; @modules is /proc/modules, or NULL, and
 * a module not loaded then is left out). Returns a new text, or NULL (no
 * text address in @info or @cur, ENOMEM); *@delta, *@nmod set.
 */
char *kmag__lastboot_kallsyms(const char *cur, const char *info, const char *modules,
			      int64_t *delta, size_t *nmod);

/* flight.c (flight.h has the parts) */
/* Checks the flight options against the kernel (kmag_recorder_new()); adds event triggers' events. */
int kmag__rec_flight_check(struct kmag_recorder *r, struct kmag_err *err);
/* The rings and the watcher, before the readers start. */
int kmag__rec_flight_begin(struct kmag_recorder *r, struct kmag_err *err);
/* The flight parts of kmag_recorder_progress(). */
void kmag__rec_flight_progress(struct kmag_recorder *r, struct kmag_rec_progress *p);
/* After the readers stopped: the watcher takes the rest and stops. */
void kmag__rec_flight_stop(struct kmag_recorder *r);
/* Frees the flight state, removes the rings. Accepts none. */
void kmag__rec_flight_free(struct kmag_recorder *r);
/* flight-capture.c: a reader thread in a flight recording */
void *kmag__rec_flight_reader(void *arg);

#endif /* KMAG_RECORD_INTERNAL_H */
