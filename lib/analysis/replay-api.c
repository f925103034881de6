// SPDX-License-Identifier: MIT
/*
 * replay-api.c - the one function_graph replay's life cycle and what its
 * subscribers may ask during a hook (see include/kmag/replay.h); the replay
 * itself is replay.c.
 */
#define PR_DOMAIN "replay"
#include "replay-internal.h"

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
		free(r->tasks[i].held);
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

int kmag_replay_set_cost(struct kmag_replay *r, uint64_t ns)
{
	if (r->started)
		return -EBUSY;
	r->cost_ns = ns;
	return 0;
}

const struct kmag_replay_stats *kmag_replay_stats(const struct kmag_replay *r)
{
	return &r->st;
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

void kmag_replay_slice(const struct kmag_call *call, uint64_t *start, uint64_t *end)
{
	const struct frame *f = (const struct frame *)((const char *)call -
						       offsetof(struct frame, call));

	if (f->flags & FR_LEFT) {
		*start = f->tl_lo;
		*end = f->tl_hi;
	} else {	/* an enter hook: where a call with its entry begins */
		*start = call->start_ns != KMAG_TS_NONE ? f->tl_lo : KMAG_TS_NONE;
		*end = KMAG_TS_NONE;
	}
}
