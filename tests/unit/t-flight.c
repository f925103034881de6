// SPDX-License-Identifier: MIT
/*
 * t-flight.c - the flight recorder's rings (lib/record/flight-ring.c): they
 * keep the newest blocks within their size, pins and copies hold blocks,
 * the window covers the same time on every CPU, and a snapshot of real
 * ring-buffer pages (a 2-CPU Linux 6.1 recording) is a trace.dat that
 * `trace-cmd report` reads with exactly the records of the kept pages, as
 * trace-cmd itself lists them in the original file (blocks compressed or,
 * as a reader behind the kernel stores them, not). And a reader hands its
 * blocks to the trigger watcher without ever waiting for it.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>
#include <sys/stat.h>
#include <zstd.h>

#include "kmag/event.h"
#include "kmag/trace.h"
#include "kmag/symtab.h"
#include "record/flight.h"
#include "record/record-internal.h"
#include "test.h"
#include "trace/tracedat.h"

#define PAGE 4096

/* A block of @pages pages of content @seed (hardly compressible), compressed into @z. */
static size_t make_block(uint8_t *z, size_t zcap, int pages, unsigned seed, uint8_t *raw)
{
	size_t i, len = (size_t)pages * PAGE, n;
	uint32_t x = seed * 2654435761u + 1;

	for (i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		raw[i] = (uint8_t)(i % 4 ? x : 0);
	}
	n = ZSTD_compress(z, zcap, raw, len, 1);
	CHECK(!ZSTD_isError(n));
	return n;
}

static void init_rings(struct fl_rings *fr, int n, uint64_t size)
{
	static const int cpus[] = { 0, 1, 2, 3 };
	struct kmag_err err = { 0 };
	char base[512];

	snprintf(base, sizeof(base), "%s/out.dat.kmag-1", test_tmpdir());
	if (kmag__fl_rings_init(fr, base, cpus, n, size, PAGE, &err))
		test_fail(__FILE__, __LINE__, "%s", err.msg);
}

static void append(struct fl_rings *fr, int ring, uint64_t ts, unsigned seed, int pages)
{
	static uint8_t raw[PAGE * 10], z[PAGE * 12];
	struct fl_block b = { 0 };

	b.csize = (uint32_t)make_block(z, sizeof(z), pages, seed, raw);
	b.usize = (uint32_t)(pages * PAGE);
	b.first_ts = ts;
	b.last_ts = ts + 9;
	b.events = 10;
	CHECK_EQ(kmag__fl_append(fr, ring, z, &b), 0);
}

static void refuses_too_small(void)
{
	static const int cpus[] = { 0, 1 };
	struct kmag_err err = { 0 };
	struct fl_rings fr;
	char base[512];
	uint32_t mb = kmag__fl_max_block(PAGE);

	snprintf(base, sizeof(base), "%s/x.dat.kmag-1", test_tmpdir());
	CHECK(mb > 10 * PAGE);
	CHECK_EQ(kmag__fl_rings_init(&fr, base, cpus, 2, 2 * mb - 1, PAGE, &err), -EINVAL);
	CHECK(strstr(err.msg, "is smaller than one block per CPU (2 CPUs x 41 KiB") != NULL);
	CHECK(strstr(err.msg, "give at least --flight") != NULL);
	kmag__fl_rings_release(&fr);
	memset(&err, 0, sizeof(err));
	CHECK_EQ(kmag__fl_rings_init(&fr, base, cpus, 2, 2 * (uint64_t)mb, PAGE, &err), 0);
	kmag__fl_rings_release(&fr);
}

static void keeps_newest_within_size(void)
{
	struct fl_rings fr;
	uint64_t size = 200 * 1024, seen = 0;
	struct stat st;
	unsigned i;
	size_t k;

	init_rings(&fr, 2, size);
	for (i = 0; i < 400; i++)
		append(&fr, (int)(i % 2), 1000 + i * 10, i, 1 + (int)(i % 10));
	for (k = 0; k < 2; k++) {
		struct fl_ring *r = &fr.r[k];
		uint64_t bytes = 0, prev = 0;
		size_t j;

		/* the file never grew: disk use is the size given, split by CPU */
		CHECK_EQ(fstat(r->fd, &st), 0);
		CHECK_EQ(st.st_size, size / 2);
		CHECK((uint64_t)st.st_blocks * 512 <= size / 2 + 4096);
		CHECK(r->count >= 2);
		/* the newest blocks, in order, back to back in time */
		for (j = 0; j < r->count; j++) {
			const struct fl_block *b = &r->b[(r->first + j) % r->capb];
			uint8_t raw[PAGE * 10], z[PAGE * 12], got[PAGE * 12];
			unsigned seed = (unsigned)((b->first_ts - 1000) / 10);

			if (j)
				CHECK_EQ(b->first_ts, prev + 20);
			prev = b->first_ts;
			bytes += b->csize;
			CHECK(b->off + b->csize <= r->cap);
			/* each block reads back as written */
			CHECK_EQ(make_block(z, sizeof(z), 1 + (int)(seed % 10), seed, raw), b->csize);
			CHECK_EQ(pread(r->fd, got, b->csize, (off_t)b->off), (ssize_t)b->csize);
			CHECK(!memcmp(got, z, b->csize));
		}
		CHECK_EQ(prev, 1000 + (398 + k) * 10);
		CHECK(bytes <= r->cap);
		CHECK(r->dropped_upto > 0);
		seen += r->count;
	}
	CHECK(seen < 400);
	kmag__fl_rings_release(&fr);
	/* the files are gone */
	CHECK(access(fr.r ? "" : test_tmpdir(), F_OK) == 0);
}

struct appender {
	struct fl_rings *fr;
	int done;
};

static void *append_many(void *arg)
{
	struct appender *a = arg;
	unsigned i;

	for (i = 0; i < 60; i++)
		append(a->fr, 0, 5000 + i * 10, i, 10);
	__atomic_store_n(&a->done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void pins_hold_blocks(void)
{
	struct fl_rings fr;
	struct appender a = { &fr, 0 };
	struct fl_window w;
	pthread_t th;
	unsigned i;
	int spins;

	init_rings(&fr, 1, 4 * (uint64_t)kmag__fl_max_block(PAGE));
	for (i = 0; i < 3; i++)
		append(&fr, 0, 1000 + i * 10, i, 10);
	/* a pin from the second block on: the ring fills, the writer waits */
	kmag__fl_pin(&fr, 1010);
	CHECK_EQ(pthread_create(&th, NULL, append_many, &a), 0);
	for (spins = 0; spins < 500 && !kmag__fl_blocked(&fr); spins++)
		usleep(2000);
	CHECK(kmag__fl_blocked(&fr));
	CHECK(!__atomic_load_n(&a.done, __ATOMIC_SEQ_CST));
	/* what the window holds starts at the pinned block */
	CHECK_EQ(kmag__fl_window(&fr, &w), 0);
	CHECK_EQ(w.start_ts, 1009);
	CHECK_EQ(w.first_ts, 1010);
	kmag__fl_window_release(&fr, &w);
	kmag__fl_pin(&fr, KMAG_TS_NONE);
	CHECK_EQ(pthread_join(th, NULL), 0);
	CHECK(a.done);
	CHECK_EQ(fr.r[0].b[(fr.r[0].first + fr.r[0].count - 1) % fr.r[0].capb].first_ts, 5590);
	/* a copy in progress holds its blocks too; stopping lets the writer go */
	CHECK_EQ(kmag__fl_window(&fr, &w), 0);
	a.done = 0;
	CHECK_EQ(pthread_create(&th, NULL, append_many, &a), 0);
	for (spins = 0; spins < 500 && !kmag__fl_blocked(&fr); spins++)
		usleep(2000);
	CHECK(kmag__fl_blocked(&fr));
	kmag__fl_window_release(&fr, &w);
	CHECK_EQ(pthread_join(th, NULL), 0);
	kmag__fl_rings_release(&fr);
}

static void window_covers_same_time(void)
{
	struct fl_rings fr;
	struct fl_window w;
	unsigned i;

	init_rings(&fr, 2, 2 * 3 * (uint64_t)kmag__fl_max_block(PAGE));
	/* CPU 1: two early blocks, then one late one; CPU 0 busy, wrapping */
	append(&fr, 1, 100, 1, 10);
	append(&fr, 1, 200, 2, 10);
	for (i = 0; i < 30; i++)
		append(&fr, 0, 1000 + i * 10, i, 10);
	append(&fr, 1, 1285, 3, 10);
	CHECK(fr.r[0].dropped_upto > 0);
	CHECK_EQ(fr.r[1].dropped_upto, 0);
	CHECK_EQ(kmag__fl_window(&fr, &w), 0);
	CHECK_EQ(w.start_ts, fr.r[0].dropped_upto);
	/* CPU 1's early blocks are older than what CPU 0 kept: left out */
	CHECK_EQ(w.parts[1].nr, 1);
	CHECK_EQ(w.parts[1].first_ts, 1285);
	CHECK_EQ(w.parts[0].nr, fr.r[0].count);
	CHECK_EQ(w.events, (w.parts[0].nr + 1) * 10);
	CHECK_EQ(w.last_ts, 1000 + 29 * 10 + 9);
	kmag__fl_window_release(&fr, &w);
	kmag__fl_rings_release(&fr);
}

/* ---- a snapshot of real pages ---- */

/* `trace-cmd report -R -t` lines of @file on CPU @cpu at or after @from (ns), or the count of all. */
static long tc_lines(const char *file, int cpu, uint64_t from, char *first, char *last)
{
	char cmd[1024], line[2048];
	long n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "trace-cmd report -R -t --cpu %d %s 2>/dev/null", cpu, file);
	p = popen(cmd, "r");
	CHECK(p);
	while (fgets(line, sizeof(line), p)) {
		char *b = strstr(line, "] "), *dot;
		uint64_t s, ns;

		if (!b || !(dot = strchr(b, '.')) || sscanf(b + 2, "%" SCNu64, &s) != 1 ||
		    sscanf(dot + 1, "%9" SCNu64, &ns) != 1)
			continue;
		if (s * 1000000000ull + ns < from)
			continue;
		if (!n && first)
			strcpy(first, b);
		if (last)
			strcpy(last, b);
		n++;
	}
	pclose(p);
	return n;
}

static void snapshot_of_real_pages(void)
{
	const char *src = "traces/fg-2cpu-v6.dat.xz";
	char dat[512], out[512], cmd[1024];
	struct kmag_page_geom g = { PAGE, 16, 8, false, false };
	struct kmag_err err = { 0 };
	struct tracedat td;
	struct fl_rings fr;
	struct fl_window w;
	uint64_t first_kept[2] = { 0, 0 };
	int c, fd;

	if (system("command -v trace-cmd >/dev/null 2>&1 && command -v xz >/dev/null 2>&1"))
		test_skip("trace-cmd or xz is not installed");
	snprintf(dat, sizeof(dat), "%s", fixture_unpacked(src));
	if (kmag__tracedat_open(&td, dat, &err))
		test_fail(__FILE__, __LINE__, "%s", err.msg);
	CHECK_EQ(td.top.nr_cpus, 2);
	CHECK_EQ(td.page_size, PAGE);
	/* rings of two blocks' room per CPU: the recording (hundreds of pages) wraps them */
	init_rings(&fr, 2, 2 * 2 * (uint64_t)kmag__fl_max_block(PAGE));
	for (c = 0; c < 2; c++) {
		const struct td_cpu_data *d = &td.top.cpus[c];
		uint8_t *pages = malloc(d->size), *z = malloc(kmag__fl_max_block(PAGE));
		size_t off;

		CHECK(pages && z);
		CHECK_EQ(pread(td.fd, pages, d->size, (off_t)d->offset), (ssize_t)d->size);
		for (off = 0; off < d->size; off += (size_t)PAGE * 10) {
			size_t len = d->size - off < (size_t)PAGE * 10 ? d->size - off : (size_t)PAGE * 10;
			struct fl_block b = { 0 };
			/* every other block stored as it is, as a reader behind the kernel does */
			size_t zl = (off / ((size_t)PAGE * 10)) % 2 ?
				    kmag__fl_store_raw(z, kmag__fl_max_block(PAGE), pages + off, len) :
				    ZSTD_compress(z, kmag__fl_max_block(PAGE), pages + off, len, 1);

			CHECK(zl && !ZSTD_isError(zl));
			CHECK_EQ(kmag__fl_describe(&g, pages + off, len, &b), 0);
			b.csize = (uint32_t)zl;
			b.usize = (uint32_t)len;
			CHECK_EQ(kmag__fl_append(&fr, d->cpu, z, &b), 0);
		}
		free(pages);
		free(z);
	}
	CHECK(fr.r[0].dropped_upto || fr.r[1].dropped_upto);
	CHECK_EQ(kmag__fl_window(&fr, &w), 0);
	for (c = 0; c < 2; c++) {
		struct fl_ring *r = &fr.r[c];
		size_t k;

		for (k = 0; k < r->count; k++) {
			const struct fl_block *b = &r->b[(r->first + k) % r->capb];

			if (b->first_ts != KMAG_TS_NONE && b->last_ts >= w.start_ts) {
				first_kept[c] = b->first_ts;
				break;
			}
		}
	}
	/* the snapshot, with the source's metadata */
	snprintf(out, sizeof(out), "%s/snap.dat", test_tmpdir());
	fd = open(out, O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	{
		struct tdw_blob ftrace[64];
		struct tdw_meta m = { 0 };
		struct tdw_tail t = { 0 };
		size_t i, nf = 0;

		m.header_page = (struct tdw_blob){ td.header_page.data, td.header_page.size };
		m.header_event = (struct tdw_blob){ td.header_event.data, td.header_event.size };
		for (i = 0; i < td.nr_formats && nf < 64; i++)
			if (!strcmp(td.formats[i].system, "ftrace"))
				ftrace[nf++] = (struct tdw_blob){ td.formats[i].text.data,
								  td.formats[i].text.size };
		m.ftrace_formats = ftrace;
		m.nr_ftrace_formats = nf;
		m.kallsyms = (struct tdw_blob){ td.kallsyms.data, td.kallsyms.size };
		m.printk = (struct tdw_blob){ td.printk.data, td.printk.size };
		t.cmdlines = (struct tdw_blob){ td.cmdlines.data, td.cmdlines.size };
		t.nr_cpus = 2;
		t.clock = "global";
		if (kmag__fl_write(&fr, &w, fd, PAGE, &m, &t, &err))
			test_fail(__FILE__, __LINE__, "%s", err.msg);
	}
	close(fd);
	/* trace-cmd reads it: the kept pages' records, the same as it lists in the source */
	for (c = 0; c < 2; c++) {
		char a1[2048] = "", a2[2048] = "", b1[2048] = "", b2[2048] = "";
		long want = tc_lines(dat, c, first_kept[c], a1, a2);
		long got = tc_lines(out, c, 0, b1, b2);

		CHECK(want > 0);
		CHECK_EQ(got, want);
		CHECK_EQ(got, w.parts[c].events);
		CHECK_STREQ(b1, a1);
		CHECK_STREQ(b2, a2);
	}
	snprintf(cmd, sizeof(cmd), "trace-cmd report %s 2>&1 | grep -qiE 'warning|error|unknown'", out);
	CHECK(system(cmd) != 0);
	/* and so does kmag */
	{
		struct kmag_trace *t = kmag_trace_open(out, NULL, &err);

		CHECK(t);
		kmag_trace_close(t);
	}
	kmag__fl_window_release(&fr, &w);
	kmag__fl_rings_release(&fr);
	kmag__tracedat_close(&td);
}

/* A block stored uncompressed is a zstd frame that libzstd reads back as it was. */
static void raw_blocks_are_zstd(void)
{
	static const size_t lens[] = { 1, PAGE, PAGE * 10, (128u << 10) + 5, 300000 };
	size_t k, i;

	for (k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
		size_t len = lens[k], cap = ZSTD_compressBound(len), n, back;
		uint8_t *src = malloc(len), *z = malloc(cap), *out = malloc(len + 1);

		CHECK(src && z && out);
		for (i = 0; i < len; i++)
			src[i] = (uint8_t)(i * 7 + k);
		n = kmag__fl_store_raw(z, cap, src, len);
		CHECK(n > len && n <= cap);
		back = ZSTD_decompress(out, len + 1, z, n);
		CHECK(!ZSTD_isError(back));
		CHECK_EQ(back, len);
		CHECK(!memcmp(out, src, len));
		/* no room: nothing written */
		CHECK_EQ(kmag__fl_store_raw(z, len, src, len), 0);
		free(src);
		free(z);
		free(out);
	}
	/* a whole block fits the room the rings give one */
	CHECK(ZSTD_compressBound((size_t)PAGE * FL_BLOCK_PAGES) == kmag__fl_max_block(PAGE));
}

/* ---- --last-boot: the previous boot's addresses ---- */

static void lastboot_text(void)
{
	CHECK_EQ(kmag__lastboot_text("ffffffff81000000\t[kernel]\n"), 0xffffffff81000000ull);
	CHECK_EQ(kmag__lastboot_text("ffffffff9a200000\t[kernel]\nffffffffc0a00000\text4\n"),
		 0xffffffff9a200000ull);
	/* this boot's buffer (Linux 6.12-6.14 and 6.15+ spellings) */
	CHECK_EQ(kmag__lastboot_text("# Current\n"), 0);
	CHECK_EQ(kmag__lastboot_text("0\t[kernel]\n"), 0);
	CHECK_EQ(kmag__lastboot_text("garbage\n"), 0);
	CHECK_EQ(kmag__lastboot_text(""), 0);
}

static void lastboot_kallsyms_moved(void)
{
	/* this boot: text 16 MiB higher, module mymod elsewhere, gonemod not loaded then */
	static const char cur[] =
		"ffffffff82000000 T _text\n"
		"ffffffff82001000 T foo\n"
		"ffffffff82002000 t bar\n"
		"ffffffffc0100000 t modf\t[mymod]\n"
		"ffffffffc0100040 t modg\t[mymod]\n"
		"ffffffffc0200000 t gone\t[gonemod]\n";
	static const char info[] = "ffffffff81000000\t[kernel]\nffffffffc0a00000\tmymod\n";
	static const char mods[] = "mymod 16384 0 - Live 0xffffffffc0100000\n"
				   "gonemod 4096 0 - Live 0xffffffffc0200000\n";
	struct kmag_symtab *st = kmag_symtab_new();
	int64_t delta = 0;
	size_t nmod = 0;
	char *moved = kmag__lastboot_kallsyms(cur, info, mods, &delta, &nmod);

	CHECK(moved && st);
	CHECK_EQ(delta, -(int64_t)0x1000000);
	CHECK_EQ(nmod, 1);
	CHECK_STREQ(moved, "ffffffff81000000 T _text\n"
			   "ffffffff81001000 T foo\n"
			   "ffffffff81002000 t bar\n"
			   "ffffffffc0a00000 t modf\t[mymod]\n"
			   "ffffffffc0a00040 t modg\t[mymod]\n");
	/* the previous boot's addresses name the functions */
	CHECK(kmag_symtab_load_kallsyms(st, moved, strlen(moved)) >= 0);
	CHECK_STREQ(kmag_symtab_name(st, kmag_symtab_resolve(st, 0xffffffff81001010ull, false)), "foo");
	CHECK_STREQ(kmag_symtab_name(st, kmag_symtab_resolve(st, 0xffffffffc0a00044ull, false)), "modg");
	free(moved);
	/* nothing to move: no previous boot, or no _text in this boot's kallsyms */
	CHECK(!kmag__lastboot_kallsyms(cur, "# Current\n", mods, &delta, &nmod));
	CHECK(!kmag__lastboot_kallsyms("ffffffff82001000 T foo\n", info, mods, &delta, &nmod));
	kmag_symtab_free(st);
}

/* ---- the readers' hand-over to the trigger watcher (flight-watch.c) */

struct push_arg {
	struct fl_state *fl;
	uint8_t *pages;
	int n;
	atomic_int done;
};

static void *push_some(void *arg)
{
	struct push_arg *a = arg;
	int k;

	for (k = 0; k < a->n; k++) {
		a->pages[0] = (uint8_t)k;
		kmag__fl_watch_push(a->fl, 0, a->pages, PAGE * (k + 1));
		kmag__fl_watch_hw(a->fl, 0, 1000u + (unsigned)k);
	}
	atomic_store(&a->done, 1);
	return NULL;
}

/*
 * A reader hands its blocks over while the watcher holds its lock (as when
 * it is preempted there: as SCHED_IDLE it may wait long for a CPU): it never
 * waits for it. Before, every hand-over took that lock (and the watcher
 * freed the blocks the readers allocated: the allocator's lock).
 */
static void push_never_waits_for_watcher(void)
{
	static uint8_t pages[PAGE * FL_BLOCK_PAGES];
	struct fl_cpu cpu = { 0 };
	struct fl_state fl = { 0 };
	struct push_arg a = { .fl = &fl, .pages = pages, .n = 3 };
	const size_t cap = (size_t)PAGE * FL_BLOCK_PAGES;
	struct fl_qblock *q, *back;
	pthread_t t;
	int k;

	fl.cpu = &cpu;
	fl.n = 1;
	fl.geom.page_size = PAGE;
	fl.max_queued = 3 * cap;
	fl.wake_fd = -1;
	pthread_mutex_init(&fl.lock, NULL);
	pthread_mutex_lock(&fl.lock);
	CHECK(!pthread_create(&t, NULL, push_some, &a));
	for (k = 0; k < 200 && !atomic_load(&a.done); k++)
		usleep(10 * 1000);
	CHECK(atomic_load(&a.done));
	pthread_mutex_unlock(&fl.lock);
	pthread_join(t, NULL);
	/* three blocks, newest first, each its length and first byte */
	q = atomic_load(&cpu.incoming);
	for (k = 2; k >= 0; k--) {
		CHECK(q);
		if (!q)
			break;
		CHECK_EQ(q->len, PAGE * (k + 1));
		CHECK_EQ(q->data[0], k);
		CHECK(!q->gap_before);
		q = q->next;
	}
	CHECK(!q);
	CHECK_EQ(atomic_load(&cpu.hw), 1002);
	CHECK_EQ(atomic_load(&cpu.queued), 3 * cap);
	/* the bound reached: the next block is not watched, and the one after says so */
	kmag__fl_watch_push(&fl, 0, pages, PAGE);
	CHECK_EQ(atomic_load(&fl.unwatched), PAGE);
	/* the watcher gives one back: the reader reuses that buffer, no new one */
	back = atomic_exchange(&cpu.incoming, NULL);
	q = back->next;
	back->next = NULL;
	atomic_store(&cpu.freed, back);
	atomic_fetch_sub(&cpu.queued, cap);
	pages[0] = 7;
	kmag__fl_watch_push(&fl, 0, pages, PAGE * 2);
	CHECK(atomic_load(&cpu.incoming) == back);
	CHECK(back->gap_before);
	CHECK_EQ(back->data[0], 7);
	CHECK(!atomic_load(&cpu.freed));
	while (q) {
		struct fl_qblock *next = q->next;

		free(q);
		q = next;
	}
	free(back);
	pthread_mutex_destroy(&fl.lock);
}

/* The watcher lags by no more than a CPU's ring holds, and 64 MiB over the CPUs. */
static void watcher_lags_within_ring(void)
{
	struct fl_state fl = { 0 };
	struct fl_ring r[2] = { { .cap = 1u << 20 }, { .cap = 1u << 20 } };

	fl.n = 2;
	CHECK_EQ(kmag__fl_watch_bound(&fl), 32u << 20);	/* no rings (bench/watch-speed) */
	fl.rings.r = r;
	fl.rings.n = 2;
	fl.rings.inited = true;
	CHECK_EQ(kmag__fl_watch_bound(&fl), 1u << 20);	/* --flight 2M */
	r[0].cap = r[1].cap = 128u << 20;
	CHECK_EQ(kmag__fl_watch_bound(&fl), 32u << 20);	/* --flight 256M */
}

const struct test_case flight_tests[] = {
	{ "flight: a ring smaller than one block per CPU is refused", refuses_too_small },
	{ "flight: rings keep the newest blocks within their size", keeps_newest_within_size },
	{ "flight: pins and copies hold blocks; the writer waits", pins_hold_blocks },
	{ "flight: the window covers the same time on every CPU", window_covers_same_time },
	{ "flight: a snapshot of real pages is what trace-cmd lists of them",
	  snapshot_of_real_pages },
	{ "flight: a block stored uncompressed is a zstd frame", raw_blocks_are_zstd },
	{ "flight: a reader hands blocks to the watcher without waiting for it",
	  push_never_waits_for_watcher },
	{ "flight: the watcher lags by no more than a ring holds", watcher_lags_within_ring },
	{ "last-boot: last_boot_info's text address, or none", lastboot_text },
	{ "last-boot: kallsyms moved to the previous boot's kernel and modules",
	  lastboot_kallsyms_moved },
	TEST_LIST_END
};
