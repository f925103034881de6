// SPDX-License-Identifier: MIT
/*
 * t-durations.c - the minimum-duration filter and the slowest calls, on
 * hand-made function_graph event streams.
 */
#include "kmag/callgraph.h"
#include "kmag/durations.h"
#include "kmag/replay.h"
#include "test.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* What passed the filter, as "E:f@d" / "X:f@d" tokens. */
struct seen {
	char log[1024];
	size_t n;
};

static int record_fn(const struct kmag_event *ev, void *ctx)
{
	struct seen *s = ctx;

	s->n += (size_t)snprintf(s->log + s->n, sizeof(s->log) - s->n, "%s%c:%u@%d",
				 s->n ? " " : "",
				 ev->type == KMAG_EV_GRAPH_ENTRY ? 'E' :
				 ev->type == KMAG_EV_GRAPH_EXIT  ? 'X' : 'O',
				 ev->func, ev->depth);
	return 0;
}

static struct kmag_event entry(int pid, kmag_func_t f, int depth, uint64_t ts)
{
	return (struct kmag_event){ .type = KMAG_EV_GRAPH_ENTRY, .pid = pid, .cpu = 0,
				    .func = f, .depth = depth, .ts = ts,
				    .parent = KMAG_FUNC_NONE };
}

static struct kmag_event leave(int pid, kmag_func_t f, int depth, uint64_t ts, uint64_t dur)
{
	return (struct kmag_event){ .type = KMAG_EV_GRAPH_EXIT, .pid = pid, .cpu = 0,
				    .func = f, .depth = depth, .ts = ts, .duration = dur,
				    .calltime = ts - dur, .parent = KMAG_FUNC_NONE };
}

/*
 * 1 (100) calls 2 (5, dropped, with its child 3) and 4 (60, kept);
 * 5 on another task lasts 10 (dropped).
 */
static void mindur_drops_short_calls_and_their_children(void)
{
	struct seen s = { 0 };
	struct kmag_mindur *m = kmag_mindur_new(50, record_fn, &s);
	struct kmag_event evs[] = {
		entry(7, 1, 0, 0),	 entry(7, 2, 1, 10),	entry(7, 3, 2, 11),
		leave(7, 3, 2, 12, 1),	 leave(7, 2, 1, 15, 5), entry(8, 5, 0, 16),
		entry(7, 4, 1, 20),	 leave(8, 5, 0, 26, 10), leave(7, 4, 1, 80, 60),
		leave(7, 1, 0, 100, 100),
	};
	size_t i;

	CHECK(m);
	for (i = 0; i < ARRAY_LEN(evs); i++)
		CHECK_EQ(kmag_mindur_event_fn(&evs[i], m), 0);
	CHECK(!strcmp(s.log, "E:1@0 E:4@1 X:4@1 X:1@0"));
	CHECK_EQ(kmag_mindur_dropped(m), 3);
	kmag_mindur_free(m);
}

/* Through the call graph: the dropped call's time vanishes from the caller's self time. */
static void mindur_feeds_the_call_graph(void)
{
	struct kmag_cg *cg = kmag_cg_new(NULL);
	struct kmag_mindur *m = kmag_mindur_new(50, kmag_cg_event_fn, cg);
	struct kmag_event evs[] = {
		entry(7, 1, 0, 0), entry(7, 2, 1, 10), leave(7, 2, 1, 15, 5),
		entry(7, 4, 1, 20), leave(7, 4, 1, 80, 60), leave(7, 1, 0, 100, 100),
	};
	const struct kmag_cg_node *n;
	size_t i;

	for (i = 0; i < ARRAY_LEN(evs); i++)
		CHECK_EQ(kmag_mindur_event_fn(&evs[i], m), 0);
	CHECK_EQ(kmag_cg_finish(cg), 0);
	CHECK_EQ(kmag_cg_nr_nodes(cg), 2);
	CHECK(kmag_cg_node_index(cg, 2) < 0);
	n = &kmag_cg_nodes(cg)[kmag_cg_node_index(cg, 1)];
	CHECK_EQ(n->st.total_ns, 100);
	CHECK_EQ(n->st.self_ns, 40);
	kmag_mindur_free(m);
	kmag_cg_free(cg);
}

/* The @n slowest calls of @evs, replayed; free with kmag_slowest_free(). */
static struct kmag_slowest *slowest_of(size_t n, const struct kmag_event *evs, size_t nr)
{
	struct kmag_slowest *s = kmag_slowest_new(n);
	struct kmag_replay *r = kmag_replay_new();
	size_t i;

	CHECK(s && r);
	CHECK_EQ(kmag_slowest_subscribe(s, r), 0);
	for (i = 0; i < nr; i++)
		CHECK_EQ(kmag_replay_add(r, &evs[i]), 0);
	CHECK_EQ(kmag_replay_finish(r, KMAG_TS_NONE), 0);
	kmag_replay_free(r);
	kmag_slowest_finish(s);
	return s;
}

static void slowest_keeps_the_longest_with_chains(void)
{
	struct kmag_event evs[] = {
		entry(7, 1, 0, 0),	 entry(7, 2, 1, 10),	  entry(7, 3, 2, 11),
		leave(7, 3, 2, 41, 30),	 leave(7, 2, 1, 50, 40),  entry(7, 4, 1, 60),
		leave(7, 4, 1, 65, 5),	 leave(7, 1, 0, 100, 100), /* exit without entry: */
		leave(9, 6, 3, 500, 70),
	};
	struct kmag_slowest *s = slowest_of(2, evs, ARRAY_LEN(evs));
	const struct kmag_slow_call *c;

	CHECK_EQ(kmag_slowest_count(s), 2);
	c = kmag_slowest_get(s, 0);
	CHECK_EQ(c->func, 1);
	CHECK_EQ(c->duration, 100);
	CHECK_EQ(c->nr_chain, 1);
	CHECK_EQ(c->entry_ts, 0);
	CHECK(!c->chain_partial);
	c = kmag_slowest_get(s, 1);
	CHECK_EQ(c->func, 6);
	CHECK_EQ(c->duration, 70);
	CHECK(c->chain_partial);
	CHECK_EQ(c->entry_ts, 430);
	kmag_slowest_free(s);

	/* with room for more, the nested call keeps its chain 1 > 2 > 3 */
	s = slowest_of(10, evs, ARRAY_LEN(evs));
	CHECK_EQ(kmag_slowest_count(s), 5);
	c = kmag_slowest_get(s, 3);
	CHECK_EQ(c->func, 3);
	CHECK_EQ(c->nr_chain, 3);
	CHECK_EQ(c->chain[0], 1);
	CHECK_EQ(c->chain[1], 2);
	CHECK_EQ(c->chain[2], 3);
	kmag_slowest_free(s);
}

/* An entry called from @caller+@off with arguments @a0, @a1. */
static struct kmag_event entry_at(kmag_func_t f, int depth, uint64_t ts, kmag_func_t caller,
				  uint32_t off, uint64_t a0, uint64_t a1)
{
	struct kmag_event e = entry(7, f, depth, ts);

	e.parent = caller;
	e.parent_off = off;
	e.nargs = 2;
	e.args[0] = a0;
	e.args[1] = a1;
	return e;
}

static struct kmag_event leave_ret(kmag_func_t f, int depth, uint64_t ts, uint64_t dur,
				   int64_t ret)
{
	struct kmag_event e = leave(7, f, depth, ts, dur);

	e.retval = ret;
	e.has_retval = true;
	return e;
}

/*
 * Each kept call carries its own call site, arguments and return value, and
 * its chain the call site of each entry (callers' sites too), also after the
 * heap replaced and moved calls: 1 (from 90+0x10) calls 2 (from 1+0x20), which
 * calls 3 (from 2+0x30, -9) and 4 (from 2+0x40, 0x1000).
 */
static void slowest_keeps_sites_args_and_retvals(void)
{
	struct kmag_event evs[] = {
		entry_at(1, 0, 0, 90, 0x10, 11, 12),	entry_at(2, 1, 10, 1, 0x20, 21, 22),
		entry_at(3, 2, 11, 2, 0x30, 31, 32),	leave_ret(3, 2, 16, 5, -9),
		entry_at(4, 2, 20, 2, 0x40, 41, 4096),	leave_ret(4, 2, 50, 30, 4096),
		leave_ret(2, 1, 60, 50, 0),		leave_ret(1, 0, 100, 100, 3),
	};
	struct kmag_slowest *s = slowest_of(2, evs, ARRAY_LEN(evs));
	const struct kmag_slow_call *c;

	CHECK_EQ(kmag_slowest_count(s), 2);
	c = kmag_slowest_get(s, 0);
	CHECK_EQ(c->func, 1);
	CHECK_EQ(c->call.caller, 90);
	CHECK_EQ(c->call.caller_off, 0x10);
	CHECK_EQ(c->call.retval, 3);
	CHECK_EQ(c->nr_chain, 1);
	CHECK_EQ(c->chain_sites[0].caller, 90);
	c = kmag_slowest_get(s, 1);	/* 2 replaced 3 and 4 in the heap */
	CHECK_EQ(c->func, 2);
	CHECK_EQ(c->call.nargs, 2);
	CHECK_EQ(c->call.args[1], 22);
	CHECK_EQ(c->nr_chain, 2);
	CHECK_EQ(c->chain_sites[0].caller, 90);
	CHECK_EQ(c->chain_sites[1].caller, 1);
	CHECK_EQ(c->chain_sites[1].caller_off, 0x20);
	kmag_slowest_free(s);

	s = slowest_of(4, evs, ARRAY_LEN(evs));
	c = kmag_slowest_get(s, 2);
	CHECK_EQ(c->func, 4);
	CHECK(c->call.has_retval);
	CHECK_EQ(c->call.retval, 4096);
	CHECK_EQ(c->call.args[1], 4096);
	CHECK_EQ(c->call.caller_off, 0x40);
	CHECK_EQ(c->nr_chain, 3);
	CHECK_EQ(c->chain[2], 4);
	CHECK_EQ(c->chain_sites[0].caller_off, 0x10);
	CHECK_EQ(c->chain_sites[1].caller_off, 0x20);
	CHECK_EQ(c->chain_sites[2].caller_off, 0x40);
	c = kmag_slowest_get(s, 3);
	CHECK_EQ(c->func, 3);
	CHECK_EQ(c->call.retval, -9);
	CHECK_EQ(c->chain_sites[2].caller_off, 0x30);
	kmag_slowest_free(s);

	/* without entries (a placeholder chain), no call site and no arguments */
	struct kmag_event bare[] = { leave(9, 6, 3, 500, 70) };

	s = slowest_of(1, bare, ARRAY_LEN(bare));
	c = kmag_slowest_get(s, 0);
	CHECK_EQ(c->nr_chain, 1);
	CHECK_EQ(c->call.caller, KMAG_FUNC_NONE);
	CHECK_EQ(c->chain_sites[0].caller, KMAG_FUNC_NONE);
	CHECK_EQ(c->call.nargs, 0);
	CHECK(!c->call.has_retval);
	kmag_slowest_free(s);
}

static void duration_parse(void)
{
	uint64_t ns;

	CHECK_EQ(kmag_duration_parse("250us", &ns), 0);
	CHECK_EQ(ns, 250000);
	CHECK_EQ(kmag_duration_parse("1.5ms", &ns), 0);
	CHECK_EQ(ns, 1500000);
	CHECK_EQ(kmag_duration_parse("2s", &ns), 0);
	CHECK_EQ(ns, 2000000000);
	CHECK_EQ(kmag_duration_parse("800ns", &ns), 0);
	CHECK_EQ(ns, 800);
	CHECK_EQ(kmag_duration_parse("100", &ns), 0);
	CHECK_EQ(ns, 100000);
	CHECK(kmag_duration_parse("1h", &ns) < 0);
	CHECK(kmag_duration_parse("-1us", &ns) < 0);
	CHECK(kmag_duration_parse("", &ns) < 0);
	CHECK(kmag_duration_parse("nan", &ns) < 0);
}

const struct test_case durations_tests[] = {
	{ "min-duration drops short calls and their children", mindur_drops_short_calls_and_their_children },
	{ "min-duration feeds the call graph", mindur_feeds_the_call_graph },
	{ "slowest keeps the longest calls with their chains", slowest_keeps_the_longest_with_chains },
	{ "slowest keeps call sites, arguments and return values", slowest_keeps_sites_args_and_retvals },
	{ "durations parse with units", duration_parse },
	TEST_LIST_END,
};
