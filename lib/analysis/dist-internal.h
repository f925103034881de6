/* SPDX-License-Identifier: MIT */
/*
 * dist-internal.h - a distribution's state (dist.c) and the adding of one
 * duration inlined: the call graph adds one per timed call, the hot path of
 * reading a trace, so the common cases (a kept duration with room, a bucket
 * within the range) cost a few instructions and no call.
 */
#ifndef KMAG_DIST_INTERNAL_H
#define KMAG_DIST_INTERNAL_H

#include "internal.h"
#include "kmag/dist.h"
#include "util/log2hist.h"

#define DIST_SUB (1u << KMAG_DIST_SUB_BITS)

/*
 * The call graph keeps its distributions in one array (no pointer to follow
 * per call), the counts of a bucketed one in one block: a duration touches
 * the distribution and its bucket.
 */
struct kmag_dist {
	uint64_t n, min, max;
	uint64_t *v;		/* the durations while exact (NULL once bucketed) */
	uint64_t *c;		/* once bucketed: the counts of buckets lo .. lo + nb - 1 */
	size_t cap;		/* of v */
	uint32_t nv;		/* kept in v */
	uint32_t lo, nb;
	bool sorted;		/* v is in ascending order */
};

/* An empty distribution in place (for arrays of them); kmag__dist_release() after. */
static inline void kmag__dist_init(struct kmag_dist *d)
{
	memset(d, 0, sizeof(*d));
	d->min = UINT64_MAX;
}

/* Frees what @d holds, not @d. */
void kmag__dist_release(struct kmag_dist *d);

/* Bucket of @v: values below 2 x SUB are their own; above, SUB per power of two. */
static inline uint32_t kmag__dist_bucket(uint64_t v)
{
	unsigned int e;

	if (v < 2 * DIST_SUB)
		return (uint32_t)v;
	e = 63u - (unsigned int)__builtin_clzll(v);
	return (e - KMAG_DIST_SUB_BITS) * DIST_SUB + (uint32_t)(v >> (e - KMAG_DIST_SUB_BITS));
}

/* kmag_dist_add() where the inline path below does not go. */
int kmag__dist_add_slow(struct kmag_dist *d, uint64_t ns);

/* kmag_dist_add(), inlined for the call graph. 0 or -ENOMEM. */
static inline int kmag__dist_add(struct kmag_dist *d, uint64_t ns)
{
	if (d->c && ns >= 2 * DIST_SUB) {	/* bucketed, the common case first */
		unsigned int e = 63u - (unsigned int)__builtin_clzll(ns);
		uint32_t i = (e - KMAG_DIST_SUB_BITS) * DIST_SUB +
			     (uint32_t)(ns >> (e - KMAG_DIST_SUB_BITS)) - d->lo;

		if (i >= d->nb)
			return kmag__dist_add_slow(d, ns);
		d->c[i]++;
	} else if (!d->c && d->nv < d->cap && d->nv < KMAG_DIST_EXACT_MAX) {
		d->v[d->nv++] = ns;
		d->sorted = false;
	} else {
		return kmag__dist_add_slow(d, ns);
	}
	d->n++;
	if (ns < d->min)
		d->min = ns;
	if (ns > d->max)
		d->max = ns;
	return 0;
}

#endif /* KMAG_DIST_INTERNAL_H */
