// SPDX-License-Identifier: MIT
#include <errno.h>

#include "kmag/replay.h"
#include "test.h"

struct got {
	struct kmag_call c[16];
	int n;
};

static int collect(void *ctx, const struct kmag_call *call, void *data,
		   const struct kmag_call *parent, void *parent_data)
{
	struct got *g = ctx;

	if (call->func != KMAG_FUNC_NONE && g->n < 16)
		g->c[g->n++] = *call;
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
				.calltime = KMAG_TS_NONE };

	CHECK_EQ(kmag_replay_add(r, &e), 0);
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
	/* an exit whose duration reaches back over a completed call is kept after it */
	ev(r, EXIT, 3, 0, 7, 40, 100);
	CHECK_EQ(kmag_replay_finish(r, KMAG_TS_NONE), 0);
	CHECK_EQ(g.n, 3);
	check_call(&g.c[0], 1, 10, 20, KMAG_CALL_NO_EXIT);
	check_call(&g.c[1], 2, 20, 25, 0);
	check_call(&g.c[2], 7, 25, 40, KMAG_CALL_NO_ENTRY);
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
	kmag_replay_free(r);
}

const struct test_case replay_tests[] = {
	{ "calls nest, lost exits and entries", nesting_and_gaps },
	{ "a sibling ends a call whose exit is lost", entry_without_exit_is_closed_by_a_sibling },
	{ "a call without its entry contains its children", missing_entry_contains_its_children },
	{ "calls without timestamps keep the kernel's durations", works_without_timestamps },
	TEST_LIST_END,
};
