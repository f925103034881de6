/* SPDX-License-Identifier: MIT */
/*
 * t-pages.h - hand-built ring-buffer sub-buffers wrapped in v6 trace.dat
 * files, and reading them back: shared by the page walker's tests
 * (t-pages.c) and the salvage of damaged pages (t-salvage.c).
 *
 * Each test writes pages byte by byte as the kernel lays them out
 * (events/header_page, events/header_event: u64 timestamp, u64 commit,
 * then records with a 5-bit type_len and a 27-bit time delta), wraps them in
 * a v6 trace.dat with the real 6.1 event formats (or a 32-bit layout, for
 * the decoder's format-driven path), and reads them back.
 */
#ifndef KMAG_T_PAGES_H
#define KMAG_T_PAGES_H

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

static inline void pb_start(struct pb *b, uint64_t ts)
{
	memset(b->page, 0, PAGE);
	memcpy(b->page, &ts, 8);
	b->off = HDR;
}

static inline void pb_u32(struct pb *b, uint32_t v)
{
	memcpy(b->page + b->off, &v, 4);
	b->off += 4;
}

static inline void pb_u64(struct pb *b, uint64_t v)
{
	memcpy(b->page + b->off, &v, 8);
	b->off += 8;
}

/* little-endian record header: type_len in the low 5 bits, the delta above */
static inline void pb_hdr(struct pb *b, uint32_t type_len, uint32_t delta)
{
	pb_u32(b, type_len | delta << 5);
}

/* the 8 bytes every record starts with: common_type, flags, preempt_count, pid */
static inline void pb_common(struct pb *b, uint16_t type, uint8_t flags, int32_t pid)
{
	memcpy(b->page + b->off, &type, 2);
	b->page[b->off + 2] = flags;
	b->page[b->off + 3] = 0;
	memcpy(b->page + b->off + 4, &pid, 4);
	b->off += 8;
}

/* function: 24 bytes of payload, type_len 6 */
static inline void pb_function(struct pb *b, uint32_t delta, uint8_t flags, int32_t pid,
			       uint64_t ip, uint64_t parent)
{
	pb_hdr(b, 6, delta);
	pb_common(b, 1, flags, pid);
	pb_u64(b, ip);
	pb_u64(b, parent);
}

/* funcgraph_entry (20 bytes, 24 stored) with type_len 0: the length in array[0] */
static inline void pb_entry_long(struct pb *b, uint32_t delta, int32_t pid, uint64_t func,
				 int32_t depth)
{
	pb_hdr(b, 0, delta);
	pb_u32(b, 24 + 4);	/* array[0]: payload bytes + itself */
	pb_common(b, 11, 0, pid);
	pb_u64(b, func);
	pb_u32(b, (uint32_t)depth);
	pb_u32(b, 0);
}

/* funcgraph_exit: 40 bytes, type_len 10 */
static inline void pb_exit(struct pb *b, uint32_t delta, int32_t pid, uint64_t func,
			   int32_t depth, uint64_t calltime, uint64_t rettime)
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
static inline void pb_time_extend(struct pb *b, uint64_t delta)
{
	pb_hdr(b, RB_TYPE_TIME_EXTEND, (uint32_t)(delta & ((1u << 27) - 1)));
	pb_u32(b, (uint32_t)(delta >> 27));
}

/*
 * padding (a discarded record) with @len bytes after its length word; the
 * length word counts itself (kernel/trace/ring_buffer.c rb_event_length():
 * array[0] + RB_EVNT_HDR_SIZE is the whole record)
 */
static inline void pb_padding(struct pb *b, uint32_t delta, uint32_t len)
{
	pb_hdr(b, RB_TYPE_PADDING, delta);
	pb_u32(b, 4 + len);
	memset(b->page + b->off, 0xee, len);
	b->off += len;
}

/* commit = bytes of records; @flags RB_MISSING_*; @stored: count after the data */
static inline void pb_finish(struct pb *b, uint64_t flags, uint64_t stored)
{
	uint64_t commit = (b->off - HDR) | flags;

	memcpy(b->page + 8, &commit, 8);
	if (flags & RB_MISSING_STORED)
		memcpy(b->page + b->off, &stored, 8);
}

static inline int pages_file(const char *name, const struct pb *pages, int n)
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

/* How a test file is written besides its pages (zero: v6, uncompressed, no CPU stats). */
struct file_opts {
	bool v7_zstd;			/* v7 with zstd-compressed CPU data */
	const char *const *cpustats;	/* CPUSTAT texts, or NULL */
	size_t nr_cpustats;
};

/*
 * Writes a trace.dat of @lay with @n0 pages on CPU 0 and @n1 on CPU 1 as @o
 * says (NULL: v6); returns its path.
 */
static inline const char *make_trace_opts(const struct layout *lay, const char *name,
					  const struct pb *c0, int n0, const struct pb *c1, int n1,
					  const struct file_opts *o)
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
		{ .fd = n0 ? pages_file("c0", c0, n0) : -1, .size = (uint64_t)n0 * PAGE },
		{ .fd = n1 ? pages_file("c1", c1, n1) : -1, .size = (uint64_t)n1 * PAGE },
	};
	struct tdw_tail tail = {
		.cmdlines = { cmdlines, sizeof(cmdlines) - 1 },
		.nr_cpus = 2, .cpus = cpus,
		.clock_file = "[local] global counter\n", .clock = "local",
		.cpustats = o ? o->cpustats : NULL, .nr_cpustats = o ? o->nr_cpustats : 0,
	};
	struct kmag_err err = { 0 };
	struct tdw w;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", test_tmpdir(), name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0);
	CHECK_EQ(kmag__tdw_begin(&w, fd, o && o->v7_zstd ? 7 : 6, o && o->v7_zstd, PAGE, &err), 0);
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

/* Writes a v6 trace.dat of @lay with @n0 pages on CPU 0 and @n1 on CPU 1; returns its path. */
static inline const char *make_trace_with(const struct layout *lay, const char *name,
					  const struct pb *c0, int n0, const struct pb *c1, int n1)
{
	return make_trace_opts(lay, name, c0, n0, c1, n1, NULL);
}

static inline const char *make_trace(const char *name, const struct pb *c0, int n0,
				     const struct pb *c1, int n1)
{
	return make_trace_with(&layout_61, name, c0, n0, c1, n1);
}

#define MAX_EVENTS 32

struct seen {
	struct kmag_trace *t;
	struct kmag_event ev[MAX_EVENTS];
	const char *func[MAX_EVENTS], *parent[MAX_EVENTS];
	int n;
};

static inline int collect(const struct kmag_event *ev, void *ctx)
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
static inline int read_all(const char *path, enum kmag_reader reader, struct seen *s,
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

static inline void seen_free(struct seen *s)
{
	for (int i = 0; i < s->n; i++) {
		free((char *)s->func[i]);
		free((char *)s->parent[i]);
	}
}


#define T0 5000000000ull	/* page timestamps: 5 s and 6 s */
#define T1 6000000000ull

#endif /* KMAG_T_PAGES_H */
