// SPDX-License-Identifier: MIT
/*
 * input-tracedat.c - kmag's fast trace.dat event source.
 *
 * The container is parsed by tracedat-read.c and the event formats by
 * libtraceevent. tracedat-stream.c walks the ring-buffer sub-buffers of each
 * CPU itself (the layout is in events/header_page and events/header_event),
 * skipping and saying damaged data; this file opens the file and merges the
 * CPUs by timestamp. It is our own because the per-record cost of
 * kbuffer/libtracecmd calls dominates at tens of millions of events per
 * second; the walk follows libtraceevent's kbuffer semantics exactly (tests
 * compare both on every fixture).
 */
#define PR_DOMAIN "tracedat"
#include <stdio.h>
#include <traceevent/event-parse.h>

#include "input-tracedat.h"
#include "tracedat-format.h"

static inline uint32_t rd32(const struct tracedat_input *in, const uint8_t *p)
{
	return td_get32(&in->td, p);
}

/*
 * Once every CPU's first event is read: the trace's first timestamp, for
 * the checks of exits' times (kmag__exit_times_ok()).
 */
static void set_first(struct tracedat_input *in)
{
	uint64_t first = UINT64_MAX;
	int i;

	for (i = 0; i < in->nr_streams; i++)
		if (in->streams[i].tc.prev && in->streams[i].tc.prev < first)
			first = in->streams[i].tc.prev;
	in->span.first = first == UINT64_MAX ? 0 : first;
	kmag__span_update(&in->span);
}

/* Min-heap of streams ordered by their current event's timestamp. */
static inline bool heap_less(struct cpu_stream *const *h, int a, int b)
{
	return h[a]->ev.ts < h[b]->ev.ts || (h[a]->ev.ts == h[b]->ev.ts && h[a]->cpu < h[b]->cpu);
}

static void heap_down(struct cpu_stream **h, int n, int i)
{
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		struct cpu_stream *tmp;

		if (l < n && heap_less(h, l, m))
			m = l;
		if (r < n && heap_less(h, r, m))
			m = r;
		if (m == i)
			return;
		tmp = h[i];
		h[i] = h[m];
		h[m] = tmp;
		i = m;
	}
}

/* Reads each CPU's first event (s->have), then the trace's first time is known. 0 or -errno. */
static int read_firsts(struct tracedat_input *in)
{
	int i, ret;

	for (i = 0; i < in->nr_streams; i++) {
		ret = kmag__stream_next(in, &in->streams[i]);
		if (ret < 0)
			return ret;
		in->streams[i].have = ret > 0;
	}
	set_first(in);
	return 0;
}

/*
 * Hands on the current event of @s when it is in the window
 * (kmag_trace_set_window(); all are without one); one outside is counted
 * as read, for the estimates of damage. 0 or what the consumer returned.
 */
static inline int deliver(struct kmag_trace *t, struct cpu_stream *s, uint64_t from,
			  uint64_t span)
{
	/* from <= ts <= from + span in one compare (no window: 0 and UINT64_MAX) */
	if (__builtin_expect(s->ev.ts - from <= span, 1))
		return kmag__trace_deliver(t, &s->ev);
	if (s->ev.type != KMAG_EV_LOST)
		s->outside++;
	return 0;
}

/*
 * The window as deliver() takes it: its start and its length; an empty one
 * (from > to) as one that only UINT64_MAX, KMAG_TS_NONE, would be in.
 */
static void window_span(const struct tracedat_input *in, uint64_t *from, uint64_t *span)
{
	*from = in->win_from <= in->win_to ? in->win_from : UINT64_MAX;
	*span = in->win_from <= in->win_to ? in->win_to - in->win_from : 0;
}

/*
 * Merges the CPUs in @heap (@n of them) by time into the consumer. Two
 * copies: with the window's check (@windowed) and without it, where the
 * loop of a whole trace stays as it was (one more compare per event in it
 * cost 2 % of the reader's instructions).
 */
static inline __attribute__((always_inline)) int merge(struct kmag_trace *t,
							struct tracedat_input *in,
							struct cpu_stream **heap, int n,
							bool windowed, uint64_t from,
							uint64_t span)
{
	int i, ret;

	for (i = n / 2 - 1; i >= 0; i--)
		heap_down(heap, n, i);
	while (n) {
		struct cpu_stream *s = heap[0];
		/* drain the top stream while it stays ahead of the runner-up */
		uint64_t limit = UINT64_MAX;

		if (n > 1) {
			limit = heap[1]->ev.ts;
			if (n > 2 && heap[2]->ev.ts < limit)
				limit = heap[2]->ev.ts;
		}
		do {
			if ((ret = windowed ? deliver(t, s, from, span) : kmag__trace_deliver(t, &s->ev)))
				return ret;
			ret = kmag__stream_next(in, s);
			if (ret < 0)
				return ret;
			if (ret == 0) {
				heap[0] = heap[--n];
				break;
			}
		} while (s->ev.ts < limit);
		heap_down(heap, n, 0);
	}
	return 0;
}

static __attribute__((noinline)) int merge_all(struct kmag_trace *t, struct tracedat_input *in,
						struct cpu_stream **heap, int n)
{
	return merge(t, in, heap, n, false, 0, UINT64_MAX);
}

static __attribute__((noinline)) int merge_window(struct kmag_trace *t, struct tracedat_input *in,
						   struct cpu_stream **heap, int n, uint64_t from,
						   uint64_t span)
{
	return merge(t, in, heap, n, true, from, span);
}

static int read_ordered(struct kmag_trace *t, struct tracedat_input *in)
{
	struct cpu_stream **heap;
	int n = 0, i, ret;
	uint64_t from, span;

	heap = calloc((size_t)in->nr_streams + 1, sizeof(*heap));
	if (!heap)
		return kmag_err_set(in->err, ENOMEM, "out of memory");
	window_span(in, &from, &span);
	for (i = 0; i < in->nr_streams; i++)
		if (in->streams[i].have)
			heap[n++] = &in->streams[i];
	if (from || span != UINT64_MAX)
		ret = merge_window(t, in, heap, n, from, span);
	else
		ret = merge_all(t, in, heap, n);
	free(heap);
	return ret;
}

/* Each CPU's events in turn (each CPU's first is read already: the trace's start is known). */
static int read_unordered(struct kmag_trace *t, struct tracedat_input *in)
{
	uint64_t from, span;
	int i, ret;

	window_span(in, &from, &span);
	for (i = 0; i < in->nr_streams; i++) {
		struct cpu_stream *s = &in->streams[i];

		for (ret = s->have; ret > 0; ret = kmag__stream_next(in, s)) {
			if ((ret = deliver(t, s, from, span)))
				return ret;
		}
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* Raw time (as the pages hold it) of @ts, a time as events carry it. */
static uint64_t raw_time(const struct tracedat_input *in, uint64_t ts)
{
	int64_t off = in->td.ts_offset;

	if (ts == UINT64_MAX)
		return ts;
	if (off >= 0)
		return ts > (uint64_t)off ? ts - (uint64_t)off : 0;
	return ts > UINT64_MAX - (uint64_t)-off ? UINT64_MAX : ts + (uint64_t)-off;
}

/*
 * kmag_trace_set_window(): with each CPU's first event read, the window is
 * asked for; then each CPU goes on from the window's place (tracedat-seek.c),
 * unless $KMAG_SEEK=scan. 0 or -errno.
 */
static int find_window(struct kmag_trace *t, struct tracedat_input *in)
{
	struct kmag_event *firsts = calloc((size_t)in->nr_streams + 1, sizeof(*firsts));
	const char *mode = getenv("KMAG_SEEK");
	uint64_t from, to;
	size_t n = 0;
	int i, ret = 0;
	bool got;

	if (!firsts)
		return kmag_err_set(in->err, ENOMEM, "out of memory");
	for (i = 0; i < in->nr_streams; i++)
		if (in->streams[i].have)
			firsts[n++] = in->streams[i].ev;
	got = t->window_fn(t->window_ctx, firsts, n, &from, &to);
	free(firsts);
	if (!got)
		return 0;
	in->win_from = from;
	in->win_to = to;
	if (mode && !strcmp(mode, "scan"))
		return 0;
	in->stop_raw = raw_time(in, to);
	in->win_stop = true;
	for (i = 0; i < in->nr_streams && !ret; i++)
		if (in->streams[i].have && from)
			ret = kmag__stream_seek(in, &in->streams[i], raw_time(in, from));
	return ret;
}

static int tracedat_read(struct kmag_trace *t, struct kmag_err *err)
{
	struct tracedat_input *in = t->priv;
	int ret;

	in->err = err;
	in->t = t;
	in->win_from = 0;
	in->win_to = UINT64_MAX;
	if ((ret = read_firsts(in)) || (t->window_fn && (ret = find_window(t, in))))
		goto out;
	if (t->opts.threads > 1 && in->td.top.compressed && in->nr_streams &&
	    (ret = kmag__prefetch_start(in, t->opts.threads, err)))
		goto out;
	ret = t->opts.unordered ? read_unordered(t, in) : read_ordered(t, in);
	kmag__prefetch_stop(in);
out:
	kmag__streams_settle(in);
	in->err = NULL;
	in->t = NULL;
	return ret;
}

static void tracedat_close(struct kmag_trace *t)
{
	struct tracedat_input *in = t->priv;
	int i;

	if (!in)
		return;
	for (i = 0; i < in->nr_streams; i++) {
		free(in->streams[i].buf);
		free(in->streams[i].cbuf);
	}
	free(in->streams);
	kmag__decoder_release(&in->dec);
	if (in->tep)
		tep_free(in->tep);
	kmag__tracedat_close(&in->td);
	free(in);
	t->priv = NULL;
}

static struct tep_event *tracedat_event_format(struct kmag_trace *t, int id)
{
	struct tracedat_input *in = t->priv;

	return in ? kmag__decoder_event(&in->dec, id) : NULL;
}

static uint64_t tracedat_bytes_read(const struct kmag_trace *t)
{
	const struct tracedat_input *in = t->priv;

	return in ? __atomic_load_n(&in->td.bytes_read, __ATOMIC_RELAXED) : 0;
}

const struct kmag_input_ops kmag__input_tracedat = {
	.name = "trace.dat (built-in)",
	.read = tracedat_read,
	.close = tracedat_close,
	.event_format = tracedat_event_format,
	.bytes_read = tracedat_bytes_read,
};

static int setup_tep(struct tracedat_input *in, struct kmag_err *err)
{
	struct tracedat *td = &in->td;
	size_t i, failed = 0;

	in->tep = tep_alloc();
	if (!in->tep)
		return kmag_err_set(err, ENOMEM, "out of memory");
	tep_set_flag(in->tep, TEP_DISABLE_PLUGINS | TEP_DISABLE_SYS_PLUGINS);
	tep_set_file_bigendian(in->tep, td->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(in->tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? TEP_BIG_ENDIAN :
										  TEP_LITTLE_ENDIAN);
	tep_set_long_size(in->tep, td->long_size);
	tep_set_page_size(in->tep, (int)td->page_size);
	tep_set_cpus(in->tep, td->nr_cpus);
	if (!td->header_page.data ||
	    tep_parse_header_page(in->tep, td->header_page.data, td->header_page.size,
				  td->long_size))
		return kmag_err_set(err, EINVAL, "corrupt trace.dat: unreadable header_page format");
	in->geom.commit_size = tep_get_header_page_size(in->tep);
	if (in->geom.commit_size != 4 && in->geom.commit_size != 8)
		return kmag_err_set(err, EINVAL,
				    "corrupt trace.dat: header_page commit field has size %d",
				    in->geom.commit_size);
	in->geom.page_hdr = 8 + (uint32_t)in->geom.commit_size;
	in->geom.big_endian = td->big_endian;
	in->geom.swap = td->swap;
	/* the ftrace formats now (the decoder needs them); others on first use */
	for (i = 0; i < td->nr_formats; i++) {
		struct td_format *f = &td->formats[i];

		if (strcmp(f->system, "ftrace"))
			continue;
		if (kmag__tep_parse_fields(in->tep, f->text.data, f->text.size, f->system))
			failed++;
	}
	if (failed)
		pr_info("%zu ftrace event formats could not be parsed and are skipped", failed);
	return 0;
}

/* The "ID: N" line of an event format, without a full parse; -1 if absent. */
static int format_id(const char *text)
{
	const char *p = strstr(text, "\nID: ");

	if (!p && !strncmp(text, "ID: ", 4))
		p = text - 1;
	return p ? atoi(p + 5) : -1;
}

static int register_lazy_formats(struct tracedat_input *in, struct kmag_err *err)
{
	struct tracedat *td = &in->td;
	size_t i;

	for (i = 0; i < td->nr_formats; i++) {
		struct td_format *f = &td->formats[i];
		int id;

		if (!strcmp(f->system, "ftrace"))
			continue;
		id = format_id(f->text.data);
		if (id >= 0 && kmag__decoder_add_lazy(&in->dec, id, f->system, f->text.data, f->text.size))
			return kmag_err_set(err, ENOMEM, "out of memory");
	}
	return 0;
}

int kmag__tracedat_load_cpustats(struct kmag_trace *t, const struct tracedat *td,
				 struct kmag_err *err)
{
	size_t i;

	/* CPUSTAT options: "CPU: N\nentries: ...", one per CPU in order */
	for (i = 0; i < td->nr_cpustats; i++) {
		const char *txt = td->cpustats[i], *c = strstr(txt, "CPU:");
		long cpu = c ? strtol(c + 4, NULL, 10) : (long)i;
		struct kmag_cpu_info *ci;

		if (cpu < 0 || cpu >= 8192)
			continue;
		ci = kmag__trace_cpu(t, (int)cpu);
		if (!ci)
			return kmag_err_set(err, ENOMEM, "out of memory");
		kmag__parse_cpu_stats(ci, txt);
	}
	return 0;
}

int kmag__tracedat_input_open(struct kmag_trace *t, struct kmag_err *err)
{
	struct tracedat_input *in = calloc(1, sizeof(*in));
	struct tracedat *td;
	uint64_t end;
	size_t i;
	int ret;

	if (!in)
		return kmag_err_set(err, ENOMEM, "out of memory");
	t->priv = in;
	t->ops = &kmag__input_tracedat;
	in->td.fd = -1;
	tep_set_loglevel(TEP_LOG_NONE);
	ret = kmag__tracedat_open(&in->td, t->path, err);
	if (ret)
		return ret;
	td = &in->td;
	if ((ret = setup_tep(in, err)))
		return ret;
	if (td->kallsyms.data) {
		ret = kmag_symtab_load_kallsyms(t->st, td->kallsyms.data, td->kallsyms.size);
		if (ret < 0)
			return kmag_err_set(err, -ret, "out of memory loading kallsyms");
	}
	if (td->cmdlines.data && kmag__trace_load_cmdlines(t, td->cmdlines.data, td->cmdlines.size))
		return kmag_err_set(err, ENOMEM, "out of memory");
	if ((ret = kmag__decoder_init(&in->dec, in->tep, t->st, td->swap, err)) ||
	    (ret = register_lazy_formats(in, err)))
		return ret;

	in->geom.page_size = td->top.page_size;
	if (in->geom.page_size <= in->geom.page_hdr)
		return kmag_err_set(err, EINVAL, "corrupt trace.dat: page size %u",
				    in->geom.page_size);
	if (!kmag__trace_cpu(t, td->nr_cpus > 0 ? td->nr_cpus - 1 : 0))
		return kmag_err_set(err, ENOMEM, "out of memory");
	in->streams = calloc((size_t)td->top.nr_cpus + 1, sizeof(*in->streams));
	if (!in->streams)
		return kmag_err_set(err, ENOMEM, "out of memory");
	/* the end of the recording, when the recorder's stats say: no event is later */
	end = kmag__stats_now(td->cpustats, td->nr_cpustats);
	if (end == KMAG_TS_NONE || end > UINT64_MAX - KMAG__CLOCK_SLACK_NS)
		end = UINT64_MAX - KMAG__CLOCK_SLACK_NS;
	for (i = 0; i < (size_t)td->top.nr_cpus; i++) {
		const struct td_cpu_data *d = &td->top.cpus[i];
		struct cpu_stream *s;

		if (!d->size)
			continue;
		if (!kmag__trace_cpu(t, d->cpu))
			return kmag_err_set(err, ENOMEM, "out of memory");
		s = &in->streams[in->nr_streams++];
		s->cpu = d->cpu;
		s->start = s->pos = d->offset;
		s->end = d->offset + d->size;
		s->compressed = td->top.compressed;
		s->tc.end_at = end;
		s->tc.end = s->tc.bound = end + KMAG__CLOCK_SLACK_NS;
		if (s->compressed) {
			uint8_t cnt[4];

			ret = kmag__tracedat_pread(td, cnt, 4, d->offset, "chunk count", err);
			if (ret)
				return ret;
			s->chunks_left = rd32(in, cnt);
			s->start = s->pos += 4;
			/*
			 * The chunks end with the CPU's data: the size of the BUFFER
			 * option leaves the count out (trace-cmd 3.1) or counts it
			 * (3.4); a damaged count cannot lead past it.
			 */
			s->end = d->size > td->file_size - s->pos ? td->file_size : s->pos + d->size;
		}
	}
	if ((ret = kmag__tracedat_load_cpustats(t, td, err)))
		return ret;
	t->info.file_version = td->version;
	t->info.compression = td->version >= 7 ? (td->top.compressed ? td->comp_name : "none") :
						 "none";
	t->info.clock = td->top.clock ? td->top.clock : td->clock;
	t->info.uname = td->uname;
	t->info.cost = td->cost;
	t->btf = td->btf.size ? td->btf.data : NULL;
	t->btf_size = td->btf.size;
	t->info.has_timestamps = true;
	t->info.has_pids = true;
	t->info.has_durations = in->dec.gx_calltime.size && in->dec.gx_rettime.size;
	in->span.rettime_clock = kmag__clock_is_local(t->info.clock);
	for (i = 0; i < (size_t)t->info.nr_cpus; i++)
		if (t->cpus[i].stat_overrun)
			in->span.overwrite = true;
	return 0;
}
