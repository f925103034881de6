// SPDX-License-Identifier: MIT
/*
 * t-calltree.c - the `kmag replay` printer (render/calltree.c) on small
 * hand-written function_graph texts: when a call's line appears (open, leaf,
 * close), which calls --depth, --min-duration, --errors and --limit keep,
 * and that a qualifying call's callers are printed once, before it.
 */
#include <errno.h>

#include "kmag/render/calltree.h"
#include "kmag/trace.h"
#include "test.h"

/*
 * A task's calls as the kernel prints them (funcgraph-proc), durations in us:
 *   outer { mid { a(5) b(20) } (30)  tail { c(40) } (45)  short(1) } (100)
 */
static const char nested[] =
	"# tracer: function_graph\n"
	"#\n"
	" 0)    cat-7    |               |  outer() {\n"
	" 0)    cat-7    |               |    mid() {\n"
	" 0)    cat-7    |   5.000 us    |      a();\n"
	" 0)    cat-7    | + 20.000 us   |      b();\n"
	" 0)    cat-7    | + 30.000 us   |    }\n"
	" 0)    cat-7    |               |    tail() {\n"
	" 0)    cat-7    | + 40.000 us   |      c();\n"
	" 0)    cat-7    | + 45.000 us   |    }\n"
	" 0)    cat-7    |   1.000 us    |    short();\n"
	" 0)    cat-7    | ! 100.000 us  |  }\n";

/*
 * Runs the printer with @o over @text and returns the function column of
 * each line (what follows the last " | "), one per line; free it.
 */
static char *run(const char *text, struct kmag_calltree_opts *o, int *ret)
{
	const char *path = write_tmp("calltree.txt", text, strlen(text));
	struct kmag_err err = { 0 };
	struct kmag_trace *t = kmag_trace_open(path, NULL, &err);
	struct kmag_calltree *c;
	char *buf = NULL, *cols, *line, *save = NULL, *p;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	CHECK(t && out);
	c = kmag_calltree_new(t, out, o, &err);
	CHECK(c);
	*ret = kmag_trace_read(t, kmag_calltree_event_fn, c, &err);
	if (*ret >= 0)
		CHECK_EQ(kmag_calltree_finish(c, &err), 0);
	kmag_calltree_free(c);
	kmag_trace_close(t);
	fclose(out);
	cols = calloc(1, len + 1);
	CHECK(cols);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *col = line;

		while ((p = strstr(col, " | ")))
			col = p + 3;
		strcat(cols, col);
		strcat(cols, "\n");
	}
	free(buf);
	return cols;
}

static void check_run(const char *text, struct kmag_calltree_opts *o, const char *want)
{
	int ret;
	char *got = run(text, o, &ret);

	CHECK(ret >= 0);
	CHECK_STREQ(got, want);
	free(got);
}

static void tree_and_leaves(void)
{
	struct kmag_calltree_opts o = { 0 };

	check_run(nested, &o,
		  " outer() {\n   mid() {\n     a();\n     b();\n   } /* mid */\n"
		  "   tail() {\n     c();\n   } /* tail */\n   short();\n } /* outer */\n");
}

static void depth_turns_callers_into_leaves(void)
{
	struct kmag_calltree_opts o = { .max_depth = 2 };

	check_run(nested, &o, " outer() {\n   mid();\n   tail();\n   short();\n } /* outer */\n");
}

static void function_scope_is_relative(void)
{
	struct kmag_calltree_opts o = { .function = "t*l", .max_depth = 1 };

	check_run(nested, &o, " tail();\n");
}

static void min_duration_prints_callers_once(void)
{
	/* b (20 us) and c (40 us) qualify; a and short do not; their callers print once each */
	struct kmag_calltree_opts o = { .min_duration_ns = 10000 };

	check_run(nested, &o,
		  " outer() {\n   mid() {\n     b();\n   } /* mid */\n"
		  "   tail() {\n     c();\n   } /* tail */\n } /* outer */\n");
}

static void limit_counts_calls(void)
{
	struct kmag_calltree_opts o = { .limit = 3 };
	int ret;
	char *got = run(nested, &o, &ret);

	CHECK_EQ(ret, KMAG_CALLTREE_STOP);
	/* issue 23: it stopped mid-tree with no mark; now the mark says where, and how to see more */
	CHECK_STREQ(got, " outer() {\n   mid() {\n     a();\n"
			 "# ... stopped at --limit 3, inside outer > mid; more: --limit 6, all: --limit 0\n");
	free(got);
}

static const char retvals[] =
	"# tracer: function_graph\n"
	"#\n"
	" 1)    ls-9     |               |  f() {\n"
	" 1)    ls-9     |   1.000 us    |    g(); /* = 0x0 */\n"
	" 1)    ls-9     |   2.000 us    |    h(); /* = -12 */\n"
	" 1)    ls-9     |   4.000 us    |  } /* f = -12 */\n"
	" 1)    ls-9     |   1.000 us    |  k(); /* = 0x5 */\n";

static void errors_keep_failing_chains(void)
{
	struct kmag_calltree_opts o = { .errors = true };

	check_run(retvals, &o, " f() {\n   h(); /* = -12 ENOMEM */\n } /* f = -12 ENOMEM */\n");
}

/* funcgraph-retval prints addresses in hex (and every value with funcgraph-retval-hex) */
static void full_width_hex_retvals(void)
{
	static const char text[] =
		"# tracer: function_graph\n"
		"#\n"
		" 1)    ls-9     |               |  f() {\n"
		" 1)    ls-9     |   1.000 us    |    getname(); /* = 0xffff888003a5c000 */\n"
		" 1)    ls-9     |   2.000 us    |    h(); /* = 0xffffffffffffffea */\n"
		" 1)    ls-9     |   4.000 us    |  } /* f = 0xffffffffffffffea */\n"
		" 1)    ls-9     |   1.000 us    |  i32(); /* = 0xfffffff3 */\n";
	struct kmag_calltree_opts o = { 0 };

	check_run(text, &o,
		  " f() {\n   getname(); /* = 0xffff888003a5c000 */\n   h(); /* = -22 EINVAL */\n"
		  " } /* f = -22 EINVAL */\n i32(); /* = -13 EACCES */\n");
	/* an int function's -13 in a 64-bit register, upper half clear, as the kernel reads it */
	o.errors = true;
	check_run(text, &o,
		  " f() {\n   h(); /* = -22 EINVAL */\n } /* f = -22 EINVAL */\n"
		  " i32(); /* = -13 EACCES */\n");
}

/* the kernel's own errnos (512 and above, include/linux/errno.h) by name, as kmag errors names them */
static void kernel_errno_names(void)
{
	static const char text[] =
		"# tracer: function_graph\n"
		"#\n"
		" 1)    ls-9     |   1.000 us    |  tty_ioctl(); /* = -515 */\n"
		" 1)    ls-9     |   1.000 us    |  f(); /* = -520 */\n";
	struct kmag_calltree_opts o = { 0 };

	check_run(text, &o, " tty_ioctl(); /* = -515 ENOIOCTLCMD */\n f(); /* = -520 */\n");
}

static void errors_need_retvals(void)
{
	struct kmag_calltree_opts o = { .errors = true };
	int ret;
	char *got = run(nested, &o, &ret);

	CHECK_EQ(ret, -ENODATA);
	CHECK_STREQ(got, "");
	free(got);
}

static void missing_exit_is_a_comment(void)
{
	static const char text[] =
		"# tracer: function_graph\n"
		"#\n"
		" 0)    cat-7    |               |  outer() {\n"
		" 0)    cat-7    |   5.000 us    |    a();\n";
	struct kmag_calltree_opts o = { 0 };

	check_run(text, &o, " outer() {\n   a();\n /* } outer: exit not in the trace */\n");
}

const struct test_case calltree_tests[] = {
	{ "tree_and_leaves", tree_and_leaves },
	{ "depth_turns_callers_into_leaves", depth_turns_callers_into_leaves },
	{ "function_scope_is_relative", function_scope_is_relative },
	{ "min_duration_prints_callers_once", min_duration_prints_callers_once },
	{ "limit_counts_calls", limit_counts_calls },
	{ "errors_keep_failing_chains", errors_keep_failing_chains },
	{ "full_width_hex_retvals", full_width_hex_retvals },
	{ "errors_need_retvals", errors_need_retvals },
	{ "kernel_errno_names", kernel_errno_names },
	{ "missing_exit_is_a_comment", missing_exit_is_a_comment },
	TEST_LIST_END,
};
