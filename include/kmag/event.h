/* SPDX-License-Identifier: MIT */
/*
 * event.h - the decoded-event model shared by every input format.
 *
 * Readers turn trace.dat records and ftrace text lines into struct kmag_event
 * and hand them, one at a time and in time order, to a callback. The struct is
 * borrowed for the duration of the callback only.
 */
#ifndef KMAG_EVENT_H
#define KMAG_EVENT_H

#include <stdint.h>
#include <stdbool.h>

#include "symtab.h"

#ifdef __cplusplus
extern "C" {
#endif

enum kmag_event_type {
	KMAG_EV_FUNC = 1,	/* function tracer: func called from parent */
	KMAG_EV_GRAPH_ENTRY,	/* function_graph: func entered at depth */
	KMAG_EV_GRAPH_EXIT,	/* function_graph: func returned at depth */
	KMAG_EV_LOST,		/* events were lost on cpu before this point */
	KMAG_EV_OTHER,		/* any other event (tracepoint, kprobe, ...) */
};

/*
 * Execution context, from the record's common_flags (or the flags column of
 * the kernel's latency-format text, "d.h1."; trace-cmd report -l).
 */
enum kmag_ctx_flags {
	KMAG_CTX_HARDIRQ = 1u << 0,	/* serving a hardware interrupt */
	KMAG_CTX_SOFTIRQ = 1u << 1,	/* serving a softirq */
	KMAG_CTX_NMI = 1u << 2,		/* serving a non-maskable interrupt */
	KMAG_CTX_IRQS_OFF = 1u << 3,	/* interrupts were disabled ("d") */
	KMAG_CTX_KNOWN = 1u << 7,	/* the input carried context flags at all */
};

#define KMAG_TS_NONE UINT64_MAX		/* the input has no timestamp for this event */
#define KMAG_LOST_UNKNOWN UINT64_MAX	/* events were lost, the count is unknown */
#define KMAG_DURATION_NONE UINT64_MAX
#define KMAG_OFF_NONE UINT32_MAX	/* a call site's offset is not known */
/* Arguments a record can carry: the kernel's FTRACE_REGS_MAX_ARGS (6 on x86-64, arm64). */
#define KMAG_MAX_ARGS 6

struct kmag_event {
	uint8_t type;		/* enum kmag_event_type */
	uint8_t ctx;		/* enum kmag_ctx_flags */
	uint16_t repeat;	/* FUNC: calls this record stands for (func_repeats), >= 1 */
	int32_t cpu;		/* CPU the event was recorded on, -1 if unknown */
	int32_t pid;		/* task id; -1 if the input does not say */
	int32_t depth;		/* GRAPH_*: call depth (0 = outermost), -1 if unknown */
	uint64_t ts;		/* ns since the trace clock's epoch, or KMAG_TS_NONE */

	kmag_func_t func;	/* FUNC/GRAPH_*: the function */
	/*
	 * FUNC: its caller. GRAPH_ENTRY: the call site when the trace has it
	 * (funcgraph-retaddr, Linux 6.13+: fgraph_retaddr_entry records, or
	 * "<-caller+0x1f/0x80" in text). Otherwise KMAG_FUNC_NONE.
	 */
	kmag_func_t parent;
	uint64_t ip;		/* raw address of func, 0 for text input */
	uint64_t parent_ip;	/* raw return address into parent, 0 for text input */
	uint32_t parent_off;	/* GRAPH_ENTRY: that address's offset into parent, or KMAG_OFF_NONE */

	/*
	 * FUNC/GRAPH_ENTRY: the function's first arguments as the kernel saved
	 * them (funcgraph-args, func-args; Linux 6.15+, CONFIG_FUNCTION_TRACE_ARGS):
	 * register values, a struct passed by value taking several. The names
	 * are the trace's (kmag_trace_arg_names()).
	 */
	uint8_t nargs;		/* 0: not recorded */
	uint64_t args[KMAG_MAX_ARGS];

	/* GRAPH_EXIT only */
	uint64_t duration;	/* rettime - calltime in ns, or KMAG_DURATION_NONE */
	/*
	 * The kernel's calltime (trace.dat), else the timestamp less the
	 * duration (text), else KMAG_TS_NONE. The kernel stamps calltime and
	 * rettime with trace_clock_local(), not with the trace clock of @ts:
	 * the two can differ by milliseconds, so the replay takes a call's
	 * start from its entry's @ts and only its duration from these.
	 */
	uint64_t calltime;
	int64_t retval;		/* valid when has_retval */
	bool has_retval;

	/* LOST only */
	uint64_t lost;		/* number of events lost, or KMAG_LOST_UNKNOWN */

	/* OTHER only */
	uint16_t event_id;	/* common_type of the record, 0 for text */
	const char *event_name;	/* "sched_switch"; borrowed, lives as long as the trace */
	const char *event_system;	/* "sched"; borrowed, may be NULL for text */
	const void *raw;	/* record payload (starts at common_type), NULL for text */
	uint32_t raw_size;	/* bytes at raw */

	/*
	 * LOST only (last, so the fields above keep their places): the events
	 * are missing because the reader skipped damaged data there
	 * (kmag_trace_damage()), not because the recorder lost them; the
	 * trace's lost counts leave them out.
	 */
	bool damage;
};

/*
 * Receives one event. Return 0 to continue, a positive value to stop reading
 * early (the reader then returns that value), or -errno to abort with an error.
 */
typedef int (*kmag_event_fn)(const struct kmag_event *ev, void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_EVENT_H */
