// SPDX-License-Identifier: MIT
/*
 * tui-render.c - the explorer's screens as lines of text (see tui.h): a
 * title, a heading, the rows around the cursor, a status line.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmag/render/callfmt.h"
#include "kmag/srclines.h"
#include "render-util.h"
#include "tui-internal.h"

static const char *const help_text[] = {
	"Keys",
	"",
	"  Up/Down, k/j        move one row",
	"  PgUp/PgDn, Space    move one page (Space folds in a call tree)",
	"  Home/End, g/G       first / last row",
	"  Enter               function table: the function's callers and callees",
	"                      callers/callees: that function's callers and callees",
	"                      calls: the call's tree;  call tree: fold/unfold",
	"  c                   the function's individual calls (start, task, CPU,",
	"                      duration, return value): its first and slowest ones",
	"  f                   in a call list or tree: the function's callers and callees",
	"  l                   the function's latency: its durations as funclatency shows",
	"                      them (log2 histogram, avg, count, p50/p90/p99)",
	"  s                   sort: table by total, self, calls; calls by start or duration",
	"  1 / 2 / 3           sort the table by calls / total / self time",
	"  Left/Right, -/+     call tree: fold / unfold (Left on a leaf: to its caller)",
	"  /                   search (as you type; Enter keeps it, Esc cancels)",
	"  n / N               next / previous match",
	"  ?                   this help",
	"  q, Esc              back to the previous screen; q on the table quits",
	"  Q                   quit",
	"",
	"Colours: durations from yellow (warm) to red (hottest); calls that returned",
	"an error (-errno) in red. Without colours the selected row is in reverse video.",
};

_Static_assert(sizeof(help_text) / sizeof(*help_text) == TUI_HELP_LINES,
	       "TUI_HELP_LINES counts the help screen's lines");

#define ROW_MAX 1024

/* Formats into line @l, blank-padded (or cut) to @cols. */
static void __attribute__((format(printf, 3, 4)))
put(struct tui_line *l, int cols, const char *fmt, ...)
{
	char buf[ROW_MAX];
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	n = strlen(buf);
	if (n > (size_t)cols)
		n = (size_t)cols;
	memcpy(l->text, buf, n);
	memset(l->text + n, ' ', (size_t)cols - n);
	l->text[cols] = 0;
}

/* A duration as every table of kmag shows it ("1.250 ms"), "-" when unknown. */
static const char *dur(uint64_t ns, char *b, size_t size)
{
	if (ns == KMAG_DURATION_NONE) {
		snprintf(b, size, "-");
		return b;
	}
	return kmag_format_duration(b, size, ns);
}

static uint8_t heat_of(uint64_t v, uint64_t max)
{
	double r;

	if (!max || v == KMAG_DURATION_NONE)
		return 0;
	r = (double)v / (double)max;
	return r >= 0.5 ? 3 : r >= 0.1 ? 2 : r >= 0.02 ? 1 : 0;
}

/*
 * A row is cells of fixed widths and, last, a cell that takes the rest of the
 * line (the function name, or the call with its arguments). On a narrow
 * terminal the fixed cells go, least important first, so that the last keeps
 * NAME_MIN columns; what still does not fit is cut with "...". Which cells
 * stay depends on the widths only, so a heading and its rows line up.
 */
#define NAME_MIN 16
#define SEP 2		/* columns between cells */

struct cell {
	const char *text;
	int width;		/* right-aligned; negative: left-aligned; 0: the last cell */
	uint8_t prio;		/* 0 is kept first */
};

/* The fixed cells of @c[0..n-2] that fit in @cols, as a bit set; *@rest the last cell's width. */
static unsigned layout(const struct cell *c, size_t n, int cols, int *rest)
{
	unsigned keep = 0;
	int used = 0;

	/* by priority, up to the first that does not fit */
	for (uint8_t p = 0; p < 8; p++)
		for (size_t i = 0; i + 1 < n; i++) {
			int w = abs(c[i].width) + SEP;

			if (c[i].prio != p)
				continue;
			if (used + w + NAME_MIN > cols)
				goto out;
			keep |= 1u << i;
			used += w;
		}
out:
	*rest = cols - used;
	return keep;
}

/* Appends @s to @buf (at *@len), cut to @w bytes, the cut marked with "...". */
static void cat_cut(char *buf, size_t *len, const char *s, size_t w)
{
	size_t n = strlen(s);

	if (n > w) {
		n = w > 3 ? w - 3 : w;
		memcpy(buf + *len, s, n);
		*len += n;
		if (w > 3) {
			memcpy(buf + *len, "...", 3);
			*len += 3;
		}
	} else {
		memcpy(buf + *len, s, n);
		*len += n;
	}
}

/* Lays out @n cells in line @l of @cols columns; cell @heat (-1: none) gets the heat span. */
static void put_cells(struct tui_line *l, int cols, const struct cell *c, size_t n, int heat)
{
	char buf[ROW_MAX + 64];
	int rest;
	unsigned keep = layout(c, n, cols, &rest);
	size_t len = 0;

	l->heat_len = 0;
	for (size_t i = 0; i + 1 < n; i++) {
		size_t w = (size_t)abs(c[i].width), tl = strlen(c[i].text), start = len;

		if (!(keep & 1u << i))
			continue;
		if (tl > w)
			tl = w;
		if (c[i].width > 0) {
			memset(buf + len, ' ', w - tl);
			len += w - tl;
		}
		memcpy(buf + len, c[i].text, tl);
		len += tl;
		if (c[i].width < 0) {
			memset(buf + len, ' ', w - tl);
			len += w - tl;
		}
		if ((int)i == heat) {
			l->heat_col = (uint16_t)start;
			l->heat_len = (uint16_t)w;
		}
		memset(buf + len, ' ', SEP);
		len += SEP;
	}
	if (n)
		cat_cut(buf, &len, c[n - 1].text, rest > 0 ? (size_t)rest : 0);
	buf[len] = 0;
	put(l, cols, "%s", buf);
}

/* The width @cols leaves the last of the @n cells. */
static int last_width(const struct cell *c, size_t n, int cols)
{
	int rest;

	layout(c, n, cols, &rest);
	return rest;
}

/* A time in seconds as report prints it, "?" when the trace has none. */
static const char *secs(uint64_t ns, char *b, size_t size)
{
	if (ns == KMAG_TS_NONE)
		snprintf(b, size, "?");
	else
		snprintf(b, size, "%.6f", (double)ns / 1e9);
	return b;
}

static bool is_error(const struct kmag_sample_node *n)
{
	return n->has_retval && kmag_call_errno(n->retval);
}

static const char *retstr(const struct kmag_sample_node *n, char *b, size_t size)
{
	int64_t e = n->has_retval ? kmag_call_errno(n->retval) : 0;

	if (!n->has_retval)
		snprintf(b, size, " ");
	else if (e || (n->retval >= 0 && n->retval < 1000000))
		snprintf(b, size, "%" PRId64, e ? e : n->retval);
	else
		snprintf(b, size, "%#" PRIx64, (uint64_t)n->retval);
	return b;
}

/* Why a call was kept: "slowest", "first,failing", ... */
static const char *why_str(uint8_t why, char *b, size_t size)
{
	snprintf(b, size, "%s%s%s%s%s", why & KMAG_SAMPLE_SLOWEST ? "slowest" : "",
		 why & KMAG_SAMPLE_SLOWEST && why & (KMAG_SAMPLE_FAILING | KMAG_SAMPLE_FIRST) ?
		 "," : "", why & KMAG_SAMPLE_FAILING ? "failing" : "",
		 why & KMAG_SAMPLE_FAILING && why & KMAG_SAMPLE_FIRST ? "," : "",
		 why & KMAG_SAMPLE_FIRST ? "first" : "");
	return b;
}

static const char *sort_label(enum kmag_sort_key k)
{
	return k == KMAG_SORT_CALLS ? "calls" : k == KMAG_SORT_SELF ? "self" : "total";
}

/* ---- one row of each screen ---- */

/*
 * Each screen's cells, for its heading and its rows alike: @v the texts in
 * order; the index of the heat cell returned through @heat.
 */
static size_t funcs_cells(const struct tui *t, struct cell *c, const char *const *v, int *heat)
{
	if (!t->has_time) {
		c[0] = (struct cell){ v[0], 10, 0 };
		c[1] = (struct cell){ v[4], 0, 0 };
		*heat = 0;
		return 2;
	}
	/* the sort column stays longest, then calls, total, self, avg */
	c[0] = (struct cell){ v[0], 10, t->sort == KMAG_SORT_CALLS ? 0 : 1 };
	c[1] = (struct cell){ v[1], 12, t->sort == KMAG_SORT_TOTAL ? 0 : 2 };
	c[2] = (struct cell){ v[2], 12, t->sort == KMAG_SORT_SELF ? 0 : 3 };
	c[3] = (struct cell){ v[3], 12, 4 };
	c[4] = (struct cell){ v[4], 0, 0 };
	*heat = t->sort == KMAG_SORT_CALLS ? 0 : t->sort == KMAG_SORT_TOTAL ? 1 : 2;
	return 5;
}

static void funcs_row(struct tui *t, size_t i, struct tui_line *l, int cols, uint64_t max)
{
	const struct kmag_cg_node *n = &kmag_cg_nodes(t->d.cg)[t->order[i]];
	const struct kmag_cg_stats *s = &n->st;
	char calls[24], a[24], b[24], c[24];
	uint64_t avg = s->timed ? s->sum_ns / s->timed : KMAG_DURATION_NONE;
	const char *v[] = { calls, dur(s->total_ns, a, sizeof(a)), dur(s->self_ns, b, sizeof(b)),
			    dur(avg, c, sizeof(c)), tui_node_name(t, t->order[i]) };
	struct cell cells[5];
	int heat;
	size_t nc;

	snprintf(calls, sizeof(calls), "%" PRIu64, s->calls);
	nc = funcs_cells(t, cells, v, &heat);
	put_cells(l, cols, cells, nc, t->has_time ? heat : -1);
	l->heat = heat_of(kmag_stats_value(s, t->sort), max);
}

static size_t func_cells(struct cell *c, const char *const *v)
{
	c[0] = (struct cell){ v[0], 10, 0 };
	c[1] = (struct cell){ v[1], 12, 1 };
	c[2] = (struct cell){ v[2], 0, 0 };
	return 3;
}

static void func_row(struct tui *t, struct tui_view *v, size_t i, struct tui_line *l, int cols)
{
	const struct tui_frow *r = &v->frows[i];
	const struct kmag_cg_node *n = &kmag_cg_nodes(t->d.cg)[v->node];
	char calls[24], a[24], name[ROW_MAX];
	struct cell cells[3];

	if (r->edge < 0) {
		l->attr = TUI_A_SECTION;
		if (r->callee)
			put(l, cols, "Callees (%" PRIu32 ")%s", n->out_count,
			    n->out_count ? "" : ": none traced");
		else
			put(l, cols, "Callers (%" PRIu32 ")%s", n->in_count,
			    n->in_count ? "" : ": none (an entry point of the trace)");
		return;
	}
	const struct kmag_cg_edge *e = &kmag_cg_edges(t->d.cg)[r->edge];

	snprintf(calls, sizeof(calls), "%" PRIu64, e->st.calls);
	snprintf(name, sizeof(name), "%s%s%s", r->callee ? "-> " : "<- ",
		 tui_node_name(t, r->node), e->flags & KMAG_EDGE_IRQ ? "  [interrupt]" : "");
	put_cells(l, cols, cells, func_cells(cells, (const char *const[]){ calls,
		  t->has_time ? dur(e->st.total_ns, a, sizeof(a)) : "-", name }), 1);
	l->heat = heat_of(e->st.total_ns, n->st.total_ns);
}

static size_t calls_cells(struct cell *c, const char *const *v)
{
	c[0] = (struct cell){ v[0], 14, 1 };	/* start */
	c[1] = (struct cell){ v[1], 12, 0 };	/* duration */
	c[2] = (struct cell){ v[2], 8, 3 };	/* return value */
	c[3] = (struct cell){ v[3], 3, 4 };	/* CPU */
	c[4] = (struct cell){ v[4], -20, 2 };	/* task */
	c[5] = (struct cell){ v[5], 7, 5 };	/* calls in its tree */
	c[6] = (struct cell){ v[6], 0, 0 };	/* why it was kept, notes */
	return 7;
}

static void calls_row(struct tui *t, struct tui_view *v, size_t i, struct tui_line *l, int cols,
		      uint64_t max)
{
	const struct kmag_sample_call *c = v->calls[i];
	const struct kmag_sample_node *n = &c->tree[0];
	const char *comm = t->d.trace ? kmag_trace_comm(t->d.trace, c->pid) : NULL;
	char st[32], a[24], r[24], cpu[16], tree[24], rtail[32] = "", task[40], why[32], last[128];
	struct cell cells[7];

	if (strlen(retstr(n, r, sizeof(r))) > 8) {	/* an address: at the end */
		snprintf(rtail, sizeof(rtail), "  = %s", r);
		r[0] = 0;
	}
	snprintf(task, sizeof(task), "%s-%d", comm ? comm : "<...>", (int)c->pid);
	snprintf(cpu, sizeof(cpu), "%d", (int)n->cpu);
	snprintf(tree, sizeof(tree), "%" PRIu64, c->inside + 1);
	snprintf(last, sizeof(last), "%s%s%s", why_str(c->why, why, sizeof(why)),
		 n->flags & KMAG_CALL_INCOMPLETE ? " (incomplete)" : "", rtail);
	put_cells(l, cols, cells, calls_cells(cells, (const char *const[]){
		  secs(n->start_ns, st, sizeof(st)), dur(n->duration, a, sizeof(a)), r, cpu, task,
		  tree, last }), 1);
	l->heat = heat_of(n->duration, max);
	l->error = is_error(n);
}

static size_t tree_cells(struct cell *c, const char *const *v)
{
	c[0] = (struct cell){ v[0], 12, 1 };	/* start, from the tree's */
	c[1] = (struct cell){ v[1], 12, 0 };	/* duration */
	c[2] = (struct cell){ v[2], 8, 2 };	/* return value */
	c[3] = (struct cell){ v[3], 0, 0 };	/* the call */
	return 4;
}

static void tree_row(struct tui *t, struct tui_view *v, size_t i, struct tui_line *l, int cols)
{
	uint32_t k = v->vis[i];
	const struct kmag_sample_node *n = &v->call->tree[k], *root = &v->call->tree[0];
	bool leaf = v->tend[k] == k + 1;
	char a[24], s[24], r[24], rtail[32] = "", more[64] = "", args[256] = "", call[ROW_MAX];
	struct cell cells[4];
	int ind = (int)(v->tdepth[k] < 40 ? v->tdepth[k] : 40) * 2, room;
	uint64_t off = n->start_ns >= root->start_ns && n->start_ns != KMAG_TS_NONE ?
		       n->start_ns - root->start_ns : KMAG_DURATION_NONE;
	const char *vals[] = { dur(off, s, sizeof(s)), dur(n->duration, a, sizeof(a)), r, call };

	if (n->nargs) {	/* as replay and the kernel's text show them (callfmt.h), BTF's too */
		struct kmag_call c = { .func = n->func, .nargs = n->nargs };

		memcpy(c.args, n->args, n->nargs * sizeof(*n->args));
		kmag_fmt_trace_args(args, sizeof(args), &c, t->d.trace);
	}
	if (strlen(retstr(n, r, sizeof(r))) > 8) {	/* an address: after the call */
		snprintf(rtail, sizeof(rtail), " = %s", r);
		r[0] = 0;
	}
	if (v->folded[k])
		snprintf(more, sizeof(more), " ... } (%" PRIu32 " calls)", v->tend[k] - k - 1);
	else if (n->more)
		snprintf(more, sizeof(more), " (%" PRIu64 " calls below not kept)", n->more);
	/* on a narrow screen the indentation gives way before the name does */
	room = last_width(cells, tree_cells(cells, vals), cols) - NAME_MIN;
	if (ind > room)
		ind = room > 0 ? room : 0;
	snprintf(call, sizeof(call), "%*s%s %s(%s)%s%s%s%s%s", ind, "",
		 leaf ? " " : v->folded[k] ? "+" : "-", tui_func_name(t, n->func), args,
		 leaf && !n->more ? ";" : " {", rtail, more,
		 n->flags & KMAG_CALL_NO_EXIT ? "  [no exit]" : n->flags & KMAG_CALL_NO_ENTRY ?
		 "  [no entry]" : "", n->flags & KMAG_CALL_LOST ? "  [events lost]" : "");
	put_cells(l, cols, cells, tree_cells(cells, vals), 1);
	l->heat = heat_of(n->duration, root->duration);
	l->error = is_error(n);
}

/* Calls made by the tree's call that its kept tree leaves out. */
static uint64_t tree_dropped(const struct tui_view *v)
{
	return v->call->nr_tree ? v->call->inside + 1 - v->call->nr_tree : 0;
}

/* Appends @w to @buf (at *@len), single-quoted when a shell would read it otherwise. */
static void shell_word(char *buf, size_t size, size_t *len, const char *w)
{
	bool plain = *w != '\0';

	for (const char *p = w; *p; p++)
		plain &= strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				"_-.,/+:=@%", *p) != NULL;
	if (*len >= size)
		return;
	if (plain) {
		*len += (size_t)snprintf(buf + *len, size - *len, " %s", w);
		return;
	}
	*len += (size_t)snprintf(buf + *len, size - *len, " '");
	for (; *w && *len < size; w++)
		*len += (size_t)snprintf(buf + *len, size - *len, *w == '\'' ? "'\\''" : "%c", *w);
	if (*len < size)
		*len += (size_t)snprintf(buf + *len, size - *len, "'");
}

char *tui_replay_command(const struct tui *t, const struct kmag_sample_call *c, char *buf,
			 size_t size)
{
	const struct kmag_sample_node *n = &c->tree[0];
	const char *f = tui_func_name(t, c->func);
	size_t len;

	buf[0] = '\0';
	/* it is found by its start: it needs one, from its entry */
	if (!t->d.path || n->start_ns == KMAG_TS_NONE || (n->flags & KMAG_CALL_NO_ENTRY) ||
	    c->func == KMAG_FUNC_NONE)
		return buf;
	len = (size_t)snprintf(buf, size, "kmag replay --pid %d", (int)c->pid);
	if (c->pid == 0)	/* the idle tasks, one per CPU */
		len += (size_t)snprintf(buf + len, len < size ? size - len : 0, " --cpu %d",
					(int)n->cpu);
	len += (size_t)snprintf(buf + len, len < size ? size - len : 0, " --function");
	shell_word(buf, size, &len, f);
	/* the first call of it from its start on, and as many calls as it made */
	len += (size_t)snprintf(buf + len, len < size ? size - len : 0,
				" --time %" PRIu64 ".%09" PRIu64 ", --limit %" PRIu64,
				n->start_ns / 1000000000u, n->start_ns % 1000000000u, c->inside + 1);
	if (t->d.btf) {
		len += (size_t)snprintf(buf + len, len < size ? size - len : 0, " --btf");
		shell_word(buf, size, &len, t->d.btf);
	}
	if (t->d.vmlinux) {
		len += (size_t)snprintf(buf + len, len < size ? size - len : 0, " --vmlinux");
		shell_word(buf, size, &len, t->d.vmlinux);
	}
	shell_word(buf, size, &len, t->d.path);
	if (len >= size)
		buf[0] = '\0';	/* cut, it would not work */
	return buf;
}

/* The note below a tree the sample cut: what it left out, and the command for all of it. */
#define TREE_NOTE_LINES 6
static size_t tree_note(struct tui *t, struct tui_view *v, int cols,
			char lines[TREE_NOTE_LINES][ROW_MAX])
{
	size_t n = 0, width = cols > 8 ? (size_t)cols - 4 : 4;
	char cmd[2048];
	const char *p;

	if (!tree_dropped(v) && v->call->nr_tree)
		return 0;
	tui_replay_command(t, v->call, cmd, sizeof(cmd));
	if (v->call->nr_tree)
		snprintf(lines[n++], ROW_MAX, "  ... %" PRIu64 " more calls of this tree not kept "
			 "(the sample keeps %zu per tree)%s", tree_dropped(v), v->call->nr_tree,
			 cmd[0] ? "; all of them:" : "");
	else if (cmd[0])
		snprintf(lines[n++], ROW_MAX, "  its %" PRIu64 " calls:", v->call->inside + 1);
	/* the command, cut into lines at spaces where it is wider than the screen */
	for (p = cmd; *p && n < TREE_NOTE_LINES; n++) {
		size_t k = strlen(p);

		if (k > width) {
			k = width;
			while (k > 0 && p[k] != ' ')
				k--;
			if (!k)
				k = width;
		}
		snprintf(lines[n], ROW_MAX, "    %.*s", (int)k, p);
		p += k;
		while (*p == ' ')
			p++;
	}
	return n;
}

/* ---- title, heading and status of each screen ---- */

static void head(struct tui *t, struct tui_view *v, struct tui_line *title, struct tui_line *hd,
		 int cols)
{
	const struct kmag_cg_node *n = v->kind == TUI_FUNC || v->kind == TUI_CALLS ?
				       &kmag_cg_nodes(t->d.cg)[v->node] : NULL;
	const struct kmag_sample_func *sf = v->sfunc;
	uint64_t dropped = v->kind == TUI_TREE ? tree_dropped(v) : 0;
	char a[24], b[24], site[160], st[32], more[80];
	struct cell cells[8];
	int heat;

	switch (v->kind) {
	case TUI_FUNCS:
		put(title, cols, "kmag tui: %s - %zu functions, sorted by %s", t->d.title,
		    t->nnodes, sort_label(t->sort));
		put_cells(hd, cols, cells, funcs_cells(t, cells, (const char *const[]){ "Calls",
			  "Total", "Self", "Avg", t->has_time ? "Function" :
			  "Function (no durations: function tracer)" }, &heat), -1);
		break;
	case TUI_FUNC:
		put(title, cols, "%s: %" PRIu64 " calls, total %s, self %s - callers and callees",
		    tui_node_name(t, v->node), n->st.calls, dur(t->has_time ? n->st.total_ns :
		    KMAG_DURATION_NONE, a, sizeof(a)), dur(t->has_time ? n->st.self_ns :
		    KMAG_DURATION_NONE, b, sizeof(b)));
		put_cells(hd, cols, cells, func_cells(cells, (const char *const[]){ "Calls",
			  "Total", "Function" }), -1);
		break;
	case TUI_CALLS:
		if (!sf || !sf->calls)
			put(title, cols, "%s: no individual calls%s", tui_node_name(t, v->node),
			    t->has_time ? "" : " (a function-tracer trace has no durations)");
		else
			put(title, cols, "%s: %zu of %" PRIu64 " calls kept: the %" PRIu32
			    " slowest, %" PRIu32 " of %" PRIu64 " failing, the first %" PRIu32
			    "; by %s", tui_node_name(t, v->node), v->nrows, sf->calls,
			    sf->kept_slowest, sf->kept_failing, sf->failing, sf->kept_first,
			    v->calls_sort ? "duration" : "start");
		put_cells(hd, cols, cells, calls_cells(cells, (const char *const[]){ "Start (s)",
			  "Duration", "Return", "CPU", "Task", "Tree", "Kept as" }), -1);
		break;
	case TUI_TREE:
		site[0] = 0;
		if (v->call->tree[0].caller != KMAG_FUNC_NONE) {
			size_t k;

			strcpy(site, ", from ");
			kmag_fmt_call_site(site + 7, sizeof(site) - 7,
					   tui_func_name(t, v->call->tree[0].caller),
					   v->call->tree[0].caller_off);
			k = strlen(site);
			/* with --vmlinux, its source line too, as replay shows it */
			if (t->d.lines && k + 4 < sizeof(site) &&
			    kmag_srclines_call_site(t->d.lines, tui_func_name(t, v->call->tree[0].caller),
						    v->call->tree[0].caller_off, site + k + 2,
						    sizeof(site) - k - 3)) {
				memcpy(site + k, " (", 2);
				strcat(site, ")");
			}
		}
		if (dropped)
			snprintf(more, sizeof(more), " of %" PRIu64 " shown (all: the command at the end)",
				 v->call->inside + 1);
		put(title, cols, "call of %s at %s s, CPU %d, pid %d%s: %zu calls%s",
		    tui_func_name(t, v->call->func), secs(v->call->tree[0].start_ns, st, sizeof(st)),
		    (int)v->call->tree[0].cpu, (int)v->call->pid, site, v->call->nr_tree,
		    dropped ? more : "");
		put_cells(hd, cols, cells, tree_cells(cells, (const char *const[]){ "Start",
			  "Duration", "Return", "Call" }), -1);
		break;
	case TUI_LATENCY:
		put(title, cols, "%s: latency of %" PRIu64 " timed calls (kmag report --latency)",
		    tui_node_name(t, v->node), kmag_cg_nodes(t->d.cg)[v->node].st.timed);
		put(hd, cols, "%s", "");
		break;
	case TUI_HELP:
		put(title, cols, "kmag tui: help");
		put(hd, cols, "%s", "");
		break;
	}
}

static void status(struct tui *t, struct tui_view *v, struct tui_line *l, int cols)
{
	static const char *const keys[] = {
		[TUI_FUNCS] = "Enter: callers/callees  c: calls  l: latency  s/1/2/3: sort  /: search  "
			      "?: help  q: quit",
		[TUI_FUNC] = "Enter: that function  c: its calls  l: latency  /: search  ?: help  q: back",
		[TUI_CALLS] = "Enter: call tree  s: sort  f: callers/callees  /: search  "
			      "?: help  q: back",
		[TUI_TREE] = "Enter/Space/+/-: fold  f: function  c: its calls  /: search  "
			     "?: help  q: back",
		[TUI_LATENCY] = "Up/Down: scroll  ?: help  q: back",
		[TUI_HELP] = "q: back",
	};

	l->attr = TUI_A_STATUS;
	if (t->searching)
		put(l, cols, "/%s%s", t->pat, t->nomatch ? "   (no match)" : "");
	else if (t->msg[0])
		put(l, cols, "%s", t->msg);
	else if (v->nrows && v->kind != TUI_HELP && v->kind != TUI_LATENCY)
		put(l, cols, "%zu/%zu  %s", v->cursor + 1, v->nrows, keys[v->kind]);
	else
		put(l, cols, "%s", keys[v->kind]);
}

static void empty_note(struct tui *t, struct tui_view *v, struct tui_line *l, int cols)
{
	l->attr = TUI_A_NOTE;
	if (v->kind == TUI_FUNCS)
		put(l, cols, "  (the trace holds no function calls%s)",
		    t->d.title && strchr(t->d.title, '(') ? " that pass the filters" : "");
	else if (v->kind == TUI_CALLS)
		put(l, cols, "  (no calls kept: %s)", !t->has_time ?
		    "a function-tracer trace has no individual calls with durations" :
		    "none of this function's calls was seen whole");
	else if (v->kind == TUI_TREE)
		put(l, cols, "  (the tree of this call was not kept: too large)");
	else
		put(l, cols, "%s", "");
}

void tui_render(struct tui *t, int rows, int cols, struct tui_line *lines)
{
	struct tui_view *v = tui_top(t);
	size_t body = rows > 3 ? (size_t)rows - 3 : 1, nnote = 0;
	static char note[TREE_NOTE_LINES][ROW_MAX];
	uint64_t max = 0;

	if (cols > ROW_MAX - 1)
		cols = ROW_MAX - 1;
	for (int r = 0; r < rows; r++) {
		char *text = lines[r].text;

		memset(&lines[r], 0, sizeof(lines[r]));
		lines[r].text = text;
		put(&lines[r], cols, "%s", "");
	}
	t->page = body;
	if (v->cursor >= v->nrows && v->nrows)
		v->cursor = v->nrows - 1;
	if (v->cursor < v->top)
		v->top = v->cursor;
	if (v->cursor >= v->top + body)
		v->top = v->cursor - body + 1;
	if (v->top + body > v->nrows)	/* after a resize, fill the screen */
		v->top = v->nrows > body ? v->nrows - body : 0;
	/* at the end of a cut tree, the note below it comes into view */
	if (v->kind == TUI_TREE && (nnote = tree_note(t, v, cols, note)) && v->nrows &&
	    v->cursor == v->nrows - 1 && v->nrows + nnote > v->top + body && body > nnote)
		v->top = v->nrows + nnote - body;

	if (v->kind == TUI_FUNCS)
		for (size_t i = 0; i < t->nnodes; i++) {
			uint64_t x = kmag_stats_value(&kmag_cg_nodes(t->d.cg)[i].st, t->sort);

			if (x > max)
				max = x;
		}
	if (v->kind == TUI_CALLS)
		for (size_t i = 0; i < v->nrows; i++)
			if (v->calls[i]->tree[0].duration != KMAG_DURATION_NONE &&
			    v->calls[i]->tree[0].duration > max)
				max = v->calls[i]->tree[0].duration;

	if (rows < 1)
		return;
	lines[0].attr = TUI_A_TITLE;
	if (rows > 1)
		lines[1].attr = TUI_A_HEADER;
	head(t, v, &lines[0], rows > 1 ? &lines[1] : &lines[0], cols);
	for (size_t r = 0; r < body && r + 2 < (size_t)rows - 1; r++) {
		struct tui_line *l = &lines[r + 2];
		size_t i = v->top + r;

		if (v->kind == TUI_HELP) {
			put(l, cols, "  %s", i < sizeof(help_text) / sizeof(*help_text) ?
			    help_text[i] : "");
			continue;
		}
		if (v->kind == TUI_LATENCY) {
			put(l, cols, "  %s", i < v->nrows ? v->lat_lines[i] : "");
			continue;
		}
		if (i >= v->nrows) {
			size_t k = i - v->nrows - !v->nrows;	/* the note's line, below an empty note */

			if (!v->nrows && r == 0)
				empty_note(t, v, l, cols);
			else if (k < nnote)
				put(l, cols, "%s", note[k]);
			else
				put(l, cols, "%s", "");
			if (k < nnote)
				l->attr = TUI_A_NOTE;
			continue;
		}
		switch (v->kind) {
		case TUI_FUNCS: funcs_row(t, i, l, cols, max); break;
		case TUI_FUNC: func_row(t, v, i, l, cols); break;
		case TUI_CALLS: calls_row(t, v, i, l, cols, max); break;
		case TUI_TREE: tree_row(t, v, i, l, cols); break;
		default: break;
		}
		l->cursor = i == v->cursor;
	}
	if (rows > 2)
		status(t, v, &lines[rows - 1], cols);
}
