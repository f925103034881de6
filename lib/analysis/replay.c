// SPDX-License-Identifier: MIT
/*
 * replay.c - the one function_graph replay (see include/kmag/replay.h for
 * the rules). Each task has one stack of frames; a frame is the public
 * struct kmag_call followed by every subscriber's data, so a subscriber
 * keeps its per-call state without a stack of its own. The hot path (an
 * event in, its call's hooks out) is this one file, so that it inlines;
 * replay-window.c has the interrupts held back in a call's windows (off the
 * hot path), replay-api.c the replay's life cycle and what hooks may ask.
 */
#define PR_DOMAIN "replay"
#include "replay-internal.h"

#define MAX_PLACEHOLDER_DEPTH 512	/* deeper missing levels are not worth keeping */
#define RECURSION_SCAN 64

/* ---- delivering to subscribers ---- */

static int deliver_event(struct kmag_replay *r, const struct kmag_event *ev)
{
	size_t i;
	int ret;

	for (i = 0; i < r->nr_subs; i++)
		if (r->subs[i].ops->event && (ret = r->subs[i].ops->event(r->subs[i].ctx, ev)))
			return ret;
	return 0;
}

/* ---- tasks and frames ---- */

static struct task *task_of(struct kmag_replay *r, const struct kmag_event *ev)
{
	uint64_t key = kmag_task_key(ev->pid, ev->cpu);
	uint64_t *slot;
	bool inserted;

	if (key == r->last_key)
		return r->cur;
	slot = u64map_upsert(&r->task_index, key, r->nr_tasks, &inserted);
	if (!slot)
		return NULL;
	if (inserted) {
		if (kmag__grow(&r->tasks, &r->cap_tasks, r->nr_tasks + 1, sizeof(*r->tasks))) {
			*slot = UINT64_MAX;
			return NULL;
		}
		memset(&r->tasks[r->nr_tasks], 0, sizeof(struct task));
		r->tasks[r->nr_tasks].last_ts = KMAG_TS_NONE;
		r->nr_tasks++;
		r->st.tasks++;
	}
	if (*slot >= r->nr_tasks)
		return NULL;
	r->last_key = key;
	r->cur = &r->tasks[*slot];
	return r->cur;
}

/*
 * Makes the task of @ev, an event that is no call's (function tracer,
 * tracepoint, lost), the current one for its hooks, if it has a stack.
 */
static void task_find(struct kmag_replay *r, const struct kmag_event *ev)
{
	uint64_t key = kmag_task_key(ev->pid, ev->cpu);
	uint64_t *slot;

	if (key == r->last_key)
		return;
	slot = u64map_get(&r->task_index, key);
	if (slot && *slot < r->nr_tasks) {
		r->last_key = key;
		r->cur = &r->tasks[*slot];
	} else {
		r->last_key = UINT64_MAX;
		r->cur = NULL;
	}
}

/* ---- the stack of calls ---- */

static inline uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* Room for one more frame on @t's stack (out of the hot path). 0 or -ENOMEM. */
static __attribute__((noinline)) int frames_grow(struct kmag_replay *r, struct task *t)
{
	size_t cap = t->cap ? (size_t)t->cap * 2 : 16;
	char *v;

	if (cap > UINT32_MAX)
		return -ENOMEM;
	v = realloc(t->frames, cap * r->stride);
	if (!v)
		return -ENOMEM;
	t->frames = v;
	t->cap = (uint32_t)cap;
	return 0;
}

/*
 * Zeroes the subscribers' data of a frame, @n bytes (a multiple of 8): a
 * call to memset per call costs more than the few words a view keeps.
 */
static inline void data_zero(void *data, size_t n)
{
	uint64_t *w = data;

	switch (n / 8) {
	case 8: w[7] = 0; /* fall through */
	case 7: w[6] = 0; /* fall through */
	case 6: w[5] = 0; /* fall through */
	case 5: w[4] = 0; /* fall through */
	case 4: w[3] = 0; /* fall through */
	case 3: w[2] = 0; /* fall through */
	case 2: w[1] = 0; /* fall through */
	case 1: w[0] = 0; /* fall through */
	case 0: break;
	default: memset(data, 0, n);
	}
}

/*
 * Pushes a zeroed frame for a call at @depth of task @t; NULL on ENOMEM.
 * Inline in the entry's hot path (frame_push_cold() elsewhere); its
 * fields are set one by one, as a compound literal of the whole call made
 * the compiler clear it first with rep stos, slow for 176 bytes.
 */
static inline __attribute__((always_inline)) struct frame *
frame_push(struct kmag_replay *r, struct task *t, const struct kmag_event *ev, int32_t depth)
{
	struct frame *f, *p;
	struct kmag_call *c;

	if (unlikely(t->nr == t->cap) && frames_grow(r, t))
		return NULL;
	f = frame_at(r, t, t->nr);
	p = t->nr ? (struct frame *)((char *)f - r->stride) : NULL;
	t->nr++;
	c = &f->call;
	c->func = KMAG_FUNC_NONE;
	c->pid = ev->pid;
	c->cpu = ev->cpu;
	c->depth = depth;
	c->start_ns = c->end_ns = c->exit_ns = KMAG_TS_NONE;
	c->duration = c->kernel_ns = KMAG_DURATION_NONE;
	c->child_ns = c->kernel_child_ns = c->traced_beneath = 0;
	c->id = ++r->next_id;
	c->parent_id = p && p->call.depth == depth - 1 ? p->call.id : 0;
	c->retval = 0;
	c->caller = KMAG_FUNC_NONE;
	c->caller_off = KMAG_OFF_NONE;
	c->call_site = 0;
	memset(c->args, 0, sizeof(c->args));
	c->nargs = c->ctx = c->flags = c->has_retval = 0;
	c->start_src = KMAG_START_NONE;
	f->active = p ? p->active : 0;
	/* inside its caller's slice, after its previous sibling's */
	f->tl_lo = !p ? t->root_tl_end : max64(p->tl_lo, p->tl_hi);
	f->tl_hi = 0;
	f->tl_first = UINT64_MAX;
	f->flags = 0;
	/* the subscribers' data starts zeroed */
	data_zero(f + 1, r->stride - sizeof(*f));
	return f;
}

/* frame_push() for the paths off the hot one (placeholders, exits without entry). */
static __attribute__((noinline)) struct frame *
frame_push_cold(struct kmag_replay *r, struct task *t, const struct kmag_event *ev, int32_t depth)
{
	return frame_push(r, t, ev, depth);
}

/* Names the top frame @f as a call of @func (flags it recursive if an outer frame runs it). */
static void frame_name(struct kmag_replay *r, struct task *t, struct frame *f, kmag_func_t func)
{
	uint64_t bit = 1ull << (func & 63);
	size_t i, n = t->nr - 1;	/* @f is the top frame */

	f->call.func = func;
	if (f->active & bit)
		for (i = n; i-- > 0 && n - i <= RECURSION_SCAN;)
			if (frame_at(r, t, i)->call.func == func) {
				f->call.flags |= KMAG_CALL_RECURSIVE;
				break;
			}
	f->active |= bit;
	r->st.calls++;
}

/* @dur less @cost for each of @n traced calls, never below zero. */
static inline uint64_t correct(uint64_t dur, uint64_t cost, uint64_t n)
{
	if (n && cost > dur / n)
		return 0;
	return dur - cost * n;
}

/*
 * The slice of @f, which is leaving (see kmag_replay_slice()), into tl_lo
 * and tl_hi.
 */
static void frame_slice(struct frame *f)
{
	const struct kmag_call *c = &f->call;
	uint64_t s = c->start_ns, e = c->end_ns;

	if (s == KMAG_TS_NONE)
		s = f->tl_first != UINT64_MAX ? f->tl_first : e;
	if (s == KMAG_TS_NONE) {		/* no time at all */
		f->tl_lo = f->tl_hi = KMAG_TS_NONE;
		return;
	}
	if (s < f->tl_lo) {
		/* moved later, a call seen whole keeps its length; one without its entry is cut */
		if (e != KMAG_TS_NONE && !(c->flags & KMAG_CALL_NO_ENTRY))
			e += f->tl_lo - s;
		s = f->tl_lo;
	}
	if (s > f->tl_first)
		s = f->tl_first;
	/* never empty: a viewer would take the next call, which starts at its end, for its parent */
	if (e == KMAG_TS_NONE || e <= s)
		e = s + 1;
	f->tl_lo = s;
	f->tl_hi = max64(e, f->tl_hi);
}

/*
 * Ends the top frame of @t: its exit came at @exit_ts (NO_EXIT: it was found
 * gone then) after @dur. Its time (if known) goes to its parent, its slice
 * bounds those of the calls around it.
 */
static inline __attribute__((always_inline)) int
frame_leave(struct kmag_replay *r, struct task *t, uint64_t exit_ts, uint64_t dur, uint8_t flags)
{
	struct frame *f = top(r, t);
	struct frame *p = t->nr > 1 ? frame_at(r, t, t->nr - 2) : NULL;
	struct frame *caller = p && p->call.depth == f->call.depth - 1 ? p : NULL;
	struct kmag_call *c = &f->call;

	c->flags |= flags;
	c->duration = dur;
	c->kernel_ns = dur;
	c->exit_ns = exit_ts;
	if (c->flags & KMAG_CALL_NO_ENTRY) {
		/* no entry: it ended at its exit, and began its duration earlier */
		if (exit_ts != KMAG_TS_NONE && dur != KMAG_DURATION_NONE && !(flags & KMAG_CALL_NO_EXIT)) {
			c->start_ns = dur <= exit_ts ? exit_ts - dur : 0;
			c->start_src = KMAG_START_EXIT;
		}
		/* ... and no later than the first call it made */
		if (f->tl_first < c->start_ns) {
			c->start_ns = f->tl_first;
			c->start_src = KMAG_START_CALLS;
		}
		c->end_ns = exit_ts;
	} else if (c->start_ns != KMAG_TS_NONE && dur != KMAG_DURATION_NONE) {
		c->end_ns = c->start_ns + dur;
	} else {
		c->end_ns = exit_ts;
	}
	frame_slice(f);
	/* the tracer's cost of the traced calls beneath it is not the call's time */
	if (r->cost_ns && dur != KMAG_DURATION_NONE)
		c->duration = correct(dur, r->cost_ns, c->traced_beneath);
	f->flags |= FR_LEFT;
	if ((flags & KMAG_CALL_NO_EXIT) && !(f->flags & FR_PLACEHOLDER))
		r->st.unfinished_entries++;	/* a placeholder had no entry to finish */
	/*
	 * an enclosing call that is not its caller (levels are missing) still ran
	 * it. A call without a duration passes on its calls' time: they ran
	 * inside the enclosing call's duration (the kernel's durations nest,
	 * whether or not the exit between is in the trace), so they are not
	 * its self time (Linux 6.19 traces calls inside fgraph's return of a
	 * call whose exit is already written: irq_work_queue()'s, at the depth
	 * of that call's own calls, in no call with a duration).
	 */
	if (p) {
		/* a placeholder never named is a level the kernel did not trace */
		p->call.traced_beneath += c->traced_beneath + (c->func != KMAG_FUNC_NONE);
		if (dur != KMAG_DURATION_NONE) {
			p->call.child_ns += c->duration;
			p->call.kernel_child_ns += dur;
		} else {
			p->call.child_ns += c->child_ns;
			p->call.kernel_child_ns += c->kernel_child_ns;
		}
		if (f->tl_lo != KMAG_TS_NONE) {
			p->tl_hi = f->tl_hi;
			if (p->tl_first == UINT64_MAX)
				p->tl_first = f->tl_lo;
		}
	} else if (f->tl_lo != KMAG_TS_NONE) {
		t->root_tl_end = f->tl_hi;
	}
	t->nr--;	/* the frame's memory stays valid until the next push */
	return deliver(r, HOOK_LEAVE, f, caller);
}

/* frame_leave() of a call found gone (NO_EXIT), off the hot path. */
static __attribute__((noinline)) int frame_gone(struct kmag_replay *r, struct task *t,
						uint64_t ts)
{
	return frame_leave(r, t, ts, KMAG_DURATION_NONE, KMAG_CALL_NO_EXIT);
}

/* Makes the stack of @t hold frames exactly up to depth @depth - 1. */
static __attribute__((noinline)) int stack_fit(struct kmag_replay *r, struct task *t,
					       const struct kmag_event *ev, int32_t depth)
{
	struct frame *f;
	int ret;

	while ((f = top(r, t)) && f->call.depth >= depth)
		if ((ret = frame_gone(r, t, ev->ts)))
			return ret;
	if (depth > MAX_PLACEHOLDER_DEPTH)
		depth = MAX_PLACEHOLDER_DEPTH;
	/* missing levels below: placeholders, named later by their exits */
	for (;;) {
		struct frame *p = top(r, t);
		int32_t d = p ? p->call.depth + 1 : 0;

		if (d >= depth)
			return 0;
		f = frame_push_cold(r, t, ev, d);
		if (!f)
			return -ENOMEM;
		f->flags = FR_PLACEHOLDER;
		f->call.flags = KMAG_CALL_NO_ENTRY;
		if ((ret = deliver(r, HOOK_ENTER, f, t->nr > 1 ? frame_at(r, t, t->nr - 2) : NULL)))
			return ret;
	}
}

/*
 * The call site of an entry (funcgraph-retaddr) names the function it
 * returns into: a placeholder just below it is that function. So a level
 * the kernel does not trace (a noinstr interrupt entry such as
 * sysvec_apic_timer_interrupt) gets its name from the first call it makes.
 */
static int name_from_call_site(struct kmag_replay *r, struct task *t, const struct kmag_event *ev,
			       int32_t depth)
{
	struct frame *f = top(r, t), *p;

	if (!f || !(f->flags & FR_PLACEHOLDER) || f->call.func != KMAG_FUNC_NONE ||
	    f->call.depth != depth - 1 || ev->parent == KMAG_FUNC_NONE)
		return 0;
	f->flags &= ~FR_PLACEHOLDER;
	frame_name(r, t, f, ev->parent);
	p = t->nr > 1 ? frame_at(r, t, t->nr - 2) : NULL;
	return deliver(r, HOOK_NAMED, f, p);
}

static inline __attribute__((always_inline)) int graph_entry(struct kmag_replay *r, struct task *t,
				       const struct kmag_event *ev, int32_t depth, uint64_t start,
				       uint8_t start_src)
{
	struct frame *f, *p;
	int ret;

	if (ev->func == KMAG_FUNC_NONE)
		return 0;
	/* the stack fits when its top is the caller's level (stack_fit() would do nothing) */
	f = top(r, t);
	if (!(f ? f->call.depth == depth - 1 : depth == 0)) {
		if ((ret = stack_fit(r, t, ev, depth)))
			return ret;
		f = top(r, t);
	}
	if (unlikely(f && (f->flags & FR_PLACEHOLDER)) && (ret = name_from_call_site(r, t, ev, depth)))
		return ret;
	f = frame_push(r, t, ev, depth);
	if (!f)
		return -ENOMEM;
	f->call.start_ns = start;
	f->call.start_src = start != KMAG_TS_NONE ? start_src : KMAG_START_NONE;
	/* its slice starts here, inside its caller's and after its sibling's */
	if (start != KMAG_TS_NONE && start > f->tl_lo)
		f->tl_lo = start;
	f->call.ctx = ev->ctx;
	f->call.caller = ev->parent;
	f->call.caller_off = ev->parent_off;
	f->call.call_site = ev->parent_ip;
	if (ev->nargs) {
		f->call.nargs = ev->nargs;
		memcpy(f->call.args, ev->args, sizeof(f->call.args));
	}
	frame_name(r, t, f, ev->func);
	p = t->nr > 1 ? frame_at(r, t, t->nr - 2) : NULL;
	return deliver(r, HOOK_ENTER, f, p);
}

/* The duration of a call returning with @ev; @entry_ts its entry's timestamp or KMAG_TS_NONE. */
static uint64_t exit_duration(const struct kmag_event *ev, uint64_t entry_ts)
{
	if (ev->duration != KMAG_DURATION_NONE)
		return ev->duration;
	if (entry_ts != KMAG_TS_NONE && ev->ts != KMAG_TS_NONE && ev->ts >= entry_ts)
		return ev->ts - entry_ts;
	return KMAG_DURATION_NONE;
}

/* Completes the top frame, whose exit is @ev, after @dur. */
static inline __attribute__((always_inline)) int
complete(struct kmag_replay *r, struct task *t, const struct kmag_event *ev, uint64_t dur)
{
	struct frame *f = top(r, t);

	f->call.retval = ev->retval;
	f->call.has_retval = ev->has_retval;
	return frame_leave(r, t, ev->ts, dur, 0);
}

/* complete() off the hot path: exits without their entry. */
static __attribute__((noinline)) int complete_cold(struct kmag_replay *r, struct task *t,
						   const struct kmag_event *ev, uint64_t dur)
{
	return complete(r, t, ev, dur);
}

/* An exit naming a placeholder: the call's entry came before the trace (or was lost). */
static int name_placeholder(struct kmag_replay *r, struct task *t, const struct kmag_event *ev)
{
	struct frame *f = top(r, t);
	struct frame *p = t->nr > 1 ? frame_at(r, t, t->nr - 2) : NULL;
	int ret;

	r->st.unmatched_exits++;
	if (ev->func == KMAG_FUNC_NONE)
		return frame_gone(r, t, ev->ts);
	f->flags &= ~FR_PLACEHOLDER;
	f->call.ctx = ev->ctx;
	f->call.cpu = ev->cpu;
	frame_name(r, t, f, ev->func);
	if ((ret = deliver(r, HOOK_NAMED, f, p)))
		return ret;
	return complete_cold(r, t, ev, exit_duration(ev, KMAG_TS_NONE));
}

/* An exit with no call open at its depth. */
static int exit_alone(struct kmag_replay *r, struct task *t, const struct kmag_event *ev,
		      int32_t depth)
{
	struct frame *f, *p;
	int ret;

	r->st.unmatched_exits++;
	if (ev->func == KMAG_FUNC_NONE)
		return 0;
	/* its callers at the missing levels: placeholders, named by their exits to come */
	if ((ret = stack_fit(r, t, ev, depth)))
		return ret;
	f = frame_push_cold(r, t, ev, depth);
	if (!f)
		return -ENOMEM;
	p = t->nr > 1 ? frame_at(r, t, t->nr - 2) : NULL;
	if (p && p->call.depth != depth - 1)
		p = NULL;
	f->call.flags = KMAG_CALL_NO_ENTRY;
	f->call.ctx = ev->ctx;
	frame_name(r, t, f, ev->func);
	if ((ret = deliver(r, HOOK_ENTER, f, p)))
		return ret;
	return complete_cold(r, t, ev, exit_duration(ev, KMAG_TS_NONE));
}

static inline __attribute__((always_inline)) int graph_exit(struct kmag_replay *r, struct task *t,
				      const struct kmag_event *ev, int32_t depth)
{
	struct frame *f;
	int ret;

	/* calls above the returning one lost their exits */
	while ((f = top(r, t)) && f->call.depth > depth)
		if ((ret = frame_gone(r, t, ev->ts)))
			return ret;
	if (f && f->call.depth == depth) {
		if (f->flags & FR_PLACEHOLDER)
			return name_placeholder(r, t, ev);
		if (ev->func == KMAG_FUNC_NONE || f->call.func == ev->func)
			return complete(r, t, ev, exit_duration(ev, f->call.start_ns));
		/* a different function returned at this depth: records were lost */
		if ((ret = frame_gone(r, t, ev->ts)))
			return ret;
	}
	return exit_alone(r, t, ev, depth);
}

/* ---- what the interrupt windows (replay-window.c) replay through ---- */

/*
 * Replays @ev of @t at its depth plus @shift, without looking for windows
 * (the held events of a window; graph_event() has the hot path's own copy).
 */
int replay_plain(struct kmag_replay *r, struct task *t, const struct kmag_event *ev, int shift)
{
	int32_t depth = ev->depth;

	t->last_ctx = ev->ctx;
	if (depth < 0) {
		struct frame *f = top(r, t);

		depth = ev->type == KMAG_EV_GRAPH_EXIT ? (f ? f->call.depth : 0) :
							 (f ? f->call.depth + 1 : 0);
	} else {
		depth += shift;
	}
	if (ev->type == KMAG_EV_GRAPH_ENTRY)
		return graph_entry(r, t, ev, depth, ev->ts, KMAG_START_ENTRY);
	return graph_exit(r, t, ev, depth);
}

/* Opens the call of entry @ev of @t at @depth, starting at @start (from @start_src). */
int replay_entry_at(struct kmag_replay *r, struct task *t, const struct kmag_event *ev,
		    int32_t depth, uint64_t start, uint8_t start_src)
{
	return graph_entry(r, t, ev, depth, start, start_src);
}

/* Replays function_graph event @ev of task @t: the hot path, inlined in kmag_replay_add(). */
static inline int graph_event(struct kmag_replay *r, struct task *t, const struct kmag_event *ev)
{
	int ret;

	if (unlikely(t->win != WIN_NONE || ev->depth < 0)) {
		if (t->win == WIN_NONE)
			return replay_plain(r, t, ev, 0);
		if (ev->depth >= 0)
			return replay_window_event(r, t, ev);
		if ((ret = replay_hold_release(r, t, false)))
			return ret;
		return replay_plain(r, t, ev, 0);
	}
	if (ev->type == KMAG_EV_GRAPH_ENTRY) {
		if (unlikely(more_interrupted(ev->ctx, t->last_ctx)) && replay_window_start(r, t, ev))
			return 0;
		t->last_ctx = ev->ctx;
		return graph_entry(r, t, ev, ev->depth, ev->ts, KMAG_START_ENTRY);
	}
	t->last_ctx = ev->ctx;
	return graph_exit(r, t, ev, ev->depth);
}

/* Events were lost on @cpu: every call open on a task last seen there is suspect. */
static int lost_on_cpu(struct kmag_replay *r, int32_t cpu)
{
	size_t i, j;
	int ret;

	if (r->nr_holding && (ret = replay_end_windows(r, cpu, NULL, false)))
		return ret;
	for (i = 0; i < r->nr_tasks; i++) {
		struct task *t = &r->tasks[i];

		if (t->last_cpu != cpu && cpu >= 0)
			continue;
		for (j = 0; j < t->nr; j++)
			frame_at(r, t, j)->call.flags |= KMAG_CALL_LOST;
	}
	return 0;
}

int kmag_replay_add(struct kmag_replay *r, const struct kmag_event *ev)
{
	struct task *t;
	int ret;

	r->started = true;
	if (ev->type != KMAG_EV_GRAPH_ENTRY && ev->type != KMAG_EV_GRAPH_EXIT) {
		if (ev->type == KMAG_EV_LOST && (ret = lost_on_cpu(r, ev->cpu)))
			return ret;
		task_find(r, ev);
		return deliver_event(r, ev);
	}
	r->st.graph_events++;
	t = task_of(r, ev);
	if (!t)
		return -ENOMEM;
	/* another task on the CPU of a held interrupt: that interrupt is over */
	if (unlikely(r->nr_holding) && ev->cpu >= 0 && (ret = replay_end_windows(r, ev->cpu, t, true)))
		return ret;
	t->last_cpu = ev->cpu;
	if (ev->ts != KMAG_TS_NONE)
		t->last_ts = ev->ts;
	return graph_event(r, t, ev);
}

int kmag_replay_event_fn(const struct kmag_event *ev, void *ctx)
{
	return kmag_replay_add(ctx, ev);
}

int kmag_replay_finish(struct kmag_replay *r, uint64_t end_ns)
{
	size_t i;
	int ret;

	r->started = true;
	if ((ret = replay_end_windows(r, -1, NULL, true)))
		return ret;
	for (i = 0; i < r->nr_tasks; i++) {
		struct task *t = &r->tasks[i];
		uint64_t end = end_ns != KMAG_TS_NONE ? end_ns : t->last_ts;

		r->cur = t;
		r->last_key = UINT64_MAX;
		while (t->nr)
			if ((ret = frame_gone(r, t, end)))
				return ret;
	}
	r->cur = NULL;
	return 0;
}
