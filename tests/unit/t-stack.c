// SPDX-License-Identifier: MIT
/*
 * t-stack.c - parsing the kernel's stack_trace file (the stack tracer's
 * deepest stack). The sample is the kernel's own layout (see
 * Documentation/trace/ftrace.rst, "Stack trace"); the expected values are
 * read off the sample text.
 */
#include <errno.h>

#include "kmag/stack.h"
#include "test.h"

static const char sample[] =
	"        Depth    Size   Location    (3 entries)\n"
	"        -----    ----   --------\n"
	"  0)     3312      48   blake2s_compress+0x5/0xa0\n"
	"  1)     3264     112   __schedule+0x2e1/0x870\n"
	"  2)     3152      32   do_syscall_64+0x38/0x90\n";

static void parses_frames(void)
{
	struct kmag_stack_result res;

	CHECK_EQ(kmag_stack_parse(sample, &res), 0);
	CHECK_EQ(res.nr_frames, 3);
	CHECK_EQ(res.frames[0].depth, 3312);
	CHECK_EQ(res.frames[0].size, 48);
	CHECK_STREQ(res.frames[0].location, "blake2s_compress+0x5/0xa0");
	CHECK_STREQ(res.frames[0].func, "blake2s_compress");
	CHECK_EQ(res.frames[1].depth, 3264);
	CHECK_EQ(res.frames[1].size, 112);
	CHECK_STREQ(res.frames[1].func, "__schedule");
	CHECK_EQ(res.frames[2].depth, 3152);
	CHECK_STREQ(res.frames[2].func, "do_syscall_64");
	kmag_stack_result_release(&res);
	CHECK_EQ(res.nr_frames, 0);
}

static void header_only_is_empty(void)
{
	struct kmag_stack_result res;

	CHECK_EQ(kmag_stack_parse("        Depth    Size   Location    (0 entries)\n"
				  "        -----    ----   --------\n", &res), 0);
	CHECK_EQ(res.nr_frames, 0);
	kmag_stack_result_release(&res);
}

static void not_a_stack_trace(void)
{
	struct kmag_stack_result res;

	CHECK_EQ(kmag_stack_parse("nop\n", &res), -EINVAL);
	CHECK_EQ(res.nr_frames, 0);
	CHECK_EQ(kmag_stack_parse("", &res), -EINVAL);
}

const struct test_case stack_tests[] = {
	{ "parses_frames", parses_frames },
	{ "header_only_is_empty", header_only_is_empty },
	{ "not_a_stack_trace", not_a_stack_trace },
	TEST_LIST_END,
};
