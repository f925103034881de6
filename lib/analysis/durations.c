// SPDX-License-Identifier: MIT
/*
 * durations.c - the minimum-duration filter and the slowest calls (see
 * include/kmag/durations.h). Both subscribe to the one replay (replay.c):
 * the slowest calls to the graph's, the minimum-duration filter to its own,
 * in front of the graph's (it decides which entries and exits that one sees).
 */
#define PR_DOMAIN "durations"
#include <inttypes.h>
#include <math.h>

#include "internal.h"
#include "kmag/durations.h"
#include "kmag/replay.h"



/* ---- minimum duration ---- */

/*
 * The filter replays the events (the one replay) to learn which calls last
 * long enough, and passes on the entry and exit events of those calls only:
 * an entry is held (as its call's data) until the call or one of its
 * descendants proves long enough, so the next consumer sees entries first,
 * in time order, and memory grows with the call depth only.
 */
struct kmag_mindur {
	uint64_t min_ns;
	kmag_event_fn next;
	void *next_ctx;
	struct kmag_replay *replay;	/* owned */
	uint64_t dropped, passed;
	uint64_t longest_ns;		/* KMAG_DURATION_NONE: no timed call yet */
	kmag_func_t longest_func;
};

struct held {
	bool passed;		/* its entry was handed on */
};

static const struct kmag_replay_ops mindur_ops;

struct kmag_mindur *kmag_mindur_new(uint64_t min_ns, kmag_event_fn next, void *next_ctx)
{
	struct kmag_mindur *m = malloc(sizeof(*m));

	if (!m)
		return NULL;
	*m = (struct kmag_mindur){ .min_ns = min_ns, .next = next, .next_ctx = next_ctx,
				   .longest_ns = KMAG_DURATION_NONE, .longest_func = KMAG_FUNC_NONE,
				   .replay = kmag_replay_new() };
	if (!m->replay || kmag_replay_subscribe(m->replay, &mindur_ops, m)) {
		kmag_mindur_free(m);
		return NULL;
	}
	return m;
}

void kmag_mindur_free(struct kmag_mindur *m)
{
	if (!m)
		return;
	kmag_replay_free(m->replay);
	free(m);
}

uint64_t kmag_mindur_dropped(const struct kmag_mindur *m)
{
	return m->dropped;
}

uint64_t kmag_mindur_passed(const struct kmag_mindur *m)
{
	return m->passed;
}

uint64_t kmag_mindur_longest(const struct kmag_mindur *m, kmag_func_t *func)
{
	if (func)
		*func = m->longest_func;
	return m->longest_ns;
}

void kmag_mindur_explain(char *buf, size_t size, const char *input, uint64_t min_ns,
			 uint64_t longest_ns, const char *func)
{
	char a[32], b[32];

	if (longest_ns == KMAG_DURATION_NONE)
		snprintf(buf, size, "no call in %s lasted %s or more (--min-duration): it has no call with a duration",
			 input, kmag_format_duration(a, sizeof(a), min_ns));
	else
		snprintf(buf, size, "no call in %s lasted %s or more (--min-duration): the longest, %s, took %s; give a shorter duration",
			 input, kmag_format_duration(a, sizeof(a), min_ns), func ? func : "[unknown]",
			 kmag_format_duration(b, sizeof(b), longest_ns));
}

/* Hands on the entry of open call @c (if the trace has it and it was not yet). */
static int pass_entry(struct kmag_mindur *m, const struct kmag_call *c, struct held *h)
{
	struct kmag_event ev = {
		.type = KMAG_EV_GRAPH_ENTRY, .ctx = c->ctx, .repeat = 1, .cpu = c->cpu,
		.pid = c->pid, .depth = c->depth, .ts = c->start_ns, .func = c->func,
		.parent = c->caller, .parent_ip = c->call_site, .parent_off = c->caller_off,
		.nargs = c->nargs, .duration = KMAG_DURATION_NONE, .calltime = KMAG_TS_NONE,
	};

	if (h->passed || c->func == KMAG_FUNC_NONE || (c->flags & KMAG_CALL_NO_ENTRY))
		return 0;
	h->passed = true;
	memcpy(ev.args, c->args, sizeof(ev.args));
	return m->next(&ev, m->next_ctx);
}

static int mindur_leave(void *ctx, const struct kmag_call *call, void *data,
			const struct kmag_call *parent, void *parent_data)
{
	struct kmag_mindur *m = ctx;
	struct held *h = data;
	size_t i, n = kmag_replay_nr_open(m->replay);
	struct kmag_event ev = {
		.type = KMAG_EV_GRAPH_EXIT, .ctx = call->ctx, .repeat = 1, .cpu = call->cpu,
		.pid = call->pid, .depth = call->depth, .ts = call->exit_ns, .func = call->func,
		.parent = KMAG_FUNC_NONE, .parent_off = KMAG_OFF_NONE, .duration = call->duration,
		.calltime = KMAG_TS_NONE,
		.retval = call->retval, .has_retval = call->has_retval,
	};
	int ret;

	(void)parent, (void)parent_data;
	/* ended without its exit: nothing to hand on (the next replay sees the gap itself) */
	if ((call->flags & KMAG_CALL_NO_EXIT) || call->func == KMAG_FUNC_NONE)
		return 0;
	if (call->duration != KMAG_DURATION_NONE &&
	    (m->longest_ns == KMAG_DURATION_NONE || call->duration > m->longest_ns)) {
		m->longest_ns = call->duration;
		m->longest_func = call->func;
	}
	if (call->duration != KMAG_DURATION_NONE && call->duration < m->min_ns && !h->passed) {
		m->dropped++;
		return 0;
	}
	/* kept: so are its callers (they lasted longer), entries first */
	for (i = 0; i < n; i++)
		if ((ret = pass_entry(m, kmag_replay_open(m->replay, i),
				      kmag_replay_open_data(m->replay, i, &mindur_ops))))
			return ret;
	if ((ret = pass_entry(m, call, h)))
		return ret;
	m->passed++;
	return m->next(&ev, m->next_ctx);
}

/* Other events pass unchanged. */
static int mindur_event(void *ctx, const struct kmag_event *ev)
{
	struct kmag_mindur *m = ctx;

	return m->next(ev, m->next_ctx);
}

static const struct kmag_replay_ops mindur_ops = {
	.data_size = sizeof(struct held),
	.leave = mindur_leave,
	.event = mindur_event,
};

int kmag_mindur_event_fn(const struct kmag_event *ev, void *ctx)
{
	struct kmag_mindur *m = ctx;

	return kmag_replay_add(m->replay, ev);
}

/* ---- slowest calls ---- */

struct slot {
	struct kmag_slow_call pub;
	kmag_func_t *chain;
	size_t cap_chain;
	struct kmag_slow_site *sites;	/* one per chain entry */
	size_t cap_sites;
};

struct kmag_slowest {
	size_t want;
	struct slot *heap;		/* min-heap on duration, want entries at most */
	size_t n;
	const struct kmag_replay *replay;	/* the calls' source, for their chains */
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
	return s;
}

void kmag_slowest_free(struct kmag_slowest *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->want; i++) {
		free(s->heap[i].chain);
		free(s->heap[i].sites);
	}
	free(s->heap);
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

/* A call left: kept if it is among the longest, with the calls open below it. */
static int on_leave(void *ctx, const struct kmag_call *call, void *data,
		    const struct kmag_call *parent, void *parent_data)
{
	struct kmag_slowest *s = ctx;
	size_t below = kmag_replay_nr_open(s->replay), i, n = 0;
	struct slot *sl;
	size_t slot_i;
	int32_t expect = 0;
	bool partial = false;

	(void)data, (void)parent, (void)parent_data;
	if (call->duration == KMAG_DURATION_NONE || call->func == KMAG_FUNC_NONE)
		return 0;
	if (s->n < s->want) {
		slot_i = s->n++;
	} else {
		if (call->duration <= s->heap[0].pub.duration)
			return 0;
		slot_i = 0;
	}
	sl = &s->heap[slot_i];
	if (kmag__grow(&sl->chain, &sl->cap_chain, below + 1, sizeof(*sl->chain)) ||
	    kmag__grow(&sl->sites, &sl->cap_sites, below + 1, sizeof(*sl->sites)))
		return -ENOMEM;
	for (i = 0; i < below; i++) {
		const struct kmag_call *o = kmag_replay_open(s->replay, i);

		/* a caller whose entry the trace does not have leaves a gap */
		partial |= o->depth != expect || o->func == KMAG_FUNC_NONE;
		expect = o->depth + 1;
		if (o->func != KMAG_FUNC_NONE) {
			sl->sites[n] = (struct kmag_slow_site){ o->caller, o->caller_off };
			sl->chain[n++] = o->func;
		}
	}
	partial |= expect != call->depth;
	sl->sites[n] = (struct kmag_slow_site){ call->caller, call->caller_off };
	sl->chain[n++] = call->func;
	sl->pub = (struct kmag_slow_call){
		.func = call->func, .duration = call->duration, .entry_ts = call->start_ns,
		.pid = call->pid, .cpu = call->cpu, .depth = call->depth, .chain = sl->chain,
		.nr_chain = n, .chain_partial = partial, .call = *call, .chain_sites = sl->sites,
	};
	if (slot_i == 0 && s->n == s->want)
		sift_down(s->heap, s->n, 0);
	else
		sift_up(s->heap, slot_i);
	return 0;
}

static const struct kmag_replay_ops slowest_ops = { .leave = on_leave };

int kmag_slowest_subscribe(struct kmag_slowest *s, struct kmag_replay *r)
{
	s->replay = r;
	return kmag_replay_subscribe(r, &slowest_ops, s);
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
