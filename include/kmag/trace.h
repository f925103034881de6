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
};

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
};

struct kmag_trace_opts {
	enum kmag_reader reader;
	/*
	 * Deliver events in global timestamp order across CPUs (needed to
	 * follow tasks that migrate). When false, events come CPU by CPU,
	 * which is faster and is enough for order-independent aggregates.
	 */
	bool unordered;
};

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

/* Facts about the input; borrowed, valid until kmag_trace_close(). */
const struct kmag_trace_info *kmag_trace_info(const struct kmag_trace *t);
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

#ifdef __cplusplus
}
#endif

#endif /* KMAG_TRACE_H */
