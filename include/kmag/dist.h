/* SPDX-License-Identifier: MIT */
/*
 * dist.h - the distribution of one function's call durations: nearest-rank
 * percentiles (p50, p90, p99) and the log2 histogram bcc's funclatency prints.
 *
 * Exact where the calls fit, bounded beyond: a distribution keeps every
 * duration it is given up to KMAG_DIST_EXACT_MAX of them (8 bytes each), so
 * its percentiles are the exact nearest-rank ones. With more calls it keeps
 * log-linear buckets instead: every duration below 256 ns is its own bucket,
 * each power of two above is cut into 2^KMAG_DIST_SUB_BITS = 128 equal
 * buckets (1 KiB of counts per power of two the durations span, at most
 * 58 KiB). A percentile is then the middle of the bucket that holds the
 * nearest-rank call, clamped to the exact minimum and maximum: it differs from
 * the exact one by at most 1/256 of it (0.39 %), and p100 (the longest) and
 * the shortest stay exact. The log2 histogram in ns is exact in both cases
 * (a power of two is a union of whole buckets); in us only while exact.
 */
#ifndef KMAG_DIST_H
#define KMAG_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KMAG_DIST_EXACT_MAX 1024	/* durations kept one by one */
#define KMAG_DIST_SUB_BITS 7		/* log-linear buckets: 128 per power of two */
#define KMAG_DIST_LOG2_SLOTS 65		/* log2 histogram slots, see kmag_dist_log2() */

struct kmag_dist;

/* A new empty distribution; free with kmag_dist_free(). NULL on ENOMEM. */
struct kmag_dist *kmag_dist_new(void);
void kmag_dist_free(struct kmag_dist *d);
/* Adds one call lasting @ns. 0 or -ENOMEM (@d is unchanged then). */
int kmag_dist_add(struct kmag_dist *d, uint64_t ns);
/* Adds every call of @src to @d. 0 or -ENOMEM. */
int kmag_dist_merge(struct kmag_dist *d, const struct kmag_dist *src);
/*
 * Sorts the kept durations. Optional: the first percentile read sorts them
 * otherwise (so a reading that asks none never pays for it); call it after
 * the last kmag_dist_add() or kmag_dist_merge() before reading @d from
 * several threads at once.
 */
void kmag_dist_finish(struct kmag_dist *d);

/* Calls added. */
uint64_t kmag_dist_count(const struct kmag_dist *d);
/* True while every duration is kept (percentiles exact), false once bucketed. */
bool kmag_dist_exact(const struct kmag_dist *d);
/*
 * The nearest-rank @p-th percentile (0 < @p <= 100): the duration of the call
 * of rank ceil(@p / 100 x count) in ascending order (see above for the bound
 * once bucketed). 0 when the distribution is empty.
 */
uint64_t kmag_dist_percentile(const struct kmag_dist *d, double p);
/*
 * The log2 histogram of the durations in units of @unit_ns (1: ns, 1000: us;
 * a duration is ns / @unit_ns rounded down), as the other power-of-two
 * histograms of kmag count (lib/util/log2hist.h): @slots[i] (1 <= i <= 64)
 * counts the calls of 2^(i-1) to 2^i - 1 units, @slots[0] those of 0
 * (funclatency shows them with 1, as "0 -> 1"). Returns the highest slot in
 * use (-1 when empty), -EINVAL for another unit, or -ENOTSUP for us once
 * bucketed (1000 x 2^k ns cuts buckets).
 */
int kmag_dist_log2(const struct kmag_dist *d, unsigned int unit_ns,
		   uint64_t slots[KMAG_DIST_LOG2_SLOTS]);
/* Bytes @d holds (for the memory figures). */
size_t kmag_dist_bytes(const struct kmag_dist *d);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_DIST_H */
