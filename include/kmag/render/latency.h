/* SPDX-License-Identifier: MIT */
/*
 * render/latency.h - one function's call durations as bcc's funclatency
 * prints them (`kmag report --latency FUNC`): a log2 histogram with counts
 * and stars, avg, total and count, and the nearest-rank percentiles.
 * Implemented in libkmag-render (render/).
 */
#ifndef KMAG_RENDER_LATENCY_H
#define KMAG_RENDER_LATENCY_H

#include <stdio.h>

#include "../callgraph.h"
#include "../dist.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One function's durations; every pointer is borrowed. */
struct kmag_latency {
	const char *name;			/* the function */
	const struct kmag_cg_stats *st;		/* its calls (calls, timed, sum_ns) */
	const struct kmag_dist *dist;		/* its timed calls' durations (kmag_cg_node_dist()) */
};

/*
 * The histogram's unit: 1000 (usecs) when the longest call took 1 ms or more
 * (a nsecs table would pass 20 rows) and every duration is kept, else 1
 * (nsecs: a bucketed distribution has exact slots in ns only, dist.h).
 */
unsigned int kmag_latency_unit(const struct kmag_dist *d);
/*
 * Text, funclatency's layout: "     nsecs               : count     distribution",
 * then a row per power of two from "0 -> 1" to the longest call's, then
 * "avg = A nsecs, total: T nsecs, count: N" and the percentiles. Returns 0 or -errno.
 */
int kmag_latency_text(FILE *out, const struct kmag_latency *l);
/*
 * One JSON object: function, unit, count, total_ns, avg_ns, p50_ns, p90_ns,
 * p99_ns, percentiles_exact and "histogram", the rows as bcc's JSON histogram
 * names them ({"interval-start", "interval-end", "count"}, in the unit).
 */
int kmag_latency_json(FILE *out, const struct kmag_latency *l);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_RENDER_LATENCY_H */
