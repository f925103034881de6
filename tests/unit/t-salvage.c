// SPDX-License-Identifier: MIT
/*
 * t-salvage.c - damaged pages (lib/trace/input-tracedat.c, damage.c): what
 * cannot be read is skipped (the record to the end of its page, the page,
 * the zstd chunk), the rest is read, each place is recorded with its CPU,
 * file offset, bytes and events (kmag_trace_damage()); times that cannot be
 * are moved to the bound they broke, impossible durations left out; strict
 * reading stops at the first place instead. The pages are built by hand
 * (t-pages.h), so every offset and count expected here is known.
 */
#include "t-pages.h"
#include "trace/damage.h"
#include "trace/tracedat.h"

#define T2 7000000000ull	/* the page after the damaged one */

/* File offset of CPU @cpu's data in @path (the chunk count, for v7 zstd files). */
static uint64_t cpu_data_offset(const char *path, int cpu)
{
	struct kmag_err err = { 0 };
	struct tracedat td;
	uint64_t off = 0;
	int i;

	if (kmag__tracedat_open(&td, path, &err))
		test_fail(__FILE__, __LINE__, "open %s: %s", path, err.msg);
	for (i = 0; i < td.top.nr_cpus; i++)
		if (td.top.cpus[i].cpu == cpu)
			off = td.top.cpus[i].offset;
	kmag__tracedat_close(&td);
	CHECK(off > 0);
	return off;
}

/* What a read of a damaged file gave. */
struct got {
	struct seen s;
	int ret;
	struct kmag_err err;
	struct kmag_damage_summary sum;
	struct kmag_damage first;	/* the first place */
	char text[512];			/* kmag_damage_describe() of it */
	uint64_t lost, lost_markers;	/* the trace's recorder losses */
};

static void read_damaged(const char *path, enum kmag_reader reader, bool strict, struct got *g)
{
	struct kmag_trace_opts o = { .reader = reader };
	const struct kmag_damage_summary *d;
	const struct kmag_trace_info *info;
	int i;

	memset(g, 0, sizeof(*g));
	g->s.t = kmag_trace_open(path, &o, &g->err);
	if (!g->s.t)
		test_fail(__FILE__, __LINE__, "open %s: %s", path, g->err.msg);
	kmag_trace_set_strict(g->s.t, strict);
	g->ret = kmag_trace_read(g->s.t, collect, &g->s, &g->err);
	for (i = 0; i < g->s.n; i++) {
		g->s.func[i] = g->s.func[i] ? strdup(g->s.func[i]) : NULL;
		g->s.parent[i] = g->s.parent[i] ? strdup(g->s.parent[i]) : NULL;
	}
	d = kmag_trace_damage(g->s.t);
	g->sum = *d;
	g->sum.list = NULL;
	if (d->nr) {
		g->first = d->list[0];
		kmag_damage_describe(g->s.t, &d->list[0], g->text, sizeof(g->text));
	}
	info = kmag_trace_info(g->s.t);
	g->lost = info->lost;
	for (i = 0; i < info->nr_cpus; i++)
		g->lost_markers += info->cpus[i].lost_markers;
	kmag_trace_close(g->s.t);
	g->s.t = NULL;
}

/*
 * CPU 0: a good page (vfs_read at T0 + 1), the damaged page @bad, a good
 * page (ksys_read at T2 + 1). The built-in reader skips the damaged part of
 * page 2 at byte @at of its records (@bytes of them) with the reason @why,
 * reads the rest, and keeps @kept records of the damaged page before it;
 * strict reading stops there; the libtracecmd reader reads on past it too.
 */
static void expect_skip_n(const char *name, const struct pb *bad, uint32_t at, uint32_t bytes,
			  int kept, int after, const char *why)
{
	struct pb c0[3];
	const char *path;
	uint64_t where;
	struct got g;
	bool rest = after < 0;
	int i;

	pb_start(&c0[0], T0);
	pb_function(&c0[0], 1, 0, 42, VFS_READ, KSYS_READ);
	pb_finish(&c0[0], 0, 0);
	c0[1] = *bad;
	pb_start(&c0[2], T2);
	pb_function(&c0[2], 1, 0, 42, KSYS_READ, DO_SYSCALL);
	pb_finish(&c0[2], 0, 0);
	path = make_trace(name, c0, 3, NULL, 0);
	where = cpu_data_offset(path, 0) + PAGE + (at == UINT32_MAX ? 0 : HDR + at);

	read_damaged(path, KMAG_READER_BUILTIN, false, &g);
	if (g.ret)
		test_fail(__FILE__, __LINE__, "%s: read: %s", name, g.err.msg);
	/*
	 * the good page, what the damaged page held before the damage, the gap,
	 * what it held after a record skipped alone, the good page
	 */
	if (after < 0)
		after = 0;
	CHECK_EQ(g.s.n, 1 + kept + 1 + after + 1);
	CHECK_EQ(g.s.ev[0].ts, T0 + 1);
	CHECK_STREQ(g.s.func[0], "vfs_read");
	for (i = 1; i <= kept; i++)
		CHECK_EQ(g.s.ev[i].type, KMAG_EV_FUNC);
	CHECK_EQ(g.s.ev[1 + kept].type, KMAG_EV_LOST);
	CHECK(g.s.ev[1 + kept].damage);
	CHECK_EQ(g.s.ev[1 + kept].cpu, 0);
	for (i = 0; i < after; i++)
		CHECK_EQ(g.s.ev[2 + kept + i].type, KMAG_EV_FUNC);
	CHECK_EQ(g.s.ev[2 + kept + after].ts, T2 + 1);
	CHECK_STREQ(g.s.func[2 + kept + after], "ksys_read");
	/* one place, where and how much, and no loss of the recorder's */
	CHECK_EQ(g.sum.places, 1);
	CHECK_EQ(g.sum.nr, 1);
	CHECK_EQ(g.first.kind, KMAG_DAMAGE_SKIPPED);
	CHECK_EQ(g.first.cpu, 0);
	CHECK_EQ(g.first.offset, where);
	CHECK_EQ(g.first.bytes, bytes);
	CHECK_EQ(g.sum.skipped_bytes, bytes);
	if (rest) {
		/* the rest of the page: the records read are 28 bytes each (function), the estimate's unit */
		CHECK(g.first.estimated);
		CHECK_EQ(g.first.events, (bytes + 14) / 28 ? (bytes + 14) / 28 : 1);
	} else {
		/* one record whose length is known: exactly one event */
		CHECK(!g.first.estimated);
		CHECK_EQ(g.first.events, 1);
	}
	CHECK(!g.sum.stopped);
	CHECK_EQ(g.lost, 0);
	CHECK_EQ(g.lost_markers, 0);
	if (!strstr(g.text, why) || !strstr(g.text, "CPU 0, file offset "))
		test_fail(__FILE__, __LINE__, "%s: \"%s\" lacks \"%s\"", name, g.text, why);
	seen_free(&g.s);

	/* strict: the same place is the error, nothing after it is read */
	read_damaged(path, KMAG_READER_BUILTIN, true, &g);
	CHECK_EQ(g.ret, -EILSEQ);
	CHECK_EQ(g.s.n, 1 + kept);
	CHECK(g.sum.stopped);
	if (!strstr(g.err.msg, why) || !strstr(g.err.msg, "damaged trace.dat: CPU 0"))
		test_fail(__FILE__, __LINE__, "%s: strict error \"%s\"", name, g.err.msg);
	seen_free(&g.s);

	/* libtracecmd's kbuffer walks the page its own way, but reads on past it too */
	if (kmag_has_feature(KMAG_FEATURE_LIBTRACECMD)) {
		read_damaged(path, KMAG_READER_LIBTRACECMD, false, &g);
		if (g.ret)
			test_fail(__FILE__, __LINE__, "%s: libtracecmd read: %s", name, g.err.msg);
		CHECK(g.s.n >= 2);
		CHECK_EQ(g.s.ev[0].ts, T0 + 1);
		CHECK_EQ(g.s.ev[g.s.n - 1].ts, T2 + 1);
		CHECK_STREQ(g.s.func[g.s.n - 1], "ksys_read");
		seen_free(&g.s);
	}
}

/* A damaged ring-buffer header: the rest of the page is skipped. */
static void expect_skip(const char *name, const struct pb *bad, uint32_t at, uint32_t bytes,
			int kept, const char *why)
{
	expect_skip_n(name, bad, at, bytes, kept, -1, why);
}

/*
 * A record whose contents cannot be read but whose length is sound: it
 * alone is skipped (@bytes), the @after records behind it read.
 */
static void expect_skip_one(const char *name, const struct pb *bad, uint32_t at, uint32_t bytes,
			    int after, const char *why)
{
	expect_skip_n(name, bad, at, bytes, 1, after, why);
}

/* page 2 starts with one good function record (28 bytes) at T1 + 1 */
static void bad_page_start(struct pb *b)
{
	pb_start(b, T1);
	pb_function(b, 1, 0, 43, VFS_READ, DO_SYSCALL);
}

/*
 * A record that starts inside the page's data but runs past its end (the
 * commit) while the page holds it: read whole, as kbuffer reads it (the
 * commit may be what is damaged), and the page ends there, said as damage
 * with nothing skipped and no gap. @n records of the damaged page are read.
 */
static void expect_read_across(const char *name, const struct pb *bad, uint32_t at, int n,
			       const char *why)
{
	struct pb c0[3];
	const char *path;
	struct got g;
	int i;

	pb_start(&c0[0], T0);
	pb_function(&c0[0], 1, 0, 42, VFS_READ, KSYS_READ);
	pb_finish(&c0[0], 0, 0);
	c0[1] = *bad;
	pb_start(&c0[2], T2);
	pb_function(&c0[2], 1, 0, 42, KSYS_READ, DO_SYSCALL);
	pb_finish(&c0[2], 0, 0);
	path = make_trace(name, c0, 3, NULL, 0);
	read_damaged(path, KMAG_READER_BUILTIN, false, &g);
	CHECK_EQ(g.ret, 0);
	CHECK_EQ(g.s.n, 1 + n + 1);
	for (i = 0; i < g.s.n; i++)
		CHECK_EQ(g.s.ev[i].type, KMAG_EV_FUNC);
	CHECK_EQ(g.sum.places, 1);
	CHECK_EQ(g.first.kind, KMAG_DAMAGE_SKIPPED);
	CHECK_EQ(g.first.offset, cpu_data_offset(path, 0) + PAGE + (at == UINT32_MAX ? 0 : HDR + at));
	CHECK_EQ(g.first.bytes, 0);
	CHECK_EQ(g.sum.lost_events, 0);
	if (!strstr(g.text, why) || !strstr(g.text, "; nothing skipped"))
		test_fail(__FILE__, __LINE__, "%s: \"%s\" lacks \"%s\"", name, g.text, why);
	seen_free(&g.s);
}

static void record_across_commit(void)
{
	struct pb b;

	bad_page_start(&b);
	pb_function(&b, 1, 0, 43, KSYS_READ, DO_SYSCALL);
	pb_finish(&b, 0, 0);
	b.page[8] = 28 + 20;	/* the commit cuts the second record after 20 bytes */
	expect_read_across("across.dat", &b, 28, 2, "the page's data (its commit) ends inside a record");
}

static void time_extend_across_commit(void)
{
	struct pb b;

	bad_page_start(&b);
	pb_time_extend(&b, 1ull << 27);
	pb_finish(&b, 0, 0);
	b.page[8] = 28 + 4;	/* the commit cuts the time extend after its header */
	expect_read_across("extend.dat", &b, 28, 1, "the page's data (its commit) ends inside a record");
}

/*
 * The page header's commit claims more than a page: the records are read up
 * to the page's unused rest, which the kernel leaves zero.
 */
static void commit_beyond_page(void)
{
	struct pb b;
	uint64_t commit = PAGE - HDR + 1;

	bad_page_start(&b);
	pb_function(&b, 1, 0, 43, KSYS_READ, DO_SYSCALL);
	pb_finish(&b, 0, 0);
	memcpy(b.page + 8, &commit, 8);
	expect_read_across("commit.dat", &b, UINT32_MAX, 2, "commit exceeds the page");
}

/*
 * A commit too long (a bit flipped up) runs past the records into zeros;
 * one too short (a bit flipped down) leaves records after it: both are
 * read as the records are.
 */
static void commit_too_long(void)
{
	struct pb b;

	bad_page_start(&b);
	pb_function(&b, 1, 0, 43, KSYS_READ, DO_SYSCALL);
	pb_finish(&b, 0, 0);
	b.page[9] |= 2;		/* 56 + 512 */
	expect_read_across("long.dat", &b, 56, 2, "the page's commit runs past its records");
}

static void commit_too_short(void)
{
	struct pb b;

	bad_page_start(&b);
	pb_function(&b, 1, 0, 43, KSYS_READ, DO_SYSCALL);
	pb_function(&b, 1, 0, 43, DO_SYSCALL, KSYS_READ);
	pb_finish(&b, 0, 0);
	b.page[8] = 28;		/* ends after the first record */
	expect_read_across("cshort.dat", &b, 28, 3, "the page's data runs on past its commit");
}

/* a record whose length runs past the page itself: the rest of the page is skipped */
static void record_past_page_end(void)
{
	struct pb b;

	bad_page_start(&b);
	pb_hdr(&b, 0, 1);
	pb_u32(&b, PAGE);	/* array[0]: more than the page holds */
	pb_common(&b, 1, 0, 42);
	pb_u64(&b, KSYS_READ);
	pb_u64(&b, DO_SYSCALL);
	pb_finish(&b, 0, 0);
	expect_skip("past.dat", &b, 28, 32, 1, "record runs past the end of the page");
}

static void length_below_own_size(void)
{
	struct pb b;

	bad_page_start(&b);
	pb_hdr(&b, 0, 1);
	pb_u32(&b, 2);		/* array[0] must count at least its own 4 bytes */
	pb_u64(&b, 0);
	pb_function(&b, 1, 0, 43, KSYS_READ, DO_SYSCALL);	/* lost with the rest */
	pb_finish(&b, 0, 0);
	expect_skip("len.dat", &b, 28, 16 + 28, 1, "record length below its own size");
}

static void record_shorter_than_format(void)
{
	struct pb b;

	bad_page_start(&b);
	pb_hdr(&b, 2, 1);	/* 8 bytes: a function record needs 24 */
	pb_common(&b, 1, 0, 42);
	pb_function(&b, 1, 0, 43, KSYS_READ, DO_SYSCALL);
	pb_finish(&b, 0, 0);
	expect_skip_one("short.dat", &b, 28, 12, 1, "record shorter than its event format");
}

/* a flipped bit in common_type: an id no format has (the fixtures' ids stay below 2000) */
static void unknown_event_type(void)
{
	struct pb b;

	bad_page_start(&b);
	pb_hdr(&b, 6, 1);
	pb_common(&b, 1 | 0x4000, 0, 42);
	pb_u64(&b, VFS_READ);
	pb_u64(&b, KSYS_READ);
	pb_function(&b, 1, 0, 43, KSYS_READ, DO_SYSCALL);
	pb_finish(&b, 0, 0);
	expect_skip_one("type.dat", &b, 28, 28, 1, "event type the file has no format for");
}

/* a flipped bit in funcgraph_entry's depth: no kernel nests calls 2^20 deep */
static void impossible_depth(void)
{
	struct pb b;

	bad_page_start(&b);
	pb_entry_long(&b, 1, 42, KSYS_READ, 1 << 20);
	pb_function(&b, 1, 0, 43, KSYS_READ, DO_SYSCALL);
	pb_function(&b, 1, 0, 43, VFS_READ, DO_SYSCALL);
	pb_finish(&b, 0, 0);
	expect_skip_one("depth.dat", &b, 28, 32, 2, "impossible call depth");
}

/*
 * Unreadable records are skipped one by one, their lengths being sound (as
 * kbuffer walks them): good records between them are read; a run of them
 * is one place with one gap.
 */
static void bad_records(void)
{
	struct pb c0[2], b;
	struct got g;

	pb_start(&c0[0], T0);
	pb_function(&c0[0], 1, 0, 42, VFS_READ, KSYS_READ);
	pb_finish(&c0[0], 0, 0);
	bad_page_start(&b);
	pb_hdr(&b, 2, 1);	/* 8 bytes: too short for a function record */
	pb_common(&b, 1, 0, 42);
	pb_function(&b, 1, 0, 43, KSYS_READ, DO_SYSCALL);
	pb_hdr(&b, 2, 1);	/* a run of two */
	pb_common(&b, 1, 0, 42);
	pb_hdr(&b, 6, 1);
	pb_common(&b, 1 | 0x4000, 0, 42);
	pb_u64(&b, VFS_READ);
	pb_u64(&b, KSYS_READ);
	pb_function(&b, 1, 0, 43, DO_SYSCALL, KSYS_READ);
	pb_finish(&b, 0, 0);
	c0[1] = b;
	read_damaged(make_trace("bad.dat", c0, 2, NULL, 0), KMAG_READER_BUILTIN, false, &g);
	CHECK_EQ(g.ret, 0);
	/* vfs_read, vfs_read, gap, ksys_read, gap, do_syscall_64 */
	CHECK_EQ(g.s.n, 6);
	CHECK_EQ(g.s.ev[2].type, KMAG_EV_LOST);
	CHECK_STREQ(g.s.func[3], "ksys_read");
	CHECK_EQ(g.s.ev[4].type, KMAG_EV_LOST);
	CHECK_STREQ(g.s.func[5], "do_syscall_64");
	CHECK_EQ(g.sum.places, 2);
	CHECK_EQ(g.sum.skipped_bytes, 12 + 12 + 28);
	CHECK_EQ(g.sum.lost_events, 1 + 2);
	CHECK(!g.first.estimated);
	seen_free(&g.s);
	if (kmag_has_feature(KMAG_FEATURE_LIBTRACECMD)) {
		read_damaged(make_trace("bad.dat", c0, 2, NULL, 0), KMAG_READER_LIBTRACECMD, false,
			     &g);
		CHECK_EQ(g.ret, 0);
		CHECK_EQ(g.s.n, 6);
		CHECK_STREQ(g.s.func[5], "do_syscall_64");
		CHECK_EQ(g.sum.places, 2);
		CHECK_EQ(g.sum.lost_events, 1 + 2);
		seen_free(&g.s);
	}
}

/*
 * A zstd chunk that does not decompress (v7): its pages are skipped, the
 * next chunk is read. CPU 0 has 12 pages, chunks of 10 pages (trace-cmd's
 * and kmag's writers), so two chunks; the first is damaged.
 */
static void zstd_chunk_damaged(void)
{
	static struct pb c0[12];
	static const struct file_opts v7 = { .v7_zstd = true };
	uint32_t csize, usize;
	const char *path;
	uint64_t off;
	struct got g;
	uint8_t h[12];
	int fd, i;

	for (i = 0; i < 12; i++) {
		pb_start(&c0[i], T0 + (uint64_t)i * 1000000);
		pb_function(&c0[i], 1, 0, 42, i < 10 ? VFS_READ : KSYS_READ, DO_SYSCALL);
		pb_finish(&c0[i], 0, 0);
	}
	path = make_trace_opts(&layout_61, "chunk.dat", c0, 12, NULL, 0, &v7);
	off = cpu_data_offset(path, 0);
	fd = open(path, O_RDWR);
	CHECK(fd >= 0);
	CHECK(pread(fd, h, sizeof(h), (off_t)off) == (ssize_t)sizeof(h));
	memcpy(&csize, h + 4, 4);
	memcpy(&usize, h + 8, 4);
	CHECK_EQ(usize, 10 * PAGE);
	/* the zstd frame's magic number: the frame cannot be decoded */
	CHECK(pwrite(fd, "\xde\xad", 2, (off_t)off + 12) == 2);
	close(fd);

	read_damaged(path, KMAG_READER_BUILTIN, false, &g);
	if (g.ret)
		test_fail(__FILE__, __LINE__, "read: %s", g.err.msg);
	/* the gap, then the second chunk's two pages */
	CHECK_EQ(g.s.n, 3);
	CHECK_EQ(g.s.ev[0].type, KMAG_EV_LOST);
	CHECK(g.s.ev[0].damage);
	CHECK_STREQ(g.s.func[1], "ksys_read");
	CHECK_EQ(g.s.ev[1].ts, T0 + 10 * 1000000 + 1);
	CHECK_EQ(g.s.ev[2].ts, T0 + 11 * 1000000 + 1);
	CHECK_EQ(g.sum.places, 1);
	CHECK_EQ(g.first.kind, KMAG_DAMAGE_SKIPPED);
	CHECK_EQ(g.first.offset, off + 4);
	CHECK(!g.first.in_chunk);
	CHECK_EQ(g.first.bytes, csize + 8);
	CHECK(strstr(g.text, "zstd chunk does not decompress"));
	seen_free(&g.s);

	read_damaged(path, KMAG_READER_BUILTIN, true, &g);
	CHECK_EQ(g.ret, -EILSEQ);
	CHECK_EQ(g.s.n, 0);
	seen_free(&g.s);
}

/*
 * Pages of CPU 0, 1000 ns apart, each with one record but page @bad,
 * whose time is damaged by @shift (+: later, -: earlier) and which holds two
 * records: they are moved to @expect_ts, the bound they broke, and said as
 * one place with 2 events; the other pages keep their times. @npages pages
 * (the last one's records bounded only by the end of the recording).
 */
static void expect_moved(const char *name, int npages, int bad, int64_t shift, uint64_t expect_ts,
			 const char *why, const struct file_opts *o)
{
	struct pb c0[4];
	struct got g;
	int i, k;

	for (i = 0; i < npages; i++) {
		pb_start(&c0[i], T0 + 1000 * (uint64_t)i + (i == bad ? (uint64_t)shift : 0));
		pb_function(&c0[i], 1, 0, 42, VFS_READ, KSYS_READ);
		if (i == bad)
			pb_function(&c0[i], 1, 0, 42, KSYS_READ, DO_SYSCALL);
		pb_finish(&c0[i], 0, 0);
	}
	read_damaged(make_trace_opts(&layout_61, name, c0, npages, NULL, 0, o), KMAG_READER_BUILTIN,
		     false, &g);
	if (g.ret)
		test_fail(__FILE__, __LINE__, "%s: read: %s", name, g.err.msg);
	CHECK_EQ(g.s.n, npages + 1);
	for (i = k = 0; i < npages; i++, k++) {
		if (i != bad) {
			CHECK_EQ(g.s.ev[k].ts, T0 + 1000 * (uint64_t)i + 1);
			continue;
		}
		CHECK_EQ(g.s.ev[k].ts, expect_ts);
		CHECK_EQ(g.s.ev[++k].ts, expect_ts);
	}
	for (i = 1; i < g.s.n; i++)
		CHECK(g.s.ev[i].ts >= g.s.ev[i - 1].ts);
	CHECK_EQ(g.sum.places, 1);
	CHECK_EQ(g.sum.bad_times, 2);
	CHECK_EQ(g.first.kind, KMAG_DAMAGE_TIME);
	CHECK_EQ(g.first.events, 2);
	CHECK(g.first.moved);
	CHECK_EQ(g.first.bound, expect_ts);
	CHECK_EQ(g.first.ts, T0 + 1000 * (uint64_t)bad + (uint64_t)shift + 1);
	if (!strstr(g.text, why))
		test_fail(__FILE__, __LINE__, "%s: \"%s\" lacks \"%s\"", name, g.text, why);
	seen_free(&g.s);
}

/* a page header's time with a high bit flipped: past the start of the next page */
static void time_past_next_page(void)
{
	expect_moved("ahead.dat", 3, 1, 1ll << 40, T0 + 2000, "past the start of the CPU's next page",
		     NULL);
	/* the first page too: when it and the next disagree, the later one is wrong */
	expect_moved("ahead0.dat", 3, 0, 1ll << 40, T0 + 1000,
		     "past the start of the CPU's next page", NULL);
}

/*
 * A page header's time with a bit cleared: before the previous page's last
 * event. (Page 2: the page before it has a predecessor that says its own
 * time is right.)
 */
static void time_backwards(void)
{
	expect_moved("back.dat", 4, 2, -(1ll << 32), T0 + 1001, "time runs backwards", NULL);
}

/* the last page has no next page: the recorder's stats bound it ("now ts") */
static void time_past_recording(void)
{
	static const char *const stats[] = {
		"CPU: 0\nentries: 4\noverrun: 0\noldest event ts:     5.000000\nnow ts:     5.500000\n",
	};
	static const struct file_opts o = { .cpustats = stats, .nr_cpustats = 1 };

	expect_moved("end.dat", 2, 1, 1ll << 40, T0 + 500000000, "past the end of the recording", &o);
}

/*
 * A page that says events were lost before it (its LOST marker at the
 * page's time) with its time damaged: the marker is held to the CPU's
 * bounds as the page's records are, so the events stay in time order (the
 * Perfetto export's LOST track went back in time, fuzz-render-tracedat).
 */
static void lost_marker_time(void)
{
	struct pb c0[3];
	struct got g;
	int i;

	for (i = 0; i < 3; i++) {
		pb_start(&c0[i], T0 + 1000 * (uint64_t)i + (i == 1 ? 1ull << 40 : 0));
		pb_function(&c0[i], 1, 0, 42, VFS_READ, KSYS_READ);
		pb_finish(&c0[i], i == 1 ? RB_MISSING_EVENTS | RB_MISSING_STORED : 0, 5);
	}
	read_damaged(make_trace_opts(&layout_61, "lostts.dat", c0, 3, NULL, 0, NULL),
		     KMAG_READER_BUILTIN, false, &g);
	if (g.ret)
		test_fail(__FILE__, __LINE__, "read: %s", g.err.msg);
	CHECK_EQ(g.s.n, 4);
	CHECK_EQ(g.s.ev[1].type, KMAG_EV_LOST);
	CHECK_EQ(g.s.ev[1].lost, 5);
	CHECK_EQ(g.s.ev[1].ts, T0 + 2000);
	CHECK_EQ(g.s.ev[2].ts, T0 + 2000);
	for (i = 1; i < g.s.n; i++)
		CHECK(g.s.ev[i].ts >= g.s.ev[i - 1].ts);
	CHECK_EQ(g.sum.bad_times, 1);
	seen_free(&g.s);
}

/*
 * funcgraph_exit's calltime and rettime (trace_clock_local(), as the
 * "local" clock counts): a rettime 2^48 ns away from the exit's time, or
 * a rettime seconds before the calltime, cannot be: the duration is left
 * out (replay then times the call by its entry and exit). A rettime a few
 * microseconds before the calltime (the local clocks of two CPUs) is no
 * damage: the duration is 0, as before.
 */
static void exit_times(void)
{
	struct pb c0[1];
	uint64_t ts = T0 + 10;
	const char *path;
	struct got g;

	pb_start(&c0[0], T0);
	pb_exit(&c0[0], 10, 42, KSYS_READ, 0, ts - 500, ts + (1ull << 48));
	pb_exit(&c0[0], 0, 42, KSYS_READ, 0, ts - 500, ts - 500 - 3000000000ull);
	pb_exit(&c0[0], 0, 42, KSYS_READ, 0, ts - 500, ts - 500 - 5000);
	pb_exit(&c0[0], 0, 42, KSYS_READ, 0, ts - 500, ts);
	pb_finish(&c0[0], 0, 0);
	path = make_trace("exit.dat", c0, 1, NULL, 0);
	read_damaged(path, KMAG_READER_BUILTIN, false, &g);
	if (g.ret)
		test_fail(__FILE__, __LINE__, "read: %s", g.err.msg);
	CHECK_EQ(g.s.n, 4);
	CHECK_EQ(g.s.ev[0].duration, KMAG_DURATION_NONE);
	CHECK_EQ(g.s.ev[0].calltime, KMAG_TS_NONE);
	CHECK_EQ(g.s.ev[1].duration, KMAG_DURATION_NONE);
	CHECK_EQ(g.s.ev[2].duration, 0);
	CHECK_EQ(g.s.ev[2].calltime, ts - 500);
	CHECK_EQ(g.s.ev[3].duration, 500);
	CHECK_EQ(g.sum.places, 2);
	CHECK_EQ(g.sum.bad_durations, 2);
	CHECK_EQ(g.first.kind, KMAG_DAMAGE_DURATION);
	CHECK_EQ(g.first.duration, (1ull << 48) + 500);
	CHECK(strstr(g.text, "the exit of ksys_read"));
	CHECK(strstr(g.text, "claims a call of 281474.976711 s"));
	CHECK_EQ(g.first.offset, cpu_data_offset(path, 0) + HDR);
	seen_free(&g.s);

	/* the same through libtracecmd */
	if (kmag_has_feature(KMAG_FEATURE_LIBTRACECMD)) {
		read_damaged(path, KMAG_READER_LIBTRACECMD, false, &g);
		CHECK_EQ(g.ret, 0);
		CHECK_EQ(g.s.n, 4);
		CHECK_EQ(g.s.ev[0].duration, KMAG_DURATION_NONE);
		CHECK_EQ(g.s.ev[1].duration, KMAG_DURATION_NONE);
		CHECK_EQ(g.s.ev[3].duration, 500);
		CHECK_EQ(g.sum.bad_durations, 2);
		seen_free(&g.s);
	}
}

/*
 * An exit whose calltime lies seconds before the trace's first event (a bit
 * cleared in it) claims a call longer than the recording: its duration is
 * left out where that cannot be, kept where it can (a --threshold recording
 * has no entries and may hold calls begun long before; a buffer that
 * overwrote events held calls older than what is left).
 */
static void exit_before_trace(void)
{
	static const char *const overwrote[] = { "CPU: 0\nentries: 2\noverrun: 1500\n" };
	static const struct file_opts o = { .cpustats = overwrote, .nr_cpustats = 1 };
	uint64_t ts = T0 + 100;
	struct pb c0[1], thr[1];
	struct got g;

	pb_start(&c0[0], T0);
	pb_entry_long(&c0[0], 10, 42, KSYS_READ, 0);
	pb_exit(&c0[0], 90, 42, KSYS_READ, 0, ts - 50 - (1ull << 32), ts);
	pb_exit(&c0[0], 0, 42, KSYS_READ, 0, ts - 50, ts);
	pb_finish(&c0[0], 0, 0);
	read_damaged(make_trace("before.dat", c0, 1, NULL, 0), KMAG_READER_BUILTIN, false, &g);
	CHECK_EQ(g.ret, 0);
	CHECK_EQ(g.s.n, 3);
	CHECK_EQ(g.s.ev[1].duration, KMAG_DURATION_NONE);
	CHECK_EQ(g.s.ev[2].duration, 50);
	CHECK_EQ(g.sum.bad_durations, 1);
	CHECK(strstr(g.text, "longer than the recording"));
	seen_free(&g.s);
	if (kmag_has_feature(KMAG_FEATURE_LIBTRACECMD)) {
		read_damaged(make_trace("before.dat", c0, 1, NULL, 0), KMAG_READER_LIBTRACECMD,
			     false, &g);
		CHECK_EQ(g.ret, 0);
		CHECK_EQ(g.s.ev[1].duration, KMAG_DURATION_NONE);
		CHECK_EQ(g.sum.bad_durations, 1);
		seen_free(&g.s);
	}

	/* overwritten events: the call may have begun before what is left */
	read_damaged(make_trace_opts(&layout_61, "overwrote.dat", c0, 1, NULL, 0, &o),
		     KMAG_READER_BUILTIN, false, &g);
	CHECK_EQ(g.sum.places, 0);
	CHECK_EQ(g.s.ev[1].duration, (1ull << 32) + 50);
	seen_free(&g.s);

	/* exits only (tracing_thresh): no entry says the recording's start */
	pb_start(&thr[0], T0);
	pb_exit(&thr[0], 100, 42, KSYS_READ, 0, ts - 50 - (1ull << 32), ts);
	pb_finish(&thr[0], 0, 0);
	read_damaged(make_trace("thresh.dat", thr, 1, NULL, 0), KMAG_READER_BUILTIN, false, &g);
	CHECK_EQ(g.sum.places, 0);
	CHECK_EQ(g.s.ev[0].duration, (1ull << 32) + 50);
	seen_free(&g.s);
}

/*
 * libtracecmd hands over records without their pages: a time running
 * backwards is said where it happens and kept (it cannot tell which side
 * is wrong), so a page whose time is too late does not drag the rest along.
 */
static void libtracecmd_keeps_backwards(void)
{
	struct pb c0[3];
	struct got g;

	TEST_NEED_FEATURE(KMAG_FEATURE_LIBTRACECMD);
	pb_start(&c0[0], T0);
	pb_function(&c0[0], 1, 0, 42, VFS_READ, KSYS_READ);
	pb_finish(&c0[0], 0, 0);
	pb_start(&c0[1], T0 + 1000 + 200000000);	/* 0.2 s too late: within the recording */
	pb_function(&c0[1], 1, 0, 42, VFS_READ, KSYS_READ);
	pb_finish(&c0[1], 0, 0);
	pb_start(&c0[2], T0 + 2000);
	pb_function(&c0[2], 1, 0, 42, DO_SYSCALL, KSYS_READ);
	pb_function(&c0[2], 1, 0, 42, DO_SYSCALL, KSYS_READ);
	pb_finish(&c0[2], 0, 0);
	read_damaged(make_trace("keep.dat", c0, 3, NULL, 0), KMAG_READER_LIBTRACECMD, false, &g);
	CHECK_EQ(g.ret, 0);
	CHECK_EQ(g.s.n, 4);
	CHECK_EQ(g.s.ev[2].ts, T0 + 2001);
	CHECK_EQ(g.s.ev[3].ts, T0 + 2002);
	CHECK_EQ(g.sum.places, 1);
	CHECK_EQ(g.first.kind, KMAG_DAMAGE_TIME);
	CHECK(!g.first.moved);
	CHECK(strstr(g.text, "time runs backwards"));
	CHECK(strstr(g.text, "kept as recorded"));
	seen_free(&g.s);

	/* the built-in reader sees the next page's start and moves the late page there */
	read_damaged(make_trace("keep.dat", c0, 3, NULL, 0), KMAG_READER_BUILTIN, false, &g);
	CHECK_EQ(g.ret, 0);
	CHECK_EQ(g.s.ev[1].ts, T0 + 2000);
	CHECK_EQ(g.s.ev[2].ts, T0 + 2001);
	seen_free(&g.s);
}

/* the estimate of events lost: the CPU's mean record size, else the trace's, at least 1 */
static void estimate(void)
{
	CHECK_EQ(kmag__damage_estimate(280, 2800, 100, 0, 0), 10);
	CHECK_EQ(kmag__damage_estimate(280, 0, 0, 5600, 100), 5);
	CHECK_EQ(kmag__damage_estimate(4, 2800, 100, 0, 0), 1);
	CHECK_EQ(kmag__damage_estimate(4, 0, 0, 0, 0), 1);
	CHECK_EQ(kmag__damage_estimate(0, 2800, 100, 0, 0), 0);
	CHECK_EQ(kmag__damage_estimate(UINT64_MAX / 2, 28, 1, 0, 0), UINT64_MAX / 2 / 28);
}

const struct test_case salvage_tests[] = {
	{ "commit_beyond_page", commit_beyond_page },
	{ "commit_too_long", commit_too_long },
	{ "commit_too_short", commit_too_short },
	{ "record_across_commit", record_across_commit },
	{ "time_extend_across_commit", time_extend_across_commit },
	{ "record_past_page_end", record_past_page_end },
	{ "length_below_own_size", length_below_own_size },
	{ "record_shorter_than_format", record_shorter_than_format },
	{ "unknown_event_type", unknown_event_type },
	{ "impossible_depth", impossible_depth },
	{ "bad_records", bad_records },
	{ "zstd_chunk_damaged", zstd_chunk_damaged },
	{ "time_past_next_page", time_past_next_page },
	{ "time_backwards", time_backwards },
	{ "time_past_recording", time_past_recording },
	{ "lost_marker_time", lost_marker_time },
	{ "exit_times", exit_times },
	{ "exit_before_trace", exit_before_trace },
	{ "libtracecmd_keeps_backwards", libtracecmd_keeps_backwards },
	{ "estimate", estimate },
	TEST_LIST_END
};
