/* SPDX-License-Identifier: MIT */
/*
 * replay.h - the one function_graph replay: entry and exit events turned
 * into calls.
 *
 * Every view of a function_graph trace (the call graph and its calling-
 * context tree, report, the slowest calls, flame graphs, the Chrome export,
 * focused pictures, per-call views) subscribes to this engine instead of
 * keeping its own stacks, so they all see the same calls:
 *
 *   - one stack per task, keyed by kmag_task_key(): the task id, except for
 *     the idle task (pid 0), which runs on every CPU with a stack per CPU,
 *     and events without a task id, which get one stack per CPU too;
 *   - the depth field, not only the order of events, places a call, so lost
 *     records cannot shift the rest of a stack: an entry at depth d ends the
 *     open calls at depth >= d (their exits were lost: NO_EXIT) and, when
 *     levels below d are missing (the trace started mid-call, records were
 *     lost), opens placeholder calls for them whose function is unknown until
 *     their exit names them (NO_ENTRY);
 *   - an exit at depth d ends the calls above d (NO_EXIT) and completes the
 *     call at d; an exit with no call open at its depth is a call whose entry
 *     the trace does not have (NO_ENTRY), its parent being the call open at
 *     d - 1, or a placeholder opened there as for an entry;
 *   - lost events on a CPU mark every call open on a task last seen there
 *     (LOST); the end of the trace ends every open call (NO_EXIT);
 *   - an interrupt that came while the kernel was between a call's depth
 *     and its record is nested into that call, as it ran (fgraph.c keeps
 *     the depth in current->curr_ret_depth apart from the records; verified
 *     in Linux 6.1 and 6.19):
 *       . return window (Linux 6.1: ftrace_pop_return_trace() decrements
 *         the depth before the exit is written and rettime stamped; 6.19
 *         decrements it after): the interrupt's calls come at the depth of
 *         the call still open there. An entry at the depth of the open call, in a
 *         context more interrupted than the task's last event (a hardirq,
 *         softirq or NMI bit it did not have, or the same bits with
 *         interrupts now off), is such an interrupt: its calls are nested
 *         one level deeper, into the open call, until the task's events
 *         return to that depth in a context no more interrupted (the call's
 *         exit). The call is one call; its duration (the kernel's) covers
 *         the interrupt.
 *       . entry window (6.1 and 6.19: function_graph_enter() counts the
 *         depth before the entry is written; in 6.19 also an interrupt just
 *         after an exit is written, before the depth is uncounted): the
 *         interrupt's calls come one level too deep, below a level whose
 *         entry comes after them. An
 *         entry two levels below the top of the stack, in a more interrupted
 *         context, is held back (up to 8192 events of that task) until the
 *         task returns to the missing level: if that is an entry there, the
 *         call opens first and the interrupt is replayed inside it (its
 *         calltime was stamped before the interrupt in 15 of the 18 such
 *         windows of the fixtures, so its duration covers it); if the
 *         open call returns instead, no call was at that level (6.19
 *         writes an exit before it uncounts the depth) and the interrupt
 *         is the open call's; otherwise (another task runs there) the held
 *         events are replayed as they came (a placeholder).
 *       . tail window (6.19: rettime is stamped before the exit is written,
 *         the depth uncounted after it): the interrupt's calls come one
 *         level below the call, as its own calls would. An entry there in
 *         a more interrupted context whose call site is another function's
 *         (without call sites: with a hardirq, softirq or NMI bit the task
 *         did not have) is held until the call makes another call (the
 *         interrupt was inside it) or returns: inside it if its duration
 *         holds the interrupt's calls and its own, else the call ends where
 *         the interrupt began and the interrupt follows it (15 of 69 timer
 *         interrupts of a 6.19 VM trace of dd).
 *     Neither is done across lost events (a call open when events were lost
 *     on its CPU, a hold when they are lost there) or without context flags
 *     (text without the latency-format flags column): then the depths are
 *     taken as they are, as below;
 *   - times are on the trace clock (the ring buffer's timestamps, which
 *     trace-cmd, the kernel's trace file and --time use). A call starts at
 *     its entry's timestamp (an entry-window call: at the interrupt's first
 *     event); its duration is the kernel's (rettime - calltime, its own
 *     clock), else the difference of its entry and exit timestamps; it ends
 *     at start + duration. Without its entry, it starts at its exit's
 *     timestamp less its duration (or, earlier, at its first call's start)
 *     and ends at its exit (start_src says which); calls ended without
 *     their exit have no duration and end when found gone. Self time is
 *     the duration less the durations of the calls it made; a call without
 *     a duration passes its calls' time on to the call around it (they ran
 *     inside that call's duration);
 *   - with the tracer's cost per traced call (kmag_replay_set_cost(), as
 *     kmag record measures it), a call's duration is the kernel's less that
 *     cost for every traced call beneath it, never below zero: so its self
 *     time loses the cost of its direct calls' entries and exits, and sums
 *     over calls (the call graph, flame graphs, slowest calls, errors) see
 *     the time the code took without the tracer. kernel_ns keeps the
 *     kernel's own duration; start, end and slices stay on it. The two clocks
 *     disagree (a VM's by milliseconds), so a call's start + duration can
 *     pass its caller's end: a timeline takes its slices from
 *     kmag_replay_slice(), the one place where calls are nested for display.
 *
 * Memory grows with the number of tasks and their stack depth (and the
 * events held in an entry window, bounded), never with the trace length.
 */
#ifndef KMAG_REPLAY_H
#define KMAG_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "symtab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The one key of a task's stack (see above). */
static inline uint64_t kmag_task_key(int32_t pid, int32_t cpu)
{
	if (pid > 0)
		return (uint32_t)pid;
	return 1ull << 32 | (uint64_t)(pid < 0) << 33 | (uint32_t)(cpu + 1);
}

enum kmag_call_flags {
	KMAG_CALL_NO_ENTRY = 1u << 0,	/* entry not in the trace */
	KMAG_CALL_NO_EXIT = 1u << 1,	/* exit not in the trace: ended when found gone */
	KMAG_CALL_LOST = 1u << 2,	/* events were lost while it was open */
	KMAG_CALL_RECURSIVE = 1u << 3,	/* an outer open call runs the same function */
};
/* A call the trace does not show whole. */
#define KMAG_CALL_INCOMPLETE (KMAG_CALL_NO_ENTRY | KMAG_CALL_NO_EXIT | KMAG_CALL_LOST)

/* Where a call's start_ns came from. */
enum kmag_call_start {
	KMAG_START_ENTRY = 0,	/* its entry's timestamp */
	KMAG_START_IRQ,		/* the first event of an interrupt in its entry window */
	KMAG_START_EXIT,	/* no entry: its exit's timestamp less its duration */
	KMAG_START_CALLS,	/* no entry: when the first call it made began (its slice) */
	KMAG_START_NONE,	/* unknown (start_ns is KMAG_TS_NONE) */
};

/* "entry", "interrupt", "exit", "calls" (as JSON writes them), NULL for KMAG_START_NONE. */
static inline const char *kmag_call_start_name(uint8_t start_src)
{
	static const char *const names[] = { "entry", "interrupt", "exit", "calls" };

	return start_src < KMAG_START_NONE ? names[start_src] : NULL;
}

struct kmag_call {
	kmag_func_t func;	/* KMAG_FUNC_NONE: a placeholder no exit has named (yet) */
	int32_t pid;		/* task id (0 = idle task of @cpu), -1 when the input has none */
	int32_t cpu;		/* CPU of the entry (of the exit when the entry is missing) */
	int32_t depth;		/* 0 = outermost traced call; the kernel's depth, one more
				   for an interrupt nested into the call it came in after */
	uint64_t start_ns;	/* trace clock, see start_src; KMAG_TS_NONE when unknown */
	uint64_t end_ns;	/* start + duration; without an entry, or without a
				   duration, exit_ns; KMAG_TS_NONE while open or unknown */
	uint64_t exit_ns;	/* its exit's timestamp (where trace-cmd and the kernel's
				   text print its closing line); NO_EXIT: when it was found
				   gone; KMAG_TS_NONE while open or when the input has no time */
	uint64_t duration;	/* ns, KMAG_DURATION_NONE when unknown (NO_EXIT); less the
				   tracer's cost when the replay has one (see kernel_ns) */
	uint64_t child_ns;	/* sum of the durations of the calls it made (one
				   without a duration adds its own child_ns) */
	uint64_t id;		/* 1, 2, ... in the order calls were opened */
	uint64_t parent_id;	/* id of the calling call, 0 when the trace has none */
	int64_t retval;		/* valid when has_retval */
	/* the call site when recorded (funcgraph-retaddr, Linux 6.13+) */
	kmag_func_t caller;	/* the function it returns into, KMAG_FUNC_NONE when not recorded */
	uint32_t caller_off;	/* the return address's offset there, KMAG_OFF_NONE when unknown */
	uint64_t call_site;	/* the return address, 0 when unknown (text input) */
	/* its arguments when recorded (funcgraph-args, Linux 6.15+; see kmag_event) */
	uint64_t args[KMAG_MAX_ARGS];
	uint8_t nargs;
	uint8_t ctx;		/* enum kmag_ctx_flags of the entry (of the exit when missing) */
	uint8_t flags;		/* enum kmag_call_flags */
	uint8_t has_retval;
	uint8_t start_src;	/* enum kmag_call_start */
	/*
	 * The kernel's duration (@duration before the tracer's cost was taken
	 * off: kmag_replay_set_cost()), KMAG_DURATION_NONE when unknown; and
	 * the traced calls it made, at every level below it (placeholders
	 * never named are not counted: the kernel did not trace them); and the
	 * sum of the kernel's durations of the calls it made.
	 */
	uint64_t kernel_ns;
	uint64_t kernel_child_ns;
	uint64_t traced_beneath;
};

/* Self time of a timed call: its duration less that of the calls it made. */
static inline uint64_t kmag_call_self(const struct kmag_call *c)
{
	return c->duration > c->child_ns ? c->duration - c->child_ns : 0;
}

/*
 * The error code a call returned, or 0: as the kernel's funcgraph-retval
 * reads it (print_graph_retval()), a value in [-4095, -1], or a 32-bit
 * negative value with the upper half of the register clear (an int
 * function's error).
 */
static inline int64_t kmag_call_errno(int64_t retval)
{
	uint64_t v = (uint64_t)retval;
	int64_t e = (v & 0x80000000u) && !(v >> 32) ? (int64_t)(int32_t)(uint32_t)v : retval;

	return e < 0 && e >= -4095 ? e : 0;
}

/*
 * For a subscriber that sees only the calls made under one function (one
 * subtree, the calls kmag_cg_new_scoped() counts): whether @call is a call
 * of @root or runs under one, @parent_under being the answer for its caller
 * (false without one). Every call is, for @root KMAG_FUNC_NONE. Decided when
 * a call opens: a call whose entry the trace lacks (named only at its exit)
 * is under @root once named so, the calls it made before are not.
 */
static inline bool kmag_call_under(kmag_func_t root, const struct kmag_call *call,
				   bool parent_under)
{
	return root == KMAG_FUNC_NONE || parent_under || call->func == root;
}

/*
 * A subscriber. Each hook may be NULL; each returns 0 or -errno to stop the
 * replay. @data is the subscriber's own @data_size bytes kept with each open
 * call (zeroed when the call opens), @parent/@parent_data the calling call's
 * (NULL at the bottom of a stack). Calls and data are borrowed for the hook.
 */
struct kmag_replay_ops {
	size_t data_size;
	/* A call opened: its entry, a placeholder (func NONE), or an exit without entry. */
	int (*enter)(void *ctx, const struct kmag_call *call, void *data,
		     const struct kmag_call *parent, void *parent_data);
	/* A placeholder's exit named its function (call->func is now set). */
	int (*named)(void *ctx, const struct kmag_call *call, void *data,
		     const struct kmag_call *parent, void *parent_data);
	/* A call ended, whole or not (see flags). Children always leave before parents. */
	int (*leave)(void *ctx, const struct kmag_call *call, void *data,
		     const struct kmag_call *parent, void *parent_data);
	/* Every event that is not a function_graph entry or exit (function tracer, lost, other). */
	int (*event)(void *ctx, const struct kmag_event *ev);
};

/* Totals of one replay. */
struct kmag_replay_stats {
	uint64_t graph_events;		/* function_graph entries and exits fed */
	uint64_t calls;			/* calls opened (placeholders named later included) */
	uint64_t unmatched_exits;	/* exits whose entry was never seen */
	uint64_t unfinished_entries;	/* calls ended without their exit */
	uint64_t tasks;			/* distinct stacks */
};

struct kmag_replay;

/* A new replay with no subscribers; free with kmag_replay_free(). NULL on ENOMEM. */
struct kmag_replay *kmag_replay_new(void);
/* Frees @r (accepts NULL). Calls still open are dropped without a leave: finish first. */
void kmag_replay_free(struct kmag_replay *r);
/*
 * Adds a subscriber (@ops is borrowed and must outlive @r) before the first
 * event. Subscribers' hooks run in the order they subscribed. 0, -ENOMEM, or
 * -EBUSY once events were fed.
 */
int kmag_replay_subscribe(struct kmag_replay *r, const struct kmag_replay_ops *ops, void *ctx);

/*
 * Takes @ns off each call's duration for every traced call beneath it (the
 * tracer's cost per traced call; 0: none, the default), before the first
 * event. 0 or -EBUSY once events were fed.
 */
int kmag_replay_set_cost(struct kmag_replay *r, uint64_t ns);

/* Feeds one event; events must come in time order per task. 0 or the first error. */
int kmag_replay_add(struct kmag_replay *r, const struct kmag_event *ev);
/* kmag_event_fn adapter: @ctx is the struct kmag_replay *. */
int kmag_replay_event_fn(const struct kmag_event *ev, void *ctx);
/*
 * Ends every open call (NO_EXIT) at @end_ns (KMAG_TS_NONE: the last time its
 * task was seen), innermost first. Call once after the last event.
 */
int kmag_replay_finish(struct kmag_replay *r, uint64_t end_ns);

/* What the replay counted so far (events, calls, unmatched exits, tasks); borrowed, valid until free. */
const struct kmag_replay_stats *kmag_replay_stats(const struct kmag_replay *r);

/*
 * During a hook: the calls open on the current task's stack, outermost first
 * (index 0); the call being delivered is not among them once it leaves. In
 * an event hook the current task is the event's (pid and CPU as the calls'
 * tasks, kmag_task_key()), with none open when it made no calls. Borrowed,
 * valid for the hook only.
 */
size_t kmag_replay_nr_open(const struct kmag_replay *r);
const struct kmag_call *kmag_replay_open(const struct kmag_replay *r, size_t i);
/* The data of the subscriber that subscribed with @ops on open call @i, or NULL. */
void *kmag_replay_open_data(const struct kmag_replay *r, size_t i,
			    const struct kmag_replay_ops *ops);

/*
 * During a leave hook, the slice of @call (the hook's own pointer) on a
 * timeline: [start, end] moved later and widened just enough that slices
 * nest, for views that draw calls as intervals (the Chrome and Perfetto
 * exports). During its enter hook, where the slice of a call with its entry
 * starts (it does not move later), *end KMAG_TS_NONE: a writer that streams
 * begins and ends can begin it there. A call starts no earlier than its caller's slice and its
 * previous sibling's (on its task: the previous outermost call's), and no
 * later than the first call it made; it ends no earlier than its start and
 * the calls it made. Moved later, a call seen whole keeps its length, one
 * without its entry is cut (its duration may cover levels the trace lost),
 * but a slice lasts at least 1 ns. Where the clocks agree the slice is
 * [start_ns, end_ns]. Both KMAG_TS_NONE when the input has no time.
 */
void kmag_replay_slice(const struct kmag_call *call, uint64_t *start, uint64_t *end);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_REPLAY_H */
