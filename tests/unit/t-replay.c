// SPDX-License-Identifier: MIT
#include <errno.h>

#include "kmag/replay.h"
#include "test.h"

struct got {
	struct kmag_call c[16];
	uint64_t slice[16][2];	/* kmag_replay_slice() of each */
	int n;
};

static int collect(void *ctx, const struct kmag_call *call, void *data,
		   const struct kmag_call *parent, void *parent_data)
{
	struct got *g = ctx;

	if (call->func != KMAG_FUNC_NONE && g->n < 16) {
		kmag_replay_slice(call, &g->slice[g->n][0], &g->slice[g->n][1]);
		g->c[g->n++] = *call;
	}
	return 0;
}

static const struct kmag_replay_ops collect_ops = { .leave = collect };

static struct kmag_replay *new_replay(struct got *g)
{
	struct kmag_replay *r = kmag_replay_new();

	CHECK(r);
	CHECK_EQ(kmag_replay_subscribe(r, &collect_ops, g), 0);
	return r;
}

static void ev(struct kmag_replay *r, int type, int pid, int depth, kmag_func_t f, uint64_t ts,
	       uint64_t dur)
{
	struct kmag_event e = { .type = (uint8_t)type, .pid = pid, .cpu = 1, .depth = depth,
				.func = f, .ts = ts, .duration = dur, .repeat = 1,
				.calltime = KMAG_TS_NONE, .parent = KMAG_FUNC_NONE };

	CHECK_EQ(kmag_replay_event_fn(&e, r), 0);	/* the kmag_event_fn adapter */
}

#define ENTRY KMAG_EV_GRAPH_ENTRY
#define EXIT KMAG_EV_GRAPH_EXIT
#define NODUR KMAG_DURATION_NONE

static void check_call(const struct kmag_call *c, kmag_func_t f, uint64_t start, uint64_t end,
		       unsigned flags)
{
	CHECK_EQ(c->func, f);
	CHECK_EQ(c->start_ns, start);
	CHECK_EQ(c->end_ns, end);
	CHECK_EQ(c->flags, flags);
}

static void nesting_and_gaps(void)
{
	struct got g = { .n = 0 };
	struct kmag_replay *r = new_replay(&g);

	/* a { b {} c { (exit lost) } } then x's exit without its entry */
	ev(r, ENTRY, 9, 0, 1, 100, NODUR);
	ev(r, ENTRY, 9, 1, 2, 110, NODUR);
	ev(r, EXIT, 9, 1, 2, 120, 10);
	ev(r, ENTRY, 9, 1, 3, 130, NODUR);
	ev(r, EXIT, 9, 0, 1, 200, 100);
	ev(r, EXIT, 9, 0, 4, 300, 50);
	/* another task keeps its own stack; its call stays open */
	ev(r, ENTRY, 10, 0, 5, 150, NODUR);
	CHECK_EQ(kmag_replay_finish(r, 400), 0);
	CHECK_EQ(g.n, 5);
	check_call(&g.c[0], 2, 110, 120, 0);
	check_call(&g.c[1], 3, 130, 200, KMAG_CALL_NO_EXIT);
	check_call(&g.c[2], 1, 100, 200, 0);
	check_call(&g.c[3], 4, 250, 300, KMAG_CALL_NO_ENTRY);
	check_call(&g.c[4], 5, 150, 400, KMAG_CALL_NO_EXIT);
	CHECK_EQ(g.c[4].pid, 10);
	CHECK_EQ(g.c[0].depth, 1);
	kmag_replay_free(r);
}

static void entry_without_exit_is_closed_by_a_sibling(void)
{
	struct got g = { .n = 0 };
	struct kmag_replay *r = new_replay(&g);

	ev(r, ENTRY, 3, 0, 1, 10, NODUR);
	ev(r, ENTRY, 3, 0, 2, 20, NODUR);	/* same depth: the first call's exit was lost */
	ev(r, EXIT, 3, 0, 2, 25, 5);
	/*
	 * an exit whose duration reaches back over a completed call: it starts
	 * its duration before its exit (there is no earlier time than 0); its
	 * slice on a timeline is kept after the call before it
	 */
	ev(r, EXIT, 3, 0, 7, 40, 100);
	CHECK_EQ(kmag_replay_finish(r, KMAG_TS_NONE), 0);
	CHECK_EQ(g.n, 3);
	check_call(&g.c[0], 1, 10, 20, KMAG_CALL_NO_EXIT);
	check_call(&g.c[1], 2, 20, 25, 0);
	check_call(&g.c[2], 7, 0, 40, KMAG_CALL_NO_ENTRY);
	CHECK_EQ(g.c[2].start_src, KMAG_START_EXIT);
	CHECK_EQ(g.slice[2][0], 25);
	CHECK_EQ(g.slice[2][1], 40);
	kmag_replay_free(r);
}

static void missing_entry_contains_its_children(void)
{
	struct got g = { .n = 0 };
	struct kmag_replay *r = new_replay(&g);

	/* the trace starts inside a(): b() is seen whole, then a() returns; its
	   duration (15) would start it after b() */
	ev(r, ENTRY, 4, 1, 2, 10, NODUR);
	ev(r, EXIT, 4, 1, 2, 20, 10);
	ev(r, EXIT, 4, 0, 1, 30, 15);
	CHECK_EQ(kmag_replay_finish(r, KMAG_TS_NONE), 0);
	CHECK_EQ(g.n, 2);
	check_call(&g.c[1], 1, 10, 30, KMAG_CALL_NO_ENTRY);
	CHECK_EQ(g.c[1].start_src, KMAG_START_CALLS);
	CHECK_EQ(g.c[0].start_src, KMAG_START_ENTRY);
	kmag_replay_free(r);
}

/* The slice start each call has in its enter hook (a streaming writer begins there). */
static uint64_t enter_slice[8];

static int slice_at_enter(void *ctx, const struct kmag_call *call, void *data,
			  const struct kmag_call *parent, void *parent_data)
{
	uint64_t start, end;

	kmag_replay_slice(call, &start, &end);
	CHECK_EQ(end, KMAG_TS_NONE);
	if (call->func < 8)
		enter_slice[call->func] = start;
	return 0;
}

static void starts_at_the_entry_and_lasts_the_kernels_duration(void)
{
	static const struct kmag_replay_ops enter_ops = { .enter = slice_at_enter };
	struct got g = { .n = 0 };
	struct kmag_replay *r = kmag_replay_new();

	CHECK(r);
	CHECK_EQ(kmag_replay_subscribe(r, &collect_ops, &g), 0);
	CHECK_EQ(kmag_replay_subscribe(r, &enter_ops, NULL), 0);

	/*
	 * The ring buffer's timestamps and the kernel's durations (another
	 * clock) disagree: a { b c }. b's entry is at 110, the kernel measured
	 * 10 for it and its exit record came at 130; c's entry at 118 comes
	 * before b's start + duration (120); a lasted 15 by its clock.
	 */
	ev(r, ENTRY, 2, 0, 1, 100, NODUR);
	ev(r, ENTRY, 2, 1, 2, 110, NODUR);
	ev(r, EXIT, 2, 1, 2, 130, 10);
	ev(r, ENTRY, 2, 1, 3, 118, NODUR);
	ev(r, EXIT, 2, 1, 3, 131, 5);
	ev(r, EXIT, 2, 0, 1, 135, 15);
	CHECK_EQ(kmag_replay_finish(r, KMAG_TS_NONE), 0);
	CHECK_EQ(g.n, 3);
	/* start: the entry's timestamp; end: start + the kernel's duration; exit: the exit's */
	check_call(&g.c[0], 2, 110, 120, 0);
	CHECK_EQ(g.c[0].exit_ns, 130);
	CHECK_EQ(g.c[0].duration, 10);
	check_call(&g.c[1], 3, 118, 123, 0);
	CHECK_EQ(g.c[1].exit_ns, 131);
	check_call(&g.c[2], 1, 100, 115, 0);
	CHECK_EQ(g.c[2].exit_ns, 135);
	CHECK_EQ(g.c[2].start_src, KMAG_START_ENTRY);
	CHECK_EQ(kmag_call_self(&g.c[2]), 0);	/* its calls outlast it by its clock */
	/*
	 * The slices nest: b as measured; c after b, its length kept; a around
	 * both, widened past its own end.
	 */
	CHECK_EQ(g.slice[0][0], 110);
	CHECK_EQ(g.slice[0][1], 120);
	CHECK_EQ(g.slice[1][0], 120);
	CHECK_EQ(g.slice[1][1], 125);
	CHECK_EQ(g.slice[2][0], 100);
	CHECK_EQ(g.slice[2][1], 125);
	/* where they began, as their enter hooks saw it */
	CHECK_EQ(enter_slice[1], 100);
	CHECK_EQ(enter_slice[2], 110);
	CHECK_EQ(enter_slice[3], 120);
	kmag_replay_free(r);
}

static void works_without_timestamps(void)
{
	struct got g = { .n = 0 };
	struct kmag_replay *r = new_replay(&g);

	/* text without abstime: no timestamps, the kernel's durations only */
	ev(r, ENTRY, 1, 0, 1, KMAG_TS_NONE, NODUR);
	ev(r, ENTRY, 1, 1, 2, KMAG_TS_NONE, NODUR);
	ev(r, EXIT, 1, 1, 2, KMAG_TS_NONE, 3);
	ev(r, EXIT, 1, 0, 1, KMAG_TS_NONE, 8);
	CHECK_EQ(kmag_replay_finish(r, KMAG_TS_NONE), 0);
	CHECK_EQ(g.n, 2);
	CHECK_EQ(g.c[0].duration, 3);
	CHECK_EQ(g.c[1].duration, 8);
	CHECK_EQ(g.c[1].child_ns, 3);
	CHECK_EQ(kmag_call_self(&g.c[1]), 5);
	CHECK_EQ(g.c[0].parent_id, g.c[1].id);
	CHECK_EQ(g.c[1].flags, 0);
	CHECK_EQ(g.c[1].start_src, KMAG_START_NONE);
	CHECK_EQ(g.c[1].start_ns, KMAG_TS_NONE);
	CHECK_EQ(g.c[1].exit_ns, KMAG_TS_NONE);
	CHECK_EQ(g.slice[1][0], KMAG_TS_NONE);
	kmag_replay_free(r);
}

/* ---- a subscriber that logs every hook, with its own data per call ---- */

struct logger {
	char log[512];
	size_t len;
	struct kmag_replay *r;
	size_t chain_at_leave[16];	/* open calls below each leaving call */
	int leaves;
	int events;
};

struct my_data {
	uint64_t id_seen;	/* the call's id, written at enter */
	int enters;
};

static void logf_(struct logger *l, const char *what, const struct kmag_call *c)
{
	l->len += (size_t)snprintf(l->log + l->len, sizeof(l->log) - l->len, "%s%u@%d%s%s%s ",
				   what, c->func == KMAG_FUNC_NONE ? 0 : c->func, c->depth,
				   c->flags & KMAG_CALL_NO_ENTRY ? "E" : "",
				   c->flags & KMAG_CALL_NO_EXIT ? "X" : "",
				   c->flags & KMAG_CALL_LOST ? "L" : "");
}

static int log_enter(void *ctx, const struct kmag_call *call, void *data,
		     const struct kmag_call *parent, void *parent_data)
{
	struct my_data *d = data;

	d->id_seen = call->id;
	d->enters++;
	/* the parent's data is the parent's own */
	if (parent)
		CHECK_EQ(((struct my_data *)parent_data)->id_seen, parent->id);
	logf_(ctx, "+", call);
	return 0;
}

static int log_named(void *ctx, const struct kmag_call *call, void *data,
		     const struct kmag_call *parent, void *parent_data)
{
	CHECK_EQ(((struct my_data *)data)->id_seen, call->id);
	logf_(ctx, "=", call);
	return 0;
}

static int log_leave(void *ctx, const struct kmag_call *call, void *data,
		     const struct kmag_call *parent, void *parent_data)
{
	struct logger *l = ctx;
	struct my_data *d = data;

	CHECK_EQ(d->id_seen, call->id);
	CHECK_EQ(d->enters, 1);
	if (l->leaves < 16)
		l->chain_at_leave[l->leaves] = kmag_replay_nr_open(l->r);
	l->leaves++;
	logf_(ctx, "-", call);
	return 0;
}

static int log_event(void *ctx, const struct kmag_event *ev)
{
	((struct logger *)ctx)->events++;
	return 0;
}

static const struct kmag_replay_ops log_ops = {
	.data_size = sizeof(struct my_data),
	.enter = log_enter, .named = log_named, .leave = log_leave, .event = log_event,
};

static struct kmag_replay *new_logged(struct logger *l, struct got *g)
{
	struct kmag_replay *r = kmag_replay_new();

	CHECK(r);
	memset(l, 0, sizeof(*l));
	l->r = r;
	CHECK_EQ(kmag_replay_subscribe(r, &log_ops, l), 0);
	if (g)
		CHECK_EQ(kmag_replay_subscribe(r, &collect_ops, g), 0);
	return r;
}

static void placeholders_are_named_by_their_exits(void)
{
	struct logger l;
	struct got g = { .n = 0 };
	struct kmag_replay *r = new_logged(&l, &g);

	/* the trace starts two levels deep: c() inside b() inside a() */
	ev(r, ENTRY, 5, 2, 3, 100, NODUR);
	ev(r, EXIT, 5, 2, 3, 110, 10);
	ev(r, EXIT, 5, 1, 2, 120, 30);
	ev(r, EXIT, 5, 0, 1, 130, 50);
	CHECK_EQ(kmag_replay_finish(r, KMAG_TS_NONE), 0);
	CHECK(!strcmp(l.log, "+0@0E +0@1E +3@2 -3@2 =2@1E -2@1E =1@0E -1@0E "));
	CHECK_EQ(g.n, 3);
	/* c's caller is the call b's exit named; b's is a */
	CHECK_EQ(g.c[0].parent_id, g.c[1].id);
	CHECK_EQ(g.c[1].parent_id, g.c[2].id);
	CHECK_EQ(g.c[2].parent_id, 0);
	/* b ran 30 of which c 10: self 20; a started no later than b */
	CHECK_EQ(kmag_call_self(&g.c[1]), 20);
	CHECK_EQ(g.c[1].start_ns, 90);
	CHECK_EQ(g.c[2].start_ns, 80);
	CHECK_EQ(kmag_replay_stats(r)->unmatched_exits, 2);
	kmag_replay_free(r);
}

static void an_exit_without_entry_opens_its_callers(void)
{
	struct logger l;
	struct kmag_replay *r = new_logged(&l, NULL);

	/* d() returns at depth 1 with nothing open: its caller's exit comes next */
	ev(r, EXIT, 5, 1, 4, 100, 10);
	ev(r, EXIT, 5, 0, 1, 130, 50);
	CHECK_EQ(kmag_replay_finish(r, KMAG_TS_NONE), 0);
	CHECK(!strcmp(l.log, "+0@0E +4@1E -4@1E =1@0E -1@0E "));
	kmag_replay_free(r);
}

static void lost_events_mark_the_calls_open_on_that_cpu(void)
{
	struct logger l;
	struct got g = { .n = 0 };
	struct kmag_replay *r = new_logged(&l, &g);
	struct kmag_event lost = { .type = KMAG_EV_LOST, .cpu = 1, .lost = 7 };
	struct kmag_event other = { .type = KMAG_EV_OTHER, .cpu = 0, .pid = 3 };
	struct kmag_event e = { .type = ENTRY, .pid = 8, .cpu = 0, .depth = 0, .func = 9,
				.ts = 10, .calltime = KMAG_TS_NONE };

	ev(r, ENTRY, 5, 0, 1, 10, NODUR);	/* on CPU 1 */
	CHECK_EQ(kmag_replay_add(r, &e), 0);	/* another task, on CPU 0 */
	CHECK_EQ(kmag_replay_add(r, &lost), 0);
	CHECK_EQ(kmag_replay_add(r, &other), 0);
	ev(r, EXIT, 5, 0, 1, 40, 30);
	e.type = EXIT;
	e.ts = 50;
	e.duration = 40;
	CHECK_EQ(kmag_replay_add(r, &e), 0);
	CHECK_EQ(kmag_replay_finish(r, KMAG_TS_NONE), 0);
	CHECK_EQ(l.events, 2);		/* the lost marker and the other event pass on */
	CHECK_EQ(g.n, 2);
	CHECK_EQ(g.c[0].func, 1);
	CHECK_EQ(g.c[0].flags, KMAG_CALL_LOST);
	CHECK_EQ(g.c[0].duration, 30);	/* its time is known, but it is incomplete */
	CHECK_EQ(g.c[1].func, 9);
	CHECK_EQ(g.c[1].flags, 0);
	kmag_replay_free(r);
}

static void idle_tasks_have_a_stack_per_cpu(void)
{
	struct got g = { .n = 0 };
	struct kmag_replay *r = new_replay(&g);
	struct kmag_event e = { .type = ENTRY, .pid = 0, .cpu = 0, .depth = 0, .func = 1,
				.ts = 10, .calltime = KMAG_TS_NONE, .duration = NODUR };

	/* pid 0 enters on CPU 0 and CPU 1 at depth 0: two calls, neither cut */
	CHECK_EQ(kmag_replay_add(r, &e), 0);
	e.cpu = 1, e.func = 2, e.ts = 11;
	CHECK_EQ(kmag_replay_add(r, &e), 0);
	e.type = EXIT, e.cpu = 0, e.func = 1, e.ts = 20, e.duration = 10;
	CHECK_EQ(kmag_replay_add(r, &e), 0);
	e.cpu = 1, e.func = 2, e.ts = 21, e.duration = 10;
	CHECK_EQ(kmag_replay_add(r, &e), 0);
	CHECK_EQ(kmag_replay_finish(r, KMAG_TS_NONE), 0);
	CHECK_EQ(g.n, 2);
	CHECK_EQ(g.c[0].flags, 0);
	CHECK_EQ(g.c[1].flags, 0);
	CHECK_EQ(kmag_replay_stats(r)->tasks, 2);
	/* the keys: a real pid, the idle task of each CPU, unknown tasks apart */
	CHECK(kmag_task_key(0, 0) != kmag_task_key(0, 1));
	CHECK(kmag_task_key(-1, 0) != kmag_task_key(0, 0));
	CHECK(kmag_task_key(7, 0) == kmag_task_key(7, 1));
	CHECK(kmag_task_key(1, 0) != kmag_task_key(0, 0));
	kmag_replay_free(r);
}

static void recursion_and_open_calls(void)
{
	struct logger l;
	struct got g = { .n = 0 };
	struct kmag_replay *r = new_logged(&l, &g);

	/* a { b { a {} } } */
	ev(r, ENTRY, 5, 0, 1, 0, NODUR);
	ev(r, ENTRY, 5, 1, 2, 10, NODUR);
	ev(r, ENTRY, 5, 2, 1, 20, NODUR);
	ev(r, EXIT, 5, 2, 1, 30, 10);
	ev(r, EXIT, 5, 1, 2, 40, 30);
	ev(r, EXIT, 5, 0, 1, 50, 50);
	CHECK_EQ(kmag_replay_finish(r, KMAG_TS_NONE), 0);
	CHECK_EQ(g.n, 3);
	CHECK_EQ(g.c[0].flags, KMAG_CALL_RECURSIVE);
	CHECK_EQ(g.c[1].flags, 0);
	CHECK_EQ(g.c[2].flags, 0);
	CHECK_EQ(kmag_call_self(&g.c[2]), 20);
	/* while each call leaves, the calls below it are still open */
	CHECK_EQ(l.chain_at_leave[0], 2);
	CHECK_EQ(l.chain_at_leave[1], 1);
	CHECK_EQ(l.chain_at_leave[2], 0);
	kmag_replay_free(r);
}

/* What an event hook sees open: per event, the outermost open call's function and how many. */
struct seen {
	struct kmag_replay *r;
	kmag_func_t root[8];
	size_t open[8];
	int n;
};

static int seen_event(void *ctx, const struct kmag_event *e)
{
	struct seen *s = ctx;
	const struct kmag_call *c = kmag_replay_open(s->r, 0);

	if (s->n < 8) {
		s->root[s->n] = c ? c->func : KMAG_FUNC_NONE;
		s->open[s->n++] = kmag_replay_nr_open(s->r);
	}
	(void)e;
	return 0;
}

static void other(struct kmag_replay *r, int pid, int cpu, uint64_t ts)
{
	struct kmag_event e = { .type = KMAG_EV_OTHER, .pid = pid, .cpu = cpu, .depth = -1,
				.func = KMAG_FUNC_NONE, .ts = ts, .duration = NODUR, .repeat = 1,
				.calltime = KMAG_TS_NONE, .parent = KMAG_FUNC_NONE };

	CHECK_EQ(kmag_replay_add(r, &e), 0);
}

/* A tracepoint's hook sees the calls open on its own task, whichever task came last. */
static void an_event_hook_sees_its_tasks_calls(void)
{
	static const struct kmag_replay_ops seen_ops = { .event = seen_event };
	struct seen s = { .n = 0 };
	struct kmag_replay *r = kmag_replay_new();

	CHECK(r);
	s.r = r;
	CHECK_EQ(kmag_replay_subscribe(r, &seen_ops, &s), 0);
	ev(r, ENTRY, 5, 0, 1, 0, NODUR);	/* task 5: a { b { */
	ev(r, ENTRY, 5, 1, 2, 10, NODUR);
	ev(r, ENTRY, 6, 0, 3, 20, NODUR);	/* task 6: c { */
	other(r, 5, 1, 30);			/* task 5's event, after task 6's entry */
	other(r, 6, 1, 40);
	other(r, 7, 1, 50);			/* a task that made no calls */
	ev(r, EXIT, 5, 1, 2, 60, 50);
	other(r, 5, 1, 70);
	CHECK_EQ(s.n, 4);
	CHECK_EQ(s.root[0], 1);
	CHECK_EQ(s.open[0], 2);
	CHECK_EQ(s.root[1], 3);
	CHECK_EQ(s.open[1], 1);
	CHECK_EQ(s.root[2], KMAG_FUNC_NONE);
	CHECK_EQ(s.open[2], 0);
	CHECK_EQ(s.root[3], 1);
	CHECK_EQ(s.open[3], 1);
	kmag_replay_free(r);
}

static void subscribers_join_before_the_first_event(void)
{
	struct got g = { .n = 0 };
	struct kmag_replay *r = new_replay(&g);

	ev(r, ENTRY, 5, 0, 1, 0, NODUR);
	CHECK_EQ(kmag_replay_subscribe(r, &collect_ops, &g), -EBUSY);
	kmag_replay_free(r);
}

/*
 * The tracer's cost: a (1000) { b (400) { c (50) d (60) } e (100) f (30) },
 * then g (100) { h (1) h (1) h (1) }, at 40 ns per traced call; the values
 * worked out by hand: a has 5 traced calls beneath it, b 2, g 3.
 */
static void the_tracers_cost_is_taken_off(void)
{
	struct got g = { .n = 0 };
	struct kmag_replay *r = new_replay(&g);
	const struct kmag_call *a, *b, *gg;

	CHECK_EQ(kmag_replay_set_cost(r, 40), 0);
	ev(r, ENTRY, 7, 0, 1, 1000, NODUR);
	ev(r, ENTRY, 7, 1, 2, 1010, NODUR);
	ev(r, ENTRY, 7, 2, 3, 1020, NODUR);
	ev(r, EXIT, 7, 2, 3, 1070, 50);
	ev(r, ENTRY, 7, 2, 4, 1080, NODUR);
	ev(r, EXIT, 7, 2, 4, 1140, 60);
	ev(r, EXIT, 7, 1, 2, 1410, 400);
	ev(r, ENTRY, 7, 1, 5, 1500, NODUR);
	ev(r, EXIT, 7, 1, 5, 1600, 100);
	ev(r, ENTRY, 7, 1, 6, 1700, NODUR);
	ev(r, EXIT, 7, 1, 6, 1730, 30);
	ev(r, EXIT, 7, 0, 1, 2000, 1000);
	ev(r, ENTRY, 7, 0, 8, 3000, NODUR);
	for (int i = 0; i < 3; i++) {
		ev(r, ENTRY, 7, 1, 9, 3010 + 10 * (uint64_t)i, NODUR);
		ev(r, EXIT, 7, 1, 9, 3011 + 10 * (uint64_t)i, 1);
	}
	ev(r, EXIT, 7, 0, 8, 3100, 100);
	CHECK_EQ(kmag_replay_finish(r, 4000), 0);
	CHECK_EQ(g.n, 10);
	/* leaves: nothing beneath, nothing taken off */
	CHECK_EQ(g.c[0].func, 3);
	CHECK_EQ(g.c[0].duration, 50);
	CHECK_EQ(g.c[0].traced_beneath, 0);
	b = &g.c[2];
	CHECK_EQ(b->func, 2);
	CHECK_EQ(b->traced_beneath, 2);
	CHECK_EQ(b->kernel_ns, 400);
	CHECK_EQ(b->duration, 400 - 2 * 40);
	CHECK_EQ(kmag_call_self(b), 400 - 110 - 2 * 40);	/* 2 direct calls */
	a = &g.c[5];
	CHECK_EQ(a->func, 1);
	CHECK_EQ(a->traced_beneath, 5);
	CHECK_EQ(a->kernel_ns, 1000);
	CHECK_EQ(a->duration, 800);
	CHECK_EQ(a->child_ns, 320 + 100 + 30);
	CHECK_EQ(kmag_call_self(a), 1000 - 530 - 3 * 40);	/* 3 direct calls */
	/* start, end and the slice stay on the kernel's clock and duration */
	CHECK_EQ(a->start_ns, 1000);
	CHECK_EQ(a->end_ns, 2000);
	CHECK_EQ(g.slice[5][1], 2000);
	/* never below zero */
	gg = &g.c[9];
	CHECK_EQ(gg->func, 8);
	CHECK_EQ(gg->traced_beneath, 3);
	CHECK_EQ(gg->kernel_ns, 100);
	CHECK_EQ(gg->duration, 0);
	CHECK_EQ(kmag_call_self(gg), 0);
	kmag_replay_free(r);

	/* without a cost, the kernel's durations */
	g.n = 0;
	r = new_replay(&g);
	ev(r, ENTRY, 7, 0, 1, 1000, NODUR);
	ev(r, ENTRY, 7, 1, 2, 1010, NODUR);
	ev(r, EXIT, 7, 1, 2, 1410, 400);
	ev(r, EXIT, 7, 0, 1, 2000, 1000);
	CHECK_EQ(kmag_replay_finish(r, 4000), 0);
	CHECK_EQ(g.c[1].traced_beneath, 1);
	CHECK_EQ(g.c[1].duration, 1000);
	CHECK_EQ(g.c[1].kernel_ns, 1000);
	CHECK_EQ(kmag_replay_set_cost(r, 40), -EBUSY);
	kmag_replay_free(r);
}

/*
 * The calls made in a call without a duration (its exit lost, or a level
 * no entry or exit names) ran inside the call around it: their time is not
 * that call's self time. Linux 6.19 traces calls in fgraph's return of a
 * call whose exit is written (irq_work_queue()'s arch_irq_work_raise() in
 * fdget()'s return): one level below it, in no call with a duration
 * (tests/fixtures/traces/vm-irq/fg619-dd-irqwork.dat.xz).
 */
static void a_call_without_duration_passes_its_calls_time_on(void)
{
	struct got g = { .n = 0 };
	struct kmag_replay *r = new_replay(&g);

	/* a { b {} <level 1: no entry, no exit> { e {} } c { d {} (c's exit lost) } } */
	ev(r, ENTRY, 5, 0, 1, 100, NODUR);
	ev(r, ENTRY, 5, 1, 2, 110, NODUR);
	ev(r, EXIT, 5, 1, 2, 120, 10);
	ev(r, ENTRY, 5, 2, 5, 125, NODUR);
	ev(r, EXIT, 5, 2, 5, 160, 30);
	ev(r, ENTRY, 5, 1, 3, 165, NODUR);
	ev(r, ENTRY, 5, 2, 4, 170, NODUR);
	ev(r, EXIT, 5, 2, 4, 190, 20);
	ev(r, EXIT, 5, 0, 1, 200, 100);
	CHECK_EQ(kmag_replay_finish(r, KMAG_TS_NONE), 0);
	CHECK_EQ(g.n, 5);
	check_call(&g.c[0], 2, 110, 120, 0);
	check_call(&g.c[1], 5, 125, 155, 0);
	check_call(&g.c[2], 4, 170, 190, 0);
	check_call(&g.c[3], 3, 165, 200, KMAG_CALL_NO_EXIT);
	CHECK_EQ(g.c[3].duration, NODUR);
	CHECK_EQ(g.c[3].child_ns, 20);
	check_call(&g.c[4], 1, 100, 200, 0);
	/* b, e (under the level without a call) and d (under c): 10 + 30 + 20 */
	CHECK_EQ(g.c[4].child_ns, 60);
	CHECK_EQ(g.c[4].kernel_child_ns, 60);
	CHECK_EQ(kmag_call_self(&g.c[4]), 40);
	kmag_replay_free(r);
}

const struct test_case replay_tests[] = {
	{ "calls nest, lost exits and entries", nesting_and_gaps },
	{ "a sibling ends a call whose exit is lost", entry_without_exit_is_closed_by_a_sibling },
	{ "a call without its entry contains its children", missing_entry_contains_its_children },
	{ "a call starts at its entry and lasts the kernel's duration; slices nest",
	  starts_at_the_entry_and_lasts_the_kernels_duration },
	{ "calls without timestamps keep the kernel's durations", works_without_timestamps },
	{ "placeholders are named by their exits", placeholders_are_named_by_their_exits },
	{ "an exit without its entry opens its callers", an_exit_without_entry_opens_its_callers },
	{ "lost events mark the calls open on that CPU", lost_events_mark_the_calls_open_on_that_cpu },
	{ "idle tasks have a stack per CPU", idle_tasks_have_a_stack_per_cpu },
	{ "recursion, self time and the open calls", recursion_and_open_calls },
	{ "a call without a duration passes its calls' time on",
	  a_call_without_duration_passes_its_calls_time_on },
	{ "an event hook sees its own task's open calls", an_event_hook_sees_its_tasks_calls },
	{ "subscribers join before the first event", subscribers_join_before_the_first_event },
	{ "the tracer's cost per traced call is taken off", the_tracers_cost_is_taken_off },
	TEST_LIST_END,
};
