// SPDX-License-Identifier: MIT
/*
 * calltree-lines.c - the lines of `kmag replay` (see calltree-internal.h):
 * function_graph text with time, CPU and task columns, and JSON Lines.
 *
 * Lines are formatted by hand into a buffer written in large blocks: at
 * millions of lines a second, printf's format parsing and stdio's per-call
 * locking would cost more than reading the trace.
 */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kmag/render/callfmt.h"
#include "calltree-internal.h"
#include "kmag/errors.h"
#include "kmag/replay.h"
#include "kmag/srclines.h"
#include "render-util.h"


/* ---- output ---- */

int kmag__ct_fail(struct kmag_calltree *c, int code, const char *fmt, const char *arg)
{
	if (!c->failed) {
		kmag_err_set(&c->err, code, fmt, arg);
		c->failed = true;
	}
	return -code;
}

int kmag__ct_flush(struct kmag_calltree *c)
{
	if (c->len && fwrite(c->buf, 1, c->len, c->out) != c->len)
		return kmag__ct_fail(c, EIO, "cannot write the calls: %s", strerror(errno ? errno : EIO));
	c->len = 0;
	return 0;
}

/* Room for one more line. */
static int reserve(struct kmag_calltree *c)
{
	return c->len + LINE_MAX_BYTES > OUTBUF ? kmag__ct_flush(c) : 0;
}

static inline void put(struct kmag_calltree *c, const char *s, size_t n)
{
	memcpy(c->buf + c->len, s, n);
	c->len += n;
}

static inline void puts_(struct kmag_calltree *c, const char *s)
{
	put(c, s, strlen(s));
}

/*
 * A name, cut at 1 KiB so a line fits its reservation, for a terminal:
 * control characters and bytes that are not UTF-8 as \\xNN (render_fput_text()).
 */
static void put_name(struct kmag_calltree *c, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t out = 0, n, i;

	while (*p && out < 1024) {
		n = render_utf8_len(p);
		if (n && !render_is_control(p, n)) {
			put(c, (const char *)p, n);
			out += n;
			p += n;
			continue;
		}
		for (i = 0; i < (n ? n : 1); i++, out += 4) {
			put(c, "\\x", 2);
			put(c, &hex[p[i] >> 4], 1);
			put(c, &hex[p[i] & 15], 1);
		}
		p += n ? n : 1;
	}
}

static inline void putch(struct kmag_calltree *c, char ch)
{
	c->buf[c->len++] = ch;
}

static void spaces(struct kmag_calltree *c, size_t n)
{
	memset(c->buf + c->len, ' ', n);
	c->len += n;
}

/* @v in decimal, right-aligned in @width columns (0: as is). */
static void put_u64(struct kmag_calltree *c, uint64_t v, unsigned width)
{
	char tmp[24];
	unsigned n = 0;

	do {
		tmp[sizeof(tmp) - ++n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (width > n)
		spaces(c, width - n);
	put(c, tmp + sizeof(tmp) - n, n);
}

static void put_i64(struct kmag_calltree *c, int64_t v)
{
	if (v < 0) {
		putch(c, '-');
		put_u64(c, (uint64_t)0 - (uint64_t)v, 0);
	} else {
		put_u64(c, (uint64_t)v, 0);
	}
}

/* @v as exactly @digits decimal digits (leading zeros). */
static void put_frac(struct kmag_calltree *c, uint64_t v, unsigned digits)
{
	char *p = c->buf + c->len + digits;

	while (digits--) {
		*--p = (char)('0' + v % 10);
		v /= 10;
		c->len++;
	}
}

/*
 * A JSON string (same escaping as the other JSON writers: control chars, quote,
 * backslash, '<'; bytes that are not UTF-8 as U+FFFD), cut at about 512 bytes.
 */
static void put_json_str(struct kmag_calltree *c, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t start = c->len;

	/* cut at 512 bytes written, not read: an escape takes up to 6 */
	putch(c, '"');
	for (; *p && c->len - start < 512; p++) {
		size_t len;

		if (*p == '"' || *p == '\\') {
			putch(c, '\\');
			putch(c, (char)*p);
		} else if (*p < 0x20 || *p == 0x7f || *p == '<') {
			put(c, "\\u00", 4);
			putch(c, hex[*p >> 4]);
			putch(c, hex[*p & 15]);
		} else if (*p < 0x80) {
			putch(c, (char)*p);
		} else if ((len = render_utf8_len(p))) {
			/* whole characters only: the cut at 512 never splits one */
			put(c, (const char *)p, len);
			p += len - 1;
		} else {
			/* JSON is UTF-8: a byte that is not becomes U+FFFD */
			put(c, "\\ufffd", 6);
		}
	}
	putch(c, '"');
}

/* ---- the parts of a line ---- */

static const char *func_name(const struct kmag_calltree *c, kmag_func_t f)
{
	const char *n = f == KMAG_FUNC_NONE ? NULL : kmag_symtab_name(c->st, f);

	return n ? n : "[unknown]";
}

static const char *comm_of(struct kmag_calltree *c, int32_t pid)
{
	if (pid != c->comm_pid) {
		c->comm_pid = pid;
		c->comm = pid >= 0 ? kmag_trace_comm(c->trace, pid) : NULL;
	}
	return c->comm ? c->comm : pid >= 0 ? "<...>" : "?";
}

/* "  21.698717 |   0)  wl.sh-210        | " : time, CPU and task columns. */
static void put_columns(struct kmag_calltree *c, uint64_t ts, int32_t cpu, int32_t pid)
{
	size_t start;

	if (ts == KMAG_TS_NONE) {
		spaces(c, 12);
	} else {
		/* to the nearest microsecond, as the kernel (ns2usecs()) and trace-cmd print it */
		uint64_t us = ts / 1000 + (ts % 1000 >= 500);

		put_u64(c, us / 1000000u, 5);
		putch(c, '.');
		put_frac(c, us % 1000000, 6);
	}
	put(c, " | ", 3);
	if (cpu >= 0)
		put_u64(c, (uint64_t)cpu, 3);
	else
		put(c, "  ?", 3);
	put(c, ")  ", 3);
	start = c->len;
	put_name(c, comm_of(c, pid));
	putch(c, '-');
	if (pid >= 0)
		put_u64(c, (uint64_t)pid, 0);
	else
		putch(c, '?');
	if (c->len - start < 16)
		spaces(c, 16 - (c->len - start));
	put(c, " | ", 3);
}

#define SGR_RESET "\033[0m"

/* The kernel's duration marks (trace_find_mark() in kernel/trace/trace.c). */
static char heat_mark(uint64_t ns)
{
	return ns > 1000000000u ? '$' : ns > 100000000u ? '@' : ns > 10000000u ? '*' :
	       ns > 1000000u ? '#' : ns > 100000u ? '!' : ns > 10000u ? '+' : ' ';
}

/* "+   17.613 us | " or blank; microseconds with nanoseconds, as the kernel prints. */
static void put_duration(struct kmag_calltree *c, uint64_t ns)
{
	char mark;
	const char *sgr = NULL;

	if (ns == KMAG_DURATION_NONE) {
		spaces(c, 14);
		put(c, " | ", 3);
		return;
	}
	mark = heat_mark(ns);
	if (c->o.colour)
		sgr = ns > 1000000u ? "\033[1;31m" : ns > 100000u ? "\033[33m" :
		      ns > 10000u ? "\033[36m" : NULL;
	if (sgr)
		puts_(c, sgr);
	putch(c, mark);
	putch(c, ' ');
	put_u64(c, ns / 1000, 5);
	putch(c, '.');
	put_frac(c, ns % 1000, 3);
	put(c, " us", 3);
	if (sgr)
		puts_(c, SGR_RESET);
	put(c, " | ", 3);
}

/* The error code in a return value, or 0 (kmag_call_errno()). */
static int64_t errno_of(const struct kmag_call *call)
{
	return call->has_retval ? kmag_call_errno(call->retval) : 0;
}

int64_t kmag__ct_errno(const struct kmag_call *call)
{
	return errno_of(call);
}

bool kmag__ct_is_errno(const struct kmag_call *call)
{
	return errno_of(call) != 0;
}

/* " = -22 EINVAL" or " = 0x3", as funcgraph-retval prints them (errors in decimal). */
static void put_retval(struct kmag_calltree *c, const struct kmag_call *call)
{
	const char *name;

	if (!call->has_retval)
		return;
	if (kmag__ct_is_errno(call)) {
		if (c->o.colour)
			puts_(c, "\033[1;31m");
		put(c, " = ", 3);
		put_i64(c, errno_of(call));
		name = kmag_errno_name((int)-errno_of(call));
		if (name) {
			putch(c, ' ');
			puts_(c, name);
		}
		if (c->o.colour)
			puts_(c, SGR_RESET);
	} else {
		static const char hex[] = "0123456789abcdef";
		uint64_t v = (uint64_t)call->retval;
		char tmp[16];
		unsigned n = 0;

		put(c, " = 0x", 5);
		do {
			tmp[sizeof(tmp) - ++n] = hex[v & 15];
			v >>= 4;
		} while (v);
		put(c, tmp + sizeof(tmp) - n, n);
	}
}

/* " /" "* hardirq, exit not in the trace *" "/" where a call is not plain. */
static void put_notes(struct kmag_calltree *c, const struct kmag_call *call, bool irq_entry,
		      bool open)
{
	const char *notes[5];
	size_t n = 0, i;

	if (irq_entry)
		notes[n++] = call->ctx & KMAG_CTX_NMI ? "nmi" :
			     call->ctx & KMAG_CTX_HARDIRQ ? "hardirq" : "softirq";
	if (call->flags & KMAG_CALL_NO_ENTRY)
		notes[n++] = "entry not in the trace";
	if ((call->flags & KMAG_CALL_NO_EXIT) && !open)
		notes[n++] = "exit not in the trace";
	if ((call->flags & KMAG_CALL_LOST) && !open)
		notes[n++] = "events lost during the call";
	if (!n)
		return;
	if (c->o.colour)
		puts_(c, "\033[35m");
	put(c, " /* ", 4);
	for (i = 0; i < n; i++) {
		if (i)
			put(c, ", ", 2);
		puts_(c, notes[i]);
	}
	put(c, " */", 3);
	if (c->o.colour)
		puts_(c, SGR_RESET);
}

#define IRQ_CTX (KMAG_CTX_HARDIRQ | KMAG_CTX_SOFTIRQ | KMAG_CTX_NMI)

/* A call whose context differs from its caller's: an interrupt's entry. */
static bool irq_entry(const struct kmag_call *call, const struct kmag_call *parent)
{
	return (call->ctx & IRQ_CTX) && (!parent || (parent->ctx & IRQ_CTX) != (call->ctx & IRQ_CTX));
}

static void put_indent(struct kmag_calltree *c, const struct kmag_call *call,
		       const struct cdata *d)
{
	size_t n = 1 + 2 * (size_t)(call->depth - (d->root_depth > 0 ? d->root_depth : 0));

	spaces(c, n > MAX_INDENT ? MAX_INDENT : n);
}


/*
 * The time of a line, as trace-cmd and the kernel's text print it: an
 * opening or leaf line the call's entry (an entry-window call: the first
 * event of the interrupt inside it), a closing line its exit. A call whose
 * entry the trace lacks has only an estimated start (JSON gives it): none.
 */
static uint64_t line_time(enum line_kind k, const struct kmag_call *call)
{
	if (k == L_CLOSE)
		return call->exit_ns;
	return call->start_src == KMAG_START_ENTRY || call->start_src == KMAG_START_IRQ ?
		       call->start_ns : KMAG_TS_NONE;
}

int kmag__ct_text_line(struct kmag_calltree *c, enum line_kind k, const struct kmag_call *call,
		     const struct cdata *d, const struct kmag_call *parent)
{
	int ret = reserve(c);
	bool err = kmag__ct_is_errno(call) && c->o.colour;

	if (ret)
		return ret;
	put_columns(c, line_time(k, call), call->cpu, call->pid);
	put_duration(c, k == L_OPEN ? KMAG_DURATION_NONE : call->kernel_ns);
	put_indent(c, call, d);
	if (k == L_CLOSE && (call->flags & KMAG_CALL_NO_EXIT)) {
		/* a comment, not a "}": a reader of this text must not take it for an exit */
		put(c, "/* } ", 5);
		put_name(c, func_name(c, call->func));
		put(c, ": exit not in the trace */", 26);
	} else if (k == L_CLOSE) {
		put(c, "} /* ", 5);
		put_name(c, func_name(c, call->func));
		put_retval(c, call);
		put(c, " */", 3);
	} else {
		char tmp[512];
		bool site = call->caller != KMAG_FUNC_NONE;

		if (err)
			puts_(c, "\033[31m");
		put_name(c, func_name(c, call->func));
		if (err)
			puts_(c, SGR_RESET);
		kmag_fmt_trace_args(tmp, sizeof(tmp), call, c->trace);
		putch(c, '(');
		put_name(c, tmp);
		put(c, k == L_OPEN ? ") {" : ");", k == L_OPEN ? 3 : 2);
		if (site || (k == L_LEAF && call->has_retval)) {
			put(c, " /*", 3);
			if (site) {
				kmag_fmt_call_site(tmp, sizeof(tmp), func_name(c, call->caller),
						   call->caller_off);
				put(c, " <-", 3);
				put_name(c, tmp);
				if (c->o.lines &&
				    kmag_srclines_call_site(c->o.lines, func_name(c, call->caller),
							    call->caller_off, tmp, sizeof(tmp))) {
					put(c, " (", 2);
					put_name(c, tmp);
					putch(c, ')');
				}
			}
			if (k == L_LEAF)
				put_retval(c, call);
			put(c, " */", 3);
		}
	}
	put_notes(c, call, k != L_CLOSE && irq_entry(call, parent),
		  k == L_OPEN || (k == L_CLOSE && (call->flags & KMAG_CALL_NO_EXIT)));
	putch(c, '\n');
	c->stats.lines++;
	return 0;
}

/* ,"call_site":"ksys_write+0x71","args":"fd=0x3, count=0x400" where recorded */
static void json_details(struct kmag_calltree *c, const struct kmag_call *call)
{
	char tmp[512];

	if (call->caller != KMAG_FUNC_NONE) {
		kmag_fmt_call_site(tmp, sizeof(tmp), func_name(c, call->caller), call->caller_off);
		put(c, ",\"call_site\":", 13);
		put_json_str(c, tmp);
		if (c->o.lines && kmag_srclines_call_site(c->o.lines, func_name(c, call->caller),
							  call->caller_off, tmp, sizeof(tmp))) {
			put(c, ",\"call_site_line\":", 18);
			put_json_str(c, tmp);
		}
	}
	if (call->nargs) {
		kmag_fmt_trace_args(tmp, sizeof(tmp), call, c->trace);
		put(c, ",\"args\":", 8);
		put_json_str(c, tmp);
	}
}

/* A function-tracer record's arguments (func-args) as text in @buf. */
static const char *func_args(struct kmag_calltree *c, const struct kmag_event *ev, char *buf,
			     size_t size)
{
	struct kmag_call call = { .func = ev->func, .nargs = ev->nargs };

	memcpy(call.args, ev->args, sizeof(call.args));
	kmag_fmt_trace_args(buf, size, &call, c->trace);
	return buf;
}

static const char *const flag_names[] = { "no_entry", "no_exit", "lost", "recursive" };

static void put_json_u64(struct kmag_calltree *c, const char *key, uint64_t v, uint64_t none)
{
	puts_(c, key);
	if (v == none)
		put(c, "null", 4);
	else
		put_u64(c, v, 0);
}

/* The task members of a JSON line: "task", "pid", "cpu". */
static void put_task(struct kmag_calltree *c, int32_t pid, int32_t cpu)
{
	put(c, ",\"task\":", 8);
	put_json_str(c, comm_of(c, pid));
	put(c, ",\"pid\":", 7);
	put_i64(c, pid);
	put(c, ",\"cpu\":", 7);
	put_i64(c, cpu);
}

int kmag__ct_json_line(struct kmag_calltree *c, const struct kmag_call *call)
{
	int ret = reserve(c);
	unsigned i, n = 0;

	if (ret)
		return ret;
	put(c, "{\"id\":", 6);
	put_u64(c, call->id, 0);
	put(c, ",\"parent\":", 10);
	put_u64(c, call->parent_id, 0);
	put(c, ",\"function\":", 12);
	if (call->func == KMAG_FUNC_NONE)
		put(c, "null", 4);
	else
		put_json_str(c, func_name(c, call->func));
	put_task(c, call->pid, call->cpu);
	put(c, ",\"depth\":", 9);
	put_i64(c, call->depth);
	put_json_u64(c, ",\"start_ns\":", call->start_ns, KMAG_TS_NONE);
	put(c, ",\"start_from\":", 14);
	if (call->start_ns == KMAG_TS_NONE || !kmag_call_start_name(call->start_src))
		put(c, "null", 4);
	else
		put_json_str(c, kmag_call_start_name(call->start_src));
	put_json_u64(c, ",\"duration_ns\":", call->kernel_ns, KMAG_DURATION_NONE);
	put_json_u64(c, ",\"self_ns\":",
		     call->kernel_ns == KMAG_DURATION_NONE ? KMAG_DURATION_NONE :
		     call->kernel_ns > call->kernel_child_ns ? call->kernel_ns - call->kernel_child_ns : 0,
		     KMAG_DURATION_NONE);
	/* less the tracer's cost: what every aggregate counts */
	if (c->o.tracer_cost_ns) {
		put_json_u64(c, ",\"corrected_ns\":", call->duration, KMAG_DURATION_NONE);
		put_json_u64(c, ",\"corrected_self_ns\":",
			     call->duration == KMAG_DURATION_NONE ? KMAG_DURATION_NONE :
			     kmag_call_self(call), KMAG_DURATION_NONE);
		put_json_u64(c, ",\"traced_beneath\":", call->traced_beneath, KMAG_DURATION_NONE);
	}
	put(c, ",\"flags\":[", 10);
	for (i = 0; i < 4; i++)
		if (call->flags & (1u << i)) {
			if (n++)
				putch(c, ',');
			put_json_str(c, flag_names[i]);
		}
	if (call->ctx & IRQ_CTX) {
		if (n++)
			putch(c, ',');
		put_json_str(c, call->ctx & KMAG_CTX_NMI ? "nmi" :
				call->ctx & KMAG_CTX_HARDIRQ ? "hardirq" : "softirq");
	}
	put(c, "],\"retval\":", 11);
	if (call->has_retval)	/* an error as the kernel reads it (see errno_of()) */
		put_i64(c, kmag__ct_is_errno(call) ? errno_of(call) : call->retval);
	else
		put(c, "null", 4);
	json_details(c, call);
	put(c, "}\n", 2);
	c->stats.lines++;
	return 0;
}


int kmag__ct_lost_line(struct kmag_calltree *c, const struct kmag_event *ev)
{
	int ret = reserve(c);

	if (ret)
		return ret;
	put(c, "CPU:", 4);
	put_i64(c, ev->cpu);
	if (ev->lost == KMAG_LOST_UNKNOWN) {
		put(c, " [EVENTS DROPPED]\n", 18);
	} else {
		put(c, " [LOST ", 7);
		put_u64(c, ev->lost, 0);
		put(c, " EVENTS]\n", 9);
	}
	c->stats.lines++;
	return 0;
}

/*
 * "# ... stopped at --limit 6, inside ksys_read > __fdget_pos; more: --limit 12,
 * all: --limit 0, on from here: --time 29.572848123," after the last line.
 */
int kmag__ct_limit_line(struct kmag_calltree *c)
{
	const struct kmag_calltree_stats *st = &c->stats;
	int ret = reserve(c);

	if (ret)
		return ret;
	put(c, "# ... stopped at --limit ", 25);
	put_u64(c, c->o.limit, 0);
	if (st->stopped_in[0]) {
		put(c, ", inside ", 9);
		put_name(c, st->stopped_in);
	}
	put(c, "; more: --limit ", 16);
	put_u64(c, c->o.limit > UINT64_MAX / 2 ? UINT64_MAX : 2 * c->o.limit, 0);
	put(c, ", all: --limit 0", 16);
	if (st->next_ns != KMAG_TS_NONE) {
		put(c, ", on from here: --time ", 23);
		put_u64(c, st->next_ns / 1000000000u, 0);
		putch(c, '.');
		put_frac(c, st->next_ns % 1000000000u, 9);
		putch(c, ',');
	}
	putch(c, '\n');
	c->stats.lines++;
	return 0;
}

/* A function-tracer record: "vfs_read <-ksys_read", or one JSON object. */
int kmag__ct_func_line(struct kmag_calltree *c, const struct kmag_event *ev)
{
	char tmp[512];
	int ret;

	c->stats.calls++;
	if (c->o.function && !kmag__ct_function_matches(c, ev->func) && !kmag__ct_function_matches(c, ev->parent))
		return 0;
	if (c->o.function)
		c->stats.function_seen = true;
	if ((ret = kmag__ct_count_shown(c, ev->ts)) || (ret = reserve(c)))
		return ret;
	if (c->o.format == KMAG_CALLTREE_JSON) {
		put(c, "{\"id\":", 6);
		put_u64(c, c->stats.calls, 0);
		put(c, ",\"function\":", 12);
		put_json_str(c, func_name(c, ev->func));
		put(c, ",\"caller\":", 10);
		if (ev->parent == KMAG_FUNC_NONE)
			put(c, "null", 4);
		else
			put_json_str(c, func_name(c, ev->parent));
		put_task(c, ev->pid, ev->cpu);
		put_json_u64(c, ",\"start_ns\":", ev->ts, KMAG_TS_NONE);
		put(c, ",\"repeat\":", 10);
		put_u64(c, ev->repeat ? ev->repeat : 1, 0);
		if (ev->nargs) {
			put(c, ",\"args\":", 8);
			put_json_str(c, func_args(c, ev, tmp, sizeof(tmp)));
		}
		put(c, "}\n", 2);
	} else {
		put_columns(c, ev->ts, ev->cpu, ev->pid);
		put_name(c, func_name(c, ev->func));
		if (ev->nargs) {	/* func-args */
			putch(c, '(');
			put_name(c, func_args(c, ev, tmp, sizeof(tmp)));
			putch(c, ')');
		}
		if (ev->parent != KMAG_FUNC_NONE) {
			put(c, " <- ", 4);
			put_name(c, func_name(c, ev->parent));
		}
		if (ev->repeat > 1) {
			put(c, " (repeats: ", 11);
			put_u64(c, ev->repeat, 0);
			putch(c, ')');
		}
		if (ev->ctx & IRQ_CTX)
			puts_(c, ev->ctx & KMAG_CTX_NMI ? " /* nmi */" :
				 ev->ctx & KMAG_CTX_HARDIRQ ? " /* hardirq */" : " /* softirq */");
		putch(c, '\n');
	}
	c->stats.lines++;
	return 0;
}

/* Options a function-tracer trace cannot serve: one line saying why. */

/* ---- which calls are shown ---- */

bool kmag__ct_function_matches(struct kmag_calltree *c, kmag_func_t f)
{
	const char *name;
	bool yes;

	if (f == KMAG_FUNC_NONE)
		return false;
	if (f < c->cap_match && c->match[f] != M_UNKNOWN)
		return c->match[f] == M_YES;
	name = kmag_symtab_name(c->st, f);
	yes = name && fnmatch(c->o.function, name, 0) == 0;
	if (f >= c->cap_match) {
		size_t cap = c->cap_match ? c->cap_match : 1024;
		uint8_t *m;

		while (cap <= f)
			cap *= 2;
		m = realloc(c->match, cap);
		if (!m)
			return yes;	/* not cached: asked again next time */
		memset(m + c->cap_match, M_UNKNOWN, cap - c->cap_match);
		c->match = m;
		c->cap_match = cap;
	}
	c->match[f] = yes ? M_YES : M_NO;
	return yes;
}

/* Counts a call shown; KMAG_CALLTREE_STOP once --limit calls were. */
int kmag__ct_count_shown(struct kmag_calltree *c, uint64_t start_ns)
{
	if (c->o.limit && c->stats.shown >= c->o.limit) {
		c->stats.limited = true;
		c->stats.next_ns = start_ns;
		return KMAG_CALLTREE_STOP;
	}
	c->stats.shown++;
	return 0;
}
