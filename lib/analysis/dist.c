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
#include "dist-internal.h"
#include <math.h>


#define SUB DIST_SUB

struct kmag_dist *kmag_dist_new(void)
{
	struct kmag_dist *d = malloc(sizeof(*d));

	if (d)
		kmag__dist_init(d);
	return d;
}

void kmag__dist_release(struct kmag_dist *d)
{
	free(d->v);
	free(d->c);
	kmag__dist_init(d);
}

void kmag_dist_free(struct kmag_dist *d)
{
	if (!d)
		return;
	kmag__dist_release(d);
	free(d);
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
	uint32_t lo, hi, old_hi;
	uint64_t *c;

	if (d->c && i >= d->lo && i < d->lo + d->nb)
		return 0;
	/* whole powers of two (SUB buckets each, aligned): it grows a few times */
	lo = d->c && d->lo < i ? d->lo : i / SUB * SUB;
	old_hi = d->c ? d->lo + d->nb - 1 : i;
	hi = old_hi > i ? old_hi : i / SUB * SUB + SUB - 1;
	c = calloc((size_t)(hi - lo + 1), sizeof(*c));
	if (!c)
		return -ENOMEM;
	if (d->c)
		memcpy(c + (d->lo - lo), d->c, (size_t)d->nb * sizeof(*c));
	free(d->c);
	d->c = c;
	d->lo = lo;
	d->nb = hi - lo + 1;
	return 0;
}

static int bucket_add(struct kmag_dist *d, uint64_t v)
{
	uint32_t i = kmag__dist_bucket(v);

	if (bucket_reach(d, i))
		return -ENOMEM;
	d->c[i - d->lo]++;
	return 0;
}

/* From kept durations to buckets (the kept ones move into them). */
static int to_buckets(struct kmag_dist *d)
{
	uint32_t k;

	if (d->c)
		return 0;
	for (k = 0; k < d->nv; k++)
		if (bucket_add(d, d->v[k])) {
			free(d->c);
			d->c = NULL;
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

int kmag__dist_add_slow(struct kmag_dist *d, uint64_t ns)
{
	if (!d->c && d->nv < KMAG_DIST_EXACT_MAX) {
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

int kmag_dist_add(struct kmag_dist *d, uint64_t ns)
{
	return kmag__dist_add(d, ns);
}

int kmag_dist_merge(struct kmag_dist *d, const struct kmag_dist *src)
{
	uint32_t k;

	if (!src->n)
		return 0;
	if (!src->c) {
		for (k = 0; k < src->nv; k++)
			if (kmag_dist_add(d, src->v[k]))
				return -ENOMEM;
		return 0;
	}
	if (to_buckets(d) || bucket_reach(d, src->lo) || bucket_reach(d, src->lo + src->nb - 1))
		return -ENOMEM;
	for (k = 0; k < src->nb; k++)
		d->c[src->lo + k - d->lo] += src->c[k];
	minmax(d, src->min, src->max, src->n);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The @k-th smallest kept duration (0-based), by quickselect (Hoare's FIND):
 * the kept ones are reordered in place, a permutation of the same values, so
 * a distribution reads as const. Three percentiles cost three linear passes,
 * not a sort (report reads p50, p90, p99 of every function).
 */
static uint64_t select_rank(struct kmag_dist *d, uint32_t k)
{
	uint64_t *v = d->v, pivot, t;
	uint32_t lo = 0, hi = d->nv - 1, i, j;

	while (lo < hi) {
		pivot = v[lo + (hi - lo) / 2];
		i = lo;
		j = hi;
		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				t = v[i];
				v[i] = v[j];
				v[j] = t;
				i++;
				if (!j--)
					break;
			}
		}
		/* now v[lo..j] <= pivot <= v[i..hi], and j < i */
		if (k <= j && j != UINT32_MAX)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return v[k];
	}
	return v[k];
}

void kmag_dist_finish(struct kmag_dist *d)
{
	if (!d->c && !d->sorted && d->nv > 1)
		qsort(d->v, d->nv, sizeof(*d->v), cmp_u64);
	d->sorted = true;
}

uint64_t kmag_dist_count(const struct kmag_dist *d)
{
	return d->n;
}

bool kmag_dist_exact(const struct kmag_dist *d)
{
	return !d->c;
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
	if (!d->c)
		return d->sorted ? d->v[rank - 1] : select_rank((struct kmag_dist *)d, rank - 1);
	for (k = 0; k < d->nb; k++) {
		seen += d->c[k];
		if (seen >= rank)
			break;
	}
	low = bucket_low(d->lo + k, &width);
	mid = low + (width - 1) / 2;
	return mid < d->min ? d->min : mid > d->max ? d->max : mid;
}

int kmag_dist_log2(const struct kmag_dist *d, unsigned int unit_ns,
		   uint64_t slots[KMAG_DIST_LOG2_SLOTS])
{
	int top = -1, s;
	uint32_t k;
	uint64_t width;

	if (unit_ns != 1 && unit_ns != 1000)
		return -EINVAL;
	/* us slots (1000 x 2^k ns) would cut buckets: not from buckets */
	if (unit_ns != 1 && d->c)
		return -ENOTSUP;
	memset(slots, 0, KMAG_DIST_LOG2_SLOTS * sizeof(slots[0]));
	if (d->c) {
		/* a bucket lies within one power of two: its slot is its first value's */
		for (k = 0; k < d->nb; k++)
			slots[kmag__log2_bucket(bucket_low(d->lo + k, &width))] += d->c[k];
	} else {
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
	       (d->c ? (size_t)d->nb * sizeof(*d->c) : 0);
}
