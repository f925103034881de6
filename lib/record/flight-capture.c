// SPDX-License-Identifier: MIT
/*
 * flight-capture.c - a CPU's reader in a flight recording (see flight.h).
 *
 * As in a normal recording (record-capture.c), whole pages move from
 * per_cpu/cpuN/trace_pipe_raw through a pipe with splice(2), the reader
 * sleeping in poll(2) on its buffer and the stop eventfd (both loops in
 * record-common.c). Here they are read out of the pipe into a block of up
 * to ten pages, which is described (its records' times), compressed with
 * zstd (level 1: the ring must keep up with the kernel; a reader behind
 * the kernel's buffer stores its blocks as they are until it caught up:
 * behind()), stored in the CPU's ring and handed to the trigger watcher
 * (without waiting for it: flight-watch.c). A block closes when it is full
 * or the buffer ran dry; when no whole page came for a poll period, the
 * partly filled page is read too, so the watcher sees a quiet CPU's events
 * within a period and learns up to when it has seen everything (the
 * buffer's "now ts").
 */
#define PR_DOMAIN "flight"
#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "flight.h"
#include "record-internal.h"

#define ZSTD_LEVEL 1

/*
 * The CPU's stats: its lost events, the bytes its buffer holds unread
 * (@unread), and "now ts" (the trace clock now, as
 * "seconds.microseconds", or a raw count for counter clocks) in ns less a
 * millisecond (an event being written now may carry a slightly earlier
 * time). 0 when unknown.
 */
static uint64_t read_stats(struct kmag_recorder *r, int cpu, uint64_t *lost, uint64_t *unread)
{
	char rel[64], *s, *p;
	uint64_t now = 0;

	snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", cpu);
	s = kmag__rec_read(r, rel);
	if (!s)
		return 0;
	*lost = kmag__rec_stat(s, "overrun") + kmag__rec_stat(s, "commit overrun") +
		kmag__rec_stat(s, "dropped events");
	*unread = kmag__rec_stat(s, "bytes");
	p = strstr(s, "now ts:");
	if (p) {
		unsigned long long sec = 0, usec = 0;
		char dot = 0;

		if (sscanf(p + 7, "%llu%c%6llu", &sec, &dot, &usec) >= 1)
			now = dot == '.' ? sec * 1000000000ull + usec * 1000ull : sec;
	}
	free(s);
	return now > 1000000 ? now - 1000000 : 0;
}

/*
 * Is the reader behind the kernel with @bytes in its buffer (the stats'
 * count when a drain starts, or what one splice moved)? At half the CPU's
 * buffer it is (it was woken at buffer_percent), and the kernel would soon
 * overwrite events. Compression, about as costly per event as the tracing
 * itself where CPU is short, then waits: until the buffer ran dry, the
 * drain's blocks are stored as they are (as plain kmag record stores every
 * page).
 */
static bool behind(const struct kmag_recorder *r, uint64_t bytes)
{
	/* (after tracing stopped nothing more comes: the last drain compresses) */
	return r->buffer_kb && bytes >= (uint64_t)r->buffer_kb * 1024 / 2 &&
	       !atomic_load(&r->stopping);
}

/* Closes the block being filled: describe, compress, store, hand over. */
static int close_block(struct kmag_recorder *r, struct rec_cpu *c)
{
	struct fl_state *fl = r->fl;
	struct fl_cpu *f = &fl->cpu[c->index];
	uint32_t len = f->npages * r->page_size;
	struct fl_block b = { 0 };
	size_t z;
	int ret;

	if (!f->npages)
		return 0;
	f->npages = 0;
	if (kmag__fl_describe(&fl->geom, f->blk, len, &b))
		return -EIO;
	if (f->behind) {
		/* the kernel's buffer fills faster than this compresses: a copy instead */
		z = kmag__fl_store_raw(f->z, fl->rings.max_block, f->blk, len);
		if (!z)
			return -EIO;
		atomic_fetch_add_explicit(&fl->stored_raw, len, memory_order_relaxed);
	} else {
		z = ZSTD_compress2(f->zc, f->z, fl->rings.max_block, f->blk, len);
		if (ZSTD_isError(z))
			return -EIO;
	}
	b.csize = (uint32_t)z;
	b.usize = len;
	b.lost = f->lost;
	ret = kmag__fl_append(&fl->rings, c->index, f->z, &b);
	if (ret == -EAGAIN)
		return 0;	/* stopped while the ring was full of a window: dropped */
	if (ret)
		return ret;
	if (fl->ntrig)
		kmag__fl_watch_push(fl, c->index, f->blk, len);
	atomic_fetch_add_explicit(&c->bytes, len, memory_order_relaxed);
	return 0;
}

/* Adds one page (@n bytes, the rest zeroed) to the block. */
static int add_page(struct kmag_recorder *r, struct rec_cpu *c, uint32_t n)
{
	struct fl_cpu *f = &r->fl->cpu[c->index];

	if (n < r->page_size)
		memset(f->blk + (size_t)f->npages * r->page_size + n, 0, r->page_size - n);
	if (++f->npages == FL_BLOCK_PAGES)
		return close_block(r, c);
	return 0;
}

/* Reads @n bytes (whole pages) out of the bounce pipe into blocks. */
static int from_pipe(struct rec_cpu *c, size_t n)
{
	struct kmag_recorder *r = c->r;
	struct fl_cpu *f = &r->fl->cpu[c->index];
	uint32_t ps = r->page_size;
	int ret;

	if (behind(r, n))
		f->behind = true;
	while (n) {
		uint8_t *dst = f->blk + (size_t)f->npages * ps;
		size_t got = 0;

		while (got < ps) {
			ssize_t m = read(c->pipe_rd, dst + got, ps - got);

			if (m < 0 && errno == EINTR)
				continue;
			if (m <= 0)
				return m < 0 ? -errno : -EIO;
			got += (size_t)m;
		}
		n -= n < ps ? n : ps;
		if ((ret = add_page(r, c, ps)))
			return ret;
	}
	return 0;
}

/* Reads what the buffer holds, the partly filled page included. 0 or -errno. */
static int move_partial(struct kmag_recorder *r, struct rec_cpu *c)
{
	struct fl_cpu *f = &r->fl->cpu[c->index];
	int ret;

	for (;;) {
		ssize_t n = read(c->trace_fd, f->blk + (size_t)f->npages * r->page_size,
				 r->page_size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 && errno != EAGAIN ? -errno : 0;
		if ((ret = add_page(r, c, (uint32_t)n)))
			return ret;
	}
}

/*
 * One drain: whole pages, and when @quiet the rest too. Returns the bytes
 * of whole pages moved, or -errno.
 */
static int64_t drain(struct kmag_recorder *r, struct rec_cpu *c, bool quiet)
{
	struct fl_state *fl = r->fl;
	struct fl_cpu *f = &fl->cpu[c->index];
	uint64_t now = 0, lost = f->lost, unread = 0;
	int64_t moved;
	int ret;

	/* the lost count each block carries; and up to when the buffer was read */
	now = read_stats(r, c->cpu, &lost, &unread);
	f->lost = lost;
	f->behind = behind(r, unread);
	moved = kmag__rec_splice_pages(c, from_pipe);
	if (moved < 0)
		return moved;
	if (quiet && (ret = move_partial(r, c)))
		return ret;
	if ((ret = close_block(r, c)))
		return ret;
	/* the buffer ran dry after @now: the watcher has all up to then */
	if (quiet && fl->ntrig && now)
		kmag__fl_watch_hw(fl, c->index, now);
	return moved;
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* The reader loop's step: a drain, the partly filled page too after a quiet period. */
static int64_t step(struct rec_cpu *c, void *ctx)
{
	uint64_t *last = ctx;
	bool quiet = mono_ms() - *last >= REC_POLL_MS;
	int64_t ret = drain(c->r, c, quiet);

	if (ret > 0 || quiet)
		*last = mono_ms();
	return ret;
}

void *kmag__rec_flight_reader(void *arg)
{
	struct rec_cpu *c = arg;
	uint64_t last = mono_ms();
	int64_t ret = kmag__rec_reader_loop(c, step, &last);

	if (ret >= 0)
		ret = drain(c->r, c, true);
	if (ret < 0)
		atomic_store(&c->error, (int)-ret);
	return NULL;
}
