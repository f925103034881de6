// SPDX-License-Identifier: MIT
/*
 * tracedat-stream.c - one CPU's data of a trace.dat as a stream of events:
 * blocks of pages (or zstd chunks), each page walked record by record
 * (pagewalk.h), each record decoded (decode.c) and its times checked
 * (damage.h).
 *
 * Damaged data is skipped, the rest read, each place said through
 * kmag__damage() (issue 23): a record whose ring-buffer header is sound but
 * whose contents cannot be read is skipped alone (its length is known, as
 * kbuffer walks on past it); a record whose length cannot be, with the rest
 * of its page (where the next one starts is lost); a zstd chunk that does
 * not decompress, whole. The kernel leaves the unused rest of a page zero
 * (ring_buffer_read_page()), so a page whose commit (its data's length) was
 * damaged is read up to where its records end. Strict reading turns the
 * first damaged place into the error.
 */
#define PR_DOMAIN "tracedat"
#include <stdio.h>

#include "input-tracedat.h"

#define STREAM_BUF_PAGES 64	/* pages read per pread() for uncompressed data */
#define MAX_CHUNK_BYTES (64u << 20)

static inline uint32_t rd32(const struct tracedat_input *in, const uint8_t *p)
{
	return td_get32(&in->td, p);
}

static inline uint64_t rd64(const struct tracedat_input *in, const uint8_t *p)
{
	return td_get64(&in->td, p);
}

/* The bytes a page holds after its header. */
static inline uint32_t page_room(const struct tracedat_input *in)
{
	return in->geom.page_size - in->geom.page_hdr;
}

/* Where byte @at of the current page's records lies, for the messages. */
static struct kmag__where where_in_page(const struct tracedat_input *in,
					const struct cpu_stream *s, uint32_t at)
{
	struct kmag__where w = { .cpu = s->cpu, .offset = s->page_file_off };

	if (s->compressed) {
		w.in_chunk = true;
		w.chunk_pos = s->page_pos + in->geom.page_hdr + at;
	} else {
		w.offset += in->geom.page_hdr + at;
	}
	return w;
}

/* Records of @s read so far: the trace counts them as it delivers them, the rest @s. */
static inline uint64_t records(const struct tracedat_input *in, const struct cpu_stream *s)
{
	return (s->cpu < in->t->info.nr_cpus ? in->t->cpus[s->cpu].events : 0) + s->outside;
}

/* The events @bytes of this CPU held, from the mean record size read so far. */
static uint64_t estimate(const struct tracedat_input *in, const struct cpu_stream *s,
			 uint64_t bytes)
{
	uint64_t all_bytes = 0, all_records = 0;
	int i;

	for (i = 0; i < in->nr_streams; i++) {
		all_bytes += in->streams[i].walked;
		all_records += records(in, &in->streams[i]);
	}
	return kmag__damage_estimate(bytes, s->walked + s->walk.idx, records(in, s), all_bytes,
				     all_records);
}

/*
 * Data of CPU @s that cannot be read, @bytes at @w, holding about @basis
 * bytes of records (0: nothing is missing, only said): recorded as skipped,
 * with a LOST marker due before the CPU's next event. 0 or -errno (strict).
 */
static int stream_skip(struct tracedat_input *in, struct cpu_stream *s,
		       const struct kmag__where *w, uint64_t bytes, uint64_t basis, const char *why)
{
	struct kmag_damage d = { .kind = KMAG_DAMAGE_SKIPPED, .cpu = w->cpu, .offset = w->offset,
				 .in_chunk = w->in_chunk, .chunk_pos = w->chunk_pos, .bytes = bytes,
				 .why = why, .func = KMAG_FUNC_NONE };

	d.ts = s->tc.prev ? s->tc.prev + (uint64_t)in->td.ts_offset : KMAG_TS_NONE;
	s->gap = basis != 0;	/* events are missing here: a LOST marker */
	d.events = estimate(in, s, basis);
	d.estimated = true;
	s->skip_basis += basis;
	s->skip_said += d.events;
	return kmag__damage_skip(in->t, &d, basis, in->err);
}

/* The rest of the current page, from the record at walk.idx on, cannot be read. */
static int skip_rest_of_page(struct tracedat_input *in, struct cpu_stream *s, const char *why)
{
	struct kmag_page_walk *pw = &s->walk;
	struct kmag__where w = where_in_page(in, s, pw->idx);
	uint32_t end = s->cut ? s->cut : pw->size;	/* the page's data: the commit */
	uint32_t bytes = end > pw->idx ? end - pw->idx : 0;
	int ret = stream_skip(in, s, &w, bytes, bytes, why);

	s->walked += pw->idx;
	pw->idx = pw->size = 0;	/* the page is done: nothing of it is added again */
	s->cut = 0;
	s->page_done = true;
	return ret;
}

/*
 * The record just walked (at walk.rec) has a sound ring-buffer header but
 * contents that cannot be read (@why): its length being known, it alone is
 * skipped and the walk goes on, as kbuffer's does (trace-cmd reads on past
 * it). Records skipped one after the other are one place, with one gap.
 */
static int skip_record(struct tracedat_input *in, struct cpu_stream *s, const char *why)
{
	struct kmag_page_walk *pw = &s->walk;
	uint32_t adv = pw->idx - pw->rec;
	struct kmag_damage d = { .kind = KMAG_DAMAGE_SKIPPED, .cpu = s->cpu, .bytes = adv,
				 .events = 1, .why = why, .func = KMAG_FUNC_NONE };
	struct kmag__where w;
	int ret = 0;

	if (s->run && s->run_end == pw->rec) {
		kmag__damage_grow(in->t, s->run_place, adv, 1);
	} else {
		w = where_in_page(in, s, pw->rec);
		d.offset = w.offset;
		d.in_chunk = w.in_chunk;
		d.chunk_pos = w.chunk_pos;
		d.ts = s->tc.prev ? s->tc.prev + (uint64_t)in->td.ts_offset : KMAG_TS_NONE;
		ret = kmag__damage(in->t, &d, &s->run_place, in->err);
		s->gap = true;	/* one LOST marker for the run, before the next record */
	}
	s->run = true;
	s->run_end = pw->idx;
	return ret;
}

/*
 * The time of a LOST marker at the page being read: the page's time, held
 * to the CPU's bounds as its events' times are (a damaged page time must
 * not put the marker out of the CPU's time order: consumers get events in
 * time order), and the CPU's time from there on.
 */
static uint64_t marker_ts(const struct tracedat_input *in, struct cpu_stream *s)
{
	uint64_t ts = s->walk.ts;

	if (ts > s->tc.bound)
		ts = s->tc.bound;
	if (ts < s->tc.prev)
		ts = s->tc.prev;
	s->tc.prev = ts;
	return ts + (uint64_t)in->td.ts_offset;
}

/* A LOST marker of @s's CPU at @ts, of @lost events, into s->ev. */
static void lost_marker(struct cpu_stream *s, uint64_t ts, uint64_t lost)
{
	struct kmag_event *ev = &s->ev;

	memset(ev, 0, sizeof(*ev));
	ev->type = KMAG_EV_LOST;
	ev->cpu = s->cpu;
	ev->pid = -1;
	ev->depth = -1;
	ev->ts = ts;
	ev->func = ev->parent = KMAG_FUNC_NONE;
	ev->lost = lost;
}

/* The LOST marker of a skipped stretch (KMAG_EV_LOST with .damage) into s->ev. */
static void gap_marker(struct tracedat_input *in, struct cpu_stream *s)
{
	lost_marker(s, s->tc.prev ? s->tc.prev + (uint64_t)in->td.ts_offset : marker_ts(in, s),
		    KMAG_LOST_UNKNOWN);
	s->ev.damage = true;
	s->gap = false;
}

/* Decompressed bytes per compressed byte of @s so far (4: trace data's usual ratio). */
static uint64_t zstd_ratio(const struct cpu_stream *s)
{
	return s->zin && s->zout > s->zin ? (s->zout + s->zin / 2) / s->zin : 4;
}

/*
 * The next zstd chunk of @s into s->buf. Returns 1, 0 at the end of the
 * CPU's chunks, or -errno. A chunk that does not decompress is skipped; a
 * chunk header that cannot be (it leaves the CPU's data, or claims what no
 * chunk holds) ends the CPU's data there, since the next chunk cannot be
 * found. The CPU's data, not its chunk count, says where the chunks end.
 */
static int refill_chunk(struct tracedat_input *in, struct cpu_stream *s)
{
	struct tracedat *td = &in->td;
	int ret;

	for (;;) {
		struct kmag__where w = { .cpu = s->cpu, .offset = s->pos };
		struct kmag_err zerr = { 0 };
		uint32_t csize, usize;
		uint8_t h[8];
		char what[64];

		if (s->end - s->pos < sizeof(h)) {
			if (!s->chunks_left)
				return 0;
			s->chunks_left = 0;
			return stream_skip(in, s, &w, 0, 0,
					   "the CPU's chunk count promises more chunks than its data holds");
		}
		if (!s->chunks_left) {
			/* the count is short of the data: read on, the chunks say where they end */
			if (s->count_short)
				return 0;
			s->count_short = true;
			s->chunks_left = UINT32_MAX;
			ret = stream_skip(in, s, &w, 0, 0,
					  "the CPU's chunk count is short of its data (read on)");
			if (ret)
				return ret;
		}
		s->chunks_left--;
		s->page_file_off = s->pos;
		ret = kmag__tracedat_pread(td, h, sizeof(h), s->pos, "compressed chunk header",
					   in->err);
		if (ret)
			return ret;
		csize = rd32(in, h);
		usize = rd32(in, h + 4);
		if (csize > s->end - s->pos - sizeof(h) || usize > MAX_CHUNK_BYTES ||
		    usize % in->geom.page_size) {
			uint64_t bytes = s->end - s->pos;

			s->chunks_left = 0;
			s->pos = s->end;
			return stream_skip(in, s, &w, bytes, bytes * zstd_ratio(s),
					   "zstd chunk header cannot be (the rest of the CPU's data skipped)");
		}
		s->pos += sizeof(h);
		if (!usize) {
			s->pos += csize;
			continue;
		}
		snprintf(what, sizeof(what), "CPU %d chunk at offset %llu", s->cpu,
			 (unsigned long long)s->page_file_off);
		if (!in->pf || !kmag__prefetch_take(in, s, s->pos, csize, usize, &ret, &zerr)) {
			if (kmag__grow(&s->cbuf, &s->cbuf_cap, csize ? csize : 1, 1) ||
			    kmag__grow(&s->buf, &s->buf_cap, usize, 1))
				return kmag_err_set(in->err, ENOMEM, "out of memory");
			ret = kmag__tracedat_pread(td, s->cbuf, csize, s->pos, "compressed chunk",
						   in->err);
			if (!ret)
				ret = kmag__tracedat_decompress(td, s->cbuf, csize, s->buf, usize,
								what, &zerr) ? 1 : 0;
		}
		if (ret < 0)
			return ret;
		s->pos += csize;
		if (ret) {
			if (zerr.code == ENOMEM)
				return kmag_err_set(in->err, ENOMEM, "%s", zerr.msg);
			ret = stream_skip(in, s, &w, (uint64_t)csize + sizeof(h), usize,
					  "zstd chunk does not decompress");
			if (ret)
				return ret;
			continue;
		}
		s->zin += csize;
		s->zout += usize;
		s->buf_len = usize;
		return 1;
	}
}

/* Reads the next block of pages into s->buf. Returns 1, 0 at the end, or -errno. */
static int stream_refill(struct tracedat_input *in, struct cpu_stream *s)
{
	uint64_t left = s->end - s->pos;
	size_t want = (size_t)in->geom.page_size * STREAM_BUF_PAGES;
	int ret;

	/*
	 * The page walked last is done, and its bytes are about to be
	 * overwritten (or, on several threads, handed to a worker): the walk
	 * forgets it. Left pointing there, it was walked again after a skipped
	 * chunk's LOST marker, into the next chunk's bytes (a damaged place
	 * that was none, said on one thread only).
	 */
	s->walked += s->walk.size;
	s->walk.data = NULL;
	s->walk.size = s->walk.idx = 0;
	s->buf_off = 0;
	s->buf_len = 0;
	if (s->compressed)
		return refill_chunk(in, s);
	if (!left)
		return 0;
	if (want > left)
		want = (size_t)left;
	if (kmag__grow(&s->buf, &s->buf_cap, want, 1))
		return kmag_err_set(in->err, ENOMEM, "out of memory");
	ret = kmag__tracedat_pread(&in->td, s->buf, want, s->pos, "CPU data", in->err);
	if (ret)
		return ret;
	s->page_file_off = s->pos;
	s->pos += want;
	s->buf_len = want;
	return 1;
}

/*
 * The raw start time of the page after the current one, when it is at hand
 * and holds records (an empty page's time may be stale), else KMAG_TS_NONE:
 * the bound of the current page's times.
 */
static uint64_t next_page_ts(struct tracedat_input *in, struct cpu_stream *s)
{
	const struct kmag_page_geom *g = &in->geom;
	uint8_t h[16];
	const uint8_t *p;
	uint64_t size;

	if (s->buf_len - s->buf_off >= g->page_hdr) {
		p = s->buf + s->buf_off;
	} else if (!s->compressed && s->buf_off == s->buf_len && s->end - s->pos >= g->page_hdr) {
		/* uncompressed: the next block's first page header, once per block */
		if (kmag__tracedat_pread(&in->td, h, g->page_hdr, s->pos, "CPU data", NULL))
			return KMAG_TS_NONE;
		p = h;
	} else {
		return KMAG_TS_NONE;
	}
	size = kmag__page_commit(g, p) & RB_COMMIT_MASK;
	if (!size || size > page_room(in))
		return KMAG_TS_NONE;
	return rd64(in, p);
}

/* A partial page at the end of the data: only padding may be cut off. 0 or -errno. */
static int partial_page(struct tracedat_input *in, struct cpu_stream *s)
{
	uint32_t left = (uint32_t)(s->buf_len - s->buf_off);
	const uint8_t *page = s->buf + s->buf_off;
	struct kmag__where w = { .cpu = s->cpu, .offset = s->page_file_off };
	uint64_t commit = left < in->geom.page_hdr ? 1 : kmag__page_commit(&in->geom, page);

	s->buf_off = s->buf_len;
	if (!(commit & RB_COMMIT_MASK))
		return 0;
	s->page_pos = (size_t)(page - s->buf);
	if (!s->compressed) {
		w.offset = s->pos - s->buf_len + s->page_pos;
	} else {
		w.in_chunk = true;
		w.chunk_pos = s->page_pos;
	}
	return stream_skip(in, s, &w, left, left, "data ends inside a page");
}

/*
 * Sets up the walk of @page. A commit larger than the page (a flipped bit)
 * says nothing of where the records end: they are read up to the page's
 * unused rest, which is zero. 0 or -errno (strict).
 */
static int load_page(struct tracedat_input *in, struct cpu_stream *s, const uint8_t *page,
		     struct kmag_page_info *info)
{
	const struct kmag_page_geom *g = &in->geom;
	struct kmag_page_walk *pw = &s->walk;
	uint64_t commit = kmag__page_commit(g, page);
	const char *why;

	s->walked += pw->size;
	s->run = s->page_done = false;
	s->cut = 0;
	if ((commit & RB_COMMIT_MASK) > page_room(in)) {
		struct kmag__where w;

		pw->data = page + g->page_hdr;
		pw->size = pw->idx = 0;
		w = where_in_page(in, s, 0);
		if (s->compressed)
			w.chunk_pos -= g->page_hdr;
		else
			w.offset -= g->page_hdr;
		pw->ts = kmag__pg_get64(g, page);
		pw->size = s->cut = page_room(in);
		memset(info, 0, sizeof(*info));	/* no flag of that commit is sure */
		s->stored = false;
		return stream_skip(in, s, &w, 0, 0,
				   "the page header's commit exceeds the page: read to its unused rest");
	}
	if (kmag__page_load(g, pw, page, info, &why))
		return kmag_err_set(in->err, EINVAL, "corrupt trace.dat: %s", why);	/* checked above */
	s->stored = info->missing && info->lost_known;
	return 0;
}

/*
 * Loads the next non-empty page. Returns 1 with the page set up, 2 with a
 * LOST event in s->ev (the page says events were dropped before it, or
 * damaged data was skipped), 0 at the end of the CPU's data, or -errno.
 */
static int stream_next_page(struct tracedat_input *in, struct cpu_stream *s)
{
	const struct kmag_page_geom *g = &in->geom;

	for (;;) {
		struct kmag_page_info info;
		const uint8_t *page;
		int ret;

		if (s->gap) {
			gap_marker(in, s);
			return 2;
		}
		if (s->buf_len - s->buf_off < g->page_size) {
			if (s->buf_off < s->buf_len && (ret = partial_page(in, s)))
				return ret;
			if (s->gap)
				continue;
			ret = stream_refill(in, s);
			if (ret <= 0)
				return ret;
			continue;
		}
		page = s->buf + s->buf_off;
		s->page_pos = s->buf_off;
		s->buf_off += g->page_size;
		if (!s->compressed)
			s->page_file_off = s->pos - s->buf_len + s->page_pos;
		if ((ret = load_page(in, s, page, &info)))
			return ret;
		kmag__tcheck_page(&s->tc, next_page_ts(in, s));
		if (s->walk.size && kmag__stream_past_window(in, s, s->walk.ts)) {
			/* the CPU's events from here on are all later than the window */
			s->walk.size = s->walk.idx = 0;
			s->page_done = true;	/* (not read: no data past its commit either) */
			s->pos = s->end;
			s->buf_off = s->buf_len;
			s->chunks_left = 0;
			return 0;
		}
		if (info.missing) {
			lost_marker(s, marker_ts(in, s),
				    info.lost_known ? info.lost : KMAG_LOST_UNKNOWN);
			return 2;
		}
		if (s->walk.size)
			return 1;
	}
}

/*
 * The bytes the record at walk.idx says it takes, from its header, or 0
 * when not even its header is in the page or its length cannot be.
 */
static uint64_t record_need(const struct tracedat_input *in, const struct cpu_stream *s)
{
	const struct kmag_page_walk *pw = &s->walk;
	uint32_t room = page_room(in) - pw->idx, hdr, type_len, len;

	if (room < 4)
		return 0;
	hdr = rd32(in, pw->data + pw->idx);
	type_len = in->td.big_endian ? hdr >> 27 : hdr & 0x1f;
	if (type_len >= RB_TYPE_TIME_EXTEND)
		return 8;
	if (type_len == RB_TYPE_PADDING)
		return 4;
	if (type_len)
		return 4 + 4 * (uint64_t)type_len;
	if (room < 8)
		return 8;
	len = rd32(in, pw->data + pw->idx + 4);
	return len < 4 ? 0 : 8 + (((uint64_t)len - 4 + 3) & ~3ull);	/* (below its own size) */
}

/*
 * The walk refused the record at walk.idx (@why): the page's data (its
 * commit) ends inside it. As kbuffer does, it is read whole when the page
 * holds it (the commit may be what is damaged), the walk then going on to
 * the page's unused rest. Returns 1 when it may go on so, 0 when not, or
 * -errno (strict).
 */
static int past_commit(struct tracedat_input *in, struct cpu_stream *s)
{
	struct kmag_page_walk *pw = &s->walk;
	uint64_t need = record_need(in, s);
	struct kmag__where w;
	int ret;

	if (s->cut || pw->size >= page_room(in) || !need || need > page_room(in) - pw->idx)
		return 0;
	w = where_in_page(in, s, pw->idx);
	s->cut = pw->size;
	pw->size = page_room(in);
	ret = stream_skip(in, s, &w, 0, 0,
			  "the page's data (its commit) ends inside a record: read on past it");
	return ret ? ret : 1;
}

/*
 * The walk reached the page's commit: the kernel leaves the rest of a page
 * zero, the lost-events count aside. Data there says the commit was damaged
 * short: the walk reads on up to the first zero record header. Returns 1 to
 * read on, 0 at the page's end, -errno.
 */
static int data_past_commit(struct tracedat_input *in, struct cpu_stream *s)
{
	struct kmag_page_walk *pw = &s->walk;
	uint32_t room = page_room(in), from = pw->size, i;
	struct kmag__where w;
	int ret;

	if (!pw->data || s->page_done || s->cut)
		return 0;
	if (s->stored)
		from += (uint32_t)in->geom.commit_size;
	for (i = from; i < room && !pw->data[i]; i++)
		;
	if (i >= room)
		return 0;
	w = where_in_page(in, s, pw->size);
	s->cut = pw->size;
	pw->size = room;
	pw->idx = from;
	ret = stream_skip(in, s, &w, 0, 0, "the page's data runs on past its commit: read on past it");
	return ret ? ret : 1;
}

/*
 * The walk refused the record at walk.idx (@why) with a zero header and
 * length: past a damaged commit, the page's unused rest (its records end
 * here); else, with only zeros up to the commit, a commit too long (a
 * flipped bit). Returns 1 (the page ends), 0 (no such case), -errno.
 */
static int zeros_to_commit(struct tracedat_input *in, struct cpu_stream *s)
{
	struct kmag_page_walk *pw = &s->walk;
	struct kmag__where w;
	uint32_t i;
	int ret;

	if (pw->size - pw->idx < 8 || rd32(in, pw->data + pw->idx) || rd32(in, pw->data + pw->idx + 4))
		return 0;
	if (s->cut) {
		pw->size = pw->idx;
		return 1;
	}
	for (i = pw->idx; i < pw->size && !pw->data[i]; i++)
		;
	if (i < pw->size)
		return 0;
	w = where_in_page(in, s, pw->idx);
	pw->size = pw->idx;
	ret = stream_skip(in, s, &w, 0, 0,
			  "the page's commit runs past its records into its unused rest");
	return ret ? ret : 1;
}

/* The walk refused the record at walk.idx (@why). 0 to walk on, or -errno. */
static int walk_failed(struct tracedat_input *in, struct cpu_stream *s, const char *why)
{
	int ret;

	if ((ret = zeros_to_commit(in, s)) || (ret = past_commit(in, s)))
		return ret < 0 ? ret : 0;
	return skip_rest_of_page(in, s, why);
}

/* Why kmag__decode() refused a record. */
static const char *decode_why(int ret)
{
	switch (ret) {
	case -ENOENT:
		return "record of an event type the file has no format for";
	case -ERANGE:
		return "record with an impossible call depth";
	default:
		return "record shorter than its event format";
	}
}

int kmag__stream_times(struct tracedat_input *in, struct cpu_stream *s, const uint8_t *payload,
		       uint64_t ts)
{
	struct kmag__where w = where_in_page(in, s, s->walk.rec);
	int ret;

	if (ts < s->tc.prev || ts > s->tc.bound) {
		if ((ret = kmag__tcheck_slow(in->t, &s->tc, &w, &ts, in->err)))
			return ret;
	} else {
		s->tc.prev = ts;
		s->tc.run = 0;
	}
	s->ev.ts = ts + (uint64_t)in->td.ts_offset;
	if (s->ev.type == KMAG_EV_GRAPH_EXIT && s->ev.calltime != KMAG_TS_NONE &&
	    s->ev.duration != KMAG_DURATION_NONE) {
		uint64_t ct = s->ev.calltime, rt = ct + s->ev.duration;

		/* the decoder gives a rettime before the calltime as 0: read it again */
		if (!s->ev.duration)
			rt = fd_read(&in->dec.gx_rettime, payload, in->dec.swap);
		if (!kmag__exit_times_ok(&in->span, ct, rt, ts))
			return kmag__damage_exit(in->t, &in->span, &w, &s->ev, ct, rt, ts, in->err);
	} else if (s->ev.type == KMAG_EV_GRAPH_ENTRY && !in->span.seen_entry) {
		in->span.seen_entry = true;
		kmag__span_update(&in->span);
	}
	return 0;
}

int kmag__stream_turn(struct tracedat_input *in, struct cpu_stream *s, int walk, const char *why)
{
	int ret;

	if (walk < 0) {
		if ((ret = walk_failed(in, s, why)))
			return ret;
	} else if (!(ret = data_past_commit(in, s))) {
		ret = stream_next_page(in, s);
		return ret == 2 ? 1 : ret <= 0 ? ret : 2;
	} else if (ret < 0) {
		return ret;
	}
	if (!s->gap)
		return 2;
	gap_marker(in, s);	/* damaged data was skipped: its LOST marker first */
	return 1;
}

int kmag__stream_bad_record(struct tracedat_input *in, struct cpu_stream *s, int decoded)
{
	int ret = skip_record(in, s, decode_why(decoded));

	if (ret)
		return ret;
	if (!s->gap)
		return 2;
	gap_marker(in, s);
	return 1;
}

void kmag__streams_settle(struct tracedat_input *in)
{
	uint64_t all_bytes = 0, all_records = 0;
	int i;

	for (i = 0; i < in->nr_streams; i++) {
		all_bytes += in->streams[i].walked + in->streams[i].walk.size;
		all_records += records(in, &in->streams[i]);
	}
	for (i = 0; i < in->nr_streams; i++) {
		const struct cpu_stream *s = &in->streams[i];

		kmag__damage_settle(in->t, s->cpu, s->skip_basis, s->skip_said,
				    s->walked + s->walk.size, records(in, s), all_bytes,
				    all_records);
	}
}
