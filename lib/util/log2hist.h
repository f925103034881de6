/* SPDX-License-Identifier: MIT */
/*
 * log2hist.h - power-of-two histograms of values (as bpftrace's hist()):
 * bucket b > 0 holds [2^(b-1), 2^b), bucket 0 holds 0; negative values of a
 * signed quantity go to their own buckets by magnitude. Shared by the probe
 * argument summaries and report --arg. Header-only; a histogram has 65
 * buckets (KMAG_ARGSTAT_HIST, KMAG_PROBE_HIST).
 */
#ifndef KMAG_UTIL_LOG2HIST_H
#define KMAG_UTIL_LOG2HIST_H

#include <stdbool.h>
#include <stdint.h>

/* The bucket of @v: 0 for 0, else its bit length (1..64). */
static inline unsigned kmag__log2_bucket(uint64_t v)
{
	return v ? 64 - (unsigned)__builtin_clzll(v) : 0;
}

/* Counts @v in @hist, or in @neg_hist by magnitude when @is_signed and it is negative. */
static inline void kmag__log2hist_add(uint64_t *hist, uint64_t *neg_hist, uint64_t v,
				      bool is_signed)
{
	if (is_signed && (int64_t)v < 0)
		neg_hist[kmag__log2_bucket(-v)]++;
	else
		hist[kmag__log2_bucket(v)]++;
}

#endif /* KMAG_UTIL_LOG2HIST_H */
