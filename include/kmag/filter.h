/* SPDX-License-Identifier: MIT */
/*
 * filter.h - event predicates applied between a reader and a consumer:
 * task ids, command names, CPUs, and a time window.
 */
#ifndef KMAG_FILTER_H
#define KMAG_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmag.h"
#include "event.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kmag_trace;
struct kmag_filter;

/* Returns a new filter that passes everything; free with kmag_filter_free(). */
struct kmag_filter *kmag_filter_new(void);
void kmag_filter_free(struct kmag_filter *f);

/*
 * Adds criteria from user syntax. Each returns 0 or -errno with @err set.
 * Several calls of one kind accumulate (any may match); different kinds must
 * all match.
 *   pids:  "123,456"
 *   comms: "bash,kworker*" (globs)
 *   cpus:  "0-3,8"
 *   time:  "START,END" in seconds relative to the first event; either side may
 *          be empty ("1.5," = from 1.5 s to the end)
 */
int kmag_filter_add_pids(struct kmag_filter *f, const char *spec, struct kmag_err *err);
/*
 * Parses a pid list ("123,456"), the one syntax of --pid in every command,
 * calling @add for each (0, or nonzero on ENOMEM). 0 or -errno with @err set.
 */
int kmag_pid_list_parse(const char *spec, int (*add)(void *ctx, int32_t pid), void *ctx,
			struct kmag_err *err);
int kmag_filter_add_comms(struct kmag_filter *f, const char *spec, struct kmag_err *err);
int kmag_filter_add_cpus(struct kmag_filter *f, const char *spec, struct kmag_err *err);
int kmag_filter_set_time(struct kmag_filter *f, const char *spec, struct kmag_err *err);

/* True when no criterion was added. */
bool kmag_filter_is_empty(const struct kmag_filter *f);
/* A one-line description of the criteria ("pid 12,13; cpu 0-1"); borrowed. */
const char *kmag_filter_describe(struct kmag_filter *f);

/*
 * Binds the filter to a trace (for command names and the time origin) and to
 * the consumer that receives matching events. LOST events pass (when their
 * CPU passes) so consumers can mark gaps; with a time window, those in it
 * (a LOST marker's time is the page where the loss was noticed).
 */
void kmag_filter_bind(struct kmag_filter *f, struct kmag_trace *t, kmag_event_fn next, void *next_ctx);
/* kmag_event_fn adapter: @ctx is the bound struct kmag_filter *. */
int kmag_filter_event_fn(const struct kmag_event *ev, void *ctx);
#define KMAG_FILTER_TOP_TASKS 5

/* What a bound filter saw through kmag_filter_event_fn() (LOST markers not counted). */
struct kmag_filter_stats {
	uint64_t seen;		/* events offered */
	uint64_t passed;	/* events that matched */
	size_t tasks;		/* distinct task ids among the events offered */
	size_t nr_top;		/* entries in the two arrays below */
	int32_t top_pids[KMAG_FILTER_TOP_TASKS];	/* the busiest tasks, most events first */
	uint64_t top_events[KMAG_FILTER_TOP_TASKS];
};

/* Fills @st from the events seen so far. */
void kmag_filter_stats(const struct kmag_filter *f, struct kmag_filter_stats *st);

/*
 * The time window, resolved now as kmag_filter_match() would resolve it at
 * the first of the events that reach it, given @firsts: each CPU's first
 * event (any order; the earliest on the filter's CPUs counts, for a window
 * relative to the first event). True with the window's bounds in *@from,
 * *@to (ns, both included); false when the filter has no time window. For a
 * reader that seeks to the window (kmag_trace_set_window()).
 */
bool kmag_filter_time_window(struct kmag_filter *f, const struct kmag_event *firsts, size_t n,
			     uint64_t *from, uint64_t *to);

/* Tests one event without forwarding it. */
bool kmag_filter_match(struct kmag_filter *f, const struct kmag_event *ev);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_FILTER_H */
