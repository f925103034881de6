/* SPDX-License-Identifier: MIT */
/*
 * render/export.h - call data in other tools' formats: the Chrome trace-event JSON
 * and the native Perfetto trace of function_graph calls (Perfetto UI,
 * trace_processor, chrome://tracing), the pprof profile (go tool pprof,
 * Pyroscope, Parca), CSV of call edges, and the whole call graph as
 * Graphviz DOT.
 *
 * (JSON and CSV of the functions are the report renderers in report.h.)
 */
#ifndef KMAG_EXPORT_H
#define KMAG_EXPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../callgraph.h"
#include "../event.h"
#include "../kmag.h"
#include "../symtab.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kmag_trace;

/*
 * Chrome's trace viewer cannot load a JSON file much past 256 MiB (its
 * string limit); the Perfetto UI runs out of memory somewhat later,
 * depending on the browser. The default split size stays below the first.
 */
#define KMAG_CHROME_SPLIT_DEFAULT (200ull << 20)
#define KMAG_CHROME_VIEWER_LIMIT (256ull << 20)

struct kmag_chrome_opts {
	/*
	 * Output file. Parts after the first are named by inserting ".N" before
	 * the extension ("calls.json", "calls.1.json", ...). NULL = write to
	 * @stream (never split).
	 */
	const char *path;
	FILE *stream;		/* used when path is NULL (e.g. stdout); borrowed */
	uint64_t split_bytes;	/* start a new part past this size; 0 = never split */
	const char *source;	/* input description for the files' metadata; borrowed */
};

struct kmag_chrome_stats {
	uint64_t calls;		/* complete-call ("X") events written */
	uint64_t incomplete;	/* of those, calls whose entry or exit is not in the trace */
	uint64_t instants;	/* other events and lost-event markers written */
	uint64_t bytes;		/* bytes written, all parts */
	unsigned parts;		/* files written */
	uint64_t largest_part;	/* bytes of the largest part */
};

struct kmag_chrome;

/*
 * Starts an export of @t's events (borrowed: names of functions and tasks).
 * Feed events in time order with kmag_chrome_event_fn(), then call
 * kmag_chrome_finish(). Returns NULL with @err set. Free with kmag_chrome_free().
 *
 * Each function_graph call becomes one complete ("X") event on the track of
 * its task, nested as the kernel ran it. Calls whose exit the trace lacks
 * end where the trace shows them gone; calls whose entry it lacks start
 * at exit time minus the kernel's duration. Both carry "incomplete" in
 * their args. Other events become instant events; lost events a global
 * instant marker.
 */
struct kmag_chrome *kmag_chrome_new(struct kmag_trace *t, const struct kmag_chrome_opts *o,
				    struct kmag_err *err);
/*
 * kmag_event_fn: @ctx is the struct kmag_chrome *. Returns -ENODATA (with the
 * error kept for kmag_chrome_error()) for function-tracer data or events
 * without timestamps, -EIO on write errors.
 */
int kmag_chrome_event_fn(const struct kmag_event *ev, void *ctx);
/* Ends the open calls, closes the JSON. Returns 0 or -errno with @err set. */
int kmag_chrome_finish(struct kmag_chrome *c, struct kmag_err *err);
/* The reason the last kmag_chrome_event_fn() failed; borrowed. */
const struct kmag_err *kmag_chrome_error(const struct kmag_chrome *c);
const struct kmag_chrome_stats *kmag_chrome_stats(const struct kmag_chrome *c);
/* Path of part @i (0-based) as written; borrowed, NULL past the last. */
const char *kmag_chrome_part_path(const struct kmag_chrome *c, unsigned i);
void kmag_chrome_free(struct kmag_chrome *c);

struct kmag_srclines;

struct kmag_perfetto_opts {
	const char *path;	/* output file; NULL = write to @stream */
	FILE *stream;		/* used when path is NULL (e.g. stdout); borrowed */
	const char *source;	/* input description for messages; borrowed */
	/* optional: call sites' source lines (kmag_srclines_open(), --vmlinux); borrowed */
	struct kmag_srclines *lines;
};

struct kmag_perfetto_stats {
	uint64_t calls;		/* slices written (one per call) */
	uint64_t incomplete;	/* of those, calls the trace does not show whole */
	uint64_t instants;	/* other events and lost-event markers written */
	uint64_t lost_markers;	/* of those, lost-event markers */
	uint64_t tracks;	/* thread tracks (tasks, idle per CPU) */
	uint64_t bytes;		/* bytes written */
};

struct kmag_perfetto;

/*
 * Starts a Perfetto export (protobuf TracePackets with TrackEvents, the
 * format of ui.perfetto.dev and trace_processor) of @t's events (borrowed:
 * names of functions and tasks, BTF). Feed events in time order with
 * kmag_perfetto_event_fn(), then call kmag_perfetto_finish(). Returns NULL
 * with @err set. Free with kmag_perfetto_free().
 *
 * Each function_graph call becomes one slice (begin and end) on the track
 * of its task, nested as the replay (replay.h) nests it, with its CPU,
 * interrupt context, arguments, call site, return value and errno as debug
 * annotations, and "incomplete" where the trace lacks its entry or exit or
 * lost events during it. Lost events become instants on a "lost events"
 * track, other events instants on their task's track. Memory stays flat
 * over the length of the trace (it grows with tasks, stack depth and
 * distinct names).
 */
struct kmag_perfetto *kmag_perfetto_new(struct kmag_trace *t, const struct kmag_perfetto_opts *o,
					struct kmag_err *err);
/*
 * kmag_event_fn: @ctx is the struct kmag_perfetto *. Returns -ENODATA (with
 * the error kept for kmag_perfetto_error()) for function-tracer data or
 * events without timestamps, -EIO on write errors.
 */
int kmag_perfetto_event_fn(const struct kmag_event *ev, void *ctx);
/* Ends the open calls and puts the file in place. Returns 0 or -errno with @err set. */
int kmag_perfetto_finish(struct kmag_perfetto *p, struct kmag_err *err);
/* The reason the last kmag_perfetto_event_fn() failed; borrowed. */
const struct kmag_err *kmag_perfetto_error(const struct kmag_perfetto *p);
const struct kmag_perfetto_stats *kmag_perfetto_stats(const struct kmag_perfetto *p);
/* Frees @p (accepts NULL); an output not finished is removed. */
void kmag_perfetto_free(struct kmag_perfetto *p);

struct kmag_srcloc;

/* What the pprof export writes; every pointer is borrowed. */
struct kmag_pprof_opts {
	const struct kmag_cg *cg;		/* finished; with its calling-context tree for stacks */
	const struct kmag_symtab *st;
	const struct kmag_trace_info *info;	/* kernel, tracer, time range, recordings */
	const char *source;			/* the input, for a comment */
	struct kmag_srcloc *loc;		/* optional: functions' files and lines (symbol map) */
	struct kmag_srclines *lines;		/* optional: the same from the vmlinux (--vmlinux) */
};

/*
 * Writes @o->cg as a gzipped pprof profile (perftools.profiles.Profile) to
 * @out: sample types calls/count and time/nanoseconds (self time), one
 * sample per distinct call stack of the calling-context tree, or, for a
 * graph without one (a profile of kmag merge or report --format json), one
 * per caller->callee edge (stacks one caller deep) plus one per function
 * for its calls without a traced caller; one location and function per
 * kernel function with its file and line where @o->loc or @o->lines know
 * them; the kmag version, kernel, tracer and recordings as comments, the
 * tracer and kernel release as labels of every sample. Returns 0, -ENOMEM
 * or -EIO.
 */
int kmag_pprof_write(FILE *out, const struct kmag_pprof_opts *o);

/* What the graph exports show; every pointer is borrowed. */
struct kmag_export {
	const struct kmag_cg *cg;
	const struct kmag_symtab *st;
	const char *input;		/* for the header / graph label */
	/* optional source locations (symbol map), may be NULL */
	const char *(*srcline)(void *ctx, kmag_func_t func);
	void *srcline_ctx;
	/* optional: functions to leave out (with their edges); NULL keeps all */
	bool (*visible)(void *ctx, kmag_func_t func);
	void *visible_ctx;
};

/* Every call edge as CSV with a header row. Returns 0 or -errno. */
int kmag_export_edges_csv(FILE *out, const struct kmag_export *x);
/*
 * The whole call graph as Graphviz DOT (written by libcgraph, so every name
 * is quoted as Graphviz expects), with the statistics as attributes
 * (kmag_calls, kmag_total_ns, ...). Returns 0 or -errno; -ENOTSUP in a build
 * without Graphviz (kmag_has_feature(KMAG_FEATURE_GRAPHVIZ)).
 */
int kmag_export_dot(FILE *out, const struct kmag_export *x);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_EXPORT_H */
