/* SPDX-License-Identifier: MIT */
/*
 * replay-internal.h - the one function_graph replay's state, shared by
 * replay.c (the replay), replay-window.c (interrupts in a call's windows)
 * and replay-api.c (its life cycle, what hooks ask).
 */
#ifndef KMAG_REPLAY_INTERNAL_H
#define KMAG_REPLAY_INTERNAL_H

#include "internal.h"
#include "kmag/replay.h"
#include "util/u64map.h"

#define MAX_SUBSCRIBERS 8
#define MAX_HELD 8192		/* events held back for an interrupt's window, per task */
#define MAX_HOLDING 8		/* tasks holding at once (more: replayed as they come) */
#define IRQ_CTX (KMAG_CTX_HARDIRQ | KMAG_CTX_SOFTIRQ | KMAG_CTX_NMI)

enum {
	FR_PLACEHOLDER = 1u << 0,
	FR_LEFT = 1u << 1,		/* its leave hooks run: tl_lo, tl_hi are its slice */
};

/*
 * A call on a task's stack. The tl_* fields make its slice on a timeline
 * (kmag_replay_slice()): the kernel's durations and the ring buffer's
 * timestamps come from different clocks (and, across CPUs, clocks), and a
 * burst of events can carry one timestamp, so start + duration of the calls
 * need not nest; the slices do, moving a call later rather than shortening it.
 */
struct frame {
	struct kmag_call call;
	uint64_t active;	/* bloom set of the functions of this frame and all below */
	uint64_t tl_lo;		/* open: earliest start inside its caller, after its previous
				   sibling, and (with its entry) its slice's start; once
				   left: its slice's start */
	uint64_t tl_hi;		/* open: latest end of its calls' slices, 0 = none; once
				   left: its slice's end */
	uint64_t tl_first;	/* slice start of the first call it made, UINT64_MAX = none */
	uint32_t flags;
	/* then each subscriber's data, at its offset */
};

/* An interrupt in a window of a call (see replay.h), whose events the task holds back. */
enum window {
	WIN_NONE,
	WIN_RETURN,	/* at the depth of the open call, until its exit */
	WIN_ENTRY,	/* two levels below the open call, until the missing level's call ends */
	WIN_TAIL,	/* one level below the open call, until it makes another call or returns */
};

struct task {
	char *frames;		/* nr frames of r->stride bytes */
	uint32_t nr, cap;
	uint64_t root_tl_end;	/* slice end of the last outermost call */
	int32_t last_cpu;
	uint64_t last_ts;
	uint8_t last_ctx;	/* context of its last function_graph event */
	uint8_t win;		/* enum window */
	uint8_t win_ctx;	/* the context the interrupt came into */
	int32_t win_depth;	/* RETURN, TAIL: the open call's depth; ENTRY: the missing level's */
	uint32_t win_call;	/* ENTRY: index in held[] of the missing level's entry, 0 = none */
	struct kmag_event *held;	/* the interrupt's events (ENTRY: and then the call's) */
	uint32_t nr_held, cap_held;
};

typedef int (*call_hook)(void *ctx, const struct kmag_call *call, void *data,
			 const struct kmag_call *parent, void *parent_data);

enum hook { HOOK_ENTER, HOOK_NAMED, HOOK_LEAVE, NR_HOOKS };

/* One subscriber's hook of one kind, with where its data sits in a frame. */
struct bound_hook {
	call_hook fn;
	void *ctx;
	size_t offset;
};

struct subscriber {
	const struct kmag_replay_ops *ops;
	void *ctx;
	size_t offset;		/* of its data in a frame */
};

struct kmag_replay {
	struct subscriber subs[MAX_SUBSCRIBERS];
	size_t nr_subs;
	/* per kind, only the hooks that exist: the hot path calls no NULL check */
	struct bound_hook hooks[NR_HOOKS][MAX_SUBSCRIBERS];
	size_t nr_hooks[NR_HOOKS];
	size_t stride;		/* bytes per frame */
	struct task *tasks;
	size_t nr_tasks, cap_tasks;
	struct u64map task_index;	/* kmag_task_key() -> task */
	uint64_t last_key;
	struct task *cur;		/* the task being replayed */
	uint32_t holding[MAX_HOLDING];	/* tasks (indexes) holding an interrupt's window */
	size_t nr_holding;
	uint64_t next_id;
	uint64_t cost_ns;		/* the tracer's cost per traced call, subtracted; 0: none */
	bool started;
	struct kmag_replay_stats st;
};

static inline struct frame *frame_at(const struct kmag_replay *r, const struct task *t, size_t i)
{
	return (struct frame *)(t->frames + i * r->stride);
}

static inline struct frame *top(const struct kmag_replay *r, const struct task *t)
{
	return t->nr ? frame_at(r, t, t->nr - 1) : NULL;
}

/* Calls @hook of every subscriber for @f, whose parent is @p (may be NULL). */
static inline int deliver(struct kmag_replay *r, enum hook hook, struct frame *f, struct frame *p)
{
	const struct bound_hook *b = r->hooks[hook];
	size_t i, n = r->nr_hooks[hook];
	int ret;

	/* one view of calls (report's graph): a tail call, no loop */
	if (n == 1)
		return b->fn(b->ctx, &f->call, (char *)f + b->offset, p ? &p->call : NULL,
			     p ? (char *)p + b->offset : NULL);
	for (i = 0; i < n; i++) {
		ret = b[i].fn(b[i].ctx, &f->call, (char *)f + b[i].offset, p ? &p->call : NULL,
			      p ? (char *)p + b[i].offset : NULL);
		if (unlikely(ret))
			return ret;
	}
	return 0;
}

/*
 * @now is in a more interrupted context than @before: an interrupt, NMI or
 * softirq bit @before did not have (keeping those it had), or the same bits
 * with interrupts now disabled (an interrupt's entry runs with them off
 * before it sets its hardirq bit).
 */
static inline bool more_interrupted(uint8_t now, uint8_t before)
{
	uint8_t n = now & IRQ_CTX, b = before & IRQ_CTX;

	if (!(now & before & KMAG_CTX_KNOWN))
		return false;
	if (n != b)
		return (n & b) == b;
	return (now & KMAG_CTX_IRQS_OFF) && !(before & KMAG_CTX_IRQS_OFF);
}

/* replay.c: replays @ev of @t at its depth plus @shift, without looking for windows. */
__hidden int replay_plain(struct kmag_replay *r, struct task *t, const struct kmag_event *ev,
			  int shift);
/* replay.c: opens the call of entry @ev at @depth, starting at @start. */
__hidden int replay_entry_at(struct kmag_replay *r, struct task *t, const struct kmag_event *ev,
			     int32_t depth, uint64_t start, uint8_t start_src);

/* replay-window.c: 1 when entry @ev (more interrupted than @t was) starts a window, held. */
__hidden int replay_window_start(struct kmag_replay *r, struct task *t,
				 const struct kmag_event *ev);
/* replay-window.c: event @ev of @t, which holds a window. */
__hidden int replay_window_event(struct kmag_replay *r, struct task *t,
				 const struct kmag_event *ev);
/* replay-window.c: stops holding and replays the held events (@inside: nested as the depths say). */
__hidden int replay_hold_release(struct kmag_replay *r, struct task *t, bool inside);
/* replay-window.c: ends the windows of tasks last seen on @cpu (-1: all) but @except. */
__hidden int replay_end_windows(struct kmag_replay *r, int32_t cpu, const struct task *except,
				bool inside);

#endif /* KMAG_REPLAY_INTERNAL_H */
