// SPDX-License-Identifier: MIT
/*
 * tracedat-prefetch.c - a compressed trace.dat's zstd chunks read and
 * decompressed on worker threads, ahead of the thread that reads the
 * events (input-tracedat.h: kmag__prefetch_start()).
 *
 * Decompressing is about half of reading a v7 trace (zstd at ~600 MB/s per
 * core against 34 bytes an event), and each chunk decompresses apart. The
 * workers follow each CPU's chain of chunks on their own (a chunk's header
 * gives the place of the next) and keep up to AHEAD of them decompressed
 * per CPU, INFLIGHT in all; the reading thread, which finds the chunks
 * itself as it always did (tracedat-stream.c: refill_chunk()), takes each
 * one's pages from them. All that depends on what was read before (the
 * damage checks and messages, the estimates, the LOST markers, the
 * decoding and its names) stays on the reading thread, so the events are
 * those of one thread. A chunk nobody started is read by the reading
 * thread itself; a header the workers cannot follow ends their part of
 * that CPU there. When the chunk it needs is still being decompressed,
 * the reading thread decompresses one nobody started rather than wait
 * (help()): decompressing is about as much work as all the rest of a v7
 * read, so the two cores share it, each taking the next chunk when free.
 *
 * Our own pool rather than a library's: a few hundred chunks a second whose
 * order of need is known, and pthreads is all it takes.
 */
#define PR_DOMAIN "tracedat"
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "input-tracedat.h"

/*
 * Chunks decompressed ahead per CPU, and of all CPUs (about 50 KB each as
 * trace-cmd writes them: 10 pages and their compressed bytes). Deep enough
 * that a worker rarely finds no room and sleeps while the reading thread
 * helps (4 ahead: the worker slept 900 times a run, and a core idled).
 */
#define AHEAD 16
#define INFLIGHT 32
#define MAX_CHUNK_BYTES (64u << 20)	/* as tracedat-stream.c */

unsigned kmag__prefetch_test_pause_us;
unsigned long kmag__prefetch_test_helped;

enum { SLOT_BUSY, SLOT_READY };

/* One chunk: claimed by a worker, then read and decompressed. */
struct slot {
	struct slot *next;
	uint64_t pos;		/* file offset of its compressed bytes */
	uint32_t csize, usize;
	int cpu;
	int state;
	int ret;		/* 0, 1 (does not decompress: zerr), -errno (err) */
	struct kmag_err err, zerr;
	uint8_t *buf, *cbuf;	/* its pages; its compressed bytes */
	size_t buf_cap, cbuf_cap;
};

/* Where the workers are in one CPU's chunks. */
struct pstream {
	int cpu;
	uint64_t pos, end;	/* the next chunk's header; the end of the CPU's data */
	bool done;		/* no chunk left that the workers can find */
	struct slot *head, *tail;	/* claimed, in file order */
	int n;
};

struct kmag__prefetch {
	struct tracedat_input *in;
	pthread_mutex_t lock;
	pthread_cond_t work;	/* room ahead, or stop */
	pthread_cond_t ready;	/* a chunk is decompressed */
	struct pstream *ps;
	int n, next;		/* CPUs; the one to look at first */
	struct slot *spare;
	int inflight;		/* claimed and not yet taken, of all CPUs */
	bool stop;
	pthread_t *th;
	int nr_th;
};

/* Reads @len bytes at @off without counting them (headers: the reading thread counts its own). */
static bool read_at(const struct tracedat *td, void *dst, size_t len, uint64_t off)
{
	uint8_t *p = dst;

	while (len) {
		ssize_t n = pread(td->fd, p, len, (off_t)off);

		if (n <= 0)
			return false;
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return true;
}

/*
 * Claims the next chunk of some CPU that has room ahead (under the lock):
 * its header read and checked as refill_chunk() checks it. NULL when there
 * is none (or no memory for a slot: then the reading thread reads).
 */
static struct slot *claim(struct kmag__prefetch *pf)
{
	const struct tracedat_input *in = pf->in;
	int k;

	for (k = 0; k < pf->n; k++) {
		struct pstream *ps = &pf->ps[(pf->next + k) % pf->n];

		while (!ps->done && ps->n < AHEAD && pf->inflight < INFLIGHT) {
			uint8_t h[8];
			uint32_t csize, usize;
			struct slot *sl;

			if (ps->end - ps->pos < sizeof(h) || !read_at(&in->td, h, sizeof(h), ps->pos)) {
				ps->done = true;
				break;
			}
			csize = td_get32(&in->td, h);
			usize = td_get32(&in->td, h + 4);
			if (csize > ps->end - ps->pos - sizeof(h) || usize > MAX_CHUNK_BYTES ||
			    usize % in->geom.page_size) {
				ps->done = true;
				break;
			}
			ps->pos += sizeof(h);
			if (!usize) {
				ps->pos += csize;
				continue;
			}
			if (pf->spare) {
				sl = pf->spare;
				pf->spare = sl->next;
			} else if (!(sl = calloc(1, sizeof(*sl)))) {
				ps->done = true;
				break;
			}
			sl->next = NULL;
			sl->pos = ps->pos;
			sl->csize = csize;
			sl->usize = usize;
			sl->cpu = ps->cpu;
			sl->state = SLOT_BUSY;
			ps->pos += csize;
			if (ps->tail)
				ps->tail->next = sl;
			else
				ps->head = sl;
			ps->tail = sl;
			ps->n++;
			pf->inflight++;
			pf->next = (int)(ps - pf->ps + 1) % pf->n;
			return sl;
		}
	}
	return NULL;
}

/* Reads and decompresses @sl (without the lock), as refill_chunk() would. */
static void fill(struct kmag__prefetch *pf, struct slot *sl, void **zctx)
{
	struct tracedat *td = &pf->in->td;
	char what[64];

	sl->ret = 0;
	if (kmag__grow(&sl->cbuf, &sl->cbuf_cap, sl->csize ? sl->csize : 1, 1) ||
	    kmag__grow(&sl->buf, &sl->buf_cap, sl->usize, 1)) {
		sl->ret = kmag_err_set(&sl->err, ENOMEM, "out of memory");
		return;
	}
	sl->ret = kmag__tracedat_pread(td, sl->cbuf, sl->csize, sl->pos, "compressed chunk",
				       &sl->err);
	if (sl->ret)
		return;
	snprintf(what, sizeof(what), "CPU %d chunk at offset %llu", sl->cpu,
		 (unsigned long long)(sl->pos - 8));
	sl->ret = kmag__zstd_decompress(zctx, sl->cbuf, sl->csize, sl->buf, sl->usize, what,
					&sl->zerr) ? 1 : 0;
}

static void *worker_main(void *arg)
{
	struct kmag__prefetch *pf = arg;
	void *zctx = NULL;

	pthread_mutex_lock(&pf->lock);
	while (!pf->stop) {
		struct slot *sl = claim(pf);

		if (!sl) {
			pthread_cond_wait(&pf->work, &pf->lock);
			continue;
		}
		pthread_mutex_unlock(&pf->lock);
		if (kmag__prefetch_test_pause_us) {
			struct timespec nap = { kmag__prefetch_test_pause_us / 1000000,
						(long)(kmag__prefetch_test_pause_us % 1000000) * 1000 };

			nanosleep(&nap, NULL);
		}
		fill(pf, sl, &zctx);
		pthread_mutex_lock(&pf->lock);
		sl->state = SLOT_READY;
		pthread_cond_broadcast(&pf->ready);
	}
	pthread_mutex_unlock(&pf->lock);
	kmag__zstd_free(zctx);
	return NULL;
}

/* Takes the oldest chunk @sl of @ps off it, to the spare ones (under the lock). */
static void slot_drop(struct kmag__prefetch *pf, struct pstream *ps, struct slot *sl)
{
	ps->head = sl->next;
	if (!ps->head)
		ps->tail = NULL;
	ps->n--;
	pf->inflight--;
	sl->next = pf->spare;
	pf->spare = sl;
	pthread_cond_signal(&pf->work);
}

/*
 * The reading thread waits for a chunk a worker is decompressing: rather
 * than sleep until it is done (a sleep and a wake-up per chunk whenever
 * the workers are the slower, a core idle meanwhile), it decompresses one
 * nobody started, as a worker would (under the lock, left while it
 * works). Returns whether it did.
 */
static bool help(struct kmag__prefetch *pf)
{
	struct slot *sl = claim(pf);

	if (!sl)
		return false;
	pthread_mutex_unlock(&pf->lock);
	fill(pf, sl, &pf->in->td.zctx);
	pthread_mutex_lock(&pf->lock);
	sl->state = SLOT_READY;
	__atomic_fetch_add(&kmag__prefetch_test_helped, 1, __ATOMIC_RELAXED);
	return true;
}

int kmag__prefetch_take(struct tracedat_input *in, struct cpu_stream *s, uint64_t pos,
			uint32_t csize, uint32_t usize, int *ret, struct kmag_err *zerr)
{
	struct kmag__prefetch *pf = in->pf;
	struct pstream *ps = &pf->ps[s - in->streams];
	struct slot *sl;
	uint8_t *b;
	size_t cap;

	pthread_mutex_lock(&pf->lock);
	for (;;) {
		sl = ps->head;
		if (sl && sl->state != SLOT_READY && sl->pos <= pos) {
			if (!help(pf))
				pthread_cond_wait(&pf->ready, &pf->lock);
			continue;
		}
		if (!sl || sl->pos >= pos)
			break;
		/* a chunk the reading thread read itself, claimed late: dropped */
		slot_drop(pf, ps, sl);
	}
	if (!sl || sl->pos != pos || sl->usize != usize || sl->csize != csize) {
		/*
		 * Not claimed (the workers are behind, or stopped at a header):
		 * the caller reads it, and the workers go on after it (the
		 * chunks between are empty ones, or read by the caller).
		 */
		if (!sl && !ps->done && ps->pos + 8 <= pos)
			ps->pos = pos + csize;
		pthread_mutex_unlock(&pf->lock);
		return 0;
	}
	ps->head = sl->next;
	if (!ps->head)
		ps->tail = NULL;
	ps->n--;
	pf->inflight--;
	*ret = sl->ret;
	if (sl->ret < 0)
		kmag_err_set(in->err, sl->err.code, "%s", sl->err.msg);
	else if (sl->ret)
		*zerr = sl->zerr;
	else {
		/* the pages change hands: the slot keeps the stream's old buffer */
		b = s->buf;
		cap = s->buf_cap;
		s->buf = sl->buf;
		s->buf_cap = sl->buf_cap;
		sl->buf = b;
		sl->buf_cap = cap;
	}
	sl->next = pf->spare;
	pf->spare = sl;
	/*
	 * The workers are woken when half the chunks ahead are taken, not at
	 * each: then one wakes to decompress several, and a wake-up per chunk
	 * (two context switches, a fifth more CPU time than one thread) is not
	 * paid. The chunks still ahead keep the reading thread busy meanwhile.
	 */
	if ((ps->n <= AHEAD / 2 && !ps->done) || pf->inflight == INFLIGHT / 2)
		pthread_cond_signal(&pf->work);
	pthread_mutex_unlock(&pf->lock);
	return 1;
}

static void slots_free(struct slot *sl)
{
	while (sl) {
		struct slot *next = sl->next;

		free(sl->buf);
		free(sl->cbuf);
		free(sl);
		sl = next;
	}
}

void kmag__prefetch_stop(struct tracedat_input *in)
{
	struct kmag__prefetch *pf = in->pf;
	int i;

	if (!pf)
		return;
	pthread_mutex_lock(&pf->lock);
	pf->stop = true;
	pthread_cond_broadcast(&pf->work);
	pthread_mutex_unlock(&pf->lock);
	for (i = 0; i < pf->nr_th; i++)
		pthread_join(pf->th[i], NULL);
	for (i = 0; pf->ps && i < pf->n; i++)
		slots_free(pf->ps[i].head);
	slots_free(pf->spare);
	free(pf->ps);
	free(pf->th);
	pthread_cond_destroy(&pf->ready);
	pthread_cond_destroy(&pf->work);
	pthread_mutex_destroy(&pf->lock);
	free(pf);
	in->pf = NULL;
}

int kmag__prefetch_start(struct tracedat_input *in, unsigned threads, struct kmag_err *err)
{
	struct kmag__prefetch *pf = calloc(1, sizeof(*pf));
	int i, ret, workers = (int)(threads > KMAG_MAX_THREADS ? KMAG_MAX_THREADS : threads) - 1;

	if (!pf)
		return kmag_err_set(err, ENOMEM, "out of memory");
	pthread_mutex_init(&pf->lock, NULL);
	pthread_cond_init(&pf->work, NULL);
	pthread_cond_init(&pf->ready, NULL);
	pf->in = in;
	in->pf = pf;
	pf->n = in->nr_streams;
	pf->ps = calloc((size_t)pf->n, sizeof(*pf->ps));
	pf->th = calloc((size_t)workers, sizeof(*pf->th));
	if (!pf->ps || !pf->th) {
		kmag__prefetch_stop(in);
		return kmag_err_set(err, ENOMEM, "out of memory");
	}
	for (i = 0; i < pf->n; i++) {
		/* where the stream is now: at the start of its chunks */
		pf->ps[i].cpu = in->streams[i].cpu;
		pf->ps[i].pos = in->streams[i].pos;
		pf->ps[i].end = in->streams[i].end;
	}
	for (i = 0; i < workers; i++) {
		ret = pthread_create(&pf->th[i], NULL, worker_main, pf);
		if (ret) {
			kmag__prefetch_stop(in);
			return kmag_err_set(err, ret, "cannot start a reader thread: %s", strerror(ret));
		}
		pf->nr_th++;
	}
	return 0;
}
