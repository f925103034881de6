// SPDX-License-Identifier: MIT
/*
 * render/latency.c - `kmag report --latency FUNC`: one function's durations
 * in the layout of bcc's funclatency (its print_log2_hist(): the header, the
 * "low -> high : count |stars|" rows from the first power of two to the
 * highest in use, 40 stars wide, or 20 in the wide layout past slot 32, and
 * "avg = ..., total: ..., count: ..."), then the nearest-rank percentiles.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "kmag/kmag.h"
#include "kmag/render/latency.h"
#include "render-util.h"

#define STARS 40

unsigned int kmag_latency_unit(const struct kmag_dist *d)
{
	return kmag_dist_exact(d) && kmag_dist_percentile(d, 100) >= 1000000 ? 1000 : 1;
}

static const char *unit_name(unsigned int unit)
{
	return unit == 1 ? "nsecs" : "usecs";
}

/*
 * The slots to show, funclatency's: the calls of 0 units counted with those
 * of 1 ("0 -> 1"); returns the highest slot (at least 1).
 */
static int slots_of(const struct kmag_latency *l, unsigned int unit,
		    uint64_t slots[KMAG_DIST_LOG2_SLOTS])
{
	int top = kmag_dist_log2(l->dist, unit, slots);

	slots[1] += slots[0];
	slots[0] = 0;
	return top < 1 ? 1 : top;
}

static void slot_range(int i, uint64_t *low, uint64_t *high)
{
	*low = (1ull << i) >> 1;
	*high = i == 64 ? UINT64_MAX : (1ull << i) - 1;
	if (*low == *high)
		(*low)--;
}

/* @ns in @unit: a whole number of ns, or us with 3 decimals. */
static void put_in(FILE *out, uint64_t ns, unsigned int unit)
{
	if (unit == 1)
		fprintf(out, "%" PRIu64, ns);
	else
		fprintf(out, "%" PRIu64 ".%03" PRIu64, ns / 1000, ns % 1000);
}

int kmag_latency_text(FILE *out, const struct kmag_latency *l)
{
	static const char stars[] = "****************************************";
	uint64_t slots[KMAG_DIST_LOG2_SLOTS], most = 0, low, high;
	unsigned int unit = kmag_latency_unit(l->dist);
	int top = slots_of(l, unit, slots), i, width, nstars;
	bool wide = top > 32;

	fputs("Function = ", out);
	render_fput_text(out, l->name);
	fputc('\n', out);
	for (i = 1; i <= top; i++)
		if (slots[i] > most)
			most = slots[i];
	width = wide ? STARS / 2 : STARS;
	if (wide)
		fprintf(out, "               %-29s : count     distribution\n", unit_name(unit));
	else
		fprintf(out, "     %-19s : count     distribution\n", unit_name(unit));
	for (i = 1; i <= top; i++) {
		slot_range(i, &low, &high);
		nstars = most ? (int)((uint64_t)width * slots[i] / most) : 0;
		fprintf(out, wide ? "%20" PRIu64 " -> %-20" PRIu64 " : %-8" PRIu64 " |%-*.*s|\n" :
				    "%10" PRIu64 " -> %-10" PRIu64 " : %-8" PRIu64 " |%-*.*s|\n",
			low, high, slots[i], width, nstars, stars);
	}
	fputs("\navg = ", out);
	put_in(out, l->st->timed ? l->st->sum_ns / l->st->timed : 0, unit);
	fprintf(out, " %s, total: ", unit_name(unit));
	put_in(out, l->st->sum_ns, unit);
	fprintf(out, " %s, count: %" PRIu64 "\n", unit_name(unit), l->st->timed);
	fputs("p50 = ", out);
	put_in(out, kmag_dist_percentile(l->dist, 50), unit);
	fputs(", p90 = ", out);
	put_in(out, kmag_dist_percentile(l->dist, 90), unit);
	fputs(", p99 = ", out);
	put_in(out, kmag_dist_percentile(l->dist, 99), unit);
	fprintf(out, " %s (nearest rank, %s)\n", unit_name(unit),
		kmag_dist_exact(l->dist) ? "exact" : "within 0.4 %: more calls than kept one by one");
	if (l->st->calls > l->st->timed)
		fprintf(out, "%" PRIu64 " more call%s without a duration (entry or exit not in the trace)\n",
			l->st->calls - l->st->timed, l->st->calls - l->st->timed == 1 ? "" : "s");
	return ferror(out) ? -EIO : 0;
}

int kmag_latency_json(FILE *out, const struct kmag_latency *l)
{
	uint64_t slots[KMAG_DIST_LOG2_SLOTS], low, high;
	unsigned int unit = kmag_latency_unit(l->dist);
	int top = slots_of(l, unit, slots), i;

	fputs("{\"function\": ", out);
	kmag_fput_json_string(out, l->name);
	fprintf(out, ", \"unit\": \"%s\", \"calls\": %" PRIu64 ", \"count\": %" PRIu64
		     ", \"total_ns\": %" PRIu64 ", \"avg_ns\": %" PRIu64,
		unit_name(unit), l->st->calls, l->st->timed, l->st->sum_ns,
		l->st->timed ? l->st->sum_ns / l->st->timed : 0);
	fprintf(out, ", \"p50_ns\": %" PRIu64 ", \"p90_ns\": %" PRIu64 ", \"p99_ns\": %" PRIu64
		     ", \"percentiles_exact\": %s, \"histogram\": [",
		kmag_dist_percentile(l->dist, 50), kmag_dist_percentile(l->dist, 90),
		kmag_dist_percentile(l->dist, 99), kmag_dist_exact(l->dist) ? "true" : "false");
	for (i = 1; i <= top; i++) {
		slot_range(i, &low, &high);
		fprintf(out, "%s{\"interval-start\": %" PRIu64 ", \"interval-end\": %" PRIu64
			     ", \"count\": %" PRIu64 "}", i > 1 ? ", " : "", low, high, slots[i]);
	}
	fputs("]}\n", out);
	return ferror(out) ? -EIO : 0;
}
