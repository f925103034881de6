// SPDX-License-Identifier: MIT
/*
 * t-pages.c - the binary ring-buffer page walker (lib/trace/input-tracedat.c)
 * and the record decoder (lib/trace/decode.c), on hand-built sub-buffers
 * (t-pages.h). The expected events are the ones written here; the files are
 * also read by the libtracecmd reader (libtraceevent's kbuffer), which must
 * see the same.
 */
#include "t-pages.h"

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
	/* calltime and rettime in trace_clock_local(), close to the trace clock */
	pb_exit(&c0[0], 1000, 42, KSYS_READ, 0, T0 + 123456, T0 + 123456 + 2500);
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
		CHECK_EQ(s.ev[3].calltime, T0 + 123456);
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
	pb_u32(&c0[0], (uint32_t)(T0 + 1000));	/* calltime, at the 4-aligned offset 20 */
	pb_u32(&c0[0], (uint32_t)((T0 + 1000) >> 32));
	pb_u32(&c0[0], (uint32_t)(T0 + 1700));	/* rettime at 28 */
	pb_u32(&c0[0], (uint32_t)((T0 + 1700) >> 32));
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
		CHECK_EQ(s.ev[2].calltime, T0 + 1000);
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
	{ "null_padding_ends_page", null_padding_ends_page },
	{ "missed_without_count", missed_without_count },
	{ "repeats_and_other_events", repeats_and_other_events },
	{ "other_event_names", other_event_names },
	{ "generic_layout_builtin", generic_layout_builtin },
	{ "generic_layout_libtracecmd_agrees", generic_layout_libtracecmd_agrees },
	TEST_LIST_END
};
