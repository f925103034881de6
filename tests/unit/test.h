/* SPDX-License-Identifier: MIT */
/*
 * test.h - a minimal unit-test harness: each test runs in its own child
 * process (a crash fails one test, not the run) and results are printed as
 * TAP for `meson test`.
 */
#ifndef KMAG_TEST_H
#define KMAG_TEST_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmag/kmag.h"

struct test_case {
	const char *name;
	void (*fn)(void);
};

#define TEST_LIST_END { NULL, NULL }

void test_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));

#define CHECK(cond)                                                          \
	do {                                                                 \
		if (!(cond))                                                 \
			test_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);   \
	} while (0)

#define CHECK_EQ(a, b)                                                                     \
	do {                                                                               \
		uint64_t _a = (uint64_t)(a), _b = (uint64_t)(b);                           \
		if (_a != _b)                                                              \
			test_fail(__FILE__, __LINE__, "%s == %s: %" PRIu64 " != %" PRIu64, #a, \
				  #b, _a, _b);                                             \
	} while (0)

#define CHECK_STREQ(a, b)                                                                  \
	do {                                                                               \
		const char *_a = (a), *_b = (b);                                           \
		if (!_a || !_b || strcmp(_a, _b))                                          \
			test_fail(__FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"", #a, #b,  \
				  _a ? _a : "(null)", _b ? _b : "(null)");                 \
	} while (0)

/* Ends the running test as skipped (TAP "# SKIP @reason"). */
void test_skip(const char *reason) __attribute__((noreturn));

/* Skips the running test when this build lacks optional library @f (enum kmag_feature). */
#define TEST_NEED_FEATURE(f)                                                 \
	do {                                                                 \
		if (!kmag_has_feature(f))                                    \
			test_skip(kmag_feature_name(f));                     \
	} while (0)

/* Path of a fixture file (KMAG_FIXTURES or the source tree); static buffer. */
const char *fixture(const char *rel);
/*
 * Path of fixture @rel; an .xz one unpacked (once per call) into
 * test_tmpdir() under its name without .xz. Skips the test when xz is
 * missing. Static buffer.
 */
const char *fixture_unpacked(const char *rel);
/* A fresh temporary directory for this test; removed by the harness. */
const char *test_tmpdir(void);
/* Writes @len bytes to a new file @name in test_tmpdir(); returns its path (static). */
const char *write_tmp(const char *name, const void *data, size_t len);

#endif /* KMAG_TEST_H */
