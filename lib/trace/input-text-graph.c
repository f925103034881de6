// SPDX-License-Identifier: MIT
/*
 * input-text-graph.c - one line of the function_graph tracer's text output
 * (the tracefs "trace" file with any of the funcgraph-* columns), turned into
 * entry/exit events. Split from input-text.c, which reads the lines.
 */
#define PR_DOMAIN "text"
#include <stdio.h>
#include <stdlib.h>

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
		if (c[0] == '/' && c[1] == '*') {
			/* funcgraph-tail "} /" "* name *" "/", retval "} /" "* name = 0x0 *" "/" */
			const char *n = skip_sp(c + 2), *eq;
			size_t len = func_len(n);

			if (len && *n != '=') {
				ev.func = kmag_symtab_intern(t->st, n, len);
				if (ev.func == KMAG_FUNC_NONE)
					return -ENOMEM;
			}
			eq = strstr(n, "= ");
			if (eq) {
				ev.retval = parse_retval(eq + 2);
				ev.has_retval = true;
			}
		}
		return kmag__trace_deliver(t, &ev);
	}
	{
		size_t len = func_len(p);
		const char *after = p + len;

		if (!len || after[0] != '(' || after[1] != ')')
			return 0;	/* not a call line (e.g. a marker kmag does not know) */
		ev.func = kmag_symtab_intern(t->st, p, len);
		if (ev.func == KMAG_FUNC_NONE)
			return -ENOMEM;
		after = skip_sp(after + 2);
		ev.type = KMAG_EV_GRAPH_ENTRY;
		if (*after == '{')
			return kmag__trace_deliver(t, &ev);
		if (*after != ';')
			return 0;
		/* a leaf: entry and exit on one line */
		ret = kmag__trace_deliver(t, &ev);
		if (ret)
			return ret;
		ev.type = KMAG_EV_GRAPH_EXIT;
		ev.duration = dur;
		ev.calltime = g->ts;
		if (g->ts != KMAG_TS_NONE && dur != KMAG_DURATION_NONE)
			ev.ts = g->ts + dur;
		{
			const char *c = skip_sp(after + 1), *eq;

			if (c[0] == '/' && c[1] == '*' && (eq = strstr(c, "= "))) {
				ev.retval = parse_retval(eq + 2);
				ev.has_retval = true;
			}
		}
		return kmag__trace_deliver(t, &ev);
	}
}

/* Splits "[mark] dur us |" columns; returns the text after the separator or NULL. */
const char *kmag__text_graph_columns(const char *p, uint64_t *dur)
{
	*dur = KMAG_DURATION_NONE;
	for (;;) {
		const char *bar = strchr(p, '|');
		const char *q = skip_sp(p);
		uint64_t d;

		if (!bar)
			return NULL;
		if (q == bar)
			return bar + 1;		/* blank duration column */
		q = parse_duration(q, &d);
		if (q && skip_sp(q) == bar) {
			*dur = d;
			return bar + 1;
		}
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
	body = kmag__text_graph_columns(p, &dur);
	if (!body)
		return 0;	/* a separator or unknown decoration */
	g.ctx = cs->irq ? (KMAG_CTX_KNOWN | KMAG_CTX_HARDIRQ) : 0;
	return kmag__text_graph_body(t, in, &g, body, dur);
}
