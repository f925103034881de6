/* SPDX-License-Identifier: MIT */
/*
 * durations.h - looking at function_graph calls by how long they took.
 *
 * kmag_mindur: an event filter that drops every call shorter than a minimum
 * duration, with its time - what the kernel's tracing_thresh does at record
 * time, here at view time (`report/visualize --min-duration`). A dropped
 * call vanishes from the counts, the times and the edges; the calls it made
 * are shorter still, so they vanish too. A call is kept (entry and exit)
 * when it lasted at least the minimum; its callers are kept with it, since
 * they lasted longer. Entries are held back per task until their exit
 * decides, so memory grows with the call depth only.
 *
 * kmag_slowest: the N longest calls, each with its call chain (the
 * functions open on its task's stack when it was entered), as the one
 * replay (replay.h) delivers them.
 */
#ifndef KMAG_DURATIONS_H
#define KMAG_DURATIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "event.h"
#include "replay.h"
#include "symtab.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kmag_trace;
struct kmag_mindur;
struct kmag_replay;

/*
 * A filter passing to @next (with @next_ctx) only the calls lasting at
 * least @min_ns; other events pass unchanged. Free with kmag_mindur_free().
 * NULL on ENOMEM.
 */
struct kmag_mindur *kmag_mindur_new(uint64_t min_ns, kmag_event_fn next, void *next_ctx);
void kmag_mindur_free(struct kmag_mindur *m);
/* kmag_event_fn: @ctx is the struct kmag_mindur *. */
int kmag_mindur_event_fn(const struct kmag_event *ev, void *ctx);
/* Calls dropped so far (completed and shorter than the minimum). */
uint64_t kmag_mindur_dropped(const struct kmag_mindur *m);
/* Calls handed on so far (long enough, or the callers of one). */
uint64_t kmag_mindur_passed(const struct kmag_mindur *m);
/*
 * The longest call seen so far, kept or not: its duration, and its function
 * in *@func (if non-NULL); KMAG_DURATION_NONE (and KMAG_FUNC_NONE) before
 * the first timed call. For "no call lasted that long: the longest took ...".
 */
uint64_t kmag_mindur_longest(const struct kmag_mindur *m, kmag_func_t *func);
/*
 * The one message when a minimum duration leaves no call, into @buf: "no
 * call in INPUT lasted 1.000 s or more (--min-duration): the longest,
 * flush_tlb_func, took 5.428 ms; give a shorter duration" (@longest_ns
 * KMAG_DURATION_NONE: the trace has no timed call; @func may be NULL).
 */
void kmag_mindur_explain(char *buf, size_t size, const char *input, uint64_t min_ns,
			 uint64_t longest_ns, const char *func);

/* Where a call was called from (funcgraph-retaddr): see struct kmag_call. */
struct kmag_slow_site {
	kmag_func_t caller;	/* KMAG_FUNC_NONE when not recorded */
	uint32_t caller_off;	/* KMAG_OFF_NONE when unknown */
};

struct kmag_slow_call {
	kmag_func_t func;
	uint64_t duration;	/* ns */
	uint64_t entry_ts;	/* ns, its start (struct kmag_call), KMAG_TS_NONE if unknown */
	int32_t pid, cpu;
	int32_t depth;
	const kmag_func_t *chain;	/* outermost caller first, ending with func */
	size_t nr_chain;
	bool chain_partial;	/* some callers' entries were not in the trace */
	/* the call as the replay delivered it: its call site (caller, caller_off),
	   arguments (nargs, args) and return value (has_retval, retval) where recorded */
	struct kmag_call call;
	/* per chain entry, the call site it was called from (caller
	   KMAG_FUNC_NONE when not recorded); nr_chain entries */
	const struct kmag_slow_site *chain_sites;
};

struct kmag_slowest;

/* Keeps the @n (>= 1) longest calls. Free with kmag_slowest_free(). NULL on ENOMEM. */
struct kmag_slowest *kmag_slowest_new(size_t n);
void kmag_slowest_free(struct kmag_slowest *s);
/*
 * Subscribes @s to the calls of @r (borrowed, must outlive the replay's
 * events), before the first event. 0 or -errno.
 */
int kmag_slowest_subscribe(struct kmag_slowest *s, struct kmag_replay *r);
/* Sorts the calls, longest first; call once after the replay finished. */
void kmag_slowest_finish(struct kmag_slowest *s);
size_t kmag_slowest_count(const struct kmag_slowest *s);
/* Borrowed, valid until kmag_slowest_free(). */
const struct kmag_slow_call *kmag_slowest_get(const struct kmag_slowest *s, size_t i);

/* Parses "250us", "1.5ms", "2s", "800ns" or a bare number of microseconds. 0 or -EINVAL. */
int kmag_duration_parse(const char *s, uint64_t *ns);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_DURATIONS_H */
