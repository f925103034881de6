/* SPDX-License-Identifier: MIT */
/*
 * render/calltree.h - `kmag replay`: every call of a trace in time order, as the
 * kernel's function_graph text prints it ("f() {", "g();", "} /" "* f *" "/"
 * with durations, task and CPU columns), or one JSON object per call; for a
 * function-tracer trace, the calls in order with their callers.
 *
 * A subscriber of the one function_graph replay (replay.h): it keeps no
 * stack of its own and holds no lines back beyond the calls still open, so
 * output starts with the first events and memory stays flat on any trace.
 * A call's line appears when its first shown child does ("f() {") or when
 * it returns ("f();" with its duration); with --min-duration, --errors or
 * --errno, a call's callers' lines appear when it returns and qualifies.
 */
#ifndef KMAG_CALLTREE_H
#define KMAG_CALLTREE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../event.h"
#include "../kmag.h"
#include "../trace.h"

#ifdef __cplusplus
extern "C" {
#endif

enum kmag_calltree_format {
	KMAG_CALLTREE_TEXT = 0,	/* function_graph text with task and CPU columns */
	KMAG_CALLTREE_JSON,	/* JSON Lines: one object per call, when it returns */
};

struct kmag_srclines;

struct kmag_calltree_opts {
	enum kmag_calltree_format format;
	bool colour;			/* text: ANSI colours (duration heat, errors red) */
	const char *function;		/* only calls of this function (a glob) and the calls
					   they make; NULL: every call. Borrowed. */
	uint32_t max_depth;		/* levels shown below the outermost shown call; 0: all */
	uint64_t limit;			/* stop after this many calls shown; 0: no limit */
	uint64_t min_duration_ns;	/* only calls at least this long, with their callers */
	bool errors;			/* only calls returning -errno, with their callers */
	int errnum;			/* positive: only calls returning -errnum (as the kernel
					   prints it: kmag_call_errno()), with their callers */
	const char *source;		/* the input's name, for messages; borrowed */
	struct kmag_srclines *lines;	/* call sites to source lines (--vmlinux), or NULL;
					   borrowed, must outlive the calltree */
	/* The tracer's cost per traced call (kmag_session_tracer_cost()), 0: none. The
	   lines keep the kernel's durations; JSON adds the corrected ones. */
	uint64_t tracer_cost_ns;
};

struct kmag_calltree_stats {
	uint64_t calls;			/* calls (or function-tracer records) seen */
	uint64_t shown;			/* calls shown */
	uint64_t lines;			/* lines written */
	bool function_seen;		/* opts.function matched some call */
	bool limited;			/* stopped at opts.limit: another call was to be shown */
	uint64_t next_ns;		/* when limited: the start of the call not shown (the
					   time --time START, continues from), or KMAG_TS_NONE */
	const char *stopped_in;		/* when limited: the printed calls still open on its
					   task, outermost first ("ksys_read > vfs_read"), or "";
					   borrowed from the calltree */
	uint64_t longest_ns;		/* the longest call seen, shown or not; KMAG_DURATION_NONE */
	kmag_func_t longest_func;	/* and its function (for "no call lasted DUR") */
};

/* kmag_calltree_event_fn() returns this (positive: the reader stops) once opts.limit is met. */
#define KMAG_CALLTREE_STOP 1

struct kmag_calltree;

/*
 * A printer of @t's calls to @out (both borrowed; they must outlive it).
 * Feed events in time order with kmag_calltree_event_fn(), then call
 * kmag_calltree_finish(). Returns NULL with @err set. Free with
 * kmag_calltree_free().
 */
struct kmag_calltree *kmag_calltree_new(struct kmag_trace *t, FILE *out,
					const struct kmag_calltree_opts *o, struct kmag_err *err);
/*
 * kmag_event_fn: @ctx is the struct kmag_calltree *. Returns 0,
 * KMAG_CALLTREE_STOP at the limit, or -errno with the reason kept for
 * kmag_calltree_error(): -ENODATA for opts.errors on a trace without return
 * values, or for opts.errors, min_duration_ns or max_depth on a
 * function-tracer trace (no durations, stacks or return values); -EIO when
 * writing failed.
 */
int kmag_calltree_event_fn(const struct kmag_event *ev, void *ctx);
/*
 * Ends the calls still open (unless stopped at the limit; then, in text, a
 * line marks where and says how to see more) and flushes. 0 or -errno, @err set.
 */
int kmag_calltree_finish(struct kmag_calltree *c, struct kmag_err *err);
/* Why the last kmag_calltree_event_fn() failed; borrowed. */
const struct kmag_err *kmag_calltree_error(const struct kmag_calltree *c);
const struct kmag_calltree_stats *kmag_calltree_stats(const struct kmag_calltree *c);
/*
 * When opts.function matched no call: the functions the trace called that
 * look like it (kmag_suggest()), as "a, b" in @buf. Returns how many.
 */
size_t kmag_calltree_suggest(const struct kmag_calltree *c, char *buf, size_t size);
/* Accepts NULL. */
void kmag_calltree_free(struct kmag_calltree *c);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_CALLTREE_H */
