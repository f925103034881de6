// SPDX-License-Identifier: MIT
/*
 * tracedat-seek.c - reading a time window of a trace.dat without reading
 * what comes before it (kmag_trace_set_window(), issue 25).
 *
 * Each ring-buffer page starts with the time of its first event, and a
 * CPU's pages follow each other in time: its events before a page are not
 * later than that page's start. So a CPU's stream can go on from the last
 * page that starts before the window, found by a binary search over the
 * page starts: v6 keeps each CPU's pages in one flat array (a page header
 * read per probe); v7 keeps them in a chain of zstd chunks that decompress
 * apart, whose headers are walked (8 bytes each) and whose first page is
 * decompressed per probe. One page (chunk) of margin before it costs little
 * and keeps the window's first events where a page's start is late (a page
 * begun by a nested event). The events before the window are left out
 * either way (input-tracedat.c), so what is delivered is the same as when
 * every page is read ($KMAG_SEEK=scan): only less is read.
 *
 * A page of unknown start (empty: its time may be stale; a commit that
 * cannot be; a chunk that does not decompress; a time before the CPU's
 * first event or past the recording's end, damaged) counts as late: the
 * search goes back from it, which reads more, never less.
 */
#define PR_DOMAIN "tracedat"
#include <stdio.h>

#include "input-tracedat.h"

#define MAX_CHUNK_BYTES (64u << 20)	/* as tracedat-stream.c */

size_t kmag__seek_search(size_t lo, size_t hi, uint64_t from,
			 uint64_t (*start)(void *ctx, size_t i), void *ctx)
{
	size_t a = lo, b = hi;

	/* a: a place known to start before @from (or where the reader is); b: one that does not */
	while (b - a > 1) {
		size_t m = a + (b - a) / 2;
		uint64_t ts = start(ctx, m);

		if (ts != KMAG_TS_NONE && ts < from)
			a = m;
		else
			b = m;
	}
	return a;
}

/* One probe of the search: the stream and what it read. */
struct probe {
	struct tracedat_input *in;
	struct cpu_stream *s;
	uint64_t *chunks;	/* v7: the headers' offsets, after the current chunk */
	uint32_t *nth;		/* v7: how many headers (empty chunks too) come before each */
	size_t nr, cap, cap_nth;
	uint8_t *cbuf, *buf;	/* v7: one chunk, compressed and not */
	size_t cbuf_cap, buf_cap;
};

/* The start time of the page at @page (page_hdr bytes), KMAG_TS_NONE when unknown. */
static uint64_t page_start(const struct probe *p, const uint8_t *page)
{
	const struct kmag_page_geom *g = &p->in->geom;
	uint64_t size = kmag__page_commit(g, page) & RB_COMMIT_MASK, ts;

	if (!size || size > g->page_size - g->page_hdr)
		return KMAG_TS_NONE;
	ts = kmag__pg_get64(g, page);
	return ts < p->s->tc.prev || ts > p->s->tc.end ? KMAG_TS_NONE : ts;
}

/* v6: page @i of the CPU's data. */
static uint64_t v6_start(void *ctx, size_t i)
{
	const struct probe *p = ctx;
	const struct kmag_page_geom *g = &p->in->geom;
	uint8_t h[16];

	if (kmag__tracedat_pread(&p->in->td, h, g->page_hdr, p->s->start + i * g->page_size,
				 "CPU data", NULL))
		return KMAG_TS_NONE;
	return page_start(p, h);
}

/* v7: chunk @i (0: the current one, which the reader is in; i: chunks[i - 1]). */
static uint64_t v7_start(void *ctx, size_t i)
{
	struct probe *p = ctx;
	struct tracedat *td = &p->in->td;
	uint64_t off = p->chunks[i - 1], ts = KMAG_TS_NONE;
	uint32_t csize, usize, k;
	uint8_t h[8];

	if (kmag__tracedat_pread(td, h, sizeof(h), off, "compressed chunk header", NULL))
		return KMAG_TS_NONE;
	csize = td_get32(td, h);
	usize = td_get32(td, h + 4);
	if (kmag__grow(&p->cbuf, &p->cbuf_cap, csize ? csize : 1, 1) ||
	    kmag__grow(&p->buf, &p->buf_cap, usize, 1) ||
	    kmag__tracedat_pread(td, p->cbuf, csize, off + sizeof(h), "compressed chunk", NULL) ||
	    kmag__tracedat_decompress(td, p->cbuf, csize, p->buf, usize, "chunk", NULL))
		return KMAG_TS_NONE;
	/* its first page with records (the chunk's first may be empty) */
	for (k = 0; k + p->in->geom.page_size <= usize && ts == KMAG_TS_NONE;
	     k += p->in->geom.page_size)
		ts = page_start(p, p->buf + k);
	return ts;
}

/* v6: the page to go on from, as an offset of the CPU's data; 0: stay. */
static uint64_t v6_target(struct probe *p, uint64_t from)
{
	const struct cpu_stream *s = p->s;
	uint32_t ps = p->in->geom.page_size;
	size_t cur = (size_t)((s->page_file_off - s->start) / ps), n = (size_t)((s->end - s->start) / ps);
	size_t a;

	if (cur >= n)
		return 0;
	a = kmag__seek_search(cur, n, from, v6_start, p);
	/* one page of margin, never back to or before where the reader is */
	return a > cur + 1 ? s->start + (uint64_t)(a - 1) * ps : 0;
}

/* v7: every this many chunks of the chain, one is decompressed to see if the window is passed. */
#define CHAIN_PROBE 256

/*
 * v7: the chain of chunk headers after the current chunk, as refill_chunk()
 * follows it (empty chunks are passed, a header that cannot be ends it), up
 * to a chunk that starts at or after @from (looked at every CHAIN_PROBE
 * chunks: the walk stops soon after the window's start). 0 or -ENOMEM.
 */
static int v7_chain(struct probe *p, uint64_t from)
{
	struct tracedat_input *in = p->in;
	uint64_t pos = p->s->pos, end = p->s->end;
	uint32_t nth = 0;

	while (end - pos >= 8) {
		uint32_t csize, usize;
		uint8_t h[8];

		if (kmag__tracedat_pread(&in->td, h, sizeof(h), pos, "compressed chunk header", NULL))
			break;
		csize = td_get32(&in->td, h);
		usize = td_get32(&in->td, h + 4);
		if (csize > end - pos - sizeof(h) || usize > MAX_CHUNK_BYTES ||
		    usize % in->geom.page_size)
			break;
		if (usize) {
			if (kmag__grow(&p->chunks, &p->cap, p->nr + 1, sizeof(*p->chunks)) ||
			    kmag__grow(&p->nth, &p->cap_nth, p->nr + 1, sizeof(*p->nth)))
				return -ENOMEM;
			p->chunks[p->nr] = pos;
			p->nth[p->nr++] = nth;
			if (!(p->nr % CHAIN_PROBE)) {
				uint64_t ts = v7_start(p, p->nr);

				if (ts != KMAG_TS_NONE && ts >= from)
					break;
			}
		}
		nth++;
		pos += sizeof(h) + csize;
	}
	return 0;
}

/* Forgets what @s had read: it reads on from s->pos. */
static void stream_reset(struct cpu_stream *s)
{
	memset(&s->walk, 0, sizeof(s->walk));
	s->buf_off = s->buf_len = 0;
	s->cut = 0;
	s->stored = s->page_done = s->run = false;
	s->gap = false;	/* a LOST marker due before the window: left out as any before it */
	s->have = false;
}

int kmag__stream_seek(struct tracedat_input *in, struct cpu_stream *s, uint64_t from)
{
	struct probe p = { .in = in, .s = s };
	uint64_t to = 0;
	size_t a;
	int ret = 0;

	if (!s->compressed) {
		to = v6_target(&p, from);
	} else if (!(ret = v7_chain(&p, from)) && p.nr) {
		a = kmag__seek_search(0, p.nr + 1, from, v7_start, &p);
		if (a > 1) {
			to = p.chunks[a - 2];
			/* the headers passed, as refill_chunk() would have counted them */
			if (!s->count_short)
				s->chunks_left = s->chunks_left > p.nth[a - 2] ?
							 s->chunks_left - p.nth[a - 2] : 0;
		}
	}
	free(p.chunks);
	free(p.nth);
	free(p.cbuf);
	free(p.buf);
	if (ret)
		return kmag_err_set(in->err, ENOMEM, "out of memory");
	if (!to)
		return 0;
	s->pos = to;
	stream_reset(s);
	ret = kmag__stream_next(in, s);
	s->have = ret > 0;
	return ret < 0 ? ret : 0;
}
