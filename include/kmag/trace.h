/* SPDX-License-Identifier: MIT */
/*
 * trace.h - opening a recorded trace of any supported format and streaming
 * its events.
 *
 * Supported inputs, detected from content (never from the file name):
 *   - trace.dat v6 and v7 (uncompressed or zstd), as written by trace-cmd and kmag
 *   - the ftrace "trace" file of the function and function_graph tracers
 *   - `trace-cmd report` text output of those tracers
 *   - a kmag profile: `kmag report --format json` or `kmag merge` output (JSON
 *     with "kmag_profile"): sums of calls, no events (kmag_cg_load_profile())
 */
#ifndef KMAG_TRACE_H
#define KMAG_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "kmag.h"
#include "event.h"
#include "symtab.h"

#ifdef __cplusplus
extern "C" {
#endif

enum kmag_input_format {
	KMAG_INPUT_UNKNOWN = 0,
	KMAG_INPUT_TRACEDAT,		/* trace.dat binary */
	KMAG_INPUT_FTRACE_TEXT,		/* tracefs "trace" file */
	KMAG_INPUT_REPORT_TEXT,		/* `trace-cmd report` output */
	KMAG_INPUT_PROFILE,		/* kmag profile JSON: sums, no events */
};

enum kmag_tracer {
	KMAG_TRACER_UNKNOWN = 0,
	KMAG_TRACER_FUNCTION,		/* parent -> func edges, no durations */
	KMAG_TRACER_FUNCTION_GRAPH,	/* entry/exit pairs, true stacks, durations */
	KMAG_TRACER_EVENTS,		/* only other events (tracepoints, probes) */
};

enum kmag_reader {
	KMAG_READER_AUTO = 0,		/* the fast built-in decoder where possible */
	KMAG_READER_BUILTIN,		/* kmag's own trace.dat decoder */
	KMAG_READER_LIBTRACECMD,	/* libtracecmd's public API (slower, reference) */
};

/* Per-CPU facts, filled while reading (counts) and from the file (stats). */
struct kmag_cpu_info {
	uint64_t events;		/* records decoded on this CPU (all types but LOST) */
	uint64_t lost;			/* sum of known lost counts seen in the data */
	uint32_t lost_markers;		/* places where data is missing (known or not) */
	bool lost_unknown;		/* some loss had no count */
	bool has_stats;			/* the fields below come from the recorder */
	uint64_t stat_entries;		/* per_cpu/cpuN/stats "entries" at stop */
	uint64_t stat_overrun;		/* "overrun": events overwritten */
	uint64_t stat_commit_overrun;	/* "commit overrun" */
	uint64_t stat_dropped;		/* "dropped events" (non-overwrite mode) */
	uint64_t first_ts, last_ts;	/* KMAG_TS_NONE when the CPU had no timed event */
};

/* One recording summed into a profile (kmag merge), as the profile names it. */
struct kmag_trace_source {
	const char *name;		/* the input as given to report or merge */
	const char *uname;		/* recording kernel ("Linux host 6.1.0-56-amd64 x86_64"), or NULL */
	const char *tracer;		/* "function_graph", ... */
	uint64_t events;		/* records read from it */
	uint64_t lost;			/* events it lost */
	uint64_t calls;			/* function calls it counted */
	/* the tracer's cost per traced call taken off its times (0: the kernel's times) */
	uint64_t tracer_cost_ns;
};

/*
 * What function_graph costs per traced call on the recording machine, as
 * kmag record measured it (record.h: kmag_record_calibrate()): the time one
 * more traced call adds to the duration of the call it runs under, its
 * entry's and its exit's work together. A trace.dat stores it in an option
 * of its own (id KMAG_TRACEDAT_OPT_TRACER_COST), which trace-cmd skips.
 */
struct kmag_tracer_cost {
	uint64_t ns;		/* ns per traced call, the median of the rounds; 0: none */
	uint64_t q1_ns, q3_ns;	/* its spread: the quartiles of the rounds */
	uint32_t rounds;	/* rounds measured (pairs of a shallow and a deep run) */
	uint32_t reads;		/* system calls per run */
	uint32_t beneath;	/* traced calls beneath each (the deep run's, the median) */
	char options[48];	/* the funcgraph options it was measured with ("retval,retaddr"), "" none */
};

/* The option id (u16) of the tracer's cost in a trace.dat: "KM", far above trace-cmd's (0..25). */
#define KMAG_TRACEDAT_OPT_TRACER_COST 0x4b4d

/*
 * @c as the option's text, "ns=312 q1=298 q3=330 rounds=25 reads=400
 * beneath=17 options=retval,retaddr", into @buf of @size bytes. Returns @buf.
 */
const char *kmag_tracer_cost_format(const struct kmag_tracer_cost *c, char *buf, size_t size);
/*
 * The text of kmag_tracer_cost_format() (@len bytes, NUL or not) into *@c;
 * words it does not know are skipped. 0, or -EINVAL (no ns, or a bad number).
 */
int kmag_tracer_cost_parse(const char *text, size_t len, struct kmag_tracer_cost *c);

struct kmag_trace_info {
	enum kmag_input_format format;
	enum kmag_tracer tracer;
	int file_version;		/* trace.dat version (6, 7), 0 for text */
	const char *compression;	/* "zstd", "none", NULL for text */
	const char *clock;		/* "local", "global", ... or NULL */
	const char *uname;		/* recording kernel, or NULL */
	int nr_cpus;			/* CPUs in the file (highest seen + 1 for text) */
	bool has_timestamps;		/* events carry absolute timestamps */
	bool has_pids;			/* events carry task ids */
	bool has_durations;		/* function_graph exits carry durations */

	/* Filled by kmag_trace_read(): */
	uint64_t events;		/* all records decoded (not counting LOST markers) */
	uint64_t lost;			/* sum of known lost counts (data + recorder stats) */
	uint64_t lost_unattributed;	/* part of lost with no CPU (e.g. the trace file's
					   entries-in-buffer/entries-written header) */
	bool lost_unknown;		/* some loss had no count */
	uint64_t first_ts, last_ts;
	const struct kmag_cpu_info *cpus;	/* nr_cpus entries */
	/* A profile's recordings (KMAG_INPUT_PROFILE), else NULL and 0. */
	const struct kmag_trace_source *sources;
	size_t nr_sources;
	/* The tracer's cost as measured at record time (trace.dat), else all zero. */
	struct kmag_tracer_cost cost;
};

struct kmag_trace_opts {
	enum kmag_reader reader;
	/*
	 * Deliver events in global timestamp order across CPUs (needed to
	 * follow tasks that migrate). When false, events come CPU by CPU,
	 * which is faster and is enough for order-independent aggregates.
	 */
	bool unordered;
	/*
	 * Threads that read a trace.dat (v7: the others read and decompress
	 * its zstd chunks ahead); 0 and 1: the calling thread alone. Events
	 * reach the callback on the calling thread, in the same order and with
	 * the same contents either way.
	 */
	unsigned threads;	/* at most KMAG_MAX_THREADS are used */
};
#define KMAG_MAX_THREADS 256

struct kmag_trace;

/*
 * Opens @path and reads its headers. @opts may be NULL for defaults.
 * Returns a handle to free with kmag_trace_close(), or NULL with @err set.
 */
struct kmag_trace *kmag_trace_open(const char *path, const struct kmag_trace_opts *opts,
				   struct kmag_err *err);

/*
 * Streams every event to @fn. May be called once per open handle.
 * Returns 0 when all events were delivered, the callback's positive value if
 * it stopped early, or -errno with @err set. Events decoded before a
 * corruption point are delivered before the error is returned.
 */
int kmag_trace_read(struct kmag_trace *t, kmag_event_fn fn, void *ctx, struct kmag_err *err);

/*
 * A time window to read, for a reader that can seek (trace.dat, the
 * built-in reader; the others ignore it and read all). Once every CPU's
 * first event is read, before any is delivered, @fn(@ctx, @firsts, @n,
 * @from, @to) is called with them (a CPU's first may be a LOST marker); it
 * returns true with the window [*@from, *@to] (ns as events carry them,
 * both included), false for none. Then only the events and LOST markers in
 * the window are delivered, and counted in kmag_trace_info() (events, LOST
 * markers, first and last times); the recorder's own counters (stat_*)
 * stay the whole recording's. The reader reads only the pages (v6) or zstd
 * chunks (v7) that can hold them: it finds the first by their start times
 * (a binary search) and stops each CPU at the first page past the window.
 * Damaged data is found, and said, only in what it reads. $KMAG_SEEK=scan
 * makes it read every page instead (the same events: for tests).
 * Call before kmag_trace_read(); returns true when the reader will.
 */
typedef bool (*kmag_trace_window_fn)(void *ctx, const struct kmag_event *firsts, size_t n,
				     uint64_t *from, uint64_t *to);
bool kmag_trace_set_window(struct kmag_trace *t, kmag_trace_window_fn fn, void *ctx);

/* How far kmag_trace_read() has come, for a progress display. */
struct kmag_trace_progress {
	uint64_t events;	/* records delivered so far */
	uint64_t bytes;		/* bytes of the file read so far; 0 when the reader cannot tell
				   (--reader libtracecmd) */
	uint64_t size;		/* size of the file in bytes */
};
typedef void (*kmag_trace_progress_fn)(const struct kmag_trace_progress *p, void *ctx);

/*
 * Makes kmag_trace_read() call @fn (NULL: no more) every few thousand events
 * with the counts so far, and once at the end. The library never prints: the
 * caller decides what to show. @ctx is borrowed. Call before kmag_trace_read().
 */
void kmag_trace_set_progress(struct kmag_trace *t, kmag_trace_progress_fn fn, void *ctx);

/*
 * Damaged data: a bit flipped on disk or in transfer, a garbled line. The
 * readers skip what cannot be read and read on, and they never pass on a
 * time that cannot be; each damaged place they read past is recorded here
 * (the library never prints: the caller says it, as `kmag` does on stderr).
 * kmag_trace_set_strict() turns the first one into an error instead.
 */
enum kmag_damage_kind {
	/*
	 * Data that cannot be read, skipped: a trace.dat record shorter than
	 * its format, naming no known event or an impossible call depth (it
	 * alone: its length is known; consecutive ones are one place); a
	 * record whose length runs past its page, with the rest of the page
	 * (the next record cannot be found); a zstd chunk that does not
	 * decompress; a text line that is not text or not understood. Calls
	 * open across the gap are marked as open while events were lost (a
	 * KMAG_EV_LOST event with .damage). A place with no bytes skipped
	 * says a page header's commit was read past (the records were read).
	 */
	KMAG_DAMAGE_SKIPPED = 1,
	/*
	 * Timestamps that cannot be, within one CPU's buffer (trace.dat):
	 * earlier than the CPU's previous event, later than the start of the
	 * CPU's next page, or later than the end of the recording (the
	 * recorder's per-CPU stats). The events are kept, moved to the nearest
	 * time possible (the bound in .bound; see .moved).
	 */
	KMAG_DAMAGE_TIME,
	/*
	 * A function_graph exit whose calltime/rettime cannot be: it returned
	 * more than a second before it was called, or its rettime is more
	 * than a second away from the exit's own timestamp (trace clocks
	 * local, global and perf, which count as the kernel's rettime does).
	 * The kernel's duration is left out: the call lasts from its entry's
	 * timestamp to its exit's (unknown when the entry is not in the trace).
	 */
	KMAG_DAMAGE_DURATION,
};

struct kmag_damage {
	enum kmag_damage_kind kind;
	int cpu;		/* -1: not known */
	/*
	 * trace.dat: the file offset of the damaged record (of the page for a
	 * damaged page header, of the chunk for a zstd chunk); for a record
	 * inside zstd-compressed data, the chunk's file offset, the record
	 * being at .chunk_pos of the chunk's decompressed data. Text: 0.
	 */
	uint64_t offset;
	bool in_chunk;		/* the record is inside a zstd chunk (see above) */
	uint64_t chunk_pos;
	uint64_t line;		/* text: the line number, else 0 */
	uint32_t column;	/* text: the column of the byte that cannot be, else 0 */
	/*
	 * SKIPPED: the bytes skipped (the record to the end of its page's
	 * data, the page, the chunk's compressed bytes, the line) and the
	 * events lost with them: for trace.dat an estimate from the mean
	 * record size read on the CPU (.estimated), for text the lines.
	 * TIME, DURATION: .events is the number of consecutive events with
	 * the same fault (one place).
	 */
	uint64_t bytes;
	uint64_t events;
	bool estimated;
	uint64_t ts;		/* TIME: the first event's timestamp as recorded; DURATION: the
				   exit's timestamp; SKIPPED: the last timestamp read on the CPU
				   before, or KMAG_TS_NONE */
	uint64_t bound;		/* TIME: the bound it broke, the events' time when .moved */
	bool moved;		/* TIME: the times were moved to .bound, else kept as recorded
				   (--reader libtracecmd, which cannot see the pages, keeps a
				   time running backwards: it cannot tell which side is wrong) */
	uint64_t duration;	/* DURATION: rettime - calltime as recorded, KMAG_DURATION_NONE when
				   negative (then .ts_back is how far) */
	uint64_t ts_back;
	kmag_func_t func;	/* DURATION: the function returning */
	const char *why;	/* what is wrong: a static string ("record runs past the end of
				   the page") */
};

/* Places kept one by one in kmag_damage_summary.list; further ones are only counted. */
#define KMAG_DAMAGE_LIST 64

struct kmag_damage_summary {
	uint64_t places;		/* damaged places, all kinds */
	uint64_t skipped_bytes;		/* SKIPPED in trace.dat */
	uint64_t skipped_lines;		/* SKIPPED in text */
	uint64_t lost_events;		/* events lost with them (trace.dat: estimated) */
	uint64_t bad_times;		/* events with a timestamp that cannot be (TIME) */
	uint64_t bad_durations;		/* exits whose duration was left out (DURATION) */
	bool stopped;			/* strict reading stopped at the first place */
	const struct kmag_damage *list;	/* the first places in the order found */
	size_t nr;			/* entries in list, at most KMAG_DAMAGE_LIST */
};

/*
 * The damage kmag_trace_read() read past (all zero for an undamaged trace);
 * complete once it returned. Borrowed, valid until kmag_trace_close().
 */
const struct kmag_damage_summary *kmag_trace_damage(const struct kmag_trace *t);
/*
 * With @strict, kmag_trace_read() stops at the first damaged place with
 * -EILSEQ and @err describing it (the events before it delivered; the
 * place is in kmag_trace_damage(), .stopped set) instead of reading past
 * it. Call before kmag_trace_read().
 */
void kmag_trace_set_strict(struct kmag_trace *t, bool strict);
/*
 * One line describing @d of @t ("CPU 0, file offset 4632592: record runs
 * past the end of the page; skipped 3968 bytes to the end of the page's
 * data, about 132 events"), into @buf of @size bytes. Returns @buf.
 */
const char *kmag_damage_describe(const struct kmag_trace *t, const struct kmag_damage *d,
				 char *buf, size_t size);

/* Facts about the input; borrowed, valid until kmag_trace_close(). */
const struct kmag_trace_info *kmag_trace_info(const struct kmag_trace *t);
/*
 * Of a profile's recordings (@info->sources): how many had the tracer's cost
 * taken off their times when it was made, with the least (@lo) and the most
 * (@hi) of it; 0 (and @lo, @hi 0) when none.
 */
size_t kmag_trace_sources_cost(const struct kmag_trace_info *info, uint64_t *lo, uint64_t *hi);
/* The trace's function-name table; borrowed, valid until kmag_trace_close(). */
struct kmag_symtab *kmag_trace_symtab(struct kmag_trace *t);
/*
 * The recording kernel's BTF (/sys/kernel/btf/vmlinux, raw) when the file
 * stores it (trace.dat v7 BTF_FILE, written by kmag record and trace-cmd
 * 3.4), with its size in *@size; NULL and 0 otherwise. Borrowed, valid
 * until kmag_trace_close().
 */
const void *kmag_trace_btf(const struct kmag_trace *t, size_t *size);
/* Command name of @pid as recorded ("<idle>" for 0), or NULL; borrowed. */
const char *kmag_trace_comm(const struct kmag_trace *t, int pid);
/*
 * The names of @func's argument registers as far as the trace says (the
 * kernel's funcgraph-args/func-args text names them from BTF): "fd,buf,count",
 * a struct passed in k registers being its name and k - 1 empty names
 * ("how,,"). NULL when the trace names none (so far: names are learnt while
 * reading). Borrowed, valid until kmag_trace_close().
 */
const char *kmag_trace_arg_names(const struct kmag_trace *t, kmag_func_t func);

struct kmag_btf;
struct kmag_btf_func;
/*
 * Gives @t the kernel's BTF (kmag_btf_open()/_from_blob(); borrowed, must
 * outlive @t; NULL detaches): kmag_trace_arg_names() then also names the
 * registers of functions the trace itself names none for (trace.dat), from
 * their prototypes, and kmag_trace_arg_proto() answers. Events read after
 * it carry no return value for functions the BTF says return void (the
 * kernel records the register anyway): one rule for every view.
 */
void kmag_trace_set_btf(struct kmag_trace *t, const struct kmag_btf *btf);
/* The BTF given to kmag_trace_set_btf(), or NULL; borrowed. */
const struct kmag_btf *kmag_trace_get_btf(const struct kmag_trace *t);
/*
 * @func's prototype in the BTF given to kmag_trace_set_btf(), looked up by
 * its exact name as the kernel's print_function_args() does; NULL without
 * BTF or when the BTF has no such function. Borrowed, valid until
 * kmag_trace_close().
 */
const struct kmag_btf_func *kmag_trace_arg_proto(const struct kmag_trace *t, kmag_func_t func);
/*
 * Whether the BTF given to kmag_trace_set_btf() says @func returns void
 * (false without BTF, or when it does not know @func). Such a function's
 * exits reach the event callback without a return value.
 */
bool kmag_trace_returns_void(const struct kmag_trace *t, kmag_func_t func);
/* Closes the file and frees everything. Accepts NULL. */
void kmag_trace_close(struct kmag_trace *t);

/* Short names for the enums ("trace.dat", "function_graph", ...); static strings. */
const char *kmag_input_format_name(enum kmag_input_format f);
const char *kmag_tracer_name(enum kmag_tracer t);
/*
 * The kernel release of a trace's uname (struct kmag_trace_info.uname, as
 * `uname -a` prints it: "Linux host 6.1.0-56-cloud-amd64 x86_64" gives
 * "6.1.0-56-cloud-amd64"), written to @buf of @size bytes; "unknown" when
 * @uname is NULL or has no third word. Returns @buf.
 */
const char *kmag_uname_release(const char *uname, char *buf, size_t size);
/*
 * Whether unames @a and @b name two different kernel releases: false when
 * either has none (a text trace, a profile without a uname), as nothing
 * says the kernels differ. Borrows both.
 */
bool kmag_uname_differ(const char *a, const char *b);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_TRACE_H */
