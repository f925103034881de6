// SPDX-License-Identifier: MIT
/*
 * input-text-graph.c - one line of the function_graph tracer's text output
 * (the tracefs "trace" file with any of the funcgraph-* columns), turned into
 * entry/exit events. Split from input-text.c, which reads the lines.
 */
#define PR_DOMAIN "text"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input-text.h"

/*
 * A funcgraph-retval value: "-22", or the register in hex ("0xffffffffffffffea",
 * "0xffff888003a5c000"), which strtoll() would clamp to INT64_MAX: read as
 * unsigned and keep the bits.
 */
static int64_t parse_retval(const char *s)
{
	s = skip_sp(s);
	if (*s == '-')
		return strtoll(s, NULL, 0);
	return (int64_t)strtoull(s, NULL, 0);
}

/*
 * One argument value as print_function_args() writes it: "-17", "4096",
 * "0x1f", "?0x1f" (no BTF type). Returns the end or NULL.
 */
static const char *parse_arg_value(const char *s, uint64_t *v)
{
	char *end;

	if (*s == '?')
		s++;
	errno = 0;
	if (*s == '-')
		*v = (uint64_t)strtoll(s, &end, 10);
	else
		*v = strtoull(s, &end, 0);
	return end == s || errno ? NULL : end;
}

/*
 * The arguments of funcgraph-args/func-args (Linux 6.15+) between @open's
 * "(" and its ")": "fd=3, buf=0x7ffd, count=0x400", a struct passed by value
 * as "how=(struct open_how)[0x1:0x2" "]", "..." past the sixth register.
 * Fills @ev's args and records the names for @ev->func; returns the text
 * after ")" or NULL when this is not an argument list.
 */
const char *kmag__text_args(struct kmag_trace *t, struct kmag_event *ev, const char *open)
{
	char names[256];
	size_t nl = 0;
	const char *p = open + 1;

	ev->nargs = 0;
	while (*p && *p != ')') {
		const char *name = skip_sp(p), *eq = name;
		uint64_t v;

		if (!strncmp(name, "...", 3)) {		/* registers the arch does not save */
			p = name + 3;
			continue;
		}
		while (*eq && *eq != '=' && *eq != ',' && *eq != ')')
			eq++;
		if (*eq != '=')
			return NULL;
		p = eq + 1;
		if (*p == '(') {	/* "(struct x)[0x1:0x2]": one name, several registers */
			p = strchr(p, '[');
			if (!p)
				return NULL;
			p++;
		}
		for (bool first = true;; first = false) {
			size_t len = first ? (size_t)(eq - name) : 0;

			if (!strncmp(p, "...", 3)) {
				p += 3;
				break;
			}
			p = parse_arg_value(p, &v);
			if (!p)
				return NULL;
			if (ev->nargs < KMAG_MAX_ARGS) {
				ev->args[ev->nargs++] = v;
				if (nl + len + 1 < sizeof(names)) {
					if (ev->nargs > 1)
						names[nl++] = ',';
					memcpy(names + nl, name, len);
					nl += len;
				}
			}
			if (*p != ':')
				break;
			p++;
		}
		if (*p == ']')
			p++;
		if (*p == ',')
			p++;
		else if (*p != ')')
			return NULL;
	}
	if (*p != ')')
		return NULL;
	if (ev->nargs) {
		const char *old = kmag_trace_arg_names(t, ev->func);

		if ((!old || strlen(old) != nl || memcmp(old, names, nl)) &&
		    kmag__trace_set_arg_names(t, ev->func, names, nl))
			return NULL;
	}
	return p + 1;
}

/*
 * The comment after a call or a return, "/" "* <-caller+0x1f/0x80 ret=-2 *" "/"
 * (funcgraph-retaddr, -retval; 6.5 wrote "= -2"), and with funcgraph-tail or
 * a return value the returning function's name first, "/" "* vfs_read ret=0x0 *" "/".
 * Returns 0 or -ENOMEM.
 */
static int graph_comment(struct kmag_trace *t, struct kmag_event *ev, const char *c, bool is_exit)
{
	const char *end = strstr(c, "*/"), *p = skip_sp(c + 2);

	if (!end)
		end = c + strlen(c);
	while (p < end) {
		const char *tok = p;
		size_t len;

		while (p < end && *p != ' ')
			p++;
		len = (size_t)(p - tok);
		p = skip_sp(p);
		if (len > 2 && tok[0] == '<' && tok[1] == '-') {
			const char *plus = memchr(tok, '+', len);
			size_t nlen = plus ? (size_t)(plus - tok - 2) : len - 2;
			char *e;
			unsigned long long off;

			ev->parent = kmag_symtab_intern(t->st, tok + 2, nlen);
			if (ev->parent == KMAG_FUNC_NONE)
				return -ENOMEM;
			off = plus ? strtoull(plus + 1, &e, 16) : 0;
			if (plus && e > plus + 1 && off < UINT32_MAX)
				ev->parent_off = (uint32_t)off;
		} else if (len > 4 && !strncmp(tok, "ret=", 4)) {
			ev->retval = parse_retval(tok + 4);
			ev->has_retval = true;
		} else if (len == 1 && *tok == '=' && p < end) {
			ev->retval = parse_retval(p);		/* 6.5 - 6.x: "= 0x0" */
			ev->has_retval = true;
			break;
		} else if (is_exit && tok == skip_sp(c + 2) && len) {
			size_t flen = func_len(tok);

			if (flen > len)
				flen = len;
			ev->func = kmag_symtab_intern(t->st, tok, flen);
			if (ev->func == KMAG_FUNC_NONE)
				return -ENOMEM;
		}
	}
	return 0;
}

/* ---- function_graph body: "[dur us] |  <indent>text" ---- */

/*
 * Parses the part after the duration column separator: indentation, then
 * "f() {", "f();", "}", "} /" "* f *" "/" or a comment. @dur is the duration column
 * value or KMAG_DURATION_NONE.
 */
int kmag__text_graph_body(struct kmag_trace *t, struct text_input *in, const struct graph_ctx *g,
			  const char *body, uint64_t dur)
{
	struct kmag_event ev;
	const char *p = body;
	int spaces = 0, depth, ret;

	while (*p == ' ') {
		spaces++;
		p++;
	}
	depth = spaces >= 2 ? (spaces - 2) / 2 : 0;
	if (!*p)
		return 0;
	if (p[0] == '/' && p[1] == '*')
		return 0;	/* an event or marker printed as a comment */

	text_ev_init(&ev, g->cpu, g->pid, g->ts);
	ev.ctx = g->ctx;
	ev.depth = depth;
	if (*p == '}') {
		const char *c = skip_sp(p + 1);

		ev.type = KMAG_EV_GRAPH_EXIT;
		ev.duration = dur;
		if (dur != KMAG_DURATION_NONE && g->ts != KMAG_TS_NONE && g->ts >= dur)
			ev.calltime = g->ts - dur;
		if (c[0] == '/' && c[1] == '*' && (ret = graph_comment(t, &ev, c, true)))
			return ret;
		return kmag__trace_deliver(t, &ev);
	}
	{
		size_t len = func_len(p);
		const char *after = p + len, *c;

		if (!len || after[0] != '(')
			return 0;	/* not a call line (e.g. a marker kmag does not know) */
		ev.func = kmag_symtab_intern(t->st, p, len);
		if (ev.func == KMAG_FUNC_NONE)
			return -ENOMEM;
		if (after[1] == ')')
			after += 2;
		else if (!(after = kmag__text_args(t, &ev, after)))
			return 0;	/* parentheses that are not an argument list */
		after = skip_sp(after);
		ev.type = KMAG_EV_GRAPH_ENTRY;
		if (*after != '{' && *after != ';')
			return 0;
		c = skip_sp(after + 1);
		/* the call site and (leaves) the return value, in one comment */
		if (c[0] == '/' && c[1] == '*' && (ret = graph_comment(t, &ev, c, false)))
			return ret;
		if (*after == '{') {
			ev.has_retval = false;
			return kmag__trace_deliver(t, &ev);
		}
		/* a leaf: entry and exit on one line */
		{
			int64_t retval = ev.retval;
			bool has_retval = ev.has_retval;

			ev.has_retval = false;
			ret = kmag__trace_deliver(t, &ev);
			if (ret)
				return ret;
			ev.retval = retval;
			ev.has_retval = has_retval;
		}
		ev.type = KMAG_EV_GRAPH_EXIT;
		ev.parent = KMAG_FUNC_NONE;
		ev.parent_off = KMAG_OFF_NONE;
		ev.nargs = 0;
		ev.duration = dur;
		ev.calltime = g->ts;
		if (g->ts != KMAG_TS_NONE && dur != KMAG_DURATION_NONE)
			ev.ts = g->ts + dur;
		return kmag__trace_deliver(t, &ev);
	}
}

/*
 * A latency-format flags column ("d.h1.", "....." between two "|"; 4 to 6
 * characters: irqs-off, need-resched, hardirq/softirq, preempt depth and,
 * on newer kernels, migrate-disable), from @p to @end: its context, or 0.
 */
static uint8_t lat_column(const char *p, const char *end)
{
	static const char irqs[] = ".dDbX", hardsoft[] = ".hHsSzZ";

	p = skip_sp(p);
	while (end > p && end[-1] == ' ')
		end--;
	if (end - p < 4 || end - p > 6 || !strchr(irqs, p[0]) || !strchr(hardsoft, p[2]))
		return 0;
	for (const char *q = p; q < end; q++)
		if (*q == ' ' || *q == '-')	/* not "comm-pid" (funcgraph-proc) */
			return 0;
	return kmag__text_lat_ctx(p);
}

/*
 * Splits "[flags |] [mark] dur us |" columns; returns the text after the
 * separator or NULL. *@ctx: the flags column's context, else left alone.
 */
const char *kmag__text_graph_columns(const char *p, uint64_t *dur, uint8_t *ctx)
{
	*dur = KMAG_DURATION_NONE;
	for (;;) {
		const char *bar = strchr(p, '|');
		const char *q = skip_sp(p);
		uint64_t d;
		uint8_t c;

		if (!bar)
			return NULL;
		if (q == bar)
			return bar + 1;		/* blank duration column */
		q = parse_duration(q, &d);
		if (q && skip_sp(q) == bar) {
			*dur = d;
			return bar + 1;
		}
		if ((c = lat_column(p, bar)))
			*ctx = c;
		p = bar + 1;			/* a proc or flags column: keep going */
	}
}

/* One line of the tracefs function_graph "trace" file. */
int kmag__text_graph_line(struct kmag_trace *t, struct text_input *in, char *line)
{
	struct graph_ctx g = { .cpu = -1, .pid = -1, .ts = KMAG_TS_NONE };
	struct cpu_state *cs;
	const char *p = skip_sp(line), *body;
	uint64_t v, dur;

	/* funcgraph-abstime: "6302.365123 |" */
	if (is_digit(*p)) {
		const char *q = parse_ts(p, &v);

		if (q && *q == ' ' && *(q = skip_sp(q)) == '|' && strchr(p, '.') && strchr(p, '.') < q) {
			g.ts = v;
			p = skip_sp(q + 1);
		}
	}
	/* funcgraph-cpu: " 0)" */
	if (is_digit(*p)) {
		const char *q = parse_uint(p, &v);

		if (q && *q == ')' && v < 65536) {
			g.cpu = (int)v;
			p = q + 1;
		}
	}
	cs = text_cpu_state(in, g.cpu);
	if (!cs)
		return -ENOMEM;
	{
		const char *q = skip_sp(p);

		/* context switch marker: " 1)    ls-97    =>  trace-c-95  " */
		const char *arrow = strstr(q, " => ");
		if (arrow && !strchr(q, '|')) {
			const char *n = skip_sp(arrow + 4), *e = n, *dash = NULL;

			while (*e && *e != ' ')
				e++;
			for (const char *d = n; d < e; d++)
				if (*d == '-')
					dash = d;
			if (dash && parse_uint(dash + 1, &v)) {
				cs->pid = (int32_t)v;
				if ((int)v != cs->last_comm_pid) {
					cs->last_comm_pid = (int)v;
					if (kmag__trace_set_comm(t, (int)v, n, (size_t)(dash - n)))
						return -ENOMEM;
				}
			}
			return 0;
		}
	}
	/* funcgraph-proc: "ls-97    |" before the duration column */
	{
		const char *bar = strchr(p, '|'), *q = skip_sp(p);
		const char *e = bar, *dash = NULL;

		if (bar && q < bar) {
			while (e > q && e[-1] == ' ')
				e--;
			for (const char *d = q; d < e; d++)
				if (*d == '-')
					dash = d;
			/* (only the column itself must be free of '.': the duration follows it) */
			if (dash && dash + 1 < e && parse_uint(dash + 1, &v) &&
			    !memchr(q, '.', (size_t)(e - q)) && parse_uint(dash + 1, &v) == e) {
				g.pid = (int)v;
				cs->pid = (int32_t)v;
				if ((int)v != cs->last_comm_pid) {
					cs->last_comm_pid = (int)v;
					if (kmag__trace_set_comm(t, (int)v, q, (size_t)(dash - q)))
						return -ENOMEM;
				}
				p = bar + 1;
			}
		}
	}
	if (g.pid < 0)
		g.pid = cs->pid;
	if (strstr(p, "==========>")) {
		cs->irq = 1;
		return 0;
	}
	if (strstr(p, "<==========")) {
		cs->irq = 0;
		return 0;
	}
	g.ctx = cs->irq ? (KMAG_CTX_KNOWN | KMAG_CTX_HARDIRQ) : 0;
	body = kmag__text_graph_columns(p, &dur, &g.ctx);
	if (!body)
		return 0;	/* a separator or unknown decoration */
	return kmag__text_graph_body(t, in, &g, body, dur);
}
