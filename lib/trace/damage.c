// SPDX-License-Identifier: MIT
/*
 * damage.c - the log of damaged places a trace's readers read past, their
 * one-line descriptions, and the checks of times that cannot be.
 */
#define PR_DOMAIN "damage"
#include <inttypes.h>
#include <stdio.h>

#include "damage.h"
#include "trace-internal.h"

static bool is_text(const struct kmag_trace *t)
{
	return t->info.format == KMAG_INPUT_FTRACE_TEXT || t->info.format == KMAG_INPUT_REPORT_TEXT;
}

static const char *describe(const struct kmag_trace *t, const struct kmag_damage *d, bool stopped,
			    char *buf, size_t size);

int kmag__damage(struct kmag_trace *t, const struct kmag_damage *d, size_t *place,
		 struct kmag_err *err)
{
	struct kmag__damage_log *log = &t->damage;
	struct kmag_damage_summary *s = &log->sum;

	if (place)
		*place = SIZE_MAX;
	s->places++;
	switch (d->kind) {
	case KMAG_DAMAGE_SKIPPED:
		if (d->line)
			s->skipped_lines += d->events;
		else
			s->skipped_bytes += d->bytes;
		s->lost_events += d->events;
		break;
	case KMAG_DAMAGE_TIME:
		s->bad_times += d->events;
		break;
	case KMAG_DAMAGE_DURATION:
		s->bad_durations += d->events;
		break;
	}
	if (s->nr < KMAG_DAMAGE_LIST) {
		log->list[s->nr] = *d;
		if (place)
			*place = s->nr;
		s->nr++;
		s->list = log->list;
	}
	if (log->strict) {
		char text[400];

		s->stopped = true;
		return kmag_err_set(err, EILSEQ, "damaged %s: %s", is_text(t) ? "text" : "trace.dat",
				    describe(t, d, true, text, sizeof(text)));
	}
	return 0;
}

int kmag__damage_skip(struct kmag_trace *t, const struct kmag_damage *d, uint64_t basis,
		      struct kmag_err *err)
{
	size_t place;
	int ret = kmag__damage(t, d, &place, err);

	if (place < KMAG_DAMAGE_LIST)
		t->damage.basis[place] = basis;
	return ret;
}

void kmag__damage_settle(struct kmag_trace *t, int cpu, uint64_t basis, uint64_t said,
			 uint64_t rec_bytes, uint64_t records, uint64_t all_bytes,
			 uint64_t all_records)
{
	struct kmag__damage_log *log = &t->damage;
	uint64_t now = 0, rest = basis;
	size_t i;

	if (!said && !basis)
		return;
	for (i = 0; i < log->sum.nr; i++) {
		struct kmag_damage *d = &log->list[i];

		if (d->kind != KMAG_DAMAGE_SKIPPED || d->cpu != cpu || !d->estimated)
			continue;
		d->events = kmag__damage_estimate(log->basis[i], rec_bytes, records, all_bytes,
						  all_records);
		now += d->events;
		rest -= rest >= log->basis[i] ? log->basis[i] : rest;
	}
	/* the places past the list, as one stretch */
	if (rest)
		now += kmag__damage_estimate(rest, rec_bytes, records, all_bytes, all_records);
	log->sum.lost_events = log->sum.lost_events - said + now;
}

void kmag__damage_grow(struct kmag_trace *t, size_t place, uint64_t bytes, uint64_t events)
{
	struct kmag__damage_log *log = &t->damage;

	log->sum.skipped_bytes += bytes;
	log->sum.lost_events += events;
	if (place < log->sum.nr) {
		log->list[place].bytes += bytes;
		log->list[place].events += events;
	}
}

void kmag__damage_more(struct kmag_trace *t, size_t place, uint64_t n)
{
	struct kmag__damage_log *log = &t->damage;

	log->sum.bad_times += n;
	if (place < log->sum.nr)
		log->list[place].events += n;
}

uint64_t kmag__damage_estimate(uint64_t bytes, uint64_t rec_bytes, uint64_t records,
			       uint64_t all_bytes, uint64_t all_records)
{
	uint64_t n;

	if (!records || !rec_bytes) {
		rec_bytes = all_bytes;
		records = all_records;
	}
	if (!records || !rec_bytes)
		return bytes ? 1 : 0;	/* nothing to go by: at least the record that broke */
	/* bytes / (rec_bytes / records), rounded, exact for any file size: in 128
	 * bits (long double gave other digits under valgrind, which computes it
	 * in 64-bit doubles) */
	unsigned __int128 q = ((unsigned __int128)bytes * records + rec_bytes / 2) / rec_bytes;

	n = q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
	return n ? n : (bytes ? 1 : 0);
}

const struct kmag_damage_summary *kmag_trace_damage(const struct kmag_trace *t)
{
	return &t->damage.sum;
}

void kmag_trace_set_strict(struct kmag_trace *t, bool strict)
{
	t->damage.strict = strict;
}

/* "CPU 0, file offset 4632592" or "line 12" into @buf; returns the length. */
static int where_text(const struct kmag_damage *d, char *buf, size_t size)
{
	int n = 0;

	if (d->line && d->column)
		return snprintf(buf, size, "line %" PRIu64 ", column %u", d->line, d->column);
	if (d->line)
		return snprintf(buf, size, "line %" PRIu64, d->line);
	if (d->cpu >= 0)
		n = snprintf(buf, size, "CPU %d, ", d->cpu);
	if (n < 0 || (size_t)n >= size)
		return n;
	if (d->in_chunk)
		return n + snprintf(buf + n, size - (size_t)n,
				    "zstd chunk at file offset %" PRIu64 ", byte %" PRIu64 " of its data",
				    d->offset, d->chunk_pos);
	return n + snprintf(buf + n, size - (size_t)n, "file offset %" PRIu64, d->offset);
}

/* @ns as seconds with 6 decimals, as report and trace-cmd print times */
static void secs(char *buf, size_t size, uint64_t ns)
{
	snprintf(buf, size, "%" PRIu64 ".%06" PRIu64, ns / 1000000000u, ns % 1000000000u / 1000u);
}

/* @d in one line; with @stopped, what is wrong only (nothing was read past it). */
static const char *describe(const struct kmag_trace *t, const struct kmag_damage *d, bool stopped,
			    char *buf, size_t size)
{
	char where[128], a[32], b[32];
	const char *name = NULL;

	if (!size)
		return buf;
	where_text(d, where, sizeof(where));
	switch (d->kind) {
	case KMAG_DAMAGE_SKIPPED:
		if (stopped)
			snprintf(buf, size, "%s: %s", where, d->why);
		else if (d->line)
			snprintf(buf, size, "%s: %s; line skipped", where, d->why);
		else if (!d->bytes)
			snprintf(buf, size, "%s: %s; nothing skipped", where, d->why);
		else
			snprintf(buf, size, "%s: %s; skipped %" PRIu64 " bytes, %s%" PRIu64 " event%s",
				 where, d->why, d->bytes, d->estimated ? "about " : "", d->events,
				 d->events == 1 ? "" : "s");
		break;
	case KMAG_DAMAGE_TIME:
		secs(a, sizeof(a), d->ts);
		secs(b, sizeof(b), d->bound);
		if (stopped)
			snprintf(buf, size, "%s: %s (%s s, bound %s s)", where, d->why, a, b);
		else if (d->moved)
			snprintf(buf, size, "%s: %s (%s s, bound %s s); %" PRIu64 " event%s moved to %s s",
				 where, d->why, a, b, d->events, d->events == 1 ? "" : "s", b);
		else
			snprintf(buf, size, "%s: %s (from %s s to %s s); kept as recorded", where,
				 d->why, b, a);
		break;
	case KMAG_DAMAGE_DURATION:
		if (t && d->func != KMAG_FUNC_NONE)
			name = kmag_symtab_name(t->st, d->func);
		secs(a, sizeof(a), d->ts);
		if (d->duration != KMAG_DURATION_NONE)
			secs(b, sizeof(b), d->duration);
		else
			secs(b, sizeof(b), d->ts_back);
		snprintf(buf, size, "%s: the exit of %s at %s s %s %s s (%s)%s", where,
			 name ? name : "a function", a,
			 d->duration != KMAG_DURATION_NONE ? "claims a call of" : "returns before its call by",
			 b, d->why, stopped ? "" : "; its duration is left out");
		break;
	default:
		snprintf(buf, size, "%s: %s", where, d->why ? d->why : "damaged");
		break;
	}
	return buf;
}

const char *kmag_damage_describe(const struct kmag_trace *t, const struct kmag_damage *d,
				 char *buf, size_t size)
{
	return describe(t, d, false, buf, size);
}

void kmag__tcheck_page(struct kmag__tcheck *c, uint64_t next)
{
	c->run = 0;
	c->bound = c->end;
	if (next != KMAG_TS_NONE && next >= c->prev && next < c->bound)
		c->bound = next;
}

int kmag__tcheck_slow(struct kmag_trace *t, struct kmag__tcheck *c, const struct kmag__where *w,
		      uint64_t *ts, struct kmag_err *err)
{
	struct kmag_damage d = { .kind = KMAG_DAMAGE_TIME, .cpu = w->cpu, .offset = w->offset,
				 .in_chunk = w->in_chunk, .chunk_pos = w->chunk_pos, .events = 1,
				 .ts = *ts, .func = KMAG_FUNC_NONE };
	int fault;

	if (*ts < c->prev) {
		fault = 1;
		d.bound = c->prev;
		d.why = "time runs backwards";
	} else if (c->bound != c->end) {
		fault = 2;
		d.bound = c->bound;
		d.why = "time is past the start of the CPU's next page";
	} else {
		fault = 3;
		d.bound = c->end_at > c->prev ? c->end_at : c->prev;
		d.why = "time is past the end of the recording";
	}
	if (fault == 1 && c->keep_backwards) {
		/* a discontinuity, said once: the time goes on from here */
		c->prev = *ts;
		c->run = 0;
		return kmag__damage(t, &d, NULL, err);
	}
	d.moved = true;
	*ts = d.bound;
	if (c->run == fault) {
		kmag__damage_more(t, c->run_place, 1);
		return 0;
	}
	c->run = fault;
	return kmag__damage(t, &d, &c->run_place, err);
}

int kmag__damage_exit(struct kmag_trace *t, const struct kmag__span *sp, const struct kmag__where *w,
		      struct kmag_event *ev, uint64_t ct, uint64_t rt, uint64_t ts,
		      struct kmag_err *err)
{
	struct kmag_damage d = { .kind = KMAG_DAMAGE_DURATION, .cpu = w->cpu, .offset = w->offset,
				 .in_chunk = w->in_chunk, .chunk_pos = w->chunk_pos, .events = 1,
				 .ts = ev->ts, .func = ev->func };

	if (rt < ct) {
		d.duration = KMAG_DURATION_NONE;
		d.ts_back = ct - rt;
		d.why = "its rettime is before its calltime";
	} else {
		d.duration = rt - ct;
		if (sp->rettime_clock && rt > ts + KMAG__CLOCK_SLACK_NS)
			d.why = "its rettime is past its own timestamp";
		else if (sp->rettime_clock && ts > rt + KMAG__CLOCK_SLACK_NS)
			d.why = "its rettime is before its own timestamp";
		else
			d.why = "longer than the recording: its calltime is before the trace began";
	}
	ev->duration = KMAG_DURATION_NONE;
	ev->calltime = KMAG_TS_NONE;
	return kmag__damage(t, &d, NULL, err);
}

bool kmag__clock_is_local(const char *name)
{
	/*
	 * trace_clock_local() (sched_clock()) only. "global" and "perf" read
	 * sched_clock_cpu()/local_clock(), which the scheduler corrects where
	 * the TSC is unstable: in a QEMU guest they ran 188-191 ms from the
	 * rettimes of a 6.1 --threshold recording, and past the slack under
	 * load (t0410 read a sound trace as damaged).
	 */
	return name && !strcmp(name, "local");
}

uint64_t kmag__stats_now(char *const *stats, size_t n)
{
	uint64_t best = KMAG_TS_NONE;
	size_t i;

	for (i = 0; i < n; i++) {
		const char *p = stats[i] ? strstr(stats[i], "now ts:") : NULL;
		unsigned long long sec, usec = 0;
		uint64_t v;
		int len = 0;

		if (!p)
			continue;
		/* "now ts:   138.535814" for clocks in ns (seconds, microseconds), else a count */
		if (sscanf(p + 7, " %llu.%6llu%n", &sec, &usec, &len) == 2 && len)
			v = sec * 1000000000ull + usec * 1000ull;
		else if (sscanf(p + 7, " %llu", &sec) == 1)
			v = sec;
		else
			continue;
		if (best == KMAG_TS_NONE || v > best)
			best = v;
	}
	return best;
}
