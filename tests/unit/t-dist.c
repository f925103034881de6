// SPDX-License-Identifier: MIT
/*
 * t-dist.c - call-duration distributions (include/kmag/dist.h): exact
 * nearest-rank percentiles while the calls fit, within 1/256 once bucketed,
 * funclatency's log2 slots in ns in both (in us while exact), and merging.
 */
#include <errno.h>
#include <math.h>

#include "kmag/dist.h"
#include "test.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The nearest-rank percentile of @n sorted values, computed apart from dist.c. */
static uint64_t rank_value(const uint64_t *sorted, size_t n, unsigned int per_mille)
{
	size_t rank = (size_t)((per_mille * (uint64_t)n + 999) / 1000);

	return sorted[(rank ? rank : 1) - 1];
}

/* A heavy-tailed duration: 1 ns .. about 17 s, most of them near a microsecond. */
static uint64_t next_duration(uint64_t *state)
{
	unsigned int bits;

	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	bits = 10 + (unsigned int)(*state >> 61) + ((*state >> 40) % 97 == 0 ? 24 : 0);
	return (*state >> 11) & ((1ull << bits) - 1);
}

static void check_against(const struct kmag_dist *d, uint64_t *v, size_t n, bool exact)
{
	static const unsigned int pm[] = { 1, 10, 250, 500, 900, 990, 999, 1000 };
	size_t k;

	qsort(v, n, sizeof(*v), cmp_u64);
	CHECK_EQ(kmag_dist_count(d), n);
	CHECK_EQ(kmag_dist_exact(d), exact);
	for (k = 0; k < sizeof(pm) / sizeof(pm[0]); k++) {
		uint64_t want = rank_value(v, n, pm[k]);
		uint64_t have = kmag_dist_percentile(d, pm[k] / 10.0);
		uint64_t err = have > want ? have - want : want - have;

		if (exact)
			CHECK_EQ(have, want);
		else if (err * 256 > want)
			test_fail(__FILE__, __LINE__, "p%.1f: %" PRIu64 ", exact %" PRIu64,
				  pm[k] / 10.0, have, want);
	}
	/* the longest stays exact, bucketed or not */
	CHECK_EQ(kmag_dist_percentile(d, 100), v[n - 1]);
}

static void check_log2(const struct kmag_dist *d, const uint64_t *v, size_t n)
{
	static const unsigned int units[] = { 1, 1000 };
	uint64_t want[KMAG_DIST_LOG2_SLOTS], have[KMAG_DIST_LOG2_SLOTS];
	size_t u, i;

	for (u = 0; u < 2; u++) {
		memset(want, 0, sizeof(want));
		for (i = 0; i < n; i++) {
			uint64_t x = v[i] / units[u];
			unsigned int s = 0;

			while (s < 64 && x >> s)	/* the bit length, by counting */
				s++;
			want[s]++;
		}
		if (units[u] != 1 && !kmag_dist_exact(d)) {
			/* 1000 x 2^k ns cuts buckets: us slots only while exact */
			CHECK_EQ(kmag_dist_log2(d, units[u], have), -ENOTSUP);
			continue;
		}
		CHECK(kmag_dist_log2(d, units[u], have) >= 0);
		for (i = 0; i < KMAG_DIST_LOG2_SLOTS; i++)
			CHECK_EQ(have[i], want[i]);
	}
	CHECK_EQ(kmag_dist_log2(d, 7, have), -EINVAL);
}

static void exact_while_the_calls_fit(void)
{
	uint64_t v[] = { 7, 3, 10, 1, 9, 2, 8, 4, 6, 5 };
	struct kmag_dist *d = kmag_dist_new();
	uint64_t slots[KMAG_DIST_LOG2_SLOTS];
	size_t i;

	CHECK(d);
	CHECK_EQ(kmag_dist_percentile(d, 50), 0);
	CHECK_EQ(kmag_dist_log2(d, 1, slots), -1);
	for (i = 0; i < 10; i++)
		CHECK_EQ(kmag_dist_add(d, v[i]), 0);
	kmag_dist_finish(d);
	/* rank ceil(p/100 x 10) */
	CHECK_EQ(kmag_dist_percentile(d, 50), 5);
	CHECK_EQ(kmag_dist_percentile(d, 90), 9);
	CHECK_EQ(kmag_dist_percentile(d, 99), 10);
	CHECK_EQ(kmag_dist_percentile(d, 0.1), 1);
	CHECK_EQ(kmag_dist_log2(d, 1, slots), 4);	/* 8..15 */
	CHECK_EQ(slots[1], 1);
	CHECK_EQ(slots[2], 2);
	CHECK_EQ(slots[3], 4);
	CHECK_EQ(slots[4], 3);
	check_log2(d, v, 10);
	check_against(d, v, 10, true);
	kmag_dist_free(d);
	kmag_dist_free(NULL);
}

static void bucketed_within_the_bound(void)
{
	size_t n = 200000, i;
	uint64_t *v = malloc(n * sizeof(*v)), state = 42;
	struct kmag_dist *d = kmag_dist_new();

	CHECK(v && d);
	for (i = 0; i < KMAG_DIST_EXACT_MAX; i++) {
		v[i] = next_duration(&state);
		CHECK_EQ(kmag_dist_add(d, v[i]), 0);
	}
	kmag_dist_finish(d);
	CHECK(kmag_dist_exact(d));
	check_against(d, v, KMAG_DIST_EXACT_MAX, true);
	for (; i < n - 2; i++) {
		v[i] = next_duration(&state);
		CHECK_EQ(kmag_dist_add(d, v[i]), 0);
	}
	/* the extremes of the range, in their buckets */
	v[n - 2] = UINT64_MAX;
	v[n - 1] = 0;
	CHECK_EQ(kmag_dist_add(d, v[n - 2]), 0);
	CHECK_EQ(kmag_dist_add(d, v[n - 1]), 0);
	kmag_dist_finish(d);
	check_log2(d, v, n);
	check_against(d, v, n, false);
	CHECK_EQ(kmag_dist_percentile(d, 0.0001), 0);
	/* 1 KiB per power of two spanned, here all 64 of them */
	CHECK(kmag_dist_bytes(d) < 64 * 1024);
	kmag_dist_free(d);
	free(v);
}

static void merged_as_one(void)
{
	size_t n = 3000, i;
	uint64_t *v = malloc(n * sizeof(*v)), state = 7;
	struct kmag_dist *a = kmag_dist_new(), *b = kmag_dist_new(), *c = kmag_dist_new();
	struct kmag_dist *e = kmag_dist_new();

	CHECK(v && a && b && c && e);
	for (i = 0; i < n; i++) {
		v[i] = next_duration(&state);
		/* a: 500 exact, b: 2500 bucketed */
		CHECK_EQ(kmag_dist_add(i < 500 ? a : b, v[i]), 0);
	}
	/* exact + exact that still fit: exact */
	CHECK_EQ(kmag_dist_merge(e, a), 0);
	CHECK_EQ(kmag_dist_merge(e, a), 0);
	kmag_dist_finish(e);
	CHECK(kmag_dist_exact(e));
	CHECK_EQ(kmag_dist_count(e), 1000);
	/* exact into empty, then bucketed into it; and the other way round */
	CHECK_EQ(kmag_dist_merge(c, a), 0);
	CHECK_EQ(kmag_dist_merge(c, b), 0);
	CHECK_EQ(kmag_dist_merge(b, a), 0);
	kmag_dist_finish(b);
	kmag_dist_finish(c);
	check_log2(c, v, n);
	check_log2(b, v, n);
	check_against(c, v, n, false);
	check_against(b, v, n, false);
	for (i = 1; i <= 100; i++)
		CHECK_EQ(kmag_dist_percentile(b, (double)i), kmag_dist_percentile(c, (double)i));
	kmag_dist_free(a);
	kmag_dist_free(b);
	kmag_dist_free(c);
	kmag_dist_free(e);
	free(v);
}

/* Percentiles read without kmag_dist_finish() (selected in place): as of the sorted. */
static void read_unsorted(void)
{
	uint64_t state = 3, v[KMAG_DIST_EXACT_MAX], sorted[KMAG_DIST_EXACT_MAX];
	size_t n, i, round;

	for (round = 0; round < 200; round++) {
		struct kmag_dist *d = kmag_dist_new();
		unsigned int p;

		CHECK(d);
		n = 1 + (size_t)(next_duration(&state) % KMAG_DIST_EXACT_MAX);
		for (i = 0; i < n; i++) {
			/* few distinct values in some rounds: many equal ones */
			v[i] = round % 3 ? next_duration(&state) : next_duration(&state) % 4;
			CHECK_EQ(kmag_dist_add(d, v[i]), 0);
		}
		memcpy(sorted, v, n * sizeof(*v));
		qsort(sorted, n, sizeof(*sorted), cmp_u64);
		for (p = 1; p <= 1000; p += 37)
			CHECK_EQ(kmag_dist_percentile(d, p / 10.0), rank_value(sorted, n, p));
		CHECK_EQ(kmag_dist_percentile(d, 50), rank_value(sorted, n, 500));
		CHECK_EQ(kmag_dist_percentile(d, 0.001), sorted[0]);
		kmag_dist_free(d);
	}
}

const struct test_case dist_tests[] = {
	{ "exact nearest-rank percentiles while the calls fit", exact_while_the_calls_fit },
	{ "bucketed percentiles within 1/256, log2 slots exact", bucketed_within_the_bound },
	{ "merged distributions equal one of all the calls", merged_as_one },
	{ "percentiles read unsorted equal the sorted ones", read_unsorted },
	TEST_LIST_END,
};
