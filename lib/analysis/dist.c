// SPDX-License-Identifier: MIT
/*
 * dist.c - a function's call durations as a distribution (include/kmag/dist.h):
 * kept one by one while they fit (exact percentiles), log-linear buckets
 * beyond. Written here rather than taken from HdrHistogram_c: the bucket
 * scheme is the same idea (a power of two cut into equal sub-buckets), but
 * kmag needs the exact small case, the exact minimum and maximum, funclatency's
 * log2 slots and merging, in a hundred lines, with no new dependency.
 */
#define PR_DOMAIN "dist"
#include "internal.h"
#include "kmag/dist.h"
#include <math.h>

#include "util/log2hist.h"

#define SUB (1u << KMAG_DIST_SUB_BITS)
#define UNITS 2		/* log2 slots kept per unit: ns, us */

/* The buckets lo .. lo + nb - 1 of a bucketed distribution. */
struct buckets {
	uint32_t lo, nb;
	uint64_t log2[UNITS][KMAG_DIST_LOG2_SLOTS];
	uint64_t c[];
};

struct kmag_dist {
	uint64_t n, min, max;
	uint64_t *v;		/* the durations while exact (NULL once bucketed) */
	uint32_t nv;
	size_t cap;
	bool sorted;
	struct buckets *b;	/* once bucketed */
};

struct kmag_dist *kmag_dist_new(void)
{
	struct kmag_dist *d = calloc(1, sizeof(*d));

	if (d)
		d->min = UINT64_MAX;
	return d;
}

void kmag_dist_free(struct kmag_dist *d)
{
	if (!d)
		return;
	free(d->v);
	free(d->b);
	free(d);
}

/* Bucket of @v: values below 2 x SUB are their own; above, SUB per power of two. */
static inline uint32_t bucket_of(uint64_t v)
{
	unsigned int e;

	if (v < 2 * SUB)
		return (uint32_t)v;
	e = 63u - (unsigned int)__builtin_clzll(v);
	return (e - KMAG_DIST_SUB_BITS) * SUB + (uint32_t)(v >> (e - KMAG_DIST_SUB_BITS));
}

/* The first value of bucket @i and its width. */
static uint64_t bucket_low(uint32_t i, uint64_t *width)
{
	unsigned int shift;

	if (i < 2 * SUB) {
		*width = 1;
		return i;
	}
	shift = i / SUB - 1;	/* the power of two is shift + SUB_BITS */
	*width = 1ull << shift;
	return (uint64_t)(i % SUB + SUB) << shift;
}

/* Makes bucket @i part of @d's range. 0 or -ENOMEM. */
static int bucket_reach(struct kmag_dist *d, uint32_t i)
{
	struct buckets *b = d->b, *nb;
	uint32_t lo, hi, old_hi;

	if (b && i >= b->lo && i < b->lo + b->nb)
		return 0;
	lo = b && b->nb && b->lo < i ? b->lo : i;
	old_hi = b && b->nb ? b->lo + b->nb - 1 : i;
	hi = old_hi > i ? old_hi : i;
	nb = realloc(b, sizeof(*b) + (size_t)(hi - lo + 1) * sizeof(b->c[0]));
	if (!nb)
		return -ENOMEM;
	if (!b) {
		memset(nb, 0, sizeof(*nb));
	} else if (nb->nb && nb->lo > lo) {
		memmove(nb->c + (nb->lo - lo), nb->c, (size_t)nb->nb * sizeof(nb->c[0]));
		memset(nb->c, 0, (size_t)(nb->lo - lo) * sizeof(nb->c[0]));
	}
	if (!nb->nb)
		memset(nb->c, 0, (size_t)(hi - lo + 1) * sizeof(nb->c[0]));
	else if (hi > old_hi)
		memset(nb->c + (old_hi - lo + 1), 0, (size_t)(hi - old_hi) * sizeof(nb->c[0]));
	nb->lo = lo;
	nb->nb = hi - lo + 1;
	d->b = nb;
	return 0;
}

static int bucket_add(struct kmag_dist *d, uint64_t v)
{
	uint32_t i = bucket_of(v);

	if (bucket_reach(d, i))
		return -ENOMEM;
	d->b->c[i - d->b->lo]++;
	d->b->log2[0][kmag__log2_bucket(v)]++;
	d->b->log2[1][kmag__log2_bucket(v / 1000)]++;
	return 0;
}

/* From kept durations to buckets (the kept ones move into them). */
static int to_buckets(struct kmag_dist *d)
{
	uint32_t k;

	if (d->b)
		return 0;
	for (k = 0; k < d->nv; k++)
		if (bucket_add(d, d->v[k])) {
			free(d->b);
			d->b = NULL;
			return -ENOMEM;
		}
	free(d->v);
	d->v = NULL;
	d->nv = d->cap = 0;
	return 0;
}

static void minmax(struct kmag_dist *d, uint64_t lo, uint64_t hi, uint64_t n)
{
	d->n += n;
	if (lo < d->min)
		d->min = lo;
	if (hi > d->max)
		d->max = hi;
}

int kmag_dist_add(struct kmag_dist *d, uint64_t ns)
{
	if (!d->b && d->nv < KMAG_DIST_EXACT_MAX) {
		if (d->nv == d->cap &&
		    kmag__grow(&d->v, &d->cap, d->nv + 1u, sizeof(*d->v)))
			return -ENOMEM;
		d->v[d->nv++] = ns;
		d->sorted = false;
	} else if (to_buckets(d) || bucket_add(d, ns)) {
		return -ENOMEM;
	}
	minmax(d, ns, ns, 1);
	return 0;
}

int kmag_dist_merge(struct kmag_dist *d, const struct kmag_dist *src)
{
	uint32_t k, u, s;

	if (!src->n)
		return 0;
	if (!src->b) {
		for (k = 0; k < src->nv; k++)
			if (kmag_dist_add(d, src->v[k]))
				return -ENOMEM;
		return 0;
	}
	if (to_buckets(d) || bucket_reach(d, src->b->lo) ||
	    bucket_reach(d, src->b->lo + src->b->nb - 1))
		return -ENOMEM;
	for (k = 0; k < src->b->nb; k++)
		d->b->c[src->b->lo + k - d->b->lo] += src->b->c[k];
	for (u = 0; u < UNITS; u++)
		for (s = 0; s < KMAG_DIST_LOG2_SLOTS; s++)
			d->b->log2[u][s] += src->b->log2[u][s];
	minmax(d, src->min, src->max, src->n);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void kmag_dist_finish(struct kmag_dist *d)
{
	if (!d->b && !d->sorted && d->nv > 1)
		qsort(d->v, d->nv, sizeof(*d->v), cmp_u64);
	d->sorted = true;
}

uint64_t kmag_dist_count(const struct kmag_dist *d)
{
	return d->n;
}

bool kmag_dist_exact(const struct kmag_dist *d)
{
	return !d->b;
}

uint64_t kmag_dist_percentile(const struct kmag_dist *d, double p)
{
	uint64_t rank, seen = 0, width, low, mid;
	uint32_t k;

	if (!d->n)
		return 0;
	rank = (uint64_t)ceil(p * (double)d->n / 100.0);
	if (rank < 1)
		rank = 1;
	if (rank >= d->n)
		return d->max;
	if (!d->b)
		return d->v[rank - 1];
	for (k = 0; k < d->b->nb; k++) {
		seen += d->b->c[k];
		if (seen >= rank)
			break;
	}
	low = bucket_low(d->b->lo + k, &width);
	mid = low + (width - 1) / 2;
	return mid < d->min ? d->min : mid > d->max ? d->max : mid;
}

int kmag_dist_log2(const struct kmag_dist *d, unsigned int unit_ns,
		   uint64_t slots[KMAG_DIST_LOG2_SLOTS])
{
	int u = unit_ns == 1 ? 0 : unit_ns == 1000 ? 1 : -1, top = -1, s;
	uint32_t k;

	if (u < 0)
		return -EINVAL;
	if (d->b) {
		memcpy(slots, d->b->log2[u], sizeof(d->b->log2[u]));
	} else {
		memset(slots, 0, KMAG_DIST_LOG2_SLOTS * sizeof(slots[0]));
		for (k = 0; k < d->nv; k++)
			slots[kmag__log2_bucket(d->v[k] / unit_ns)]++;
	}
	for (s = 0; s < KMAG_DIST_LOG2_SLOTS; s++)
		if (slots[s])
			top = s;
	return top;
}

size_t kmag_dist_bytes(const struct kmag_dist *d)
{
	return sizeof(*d) + (size_t)d->cap * sizeof(*d->v) +
	       (d->b ? sizeof(*d->b) + (size_t)d->b->nb * sizeof(d->b->c[0]) : 0);
}
