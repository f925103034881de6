// SPDX-License-Identifier: MIT
/*
 * t-tracedat-seek.c - reading a time window of a trace.dat
 * (kmag_trace_set_window(), lib/trace/tracedat-seek.c): the binary search
 * over page starts, and on every trace.dat fixture (v6 pages, v7 zstd
 * chunks, lost events, two CPUs) windows at the start, in the middle, at
 * the end, empty and past the end deliver exactly the events of a whole
 * read that lie in the window (the reference: a read without a window,
 * kept to it here), in the same order, the same when every page is read
 * ($KMAG_SEEK=scan), and count them so; a window in the middle of a long
 * trace reads less of the file.
 */
#include <inttypes.h>

#include "test.h"
#include "kmag/trace.h"
#include "trace/input-tracedat.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* ---- the search ---- */

static uint64_t array_start(void *ctx, size_t i)
{
	return ((const uint64_t *)ctx)[i];
}

/* Sorted page starts with holes (unknown: KMAG_TS_NONE): never past a page that starts late. */
static void test_seek_search(void)
{
	uint64_t t[64];
	unsigned seed = 7, round;

	for (round = 0; round < 2000; round++) {
		size_t n = 1 + rand_r(&seed) % 64, i, r, exact = 0;
		uint64_t v = 100, from;
		bool holes = round % 2;

		for (i = 0; i < n; i++) {
			v += rand_r(&seed) % 3;	/* equal starts too */
			t[i] = holes && i && rand_r(&seed) % 4 == 0 ? KMAG_TS_NONE : v;
		}
		from = 99 + rand_r(&seed) % (v - 97);
		for (i = 1; i < n; i++)
			if (t[i] != KMAG_TS_NONE && t[i] < from)
				exact = i;
		r = kmag__seek_search(0, n, from, array_start, t);
		CHECK(r < n);
		CHECK(r == 0 || (t[r] != KMAG_TS_NONE && t[r] < from));
		CHECK(r <= exact);
		if (!holes)
			CHECK_EQ(r, exact);
	}
	CHECK_EQ(kmag__seek_search(5, 6, 1000, array_start, t), 5);
}

/* ---- windows of the fixtures ---- */

struct rec {
	int type, cpu, pid, depth;
	uint64_t ts, lost, duration;
	kmag_func_t func;
};

struct run {
	struct rec *r;
	size_t nr, cap;
	uint64_t from, to;	/* the window to ask for */
	bool window;
	uint64_t bytes;		/* read, at the end */
	uint64_t events, lost_markers;	/* kmag_trace_info()'s counts */
};

static int collect(const struct kmag_event *ev, void *ctx)
{
	struct run *run = ctx;
	struct rec *r;

	if (run->nr == run->cap) {
		run->cap = run->cap ? 2 * run->cap : 4096;
		run->r = realloc(run->r, run->cap * sizeof(*run->r));
		CHECK(run->r);
	}
	r = &run->r[run->nr++];
	memset(r, 0, sizeof(*r));
	r->type = ev->type;
	r->cpu = ev->cpu;
	r->pid = ev->pid;
	r->ts = ev->ts;
	r->depth = ev->depth;
	r->func = ev->func;
	r->lost = ev->type == KMAG_EV_LOST ? ev->lost : 0;
	r->duration = ev->type == KMAG_EV_GRAPH_EXIT ? ev->duration : 0;
	return 0;
}

static bool window_fn(void *ctx, const struct kmag_event *firsts, size_t n, uint64_t *from,
		      uint64_t *to)
{
	const struct run *run = ctx;

	(void)firsts;
	(void)n;
	*from = run->from;
	*to = run->to;
	return true;
}

static void progress(const struct kmag_trace_progress *p, void *ctx)
{
	((struct run *)ctx)->bytes = p->bytes;
}

static void read_run(const char *path, struct run *run, bool scan)
{
	struct kmag_trace_opts o = { .threads = 1 };
	struct kmag_err err = { 0 };
	const struct kmag_trace_info *info;
	struct kmag_trace *t;
	int i;

	if (scan)
		setenv("KMAG_SEEK", "scan", 1);
	else
		unsetenv("KMAG_SEEK");
	t = kmag_trace_open(path, &o, &err);
	if (!t)
		test_fail(__FILE__, __LINE__, "%s: %s", path, err.msg);
	if (run->window)
		CHECK(kmag_trace_set_window(t, window_fn, run));
	kmag_trace_set_progress(t, progress, run);
	if (kmag_trace_read(t, collect, run, &err) < 0)
		test_fail(__FILE__, __LINE__, "%s: %s", path, err.msg);
	info = kmag_trace_info(t);
	run->events = info->events;
	for (i = 0; i < info->nr_cpus; i++)
		run->lost_markers += info->cpus[i].lost_markers;
	kmag_trace_close(t);
	unsetenv("KMAG_SEEK");
}

/* @got (a window's read) holds exactly the events of @all in [from, to], in order. */
static void same_as_whole(const char *path, const char *what, const struct run *all,
			  const struct run *got)
{
	size_t i, k = 0;
	uint64_t events = 0, markers = 0;

	for (i = 0; i < all->nr; i++) {
		const struct rec *r = &all->r[i];

		if (r->ts < got->from || r->ts > got->to)
			continue;
		if (k >= got->nr)
			test_fail(__FILE__, __LINE__, "%s, %s: %zu events, the whole read has more",
				  path, what, got->nr);
		if (memcmp(r, &got->r[k], sizeof(*r)))
			test_fail(__FILE__, __LINE__,
				  "%s, %s: event %zu is cpu %d ts %" PRIu64 " type %d, the whole read's cpu %d ts %" PRIu64 " type %d",
				  path, what, k, got->r[k].cpu, got->r[k].ts, got->r[k].type, r->cpu,
				  r->ts, r->type);
		k++;
		if (r->type == KMAG_EV_LOST)
			markers++;
		else
			events++;
	}
	if (k != got->nr)
		test_fail(__FILE__, __LINE__, "%s, %s: %zu events, the whole read's window %zu", path,
			  what, got->nr, k);
	CHECK_EQ(got->events, events);
	CHECK_EQ(got->lost_markers, markers);
}

static const char *const fixtures[] = {
	"traces/fg-all-cpu0-v6.dat.xz",	/* first: the longest, where seeking must read less */
	"traces/fg-lost-v6.dat.xz",
	"traces/fn-lost-v6.dat.xz",
	"traces/fg-2cpu-v6.dat.xz",
	"traces/fg-sched-v6.dat.xz",
	"traces/fg-filtered.dat",
	"traces/6.19/fg619-hex-tail.dat",
	"traces/6.19/fg619-args.dat",
	"traces/6.19/fg619-retval.dat",
	"traces/6.19-tc34/tc34-args.dat",
	/* v7 twins of the first and of the two-CPU one, many chunks long (trace-cmd convert) */
	"v7:traces/fg-all-cpu0-v6.dat.xz",
	"v7:traces/fg-2cpu-v6.dat.xz",
};

/* Fixture @rel; "v7:X": X converted to v7 zstd by trace-cmd (NULL without it). */
static const char *fixture_file(const char *rel)
{
	static char out[512];
	char cmd[2048];
	const char *v6;

	if (strncmp(rel, "v7:", 3))
		return fixture_unpacked(rel);
	v6 = fixture_unpacked(rel + 3);
	snprintf(out, sizeof(out), "%s.v7", v6);
	snprintf(cmd, sizeof(cmd),
		 "trace-cmd convert --file-version 7 --compression zstd -i '%s' -o '%s' >/dev/null 2>&1",
		 v6, out);
	return system(cmd) ? NULL : out;
}

static void test_seek_windows(void)
{
	/* where the windows lie, in thousandths of the trace's span */
	static const struct {
		const char *name;
		int a, b;
	} win[] = {
		{ "start", 0, 20 }, { "middle", 490, 510 }, { "end", 980, 1000 },
		{ "one instant", 500, 500 }, { "past the end", 1001, 1100 },
		{ "before the start", -100, -1 }, { "all", -1, 1001 },
	};
	size_t f, w;

	for (f = 0; f < (getenv("KMAG_VALGRIND") ? 2 : ARRAY_SIZE(fixtures)); f++) {
		const char *path = fixture_file(fixtures[f]);
		struct run all = { 0 };
		uint64_t first = UINT64_MAX, last = 0, span, bytes[ARRAY_SIZE(win)];
		size_t i;

		if (!path)
			continue;	/* (no trace-cmd: the v7 fixtures of the tree still are) */
		read_run(path, &all, false);
		for (i = 0; i < all.nr; i++) {
			if (all.r[i].ts < first)
				first = all.r[i].ts;
			if (all.r[i].ts > last)
				last = all.r[i].ts;
		}
		if (all.nr < 100 || last <= first)
			test_fail(__FILE__, __LINE__, "%s: %zu events from %" PRIu64 " to %" PRIu64, path,
				  all.nr, first, last);
		span = last - first;
		for (w = 0; w < ARRAY_SIZE(win); w++) {
			struct run seek = { .window = true }, scan;

			seek.from = first + (uint64_t)((double)span * win[w].a / 1000.0);
			seek.to = first + (uint64_t)((double)span * win[w].b / 1000.0);
			if (win[w].a < 0)
				seek.from = first - (uint64_t)((double)span * -win[w].a / 1000.0);
			if (win[w].b < 0)
				seek.to = first - (uint64_t)((double)span * -win[w].b / 1000.0);
			scan = seek;
			read_run(path, &seek, false);
			read_run(path, &scan, true);
			same_as_whole(path, win[w].name, &all, &seek);
			same_as_whole(path, win[w].name, &all, &scan);
			bytes[w] = seek.bytes;
			free(seek.r);
			free(scan.r);
		}
		/*
		 * The middle 2 % of the longest trace reads far less than the
		 * whole, beyond what any read reads (the headers, each CPU's
		 * first pages: a window before the start reads only that).
		 */
		if ((f == 0 || f == ARRAY_SIZE(fixtures) - 2) &&
		    (bytes[1] - bytes[5]) * 4 > all.bytes - bytes[5])
			test_fail(__FILE__, __LINE__,
				  "%s: the middle 2 %% read %" PRIu64 " bytes, the whole %" PRIu64 ", a window before the start %" PRIu64,
				  path, bytes[1], all.bytes, bytes[5]);
		free(all.r);
	}
}

struct test_case tracedat_seek_tests[] = {
	{ "seek_search", test_seek_search },
	{ "seek_windows", test_seek_windows },
	TEST_LIST_END
};
