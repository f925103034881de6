/* SPDX-License-Identifier: MIT */
/*
 * tui.h - `kmag tui`: the terminal explorer's model and its drawing.
 *
 * The model (tui-model.c, tui-render.c) holds every state of the explorer:
 * the stack of screens (function table, one function's callers and callees,
 * its calls, one call's tree, its latency histogram, help), each with its cursor and scroll
 * position, the sort order, the folds, the search. It takes abstract keys
 * and renders a screen of plain text lines with attributes, so it is tested
 * without a terminal (tests/unit/t-tui.c). tui-curses.c only reads keys
 * from ncurses and paints the lines.
 */
#ifndef KMAG_TUI_H
#define KMAG_TUI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmag/callgraph.h"
#include "kmag/callsample.h"
#include "kmag/symtab.h"
#include "kmag/trace.h"

/* Keys besides printable characters (which are their own code). */
enum tui_key {
	TUI_KEY_UP = 0x100,
	TUI_KEY_DOWN,
	TUI_KEY_LEFT,
	TUI_KEY_RIGHT,
	TUI_KEY_PGUP,
	TUI_KEY_PGDN,
	TUI_KEY_HOME,
	TUI_KEY_END,
	TUI_KEY_ENTER,
	TUI_KEY_ESC,
	TUI_KEY_BACKSPACE,
};

/* What the model borrows; everything must outlive it. */
struct tui_data {
	const struct kmag_cg *cg;		/* finished */
	const struct kmag_symtab *st;
	const struct kmag_trace *trace;		/* for task names; may be NULL */
	const struct kmag_callsample *sample;	/* single calls (finished); NULL when not kept */
	const char *title;			/* input name and filters */
	/*
	 * For the `kmag replay` command that prints a call's whole tree when
	 * the sample kept part of it: the trace as named on the command line
	 * (NULL: no command shown), and the --btf/--vmlinux given (or NULL).
	 */
	const char *path, *btf, *vmlinux;
	struct kmag_srclines *lines;		/* call sites to source lines (--vmlinux), or NULL */
};

enum tui_screen {
	TUI_FUNCS,	/* the function table */
	TUI_FUNC,	/* one function: its callers and callees */
	TUI_CALLS,	/* one function's kept calls */
	TUI_TREE,	/* one call's tree */
	TUI_LATENCY,	/* one function's durations: funclatency's log2 histogram, percentiles */
	TUI_HELP,
};

/* Line attributes (the drawing maps them to colours or reverse video). */
enum tui_attr {
	TUI_A_NORMAL = 0,
	TUI_A_TITLE,	/* first line */
	TUI_A_HEADER,	/* column headings */
	TUI_A_SECTION,	/* "Callers (3)" */
	TUI_A_STATUS,	/* last line: keys or the search prompt */
	TUI_A_NOTE,	/* a remark in the body (limits, empty lists) */
};

/* One rendered line: @text is exactly the screen width, blank-padded. */
struct tui_line {
	char *text;		/* cols + 1 bytes, owned by the caller of tui_render() */
	uint8_t attr;		/* enum tui_attr */
	bool cursor;		/* the selected row */
	bool error;		/* a call that returned an error */
	uint8_t heat;		/* 0 none, 1 warm, 2 hot, 3 hottest: of the span below */
	uint16_t heat_col, heat_len;
};

struct tui;
struct kmag_srclines;

/* A model at the function table sorted by total time (calls without times). NULL on ENOMEM. */
struct tui *tui_new(const struct tui_data *d);
void tui_free(struct tui *t);

/*
 * Handles one key. Returns 1 to keep going, 0 to quit (q on the function
 * table), -ENOMEM when a screen could not be built (the model stays usable).
 */
int tui_key(struct tui *t, int key);

/*
 * Renders the current screen into @rows lines of @cols columns (each line's
 * text has cols + 1 bytes). Also sets the page size that PgUp/PgDn use and
 * keeps the cursor in view, so call it after every key and on resize.
 */
void tui_render(struct tui *t, int rows, int cols, struct tui_line *lines);

/*
 * The `kmag replay` command that prints @c's whole call tree (its pid, its
 * function, from its start, as many calls as it made, and the trace), into
 * @buf; "" when it cannot be said (no path, no timestamps, an entry the trace
 * lacks). Returns @buf.
 */
char *tui_replay_command(const struct tui *t, const struct kmag_sample_call *c, char *buf,
			 size_t size);

/* For tests and the timing log: the current screen, cursor row, and search text. */
enum tui_screen tui_screen(const struct tui *t);
size_t tui_cursor(const struct tui *t);
size_t tui_depth(const struct tui *t);

/*
 * Runs the explorer on the terminal (tui-curses.c; only in builds with
 * ncurses). With @trace_log, appends the time from @start_ns
 * (CLOCK_MONOTONIC) to the first screen and the time each key took to that
 * file. Returns 0, or an exit code after a message.
 */
int tui_run(struct tui *t, const char *trace_log, uint64_t start_ns);

#endif /* KMAG_TUI_H */
