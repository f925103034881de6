// SPDX-License-Identifier: MIT
/*
 * calls.c - replay function_graph entries and exits into calls.
 *
 * One stack per task (the idle task, pid 0, has one per CPU), placed by the
 * depth field as in callgraph.c: an entry at depth d ends the open calls at
 * depth >= d (their exits were lost); an exit at depth d ends the calls
 * above d and completes the one at d if it is the same function. An exit
 * with no open call is delivered with its start computed from the kernel's
 * duration. Start and end come from the event timestamps, so calls of one
 * task always nest.
 */
#define PR_DOMAIN "calls"
#include "internal.h"
#include "kmag/calls.h"
#include "util/u64map.h"

struct open_call {
	kmag_func_t func;
	int32_t depth, cpu;
	uint64_t start;
	uint8_t ctx;
};

#define MAX_TRACKED_DEPTH 4096

/* What the calls completed at one depth tell about the next call there. */
struct level {
	uint64_t last_end;		/* end of the last call completed at this depth */
	uint64_t first_child_start;	/* earliest start of the calls completed deeper
					   since then (UINT64_MAX = none): its children */
};

struct call_stack {
	struct open_call *v;
	size_t nr, cap;
	struct level *lv;	/* by depth, for calls whose entry is missing */
	size_t nr_lv;
	int32_t pid;
	uint64_t last_ts;
};

struct kmag_calls {
	kmag_call_fn fn;
	void *ctx;
	struct call_stack *stacks;
	size_t nr, cap;
	struct u64map index;	/* task key -> stack */
};

struct kmag_calls *kmag_calls_new(kmag_call_fn fn, void *ctx)
{
	struct kmag_calls *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->fn = fn;
	r->ctx = ctx;
	u64map_init(&r->index);
	return r;
}

void kmag_calls_free(struct kmag_calls *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nr; i++) {
		free(r->stacks[i].v);
		free(r->stacks[i].lv);
	}
	free(r->stacks);
	u64map_release(&r->index);
	free(r);
}

static struct call_stack *stack_of(struct kmag_calls *r, const struct kmag_event *ev)
{
	/* idle (pid 0) and unknown tasks: one stack per CPU, apart from real pids */
	uint64_t key = ev->pid > 0 ? (uint64_t)(uint32_t)ev->pid :
				     1ull << 32 | (uint32_t)(ev->cpu + 1) |
					     (uint64_t)(ev->pid < 0) << 33;
	uint64_t *slot;
	bool inserted;

	slot = u64map_upsert(&r->index, key, r->nr, &inserted);
	if (!slot)
		return NULL;
	if (inserted) {
		if (kmag__grow(&r->stacks, &r->cap, r->nr + 1, sizeof(*r->stacks))) {
			*slot = UINT64_MAX;
			return NULL;
		}
		memset(&r->stacks[r->nr], 0, sizeof(r->stacks[0]));
		r->stacks[r->nr].pid = ev->pid;
		r->nr++;
	}
	if (*slot >= r->nr)
		return NULL;
	return &r->stacks[*slot];
}

/*
 * Remembers a call at @depth from @start to @end: its end bounds the start of
 * a later call at that depth whose entry is missing, and its start (or its
 * children's) bounds that of a missing-entry call above it, which must
 * contain it.
 */
static int note_call(struct call_stack *s, int32_t depth, uint64_t start, uint64_t end)
{
	size_t old = s->nr_lv, i;
	uint64_t first;

	if (depth < 0 || depth >= MAX_TRACKED_DEPTH)
		return 0;
	if ((size_t)depth >= old) {
		if (kmag__grow(&s->lv, &s->nr_lv, (size_t)depth + 1, sizeof(*s->lv)))
			return -ENOMEM;
		for (i = old; i < s->nr_lv; i++)
			s->lv[i] = (struct level){ 0, UINT64_MAX };
	}
	first = s->lv[depth].first_child_start < start ? s->lv[depth].first_child_start : start;
	s->lv[depth] = (struct level){ end, UINT64_MAX };
	if (depth > 0 && first < s->lv[depth - 1].first_child_start)
		s->lv[depth - 1].first_child_start = first;
	return 0;
}

/* Ends the top call of @s at @end with @flags. */
static int pop_call(struct kmag_calls *r, struct call_stack *s, uint64_t end, uint8_t flags)
{
	struct open_call *o = &s->v[--s->nr];
	struct kmag_call c = {
		.func = o->func, .pid = s->pid, .cpu = o->cpu, .depth = o->depth,
		.start_ns = o->start, .end_ns = end >= o->start ? end : o->start,
		.ctx = o->ctx, .flags = flags,
	};

	if (note_call(s, c.depth, c.start_ns, c.end_ns))
		return -ENOMEM;
	return r->fn(&c, r->ctx);
}

int kmag_calls_add(struct kmag_calls *r, const struct kmag_event *ev)
{
	struct call_stack *s;
	int32_t depth;
	int ret;

	if (ev->type != KMAG_EV_GRAPH_ENTRY && ev->type != KMAG_EV_GRAPH_EXIT)
		return 0;
	if (ev->ts == KMAG_TS_NONE)
		return -ENODATA;
	s = stack_of(r, ev);
	if (!s)
		return -ENOMEM;
	s->last_ts = ev->ts;
	if (ev->type == KMAG_EV_GRAPH_ENTRY) {
		struct open_call *o;

		if (ev->func == KMAG_FUNC_NONE)
			return 0;
		depth = ev->depth >= 0 ? ev->depth : (s->nr ? s->v[s->nr - 1].depth + 1 : 0);
		while (s->nr && s->v[s->nr - 1].depth >= depth) {
			ret = pop_call(r, s, ev->ts, KMAG_CALL_NO_EXIT);
			if (ret)
				return ret;
		}
		if (kmag__grow(&s->v, &s->cap, s->nr + 1, sizeof(*s->v)))
			return -ENOMEM;
		o = &s->v[s->nr++];
		o->func = ev->func;
		o->depth = depth;
		o->cpu = ev->cpu;
		o->start = ev->ts;
		o->ctx = ev->ctx;
		return 0;
	}
	depth = ev->depth >= 0 ? ev->depth : (s->nr ? s->v[s->nr - 1].depth : 0);
	while (s->nr && s->v[s->nr - 1].depth > depth) {
		ret = pop_call(r, s, ev->ts, KMAG_CALL_NO_EXIT);
		if (ret)
			return ret;
	}
	if (s->nr && s->v[s->nr - 1].depth == depth) {
		if (ev->func == KMAG_FUNC_NONE || s->v[s->nr - 1].func == ev->func)
			return pop_call(r, s, ev->ts, 0);
		/* another function returned at this depth: the open one lost its exit */
		ret = pop_call(r, s, ev->ts, KMAG_CALL_NO_EXIT);
		if (ret)
			return ret;
	}
	if (ev->func == KMAG_FUNC_NONE)
		return 0;
	{
		/* an exit whose entry the trace does not have */
		uint64_t dur = ev->duration != KMAG_DURATION_NONE ? ev->duration : 0;
		uint64_t start = ev->ts >= dur ? ev->ts - dur : 0;
		struct kmag_call c = {
			.func = ev->func, .pid = ev->pid, .cpu = ev->cpu, .depth = depth,
			.start_ns = start, .end_ns = ev->ts, .ctx = ev->ctx,
			.flags = KMAG_CALL_NO_ENTRY,
		};

		size_t d;

		/*
		 * Keep the timeline nested even if the duration disagrees with the
		 * timestamps: it cannot have started before the call it returned
		 * into, nor before a call at its depth or above had ended; and it
		 * contains the calls completed below it since then.
		 */
		if (s->nr && c.start_ns < s->v[s->nr - 1].start)
			c.start_ns = s->v[s->nr - 1].start;
		for (d = 0; d <= (size_t)depth && d < s->nr_lv; d++)
			if (c.start_ns < s->lv[d].last_end && s->lv[d].last_end <= c.end_ns)
				c.start_ns = s->lv[d].last_end;
		for (d = (size_t)depth; d < s->nr_lv; d++)
			if (s->lv[d].first_child_start < c.start_ns)
				c.start_ns = s->lv[d].first_child_start;
		for (d = (size_t)depth + 1; d < s->nr_lv; d++)
			s->lv[d].first_child_start = UINT64_MAX;
		if (note_call(s, depth, c.start_ns, c.end_ns))
			return -ENOMEM;
		return r->fn(&c, r->ctx);
	}
}

int kmag_calls_finish(struct kmag_calls *r, uint64_t end_ns)
{
	size_t i;
	int ret;

	for (i = 0; i < r->nr; i++) {
		struct call_stack *s = &r->stacks[i];
		uint64_t end = end_ns != KMAG_TS_NONE ? end_ns : s->last_ts;

		while (s->nr) {
			ret = pop_call(r, s, end, KMAG_CALL_NO_EXIT);
			if (ret)
				return ret;
		}
	}
	return 0;
}
