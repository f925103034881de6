/* SPDX-License-Identifier: MIT */
/*
 * calls.h - function_graph events replayed into individual calls, each with
 * its task, depth, start and end time, as they complete. Memory grows with
 * the number of tasks and their stack depth, never with the trace length.
 * Used by exports that show every call on a timeline (Chrome trace events).
 */
#ifndef KMAG_CALLS_H
#define KMAG_CALLS_H

#include <stdint.h>

#include "event.h"
#include "symtab.h"

#ifdef __cplusplus
extern "C" {
#endif

enum kmag_call_flags {
	KMAG_CALL_NO_ENTRY = 1u << 0,	/* entry not in the trace: start = end - duration */
	KMAG_CALL_NO_EXIT = 1u << 1,	/* exit not in the trace: end = when it was seen gone */
};

struct kmag_call {
	kmag_func_t func;
	int32_t pid;		/* task id (0 = idle task of @cpu), -1 when the input has none */
	int32_t cpu;		/* CPU of the entry (of the exit when the entry is missing) */
	int32_t depth;		/* 0 = outermost traced call */
	uint64_t start_ns;	/* entry timestamp */
	uint64_t end_ns;	/* exit timestamp, >= start_ns */
	uint8_t ctx;		/* enum kmag_ctx_flags of the entry */
	uint8_t flags;		/* enum kmag_call_flags */
};

/* Receives one completed call (borrowed for the call). Return 0 or -errno to stop. */
typedef int (*kmag_call_fn)(const struct kmag_call *call, void *ctx);

struct kmag_calls;

/* Returns a new replayer delivering calls to @fn; free with kmag_calls_free(). */
struct kmag_calls *kmag_calls_new(kmag_call_fn fn, void *ctx);
void kmag_calls_free(struct kmag_calls *r);

/*
 * Feeds one event (others than GRAPH_ENTRY/GRAPH_EXIT are ignored). Events
 * must come in time order per task and carry timestamps. Returns 0, the
 * callback's error, -ENOMEM, or -ENODATA for a function_graph event without
 * a timestamp.
 */
int kmag_calls_add(struct kmag_calls *r, const struct kmag_event *ev);
/* Ends every open call at @end_ns (flagged NO_EXIT). Returns 0 or the callback's error. */
int kmag_calls_finish(struct kmag_calls *r, uint64_t end_ns);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_CALLS_H */
