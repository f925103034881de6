// SPDX-License-Identifier: MIT
/*
 * t-tui.c - the explorer's model (tui/tui-model.c, tui-render.c) without a
 * terminal: keys in, rendered text out. The trace is hand-written, so every
 * expected row below is worked out from its numbers, not from the code.
 */
#include "kmag/callgraph.h"
#include "kmag/callsample.h"
#include "kmag/trace.h"
#include "test.h"
#include "tui.h"

/*
 * outer { mid { a(5) b(20, returns -2) } (30) tail { a(35) } (45) } (100 us)
 * Totals: outer 100, tail 45, a 40 (2 calls), mid 30, b 20.
 * Self:   a 40, outer 25, b 20, tail 10, mid 5.
 */
static const char nested[] =
	"# tracer: function_graph\n"
	"#\n"
	" 0)    cat-7    |               |  outer() {\n"
	" 0)    cat-7    |               |    mid() {\n"
	" 0)    cat-7    |   5.000 us    |      a();\n"
	" 0)    cat-7    | + 20.000 us   |      b(); /* = -2 */\n"
	" 0)    cat-7    | + 30.000 us   |    }\n"
	" 0)    cat-7    |               |    tail() {\n"
	" 0)    cat-7    | + 35.000 us   |      a();\n"
	" 0)    cat-7    | + 45.000 us   |    }\n"
	" 0)    cat-7    | ! 100.000 us  |  }\n";

struct fx {
	struct kmag_trace *t;
	struct kmag_cg *cg;
	struct kmag_callsample *keep;
	struct tui *tui;
};

#define ROWS 16
#define COLS 100
static char text[ROWS][COLS + 1];
static struct tui_line lines[ROWS];

static void setup_text(struct fx *f, const char *trace)
{
	const char *path = write_tmp("tui.txt", trace, strlen(trace));
	struct kmag_err err = { 0 };

	f->t = kmag_trace_open(path, NULL, &err);
	CHECK(f->t);
	f->cg = kmag_cg_new(&(struct kmag_cg_opts){ .durations = true });
	f->keep = kmag_callsample_new(NULL);
	CHECK(f->cg && f->keep);
	CHECK_EQ(kmag_callsample_subscribe(f->keep, kmag_cg_replay(f->cg)), 0);
	CHECK(kmag_trace_read(f->t, kmag_cg_event_fn, f->cg, &err) >= 0);
	CHECK_EQ(kmag_cg_finish(f->cg), 0);
	CHECK_EQ(kmag_callsample_finish(f->keep), 0);
	f->tui = tui_new(&(struct tui_data){ .cg = f->cg, .st = kmag_trace_symtab(f->t),
					     .trace = f->t, .sample = f->keep, .title = "t.txt" });
	CHECK(f->tui);
}

static void setup(struct fx *f)
{
	setup_text(f, nested);
}

static void teardown(struct fx *f)
{
	tui_free(f->tui);
	kmag_callsample_free(f->keep);
	kmag_cg_free(f->cg);
	kmag_trace_close(f->t);
}

static void render(struct fx *f, int rows, int cols)
{
	for (int r = 0; r < ROWS; r++)
		lines[r].text = text[r];
	tui_render(f->tui, rows, cols, lines);
}

/* The body row (0 = the first below the heading) of the cursor, after a render. */
static int cursor_row(void)
{
	for (int r = 2; r < ROWS; r++)
		if (lines[r].cursor)
			return r - 2;
	return -1;
}

/* The function on body row @r of the table: its last word. */
static const char *last_word(int r)
{
	static char w[64];
	const char *e = text[r + 2] + strlen(text[r + 2]);

	while (e > text[r + 2] && e[-1] == ' ')
		e--;
	const char *s = e;

	while (s > text[r + 2] && s[-1] != ' ')
		s--;
	snprintf(w, sizeof(w), "%.*s", (int)(e - s), s);
	return w;
}

static void keys(struct fx *f, const char *k)
{
	for (; *k; k++)
		CHECK_EQ(tui_key(f->tui, *k == '\n' ? TUI_KEY_ENTER : *k), 1);
	render(f, ROWS, COLS);
}

static void table_sorts(void)
{
	struct fx f;

	setup(&f);
	render(&f, ROWS, COLS);
	CHECK(strstr(text[0], "5 functions, sorted by total"));
	CHECK(strstr(text[1], "Calls") && strstr(text[1], "Self"));
	CHECK_STREQ(last_word(0), "outer");
	CHECK_STREQ(last_word(1), "tail");
	CHECK_STREQ(last_word(2), "a");
	CHECK_STREQ(last_word(4), "b");
	CHECK(strstr(text[2], "100.000 us"));
	CHECK_EQ(cursor_row(), 0);
	keys(&f, "s");			/* total -> self */
	CHECK_STREQ(last_word(0), "a");
	CHECK_STREQ(last_word(1), "outer");
	CHECK_STREQ(last_word(4), "mid");
	CHECK_STREQ(last_word(cursor_row()), "outer");	/* the cursor stays on its function */
	keys(&f, "1");			/* calls: a is the only one called twice */
	CHECK_STREQ(last_word(0), "a");
	CHECK(strstr(text[0], "sorted by calls"));
	keys(&f, "2");
	CHECK_STREQ(last_word(0), "outer");
	keys(&f, "jjG");		/* End */
	CHECK_EQ(tui_cursor(f.tui), 4);
	keys(&f, "g");
	CHECK_EQ(tui_cursor(f.tui), 0);
	CHECK_EQ(tui_key(f.tui, 'q'), 0);	/* q on the table quits */
	teardown(&f);
}

static void callers_and_callees(void)
{
	struct fx f;

	setup(&f);
	keys(&f, "\n");			/* outer */
	CHECK_EQ(tui_screen(f.tui), TUI_FUNC);
	CHECK(strstr(text[0], "outer: 1 calls"));
	CHECK(strstr(text[2], "Callers (0)"));
	CHECK(strstr(text[3], "Callees (2)"));
	CHECK(strstr(text[4], "-> tail"));	/* heavier first: 45 us */
	CHECK(strstr(text[5], "-> mid"));
	CHECK_EQ(cursor_row(), 2);		/* on the first callee */
	keys(&f, "\n");				/* into tail */
	CHECK(strstr(text[0], "tail: 1 calls"));
	CHECK(strstr(text[3], "<- outer"));
	CHECK(strstr(text[5], "-> a"));
	CHECK_EQ(tui_depth(f.tui), 3);
	keys(&f, "qq");
	CHECK_EQ(tui_screen(f.tui), TUI_FUNCS);
	teardown(&f);
}

static void calls_and_trees(void)
{
	struct fx f;

	setup(&f);
	keys(&f, "jjc");		/* a's calls */
	CHECK_EQ(tui_screen(f.tui), TUI_CALLS);
	CHECK(strstr(text[0], "a: 2 of 2 calls kept: the 2 slowest, 0 of 0 failing, the first 2"));
	CHECK(strstr(text[2], "5.000 us") && strstr(text[2], "cat-7"));
	CHECK(strstr(text[3], "35.000 us"));
	keys(&f, "s");			/* by duration */
	CHECK(strstr(text[2], "35.000 us"));
	keys(&f, "qgc\n");		/* outer's one call, its tree */
	CHECK_EQ(tui_screen(f.tui), TUI_TREE);
	CHECK(strstr(text[2], "- outer() {"));
	CHECK(strstr(text[3], "- mid() {"));
	CHECK(strstr(text[5], "b();"));
	CHECK(strstr(text[5], "-2"));
	CHECK(lines[5].error);			/* b returned -ENOENT */
	CHECK(!lines[4].error);
	CHECK(strstr(text[7], "a();") && strstr(text[7], "35.000 us"));
	CHECK(!strncmp(text[7], "           -  ", 14));	/* no timestamps: no start offset */
	keys(&f, "\n");			/* fold outer: one row */
	CHECK(strstr(text[2], "+ outer() { ... } (5 calls)"));
	CHECK(!strstr(text[3], "mid"));
	keys(&f, " j-");		/* unfold, down to mid, fold it */
	CHECK(strstr(text[3], "+ mid()"));
	CHECK(strstr(text[4], "- tail()"));
	keys(&f, "-");			/* on a folded call: to its caller */
	CHECK_EQ(cursor_row(), 0);
	keys(&f, "+");			/* on an open call: to its first callee */
	CHECK_EQ(cursor_row(), 1);
	keys(&f, "+");			/* unfold mid */
	CHECK(strstr(text[5], "b();"));
	teardown(&f);
}

static void search(void)
{
	struct fx f;

	setup(&f);
	keys(&f, "/t");			/* "outer" holds a t: the cursor stays */
	CHECK_EQ(cursor_row(), 0);
	CHECK(strstr(text[ROWS - 1], "/t"));
	keys(&f, "a");			/* "ta": tail */
	CHECK_STREQ(last_word(cursor_row()), "tail");
	keys(&f, "\n");
	keys(&f, "n");			/* the only match: stays */
	CHECK_STREQ(last_word(cursor_row()), "tail");
	keys(&f, "/zz");
	CHECK(strstr(text[ROWS - 1], "(no match)"));
	CHECK_EQ(tui_key(f.tui, TUI_KEY_ESC), 1);	/* cancel: back where it started */
	render(&f, ROWS, COLS);
	CHECK_STREQ(last_word(cursor_row()), "tail");
	/* in a tree, a match inside a folded call unfolds it */
	keys(&f, "gc\nj-");		/* outer's tree, mid folded */
	CHECK(!strstr(text[5], "b();"));
	keys(&f, "/b\n");
	CHECK(strstr(text[5], "b();"));
	CHECK_EQ(cursor_row(), 3);
	keys(&f, "/A\n");		/* case-insensitive, from b on: tail */
	CHECK_EQ(cursor_row(), 4);
	keys(&f, "n");			/* the a under tail */
	CHECK_EQ(cursor_row(), 5);
	keys(&f, "n");			/* wraps to the a under mid */
	CHECK_EQ(cursor_row(), 2);
	keys(&f, "N");
	CHECK_EQ(cursor_row(), 5);
	teardown(&f);
}

static void help_and_resize(void)
{
	struct fx f;

	setup(&f);
	keys(&f, "?");
	CHECK_EQ(tui_screen(f.tui), TUI_HELP);
	CHECK(strstr(text[2], "Keys"));
	keys(&f, "q");
	CHECK_EQ(tui_screen(f.tui), TUI_FUNCS);
	/* a screen of 4 rows shows one body row: the cursor's */
	keys(&f, "jjj");
	render(&f, 4, COLS);
	CHECK_STREQ(last_word(0), "mid");
	CHECK(lines[2].cursor);
	render(&f, 4, 30);		/* narrow: every line cut to the width */
	CHECK_EQ(strlen(text[0]), 30);
	CHECK_EQ(strlen(text[2]), 30);
	render(&f, 2, 10);		/* too small for a body: no crash */
	render(&f, ROWS, COLS);		/* and back: the whole table again */
	CHECK_STREQ(last_word(0), "outer");
	CHECK_EQ(cursor_row(), 3);
	teardown(&f);
}

/*
 * At 40x10 every screen keeps the name column (function names, the call
 * tree's calls), cut with "..." when it is longer; columns go instead, and
 * a heading keeps the same columns as its rows. Times the trace does not
 * have show as "?", never as 0 or as KMAG_TS_NONE in seconds.
 */
static void narrow_and_untimed(void)
{
	struct fx f;
	char want[64];

	setup(&f);
	render(&f, 10, 40);
	CHECK_STREQ(last_word(0), "outer");	/* sorted by total: "Total" and the name */
	CHECK_STREQ(last_word(4), "b");
	CHECK(strstr(text[1], "Total") && strstr(text[1], "Function"));
	CHECK(!strstr(text[1], "Avg"));
	CHECK(strstr(text[2], "100.000 us"));
	/* the heat span lies on the Total cell of the row */
	CHECK_EQ(strncmp(text[2] + lines[2].heat_col, "  100.000 us", lines[2].heat_len), 0);
	keys(&f, "1");				/* sorted by calls: the Calls column stays */
	render(&f, 10, 40);
	CHECK(strstr(text[1], "Calls") && !strstr(text[1], "Total"));
	CHECK_STREQ(last_word(0), "a");
	keys(&f, "\n");				/* the cursor stayed on outer: its callees */
	render(&f, 10, 40);
	CHECK_STREQ(last_word(2), "tail");
	CHECK(strstr(text[1], "Calls") && strstr(text[1], "Function"));
	keys(&f, "c");				/* outer's calls: no time in this trace */
	render(&f, 10, 40);
	CHECK(strstr(text[2], "slowest"));
	render(&f, 10, COLS);
	snprintf(want, sizeof(want), "%14s  ", "?");
	CHECK(!strncmp(text[2], want, 16));	/* the start: unknown */
	CHECK(!strstr(text[2], "0.000000"));
	keys(&f, "\n");				/* its tree: the title says "at ? s" */
	CHECK(strstr(text[0], "call of outer at ? s,"));
	CHECK(!strstr(text[0], "18446744073"));
	teardown(&f);

	/* a name longer than the screen: cut with "...", never gone */
	static const char longname[] =
		"# tracer: function_graph\n"
		"#\n"
		" 0)    cat-7    |               |  outer() {\n"
		" 0)    cat-7    |   5.000 us    |    "
		"a_function_whose_name_is_much_longer_than_the_screen_is_wide();\n"
		" 0)    cat-7    | + 10.000 us   |  }\n";
	const char *path = write_tmp("tui-long.txt", longname, strlen(longname));
	struct kmag_err err = { 0 };

	f.t = kmag_trace_open(path, NULL, &err);
	CHECK(f.t);
	f.cg = kmag_cg_new(NULL);
	f.keep = kmag_callsample_new(NULL);
	CHECK_EQ(kmag_callsample_subscribe(f.keep, kmag_cg_replay(f.cg)), 0);
	CHECK(kmag_trace_read(f.t, kmag_cg_event_fn, f.cg, &err) >= 0);
	CHECK_EQ(kmag_cg_finish(f.cg), 0);
	CHECK_EQ(kmag_callsample_finish(f.keep), 0);
	f.tui = tui_new(&(struct tui_data){ .cg = f.cg, .st = kmag_trace_symtab(f.t),
					    .trace = f.t, .sample = f.keep, .title = "l.txt" });
	CHECK(f.tui);
	render(&f, 10, 40);
	CHECK_STREQ(last_word(0), "outer");
	CHECK_EQ(strlen(text[3]), 40);
	CHECK(strstr(text[3], "a_function_whose_name") && !strncmp(text[3] + 37, "...", 3));
	keys(&f, "c\n");			/* outer's tree: the callee's name survives */
	render(&f, 10, 40);
	CHECK(strstr(text[3], "a_function_whose") && !strncmp(text[3] + 37, "...", 3));
	teardown(&f);
}

/* f 10 us calling f 4 us: Total 10 us (the outer call holds the inner), Avg 7 us (the mean). */
static void recursion_average(void)
{
	static const char recursion[] =
		"# tracer: function_graph\n"
		"#\n"
		" 0)    cat-7    |               |  f() {\n"
		" 0)    cat-7    |   4.000 us    |    f();\n"
		" 0)    cat-7    | + 10.000 us   |  }\n";
	struct fx f;

	setup_text(&f, recursion);
	render(&f, ROWS, COLS);
	CHECK_STREQ(last_word(0), "f");
	CHECK(strstr(text[1], "Avg"));
	CHECK(strstr(text[2], "10.000 us"));
	CHECK(strstr(text[2], "7.000 us"));
	CHECK(!strstr(text[2], "5.000 us"));
	teardown(&f);
}

/*
 * A call tree the sample cut (2 of its 4 calls kept) ends with a note: how
 * many calls were left out and the `kmag replay` command that prints them
 * all (its task, function, start, as many calls as it made, the trace and
 * the --btf given, quoted for the shell); in the title, how many it made.
 */
static void cut_tree_command(void)
{
	static const char timed[] =
		"# tracer: function_graph\n"
		"#\n"
		"     5.000100 |   0)    cat-7    |               |  outer() {\n"
		"     5.000110 |   0)    cat-7    |               |    mid() {\n"
		"     5.000120 |   0)    cat-7    |   5.000 us    |      a();\n"
		"     5.000130 |   0)    cat-7    | + 20.000 us   |      b();\n"
		"     5.000150 |   0)    cat-7    | + 30.000 us   |    }\n"
		"     5.000200 |   0)    cat-7    | ! 100.000 us  |  }\n";
	struct kmag_callsample_opts ko = { .slowest = 5, .first = 5, .tree_max = 2, .budget = 100 };
	const char *path = write_tmp("tui-timed.txt", timed, strlen(timed));
	struct kmag_err err = { 0 };
	struct fx f;

	f.t = kmag_trace_open(path, NULL, &err);
	CHECK(f.t);
	f.cg = kmag_cg_new(NULL);
	f.keep = kmag_callsample_new(&ko);
	CHECK(f.cg && f.keep);
	CHECK_EQ(kmag_callsample_subscribe(f.keep, kmag_cg_replay(f.cg)), 0);
	CHECK(kmag_trace_read(f.t, kmag_cg_event_fn, f.cg, &err) >= 0);
	CHECK_EQ(kmag_cg_finish(f.cg), 0);
	CHECK_EQ(kmag_callsample_finish(f.keep), 0);
	f.tui = tui_new(&(struct tui_data){ .cg = f.cg, .st = kmag_trace_symtab(f.t),
					    .trace = f.t, .sample = f.keep, .title = "t",
					    .path = "my trace.txt", .btf = "b.btf" });
	CHECK(f.tui);
	keys(&f, "gc\n");			/* outer's tree */
	CHECK(strstr(text[0], "call of outer at 5.000100 s, CPU 0, pid 7: 2 calls of 4 shown"));
	CHECK(strstr(text[2], "outer() {"));
	CHECK(strstr(text[3], "mid()"));
	CHECK(strstr(text[4], "... 2 more calls of this tree not kept (the sample keeps 2 per tree); all of them:"));
	CHECK_EQ(lines[4].attr, TUI_A_NOTE);
	CHECK(strstr(text[5], "    kmag replay --pid 7 --function outer --time 5.000100000, --limit 4 --btf b.btf 'my trace.txt'"));
	/* narrow: the command goes on over lines, cut at spaces */
	render(&f, ROWS, 40);
	CHECK(!strcmp(text[5], "    kmag replay --pid 7 --function outer"));
	CHECK(!strncmp(text[6], "    --time 5.000100000, --limit 4 --btf ", 40));
	CHECK(!strncmp(text[7], "    b.btf 'my trace.txt'  ", 26));
	teardown(&f);
}

/*
 * l: a's latency, funclatency's table of its two calls (5 us, 35 us):
 * 4096..8191 ns and 32768..65535 ns one each, avg 20 us, p50 the shorter.
 */
static void latency(void)
{
	struct fx f;

	setup(&f);
	keys(&f, "jjl");		/* outer, tail, a */
	CHECK_EQ(tui_screen(f.tui), TUI_LATENCY);
	CHECK(strstr(text[0], "a: latency of 2 timed calls"));
	CHECK(strstr(text[2], "Function = a"));
	CHECK(strstr(text[3], "nsecs               : count     distribution"));
	CHECK(strstr(text[4], "0 -> 1          : 0"));
	keys(&f, "G");			/* 21 lines: scrolled to the last 13 */
	CHECK(strstr(text[8], "4096 -> 8191       : 1        |****************************************|"));
	CHECK(strstr(text[11], "32768 -> 65535      : 1"));
	CHECK(strstr(text[13], "avg = 20000 nsecs, total: 40000 nsecs, count: 2"));
	CHECK(strstr(text[14], "p50 = 5000, p90 = 35000, p99 = 35000 nsecs (nearest rank, exact)"));
	keys(&f, "q");
	CHECK_EQ(tui_screen(f.tui), TUI_FUNCS);
	keys(&f, "\nl");			/* outer's callers/callees: the cursor's, tail */
	CHECK(strstr(text[0], "tail: latency of 1 timed calls"));
	teardown(&f);
}

const struct test_case tui_tests[] = {
	{ "table_sorts", table_sorts },
	{ "callers_and_callees", callers_and_callees },
	{ "calls_and_trees", calls_and_trees },
	{ "search", search },
	{ "help_and_resize", help_and_resize },
	{ "narrow_and_untimed", narrow_and_untimed },
	{ "the average of a recursive function is the mean of its calls", recursion_average },
	{ "a cut tree shows the replay command for all of it", cut_tree_command },
	{ "l: a function's latency as funclatency shows it", latency },
	TEST_LIST_END,
};
