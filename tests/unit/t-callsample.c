// SPDX-License-Identifier: MIT
/*
 * t-callsample.c - the sample of calls with their trees (callsample.h), on
 * hand-made function_graph event streams whose expected trees are written
 * out by hand.
 */
#include <errno.h>

#include "kmag/callsample.h"
#include "kmag/replay.h"
#include "test.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static struct kmag_event entry(int pid, kmag_func_t f, int depth, uint64_t ts)
{
	return (struct kmag_event){ .type = KMAG_EV_GRAPH_ENTRY, .pid = pid, .cpu = pid % 4,
				    .func = f, .depth = depth, .ts = ts,
				    .parent = KMAG_FUNC_NONE };
}

static struct kmag_event leave(int pid, kmag_func_t f, int depth, uint64_t ts, uint64_t dur)
{
	return (struct kmag_event){ .type = KMAG_EV_GRAPH_EXIT, .pid = pid, .cpu = pid % 4,
				    .func = f, .depth = depth, .ts = ts, .duration = dur,
				    .calltime = ts - dur, .parent = KMAG_FUNC_NONE };
}

static struct kmag_event leave_ret(int pid, kmag_func_t f, int depth, uint64_t ts, uint64_t dur,
				   int64_t ret)
{
	struct kmag_event e = leave(pid, f, depth, ts, dur);

	e.retval = ret;
	e.has_retval = true;
	return e;
}

/* @evs replayed into a sample with @o; free with kmag_callsample_free(). */
static struct kmag_callsample *sample_of(const struct kmag_callsample_opts *o,
					 const struct kmag_event *evs, size_t nr)
{
	struct kmag_callsample *s = kmag_callsample_new(o);
	struct kmag_replay *r = kmag_replay_new();
	size_t i;

	CHECK(s && r);
	CHECK_EQ(kmag_callsample_subscribe(s, r), 0);
	for (i = 0; i < nr; i++)
		CHECK_EQ(kmag_replay_add(r, &evs[i]), 0);
	CHECK_EQ(kmag_replay_finish(r, KMAG_TS_NONE), 0);
	kmag_replay_free(r);
	CHECK_EQ(kmag_callsample_finish(s), 0);
	return s;
}

/* The function's entry in the sample, or NULL. */
static const struct kmag_sample_func *func_of(const struct kmag_callsample *s, kmag_func_t f)
{
	size_t n, i;
	const struct kmag_sample_func *fs = kmag_callsample_funcs(s, &n);

	for (i = 0; i < n; i++)
		if (fs[i].func == f)
			return &fs[i];
	return NULL;
}

/* A tree as "func(parent)" tokens, e.g. "1(-) 2(0) 3(1)". */
static const char *tree_str(const struct kmag_sample_call *c, char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < c->nr_tree && n < len; i++) {
		const struct kmag_sample_node *x = &c->tree[i];

		if (x->parent == UINT32_MAX)
			n += (size_t)snprintf(buf + n, len - n, "%s%u(-)", i ? " " : "", x->func);
		else
			n += (size_t)snprintf(buf + n, len - n, "%s%u(%u)", i ? " " : "", x->func,
					      x->parent);
	}
	return buf;
}

/*
 * Function 1 runs three times (durations 100, 30, 60), each calling 2, the
 * first also 3 below 2. The two slowest are kept, in start order, each with
 * its tree in time order.
 */
static void keeps_the_slowest_with_their_trees(void)
{
	struct kmag_callsample_opts o = { .slowest = 2, .tree_max = 100, .budget = 1000 };
	struct kmag_event evs[] = {
		entry(7, 1, 0, 0),	  entry(7, 2, 1, 10),	  entry(7, 3, 2, 11),
		leave(7, 3, 2, 21, 10),	  leave(7, 2, 1, 50, 40), leave(7, 1, 0, 100, 100),
		entry(7, 1, 0, 200),	  entry(7, 2, 1, 205),	  leave(7, 2, 1, 210, 5),
		leave(7, 1, 0, 230, 30),  entry(7, 1, 0, 300),	  entry(7, 2, 1, 301),
		leave(7, 2, 1, 350, 49),  leave(7, 1, 0, 360, 60),
	};
	struct kmag_callsample *s = sample_of(&o, evs, ARRAY_LEN(evs));
	const struct kmag_sample_func *f = func_of(s, 1);
	const struct kmag_sample_call *c;
	char buf[256];
	size_t n;

	c = kmag_callsample_calls(s, &n);
	CHECK(f);
	CHECK_EQ(f->calls, 3);
	CHECK_EQ(f->nr_calls, 2);
	CHECK_EQ(f->kept_slowest, 2);
	c += f->first_call;
	CHECK_EQ(c[0].tree[0].duration, 100);
	CHECK_EQ(c[0].tree[0].start_ns, 0);
	CHECK_STREQ(tree_str(&c[0], buf, sizeof(buf)), "1(-) 2(0) 3(1)");
	CHECK_EQ(c[0].inside, 2);
	CHECK_EQ(c[0].tree[1].duration, 40);
	CHECK_EQ(c[0].tree[2].start_ns, 11);
	CHECK_EQ(c[0].pid, 7);
	CHECK_EQ(c[0].why, KMAG_SAMPLE_SLOWEST);
	CHECK_EQ(c[1].tree[0].duration, 60);
	CHECK_STREQ(tree_str(&c[1], buf, sizeof(buf)), "1(-) 2(0)");
	/* 2 is kept too: 40 and 49 */
	f = func_of(s, 2);
	CHECK(f && f->nr_calls == 2 && f->calls == 3);
	c = kmag_callsample_calls(s, &n) + f->first_call;
	CHECK_EQ(c[0].tree[0].duration, 40);
	CHECK_EQ(c[1].tree[0].duration, 49);
	CHECK_EQ(kmag_callsample_nr_nodes(s), 3 + 2 + 2 + 1 + 1);
	kmag_callsample_free(s);
}

/*
 * Errors as funcgraph-retval gives them: -22, and -13 in a 64-bit register
 * with the upper half clear; 0 and a pointer-like value are not errors. The
 * first failing call is kept, the count has both.
 */
static void keeps_the_first_failing(void)
{
	struct kmag_callsample_opts o = { .failing = 1, .tree_max = 10, .budget = 100 };
	struct kmag_event evs[] = {
		entry(7, 5, 0, 0),	entry(7, 6, 1, 1),  leave_ret(7, 6, 1, 2, 1, 0),
		leave_ret(7, 5, 0, 10, 10, -22),
		entry(7, 5, 0, 20),	leave_ret(7, 5, 0, 30, 10, 0xfffffff3),
		entry(7, 5, 0, 40),	leave_ret(7, 5, 0, 50, 10, (int64_t)0xffff888000001000ull),
	};
	struct kmag_callsample *s = sample_of(&o, evs, ARRAY_LEN(evs));
	const struct kmag_sample_func *f = func_of(s, 5);
	const struct kmag_sample_call *c;
	char buf[64];
	size_t n;

	CHECK(f);
	CHECK_EQ(f->calls, 3);
	CHECK_EQ(f->failing, 2);
	CHECK_EQ(f->nr_calls, 1);
	CHECK_EQ(f->kept_failing, 1);
	c = kmag_callsample_calls(s, &n) + f->first_call;
	CHECK_EQ(c->why, KMAG_SAMPLE_FAILING);
	CHECK(c->tree[0].has_retval);
	CHECK_EQ(c->tree[0].retval, -22);
	CHECK_STREQ(tree_str(c, buf, sizeof(buf)), "5(-) 6(0)");
	CHECK_EQ(c->tree[1].retval, 0);
	/* 6 never failed: nothing kept of it, but its call is counted */
	f = func_of(s, 6);
	CHECK(f && f->calls == 1 && f->failing == 0 && f->nr_calls == 0);
	CHECK_EQ(kmag_call_errno(0xfffffff3), -13);
	CHECK_EQ(kmag_call_errno((int64_t)0xffff888000001000ull), 0);
	CHECK_EQ(kmag_call_errno(-4096), 0);
	kmag_callsample_free(s);
}

/*
 * "First" means first to start: on two tasks, task 8's call of 1 starts
 * first but ends last; it is kept, the later-starting one of task 9 is not.
 */
static void first_is_by_start(void)
{
	struct kmag_callsample_opts o = { .first = 1, .tree_max = 10, .budget = 100 };
	struct kmag_event evs[] = {
		entry(8, 1, 0, 0), entry(9, 1, 0, 5), leave(9, 1, 0, 6, 1), leave(8, 1, 0, 50, 50),
	};
	struct kmag_callsample *s = sample_of(&o, evs, ARRAY_LEN(evs));
	const struct kmag_sample_func *f = func_of(s, 1);
	const struct kmag_sample_call *c;
	size_t n;

	CHECK(f && f->nr_calls == 1 && f->kept_first == 1);
	c = kmag_callsample_calls(s, &n) + f->first_call;
	CHECK_EQ(c->pid, 8);
	CHECK_EQ(c->tree[0].start_ns, 0);
	CHECK_EQ(c->tree[0].cpu, 0);
	kmag_callsample_free(s);
}

/*
 * A tree longer than tree_max is cut in time order, and each node says how
 * many calls below it were left out. 1 calls 2 five times, 2's third call
 * calls 3; tree_max 3 keeps 1, the first 2 and the second 2.
 */
static void trees_are_cut_and_say_so(void)
{
	struct kmag_callsample_opts o = { .slowest = 1, .tree_max = 3, .budget = 100 };
	struct kmag_event evs[] = {
		entry(7, 1, 0, 0),    entry(7, 2, 1, 1),  leave(7, 2, 1, 2, 1),
		entry(7, 2, 1, 3),    leave(7, 2, 1, 4, 1),
		entry(7, 2, 1, 5),    entry(7, 3, 2, 6),  leave(7, 3, 2, 7, 1), leave(7, 2, 1, 9, 4),
		entry(7, 2, 1, 10),   leave(7, 2, 1, 11, 1),
		entry(7, 2, 1, 12),   leave(7, 2, 1, 13, 1),
		leave(7, 1, 0, 100, 100),
	};
	struct kmag_callsample *s = sample_of(&o, evs, ARRAY_LEN(evs));
	const struct kmag_sample_func *f = func_of(s, 1);
	const struct kmag_sample_call *c;
	char buf[64];
	size_t n;

	CHECK(f && f->nr_calls == 1);
	c = kmag_callsample_calls(s, &n) + f->first_call;
	CHECK_STREQ(tree_str(c, buf, sizeof(buf)), "1(-) 2(0) 2(0)");
	CHECK_EQ(c->inside, 6);
	CHECK_EQ(c->tree[0].more, 4);	/* the third, fourth and fifth 2 and the 3 */
	CHECK_EQ(c->tree[1].more, 0);
	/* the slowest 2 (its third call, 4 ns) has its whole tree */
	f = func_of(s, 2);
	c = kmag_callsample_calls(s, &n) + f->first_call;
	CHECK_EQ(f->nr_calls, 1);
	CHECK_EQ(c->tree[0].duration, 4);
	CHECK_STREQ(tree_str(c, buf, sizeof(buf)), "2(-) 3(0)");
	CHECK_EQ(c->tree[0].more, 0);
	CHECK_EQ(kmag_callsample_opts(s)->tree_max, 3);
	kmag_callsample_free(s);
}

/*
 * A call deep inside a long one, after the long one's tree is full, still
 * has its own tree: the buffer drops what no open call's tree needs, not
 * what a later call needs.
 */
static void late_calls_keep_their_trees(void)
{
	struct kmag_callsample_opts o = { .slowest = 1, .tree_max = 4, .budget = 1000 };
	struct kmag_event evs[64];
	struct kmag_callsample *s;
	const struct kmag_sample_func *f;
	const struct kmag_sample_call *c;
	size_t n = 0, nr, i;
	char buf[64];

	evs[n++] = entry(7, 1, 0, 0);
	for (i = 0; i < 20; i++) {
		evs[n++] = entry(7, 2, 1, 10 + 2 * i);
		evs[n++] = leave(7, 2, 1, 11 + 2 * i, 1);
	}
	evs[n++] = entry(7, 4, 1, 100);
	evs[n++] = entry(7, 5, 2, 101);
	evs[n++] = leave(7, 5, 2, 102, 1);
	evs[n++] = entry(7, 6, 2, 103);
	evs[n++] = leave(7, 6, 2, 104, 1);
	evs[n++] = leave(7, 4, 1, 150, 50);
	evs[n++] = leave(7, 1, 0, 1000, 1000);
	s = sample_of(&o, evs, n);
	f = func_of(s, 4);
	CHECK(f && f->nr_calls == 1);
	c = kmag_callsample_calls(s, &nr) + f->first_call;
	CHECK_STREQ(tree_str(c, buf, sizeof(buf)), "4(-) 5(0) 6(0)");
	f = func_of(s, 1);
	c = kmag_callsample_calls(s, &nr) + f->first_call;
	CHECK_STREQ(tree_str(c, buf, sizeof(buf)), "1(-) 2(0) 2(0) 2(0)");
	CHECK_EQ(c->inside, 23);
	CHECK_EQ(c->tree[0].more, 20);
	kmag_callsample_free(s);
}

/*
 * Over the budget: 40 functions, each called 4 times (a leaf each, lasting
 * 1, 4, 2 and 3), with 3 slowest + 3 first asked, keep all 160 calls; the
 * calls may take half of a budget of 200 nodes, so one place per reason is
 * kept: per function the first call (1) and the slowest (4), 80 calls (two
 * places would be 120).
 */
static void the_budget_keeps_fewer_calls(void)
{
	struct kmag_callsample_opts o = { .slowest = 3, .first = 3, .tree_max = 10, .budget = 200 };
	struct kmag_event evs[40 * 4 * 2];
	struct kmag_callsample *s;
	const struct kmag_sample_func *f;
	const struct kmag_sample_call *c;
	size_t n = 0, i, k, nr;
	uint64_t t = 0;

	for (k = 0; k < 4; k++)
		for (i = 0; i < 40; i++) {
			/* durations 1, 4, 2, 3: the slowest are the 2nd and the 4th call */
			uint64_t d = (const uint64_t[]){ 1, 4, 2, 3 }[k];

			evs[n++] = entry(7, (kmag_func_t)i, 0, t);
			evs[n++] = leave(7, (kmag_func_t)i, 0, t + d, d);
			t += 10;
		}
	s = sample_of(&o, evs, n);
	kmag_callsample_calls(s, &nr);
	CHECK_EQ(nr, 80);
	CHECK_EQ(kmag_callsample_opts(s)->slowest, 1);
	CHECK_EQ(kmag_callsample_opts(s)->first, 1);
	CHECK_EQ(kmag_callsample_nr_nodes(s), nr);
	f = func_of(s, 17);
	CHECK(f);
	CHECK_EQ(f->nr_calls, 2);
	CHECK_EQ(f->kept_slowest, 1);
	CHECK_EQ(f->kept_first, 1);
	CHECK_EQ(f->calls, 4);
	c = kmag_callsample_calls(s, &nr) + f->first_call;
	CHECK_EQ(c[0].tree[0].duration, 1);
	CHECK_EQ(c[0].why, KMAG_SAMPLE_FIRST);
	CHECK_EQ(c[1].tree[0].duration, 4);
	CHECK_EQ(c[1].why, KMAG_SAMPLE_SLOWEST);
	kmag_callsample_free(s);
}

/*
 * The calls fit but their trees do not: the best-placed calls keep theirs
 * whole. 1 runs twice (100 and 50), each time calling 2 twenty times (40
 * calls of 2, 1 each: its first two are kept as its slowest). Budget 30:
 * 4 calls, 26 nodes left for trees: the slowest 1 takes 20 (whole), the
 * other gets the last 6 (7 nodes, 14 calls left out).
 */
static void the_budget_cuts_trees_by_place(void)
{
	struct kmag_callsample_opts o = { .slowest = 2, .tree_max = 50, .budget = 30 };
	struct kmag_event evs[2 * 42];
	struct kmag_callsample *s;
	const struct kmag_sample_func *f;
	const struct kmag_sample_call *c;
	size_t n = 0, i, k, nr;
	uint64_t t = 0;

	for (k = 0; k < 2; k++) {
		evs[n++] = entry(7, 1, 0, t);
		for (i = 0; i < 20; i++) {
			evs[n++] = entry(7, 2, 1, t + 1 + 2 * i);
			evs[n++] = leave(7, 2, 1, t + 2 + 2 * i, 1);
		}
		evs[n++] = leave(7, 1, 0, t + (k ? 50 : 100), k ? 50 : 100);
		t += 1000;
	}
	s = sample_of(&o, evs, n);
	CHECK_EQ(kmag_callsample_nr_nodes(s), 30);
	CHECK_EQ(kmag_callsample_opts(s)->tree_max, 50);
	CHECK_EQ(kmag_callsample_opts(s)->slowest, 2);
	f = func_of(s, 1);
	CHECK(f && f->nr_calls == 2);
	c = kmag_callsample_calls(s, &nr) + f->first_call;
	CHECK_EQ(c[0].tree[0].duration, 100);
	CHECK_EQ(c[0].nr_tree, 21);
	CHECK_EQ(c[0].tree[0].more, 0);
	CHECK_EQ(c[1].tree[0].duration, 50);
	CHECK_EQ(c[1].nr_tree, 7);
	CHECK_EQ(c[1].tree[0].more, 14);
	CHECK_EQ(c[1].inside, 20);
	f = func_of(s, 2);
	CHECK(f && f->nr_calls == 2 && f->calls == 40);
	kmag_callsample_free(s);
}

/* An exit without its entry is a call of its own; a placeholder nobody names is not counted. */
static void incomplete_calls(void)
{
	struct kmag_callsample_opts o = { .first = 5, .tree_max = 10, .budget = 100 };
	struct kmag_event evs[] = {
		leave(7, 3, 1, 10, 5), leave(7, 2, 0, 20, 20),	/* 2 and its child 3: no entries */
		entry(8, 4, 2, 30),				/* opens placeholders at depth 0, 1 */
	};
	struct kmag_callsample *s = sample_of(&o, evs, ARRAY_LEN(evs));
	const struct kmag_sample_func *f;
	const struct kmag_sample_call *c;
	size_t n;

	f = func_of(s, 2);
	CHECK(f && f->nr_calls == 1);
	c = kmag_callsample_calls(s, &n) + f->first_call;
	CHECK(c->tree[0].flags & KMAG_CALL_NO_ENTRY);
	f = func_of(s, 4);
	CHECK(f && f->nr_calls == 1);
	c = kmag_callsample_calls(s, &n) + f->first_call;
	CHECK(c->tree[0].flags & KMAG_CALL_NO_EXIT);
	CHECK_EQ(c->tree[0].duration, KMAG_DURATION_NONE);
	kmag_callsample_funcs(s, &n);
	CHECK_EQ(n, 3);	/* 2, 3, 4; not the placeholders */
	kmag_callsample_free(s);
}

/* A call's arguments and call site (funcgraph-args, funcgraph-retaddr) stay with its node. */
static void arguments_and_call_sites(void)
{
	struct kmag_callsample_opts o = { .first = 1, .tree_max = 10, .budget = 100 };
	struct kmag_event evs[] = { entry(7, 1, 0, 0), entry(7, 2, 1, 1), leave(7, 2, 1, 2, 1),
				    leave(7, 1, 0, 10, 10) };
	struct kmag_callsample *s;
	const struct kmag_sample_func *f;
	const struct kmag_sample_call *c;
	size_t n;

	evs[1].nargs = 2;
	evs[1].args[0] = 3;
	evs[1].args[1] = 0x400;
	evs[1].parent = 9;
	evs[1].parent_off = 0x1f;
	s = sample_of(&o, evs, ARRAY_LEN(evs));
	f = func_of(s, 1);
	c = kmag_callsample_calls(s, &n) + f->first_call;
	CHECK_EQ(c->nr_tree, 2);
	CHECK_EQ(c->tree[0].nargs, 0);
	CHECK(!c->tree[0].args);
	CHECK_EQ(c->tree[0].caller, KMAG_FUNC_NONE);
	CHECK_EQ(c->tree[1].nargs, 2);
	CHECK_EQ(c->tree[1].args[0], 3);
	CHECK_EQ(c->tree[1].args[1], 0x400);
	CHECK_EQ(c->tree[1].caller, 9);
	CHECK_EQ(c->tree[1].caller_off, 0x1f);
	kmag_callsample_free(s);
}

static void bad_options(void)
{
	struct kmag_callsample_opts o = { .slowest = 1, .tree_max = 0, .budget = 10 };

	errno = 0;
	CHECK(!kmag_callsample_new(&o));
	CHECK_EQ(errno, EINVAL);
	o.tree_max = 1;
	o.budget = 0;
	CHECK(!kmag_callsample_new(&o));
	kmag_callsample_free(NULL);
}

const struct test_case callsample_tests[] = {
	{ "the slowest calls per function, with their trees", keeps_the_slowest_with_their_trees },
	{ "the first failing calls, errors as funcgraph-retval reads them", keeps_the_first_failing },
	{ "the first calls are the first to start", first_is_by_start },
	{ "long trees are cut in time order and count what they leave out", trees_are_cut_and_say_so },
	{ "a late call inside a long one keeps its own tree", late_calls_keep_their_trees },
	{ "over the budget, fewer calls per function", the_budget_keeps_fewer_calls },
	{ "over the budget, the best-placed calls keep their whole trees", the_budget_cuts_trees_by_place },
	{ "calls without entry or exit", incomplete_calls },
	{ "arguments and call sites", arguments_and_call_sites },
	{ "bad options", bad_options },
	TEST_LIST_END,
};
