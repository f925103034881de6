// SPDX-License-Identifier: MIT
#include <errno.h>

#include "kmag/calls.h"
#include "test.h"

struct got {
	struct kmag_call c[16];
	int n;
};

static int collect(const struct kmag_call *call, void *ctx)
{
	struct got *g = ctx;

	if (g->n < 16)
		g->c[g->n++] = *call;
	return 0;
}

static void ev(struct kmag_calls *r, int type, int pid, int depth, kmag_func_t f, uint64_t ts,
	       uint64_t dur)
{
	struct kmag_event e = { .type = (uint8_t)type, .pid = pid, .cpu = 1, .depth = depth,
				.func = f, .ts = ts, .duration = dur, .repeat = 1 };

	CHECK_EQ(kmag_calls_add(r, &e), 0);
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
	struct kmag_calls *r = kmag_calls_new(collect, &g);

	/* a { b {} c { (exit lost) } } then x's exit without its entry */
	ev(r, ENTRY, 9, 0, 1, 100, NODUR);
	ev(r, ENTRY, 9, 1, 2, 110, NODUR);
	ev(r, EXIT, 9, 1, 2, 120, 10);
	ev(r, ENTRY, 9, 1, 3, 130, NODUR);
	ev(r, EXIT, 9, 0, 1, 200, 100);
	ev(r, EXIT, 9, 0, 4, 300, 50);
	/* another task keeps its own stack; its call stays open */
	ev(r, ENTRY, 10, 0, 5, 150, NODUR);
	CHECK_EQ(kmag_calls_finish(r, 400), 0);
	CHECK_EQ(g.n, 5);
	check_call(&g.c[0], 2, 110, 120, 0);
	check_call(&g.c[1], 3, 130, 200, KMAG_CALL_NO_EXIT);
	check_call(&g.c[2], 1, 100, 200, 0);
	check_call(&g.c[3], 4, 250, 300, KMAG_CALL_NO_ENTRY);
	check_call(&g.c[4], 5, 150, 400, KMAG_CALL_NO_EXIT);
	CHECK_EQ(g.c[4].pid, 10);
	CHECK_EQ(g.c[0].depth, 1);
	kmag_calls_free(r);
}

static void entry_without_exit_is_closed_by_a_sibling(void)
{
	struct got g = { .n = 0 };
	struct kmag_calls *r = kmag_calls_new(collect, &g);

	ev(r, ENTRY, 3, 0, 1, 10, NODUR);
	ev(r, ENTRY, 3, 0, 2, 20, NODUR);	/* same depth: the first call's exit was lost */
	ev(r, EXIT, 3, 0, 2, 25, 5);
	/* an exit whose duration reaches back over a completed call is kept after it */
	ev(r, EXIT, 3, 0, 7, 40, 100);
	CHECK_EQ(kmag_calls_finish(r, KMAG_TS_NONE), 0);
	CHECK_EQ(g.n, 3);
	check_call(&g.c[0], 1, 10, 20, KMAG_CALL_NO_EXIT);
	check_call(&g.c[1], 2, 20, 25, 0);
	check_call(&g.c[2], 7, 25, 40, KMAG_CALL_NO_ENTRY);
	kmag_calls_free(r);
}

static void missing_entry_contains_its_children(void)
{
	struct got g = { .n = 0 };
	struct kmag_calls *r = kmag_calls_new(collect, &g);

	/* the trace starts inside a(): b() is seen whole, then a() returns; its
	   duration (15) would start it after b() */
	ev(r, ENTRY, 4, 1, 2, 10, NODUR);
	ev(r, EXIT, 4, 1, 2, 20, 10);
	ev(r, EXIT, 4, 0, 1, 30, 15);
	CHECK_EQ(kmag_calls_finish(r, KMAG_TS_NONE), 0);
	CHECK_EQ(g.n, 2);
	check_call(&g.c[1], 1, 10, 30, KMAG_CALL_NO_ENTRY);
	kmag_calls_free(r);
}

static void needs_timestamps(void)
{
	struct got g = { .n = 0 };
	struct kmag_calls *r = kmag_calls_new(collect, &g);
	struct kmag_event e = { .type = ENTRY, .pid = 1, .depth = 0, .func = 1,
				.ts = KMAG_TS_NONE };

	CHECK_EQ(kmag_calls_add(r, &e), -ENODATA);
	kmag_calls_free(r);
}

const struct test_case calls_tests[] = {
	{ "calls nest, lost exits and entries", nesting_and_gaps },
	{ "a sibling ends a call whose exit is lost", entry_without_exit_is_closed_by_a_sibling },
	{ "a call without its entry contains its children", missing_entry_contains_its_children },
	{ "function_graph events need timestamps", needs_timestamps },
	TEST_LIST_END,
};
