// SPDX-License-Identifier: MIT
/*
 * durations.c - the minimum-duration filter and the slowest calls (see
 * include/kmag/durations.h). Both replay function_graph events on one small
 * stack per task, keyed like the call graph's (pid, or CPU for the idle
 * tasks), placed by the depth field so lost records cannot shift a stack.
 */
#define PR_DOMAIN "durations"
#include <math.h>

#include "internal.h"
#include "kmag/durations.h"
#include "util/u64map.h"

#define MAX_DEPTH 512

static uint64_t task_key(const struct kmag_event *ev)
{
	/* every CPU's idle task is pid 0: keep their stacks apart */
	return ev->pid > 0 ? (uint64_t)(uint32_t)ev->pid : (1ull << 40) | (uint32_t)ev->cpu;
}

/* ---- minimum duration ---- */

struct held {
	struct kmag_event ev;	/* the entry (GRAPH_ENTRY carries no borrowed pointers) */
	bool passed;		/* already handed on */
};

struct held_stack {
	struct held *v;
	size_t n, cap;
};

struct kmag_mindur {
	uint64_t min_ns;
	kmag_event_fn next;
	void *next_ctx;
	struct u64map index;		/* task key -> stacks index */
	struct held_stack *stacks;
	size_t nr, cap;
	uint64_t dropped;
};

struct kmag_mindur *kmag_mindur_new(uint64_t min_ns, kmag_event_fn next, void *next_ctx)
{
	struct kmag_mindur *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->min_ns = min_ns;
	m->next = next;
	m->next_ctx = next_ctx;
	u64map_init(&m->index);
	return m;
}

void kmag_mindur_free(struct kmag_mindur *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nr; i++)
		free(m->stacks[i].v);
	free(m->stacks);
	u64map_release(&m->index);
	free(m);
}

uint64_t kmag_mindur_dropped(const struct kmag_mindur *m)
{
	return m->dropped;
}

static struct held_stack *held_of(struct kmag_mindur *m, const struct kmag_event *ev)
{
	bool inserted;
	uint64_t *v = u64map_upsert(&m->index, task_key(ev), m->nr, &inserted);

	if (!v)
		return NULL;
	if (inserted) {
		if (kmag__grow(&m->stacks, &m->cap, m->nr + 1, sizeof(*m->stacks)))
			return NULL;
		memset(&m->stacks[m->nr], 0, sizeof(m->stacks[0]));
		m->nr++;
	}
	return &m->stacks[*v];
}

int kmag_mindur_event_fn(const struct kmag_event *ev, void *ctx)
{
	struct kmag_mindur *m = ctx;
	struct held_stack *hs;
	size_t i, k;
	int ret;

	if (ev->type != KMAG_EV_GRAPH_ENTRY && ev->type != KMAG_EV_GRAPH_EXIT)
		return m->next(ev, m->next_ctx);
	hs = held_of(m, ev);
	if (!hs)
		return -ENOMEM;
	/* frames at this depth or deeper lost their exits */
	while (hs->n && hs->v[hs->n - 1].ev.depth >= ev->depth &&
	       (ev->type == KMAG_EV_GRAPH_ENTRY || hs->v[hs->n - 1].ev.depth > ev->depth))
		hs->n--;
	if (ev->type == KMAG_EV_GRAPH_ENTRY) {
		if (hs->n >= MAX_DEPTH)
			return 0;
		if (kmag__grow(&hs->v, &hs->cap, hs->n + 1, sizeof(*hs->v)))
			return -ENOMEM;
		hs->v[hs->n++] = (struct held){ *ev, false };
		return 0;
	}
	/* an exit: its entry, if seen, is on top */
	k = hs->n && hs->v[hs->n - 1].ev.depth == ev->depth ? hs->n - 1 : SIZE_MAX;
	if (ev->duration != KMAG_DURATION_NONE && ev->duration < m->min_ns &&
	    (k == SIZE_MAX || !hs->v[k].passed)) {
		m->dropped++;
		if (k != SIZE_MAX)
			hs->n--;
		return 0;
	}
	/* kept: so are its callers (they lasted longer), entries first */
	for (i = 0; k != SIZE_MAX && i <= k; i++) {
		if (hs->v[i].passed)
			continue;
		hs->v[i].passed = true;
		if ((ret = m->next(&hs->v[i].ev, m->next_ctx)))
			return ret;
	}
	if (k != SIZE_MAX)
		hs->n--;
	return m->next(ev, m->next_ctx);
}

/* ---- slowest calls ---- */

struct open_frame {
	kmag_func_t func;
	int32_t depth;
	uint64_t ts;
};

struct open_stack {
	struct open_frame *v;
	size_t n, cap;
};

struct slot {
	struct kmag_slow_call pub;
	kmag_func_t *chain;
	size_t cap_chain;
};

struct kmag_slowest {
	size_t want;
	struct slot *heap;		/* min-heap on duration, want entries at most */
	size_t n;
	struct u64map index;		/* task key -> stacks index */
	struct open_stack *stacks;
	size_t nr, cap;
	bool sorted;
};

struct kmag_slowest *kmag_slowest_new(size_t n)
{
	struct kmag_slowest *s = calloc(1, sizeof(*s));

	if (!s || !n || !(s->heap = calloc(n, sizeof(*s->heap)))) {
		free(s);
		return NULL;
	}
	s->want = n;
	u64map_init(&s->index);
	return s;
}

void kmag_slowest_free(struct kmag_slowest *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->want; i++)
		free(s->heap[i].chain);
	for (i = 0; i < s->nr; i++)
		free(s->stacks[i].v);
	free(s->heap);
	free(s->stacks);
	u64map_release(&s->index);
	free(s);
}

static void slot_swap(struct slot *a, struct slot *b)
{
	struct slot t = *a;

	*a = *b;
	*b = t;
}

static void sift_down(struct slot *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < n && h[l].pub.duration < h[m].pub.duration)
			m = l;
		if (r < n && h[r].pub.duration < h[m].pub.duration)
			m = r;
		if (m == i)
			return;
		slot_swap(&h[i], &h[m]);
		i = m;
	}
}

static void sift_up(struct slot *h, size_t i)
{
	while (i && h[(i - 1) / 2].pub.duration > h[i].pub.duration) {
		slot_swap(&h[i], &h[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
}

/* Records call @ev (an exit) with the frames below it on @os. */
static int keep_call(struct kmag_slowest *s, const struct kmag_event *ev,
		     const struct open_stack *os, size_t below, uint64_t entry_ts)
{
	struct slot *sl;
	size_t i, slot_i;
	int32_t expect = 0;
	bool partial = false;

	if (s->n < s->want) {
		slot_i = s->n++;
	} else {
		if (ev->duration <= s->heap[0].pub.duration)
			return 0;
		slot_i = 0;
	}
	sl = &s->heap[slot_i];
	if (kmag__grow(&sl->chain, &sl->cap_chain, below + 1, sizeof(*sl->chain)))
		return -ENOMEM;
	for (i = 0; i < below; i++) {
		partial |= os->v[i].depth != expect;
		expect = os->v[i].depth + 1;
		sl->chain[i] = os->v[i].func;
	}
	partial |= expect != ev->depth;
	sl->chain[below] = ev->func;
	sl->pub = (struct kmag_slow_call){
		.func = ev->func, .duration = ev->duration, .entry_ts = entry_ts,
		.pid = ev->pid, .cpu = ev->cpu, .depth = ev->depth, .chain = sl->chain,
		.nr_chain = below + 1, .chain_partial = partial,
	};
	if (slot_i == 0 && s->n == s->want)
		sift_down(s->heap, s->n, 0);
	else
		sift_up(s->heap, slot_i);
	return 0;
}

int kmag_slowest_add(struct kmag_slowest *s, const struct kmag_event *ev)
{
	struct open_stack *os;
	bool inserted;
	uint64_t *v, entry_ts = KMAG_TS_NONE;
	size_t below;
	int ret = 0;

	if (ev->type != KMAG_EV_GRAPH_ENTRY && ev->type != KMAG_EV_GRAPH_EXIT)
		return 0;
	v = u64map_upsert(&s->index, task_key(ev), s->nr, &inserted);
	if (!v)
		return -ENOMEM;
	if (inserted) {
		if (kmag__grow(&s->stacks, &s->cap, s->nr + 1, sizeof(*s->stacks)))
			return -ENOMEM;
		memset(&s->stacks[s->nr], 0, sizeof(s->stacks[0]));
		s->nr++;
	}
	os = &s->stacks[*v];
	while (os->n && os->v[os->n - 1].depth > ev->depth)
		os->n--;
	if (ev->type == KMAG_EV_GRAPH_ENTRY) {
		if (os->n && os->v[os->n - 1].depth == ev->depth)
			os->n--;	/* its exit was lost */
		if (os->n >= MAX_DEPTH)
			return 0;
		if (kmag__grow(&os->v, &os->cap, os->n + 1, sizeof(*os->v)))
			return -ENOMEM;
		os->v[os->n++] = (struct open_frame){ ev->func, ev->depth, ev->ts };
		return 0;
	}
	below = os->n;
	if (os->n && os->v[os->n - 1].depth == ev->depth) {
		below = os->n - 1;
		entry_ts = os->v[below].ts;
	}
	if (ev->duration != KMAG_DURATION_NONE) {
		if (entry_ts == KMAG_TS_NONE && ev->calltime != KMAG_TS_NONE)
			entry_ts = ev->calltime;
		ret = keep_call(s, ev, os, below, entry_ts);
	}
	os->n = below;
	return ret;
}

int kmag_slowest_event_fn(const struct kmag_event *ev, void *ctx)
{
	return kmag_slowest_add(ctx, ev);
}

static int by_duration_desc(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	if (x->pub.duration != y->pub.duration)
		return x->pub.duration < y->pub.duration ? 1 : -1;
	return x->pub.entry_ts < y->pub.entry_ts ? -1 : x->pub.entry_ts > y->pub.entry_ts;
}

void kmag_slowest_finish(struct kmag_slowest *s)
{
	if (s->n)
		qsort(s->heap, s->n, sizeof(*s->heap), by_duration_desc);
	s->sorted = true;
}

size_t kmag_slowest_count(const struct kmag_slowest *s)
{
	return s ? s->n : 0;
}

const struct kmag_slow_call *kmag_slowest_get(const struct kmag_slowest *s, size_t i)
{
	return s && i < s->n ? &s->heap[i].pub : NULL;
}

int kmag_duration_parse(const char *s, uint64_t *ns)
{
	static const struct {
		const char *unit;
		double mul;
	} units[] = { { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "", 1e3 } };
	char *end;
	double v;
	size_t i;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (!strcmp(end, units[i].unit)) {
			v *= units[i].mul;
			if (v > 1e18)
				return -EINVAL;
			*ns = (uint64_t)llround(v);
			return 0;
		}
	}
	return -EINVAL;
}
