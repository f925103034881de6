// SPDX-License-Identifier: MIT
/*
 * flight-ring.c - the flight recorder's rings on disk (see flight.h).
 *
 * Each recorded CPU has a file of SIZE/CPUs bytes, allocated when the
 * recording starts, written circularly with compressed blocks: a block goes
 * at the head, or at the start of the file when it does not fit before its
 * end, and the oldest blocks in its way are dropped. Block boundaries and
 * their times live in memory only: a ring is readable by the process that
 * writes it, and removed at its end (after a SIGKILL the next kmag record
 * removes it, as every temporary file of a killed run).
 *
 * Our own rather than a library's: no library keeps a bounded, per-CPU,
 * time-ordered store of trace-cmd chunks; the chunks themselves are zstd's
 * and the file that comes out is written by tracedat-write.c.
 */
#define PR_DOMAIN "flight"
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <zstd.h>

#include "flight.h"
#include "internal.h"
#include "kmag/event.h"
#include "util/files.h"
#include "util/grow.h"

uint32_t kmag__fl_max_block(uint32_t page_size)
{
	return (uint32_t)ZSTD_compressBound((size_t)page_size * FL_BLOCK_PAGES);
}

size_t kmag__fl_store_raw(void *dst, size_t cap, const void *src, size_t len)
{
	/* RFC 8878: magic, a descriptor (no content size, no checksum), a 128 KiB window */
	static const uint8_t head[] = { 0x28, 0xb5, 0x2f, 0xfd, 0x00, 7 << 3 };
	const size_t max = 128u << 10;	/* a block: at most the window */
	uint8_t *d = dst;
	size_t at = sizeof(head), done = 0;

	if (cap < sizeof(head) + 3 + len + 3 * (len / max))
		return 0;
	memcpy(d, head, sizeof(head));
	do {
		size_t n = len - done < max ? len - done : max;
		/* the block header: last-block bit, type 0 (raw), size */
		uint32_t h = (uint32_t)(n << 3) | (done + n == len);

		d[at] = (uint8_t)h;
		d[at + 1] = (uint8_t)(h >> 8);
		d[at + 2] = (uint8_t)(h >> 16);
		memcpy(d + at + 3, (const uint8_t *)src + done, n);
		at += 3 + n;
		done += n;
	} while (done < len);
	return at;
}

static struct fl_block *blk(struct fl_ring *r, size_t i)
{
	return &r->b[(r->first + i) % r->capb];
}

int kmag__fl_check_size(uint64_t size, int n, uint32_t page_size, struct kmag_err *err)
{
	uint32_t mb = kmag__fl_max_block(page_size);

	if (n > 0 && size / (uint64_t)n >= mb)
		return 0;
	return kmag_err_set(err, EINVAL,
			    "--flight %lluK is smaller than one block per CPU (%d CPUs x %u KiB: a block is %d pages, compressed): give at least --flight %lluK",
			    (unsigned long long)(size >> 10), n, (mb + 1023) >> 10, FL_BLOCK_PAGES,
			    ((unsigned long long)mb * (uint64_t)(n > 0 ? n : 1) + 1023) >> 10);
}

int kmag__fl_rings_init(struct fl_rings *fr, const char *base, const int *cpus, int n,
			uint64_t size, uint32_t page_size, struct kmag_err *err)
{
	uint64_t cap = n > 0 ? size / (uint64_t)n : 0;
	int i, e;

	memset(fr, 0, sizeof(*fr));
	fr->max_block = kmag__fl_max_block(page_size);
	fr->pin_ts = UINT64_MAX;
	if (kmag__fl_check_size(size, n, page_size, err))
		return -EINVAL;
	fr->r = calloc((size_t)n, sizeof(*fr->r));
	if (!fr->r)
		return kmag_err_set(err, ENOMEM, "out of memory");
	pthread_mutex_init(&fr->lock, NULL);
	pthread_cond_init(&fr->cond, NULL);
	fr->inited = true;
	fr->n = n;
	for (i = 0; i < n; i++) {
		struct fl_ring *r = &fr->r[i];

		r->cpu = cpus[i];
		r->fd = -1;
		r->cap = cap;
		r->copy_seq = UINT64_MAX;
		if (asprintf(&r->path, "%s-ring-cpu%d", base, cpus[i]) < 0) {
			r->path = NULL;
			return kmag_err_set(err, ENOMEM, "out of memory");
		}
		r->fd = kmag__create_file(r->path, 0600);
		if (r->fd < 0)
			return kmag_err_set(err, errno, "cannot create %s: %s", r->path,
					    strerror(errno));
		/* the room it will use, taken now: a full disk later cannot stop the ring */
		e = posix_fallocate(r->fd, 0, (off_t)cap);
		if (e == ENOSPC || e == EDQUOT)
			return kmag_err_set(err, ENOSPC,
					    "no room for the flight recorder's rings next to %s: they need %llu KiB (--flight); free space there or record elsewhere (-o)",
					    base, (unsigned long long)((cap * (uint64_t)n) >> 10));
		if (e && ftruncate(r->fd, (off_t)cap))
			return kmag_err_set(err, errno, "cannot size %s: %s", r->path,
					    strerror(errno));
	}
	return 0;
}

void kmag__fl_rings_release(struct fl_rings *fr)
{
	int i;

	if (!fr->inited)
		return;
	for (i = 0; i < fr->n; i++) {
		struct fl_ring *r = &fr->r[i];

		if (r->fd >= 0)
			close(r->fd);
		if (r->path)
			unlink(r->path);
		free(r->path);
		free(r->b);
	}
	free(fr->r);
	pthread_mutex_destroy(&fr->lock);
	pthread_cond_destroy(&fr->cond);
	memset(fr, 0, sizeof(*fr));
}

/* May the oldest block of @r go? Not while a pin or a copy needs it. */
static bool droppable(const struct fl_rings *fr, struct fl_ring *r)
{
	const struct fl_block *b = blk(r, 0);

	return b->seq < r->copy_seq && (b->first_ts == KMAG_TS_NONE || b->last_ts < fr->pin_ts);
}

static void drop_oldest(struct fl_ring *r)
{
	struct fl_block *b = blk(r, 0);

	if (b->first_ts != KMAG_TS_NONE && b->last_ts > r->dropped_upto)
		r->dropped_upto = b->last_ts;
	r->lost_dropped = b->lost;
	r->first = (r->first + 1) % r->capb;
	r->count--;
}

/* Does the oldest block lie in [@off, @end), or (after a wrap) at or past @tail? */
static bool in_the_way(struct fl_ring *r, uint64_t off, uint64_t end, uint64_t tail)
{
	const struct fl_block *b = blk(r, 0);

	return (b->off < end && b->off + b->csize > off) || b->off >= tail;
}

/*
 * Under the lock: makes room for @csize bytes in @r, returns where (or
 * UINT64_MAX when a pinned or copied block is in the way).
 */
static uint64_t make_room(struct fl_rings *fr, struct fl_ring *r, uint32_t csize)
{
	uint64_t off = r->head, tail = UINT64_MAX;

	if (off + csize > r->cap) {
		/* wrap: what lies between the head and the end is the oldest */
		tail = off;
		off = 0;
	}
	while (r->count && in_the_way(r, off, off + csize, tail)) {
		if (!droppable(fr, r))
			return UINT64_MAX;
		drop_oldest(r);
	}
	return off;
}

int kmag__fl_append(struct fl_rings *fr, int i, const void *z, const struct fl_block *meta)
{
	struct fl_ring *r = &fr->r[i];
	struct fl_block *b;
	uint64_t off;
	ssize_t n;
	size_t done = 0;

	if (meta->csize > fr->max_block || meta->csize > r->cap)
		return -EFBIG;
	pthread_mutex_lock(&fr->lock);
	while ((off = make_room(fr, r, meta->csize)) == UINT64_MAX) {
		if (fr->stopping) {
			pthread_mutex_unlock(&fr->lock);
			return -EAGAIN;
		}
		fr->blocked = true;
		pthread_cond_wait(&fr->cond, &fr->lock);
	}
	if (r->count == r->capb &&
	    kmag__grow(&r->b, &r->capb, r->capb + 1, sizeof(*r->b)) == 0 && r->first) {
		/* unwrap the deque into the grown array */
		size_t old = r->count, k;
		struct fl_block *v = malloc(r->capb * sizeof(*v));

		if (!v) {
			pthread_mutex_unlock(&fr->lock);
			return -ENOMEM;
		}
		for (k = 0; k < old; k++)
			v[k] = r->b[(r->first + k) % old];
		free(r->b);
		r->b = v;
		r->first = 0;
	}
	if (r->count == r->capb) {
		pthread_mutex_unlock(&fr->lock);
		return -ENOMEM;
	}
	r->head = off + meta->csize;
	pthread_mutex_unlock(&fr->lock);
	/* [off, off + csize) is no block's now, and no snapshot reads it */
	while (done < meta->csize) {
		n = pwrite(r->fd, (const uint8_t *)z + done, meta->csize - done,
			   (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		done += (size_t)n;
	}
	pthread_mutex_lock(&fr->lock);
	b = blk(r, r->count++);
	*b = *meta;
	b->seq = r->next_seq++;
	b->off = off;
	pthread_mutex_unlock(&fr->lock);
	return 0;
}

void kmag__fl_pin(struct fl_rings *fr, uint64_t ts)
{
	pthread_mutex_lock(&fr->lock);
	fr->pin_ts = ts == KMAG_TS_NONE ? UINT64_MAX : ts;
	if (fr->pin_ts == UINT64_MAX) {
		fr->blocked = false;
		pthread_cond_broadcast(&fr->cond);
	}
	pthread_mutex_unlock(&fr->lock);
}

bool kmag__fl_blocked(struct fl_rings *fr)
{
	bool b;

	pthread_mutex_lock(&fr->lock);
	b = fr->blocked;
	pthread_mutex_unlock(&fr->lock);
	return b;
}

void kmag__fl_stop(struct fl_rings *fr)
{
	if (!fr->inited)
		return;
	pthread_mutex_lock(&fr->lock);
	fr->stopping = true;
	pthread_cond_broadcast(&fr->cond);
	pthread_mutex_unlock(&fr->lock);
}

static void part_add(struct fl_part *p, const struct fl_block *b)
{
	p->chunks[p->nr++] = (struct tdw_chunk){ b->off, b->csize, b->usize };
	p->events += b->events;
	p->missing += b->missing;
	p->bytes += b->usize;
	if (b->first_ts != KMAG_TS_NONE) {
		if (p->first_ts == KMAG_TS_NONE || b->first_ts < p->first_ts)
			p->first_ts = b->first_ts;
		if (p->last_ts == KMAG_TS_NONE || b->last_ts > p->last_ts)
			p->last_ts = b->last_ts;
	}
}

int kmag__fl_window(struct fl_rings *fr, struct fl_window *w)
{
	int i;

	memset(w, 0, sizeof(*w));
	w->first_ts = w->last_ts = KMAG_TS_NONE;
	w->parts = calloc((size_t)fr->n + 1, sizeof(*w->parts));
	if (!w->parts)
		return -ENOMEM;
	w->n = fr->n;
	pthread_mutex_lock(&fr->lock);
	for (i = 0; i < fr->n; i++)
		if (fr->r[i].dropped_upto > w->start_ts)
			w->start_ts = fr->r[i].dropped_upto;
	for (i = 0; i < fr->n; i++) {
		struct fl_ring *r = &fr->r[i];
		struct fl_part *p = &w->parts[i];
		uint64_t lost_before = r->lost_dropped;
		size_t k;

		p->cpu = r->cpu;
		p->first_ts = p->last_ts = KMAG_TS_NONE;
		p->chunks = calloc(r->count + 1, sizeof(*p->chunks));
		if (!p->chunks) {
			pthread_mutex_unlock(&fr->lock);
			kmag__fl_window_release(fr, w);
			return -ENOMEM;
		}
		for (k = 0; k < r->count; k++) {
			const struct fl_block *b = blk(r, k);

			/* what another CPU's ring no longer covers is left out here too */
			if (w->start_ts && (b->first_ts == KMAG_TS_NONE || b->last_ts < w->start_ts)) {
				lost_before = b->lost;
				continue;
			}
			if (!p->nr)
				r->copy_seq = b->seq;
			part_add(p, b);
			p->lost = b->lost - lost_before;
		}
		w->events += p->events;
		w->lost += p->lost;
		w->missing += p->missing;
		w->bytes += p->bytes;
		if (p->first_ts != KMAG_TS_NONE) {
			if (w->first_ts == KMAG_TS_NONE || p->first_ts < w->first_ts)
				w->first_ts = p->first_ts;
			if (w->last_ts == KMAG_TS_NONE || p->last_ts > w->last_ts)
				w->last_ts = p->last_ts;
		}
	}
	pthread_mutex_unlock(&fr->lock);
	return 0;
}

void kmag__fl_window_release(struct fl_rings *fr, struct fl_window *w)
{
	int i;

	pthread_mutex_lock(&fr->lock);
	for (i = 0; i < fr->n; i++)
		fr->r[i].copy_seq = UINT64_MAX;
	fr->blocked = false;
	pthread_cond_broadcast(&fr->cond);
	pthread_mutex_unlock(&fr->lock);
	for (i = 0; w->parts && i < w->n; i++)
		free(w->parts[i].chunks);
	free(w->parts);
	memset(w, 0, sizeof(*w));
}

int kmag__fl_write(struct fl_rings *fr, const struct fl_window *w, int fd, uint32_t page_size,
		   const struct tdw_meta *m, struct tdw_tail *t, struct kmag_err *err)
{
	struct tdw_cpu *cpus = calloc((size_t)t->nr_cpus + 1, sizeof(*cpus));
	struct tdw tw;
	int i, ret;

	if (!cpus)
		return kmag_err_set(err, ENOMEM, "out of memory");
	for (i = 0; i < t->nr_cpus; i++)
		cpus[i].fd = -1;
	for (i = 0; i < w->n; i++) {
		const struct fl_part *p = &w->parts[i];

		if (p->cpu < 0 || p->cpu >= t->nr_cpus || !p->nr)
			continue;
		cpus[p->cpu] = (struct tdw_cpu){ fr->r[i].fd, p->bytes, p->chunks, p->nr };
	}
	t->cpus = cpus;
	ret = kmag__tdw_begin(&tw, fd, 7, true, page_size, err);
	if (!ret)
		ret = kmag__tdw_metadata(&tw, m);
	if (!ret)
		ret = kmag__tdw_finish(&tw, t);
	kmag__tdw_release(&tw);
	t->cpus = NULL;
	free(cpus);
	return ret;
}

int kmag__fl_describe(const struct kmag_page_geom *g, const uint8_t *pages, size_t len,
		      struct fl_block *b)
{
	size_t off;

	b->first_ts = b->last_ts = KMAG_TS_NONE;
	b->events = b->missing = 0;
	for (off = 0; off + g->page_size <= len; off += g->page_size) {
		struct kmag_page_walk pw;
		struct kmag_page_info info;
		const uint8_t *payload;
		const char *why;
		uint32_t plen;
		int r;

		if (kmag__page_load(g, &pw, pages + off, &info, &why))
			return -EINVAL;
		b->missing += info.missing;
		while ((r = kmag__page_next(g, &pw, &payload, &plen, &why)) > 0) {
			if (b->first_ts == KMAG_TS_NONE)
				b->first_ts = pw.ts;
			b->last_ts = pw.ts;
			b->events++;
		}
		if (r < 0)
			return -EINVAL;
	}
	return 0;
}
