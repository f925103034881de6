// SPDX-License-Identifier: MIT
/*
 * replay.c - the one function_graph replay (see include/kmag/replay.h for
 * the rules). Each task has one stack of frames; a frame is the public
 * struct kmag_call followed by every subscriber's data, so a subscriber
 * keeps its per-call state without a stack of its own.
 */
#define PR_DOMAIN "replay"
#include "internal.h"
#include "kmag/replay.h"
#include "util/u64map.h"

#define MAX_SUBSCRIBERS 8
#define MAX_PLACEHOLDER_DEPTH 512	/* deeper missing levels are not worth keeping */
#define RECURSION_SCAN 64

enum { FR_PLACEHOLDER = 1u << 0 };

/*
 * Times on a timeline: a call ends at its exit's timestamp and starts its
 * duration earlier, kept inside the calls around it: no earlier than @lower
 * (its caller's start, its previous sibling's end), early enough and late
 * enough to hold the calls it made. The kernel's durations and the ring
 * buffer's timestamps come from different clock reads (and, across CPUs,
 * clocks), so they can disagree by the time it takes to write an event, and
 * a burst of events can carry one timestamp; these bounds keep a timeline
 * nested where they do, moving a call later rather than shortening it.
 */
struct frame {
	struct kmag_call call;
	uint64_t active;	/* bloom set of the functions of this frame and all below */
	uint64_t lower;		/* earliest start that keeps it inside its caller */
	uint64_t first_child_start;	/* of the calls it made so far, UINT64_MAX = none */
	uint64_t last_child_end;	/* of the calls it made so far, 0 = none */
	uint32_t flags;
	/* then each subscriber's data, at its offset */
};

struct task {
	char *frames;		/* nr frames of r->stride bytes */
	uint32_t nr, cap;
	uint64_t root_last_end;	/* end of the last outermost call */
	int32_t last_cpu;
	uint64_t last_ts;
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
	uint64_t next_id;
	bool started;
	struct kmag_replay_stats st;
};

struct kmag_replay *kmag_replay_new(void)
{
	struct kmag_replay *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	u64map_init(&r->task_index);
	r->stride = sizeof(struct frame);
	r->last_key = UINT64_MAX;
	return r;
}

void kmag_replay_free(struct kmag_replay *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nr_tasks; i++) {
		free(r->tasks[i].frames);
	}
	free(r->tasks);
	u64map_release(&r->task_index);
	free(r);
}

int kmag_replay_subscribe(struct kmag_replay *r, const struct kmag_replay_ops *ops, void *ctx)
{
	struct subscriber *s;

	if (r->started)
		return -EBUSY;
	if (r->nr_subs == MAX_SUBSCRIBERS)
		return -ENOMEM;
	s = &r->subs[r->nr_subs++];
	s->ops = ops;
	s->ctx = ctx;
	s->offset = r->stride;
	{
		call_hook fns[NR_HOOKS] = { ops->enter, ops->named, ops->leave };
		int h;

		for (h = 0; h < NR_HOOKS; h++)
			if (fns[h])
				r->hooks[h][r->nr_hooks[h]++] =
					(struct bound_hook){ fns[h], ctx, r->stride };
	}
	r->stride += (ops->data_size + 7) & ~(size_t)7;
	return 0;
}

const struct kmag_replay_stats *kmag_replay_stats(const struct kmag_replay *r)
{
	return &r->st;
}

static inline struct frame *frame_at(const struct kmag_replay *r, const struct task *t, size_t i)
{
	return (struct frame *)(t->frames + i * r->stride);
}

static inline struct frame *top(const struct kmag_replay *r, const struct task *t)
{
	return t->nr ? frame_at(r, t, t->nr - 1) : NULL;
}

size_t kmag_replay_nr_open(const struct kmag_replay *r)
{
	return r->cur ? r->cur->nr : 0;
}

const struct kmag_call *kmag_replay_open(const struct kmag_replay *r, size_t i)
{
	return r->cur && i < r->cur->nr ? &frame_at(r, r->cur, i)->call : NULL;
}

void *kmag_replay_open_data(const struct kmag_replay *r, size_t i,
			    const struct kmag_replay_ops *ops)
{
	size_t k;

	if (!r->cur || i >= r->cur->nr)
		return NULL;
	for (k = 0; k < r->nr_subs; k++)
		if (r->subs[k].ops == ops)
			return (char *)frame_at(r, r->cur, i) + r->subs[k].offset;
	return NULL;
}

/* ---- delivering to subscribers ---- */

/* Calls @hook of every subscriber for @f, whose parent is @p (may be NULL). */
static inline int deliver(struct kmag_replay *r, enum hook hook, struct frame *f, struct frame *p)
{
	const struct bound_hook *b = r->hooks[hook];
	size_t i, n = r->nr_hooks[hook];
	int ret;

	for (i = 0; i < n; i++) {
		ret = b[i].fn(b[i].ctx, &f->call, (char *)f + b[i].offset, p ? &p->call : NULL,
			      p ? (char *)p + b[i].offset : NULL);
		if (unlikely(ret))
			return ret;
	}
	return 0;
}

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

/* Pushes a zeroed frame for a call at @depth of task @t; NULL on ENOMEM. */
static struct frame *frame_push(struct kmag_replay *r, struct task *t, const struct kmag_event *ev,
				int32_t depth)
{
	struct frame *f, *p;

	if (t->nr == t->cap) {
		size_t cap = t->cap ? (size_t)t->cap * 2 : 16;
		char *v = realloc(t->frames, cap * r->stride);

		if (!v || cap > UINT32_MAX) {
			if (v)
				t->frames = v;
			return NULL;
		}
		t->frames = v;
		t->cap = (uint32_t)cap;
	}
	p = top(r, t);
	f = frame_at(r, t, t->nr++);
	f->call = (struct kmag_call){
		.func = KMAG_FUNC_NONE, .pid = ev->pid, .cpu = ev->cpu, .depth = depth,
		.start_ns = KMAG_TS_NONE, .end_ns = KMAG_TS_NONE, .duration = KMAG_DURATION_NONE,
		.id = ++r->next_id, .parent_id = p && p->call.depth == depth - 1 ? p->call.id : 0,
		.caller = KMAG_FUNC_NONE, .caller_off = KMAG_OFF_NONE,
	};
	f->active = p ? p->active : 0;
	f->lower = !p ? t->root_last_end : p->lower > p->last_child_end ? p->lower :
									  p->last_child_end;
	f->first_child_start = UINT64_MAX;
	f->last_child_end = 0;
	f->flags = 0;
	/* the subscribers' data starts zeroed */
	memset(f + 1, 0, r->stride - sizeof(*f));
	return f;
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

/*
 * Ends the top frame of @t at @end: its time (if @dur is known) goes to its
 * parent, and its start and end bound those of the calls around it.
 */
static int frame_leave(struct kmag_replay *r, struct task *t, uint64_t end, uint64_t dur,
		       uint8_t flags)
{
	struct frame *f = top(r, t);
	struct frame *p = t->nr > 1 ? frame_at(r, t, t->nr - 2) : NULL;
	struct frame *caller = p && p->call.depth == f->call.depth - 1 ? p : NULL;

	f->call.flags |= flags;
	/* a call whose entry is missing began no later than the first call it made */
	if (f->call.start_ns == KMAG_TS_NONE && f->first_child_start != UINT64_MAX)
		f->call.start_ns = f->first_child_start;
	if (end != KMAG_TS_NONE) {
		/* inside its caller, after its previous sibling, around its calls */
		if (f->call.start_ns != KMAG_TS_NONE && f->call.start_ns < f->lower)
			f->call.start_ns = f->lower;
		if (f->call.start_ns != KMAG_TS_NONE && end < f->call.start_ns)
			end = f->call.start_ns;
		if (end < f->last_child_end)
			end = f->last_child_end;
	}
	f->call.end_ns = end;
	f->call.duration = dur;
	if ((flags & KMAG_CALL_NO_EXIT) && !(f->flags & FR_PLACEHOLDER))
		r->st.unfinished_entries++;	/* a placeholder had no entry to finish */
	/* an enclosing call that is not its caller (levels are missing) still ran it */
	if (dur != KMAG_DURATION_NONE && p)
		p->call.child_ns += dur;
	if (end != KMAG_TS_NONE) {
		uint64_t start = f->call.start_ns != KMAG_TS_NONE ? f->call.start_ns : end;

		if (!p)
			t->root_last_end = end;
		else {
			p->last_child_end = end;
			if (start < p->first_child_start)
				p->first_child_start = start;
		}
	}
	t->nr--;	/* the frame's memory stays valid until the next push */
	return deliver(r, HOOK_LEAVE, f, caller);
}

/* Makes the stack of @t hold frames exactly up to depth @depth - 1. */
static int stack_fit(struct kmag_replay *r, struct task *t, const struct kmag_event *ev,
		     int32_t depth)
{
	struct frame *f;
	int ret;

	while ((f = top(r, t)) && f->call.depth >= depth)
		if ((ret = frame_leave(r, t, ev->ts, KMAG_DURATION_NONE, KMAG_CALL_NO_EXIT)))
			return ret;
	if (depth > MAX_PLACEHOLDER_DEPTH)
		depth = MAX_PLACEHOLDER_DEPTH;
	/* missing levels below: placeholders, named later by their exits */
	for (;;) {
		struct frame *p = top(r, t);
		int32_t d = p ? p->call.depth + 1 : 0;

		if (d >= depth)
			return 0;
		f = frame_push(r, t, ev, d);
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

static int graph_entry(struct kmag_replay *r, struct task *t, const struct kmag_event *ev)
{
	struct frame *f, *p;
	int32_t depth;
	int ret;

	if (ev->func == KMAG_FUNC_NONE)
		return 0;
	p = top(r, t);
	depth = ev->depth >= 0 ? ev->depth : (p ? p->call.depth + 1 : 0);
	if ((ret = stack_fit(r, t, ev, depth)) || (ret = name_from_call_site(r, t, ev, depth)))
		return ret;
	f = frame_push(r, t, ev, depth);
	if (!f)
		return -ENOMEM;
	f->call.start_ns = ev->ts;
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

/*
 * Sets the start and end of the top frame @f, whose exit @ev came after
 * @dur (see struct frame): without a timestamp or a duration, the entry's
 * timestamp (if any) and the exit's.
 */
static void exit_times(struct frame *f, const struct kmag_event *ev, uint64_t dur)
{
	uint64_t start;

	f->call.end_ns = ev->ts;
	if (ev->ts == KMAG_TS_NONE || dur == KMAG_DURATION_NONE)
		return;
	start = dur <= ev->ts ? ev->ts - dur : 0;
	if (start > f->first_child_start)
		start = f->first_child_start;
	if (start < f->lower) {
		/*
		 * A call seen whole but stamped no later than what came before it
		 * keeps its length and moves later; one whose entry is missing is
		 * cut (its duration may span calls the trace lost the depth of).
		 */
		start = f->lower;
		if (!(f->call.flags & KMAG_CALL_NO_ENTRY) && f->call.end_ns < start + dur)
			f->call.end_ns = start + dur;
	}
	f->call.start_ns = start;
}

/* Completes the top frame, whose exit is @ev, after @dur. */
static int complete(struct kmag_replay *r, struct task *t, const struct kmag_event *ev,
		    uint64_t dur)
{
	struct frame *f = top(r, t);

	exit_times(f, ev, dur);
	f->call.retval = ev->retval;
	f->call.has_retval = ev->has_retval;
	return frame_leave(r, t, f->call.end_ns, dur, 0);
}

/* An exit naming a placeholder: the call's entry came before the trace (or was lost). */
static int name_placeholder(struct kmag_replay *r, struct task *t, const struct kmag_event *ev)
{
	struct frame *f = top(r, t);
	struct frame *p = t->nr > 1 ? frame_at(r, t, t->nr - 2) : NULL;
	uint64_t dur = exit_duration(ev, KMAG_TS_NONE);
	int ret;

	r->st.unmatched_exits++;
	if (ev->func == KMAG_FUNC_NONE)
		return frame_leave(r, t, ev->ts, KMAG_DURATION_NONE, KMAG_CALL_NO_EXIT);
	f->flags &= ~FR_PLACEHOLDER;
	f->call.ctx = ev->ctx;
	f->call.cpu = ev->cpu;
	frame_name(r, t, f, ev->func);
	exit_times(f, ev, dur);
	if ((ret = deliver(r, HOOK_NAMED, f, p)))
		return ret;
	return complete(r, t, ev, dur);
}

/* An exit with no call open at its depth. */
static int exit_alone(struct kmag_replay *r, struct task *t, const struct kmag_event *ev,
		      int32_t depth)
{
	struct frame *f, *p;
	uint64_t dur = exit_duration(ev, KMAG_TS_NONE);
	int ret;

	r->st.unmatched_exits++;
	if (ev->func == KMAG_FUNC_NONE)
		return 0;
	/* its callers at the missing levels: placeholders, named by their exits to come */
	if ((ret = stack_fit(r, t, ev, depth)))
		return ret;
	f = frame_push(r, t, ev, depth);
	if (!f)
		return -ENOMEM;
	p = t->nr > 1 ? frame_at(r, t, t->nr - 2) : NULL;
	if (p && p->call.depth != depth - 1)
		p = NULL;
	f->call.flags = KMAG_CALL_NO_ENTRY;
	f->call.ctx = ev->ctx;
	frame_name(r, t, f, ev->func);
	exit_times(f, ev, dur);
	if ((ret = deliver(r, HOOK_ENTER, f, p)))
		return ret;
	return complete(r, t, ev, dur);
}

static int graph_exit(struct kmag_replay *r, struct task *t, const struct kmag_event *ev)
{
	struct frame *f = top(r, t);
	int32_t depth = ev->depth >= 0 ? ev->depth : (f ? f->call.depth : 0);
	int ret;

	/* calls above the returning one lost their exits */
	while ((f = top(r, t)) && f->call.depth > depth)
		if ((ret = frame_leave(r, t, ev->ts, KMAG_DURATION_NONE, KMAG_CALL_NO_EXIT)))
			return ret;
	if (f && f->call.depth == depth) {
		if (f->flags & FR_PLACEHOLDER)
			return name_placeholder(r, t, ev);
		if (ev->func == KMAG_FUNC_NONE || f->call.func == ev->func)
			return complete(r, t, ev, exit_duration(ev, f->call.start_ns));
		/* a different function returned at this depth: records were lost */
		if ((ret = frame_leave(r, t, ev->ts, KMAG_DURATION_NONE, KMAG_CALL_NO_EXIT)))
			return ret;
	}
	return exit_alone(r, t, ev, depth);
}

/* Events were lost on @cpu: every call open on a task last seen there is suspect. */
static void lost_on_cpu(struct kmag_replay *r, int32_t cpu)
{
	size_t i, j;

	for (i = 0; i < r->nr_tasks; i++) {
		struct task *t = &r->tasks[i];

		if (t->last_cpu != cpu && cpu >= 0)
			continue;
		for (j = 0; j < t->nr; j++)
			frame_at(r, t, j)->call.flags |= KMAG_CALL_LOST;
	}
}

int kmag_replay_add(struct kmag_replay *r, const struct kmag_event *ev)
{
	struct task *t;

	r->started = true;
	if (ev->type != KMAG_EV_GRAPH_ENTRY && ev->type != KMAG_EV_GRAPH_EXIT) {
		if (ev->type == KMAG_EV_LOST)
			lost_on_cpu(r, ev->cpu);
		return deliver_event(r, ev);
	}
	r->st.graph_events++;
	t = task_of(r, ev);
	if (!t)
		return -ENOMEM;
	t->last_cpu = ev->cpu;
	if (ev->ts != KMAG_TS_NONE)
		t->last_ts = ev->ts;
	if (ev->type == KMAG_EV_GRAPH_ENTRY)
		return graph_entry(r, t, ev);
	return graph_exit(r, t, ev);
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
	for (i = 0; i < r->nr_tasks; i++) {
		struct task *t = &r->tasks[i];
		uint64_t end = end_ns != KMAG_TS_NONE ? end_ns : t->last_ts;

		r->cur = t;
		r->last_key = UINT64_MAX;
		while (t->nr)
			if ((ret = frame_leave(r, t, end, KMAG_DURATION_NONE, KMAG_CALL_NO_EXIT)))
				return ret;
	}
	r->cur = NULL;
	return 0;
}
