// SPDX-License-Identifier: MIT
/*
 * t-pages.c - the binary ring-buffer page walker (lib/trace/input-tracedat.c)
 * and the record decoder (lib/trace/decode.c), on hand-built sub-buffers.
 *
 * Each test writes pages byte by byte as the kernel lays them out
 * (events/header_page, events/header_event: u64 timestamp, u64 commit,
 * then records with a 5-bit type_len and a 27-bit time delta), wraps them in
 * a v6 trace.dat with the real 6.1 event formats (or a 32-bit layout, for
 * the decoder's format-driven path), and reads them back. The expected events
 * are the ones written here; the files are also read by the libtracecmd
 * reader (libtraceevent's kbuffer), which must see the same.
 */
#include <errno.h>
#include <fcntl.h>

#include "kmag/trace.h"
#include "test.h"
#include "trace/tracedat-format.h"
#include "trace/tracedat-write.h"
#include "t-pages-formats.h"

#define PAGE 4096
#define HDR 16		/* u64 timestamp + u64 commit (8-byte longs) */

#define VFS_READ 0xffffffff81000000ull
#define KSYS_READ 0xffffffff81001000ull
#define DO_SYSCALL 0xffffffff81002000ull

/* kernel trace_entry flags (include/linux/trace_events.h) */
#define FL_HARDIRQ 0x08
#define FL_SOFTIRQ 0x10

/* One sub-buffer being written. */
struct pb {
	uint8_t page[PAGE];
	uint32_t off;		/* next byte, from the start of the page */
};

static void pb_start(struct pb *b, uint64_t ts)
{
	memset(b->page, 0, PAGE);
	memcpy(b->page, &ts, 8);
	b->off = HDR;
}

static void pb_u32(struct pb *b, uint32_t v)
{
	memcpy(b->page + b->off, &v, 4);
	b->off += 4;
}

static void pb_u64(struct pb *b, uint64_t v)
{
	memcpy(b->page + b->off, &v, 8);
	b->off += 8;
}

/* little-endian record header: type_len in the low 5 bits, the delta above */
static void pb_hdr(struct pb *b, uint32_t type_len, uint32_t delta)
{
	pb_u32(b, type_len | delta << 5);
}

/* the 8 bytes every record starts with: common_type, flags, preempt_count, pid */
static void pb_common(struct pb *b, uint16_t type, uint8_t flags, int32_t pid)
{
	memcpy(b->page + b->off, &type, 2);
	b->page[b->off + 2] = flags;
	b->page[b->off + 3] = 0;
	memcpy(b->page + b->off + 4, &pid, 4);
	b->off += 8;
}

/* function: 24 bytes of payload, type_len 6 */
static void pb_function(struct pb *b, uint32_t delta, uint8_t flags, int32_t pid, uint64_t ip,
			uint64_t parent)
{
	pb_hdr(b, 6, delta);
	pb_common(b, 1, flags, pid);
	pb_u64(b, ip);
	pb_u64(b, parent);
}

/* funcgraph_entry (20 bytes, 24 stored) with type_len 0: the length in array[0] */
static void pb_entry_long(struct pb *b, uint32_t delta, int32_t pid, uint64_t func, int32_t depth)
{
	pb_hdr(b, 0, delta);
	pb_u32(b, 24 + 4);	/* array[0]: payload bytes + itself */
	pb_common(b, 11, 0, pid);
	pb_u64(b, func);
	pb_u32(b, (uint32_t)depth);
	pb_u32(b, 0);
}

/* funcgraph_exit: 40 bytes, type_len 10 */
static void pb_exit(struct pb *b, uint32_t delta, int32_t pid, uint64_t func, int32_t depth,
		    uint64_t calltime, uint64_t rettime)
{
	pb_hdr(b, 10, delta);
	pb_common(b, 10, 0, pid);
	pb_u64(b, func);
	pb_u32(b, (uint32_t)depth);
	pb_u32(b, 0);
	pb_u64(b, calltime);
	pb_u64(b, rettime);
}

/* time extend: 59 bits of delta, the low 27 in the header, the rest in array[0] */
static void pb_time_extend(struct pb *b, uint64_t delta)
{
	pb_hdr(b, RB_TYPE_TIME_EXTEND, (uint32_t)(delta & ((1u << 27) - 1)));
	pb_u32(b, (uint32_t)(delta >> 27));
}

/*
 * padding (a discarded record) with @len bytes after its length word; the
 * length word counts itself (kernel/trace/ring_buffer.c rb_event_length():
 * array[0] + RB_EVNT_HDR_SIZE is the whole record)
 */
static void pb_padding(struct pb *b, uint32_t delta, uint32_t len)
{
	pb_hdr(b, RB_TYPE_PADDING, delta);
	pb_u32(b, 4 + len);
	memset(b->page + b->off, 0xee, len);
	b->off += len;
}

/* commit = bytes of records; @flags RB_MISSING_*; @stored: count after the data */
static void pb_finish(struct pb *b, uint64_t flags, uint64_t stored)
{
	uint64_t commit = (b->off - HDR) | flags;

	memcpy(b->page + 8, &commit, 8);
	if (flags & RB_MISSING_STORED)
		memcpy(b->page + b->off, &stored, 8);
}

static int pages_file(const char *name, const struct pb *pages, int n)
{
	char path[512];
	int fd, i;

	snprintf(path, sizeof(path), "%s/%s", test_tmpdir(), name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0);
	for (i = 0; i < n; i++)
		CHECK(write(fd, pages[i].page, PAGE) == PAGE);
	return fd;
}

/* The event formats and symbols a test file carries. */
struct layout {
	const struct tdw_blob *ftrace;
	size_t nr_ftrace;
	const struct tdw_system *systems;
	size_t nr_systems;
	const char *kallsyms;
};

static const struct tdw_blob ftrace_61[] = {
	{ fmt_function, sizeof(fmt_function) - 1 },
	{ fmt_exit, sizeof(fmt_exit) - 1 },
	{ fmt_entry, sizeof(fmt_entry) - 1 },
	{ fmt_repeats, sizeof(fmt_repeats) - 1 },
};
static const struct tdw_blob test_events[] = { { fmt_tick, sizeof(fmt_tick) - 1 } };
static const struct tdw_system test_system[] = { { "test", test_events, 1 } };
static const struct layout layout_61 = { ftrace_61, 4, test_system, 1, kallsyms };

/* Writes a v6 trace.dat of @lay with @n0 pages on CPU 0 and @n1 on CPU 1; returns its path. */
static const char *make_trace_with(const struct layout *lay, const char *name, const struct pb *c0,
				   int n0, const struct pb *c1, int n1)
{
	static const char cmdlines[] = "42 reader\n43 writer\n7 ksoftirqd/1\n";
	static char path[512];
	struct tdw_meta m = {
		.header_page = { header_page, sizeof(header_page) - 1 },
		.header_event = { header_event, sizeof(header_event) - 1 },
		.ftrace_formats = lay->ftrace, .nr_ftrace_formats = lay->nr_ftrace,
		.systems = lay->systems, .nr_systems = lay->nr_systems,
		.kallsyms = { lay->kallsyms, strlen(lay->kallsyms) },
		.printk = { "", 0 },
	};
	struct tdw_cpu cpus[2] = {
		{ n0 ? pages_file("c0", c0, n0) : -1, (uint64_t)n0 * PAGE },
		{ n1 ? pages_file("c1", c1, n1) : -1, (uint64_t)n1 * PAGE },
	};
	struct tdw_tail tail = {
		.cmdlines = { cmdlines, sizeof(cmdlines) - 1 },
		.nr_cpus = 2, .cpus = cpus,
		.clock_file = "local [global] counter\n", .clock = "global",
	};
	struct kmag_err err = { 0 };
	struct tdw w;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", test_tmpdir(), name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0);
	CHECK_EQ(kmag__tdw_begin(&w, fd, 6, false, PAGE, &err), 0);
	CHECK_EQ(kmag__tdw_metadata(&w, &m), 0);
	if (kmag__tdw_finish(&w, &tail))
		test_fail(__FILE__, __LINE__, "writing %s: %s", name, err.msg);
	kmag__tdw_release(&w);
	close(fd);
	if (cpus[0].fd >= 0)
		close(cpus[0].fd);
	if (cpus[1].fd >= 0)
		close(cpus[1].fd);
	return path;
}

static const char *make_trace(const char *name, const struct pb *c0, int n0, const struct pb *c1,
			      int n1)
{
	return make_trace_with(&layout_61, name, c0, n0, c1, n1);
}

#define MAX_EVENTS 16

struct seen {
	struct kmag_trace *t;
	struct kmag_event ev[MAX_EVENTS];
	const char *func[MAX_EVENTS], *parent[MAX_EVENTS];
	int n;
};

static int collect(const struct kmag_event *ev, void *ctx)
{
	struct seen *s = ctx;
	struct kmag_symtab *st = kmag_trace_symtab(s->t);

	if (s->n >= MAX_EVENTS)
		return -E2BIG;
	s->ev[s->n] = *ev;
	s->func[s->n] = ev->func == KMAG_FUNC_NONE ? NULL : kmag_symtab_name(st, ev->func);
	s->parent[s->n] = ev->parent == KMAG_FUNC_NONE ? NULL : kmag_symtab_name(st, ev->parent);
	s->n++;
	return 0;
}

/* Reads @path with @reader; returns kmag_trace_read()'s result, events in @s. */
static int read_all(const char *path, enum kmag_reader reader, struct seen *s,
		    struct kmag_err *err)
{
	struct kmag_trace_opts o = { .reader = reader };
	int ret;

	memset(s, 0, sizeof(*s));
	s->t = kmag_trace_open(path, &o, err);
	if (!s->t)
		test_fail(__FILE__, __LINE__, "open %s: %s", path, err->msg);
	ret = kmag_trace_read(s->t, collect, s, err);
	/* names are borrowed from the trace: copy them out before closing */
	for (int i = 0; i < s->n; i++) {
		s->func[i] = s->func[i] ? strdup(s->func[i]) : NULL;
		s->parent[i] = s->parent[i] ? strdup(s->parent[i]) : NULL;
	}
	kmag_trace_close(s->t);
	s->t = NULL;
	return ret;
}

static void seen_free(struct seen *s)
{
	for (int i = 0; i < s->n; i++) {
		free((char *)s->func[i]);
		free((char *)s->parent[i]);
	}
}

#define T0 5000000000ull	/* page timestamps: 5 s and 6 s */
#define T1 6000000000ull
#define EXTEND ((3ull << 27) + 5)	/* a delta too large for 27 bits */

/*
 * CPU 0, page 1: function (hardirq), time extend, funcgraph_entry with an
 * explicit length, padding, funcgraph_exit. Page 2: flagged "events missed",
 * 77 of them (count stored after the data), then one function record.
 * CPU 1: one function record (softirq) before all of CPU 0's.
 */
static const char *build_good(void)
{
	static struct pb c0[2], c1[1];

	pb_start(&c0[0], T0);
	pb_function(&c0[0], 100, FL_HARDIRQ, 42, VFS_READ + 0x10, KSYS_READ + 0x20);
	pb_time_extend(&c0[0], EXTEND);
	pb_entry_long(&c0[0], 7, 42, KSYS_READ, 0);
	pb_padding(&c0[0], 11, 8);
	pb_exit(&c0[0], 1000, 42, KSYS_READ, 0, 123456, 123456 + 2500);
	pb_finish(&c0[0], 0, 0);

	pb_start(&c0[1], T1);
	pb_function(&c0[1], 1, 0, 43, VFS_READ, DO_SYSCALL + 0x99);
	pb_finish(&c0[1], RB_MISSING_EVENTS | RB_MISSING_STORED, 77);

	pb_start(&c1[0], T0);
	pb_function(&c1[0], 50, FL_SOFTIRQ, 7, KSYS_READ + 4, DO_SYSCALL + 8);
	pb_finish(&c1[0], 0, 0);
	return make_trace("good.dat", c0, 2, c1, 1);
}

static void check_good(enum kmag_reader reader)
{
	const char *path = build_good();
	struct kmag_err err = { 0 };
	uint64_t ts_entry = T0 + 100 + EXTEND + 7;
	struct seen s;
	int i;

	if (read_all(path, reader, &s, &err))
		test_fail(__FILE__, __LINE__, "read: %s", err.msg);
	CHECK_EQ(s.n, 6);

	/* CPU 1's record at T0 + 50 comes first */
	CHECK_EQ(s.ev[0].type, KMAG_EV_FUNC);
	CHECK_EQ(s.ev[0].cpu, 1);
	CHECK_EQ(s.ev[0].pid, 7);
	CHECK_EQ(s.ev[0].ts, T0 + 50);
	CHECK_EQ(s.ev[0].ip, KSYS_READ + 4);
	CHECK_EQ(s.ev[0].parent_ip, DO_SYSCALL + 8);
	CHECK_STREQ(s.func[0], "ksys_read");
	CHECK_STREQ(s.parent[0], "do_syscall_64");

	CHECK_EQ(s.ev[1].type, KMAG_EV_FUNC);
	CHECK_EQ(s.ev[1].cpu, 0);
	CHECK_EQ(s.ev[1].pid, 42);
	CHECK_EQ(s.ev[1].ts, T0 + 100);
	CHECK_EQ(s.ev[1].ip, VFS_READ + 0x10);
	CHECK_STREQ(s.func[1], "vfs_read");
	CHECK_STREQ(s.parent[1], "ksys_read");

	/* the time extend moved the clock by EXTEND before the entry's own delta */
	CHECK_EQ(s.ev[2].type, KMAG_EV_GRAPH_ENTRY);
	CHECK_EQ(s.ev[2].cpu, 0);
	CHECK_EQ(s.ev[2].pid, 42);
	CHECK_EQ(s.ev[2].ts, ts_entry);
	CHECK_EQ(s.ev[2].depth, 0);
	CHECK_STREQ(s.func[2], "ksys_read");

	/* the padding's delta counts too (the kernel keeps discarded records' time) */
	CHECK_EQ(s.ev[3].type, KMAG_EV_GRAPH_EXIT);
	CHECK_EQ(s.ev[3].ts, ts_entry + 11 + 1000);
	CHECK_EQ(s.ev[3].depth, 0);
	CHECK_STREQ(s.func[3], "ksys_read");

	/* page 2: the loss marker at the page's time, then its record */
	CHECK_EQ(s.ev[4].type, KMAG_EV_LOST);
	CHECK_EQ(s.ev[4].cpu, 0);
	CHECK_EQ(s.ev[4].lost, 77);
	CHECK_EQ(s.ev[5].type, KMAG_EV_FUNC);
	CHECK_EQ(s.ev[5].ts, T1 + 1);
	CHECK_EQ(s.ev[5].pid, 43);
	CHECK_STREQ(s.func[5], "vfs_read");
	CHECK_STREQ(s.parent[5], "do_syscall_64");

	if (reader == KMAG_READER_BUILTIN) {
		/* what only the built-in decoder reports */
		CHECK_EQ(s.ev[0].ctx, KMAG_CTX_KNOWN | KMAG_CTX_SOFTIRQ);
		CHECK_EQ(s.ev[1].ctx, KMAG_CTX_KNOWN | KMAG_CTX_HARDIRQ);
		CHECK_EQ(s.ev[5].ctx, KMAG_CTX_KNOWN);
		CHECK_EQ(s.ev[3].calltime, 123456);
		CHECK_EQ(s.ev[3].duration, 2500);
		CHECK_EQ(s.ev[4].ts, T1);
	}
	for (i = 0; i < s.n; i++)
		if (s.ev[i].type != KMAG_EV_FUNC)
			CHECK_EQ(s.ev[i].parent, KMAG_FUNC_NONE);
	seen_free(&s);
}

static void pages_builtin(void)
{
	check_good(KMAG_READER_BUILTIN);
}

/* the same file through libtraceevent's kbuffer: the expectations hold there too */
static void pages_libtracecmd_agrees(void)
{
	TEST_NEED_FEATURE(KMAG_FEATURE_LIBTRACECMD);
	check_good(KMAG_READER_LIBTRACECMD);
}

/*
 * One damaged page on CPU 0 after a good record: the good record is
 * delivered, then the read fails naming the CPU, the page and @why.
 */
static void expect_corrupt(const char *name, struct pb *bad, const char *why)
{
	struct pb c0[2];
	struct kmag_err err = { 0 };
	struct seen s;
	const char *path;
	int ret;

	pb_start(&c0[0], T0);
	pb_function(&c0[0], 1, 0, 42, VFS_READ, KSYS_READ);
	pb_finish(&c0[0], 0, 0);
	c0[1] = *bad;
	path = make_trace(name, c0, 2, NULL, 0);
	ret = read_all(path, KMAG_READER_BUILTIN, &s, &err);
	CHECK(ret < 0);
	CHECK_EQ(s.n, 1);
	CHECK_EQ(s.ev[0].ts, T0 + 1);
	if (!strstr(err.msg, "corrupt trace.dat: CPU 0, page at file offset ") ||
	    !strstr(err.msg, why))
		test_fail(__FILE__, __LINE__, "%s: message \"%s\" lacks \"%s\"", name, err.msg, why);
	seen_free(&s);
}

static void commit_beyond_page(void)
{
	struct pb b;

	pb_start(&b, T1);
	pb_function(&b, 1, 0, 42, VFS_READ, KSYS_READ);
	pb_finish(&b, 0, 0);
	{
		uint64_t commit = PAGE - HDR + 1;	/* one byte more than a page holds */

		memcpy(b.page + 8, &commit, 8);
	}
	expect_corrupt("commit.dat", &b, "commit size exceeds the page");
}

static void record_past_page_end(void)
{
	struct pb b;

	pb_start(&b, T1);
	pb_function(&b, 1, 0, 42, VFS_READ, KSYS_READ);
	pb_finish(&b, 0, 0);
	b.page[8] = 20;		/* commit cuts the 28-byte record after 20 bytes */
	expect_corrupt("past.dat", &b, "record runs past the end of the page");
}

static void length_below_own_size(void)
{
	struct pb b;

	pb_start(&b, T1);
	pb_hdr(&b, 0, 1);
	pb_u32(&b, 2);		/* array[0] must count at least its own 4 bytes */
	pb_u64(&b, 0);
	pb_finish(&b, 0, 0);
	expect_corrupt("len.dat", &b, "record length below its own size");
}

static void record_shorter_than_format(void)
{
	struct pb b;

	pb_start(&b, T1);
	pb_hdr(&b, 2, 1);	/* 8 bytes: a function record needs 24 */
	pb_common(&b, 1, 0, 42);
	pb_finish(&b, 0, 0);
	expect_corrupt("short.dat", &b, "record shorter than its event format");
}

static void time_extend_cut_off(void)
{
	struct pb b;

	pb_start(&b, T1);
	pb_hdr(&b, RB_TYPE_TIME_EXTEND, 1);	/* array[0] missing: commit ends here */
	pb_finish(&b, 0, 0);
	expect_corrupt("extend.dat", &b, "time extend cut off");
}

/*
 * A null padding record (delta 0, length 0) ends the page: what follows it
 * within the commit is not read. An empty page (commit 0) is skipped.
 */
static void null_padding_ends_page(void)
{
	struct pb c0[3];
	struct kmag_err err = { 0 };
	struct seen s;

	pb_start(&c0[0], T0);
	pb_function(&c0[0], 1, 0, 42, VFS_READ, KSYS_READ);
	pb_hdr(&c0[0], RB_TYPE_PADDING, 0);
	pb_u32(&c0[0], 0);
	pb_function(&c0[0], 1, 0, 42, KSYS_READ, DO_SYSCALL);	/* never read */
	pb_finish(&c0[0], 0, 0);
	pb_start(&c0[1], T0 + 10);
	pb_finish(&c0[1], 0, 0);
	pb_start(&c0[2], T1);
	pb_function(&c0[2], 3, 0, 43, KSYS_READ, DO_SYSCALL);
	pb_finish(&c0[2], 0, 0);
	if (read_all(make_trace("null.dat", c0, 3, NULL, 0), KMAG_READER_BUILTIN, &s, &err))
		test_fail(__FILE__, __LINE__, "read: %s", err.msg);
	CHECK_EQ(s.n, 2);
	CHECK_STREQ(s.func[0], "vfs_read");
	CHECK_EQ(s.ev[1].ts, T1 + 3);
	CHECK_STREQ(s.func[1], "ksys_read");
	seen_free(&s);
}

/* "events missed" without a stored count: a LOST marker of unknown size */
static void missed_without_count(void)
{
	struct pb c0[1];
	struct kmag_err err = { 0 };
	struct seen s;

	pb_start(&c0[0], T1);
	pb_function(&c0[0], 2, 0, 42, VFS_READ, KSYS_READ);
	pb_finish(&c0[0], RB_MISSING_EVENTS, 0);
	if (read_all(make_trace("missed.dat", c0, 1, NULL, 0), KMAG_READER_BUILTIN, &s, &err))
		test_fail(__FILE__, __LINE__, "read: %s", err.msg);
	CHECK_EQ(s.n, 2);
	CHECK_EQ(s.ev[0].type, KMAG_EV_LOST);
	CHECK_EQ(s.ev[0].lost, KMAG_LOST_UNKNOWN);
	CHECK_EQ(s.ev[1].type, KMAG_EV_FUNC);
	CHECK_EQ(s.ev[1].ts, T1 + 2);
	seen_free(&s);
}

/*
 * func_repeats (the function tracer's "ran N more times" record) and a
 * tracepoint of another system, between two function records.
 */
static void repeats_and_other_events(void)
{
	struct pb c0[1];
	struct kmag_err err = { 0 };
	struct seen s;
	uint16_t count = 3;
	int32_t value = -5;

	pb_start(&c0[0], T0);
	pb_function(&c0[0], 1, 0, 42, VFS_READ, KSYS_READ);
	pb_hdr(&c0[0], 8, 2);		/* func_repeats: 32 bytes */
	pb_common(&c0[0], 19, 0, 42);
	pb_u64(&c0[0], VFS_READ);
	pb_u64(&c0[0], KSYS_READ);
	memcpy(c0[0].page + c0[0].off, &count, 2);
	c0[0].off += 8;			/* count, top and bottom delta */
	pb_hdr(&c0[0], 3, 3);		/* tick: 12 bytes */
	pb_common(&c0[0], 300, 0, 43);
	pb_u32(&c0[0], (uint32_t)value);
	pb_finish(&c0[0], 0, 0);
	if (read_all(make_trace("repeats.dat", c0, 1, NULL, 0), KMAG_READER_BUILTIN, &s, &err))
		test_fail(__FILE__, __LINE__, "read: %s", err.msg);
	CHECK_EQ(s.n, 3);
	CHECK_EQ(s.ev[0].repeat, 1);
	CHECK_EQ(s.ev[1].type, KMAG_EV_FUNC);
	CHECK_EQ(s.ev[1].repeat, 3);
	CHECK_EQ(s.ev[1].ts, T0 + 1 + 2);
	CHECK_STREQ(s.func[1], "vfs_read");
	CHECK_STREQ(s.parent[1], "ksys_read");
	CHECK_EQ(s.ev[2].type, KMAG_EV_OTHER);
	CHECK_EQ(s.ev[2].pid, 43);
	CHECK_EQ(s.ev[2].event_id, 300);
	CHECK_EQ(s.ev[2].raw_size, 12);
	CHECK_EQ(s.ev[2].func, KMAG_FUNC_NONE);
	seen_free(&s);
}

struct names {
	char name[32], system[32];
	int32_t value;
	int n;
};

/* the names are borrowed from the trace: copy them inside the callback */
static int copy_names(const struct kmag_event *ev, void *ctx)
{
	struct names *g = ctx;

	if (ev->type != KMAG_EV_OTHER)
		return 0;
	g->n++;
	snprintf(g->name, sizeof(g->name), "%s", ev->event_name ? ev->event_name : "(null)");
	snprintf(g->system, sizeof(g->system), "%s", ev->event_system ? ev->event_system : "(null)");
	if (ev->raw && ev->raw_size >= 12)
		memcpy(&g->value, (const uint8_t *)ev->raw + 8, 4);
	return 0;
}

/* a tracepoint record: named by its format, payload handed over raw */
static void other_event_names(void)
{
	struct pb c0[1];
	struct kmag_err err = { 0 };
	struct names got = { .n = 0 };
	struct kmag_trace *t;

	pb_start(&c0[0], T0);
	pb_hdr(&c0[0], 3, 1);
	pb_common(&c0[0], 300, 0, 43);
	pb_u32(&c0[0], 77);
	pb_finish(&c0[0], 0, 0);
	t = kmag_trace_open(make_trace("tick.dat", c0, 1, NULL, 0), NULL, &err);
	if (!t)
		test_fail(__FILE__, __LINE__, "open: %s", err.msg);
	CHECK_EQ(kmag_trace_read(t, copy_names, &got, &err), 0);
	kmag_trace_close(t);
	CHECK_EQ(got.n, 1);
	CHECK_STREQ(got.name, "tick");
	CHECK_STREQ(got.system, "test");
	CHECK_EQ(got.value, 77);
}

/* 4-byte longs: the format-driven (generic) decoding path */
static void generic_layout(enum kmag_reader reader)
{
	static const struct tdw_blob ftrace32[] = {
		{ fmt32_function, sizeof(fmt32_function) - 1 },
		{ fmt32_exit, sizeof(fmt32_exit) - 1 },
		{ fmt32_entry, sizeof(fmt32_entry) - 1 },
	};
	static const struct layout layout32 = { ftrace32, 3, NULL, 0, kallsyms32 };
	struct pb c0[1];
	struct kmag_err err = { 0 };
	struct seen s;

	pb_start(&c0[0], T0);
	pb_hdr(&c0[0], 4, 5);		/* function: 16 bytes */
	pb_common(&c0[0], 1, FL_HARDIRQ, 42);
	pb_u32(&c0[0], 0xc1000010);	/* vfs_read+0x10 */
	pb_u32(&c0[0], 0xc1001020);	/* ksys_read+0x20 */
	pb_hdr(&c0[0], 4, 5);		/* funcgraph_entry: 16 bytes */
	pb_common(&c0[0], 11, 0, 42);
	pb_u32(&c0[0], 0xc1001000);
	pb_u32(&c0[0], 1);
	pb_hdr(&c0[0], 9, 5);		/* funcgraph_exit: 36 bytes */
	pb_common(&c0[0], 10, 0, 42);
	pb_u32(&c0[0], 0xc1001000);
	pb_u32(&c0[0], 1);
	pb_u32(&c0[0], 0);
	pb_u32(&c0[0], 1000);		/* calltime, at the 4-aligned offset 20 */
	pb_u32(&c0[0], 0);
	pb_u32(&c0[0], 1700);		/* rettime at 28 */
	pb_u32(&c0[0], 0);
	pb_finish(&c0[0], 0, 0);
	if (read_all(make_trace_with(&layout32, "l32.dat", c0, 1, NULL, 0), reader, &s, &err))
		test_fail(__FILE__, __LINE__, "read: %s", err.msg);
	CHECK_EQ(s.n, 3);
	CHECK_EQ(s.ev[0].type, KMAG_EV_FUNC);
	CHECK_EQ(s.ev[0].ip, 0xc1000010);
	CHECK_EQ(s.ev[0].parent_ip, 0xc1001020);
	CHECK_STREQ(s.func[0], "vfs_read");
	CHECK_STREQ(s.parent[0], "ksys_read");
	CHECK_EQ(s.ev[0].ts, T0 + 5);
	CHECK_EQ(s.ev[1].type, KMAG_EV_GRAPH_ENTRY);
	CHECK_EQ(s.ev[1].depth, 1);
	CHECK_STREQ(s.func[1], "ksys_read");
	CHECK_EQ(s.ev[2].type, KMAG_EV_GRAPH_EXIT);
	CHECK_EQ(s.ev[2].depth, 1);
	CHECK_EQ(s.ev[2].ts, T0 + 15);
	CHECK_STREQ(s.func[2], "ksys_read");
	if (reader == KMAG_READER_BUILTIN) {
		CHECK_EQ(s.ev[0].ctx, KMAG_CTX_KNOWN | KMAG_CTX_HARDIRQ);
		CHECK_EQ(s.ev[2].calltime, 1000);
		CHECK_EQ(s.ev[2].duration, 700);
	}
	seen_free(&s);
}

static void generic_layout_builtin(void)
{
	generic_layout(KMAG_READER_BUILTIN);
}

static void generic_layout_libtracecmd_agrees(void)
{
	TEST_NEED_FEATURE(KMAG_FEATURE_LIBTRACECMD);
	generic_layout(KMAG_READER_LIBTRACECMD);
}

const struct test_case pages_tests[] = {
	{ "pages_builtin", pages_builtin },
	{ "pages_libtracecmd_agrees", pages_libtracecmd_agrees },
	{ "commit_beyond_page", commit_beyond_page },
	{ "record_past_page_end", record_past_page_end },
	{ "length_below_own_size", length_below_own_size },
	{ "record_shorter_than_format", record_shorter_than_format },
	{ "time_extend_cut_off", time_extend_cut_off },
	{ "null_padding_ends_page", null_padding_ends_page },
	{ "missed_without_count", missed_without_count },
	{ "repeats_and_other_events", repeats_and_other_events },
	{ "other_event_names", other_event_names },
	{ "generic_layout_builtin", generic_layout_builtin },
	{ "generic_layout_libtracecmd_agrees", generic_layout_libtracecmd_agrees },
	TEST_LIST_END
};
