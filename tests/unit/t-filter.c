// SPDX-License-Identifier: MIT
/*
 * t-filter.c - the pid / comm / cpu / time filters (lib/trace/filter.c):
 * their syntax, what they let through, and the events they forward when
 * placed between a reader and a consumer. Expected values follow from the
 * events and traces written here.
 */
#include <errno.h>

#include "kmag/filter.h"
#include "kmag/trace.h"
#include "test.h"

static struct kmag_event ev_at(int type, int cpu, int pid, uint64_t ts)
{
	struct kmag_event ev = {
		.type = (uint8_t)type, .cpu = cpu, .pid = pid, .ts = ts, .depth = -1,
		.func = KMAG_FUNC_NONE, .parent = KMAG_FUNC_NONE,
	};

	return ev;
}

static bool passes(struct kmag_filter *f, int cpu, int pid, uint64_t ts)
{
	struct kmag_event ev = ev_at(KMAG_EV_FUNC, cpu, pid, ts);

	return kmag_filter_match(f, &ev);
}

static void expect_invalid(int (*add)(struct kmag_filter *, const char *, struct kmag_err *),
			   const char *spec, const char *msg)
{
	struct kmag_filter *f = kmag_filter_new();
	struct kmag_err err = { 0 };

	CHECK(f);
	if (add(f, spec, &err) != -EINVAL)
		test_fail(__FILE__, __LINE__, "\"%s\" was accepted", spec);
	if (!strstr(err.msg, msg))
		test_fail(__FILE__, __LINE__, "\"%s\": message \"%s\" lacks \"%s\"", spec, err.msg, msg);
	kmag_filter_free(f);
}

static void empty_filter_passes_everything(void)
{
	struct kmag_filter *f = kmag_filter_new();

	CHECK(kmag_filter_is_empty(f));
	CHECK(passes(f, 0, 1, 0));
	CHECK(passes(f, -1, -1, KMAG_TS_NONE));
	CHECK_STREQ(kmag_filter_describe(f), "");
	kmag_filter_free(f);
	kmag_filter_free(NULL);
}

static void pids(void)
{
	struct kmag_filter *f = kmag_filter_new();
	struct kmag_err err = { 0 };

	CHECK_EQ(kmag_filter_add_pids(f, "42,7", &err), 0);
	CHECK_EQ(kmag_filter_add_pids(f, "0", &err), 0);	/* calls accumulate */
	CHECK(!kmag_filter_is_empty(f));
	CHECK(passes(f, 0, 42, 1));
	CHECK(passes(f, 1, 7, 1));
	CHECK(passes(f, 1, 0, 1));
	CHECK(!passes(f, 0, 43, 1));
	CHECK(!passes(f, 0, 4, 1));
	CHECK(!passes(f, 0, -1, 1));	/* an input without task ids */
	kmag_filter_free(f);

	f = kmag_filter_new();
	CHECK_EQ(kmag_filter_add_pids(f, "2147483647", &err), 0);
	CHECK(passes(f, 0, 2147483647, 1));
	CHECK_STREQ(kmag_filter_describe(f), "pid 2147483647");
	kmag_filter_free(f);

	expect_invalid(kmag_filter_add_pids, "", "empty pid list");
	expect_invalid(kmag_filter_add_pids, "abc", "invalid pid list \"abc\"");
	expect_invalid(kmag_filter_add_pids, "1,,2", "invalid pid list");
	expect_invalid(kmag_filter_add_pids, "-3", "invalid pid list");
	expect_invalid(kmag_filter_add_pids, "2147483648", "invalid pid list");
	expect_invalid(kmag_filter_add_pids, "12x", "invalid pid list");
}

static void cpus(void)
{
	struct kmag_filter *f = kmag_filter_new();
	struct kmag_err err = { 0 };

	CHECK_EQ(kmag_filter_add_cpus(f, "0-1,3", &err), 0);
	CHECK_EQ(kmag_filter_add_cpus(f, "8", &err), 0);	/* accumulates */
	CHECK(passes(f, 0, 1, 1));
	CHECK(passes(f, 1, 1, 1));
	CHECK(!passes(f, 2, 1, 1));
	CHECK(passes(f, 3, 1, 1));
	CHECK(!passes(f, 4, 1, 1));
	CHECK(passes(f, 8, 1, 1));
	CHECK(!passes(f, -1, 1, 1));	/* unknown CPU */
	CHECK(!passes(f, 100000, 1, 1));
	CHECK_STREQ(kmag_filter_describe(f), "cpu 0-1,3,8");
	kmag_filter_free(f);

	expect_invalid(kmag_filter_add_cpus, "x", "invalid CPU list \"x\"");
	expect_invalid(kmag_filter_add_cpus, "3-1", "invalid CPU list");
	expect_invalid(kmag_filter_add_cpus, "", "invalid CPU list");
}

static void time_absolute(void)
{
	struct kmag_filter *f = kmag_filter_new();
	struct kmag_err err = { 0 };

	/*
	 * seconds as report prints them, rounded to the microsecond: both ends
	 * are inside the window, with the microsecond each stands for
	 */
	CHECK_EQ(kmag_filter_set_time(f, "29.5,29.75", &err), 0);
	CHECK(!passes(f, 0, 1, 29499999499ull));
	CHECK(passes(f, 0, 1, 29499999500ull));	/* printed as 29.500000 */
	CHECK(passes(f, 0, 1, 29500000000ull));
	CHECK(passes(f, 0, 1, 29750000499ull));	/* printed as 29.750000 */
	CHECK(!passes(f, 0, 1, 29750000500ull));
	CHECK(!passes(f, 0, 1, KMAG_TS_NONE));	/* an event without a time */
	CHECK_STREQ(kmag_filter_describe(f), "time 29.500000,29.750000");
	kmag_filter_free(f);

	f = kmag_filter_new();
	CHECK_EQ(kmag_filter_set_time(f, "1.5,", &err), 0);	/* open end */
	CHECK(!passes(f, 0, 1, 1499999499ull));
	CHECK(passes(f, 0, 1, 1499999500ull));
	CHECK(passes(f, 0, 1, UINT64_MAX - 1));
	kmag_filter_free(f);

	f = kmag_filter_new();
	CHECK_EQ(kmag_filter_set_time(f, ",2", &err), 0);	/* open start */
	CHECK(passes(f, 0, 1, 0));
	CHECK(passes(f, 0, 1, 2000000499ull));
	CHECK(!passes(f, 0, 1, 2000000500ull));
	kmag_filter_free(f);
}

static void time_relative(void)
{
	struct kmag_filter *f = kmag_filter_new();
	struct kmag_err err = { 0 };

	/* "+": counted from the first event the filter sees (here 10 s) */
	CHECK_EQ(kmag_filter_set_time(f, "+0.5,+1", &err), 0);
	CHECK(!passes(f, 0, 1, 10000000000ull));
	CHECK(!passes(f, 0, 1, 10499999499ull));
	CHECK(passes(f, 0, 1, 10499999500ull));
	CHECK(passes(f, 0, 1, 11000000499ull));
	CHECK(!passes(f, 0, 1, 11000000500ull));
	CHECK_STREQ(kmag_filter_describe(f), "time +0.500000,+1.000000");
	kmag_filter_free(f);

	expect_invalid(kmag_filter_set_time, ",", "invalid time range \",\"");
	expect_invalid(kmag_filter_set_time, "2,1", "invalid time range");
	expect_invalid(kmag_filter_set_time, "+1,2", "invalid time range");
	expect_invalid(kmag_filter_set_time, "1", "invalid time range");
	expect_invalid(kmag_filter_set_time, "a,b", "invalid time range");
	expect_invalid(kmag_filter_set_time, "-1,2", "invalid time range");
}

/*
 * LOST markers keep their CPU's gaps visible: the task filters do not apply,
 * the CPU filter does, and the time window to their time (issue 25: a
 * reader that seeks to the window finds no other)
 */
static void lost_events_pass(void)
{
	struct kmag_filter *f = kmag_filter_new();
	struct kmag_err err = { 0 };
	struct kmag_event lost = ev_at(KMAG_EV_LOST, 1, -1, 150000000000ull);
	struct kmag_event before = ev_at(KMAG_EV_LOST, 1, -1, 5);
	struct kmag_event untimed = ev_at(KMAG_EV_LOST, 1, -1, KMAG_TS_NONE);

	CHECK_EQ(kmag_filter_add_pids(f, "42", &err), 0);
	CHECK_EQ(kmag_filter_set_time(f, "100,200", &err), 0);
	CHECK(kmag_filter_match(f, &lost));
	CHECK(!kmag_filter_match(f, &before));
	CHECK(kmag_filter_match(f, &untimed));
	CHECK_EQ(kmag_filter_add_cpus(f, "0", &err), 0);
	CHECK(!kmag_filter_match(f, &lost));
	kmag_filter_free(f);
}

/*
 * kmag_filter_time_window(): the window resolved as the filter resolves it
 * at the first event that reaches it: the earliest first event of the
 * filter's CPUs (a LOST marker's too), ties to the lower CPU.
 */
static void time_window_resolved(void)
{
	struct kmag_filter *f = kmag_filter_new();
	struct kmag_err err = { 0 };
	struct kmag_event firsts[3] = {
		ev_at(KMAG_EV_GRAPH_ENTRY, 0, 7, 3000000000ull),
		ev_at(KMAG_EV_LOST, 1, -1, 2000000000ull),
		ev_at(KMAG_EV_GRAPH_ENTRY, 2, 7, 1000000000ull),
	};
	uint64_t from, to;

	CHECK(!kmag_filter_time_window(f, firsts, 3, &from, &to));
	CHECK_EQ(kmag_filter_set_time(f, "+1,+2", &err), 0);
	CHECK_EQ(kmag_filter_add_cpus(f, "0-1", &err), 0);
	CHECK(kmag_filter_time_window(f, firsts, 3, &from, &to));
	CHECK_EQ(from, 3000000000ull - 500);	/* from CPU 1's LOST marker; CPU 2 is filtered out */
	CHECK_EQ(to, 4000000000ull + 499);
	/* resolved: the filter's own matching agrees, and stays so */
	CHECK(kmag_filter_match(f, &firsts[0]));
	firsts[0].ts = 2900000000ull;
	CHECK(!kmag_filter_match(f, &firsts[0]));
	CHECK(kmag_filter_time_window(f, NULL, 0, &from, &to));
	CHECK_EQ(from, 3000000000ull - 500);
	kmag_filter_free(f);

	f = kmag_filter_new();
	CHECK_EQ(kmag_filter_set_time(f, "5,6", &err), 0);
	CHECK(kmag_filter_time_window(f, NULL, 0, &from, &to));
	CHECK_EQ(from, 5000000000ull - 500);
	CHECK_EQ(to, 6000000000ull + 499);
	kmag_filter_free(f);
}

static void kinds_combine(void)
{
	struct kmag_filter *f = kmag_filter_new();
	struct kmag_err err = { 0 };

	CHECK_EQ(kmag_filter_add_pids(f, "42", &err), 0);
	CHECK_EQ(kmag_filter_add_cpus(f, "1", &err), 0);
	CHECK(passes(f, 1, 42, 1));
	CHECK(!passes(f, 0, 42, 1));	/* every kind must match */
	CHECK(!passes(f, 1, 43, 1));
	CHECK_STREQ(kmag_filter_describe(f), "pid 42; cpu 1");
	kmag_filter_free(f);
}

/*
 * End to end on a function-tracer text trace: three tasks on two CPUs. The
 * filter sits between the reader and a counter, as the commands use it.
 */
static const char text_trace[] =
	"# tracer: function\n"
	"#\n"
	"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	"#              | |         |   |||||     |         |\n"
	"          reader-42      [000] .....   100.000000: vfs_read <-ksys_read\n"
	"          reader-42      [000] .....   100.100000: vfs_read <-ksys_read\n"
	"          writer-43      [001] .....   100.200000: vfs_write <-ksys_write\n"
	"     kworker/1:2-7       [001] .....   100.300000: vfs_write <-ksys_write\n"
	"          reader-42      [001] .....   100.400000: vfs_read <-ksys_read\n"
	"          writer-43      [000] .....   101.500000: vfs_write <-ksys_write\n";

struct tally {
	int n;
	int last_pid;
};

static int tally(const struct kmag_event *ev, void *ctx)
{
	struct tally *t = ctx;

	if (ev->type == KMAG_EV_FUNC) {
		t->n++;
		t->last_pid = ev->pid;
	}
	return 0;
}

static int count_through(const char *spec_kind, const char *spec, int *last_pid)
{
	const char *path = write_tmp("fn.txt", text_trace, sizeof(text_trace) - 1);
	struct kmag_err err = { 0 };
	struct kmag_trace *t = kmag_trace_open(path, NULL, &err);
	struct kmag_filter *f = kmag_filter_new();
	struct tally c = { 0, -1 };
	int ret;

	if (!t)
		test_fail(__FILE__, __LINE__, "open: %s", err.msg);
	if (!strcmp(spec_kind, "comm"))
		ret = kmag_filter_add_comms(f, spec, &err);
	else if (!strcmp(spec_kind, "pid"))
		ret = kmag_filter_add_pids(f, spec, &err);
	else if (!strcmp(spec_kind, "cpu"))
		ret = kmag_filter_add_cpus(f, spec, &err);
	else
		ret = kmag_filter_set_time(f, spec, &err);
	CHECK_EQ(ret, 0);
	kmag_filter_bind(f, t, tally, &c);
	CHECK_EQ(kmag_trace_read(t, kmag_filter_event_fn, f, &err), 0);
	kmag_filter_free(f);
	kmag_trace_close(t);
	if (last_pid)
		*last_pid = c.last_pid;
	return c.n;
}

static void through_a_trace(void)
{
	int last;

	CHECK_EQ(count_through("comm", "reader", NULL), 3);
	CHECK_EQ(count_through("comm", "kworker/*", &last), 1);
	CHECK_EQ(last, 7);
	CHECK_EQ(count_through("comm", "reader,writer", NULL), 5);
	CHECK_EQ(count_through("comm", "read", NULL), 0);	/* a glob, not a substring */
	CHECK_EQ(count_through("pid", "43", &last), 2);
	CHECK_EQ(last, 43);
	CHECK_EQ(count_through("cpu", "1", NULL), 3);
	/* relative to the first event at 100.0 s: 100.1 .. 100.3 */
	CHECK_EQ(count_through("time", "+0.1,+0.3", NULL), 3);
	CHECK_EQ(count_through("time", "101,", &last), 1);
	CHECK_EQ(last, 43);
}

/* the consumer's "stop" value comes back through the filter */
static int stop_at_first(const struct kmag_event *ev, void *ctx)
{
	(void)ev;
	(void)ctx;
	return 5;
}

static void forwards_stop(void)
{
	const char *path = write_tmp("fn.txt", text_trace, sizeof(text_trace) - 1);
	struct kmag_err err = { 0 };
	struct kmag_trace *t = kmag_trace_open(path, NULL, &err);
	struct kmag_filter *f = kmag_filter_new();

	CHECK(t && f);
	CHECK_EQ(kmag_filter_add_pids(f, "43", &err), 0);
	kmag_filter_bind(f, t, stop_at_first, NULL);
	CHECK_EQ(kmag_trace_read(t, kmag_filter_event_fn, f, &err), 5);
	kmag_filter_free(f);
	kmag_trace_close(t);
}

const struct test_case filter_tests[] = {
	{ "empty_filter_passes_everything", empty_filter_passes_everything },
	{ "pids", pids },
	{ "cpus", cpus },
	{ "time_absolute", time_absolute },
	{ "time_relative", time_relative },
	{ "lost_events_pass", lost_events_pass },
	{ "time_window_resolved", time_window_resolved },
	{ "kinds_combine", kinds_combine },
	{ "through_a_trace", through_a_trace },
	{ "forwards_stop", forwards_stop },
	TEST_LIST_END
};
