/* SPDX-License-Identifier: MIT */
/*
 * input-tracedat.h - the built-in trace.dat reader's state, shared by its
 * two halves: tracedat-stream.c reads one CPU's data (blocks or zstd
 * chunks, pages, records; what it cannot read it skips and says), and
 * input-tracedat.c opens the file and merges the CPUs. Internal.
 */
#ifndef KMAG_INPUT_TRACEDAT_H
#define KMAG_INPUT_TRACEDAT_H

#include "damage.h"
#include "decode.h"
#include "pagewalk.h"
#include "trace-internal.h"
#include "tracedat.h"

/* One CPU's data, read as a stream of events. */
struct cpu_stream {
	int cpu;
	bool compressed;
	uint64_t start;		/* where its data (compressed: its first chunk's header) begins */
	uint64_t pos, end;	/* file range still to read (compressed: to the end of its chunks) */
	uint32_t chunks_left;	/* compressed: chunks the CPU's count still promises */
	bool count_short;	/* compressed: chunks were found past the count */
	uint64_t zin, zout;	/* compressed: bytes decompressed, and what they gave */

	uint8_t *buf;		/* pages ready to walk */
	size_t buf_len, buf_off, buf_cap;
	uint8_t *cbuf;		/* compressed chunk scratch */
	size_t cbuf_cap;

	struct kmag_page_walk walk;	/* the page being walked */
	uint64_t page_file_off;	/* where the page (compressed: its chunk) came from */
	size_t page_pos;	/* where the page starts in buf */
	uint32_t cut;		/* the page's commit when the walk goes past it (0: it does not) */
	bool stored;		/* the page stores a lost-events count after its data */
	bool page_done;		/* the rest of the page was skipped */
	bool run;		/* records skipped one by one, the last ending at run_end */
	uint32_t run_end;
	size_t run_place;	/* their place (kmag__damage_grow()) */

	/* what was read, for the damage messages and estimates */
	uint64_t walked;	/* record bytes of the pages done */
	uint64_t skip_basis;	/* record bytes of the stretches skipped */
	uint64_t skip_said;	/* their events as first estimated (kmag__damage_settle()) */
	uint64_t outside;	/* events read but outside the window: not delivered, nor counted */
	struct kmag__tcheck tc;	/* its prev: the raw time of the last good event (0: none yet) */
	bool gap;		/* damaged data was skipped: a LOST marker is due */

	struct kmag_event ev;	/* current event, valid when have */
	bool have;
};

struct kmag__prefetch;

struct tracedat_input {
	struct tracedat td;
	struct tep_handle *tep;
	struct kmag_decoder dec;
	struct kmag_page_geom geom;	/* page size, header, byte order */
	struct kmag__span span;	/* for the checks of exits' times */
	struct cpu_stream *streams;
	int nr_streams;
	struct kmag_trace *t;	/* during read */
	struct kmag_err *err;
	struct kmag__prefetch *pf;	/* during read on several threads, else NULL */
	/* kmag_trace_set_window(): what is delivered (all when no window) */
	uint64_t win_from, win_to;	/* ns as events carry them, both included */
	uint64_t stop_raw;	/* a CPU stops at a page starting later (raw), when win_stop */
	bool win_stop;		/* seeking (not $KMAG_SEEK=scan): stop past the window */
};

/*
 * tracedat-prefetch.c: reading a compressed trace.dat on @threads threads.
 * The others read and decompress each CPU's zstd chunks a few ahead of
 * this one, which does all else as it would alone: it finds the chunks
 * (their headers), and takes each one's bytes from the workers
 * (kmag__prefetch_take()) or, when none has them, reads them itself;
 * waiting for a chunk a worker is on, it decompresses one nobody started.
 * So the events, their order and every damage message are the one thread's.
 * Start: 0 or -errno with @err set; stop: joins and frees (NULL is fine).
 */
int kmag__prefetch_start(struct tracedat_input *in, unsigned threads, struct kmag_err *err);
void kmag__prefetch_stop(struct tracedat_input *in);
/*
 * The chunk of @s whose @csize compressed bytes start at file offset @pos
 * and give @usize: 1 when a worker has it, its result in *@ret: 0 (its
 * pages in s->buf, which is swapped with the worker's), 1 (it does not
 * decompress: @zerr says why) or -errno (reading it failed: in->err). 0
 * when no worker has it (nor will): the caller reads it.
 */
int kmag__prefetch_take(struct tracedat_input *in, struct cpu_stream *s, uint64_t pos,
			uint32_t csize, uint32_t usize, int *ret, struct kmag_err *zerr);

/*
 * tracedat-stream.c, what kmag__stream_next() leaves the fast path for.
 * The walk of the page ended (@walk 0) or refused a record (@walk < 0,
 * @why): the next page, what can be read of a damaged one. Returns 1 (an
 * event, a LOST marker, in s->ev), 2 (walk on), 0 (the CPU's data ended),
 * or -errno.
 */
int kmag__stream_turn(struct tracedat_input *in, struct cpu_stream *s, int walk, const char *why);
/* kmag__decode() refused the record just walked (@decoded): as above. */
int kmag__stream_bad_record(struct tracedat_input *in, struct cpu_stream *s, int decoded);
/* The times of the event just decoded, raw @ts, when the fast checks refused them. 0 or -errno. */
int kmag__stream_times(struct tracedat_input *in, struct cpu_stream *s, const uint8_t *payload,
		       uint64_t ts);

/*
 * Advances @s to its next event: 1 (the event in s->ev), 0 at the end of
 * the CPU's data, or -errno with in->err set (strict reading stops at
 * damage so). Inline, always (with the decoder inline in it GCC would
 * call it): it runs for every record, and a call per record costs more
 * than the walk (lib/trace/tracedat-stream.c has the rest).
 */
static inline __attribute__((always_inline)) int
kmag__stream_next(struct tracedat_input *in, struct cpu_stream *s)
{
	for (;;) {
		const uint64_t slack = KMAG__CLOCK_SLACK_NS;
		const uint8_t *payload;
		const char *why = NULL;
		uint64_t ts;
		uint32_t plen;
		int ret = kmag__page_next(&in->geom, &s->walk, &payload, &plen, &why);

		if (__builtin_expect(ret <= 0, 0)) {
			ret = kmag__stream_turn(in, s, ret, why);
			if (ret == 2)
				continue;
			return ret;
		}
		if (__builtin_expect((ret = kmag__decode(&in->dec, payload, plen, &s->ev)) != 0, 0)) {
			ret = kmag__stream_bad_record(in, s, ret);
			if (ret == 2)
				continue;
			return ret;
		}
		s->ev.cpu = s->cpu;
		ts = s->walk.ts;
		/*
		 * The times that can be (damage.h), in few instructions: in the
		 * CPU's bounds; an exit's duration back from it begins after the
		 * trace did, its rettime within the slack of it where the clocks
		 * count alike. Anything else: the full checks.
		 */
		if (__builtin_expect(ts < s->tc.prev || ts > s->tc.bound, 0))
			goto slow;
		if (s->ev.type == KMAG_EV_GRAPH_EXIT) {
			uint64_t d = s->ev.duration, rt = s->ev.calltime + d;

			if (__builtin_expect(!d || s->ev.calltime == KMAG_TS_NONE ||
					     d == KMAG_DURATION_NONE || d > ts - in->span.begin ||
					     (in->span.rettime_clock && rt - ts + slack > 2 * slack), 0))
				goto slow;
		} else if (__builtin_expect(s->ev.type == KMAG_EV_GRAPH_ENTRY && !in->span.seen_entry, 0)) {
			goto slow;
		}
		s->tc.prev = ts;
		s->tc.run = 0;
		s->ev.ts = ts + (uint64_t)in->td.ts_offset;
		return 1;
slow:
		if ((ret = kmag__stream_times(in, s, payload, ts)))
			return ret;
		return 1;
	}
}
/*
 * tracedat-seek.c: moves @s, whose first event is read (s->have), on to
 * the last page (compressed: zstd chunk) that starts before raw time
 * @from, less one, and reads its first event there again (s->have). It
 * only moves forward. 0 or -errno.
 */
int kmag__stream_seek(struct tracedat_input *in, struct cpu_stream *s, uint64_t from);
/*
 * The binary search behind it: the last of the places @lo..@hi-1 whose
 * start time @start(@ctx, i) is known (not KMAG_TS_NONE) and below @from,
 * @lo itself when none is; @lo is where the reader is. A place of unknown
 * time counts as late (the search goes back: reading more is safe).
 */
size_t kmag__seek_search(size_t lo, size_t hi, uint64_t from,
			 uint64_t (*start)(void *ctx, size_t i), void *ctx);
/* A page starting at raw time @ts is past the window (s->ended is set): the CPU stops. */
static inline bool kmag__stream_past_window(const struct tracedat_input *in,
					    const struct cpu_stream *s, uint64_t ts)
{
	/* a time past the recording's end is damaged, and says nothing */
	return in->win_stop && ts > in->stop_raw && ts <= s->tc.end && !s->gap;
}

/* After reading: the skipped stretches' events estimated again from all that was read. */
void kmag__streams_settle(struct tracedat_input *in);

#endif /* KMAG_INPUT_TRACEDAT_H */
