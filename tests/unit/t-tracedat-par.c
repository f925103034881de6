// SPDX-License-Identifier: MIT
/*
 * t-tracedat-par.c - the trace.dat reader on several threads
 * (lib/trace/tracedat-par.c) hands on the events of the reader on one,
 * event for event: the same order, the same contents, the same function ids
 * and names (the "0x..." ones included), the same error after the same
 * events, in time order and CPU by CPU. The one-thread reader is the
 * reference here; it is checked against trace-cmd report and the kernel's
 * text elsewhere (t0100, t0870, t0875).
 *
 * scripts/test-all.sh runs this suite under ThreadSanitizer as well.
 */
#include <sys/stat.h>

#include "test.h"
#include "kmag/symtab.h"
#include "kmag/trace.h"
#include "trace/tracedat.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* One event as the views see it: the fields of its type, names resolved. */
struct rec {
	struct kmag_event ev;
	char func[80], parent[80], event_name[40];
	uint8_t raw[64];
};

struct run {
	struct kmag_trace *t;
	struct rec *r;
	size_t nr, cap;
	size_t stop_after;	/* 0: read all */
	char damage[8192];	/* kmag_trace_damage(), as words */
};

/* Damaged data is an error (kmag_trace_set_strict()), not read past. */
static bool strict;

static void copy_name(char *dst, size_t len, struct kmag_trace *t, kmag_func_t id)
{
	const char *n = id == KMAG_FUNC_NONE ? "-" : kmag_symtab_name(kmag_trace_symtab(t), id);

	snprintf(dst, len, "%s", n ? n : "(none)");
}

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
	r->ev.type = ev->type;
	r->ev.cpu = ev->cpu;
	r->ev.pid = ev->pid;
	r->ev.ts = ev->ts;
	r->ev.ctx = ev->ctx;
	switch (ev->type) {
	case KMAG_EV_FUNC:
	case KMAG_EV_GRAPH_ENTRY:
	case KMAG_EV_GRAPH_EXIT:
		r->ev.repeat = ev->repeat;
		r->ev.depth = ev->depth;
		r->ev.func = ev->func;
		r->ev.ip = ev->ip;
		copy_name(r->func, sizeof(r->func), run->t, ev->func);
		if (ev->type == KMAG_EV_GRAPH_EXIT) {
			r->ev.duration = ev->duration;
			r->ev.calltime = ev->calltime;
			r->ev.has_retval = ev->has_retval;
			r->ev.retval = ev->has_retval ? ev->retval : 0;
			break;
		}
		r->ev.parent = ev->parent;
		r->ev.parent_ip = ev->parent_ip;
		if (ev->type == KMAG_EV_GRAPH_ENTRY)
			r->ev.parent_off = ev->parent_off;
		copy_name(r->parent, sizeof(r->parent), run->t, ev->parent);
		r->ev.nargs = ev->nargs;
		memcpy(r->ev.args, ev->args, ev->nargs * sizeof(ev->args[0]));
		break;
	case KMAG_EV_LOST:
		r->ev.lost = ev->lost;
		break;
	default:
		r->ev.event_id = ev->event_id;
		r->ev.raw_size = ev->raw_size;
		snprintf(r->event_name, sizeof(r->event_name), "%s",
			 ev->event_name ? ev->event_name : "(none)");
		if (ev->raw)
			memcpy(r->raw, ev->raw, ev->raw_size < 64 ? ev->raw_size : 64);
		break;
	}
	return run->stop_after && run->nr == run->stop_after ? 7 : 0;
}

/*
 * Reads @path with @threads into @run; returns what kmag_trace_read()
 * returned, its message in @msg.
 */
static int read_all(const char *path, unsigned threads, bool unordered, size_t stop_after,
		    struct run *run, char *msg, size_t len)
{
	struct kmag_trace_opts o = { .threads = threads, .unordered = unordered };
	struct kmag_err err = { 0 };
	int ret;

	memset(run, 0, sizeof(*run));
	run->stop_after = stop_after;
	const struct kmag_damage_summary *d;
	size_t i, n;

	run->t = kmag_trace_open(path, &o, &err);
	if (!run->t)
		test_fail(__FILE__, __LINE__, "%s: %s", path, err.msg);
	kmag_trace_set_strict(run->t, strict);
	ret = kmag_trace_read(run->t, collect, run, &err);
	snprintf(msg, len, "%s", ret < 0 ? err.msg : "");
	/* what the warnings after reading say */
	d = kmag_trace_damage(run->t);
	n = (size_t)snprintf(run->damage, sizeof(run->damage),
			     "%" PRIu64 " places, %" PRIu64 " bytes, %" PRIu64 " events, %" PRIu64
			     " times, %" PRIu64 " durations, %d;",
			     d->places, d->skipped_bytes, d->lost_events, d->bad_times,
			     d->bad_durations, d->stopped);
	for (i = 0; i < d->nr && n < sizeof(run->damage); i++) {
		char line[512];

		n += (size_t)snprintf(run->damage + n, sizeof(run->damage) - n, " %s;",
				      kmag_damage_describe(run->t, &d->list[i], line, sizeof(line)));
	}
	return ret;
}

static void run_free(struct run *run)
{
	kmag_trace_close(run->t);
	free(run->r);
}

/*
 * Under valgrind or ThreadSanitizer (KMAG_VALGRIND, KMAG_TSAN: scripts/test-all.sh)
 * the first four, which have it all.
 */
static bool slow_run(void)
{
	return getenv("KMAG_VALGRIND") || getenv("KMAG_TSAN");
}

/*
 * @path read on 2 threads (the default on two CPUs) and 5 (more than there
 * are CPUs; slow runs: 3) gives what it gives on one; returns the events read.
 */
static size_t same_as_one(const char *path, bool unordered, size_t stop_after)
{
	unsigned threads[] = { 2, 5 };
	char msg1[512], msg[512];
	struct run one, par;
	int ret1, ret;
	size_t i, k, n;

	ret1 = read_all(path, 1, unordered, stop_after, &one, msg1, sizeof(msg1));
	if (slow_run())
		threads[0] = 3;
	for (k = 0; k < (slow_run() ? 1 : ARRAY_SIZE(threads)); k++) {
		ret = read_all(path, threads[k], unordered, stop_after, &par, msg, sizeof(msg));
		if (ret != ret1 || strcmp(msg, msg1))
			test_fail(__FILE__, __LINE__, "%s, %u threads: returned %d \"%s\", one: %d \"%s\"",
				  path, threads[k], ret, msg, ret1, msg1);
		if (strcmp(par.damage, one.damage))
			test_fail(__FILE__, __LINE__, "%s, %u threads: damage \"%s\", one thread: \"%s\"",
				  path, threads[k], par.damage, one.damage);
		if (par.nr != one.nr)
			test_fail(__FILE__, __LINE__, "%s, %u threads: %zu events, one thread: %zu",
				  path, threads[k], par.nr, one.nr);
		for (i = 0; i < one.nr; i++)
			if (memcmp(&par.r[i], &one.r[i], sizeof(one.r[i])))
				test_fail(__FILE__, __LINE__,
					  "%s, %u threads: event %zu differs (cpu %d ts %" PRIu64 " %s, one thread: cpu %d ts %" PRIu64 " %s)",
					  path, threads[k], i, par.r[i].ev.cpu, par.r[i].ev.ts,
					  par.r[i].func, one.r[i].ev.cpu, one.r[i].ev.ts, one.r[i].func);
		/* the names the reading made, in the order it made them */
		n = kmag_symtab_count(kmag_trace_symtab(one.t));
		CHECK_EQ(kmag_symtab_count(kmag_trace_symtab(par.t)), n);
		for (i = 0; i < n; i++)
			CHECK_STREQ(kmag_symtab_name(kmag_trace_symtab(par.t), (kmag_func_t)i),
				    kmag_symtab_name(kmag_trace_symtab(one.t), (kmag_func_t)i));
		run_free(&par);
	}
	n = one.nr;
	run_free(&one);
	return n;
}

/*
 * Every trace.dat fixture: v6 (uncompressed pages) and v7 (zstd chunks),
 * lost events (pages that say events were dropped), interrupts, a
 * sched_switch format parsed on first use, addresses no symbol covers
 * ("0x..." names), arguments, call sites, one CPU and several.
 */
static const char *const all_fixtures[] = {
	"traces/fg-filtered.dat",
	"traces/fg-lost-v6.dat.xz",
	"traces/fg-sched-v6.dat.xz",
	"traces/6.19/fg619-hex-tail.dat",
	"traces/fn-filtered.dat",
	"traces/fn-kprobe.dat",
	"traces/fn-lost-v6.dat.xz",
	"traces/fg-all-cpu0-v6.dat.xz",
	"traces/fg-2cpu-v6.dat.xz",
	"traces/fn-broad-v6.dat.xz",
	"traces/fg-depth3-v6.dat.xz",
	"traces/fg-filtered-6.12-v6.dat.xz",
	"traces/6.19/fg619-args.dat",
	"traces/6.19/fg619-latency.dat",
	"traces/6.19/fg619-retaddr.dat",
	"traces/6.19/fg619-retval.dat",
	"traces/6.19/fn619-args.dat",
	"traces/6.19-tc34/tc34-args.dat",
	"traces/6.19-tc34/tc34-retaddr.dat",
};

static size_t nr_fixtures(void)
{
	return slow_run() ? 4 : ARRAY_SIZE(all_fixtures);
}

static void test_par_fixtures_ordered(void)
{
	size_t i, n = 0;

	for (i = 0; i < nr_fixtures(); i++)
		n += same_as_one(fixture_unpacked(all_fixtures[i]), false, 0);
	CHECK(n > (slow_run() ? 20000u : 250000u));
}

static void test_par_fixtures_unordered(void)
{
	size_t i, n = 0;

	/* (slow runs: the zstd and the v6 trace) */
	for (i = 0; i < (slow_run() ? 2 : nr_fixtures()); i++)
		n += same_as_one(fixture_unpacked(all_fixtures[i]), true, 0);
	CHECK(n > (slow_run() ? 10000u : 250000u));
}

/* A callback that stops early (replay --limit) stops the threads too, at the same event. */
static void test_par_stop_early(void)
{
	CHECK_EQ(same_as_one(fixture_unpacked("traces/fg-lost-v6.dat.xz"), false, 5000), 5000);
	CHECK_EQ(same_as_one(fixture("traces/fg-filtered.dat"), false, 1), 1);
}

/* A copy of @src with 4 bytes at @off overwritten by @v (@off 0: as it is). */
static const char *damaged(const char *src, const char *name, uint64_t off, uint32_t v)
{
	static char paths[4][512];	/* the last four copies' paths */
	static unsigned next;
	char cmd[2048];
	char *out = paths[next++ % 4];
	FILE *f;

	snprintf(out, sizeof(paths[0]), "%s/%s", test_tmpdir(), name);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", src, out);
	CHECK(!system(cmd));
	if (!off)
		return out;	/* a copy only */
	f = fopen(out, "r+b");
	CHECK(f);
	CHECK(!fseek(f, (long)off, SEEK_SET));
	CHECK_EQ(fwrite(&v, 4, 1, f), 1);
	CHECK(!fclose(f));
	return out;
}

/* The data of @path's CPU with the most, as the file's table has it. */
static struct td_cpu_data biggest_cpu(const char *path, bool *compressed)
{
	struct kmag_err err = { 0 };
	struct td_cpu_data best = { 0 };
	struct tracedat td;
	int i;

	if (kmag__tracedat_open(&td, path, &err))
		test_fail(__FILE__, __LINE__, "open %s: %s", path, err.msg);
	for (i = 0; i < td.top.nr_cpus; i++)
		if (td.top.cpus[i].size > best.size)
			best = td.top.cpus[i];
	*compressed = td.top.compressed;
	kmag__tracedat_close(&td);
	return best;
}

/*
 * @path is read past its damage, which the summary names (@want), the same
 * way on any threads; strictly, it stops at the same place after more than
 * @min events with the same message.
 */
static void damaged_alike(const char *path, size_t min, const char *want)
{
	char msg[512];
	struct run run;
	int ret;

	ret = read_all(path, 1, false, 0, &run, msg, sizeof(msg));
	if (ret || !strstr(run.damage, want))
		test_fail(__FILE__, __LINE__, "%s: %d \"%s\", damage \"%s\"", path, ret, msg,
			  run.damage);
	run_free(&run);
	same_as_one(path, false, 0);
	same_as_one(path, true, 0);
	strict = true;
	ret = read_all(path, 1, false, 0, &run, msg, sizeof(msg));
	if (ret >= 0 || run.nr <= min)
		test_fail(__FILE__, __LINE__, "%s, strict: %d \"%s\" after %zu events", path, ret,
			  msg, run.nr);
	run_free(&run);
	same_as_one(path, false, 0);
	same_as_one(path, true, 0);
	strict = false;
}

/* A copy of v7 @src whose biggest CPU's second zstd chunk loses its frame's magic number. */
static const char *bad_chunk(const char *src)
{
	struct td_cpu_data d;
	uint8_t h[4];
	bool z;
	FILE *f;

	d = biggest_cpu(src, &z);
	CHECK(z);
	f = fopen(src, "rb");
	CHECK(f);
	CHECK(!fseek(f, (long)d.offset + 4, SEEK_SET));
	CHECK_EQ(fread(h, 4, 1, f), 1);
	fclose(f);
	/* (the fixture is little-endian, as this machine) */
	return damaged(src, "bad-chunk.dat",
		       d.offset + 4 + 8 + (h[0] | h[1] << 8 | h[2] << 16 | (uint32_t)h[3] << 24) + 8,
		       0x12345678);
}

/*
 * A damaged page or chunk: read past with the same events and the same
 * damage messages, or (strict) the same error after the same events: the
 * damage is met in its place in time, not when a worker first reads it.
 */
static void test_par_damage(void)
{
	const char *v6 = fixture_unpacked("traces/fg-lost-v6.dat.xz");
	struct td_cpu_data d;
	bool z;

	/* v6: a page half-way through a CPU's data whose commit (its size) is past the page */
	d = biggest_cpu(v6, &z);
	CHECK(!z && d.size > 8 * 4096);
	damaged_alike(damaged(v6, "bad-page.dat", d.offset + (d.size / 2 / 4096) * 4096 + 8, 0x7fff0),
		      100, "1 places");
	damaged_alike(bad_chunk(fixture("traces/fn-filtered.dat")), 100, "does not decompress");
}

/*
 * The reading thread, waiting for a chunk a worker is on, decompresses one
 * nobody started (tracedat-prefetch.c: help()). With the workers pausing
 * 1 ms a chunk (slow runs: 10) it does so for many: the events, the damage
 * messages and a strict read's error are still the one thread's. The v7
 * fixtures hold a few chunks each: this is fg-all-cpu0's v7 zstd twin
 * (about 160 chunks), made by trace-cmd.
 */
static void test_par_reader_helps(void)
{
	char v7[600], cmd[2048], msg[512];
	const char *bad;
	struct run run;

	if (system("command -v trace-cmd >/dev/null 2>&1"))
		test_skip("trace-cmd is not installed");
	snprintf(v7, sizeof(v7), "%s/fg-all-cpu0-v7.dat", test_tmpdir());
	snprintf(cmd, sizeof(cmd),
		 "trace-cmd convert --file-version 7 --compression zstd -i '%s' -o '%s' >/dev/null 2>&1",
		 fixture_unpacked("traces/fg-all-cpu0-v6.dat.xz"), v7);
	CHECK(!system(cmd));
	/*
	 * (slow runs: the reading thread is slower too, and under valgrind on
	 * a loaded machine 10 ms a chunk once left it fewer than 10 to take)
	 */
	kmag__prefetch_test_pause_us = slow_run() ? 50000 : 1000;
	kmag__prefetch_test_helped = 0;
	CHECK(same_as_one(v7, false, 0) > 50000);
	if (!slow_run())
		same_as_one(v7, true, 0);
	if (kmag__prefetch_test_helped < (slow_run() ? 1u : 10u))
		test_fail(__FILE__, __LINE__, "the reading thread decompressed %lu chunks",
			  kmag__prefetch_test_helped);
	bad = bad_chunk(v7);
	damaged_alike(bad, 100, "does not decompress");
	kmag__prefetch_test_pause_us = 0;
	/*
	 * One damaged place, the chunk: the page walked before it is not
	 * walked again into the next chunk's bytes (one thread said 3 places).
	 */
	CHECK(!read_all(bad, 1, false, 0, &run, msg, sizeof(msg)));
	if (strncmp(run.damage, "1 places,", 9))
		test_fail(__FILE__, __LINE__, "damage \"%s\"", run.damage);
	run_free(&run);
}

/*
 * A copy of v6 @src whose kallsyms lose every function above the median
 * address (their type letter becomes 'd', a data symbol kmag skips): the
 * addresses 1 MiB past it get "0x..." names, which the threads leave to the
 * reading thread so that the names' ids come in the one-thread order.
 */
static const char *kallsyms_cut(const char *src)
{
	struct td_cpu_data d;
	uint64_t *addrs = NULL, median = UINT64_MAX;
	size_t n = 0, cap = 0, len, cut = 0;
	char *buf, *p, *end;
	const char *out;
	bool z;
	FILE *f;

	d = biggest_cpu(src, &z);
	CHECK(!z);
	f = fopen(src, "rb");
	CHECK(f);
	len = (size_t)d.offset;	/* kallsyms lie before the CPU data */
	buf = malloc(len + 1);
	CHECK(buf && fread(buf, 1, len, f) == len);
	fclose(f);
	buf[len] = '\0';
	/* pass 0: the functions' addresses; pass 1: the upper half cut */
	for (int pass = 0; pass < 2; pass++) {
		for (p = buf, end = buf + len; p + 20 < end; p++) {
			uint64_t a;
			char *q;

			if ((p != buf && p[-1] != '\n') || !strchr("tTwW", p[17]) || !p[17] ||
			    p[16] != ' ' || p[18] != ' ')
				continue;
			a = strtoull(p, &q, 16);
			if (q != p + 16)
				continue;
			if (!pass) {
				if (n == cap) {
					cap = cap ? 2 * cap : 4096;
					addrs = realloc(addrs, cap * sizeof(*addrs));
					CHECK(addrs);
				}
				addrs[n++] = a;
			} else if (a > median) {
				p[17] = 'd';
				cut++;
			}
		}
		if (!pass) {
			CHECK(n > 1000);
			/* (kallsyms are in address order but for modules: near enough) */
			median = addrs[n / 2];
		}
	}
	CHECK(cut > 500);
	out = damaged(src, "cut-kallsyms.dat", 0, 0);
	f = fopen(out, "r+b");
	CHECK(f && fwrite(buf, 1, len, f) == len);
	CHECK(!fclose(f));
	free(buf);
	free(addrs);
	return out;
}

/* Addresses no symbol covers get the same "0x..." names, in the same order. */
static void test_par_unknown_addresses(void)
{
	const char *cut = kallsyms_cut(fixture_unpacked("traces/fg-lost-v6.dat.xz"));
	struct kmag_symtab *st;
	size_t i, hex = 0;
	struct run run;
	char msg[512];

	CHECK(same_as_one(cut, false, 0) > 10000);
	same_as_one(cut, true, 0);
	/* the cut did make names of addresses */
	CHECK(!read_all(cut, 1, false, 0, &run, msg, sizeof(msg)));
	st = kmag_trace_symtab(run.t);
	for (i = 0; i < kmag_symtab_count(st); i++)
		hex += !strncmp(kmag_symtab_name(st, (kmag_func_t)i), "0x", 2);
	if (hex < 10)
		test_fail(__FILE__, __LINE__, "%zu \"0x...\" names", hex);
	run_free(&run);
}

const struct test_case tracedat_par_tests[] = {
	{ "par_fixtures_ordered", test_par_fixtures_ordered },
	{ "par_fixtures_unordered", test_par_fixtures_unordered },
	{ "par_stop_early", test_par_stop_early },
	{ "par_damage", test_par_damage },
	{ "par_unknown_addresses", test_par_unknown_addresses },
	{ "par_reader_helps", test_par_reader_helps },
	TEST_LIST_END
};
