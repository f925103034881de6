// SPDX-License-Identifier: MIT
/*
 * t-trigger.c - the flight recorder's triggers (lib/analysis/trigger.c):
 * their specs, and their matches on real Linux 6.19 traces checked against
 * the kernel's own text of the same ring buffer (fg619-retval.txt: the
 * returns, durations and indentation the kernel printed) and, for event
 * filters, against `trace-cmd report`.
 */
#include <stdio.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "analysis/trigger.h"
#include "kmag/trace.h"
#include "test.h"
#include "trace/trace-internal.h"

static void parse_ok(const char *spec, struct kmag__trigger *t)
{
	struct kmag_err err = { 0 };

	if (kmag__trigger_parse(spec, t, &err))
		test_fail(__FILE__, __LINE__, "\"%s\" refused: %s", spec, err.msg);
}

static void parse_bad(const char *spec, const char *want)
{
	struct kmag__trigger t;
	struct kmag_err err = { 0 };

	CHECK_EQ(kmag__trigger_parse(spec, &t, &err), -EINVAL);
	if (!strstr(err.msg, want))
		test_fail(__FILE__, __LINE__, "\"%s\": message \"%s\" lacks \"%s\"", spec, err.msg,
			  want);
	CHECK(strstr(err.msg, spec) != NULL);
}

static void parses_specs(void)
{
	struct kmag__trigger t;

	parse_ok("error", &t);
	CHECK_EQ(t.kind, KMAG_TRIG_ERROR);
	CHECK_EQ(t.errnum, 0);
	CHECK(!t.func);
	kmag__trigger_release(&t);
	parse_ok("error=ENOENT@do_sys_openat2", &t);
	CHECK_EQ(t.errnum, 2);
	CHECK_STREQ(t.func, "do_sys_openat2");
	kmag__trigger_release(&t);
	parse_ok("error=-13", &t);
	CHECK_EQ(t.errnum, 13);
	kmag__trigger_release(&t);
	parse_ok("error=enotty", &t);
	CHECK_EQ(t.errnum, 25);
	kmag__trigger_release(&t);
	/* the kernel's own errnos have names too */
	parse_ok("error=ERESTARTSYS", &t);
	CHECK_EQ(t.errnum, 512);
	kmag__trigger_release(&t);
	parse_ok("error@vfs_read", &t);
	CHECK_EQ(t.errnum, 0);
	CHECK_STREQ(t.func, "vfs_read");
	kmag__trigger_release(&t);
	parse_ok("slow=vfs_read>5ms", &t);
	CHECK_EQ(t.kind, KMAG_TRIG_SLOW);
	CHECK_STREQ(t.func, "vfs_read");
	CHECK_EQ(t.min_ns, 5000000);
	kmag__trigger_release(&t);
	parse_ok("slow=shmem_get_folio_gfp.constprop.0>250", &t);
	CHECK_EQ(t.min_ns, 250000);	/* a bare number is microseconds, as --min-duration */
	kmag__trigger_release(&t);
	parse_ok("event=sched:sched_switch", &t);
	CHECK_EQ(t.kind, KMAG_TRIG_EVENT);
	CHECK_STREQ(t.system, "sched");
	CHECK_STREQ(t.event, "sched_switch");
	CHECK(!t.filter);
	kmag__trigger_release(&t);
	parse_ok("event=syscalls:sys_exit_openat/ret == -2 && common_pid != 1", &t);
	CHECK_STREQ(t.event, "sys_exit_openat");
	CHECK_STREQ(t.filter, "ret == -2 && common_pid != 1");
	kmag__trigger_release(&t);

	parse_bad("fail", "unknown trigger");
	parse_bad("error=EFOO", "ERRNO is an errno name or number");
	parse_bad("error=0", "ERRNO is an errno name or number");
	parse_bad("error=5000", "ERRNO is an errno name or number");
	parse_bad("errors", "write error=ERRNO or error@FUNC");
	parse_bad("error@", "FUNC after @");
	parse_bad("error@vfs read", "FUNC after @");
	parse_bad("slow=vfs_read", "slow=FUNC>DURATION");
	parse_bad("slow=vfs_read>", "DURATION");
	parse_bad("slow=vfs_read>0ms", "DURATION");
	parse_bad("slow=vfs_read>5 parsecs", "DURATION");
	parse_bad("slow=>5ms", "FUNC must be");
	parse_bad("event=sched_switch", "event=SYSTEM:EVENT");
	parse_bad("event=sched:sched_*", "no globs");
	parse_bad("event=sched:sched_switch/ ", "empty FILTER");
}

/* ---- matching on fixture traces ---- */

struct run {
	struct kmag_trace *t;
	struct kmag__watch *w;
	struct kmag__fire first;
	bool fired, closed;
	uint64_t fires;		/* windows opened (each re-armed at once) */
	uint64_t close_ts;	/* when the first window's chain returned */
	bool rearm;		/* re-arm after each fire (count every match as a fire) */
};

static struct tep_event *format_of(void *ctx, int id)
{
	return kmag__trace_event_format(ctx, id);
}

static int feed(const struct kmag_event *ev, void *ctx)
{
	struct run *r = ctx;
	int ret = kmag__watch_add(r->w, ev);
	const struct kmag__fire *f = kmag__watch_fire(r->w);

	CHECK(ret >= 0);
	if (ret == 1) {
		r->fires++;
		if (!r->fired) {
			r->first = *f;
			r->fired = true;
		}
	}
	if (r->fired && !r->closed && f && f->ts == r->first.ts && !f->root_open) {
		r->closed = true;
		r->close_ts = ev->ts;
		r->first.root_end_ns = f->root_end_ns;
		r->first.root_duration = f->root_duration;
		r->first.root_open = false;
	}
	if (r->rearm && f)
		kmag__watch_rearm(r->w);
	return 0;
}

/* Runs @spec over fixture @rel; fills @r. */
static void run_spec(const char *rel, const char *spec, bool rearm, struct run *r,
		     struct kmag__trigger *t)
{
	struct kmag_err err = { 0 };

	memset(r, 0, sizeof(*r));
	r->rearm = rearm;
	parse_ok(spec, t);
	r->t = kmag_trace_open(fixture(rel), NULL, &err);
	if (!r->t)
		test_fail(__FILE__, __LINE__, "%s: %s", rel, err.msg);
	r->w = kmag__watch_new(t, 1, kmag_trace_symtab(r->t), format_of, r->t, NULL, &err);
	CHECK(r->w);
	CHECK_EQ(kmag_trace_read(r->t, feed, r, &err), 0);
}

static void run_done(struct run *r, struct kmag__trigger *t)
{
	kmag__watch_free(r->w);
	kmag_trace_close(r->t);
	kmag__trigger_release(t);
}

static const char *name(struct run *r, kmag_func_t f)
{
	return kmag_symtab_name(kmag_trace_symtab(r->t), f);
}

/*
 * The kernel's text of the same buffer: the closing lines of @func (a
 * closing brace or a leaf line, with "ret=..."), in order, with their
 * duration in ns, their indentation depth and the return value's text.
 */
struct text_exit {
	uint64_t ns;
	int depth;
	char ret[32];
	int line;
};

static size_t text_exits(const char *rel, const char *func, struct text_exit *out, size_t max)
{
	char line[512], pat1[128], pat2[128];
	FILE *f = fopen(fixture(rel), "r");
	size_t n = 0;
	int no = 0;

	CHECK(f);
	snprintf(pat1, sizeof(pat1), "} /* %s ret=", func);
	snprintf(pat2, sizeof(pat2), "| %s(); /* ret=", func);
	while (fgets(line, sizeof(line), f)) {
		char *bar = strchr(line, '|'), *p, *r;
		double us = 0;
		int spaces = 0;

		no++;
		if (!bar || (!(p = strstr(line, pat1)) && !(p = strstr(line, pat2))))
			continue;
		/* " 0) ! 305.578 us  |" : the number before "us" */
		for (r = bar; r > line && r[-1] == ' '; r--)
			;
		while (r > line && r[-1] != ' ')
			r--;	/* "us" */
		for (; r > line && r[-1] == ' '; r--)
			;
		while (r > line && r[-1] != ' ')
			r--;
		sscanf(r, "%lf", &us);
		for (r = bar + 1; *r == ' '; r++)
			spaces++;
		CHECK(n < max);
		out[n].ns = (uint64_t)(us * 1000.0 + 0.5);
		out[n].depth = (spaces - 2) / 2;
		out[n].line = no;
		sscanf(strstr(p, "ret=") + 4, "%31[^ ]", out[n].ret);
		n++;
	}
	fclose(f);
	return n;
}

/* |a - b| <= 1 us: the text rounds to ns/1000 with 3 decimals */
#define CHECK_NEAR_US(a, b) CHECK((a) + 1000 >= (b) && (b) + 1000 >= (a))

static void error_fires_once_with_its_chain(void)
{
	struct text_exit x[64];
	struct kmag__trigger t;
	struct run r;
	size_t n, i, want = 0;
	int at = -1;

	/* the kernel's text: do_sys_openat2 returned -2 once, at some depth */
	n = text_exits("traces/6.19/fg619-retval.txt", "do_sys_openat2", x, 64);
	for (i = 0; i < n; i++)
		if (!strcmp(x[i].ret, "-2")) {
			want++;
			at = (int)i;
		}
	CHECK_EQ(want, 1);
	run_spec("traces/6.19/fg619-retval.dat", "error=ENOENT@do_sys_openat2", false, &r, &t);
	CHECK_EQ(r.fires, 1);
	CHECK_EQ(kmag__watch_matches(r.w), 1);
	CHECK_STREQ(name(&r, r.first.func), "do_sys_openat2");
	CHECK_EQ(r.first.errnum, 2);
	CHECK_EQ((int32_t)r.first.retval, -2);	/* an int function: the low half */
	CHECK_NEAR_US(r.first.duration, x[at].ns);
	/* its callers: as many as its indentation says, the outermost the system call */
	CHECK_EQ(r.first.depth, (uint64_t)x[at].depth);
	{
		struct text_exit top[64];
		size_t k, m = text_exits("traces/6.19/fg619-retval.txt", "__x64_sys_openat", top, 64);

		for (k = 0; k < m && top[k].line < x[at].line; k++)
			;
		CHECK(k < m && top[k].depth == 0);
		CHECK_STREQ(name(&r, r.first.root_func), "__x64_sys_openat");
		CHECK(r.closed);
		CHECK(r.first.root_start_ns != KMAG_TS_NONE);
		/* the window closes when the root returns */
		CHECK_NEAR_US(r.first.root_duration, top[k].ns);
		CHECK(r.close_ts > r.first.ts);
		CHECK_EQ(r.close_ts, r.first.root_end_ns);
	}
	CHECK(r.first.root_start_ns < r.first.ts - r.first.duration + 1000);
	run_done(&r, &t);
}

static void error_without_func_or_errno(void)
{
	struct kmag__trigger t;
	struct run r;

	/* any errno of any function: the first is before the open's ENOENT */
	run_spec("traces/6.19/fg619-retval.dat", "error=2", true, &r, &t);
	/* -2 came back through 6 functions (kmag errors: step_into_slowpath too) */
	CHECK_EQ(r.fires, 7);
	CHECK_STREQ(name(&r, r.first.func), "step_into_slowpath");
	run_done(&r, &t);
	/* the window: later matches are counted in it, not fired */
	run_spec("traces/6.19/fg619-retval.dat", "error=ENOENT", false, &r, &t);
	CHECK_EQ(r.fires, 1);
	CHECK_EQ(kmag__watch_fire(r.w)->more, 6);
	run_done(&r, &t);
}

static void slow_matches_the_kernels_durations(void)
{
	struct text_exit x[64];
	struct kmag__trigger t;
	struct run r;
	size_t n, i, want = 0, first = 0;

	n = text_exits("traces/6.19/fg619-retval.txt", "do_filp_open", x, 64);
	CHECK(n > 5);
	for (i = n; i-- > 0;)
		if (x[i].ns > 300000) {
			want++;
			first = i;
		}
	CHECK(want >= 2);
	run_spec("traces/6.19/fg619-retval.dat", "slow=do_filp_open>300us", true, &r, &t);
	CHECK_EQ(r.fires, want);
	CHECK_STREQ(name(&r, r.first.func), "do_filp_open");
	CHECK_NEAR_US(r.first.duration, x[first].ns);
	CHECK(r.first.duration > 300000);
	run_done(&r, &t);
	/* nothing lasted that long */
	run_spec("traces/6.19/fg619-retval.dat", "slow=do_filp_open>1s", true, &r, &t);
	CHECK_EQ(r.fires, 0);
	run_done(&r, &t);
}

/* Lines of `trace-cmd report -R FILE` matching @pat (grep -c), or -1 without trace-cmd. */
static long tracecmd_count(const char *file, const char *pat)
{
	char cmd[1024];
	long n = -1;
	FILE *p;

	if (system("command -v trace-cmd >/dev/null 2>&1") != 0)
		return -1;
	snprintf(cmd, sizeof(cmd), "trace-cmd report -R %s 2>/dev/null | grep -cE '%s'", file, pat);
	p = popen(cmd, "r");
	CHECK(p);
	CHECK(fscanf(p, "%ld", &n) == 1);
	pclose(p);
	return n;
}

static void event_filter_as_trace_cmd_reads_it(void)
{
	const char *rel = "traces/6.19/fg619-retval.dat";
	struct kmag__trigger t;
	struct run r;
	char dat[512];
	long want;

	/* a fixture with sched_switch: unpack the v6 one */
	snprintf(dat, sizeof(dat), "%s", fixture_unpacked("traces/fg-sched-v6.dat.xz"));
	(void)rel;
	want = tracecmd_count(dat, " sched_switch: .*next_pid=0 ");
	if (want < 0)
		test_skip("trace-cmd is not installed");
	CHECK(want > 1);
	{
		struct kmag_err err = { 0 };

		memset(&r, 0, sizeof(r));
		r.rearm = true;
		parse_ok("event=sched:sched_switch/next_pid == 0", &t);
		r.t = kmag_trace_open(dat, NULL, &err);
		CHECK(r.t);
		r.w = kmag__watch_new(&t, 1, kmag_trace_symtab(r.t), format_of, r.t, NULL, &err);
		CHECK(r.w);
		CHECK_EQ(kmag_trace_read(r.t, feed, &r, &err), 0);
	}
	CHECK_EQ(r.fires, (uint64_t)want);
	CHECK_STREQ(r.first.event_name, "sched_switch");
	CHECK_STREQ(r.first.event_system, "sched");
	run_done(&r, &t);
	/* without a filter: every sched_switch */
	want = tracecmd_count(dat, " sched_switch: ");
	memset(&r, 0, sizeof(r));
	{
		struct kmag_err err = { 0 };

		r.rearm = true;
		parse_ok("event=sched:sched_switch", &t);
		r.t = kmag_trace_open(dat, NULL, &err);
		r.w = kmag__watch_new(&t, 1, kmag_trace_symtab(r.t), format_of, r.t, NULL, &err);
		CHECK(r.t && r.w);
		CHECK_EQ(kmag_trace_read(r.t, feed, &r, &err), 0);
	}
	CHECK_EQ(r.fires, (uint64_t)want);
	run_done(&r, &t);
}

static void event_filter_errors(void)
{
	struct kmag__trigger t;
	struct kmag_err err = { 0 };
	struct kmag_trace *tr;
	struct tep_event *te = NULL;
	char dat[512];
	int id;

	snprintf(dat, sizeof(dat), "%s", fixture_unpacked("traces/fg-sched-v6.dat.xz"));
	tr = kmag_trace_open(dat, NULL, &err);
	CHECK(tr);
	for (id = 0; id < 2000 && !te; id++) {
		te = kmag__trace_event_format(tr, id);
		if (te && strcmp(te->name, "sched_switch"))
			te = NULL;
	}
	CHECK(te);
	parse_ok("event=sched:sched_switch/no_such_field == 3", &t);
	CHECK_EQ(kmag__trigger_check_filter(&t, te, &err), -EINVAL);
	CHECK(strstr(err.msg, "sched:sched_switch has no field \"no_such_field\"") != NULL);
	kmag__trigger_release(&t);
	memset(&err, 0, sizeof(err));
	/* a field name inside a quoted value is a value */
	parse_ok("event=sched:sched_switch/next_comm == \"x == y\"", &t);
	CHECK_EQ(kmag__trigger_check_filter(&t, te, &err), 0);
	kmag__trigger_release(&t);
	memset(&err, 0, sizeof(err));
	{
		/* malformed filters (libtraceevent 1.7 crashes on the first) */
		static const char *const bad[][2] = {
			{ "prev_pid == 1 &&", "expected a field name at \"(end)\"" },
			{ "(prev_pid == 1", "expected )" },
			{ "prev_pid == 1)", "unbalanced )" },
			{ "prev_pid 1", "expected an operator" },
			{ "prev_pid ==", "expected a value" },
			{ "prev_pid == 1 prev_pid == 2", "expected && or ||" },
			{ "prev_pid == \"x", "expected a value" },
			{ "== 3", "expected a field name" },
			{ "3 == prev_pid", "expected a field name" },
		};
		size_t i;
		char spec[128];

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			memset(&err, 0, sizeof(err));
			snprintf(spec, sizeof(spec), "event=sched:sched_switch/%s", bad[i][0]);
			parse_ok(spec, &t);
			CHECK_EQ(kmag__trigger_check_filter(&t, te, &err), -EINVAL);
			if (!strstr(err.msg, bad[i][1]))
				test_fail(__FILE__, __LINE__, "%s: \"%s\" lacks \"%s\"", spec, err.msg,
					  bad[i][1]);
			kmag__trigger_release(&t);
		}
	}
	memset(&err, 0, sizeof(err));
	parse_ok("event=sched:sched_switch/!(prev_pid == 1 || next_comm ~ \"sh*\") && CPU == 0", &t);
	if (kmag__trigger_check_filter(&t, te, &err))
		test_fail(__FILE__, __LINE__, "%s", err.msg);
	kmag__trigger_release(&t);
	parse_ok("event=sched:sched_switch/prev_pid != 0", &t);
	CHECK_EQ(kmag__trigger_check_filter(&t, te, &err), 0);
	kmag__trigger_release(&t);
	kmag_trace_close(tr);
}

const struct test_case trigger_tests[] = {
	{ "trigger: specs parse, bad ones are refused naming the fix", parses_specs },
	{ "trigger: error=ENOENT@do_sys_openat2 fires once, with its callers (kernel text)",
	  error_fires_once_with_its_chain },
	{ "trigger: error=ERRNO without FUNC, and the window's count", error_without_func_or_errno },
	{ "trigger: slow= matches the kernel's durations", slow_matches_the_kernels_durations },
	{ "trigger: event filters match as trace-cmd reads the records",
	  event_filter_as_trace_cmd_reads_it },
	{ "trigger: a filter that does not fit the event is refused", event_filter_errors },
	TEST_LIST_END
};
