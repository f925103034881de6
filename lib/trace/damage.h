/* SPDX-License-Identifier: MIT */
/*
 * damage.h - damaged places the readers read past (kmag_trace_damage()), and
 * the checks of times that cannot be, shared by the trace.dat readers. Internal.
 *
 * A reader that meets data it cannot read skips it, says where through
 * kmag__damage() and reads on; with strict reading (kmag_trace_set_strict())
 * kmag__damage() returns the error instead and the reader stops.
 */
#ifndef KMAG_DAMAGE_H
#define KMAG_DAMAGE_H

#include "kmag/trace.h"

struct kmag_trace;

/*
 * Two clocks read at the same moment (an exit's rettime and its timestamp
 * in the trace clock), or the local clocks of two CPUs, differ by far less
 * than this: 155 ms at most in the fixtures recorded in QEMU (global clock).
 * A bit flipped above it is a time that cannot be.
 */
#define KMAG__CLOCK_SLACK_NS 1000000000ull

/* The damage log of a trace (in struct kmag_trace). */
struct kmag__damage_log {
	struct kmag_damage_summary sum;
	struct kmag_damage list[KMAG_DAMAGE_LIST];
	uint64_t basis[KMAG_DAMAGE_LIST];	/* SKIPPED: the record bytes .events estimates */
	bool strict;
};

/*
 * Records the damaged place @d (copied; .kind, .cpu, the position and the
 * kind's fields set by the caller) and returns its index in the list
 * (SIZE_MAX past KMAG_DAMAGE_LIST) in *@place (may be NULL). Returns 0, or
 * with strict reading -EILSEQ with @err describing the place.
 */
int kmag__damage(struct kmag_trace *t, const struct kmag_damage *d, size_t *place,
		 struct kmag_err *err);
/*
 * kmag__damage() of a SKIPPED stretch of trace.dat data whose events are
 * estimated (.estimated) from @basis bytes of records (.bytes, or for a zstd
 * chunk what it decompresses to). The estimate is made again once the
 * CPU's data is read (kmag__damage_settle()), from all it read.
 */
int kmag__damage_skip(struct kmag_trace *t, const struct kmag_damage *d, uint64_t basis,
		      struct kmag_err *err);
/*
 * After reading: the events of CPU @cpu's skipped stretches (@basis bytes
 * of records in all, @said events as first estimated) estimated again from
 * the @rec_bytes of @records the CPU read (@all_*: the whole trace's).
 */
void kmag__damage_settle(struct kmag_trace *t, int cpu, uint64_t basis, uint64_t said,
			 uint64_t rec_bytes, uint64_t records, uint64_t all_bytes,
			 uint64_t all_records);
/*
 * Adds @bytes and @events to the SKIPPED place @place (SIZE_MAX: past the
 * list, the totals only): a run of records skipped one by one.
 */
void kmag__damage_grow(struct kmag_trace *t, size_t place, uint64_t bytes, uint64_t events);
/* Counts @n more events in the TIME place @place (a run of one fault). */
void kmag__damage_more(struct kmag_trace *t, size_t place, uint64_t n);

/*
 * The events a skipped stretch of @bytes held, estimated from @rec_bytes
 * read in @records records before (the whole trace's mean when the CPU
 * has read none yet: pass those as @all_bytes/@all_records), at least 1.
 */
uint64_t kmag__damage_estimate(uint64_t bytes, uint64_t rec_bytes, uint64_t records,
			       uint64_t all_bytes, uint64_t all_records);

/*
 * The time checks of one CPU's buffer (trace.dat readers): timestamps never
 * run backwards on a CPU, never pass the start of the CPU's next page nor
 * the end of the recording. A timestamp that does is damaged (a flipped bit
 * in a page header, a time extend or a record's delta) and is moved to the
 * bound it broke: the CPU's last good time, or the bound above it.
 */
struct kmag__tcheck {
	uint64_t prev;		/* the CPU's last good raw timestamp, 0 before the first */
	uint64_t bound;		/* no event of the page may be later (UINT64_MAX: no bound) */
	uint64_t end;		/* the end of the recording plus the slack, or UINT64_MAX */
	uint64_t end_at;	/* the end of the recording itself (where later times move) */
	bool keep_backwards;	/* a time running backwards is said, not moved (no page bounds) */
	int run;		/* the fault of the run of events going on (0: none) */
	size_t run_place;
};

/* Where an event came from, for the messages. */
struct kmag__where {
	int cpu;
	uint64_t offset;	/* see struct kmag_damage */
	bool in_chunk;
	uint64_t chunk_pos;
};

/* A new page (whose next page starts at raw time @next, KMAG_TS_NONE: unknown) begins. */
void kmag__tcheck_page(struct kmag__tcheck *c, uint64_t next);

int kmag__tcheck_slow(struct kmag_trace *t, struct kmag__tcheck *c, const struct kmag__where *w,
		      uint64_t *ts, struct kmag_err *err);

/*
 * Checks the raw timestamp *@ts of the CPU's next event; a damaged one is
 * recorded and *@ts moved to the bound. Returns 0, or -EILSEQ (strict) /
 * -ENOMEM with @err set. @w is only read for a damaged time.
 */
static inline int kmag__tcheck(struct kmag_trace *t, struct kmag__tcheck *c,
			       const struct kmag__where *w, uint64_t *ts, struct kmag_err *err)
{
	if (__builtin_expect(*ts >= c->prev && *ts <= c->bound, 1)) {
		c->prev = *ts;
		c->run = 0;
		return 0;
	}
	return kmag__tcheck_slow(t, c, w, ts, err);
}

/* What the checks of function_graph exits' times know of the whole trace. */
struct kmag__span {
	uint64_t first;		/* the trace's first raw timestamp, 0 while unknown */
	bool rettime_clock;	/* the trace clock counts as rettime does: local, global, perf */
	bool seen_entry;	/* an entry was read: no --threshold recording (exits only) */
	bool overwrite;		/* the recorder overwrote events (per-CPU stats' overrun) */
	uint64_t begin;		/* from the above (kmag__span_update()): no call began before */
};

/*
 * Once a fact of @sp changed: the time before which no call can have begun,
 * the first event less the slack. That is only sure where entries are
 * recorded (--threshold records a call begun any time before) and none
 * were overwritten (a flight recorder's buffer holds the last seconds of a
 * recording that began earlier); else 0, no bound.
 */
static inline void kmag__span_update(struct kmag__span *sp)
{
	sp->begin = 0;
	if (sp->first && sp->seen_entry && !sp->overwrite)
		sp->begin = sp->first > KMAG__CLOCK_SLACK_NS ? sp->first - KMAG__CLOCK_SLACK_NS : 1;
}

/*
 * A function_graph exit's calltime @ct and rettime @rt, at raw timestamp
 * @ts, can be: it returns no more than the slack before it was called; its
 * rettime and @ts, read at the same moment, agree (clocks that count alike);
 * its call (its duration back from @ts) began after sp->begin.
 */
static inline bool kmag__exit_times_ok(const struct kmag__span *sp, uint64_t ct, uint64_t rt,
				       uint64_t ts)
{
	const uint64_t slack = KMAG__CLOCK_SLACK_NS;
	uint64_t d;

	if (__builtin_expect(rt < ct, 0))
		return ct - rt <= slack;
	if (sp->rettime_clock && (rt > ts + slack || ts > rt + slack))
		return false;
	d = rt - ct;
	return d <= ts ? ts - d >= sp->begin : !sp->begin;
}
/*
 * The exit @ev (at @w) whose times kmag__exit_times_ok() refused: records
 * the place and leaves the kernel's duration out of @ev. Returns 0 or
 * -EILSEQ (strict) with @err set.
 */
int kmag__damage_exit(struct kmag_trace *t, const struct kmag__span *sp, const struct kmag__where *w,
		      struct kmag_event *ev, uint64_t ct, uint64_t rt, uint64_t ts,
		      struct kmag_err *err);

/* The trace clock @name counts as the kernel's calltime/rettime do (trace_clock_local()). */
bool kmag__clock_is_local(const char *name);

/*
 * The end of the recording from the recorder's per-CPU stats texts (the
 * latest "now ts:", raw clock units), or KMAG_TS_NONE when none says.
 */
uint64_t kmag__stats_now(char *const *stats, size_t n);

#endif /* KMAG_DAMAGE_H */
