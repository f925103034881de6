// SPDX-License-Identifier: MIT
/*
 * replay-window.c - interrupts in a call's entry, return or tail window (see
 * include/kmag/replay.h): a task holds the interrupt's events back until the
 * call's records say where it ran, then replays them through replay.c. Off
 * the hot path: replay.c's graph_event() comes here only for an entry in a
 * more interrupted context than the task's last event, or a task holding.
 */
#define PR_DOMAIN "replay"
#include "replay-internal.h"

/* Replays held events [@from, @to) of @t at their depths plus @shift. */
static int replay_held(struct kmag_replay *r, struct task *t, uint32_t from, uint32_t to, int shift)
{
	int ret = 0;

	for (uint32_t i = from; i < to && !ret; i++)
		ret = replay_plain(r, t, &t->held[i], shift);
	return ret;
}

/* @t no longer holds: drops it from the tasks holding. */
static void hold_end(struct kmag_replay *r, struct task *t)
{
	t->win = WIN_NONE;
	for (size_t k = 0; k < r->nr_holding; k++)
		if (&r->tasks[r->holding[k]] == t) {
			r->holding[k] = r->holding[--r->nr_holding];
			break;
		}
}

/* The durations of the held exits [@from, @to) at depth @depth (the calls made there). */
static uint64_t held_time(const struct task *t, uint32_t from, uint32_t to, int32_t depth)
{
	uint64_t sum = 0;

	for (uint32_t i = from; i < to; i++)
		if (t->held[i].type == KMAG_EV_GRAPH_EXIT && t->held[i].depth == depth &&
		    t->held[i].duration != KMAG_DURATION_NONE)
			sum += t->held[i].duration;
	return sum;
}

/*
 * The interrupt of an entry window inside the call whose entry came after
 * it: that call opens first, starting at the interrupt; then the interrupt,
 * then the rest of the call's events held so far.
 */
static int entry_inside(struct kmag_replay *r, struct task *t, uint32_t n)
{
	const struct kmag_event *call = &t->held[t->win_call], *irq = &t->held[0];
	int ret;

	if (irq->ts != KMAG_TS_NONE && (call->ts == KMAG_TS_NONE || irq->ts < call->ts))
		ret = replay_entry_at(r, t, call, call->depth, irq->ts, KMAG_START_IRQ);
	else
		ret = replay_entry_at(r, t, call, call->depth, call->ts, KMAG_START_ENTRY);
	t->last_ctx = call->ctx;
	if (!ret)
		ret = replay_held(r, t, 0, t->win_call, 0);
	return ret ? ret : replay_held(r, t, t->win_call + 1, n, 0);
}

/*
 * Stops holding: replays the held events. @inside: nested into the call as
 * the depths say (the default when the call's duration is not known yet),
 * else as they came (placeholders for the levels the depths lack).
 */
int replay_hold_release(struct kmag_replay *r, struct task *t, bool inside)
{
	uint32_t n = t->nr_held;
	uint8_t win = t->win;

	hold_end(r, t);
	t->nr_held = 0;
	if (inside && win == WIN_RETURN)
		return replay_held(r, t, 0, n, 1);
	if (inside && win == WIN_ENTRY && t->win_call)
		return entry_inside(r, t, n);
	return replay_held(r, t, 0, n, 0);
}

/*
 * The exit @ev of the call whose return window the held interrupt came in.
 * The kernel stamped the call's rettime before or after the interrupt (Linux
 * 6.1: ftrace_pop_return_trace() uncounts the depth, rettime is stamped next,
 * the exit is written after more checks): if its duration holds the
 * interrupt's calls and its own, the interrupt is inside it; otherwise the
 * call had returned: it ends (when the interrupt began) and the interrupt
 * follows it.
 */
static int return_decided(struct kmag_replay *r, struct task *t, const struct kmag_event *ev)
{
	uint32_t n = t->nr_held;
	struct frame *f = top(r, t);
	uint64_t need = held_time(t, 0, n, t->win_depth) + (f ? f->call.kernel_child_ns : 0);
	struct kmag_event e;
	int ret;

	if (ev->duration == KMAG_DURATION_NONE || ev->duration >= need) {
		hold_end(r, t);
		t->nr_held = 0;
		ret = replay_held(r, t, 0, n, 1);
		return ret ? ret : replay_plain(r, t, ev, 0);
	}
	hold_end(r, t);
	t->nr_held = 0;
	e = *ev;
	if (t->held[0].ts != KMAG_TS_NONE && (e.ts == KMAG_TS_NONE || t->held[0].ts < e.ts))
		e.ts = t->held[0].ts;
	ret = replay_plain(r, t, &e, 0);
	return ret ? ret : replay_held(r, t, 0, n, 0);
}

/*
 * The exit @ev of the open call one level below which the held interrupt
 * came (Linux 6.19: __ftrace_return_to_handler() stamps rettime before the
 * exit is written and uncounts the depth after it, so an interrupt between
 * the two comes at the depth of the call's own calls). If the call's
 * duration holds the interrupt's calls and its own, the interrupt ran inside
 * it; otherwise the call had returned (rettime stamped): it ends where the
 * interrupt began and the interrupt follows it among its caller's calls.
 */
static int tail_decided(struct kmag_replay *r, struct task *t, const struct kmag_event *ev)
{
	uint32_t n = t->nr_held;
	struct frame *f = top(r, t);
	uint64_t need = held_time(t, 0, n, t->win_depth + 1) + (f ? f->call.kernel_child_ns : 0);
	struct kmag_event e;
	int ret;

	hold_end(r, t);
	t->nr_held = 0;
	if (ev->duration == KMAG_DURATION_NONE || ev->duration >= need) {
		ret = replay_held(r, t, 0, n, 0);
		return ret ? ret : replay_plain(r, t, ev, 0);
	}
	e = *ev;
	if (t->held[0].ts != KMAG_TS_NONE && (e.ts == KMAG_TS_NONE || t->held[0].ts < e.ts))
		e.ts = t->held[0].ts;
	ret = replay_plain(r, t, &e, 0);
	if (!ret)
		ret = replay_held(r, t, 0, n, -1);
	t->last_ctx = ev->ctx;	/* the exit came last */
	return ret;
}

/*
 * The exit @ev of the call whose entry window the held interrupt came in.
 * Its calltime was stamped before or after the interrupt (fgraph stamps it
 * after counting the depth, before writing the entry): if its duration holds
 * the interrupt's calls and its own, the interrupt is inside it; otherwise
 * the interrupt came before it, among its caller's calls.
 */
static int entry_decided(struct kmag_replay *r, struct task *t, const struct kmag_event *ev)
{
	uint32_t n = t->nr_held, c = t->win_call;
	int32_t d = t->win_depth;
	int ret;

	if (ev->duration == KMAG_DURATION_NONE ||
	    ev->duration >= held_time(t, 0, c, d + 1) + held_time(t, c + 1, n, d + 1)) {
		ret = replay_hold_release(r, t, true);
		return ret ? ret : replay_plain(r, t, ev, 0);
	}
	hold_end(r, t);
	t->nr_held = 0;
	ret = replay_held(r, t, 0, c, -1);
	if (!ret)
		ret = replay_held(r, t, c, n, 0);
	return ret ? ret : replay_plain(r, t, ev, 0);
}

/* Holds @ev; 1 when the hold is full. */
static int hold_add(struct task *t, const struct kmag_event *ev)
{
	if (t->nr_held == t->cap_held) {
		struct kmag_event *v;

		if (t->cap_held >= MAX_HELD)
			return 1;
		v = realloc(t->held, 2 * (size_t)t->cap_held * sizeof(*v));
		if (!v)
			return 1;
		t->held = v;
		t->cap_held *= 2;
	}
	t->held[t->nr_held++] = *ev;
	return 0;
}

/*
 * Whether entry @ev, in a more interrupted context than the task was in,
 * starts a window (see replay.h); 1 when it is held, 0 to replay it.
 */
int replay_window_start(struct kmag_replay *r, struct task *t, const struct kmag_event *ev)
{
	struct frame *f = top(r, t);
	uint8_t win;

	if (!f || (f->call.flags & KMAG_CALL_LOST))
		return 0;
	win = ev->depth == f->call.depth ? WIN_RETURN :
	      ev->depth == f->call.depth + 1 ? WIN_TAIL :
	      ev->depth == f->call.depth + 2 ? WIN_ENTRY : WIN_NONE;
	/*
	 * One level below: most often a call the open call makes with interrupts
	 * off (the idle loop). Held only when it is not: its call site is another
	 * function's, or (no call sites in the trace) it came with an interrupt,
	 * softirq or NMI bit. A placeholder has no duration to decide by.
	 */
	if (win == WIN_TAIL &&
	    ((f->flags & FR_PLACEHOLDER) ||
	     (ev->parent != KMAG_FUNC_NONE ? ev->parent == f->call.func :
					     !(ev->ctx & IRQ_CTX & ~t->last_ctx))))
		win = WIN_NONE;
	if (win == WIN_NONE || r->nr_holding == MAX_HOLDING ||
	    (!t->cap_held && !(t->held = malloc(64 * sizeof(*t->held)))))
		return 0;
	if (!t->cap_held)
		t->cap_held = 64;
	r->holding[r->nr_holding++] = (uint32_t)(t - r->tasks);
	t->win = win;
	t->win_depth = win == WIN_ENTRY ? ev->depth - 1 : f->call.depth;
	t->win_ctx = t->last_ctx;
	t->win_call = 0;
	t->held[0] = *ev;
	t->nr_held = 1;
	return 1;
}

/* Holds @ev, or when the hold is full replays it all (@inside as in replay_hold_release()). */
static int hold_more(struct kmag_replay *r, struct task *t, const struct kmag_event *ev,
		     bool inside)
{
	int ret;

	if (!hold_add(t, ev))
		return 0;
	if ((ret = replay_hold_release(r, t, inside)))
		return ret;
	return replay_plain(r, t, ev, 0);
}

/*
 * An event of @t, which holds a window: held, or the event that decides
 * it (the call's exit), or one that ends it unexpectedly. 0 or an error.
 */
int replay_window_event(struct kmag_replay *r, struct task *t, const struct kmag_event *ev)
{
	int32_t d = ev->depth, w = t->win_depth;
	bool entry = ev->type == KMAG_EV_GRAPH_ENTRY;
	bool irq = more_interrupted(ev->ctx, t->win_ctx);
	int ret;

	if (t->win == WIN_RETURN) {
		/* the interrupt's calls, at the open call's depth and below */
		if (d > w || (d == w && irq))
			return hold_more(r, t, ev, true);
		if (d == w && !entry)
			return return_decided(r, t, ev);
	} else if (t->win == WIN_TAIL) {
		/* the interrupt's calls, one level below the open call and deeper */
		if (d > w + 1 || (d == w + 1 && (!entry || irq)))
			return hold_more(r, t, ev, true);
		if (d == w && !entry)
			return tail_decided(r, t, ev);
		/* the open call makes another call: the interrupt was inside it (as it came) */
	} else if (!t->win_call) {
		if (d > w)
			return hold_more(r, t, ev, false);
		/*
		 * the open call returns and the missing level never entered: no call
		 * was there (6.19: the interrupt came after a call's exit was written,
		 * before its depth was uncounted); the interrupt ran in the open call
		 */
		if (d < w) {
			uint32_t n = t->nr_held;

			hold_end(r, t);
			t->nr_held = 0;
			if ((ret = replay_held(r, t, 0, n, -1)))
				return ret;
			return replay_plain(r, t, ev, 0);
		}
		/* the missing level's entry: its call, held until it returns */
		if (d == w && entry && !irq && ev->func != KMAG_FUNC_NONE) {
			if ((ret = hold_more(r, t, ev, false)) || t->win == WIN_NONE)
				return ret;
			t->win_call = t->nr_held - 1;
			return 0;
		}
	} else {
		if (d > w)
			return hold_more(r, t, ev, true);
		if (d == w && !entry &&
		    (ev->func == KMAG_FUNC_NONE || ev->func == t->held[t->win_call].func))
			return entry_decided(r, t, ev);
		if ((ret = replay_hold_release(r, t, true)))
			return ret;
		return replay_plain(r, t, ev, 0);
	}
	/* the depths contradict the window (records were lost): as they came */
	if ((ret = replay_hold_release(r, t, false)))
		return ret;
	return replay_plain(r, t, ev, 0);
}

/* Replays what task @t holds: @inside as in replay_hold_release(). */
static int flush_task(struct kmag_replay *r, struct task *t, bool inside)
{
	struct task *cur = r->cur;
	int ret;

	r->cur = t;
	r->last_key = UINT64_MAX;
	ret = replay_hold_release(r, t, inside);
	r->cur = cur;
	return ret;
}

/*
 * Ends the windows of tasks last seen on @cpu (-1: all) other than @except:
 * another task runs there (the interrupt is over), or the trace ends (both
 * @inside), or events were lost there (not).
 */
int replay_end_windows(struct kmag_replay *r, int32_t cpu, const struct task *except, bool inside)
{
	size_t k;
	int ret;

	for (k = 0; k < r->nr_holding;) {
		struct task *t = &r->tasks[r->holding[k]];

		if (t == except || (cpu >= 0 && t->last_cpu != cpu)) {
			k++;
			continue;
		}
		if ((ret = flush_task(r, t, inside)))	/* removes it from holding[] */
			return ret;
	}
	return 0;
}

