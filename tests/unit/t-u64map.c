// SPDX-License-Identifier: MIT
#include "test.h"
#include "util/u64map.h"

static void basic_and_growth(void)
{
	struct u64map m;
	uint64_t i, *v;
	bool ins;

	u64map_init(&m);
	CHECK(u64map_get(&m, 5) == NULL);
	for (i = 0; i < 10000; i++) {
		v = u64map_upsert(&m, i * 7919, i, &ins);
		CHECK(v && ins);
	}
	for (i = 0; i < 10000; i++) {
		v = u64map_get(&m, i * 7919);
		CHECK(v);
		CHECK_EQ(*v, i);
	}
	v = u64map_upsert(&m, 7919, 99, &ins);
	CHECK(!ins);
	CHECK_EQ(*v, 1);
	CHECK_EQ(m.count, 10000);
	u64map_release(&m);
}

/* the empty-slot marker is a valid key too (found by fuzz-pages) */
static void max_key(void)
{
	struct u64map m;
	uint64_t *v;
	bool ins;

	u64map_init(&m);
	CHECK(u64map_get(&m, UINT64_MAX) == NULL);
	u64map_upsert(&m, 1, 10, NULL);
	CHECK(u64map_get(&m, UINT64_MAX) == NULL);
	v = u64map_upsert(&m, UINT64_MAX, 42, &ins);
	CHECK(v && ins);
	v = u64map_upsert(&m, UINT64_MAX, 43, &ins);
	CHECK(!ins);
	CHECK_EQ(*u64map_get(&m, UINT64_MAX), 42);
	CHECK_EQ(*u64map_get(&m, 1), 10);
	u64map_release(&m);
}

const struct test_case u64map_tests[] = {
	{ "basic_and_growth", basic_and_growth },
	{ "max_key", max_key },
	TEST_LIST_END,
};
