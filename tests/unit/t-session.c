// SPDX-License-Identifier: MIT
/*
 * t-session.c - a session (lib/session/) on small traces written by hand:
 * what its views hold follows from the text; the errors a reader must
 * understand (filters that match nothing, a profile where events are
 * needed, bad option values) name their cause.
 */
#include <errno.h>
#include <string.h>

#include "kmag/durations.h"
#include "kmag/errors.h"
#include "kmag/render/report.h"
#include "kmag/report.h"
#include "kmag/session.h"
#include "test.h"

/*
 * ls-97 on CPU 1: do_sys_openat2 (20 us) calls getname (2 us) and
 * path_openat (3 us, -2); dd-98 on CPU 0: vfs_read (50 us).
 */
static const char two_tasks[] =
	"# tracer: function_graph\n"
	"#     TIME        CPU  TASK/PID         DURATION                  FUNCTION CALLS\n"
	" 100.000100 |   1)    ls-97    |               |  do_sys_openat2() {\n"
	" 100.000102 |   1)    ls-97    |   2.000 us    |    getname(); /* = 0x0 */\n"
	" 100.000110 |   1)    ls-97    |   3.000 us    |    path_openat(); /* = -2 */\n"
	" 100.000120 |   1)    ls-97    |  20.000 us    |  } /* do_sys_openat2 = -2 */\n"
	" 100.000200 |   0)    dd-98    |  50.000 us    |  vfs_read(); /* = 0x10 */\n";

static struct kmag_session *load(const char *name, struct kmag_session_opts *o,
				 struct kmag_err *err)
{
	struct kmag_session *s;

	o->path = write_tmp(name, two_tasks, sizeof(two_tasks) - 1);
	s = kmag_session_new(o, err);
	CHECK(s);
	if (kmag_session_open(s, err) || kmag_session_read(s, err)) {
		kmag_session_free(s);
		return NULL;
	}
	return s;
}

static const struct kmag_cg_node *node(const struct kmag_session *s, const char *name)
{
	kmag_func_t f = kmag_symtab_find(kmag_session_symtab(s), name);
	long i = kmag_cg_node_index(kmag_session_graph(s), f);

	CHECK(i >= 0);
	return &kmag_cg_nodes(kmag_session_graph(s))[i];
}

struct counter {
	uint64_t entries, exits;
};

static int count_events(const struct kmag_event *ev, void *ctx)
{
	struct counter *c = ctx;

	c->entries += ev->type == KMAG_EV_GRAPH_ENTRY;
	c->exits += ev->type == KMAG_EV_GRAPH_EXIT;
	return 0;
}

/* The graph, the slowest calls, the errors and a tap, all from one reading. */
static void test_views(void)
{
	struct kmag_session_opts o = { .views = { .graph = true, .slowest = 2, .errors = true } };
	struct kmag_err err = { 0 };
	struct counter c = { 0 };
	const struct kmag_error_group *g;
	struct kmag_session *s;

	o.path = write_tmp("views.txt", two_tasks, sizeof(two_tasks) - 1);
	s = kmag_session_new(&o, &err);
	CHECK(s);
	CHECK_EQ(kmag_session_open(s, &err), 0);
	CHECK_EQ(kmag_session_tap(s, count_events, &c), 0);
	CHECK_EQ(kmag_session_read(s, &err), 0);
	/* a leaf's line is its entry and its exit */
	CHECK_EQ(c.entries, 4);
	CHECK_EQ(c.exits, 4);
	CHECK_EQ(node(s, "do_sys_openat2")->st.calls, 1);
	CHECK_EQ(node(s, "do_sys_openat2")->st.total_ns, 20000);
	CHECK_EQ(node(s, "do_sys_openat2")->st.self_ns, 15000);
	CHECK_EQ(node(s, "vfs_read")->st.max_ns, 50000);
	CHECK_EQ(kmag_slowest_count(kmag_session_slowest(s)), 2);
	CHECK_EQ(kmag_slowest_get(kmag_session_slowest(s), 0)->duration, 50000);
	CHECK_EQ(kmag_slowest_get(kmag_session_slowest(s), 1)->duration, 20000);
	/* -2 was born in path_openat, reached do_sys_openat2 */
	CHECK_EQ(kmag_errors_nr_groups(kmag_session_errors(s)), 1);
	g = kmag_errors_group(kmag_session_errors(s), 0);
	CHECK_STREQ(kmag_symtab_name(kmag_session_symtab(s), g->origin), "path_openat");
	CHECK_EQ(g->errnum, ENOENT);
	CHECK_STREQ(kmag_session_filters(s), "");
	CHECK(!kmag_session_probes(s) && !kmag_session_calls(s));
	kmag_session_free(s);
}

/* A filter: only dd's call; the minimum duration is described with what it left out. */
static void test_filters(void)
{
	struct kmag_session_opts o = { .comms = "dd", .views = { .graph = true } };
	struct kmag_err err = { 0 };
	struct kmag_session *s = load("comm.txt", &o, &err);

	CHECK(s);
	CHECK_EQ(kmag_cg_nr_nodes(kmag_session_graph(s)), 1);
	CHECK_EQ(node(s, "vfs_read")->st.calls, 1);
	CHECK(strstr(kmag_session_filters(s), "dd"));
	kmag_session_free(s);

	o = (struct kmag_session_opts){ .min_duration_ns = 10000, .views = { .graph = true } };
	s = load("mindur.txt", &o, &err);
	CHECK(s);
	/* getname (2 us) and path_openat (3 us) are left out, their time stays in the caller */
	CHECK_EQ(kmag_cg_nr_nodes(kmag_session_graph(s)), 2);
	CHECK_EQ(node(s, "do_sys_openat2")->st.total_ns, 20000);
	CHECK(strstr(kmag_session_filters(s), "calls >= 10.000 us (2 shorter calls left out)"));
	kmag_session_free(s);
}

/* Filters that let nothing through: ENOENT, saying what the trace holds. */
static void test_nothing_matched(void)
{
	struct kmag_session_opts o = { .cpus = "5", .views = { .graph = true } };
	struct kmag_err err = { 0 };

	CHECK(!load("cpu5.txt", &o, &err));
	CHECK_EQ(err.code, ENOENT);
	CHECK(strstr(err.msg, "matches the filters (cpu 5)"));
	CHECK(strstr(err.msg, "on CPUs 0-1 from 2 tasks"));
}

/* Bad option values are refused before anything is opened, naming the value. */
static void test_bad_options(void)
{
	struct kmag_session_opts o = { .path = "/nonexistent", .cpus = "3-1" };
	struct kmag_err err = { 0 };

	CHECK(!kmag_session_new(&o, &err));
	CHECK_EQ(err.code, EINVAL);
	CHECK(strstr(err.msg, "\"3-1\""));
	o = (struct kmag_session_opts){ .path = "/nonexistent", .filter_filepath = ",," };
	kmag_err_clear(&err);
	CHECK(!kmag_session_new(&o, &err));
	CHECK_EQ(err.code, EINVAL);
}

/* A session reads once; a missing file says so. */
static void test_lifecycle(void)
{
	struct kmag_session_opts o = { .views = { .graph = true } };
	struct kmag_err err = { 0 };
	struct kmag_session *s = load("once.txt", &o, &err);

	CHECK(s);
	CHECK_EQ(kmag_session_read(s, &err), -EBUSY);
	kmag_session_free(s);
	o.path = "/nonexistent/trace.dat";
	kmag_err_clear(&err);
	s = kmag_session_new(&o, &err);
	CHECK(s);
	CHECK(kmag_session_open(s, &err) < 0);
	CHECK_EQ(err.code, ENOENT);
	kmag_session_free(s);
	kmag_session_free(NULL);
}

/* The trace's report JSON, a profile: the path of the file. */
static const char *write_profile(void)
{
	struct kmag_session_opts o = { .views = { .graph = true } };
	struct kmag_err err = { 0 };
	struct kmag_session *s = load("for-profile.txt", &o, &err);
	const char *path = write_tmp("p.json", "", 0);
	struct kmag_report r = { .sort = KMAG_SORT_CALLS, .focus = -1 };
	FILE *f = fopen(path, "w");

	CHECK(s && f);
	r.cg = kmag_session_graph(s);
	r.st = kmag_session_symtab(s);
	r.info = kmag_session_info(s);
	r.input = kmag_session_name(s);
	r.filters = "";
	CHECK_EQ(kmag_report_json(f, &r), 0);
	CHECK_EQ(fclose(f), 0);
	kmag_session_free(s);
	return path;
}

/* A profile holds sums: a view of single calls, a filter, call paths need a trace. */
static void test_profile_refused(void)
{
	struct kmag_session_opts o = { .path = write_profile(), .views = { .graph = true } };
	struct kmag_err err = { 0 };
	struct kmag_session *s;

	s = kmag_session_new(&o, &err);
	CHECK(s);
	if (kmag_session_open(s, &err) || kmag_session_read(s, &err))
		test_fail(__FILE__, __LINE__, "the profile: %s", err.msg);
	CHECK_EQ(kmag_session_info(s)->format, KMAG_INPUT_PROFILE);
	CHECK_EQ(node(s, "vfs_read")->st.total_ns, 50000);
	kmag_session_free(s);

	o.pids = "1";
	o.what = "report";
	s = kmag_session_new(&o, &err);
	CHECK(s);
	CHECK_EQ(kmag_session_open(s, &err), -EINVAL);
	CHECK(strstr(err.msg, "is a profile") && strstr(err.msg, "--pid needs a trace's events"));
	kmag_session_free(s);

	o = (struct kmag_session_opts){ .path = o.path, .what = "errors",
					.views = { .errors = true } };
	kmag_err_clear(&err);
	s = kmag_session_new(&o, &err);
	CHECK(s);
	CHECK_EQ(kmag_session_open(s, &err), -EINVAL);
	CHECK(strstr(err.msg, "errors needs a trace's events"));
	kmag_session_free(s);
}

const struct test_case session_tests[] = {
	{ "views", test_views },
	{ "filters", test_filters },
	{ "nothing_matched", test_nothing_matched },
	{ "bad_options", test_bad_options },
	{ "lifecycle", test_lifecycle },
	{ "profile_refused", test_profile_refused },
	TEST_LIST_END,
};
