// SPDX-License-Identifier: MIT
/*
 * tui-curses.c - `kmag tui` on the terminal: reads keys with ncurses, hands
 * them to the model (tui-model.c) and paints the lines it renders. Nothing
 * else lives here, so everything but the painting is tested without a
 * terminal.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <curses.h>

#include "tui.h"

enum { P_TITLE = 1, P_SECTION, P_HEAT1, P_HEAT2, P_HEAT3, P_ERROR, P_NOTE };

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void colours(void)
{
	start_color();
	use_default_colors();
	init_pair(P_TITLE, COLOR_BLACK, COLOR_CYAN);
	init_pair(P_SECTION, COLOR_CYAN, -1);
	init_pair(P_HEAT1, COLOR_YELLOW, -1);
	init_pair(P_HEAT2, COLOR_MAGENTA, -1);
	init_pair(P_HEAT3, COLOR_RED, -1);
	init_pair(P_ERROR, COLOR_RED, -1);
	init_pair(P_NOTE, COLOR_GREEN, -1);
}

static int key_of(int ch)
{
	switch (ch) {
	case KEY_UP: return TUI_KEY_UP;
	case KEY_DOWN: return TUI_KEY_DOWN;
	case KEY_LEFT: return TUI_KEY_LEFT;
	case KEY_RIGHT: return TUI_KEY_RIGHT;
	case KEY_PPAGE: return TUI_KEY_PGUP;
	case KEY_NPAGE: return TUI_KEY_PGDN;
	case KEY_HOME: return TUI_KEY_HOME;
	case KEY_END: return TUI_KEY_END;
	case KEY_ENTER: case '\n': case '\r': return TUI_KEY_ENTER;
	case 27: return TUI_KEY_ESC;
	case KEY_BACKSPACE: case 127: case 8: return TUI_KEY_BACKSPACE;
	default: return ch >= 0x20 && ch < 0x7f ? ch : -1;
	}
}

static void paint_line(const struct tui_line *l, int y, int cols, bool colour)
{
	attr_t a = A_NORMAL;

	if (l->attr == TUI_A_TITLE || l->attr == TUI_A_STATUS)
		a = colour && l->attr == TUI_A_TITLE ? COLOR_PAIR(P_TITLE) : A_REVERSE;
	else if (l->attr == TUI_A_HEADER)
		a = A_BOLD | A_UNDERLINE;
	else if (l->attr == TUI_A_SECTION)
		a = A_BOLD | (colour ? COLOR_PAIR(P_SECTION) : 0);
	else if (l->attr == TUI_A_NOTE && colour)
		a = COLOR_PAIR(P_NOTE);
	if (l->error && colour)
		a |= COLOR_PAIR(P_ERROR);
	if (l->cursor)
		a |= A_REVERSE;
	attrset(a);
	mvaddnstr(y, 0, l->text, cols);
	if (colour && l->heat && !l->error && l->heat_col + l->heat_len <= cols) {
		attr_t h = COLOR_PAIR(P_HEAT1 + l->heat - 1) | (l->heat == 3 ? A_BOLD : 0);

		attrset(h | (l->cursor ? A_REVERSE : 0));
		mvaddnstr(y, l->heat_col, l->text + l->heat_col, l->heat_len);
	}
	attrset(A_NORMAL);
}

struct lines {
	struct tui_line *lines;
	char *text;
	int rows, cols;
};

static int screen_fit(struct lines *s)
{
	int rows = LINES > 0 ? LINES : 1, cols = COLS > 0 ? COLS : 1;

	if (rows == s->rows && cols == s->cols)
		return 0;
	free(s->lines);
	free(s->text);
	s->lines = calloc((size_t)rows, sizeof(*s->lines));
	s->text = malloc((size_t)rows * ((size_t)cols + 1));
	if (!s->lines || !s->text)
		return -ENOMEM;
	for (int r = 0; r < rows; r++)
		s->lines[r].text = s->text + (size_t)r * ((size_t)cols + 1);
	s->rows = rows;
	s->cols = cols;
	return 0;
}

static int draw(struct tui *t, struct lines *s, bool colour)
{
	if (screen_fit(s))
		return -ENOMEM;
	tui_render(t, s->rows, s->cols, s->lines);
	erase();
	for (int r = 0; r < s->rows; r++)
		paint_line(&s->lines[r], r, s->cols, colour);
	refresh();
	return 0;
}

/*
 * The next key, KEY_RESIZE when the terminal changed size, ERR when the
 * terminal is gone. ncurses notes a SIGWINCH in its handler and looks at
 * that note before it blocks in read(): a resize that lands between the two
 * is seen only at the next key, and the screen stays stale until then (seen
 * under valgrind, where that window is wide). So getch() waits at most
 * WAIT_MS (timeout(), set with the terminal's modes), and on a timeout the
 * size is asked of the terminal directly.
 */
#define WAIT_MS 200

static int next_key(FILE *out)
{
	int idle_errs = 0;

	for (;;) {
		struct pollfd in = { .fd = STDIN_FILENO, .events = POLLIN };
		struct winsize ws;
		int ch = getch();

		if (ch != ERR)
			return ch;
		if (poll(&in, 1, 0) < 0 && errno != EINTR)
			return ERR;
		if (in.revents & (POLLHUP | POLLERR | POLLNVAL))
			return ERR;
		/* readable, yet getch() had nothing: end of input, once it repeats */
		if ((in.revents & POLLIN) && ++idle_errs >= 3)
			return ERR;
		if (!(in.revents & POLLIN))
			idle_errs = 0;
		if (ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col &&
		    is_term_resized(ws.ws_row, ws.ws_col)) {
			resize_term(ws.ws_row, ws.ws_col);
			return KEY_RESIZE;
		}
	}
}

/* Gives the terminal back and frees the screen's text. */
static void end_screen(SCREEN *scr, FILE *out, struct lines *s, FILE *log)
{
	endwin();
	delscreen(scr);
	fclose(out);
	free(s->lines);
	free(s->text);
	if (log)
		fclose(log);
}

int tui_run(struct tui *t, const char *trace_log, uint64_t start_ns)
{
	struct lines s = { 0 };
	FILE *log = NULL, *out;
	SCREEN *scr;
	bool colour;
	int ret = 1, ch;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "kmag: tui needs a terminal (standard input and output)\n");
		return 1;
	}
	if (trace_log && !(log = fopen(trace_log, "a"))) {
		fprintf(stderr, "kmag: cannot open %s (KMAG_TUI_TRACE): %m\n", trace_log);
		return 1;
	}
	/*
	 * ncurses writes to the descriptor under its FILE: kmag's stdout is a
	 * stream of its own (cli/output.c) with none, so give it a plain one.
	 */
	out = fdopen(dup(STDOUT_FILENO), "w");
	scr = out ? newterm(NULL, out, stdin) : NULL;
	if (!scr) {
		fprintf(stderr, "kmag: tui cannot use the terminal \"%s\" (set TERM)\n",
			getenv("TERM") ? getenv("TERM") : "");
		if (out)
			fclose(out);
		if (log)
			fclose(log);
		return 1;
	}
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	timeout(WAIT_MS);
	curs_set(0);
	colour = has_colors();
	if (colour)
		colours();
	if (draw(t, &s, colour))
		goto nomem;
	if (log) {
		fprintf(log, "first-screen %.3f ms\n", (double)(now_ns() - start_ns) / 1e6);
		fflush(log);
	}
	while ((ch = next_key(out)) != ERR) {
		uint64_t t0 = now_ns();
		int k = ch == KEY_RESIZE ? 0 : key_of(ch);

		if (k < 0)
			continue;
		if (k && (ret = tui_key(t, k)) == 0)
			break;
		if (ret < 0) {
			ret = 1;
			goto nomem;
		}
		if (draw(t, &s, colour))
			goto nomem;
		if (log) {
			fprintf(log, "key %d screen %d depth %zu %.3f ms\n", k, (int)tui_screen(t),
				tui_depth(t), (double)(now_ns() - t0) / 1e6);
			fflush(log);
		}
	}
	end_screen(scr, out, &s, log);
	return 0;
nomem:
	end_screen(scr, out, &s, log);
	fprintf(stderr, "kmag: tui: out of memory\n");
	return 1;
}
