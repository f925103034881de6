// SPDX-License-Identifier: MIT
/*
 * t-suggest.c - kmag_suggest(), the one "did you mean" of kmag: typos of one
 * or two edits (a swap of two neighbours is one), prefixes, closest first.
 */
#include "test.h"
#include "kmag/kmag.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const char *suggest(const char *word, const char *const *names, size_t n)
{
	static char buf[256];

	kmag_suggest(word, names, n, "", buf, sizeof(buf));
	return buf;
}

static void typos_of_one_or_two_edits(void)
{
	static const char *const events[] = { "sched_wakeup", "sched_switch", "sched_waking",
					      "sched_process_exit" };
	static const char *const funcs[] = { "vfs_write", "vfs_read", "ksys_read", "vfs_readv" };

	/* issue 23: "sched_swtich" and "vfs_raed" got no suggestion; a swap is one edit */
	CHECK_STREQ(suggest("sched_swtich", events, N(events)), "sched_switch");
	CHECK_STREQ(suggest("vfs_raed", funcs, N(funcs)), "vfs_read, vfs_readv");
	/* one wrong, missing, extra character */
	CHECK_STREQ(suggest("vfs_reed", funcs, N(funcs)), "vfs_read, vfs_readv");
	CHECK_STREQ(suggest("vfs_rad", funcs, N(funcs)), "vfs_read, vfs_readv");
	/* two edits only for words of five characters or more */
	CHECK_STREQ(suggest("vfs_wirte", funcs, N(funcs)), "vfs_write");
	CHECK_STREQ(suggest("cput", (const char *const[]){ "cpu", "comm" }, 2), "cpu");
	CHECK_STREQ(suggest("pdi", (const char *const[]){ "pid" }, 1), "pid");
	CHECK_STREQ(suggest("xyz", (const char *const[]){ "pid", "abc" }, 2), "");
}

static void closest_first_and_at_most_four(void)
{
	static const char *const funcs[] = { "vfs_readv", "vfs_read_iter", "vfs_reader", "vfs_readx",
					     "vfs_read", "vfs_readahead" };
	char buf[256];

	/* one edit, then two, then the names that merely start with it (in the list's order) */
	CHECK_EQ(kmag_suggest("vfs_rea", funcs, N(funcs), "", buf, sizeof(buf)), 4);
	CHECK_STREQ(buf, "vfs_read, vfs_readv, vfs_readx, vfs_read_iter");
	/* prefixes: "--cp" for --cpu; the word itself is never suggested */
	CHECK_STREQ(suggest("cp", (const char *const[]){ "comm", "cpu", "cp" }, 3), "cpu");
	/* duplicates once, a prefix before each name */
	CHECK_EQ(kmag_suggest("vfs_raed", (const char *const[]){ "vfs_read", "vfs_read", NULL }, 3,
			      "--", buf, sizeof(buf)), 1);
	CHECK_STREQ(buf, "--vfs_read");
	/* a small buffer is cut, never overrun */
	CHECK_EQ(kmag_suggest("vfs_rea", funcs, N(funcs), "", buf, 8), 4);
	CHECK_STREQ(buf, "vfs_rea");
	CHECK_EQ(kmag_suggest("", funcs, N(funcs), "", buf, sizeof(buf)), 0);
}

const struct test_case suggest_tests[] = {
	{ "typos of one or two edits, a swap being one", typos_of_one_or_two_edits },
	{ "closest first, at most four", closest_first_and_at_most_four },
	TEST_LIST_END,
};
