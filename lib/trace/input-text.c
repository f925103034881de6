// SPDX-License-Identifier: MIT
/*
 * input-text.c - ftrace text input: the tracefs "trace" file of the function
 * and function_graph tracers, and `trace-cmd report` output.
 *
 * No library parses this text, so kmag does. The format is recognised from
 * the content (a "# tracer:" header, trace-cmd's "cpus=" line, or the shape
 * of the first event lines). The file is read in large blocks; memory does
 * not grow with its size.
 */
#define PR_DOMAIN "text"
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <unistd.h>

#include "input-text.h"

#define BLOCK (1u << 20)
#define MAX_LINE (16u << 20)
#define SNIFF_LINES 200

/* ---- line reading ---- */

/* Returns the next line (without '\n', NUL-terminated in place), or NULL at end. */
static char *next_line(struct text_input *in, size_t *len_out, int *ret)
{
	for (;;) {
		char *start = in->buf + in->pos;
		char *nl = memchr(start, '\n', in->len - in->pos);
		ssize_t n;

		if (nl || (in->eof && in->pos < in->len)) {
			size_t len = nl ? (size_t)(nl - start) : in->len - in->pos;

			if (!nl) {
				/* last line without newline: make room for the NUL */
				if (in->len == in->cap) {
					if (kmag__grow(&in->buf, &in->cap, in->len + 1, 1)) {
						*ret = -ENOMEM;
						return NULL;
					}
					start = in->buf + in->pos;
				}
			}
			start[len] = '\0';
			in->pos += len + (nl ? 1 : 0);
			if (!nl)
				in->pos = in->len;
			in->lineno++;
			if (len && start[len - 1] == '\r')
				start[--len] = '\0';
			*len_out = len;
			return start;
		}
		if (in->eof)
			return NULL;
		/* keep the partial line, read more behind it */
		if (in->pos) {
			memmove(in->buf, in->buf + in->pos, in->len - in->pos);
			in->len -= in->pos;
			in->pos = 0;
		}
		if (in->len == in->cap) {
			if (in->cap >= MAX_LINE) {
				*ret = kmag_err_set(in->err, EINVAL,
						    "line %llu is longer than %u MB; this is not ftrace text",
						    (unsigned long long)in->lineno + 1, MAX_LINE >> 20);
				return NULL;
			}
			if (kmag__grow(&in->buf, &in->cap, in->cap + BLOCK, 1)) {
				*ret = -ENOMEM;
				return NULL;
			}
		}
		n = read(in->fd, in->buf + in->len, in->cap - in->len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			*ret = kmag_err_set(in->err, errno, "read error: %s", strerror(errno));
			return NULL;
		}
		if (n == 0)
			in->eof = true;
		in->len += (size_t)n;
		in->bytes_read += (uint64_t)n;
	}
}

/* Returns the byte offset of the first invalid UTF-8 sequence or NUL, or -1. */
static long utf8_invalid(const unsigned char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		unsigned char c = s[i];
		size_t n, k;
		uint32_t cp;

		/* ASCII without NUL, eight bytes at a time: nearly every line */
		while (i + 8 <= len) {
			uint64_t w;

			memcpy(&w, s + i, 8);
			if ((w & 0x8080808080808080ull) ||
			    ((w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull))
				break;
			i += 8;
		}
		if (i >= len)
			break;
		c = s[i];
		if (c < 0x80) {
			if (!c)
				return (long)i;
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf) {
			n = 1;
			cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			n = 2;
			cp = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			n = 3;
			cp = c & 0x07;
		} else {
			return (long)i;
		}
		if (i + n >= len)
			return (long)i;
		for (k = 1; k <= n; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return (long)i;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return (long)i;
		i += n + 1;
	}
	return -1;
}

static int parse_fail(struct text_input *in, const char *what)
{
	return kmag_err_set(in->err, EINVAL, "line %llu: %s", (unsigned long long)in->lineno, what);
}

/* "CPU:3 [LOST 123 EVENTS]", "CPU:3 [123 EVENTS DROPPED]", "CPU:3 [EVENTS DROPPED]" */
static int try_lost(struct kmag_trace *t, const char *p, bool *handled)
{
	struct kmag_event ev;
	uint64_t cpu, n = KMAG_LOST_UNKNOWN;

	*handled = false;
	p = skip_sp(p);
	if (strncmp(p, "CPU:", 4))
		return 0;
	p = parse_uint(p + 4, &cpu);
	if (!p || cpu >= 65536)
		return 0;
	p = skip_sp(p);
	if (*p++ != '[')
		return 0;
	if (!strncmp(p, "LOST ", 5)) {
		if (!(p = parse_uint(p + 5, &n)))
			return 0;
	} else if (is_digit(*p)) {
		if (!(p = parse_uint(p, &n)) || strncmp(p, " EVENTS DROPPED", 15))
			return 0;
	} else if (strncmp(p, "EVENTS DROPPED", 14)) {
		return 0;
	}
	*handled = true;
	text_ev_init(&ev, (int)cpu, -1, KMAG_TS_NONE);
	ev.type = KMAG_EV_LOST;
	ev.lost = n;
	return kmag__trace_deliver(t, &ev);
}

/*
 * "comm-pid (tgid) [cpu] flags ts: rest" as printed by the trace file and by
 * trace-cmd report. Returns the rest, or NULL if the line is not of this shape.
 */
struct ev_head {
	const char *comm;
	size_t comm_len;
	int pid, cpu;
	uint64_t ts;
	uint8_t ctx;
};

/*
 * `trace-cmd report -l`: "comm-pid  0d.h1.  29.545661: rest", the CPU and
 * the latency flags in one column.
 */
static const char *parse_head_lat(char *p, struct ev_head *h)
{
	char *colon, *ts, *tok, *end, *dash = NULL;
	const char *e;
	uint64_t v;

	for (colon = strchr(p, ':'); colon; colon = strchr(colon + 1, ':')) {
		ts = colon;
		while (ts > p && (is_digit(ts[-1]) || ts[-1] == '.'))
			ts--;
		if (ts == colon || ts == p || ts[-1] != ' ' || !memchr(ts, '.', (size_t)(colon - ts)))
			continue;
		end = ts;
		while (end > p && end[-1] == ' ')
			end--;
		tok = end;
		while (tok > p && tok[-1] != ' ')
			tok--;
		e = is_digit(*tok) ? parse_uint(tok, &v) : NULL;
		if (!e || v >= 65536 || end - e < 4 || end - e > 6)
			return NULL;
		h->cpu = (int)v;
		h->ctx = kmag__text_lat_ctx(e);
		end = tok;
		while (end > p && end[-1] == ' ')
			end--;
		for (char *d = p; d < end; d++)
			if (*d == '-')
				dash = d;
		if (!dash || parse_uint(dash + 1, &v) != end)
			return NULL;
		h->pid = (int)v;
		h->comm = p;
		h->comm_len = (size_t)(dash - p);
		e = parse_ts(ts, &h->ts);
		return e && *e == ':' ? skip_sp(e + 1) : NULL;
	}
	return NULL;
}

static const char *parse_head(char *line, struct ev_head *h)
{
	char *p = (char *)skip_sp(line), *br, *q, *end, *dash = NULL;
	uint64_t v;

	/* the CPU column: the first " [digits]" */
	for (br = strchr(p, '['); br; br = strchr(br + 1, '[')) {
		q = br + 1;
		if (br > p && br[-1] == ' ' && is_digit(*q)) {
			const char *e = parse_uint(q, &v);

			if (e && *e == ']' && v < 65536)
				break;
		}
	}
	if (!br)
		return parse_head_lat(p, h);
	h->cpu = (int)v;
	/* comm-pid, optionally followed by "(tgid)" */
	end = br;
	while (end > p && end[-1] == ' ')
		end--;
	if (end > p && end[-1] == ')') {
		char *open = end - 1;

		while (open > p && *open != '(')
			open--;
		if (*open != '(')
			return NULL;
		end = open;
		while (end > p && end[-1] == ' ')
			end--;
	}
	for (q = p; q < end; q++)
		if (*q == '-')
			dash = q;
	if (!dash || dash + 1 >= end)
		return NULL;
	{
		const char *e = parse_uint(dash + 1, &v);

		if (!e || e != end)
			return NULL;
	}
	h->pid = (int)v;
	h->comm = p;
	h->comm_len = (size_t)(dash - p);
	/* flags (optional) and timestamp */
	q = (char *)skip_sp(strchr(br, ']') + 1);
	h->ctx = 0;
	if (!is_digit(*q) || !strchr(q, ':') || strchr(q, ' ') < strchr(q, ':')) {
		/* a flags column such as "d.h1." */
		char *fe = q;

		while (*fe && *fe != ' ')
			fe++;
		if (fe - q >= 3)
			h->ctx = kmag__text_lat_ctx(q);
		q = (char *)skip_sp(fe);
	}
	{
		const char *e = parse_ts(q, &h->ts);

		if (!e || *e != ':')
			return NULL;
		return skip_sp(e + 1);
	}
}

static int remember_comm(struct kmag_trace *t, struct text_input *in, const struct ev_head *h)
{
	struct cpu_state *cs = text_cpu_state(in, h->cpu);

	if (!cs)
		return -ENOMEM;
	if (cs->last_comm_pid == h->pid)
		return 0;
	cs->last_comm_pid = h->pid;
	cs->pid = h->pid;
	if (h->pid == 0)
		return 0;
	return kmag__trace_set_comm(t, h->pid, h->comm, h->comm_len);
}

/* "func <-parent" / "func <-- parent" (parent optional) */
static int function_call(struct kmag_trace *t, const struct ev_head *h, const char *rest)
{
	struct kmag_event ev;
	size_t len = func_len(rest);
	const char *arrow;

	if (!len)
		return 0;
	text_ev_init(&ev, h->cpu, h->pid, h->ts);
	ev.ctx = h->ctx;
	ev.type = KMAG_EV_FUNC;
	ev.func = kmag_symtab_intern(t->st, rest, len);
	if (ev.func == KMAG_FUNC_NONE)
		return -ENOMEM;
	arrow = strstr(rest + len, "<-");
	if (arrow) {
		const char *par = arrow + 2;
		size_t plen;

		if (*par == '-')
			par++;
		par = skip_sp(par);
		plen = func_len(par);
		if (plen) {
			ev.parent = kmag_symtab_intern(t->st, par, plen);
			if (ev.parent == KMAG_FUNC_NONE)
				return -ENOMEM;
		}
	}
	/* func-args: "vfs_read(file=0x..., count=0x400) <-ksys_read" */
	if (rest[len] == '(' && strncmp(rest + len, "(repeats:", 9) &&
	    !kmag__text_args(t, &ev, rest + len))
		ev.nargs = 0;
	{
		/* func-no-repeats: "(repeats: 3, last_ts: ...)" */
		const char *r = strchr(rest + len, '(');

		r = r && !strncmp(r, "(repeats:", 9) ? r : NULL;
		uint64_t n;

		if (r && parse_uint(skip_sp(r + 9), &n) && n > 0)
			ev.repeat = (uint16_t)(n > UINT16_MAX ? UINT16_MAX : n);
	}
	return kmag__trace_deliver(t, &ev);
}

static int other_event(struct kmag_trace *t, const struct ev_head *h, const char *name,
		       size_t name_len)
{
	struct kmag_event ev;
	kmag_func_t id;

	/* event names are interned too, so the pointer lives as long as the trace */
	id = kmag_symtab_intern(t->st, name, name_len);
	if (id == KMAG_FUNC_NONE)
		return -ENOMEM;
	text_ev_init(&ev, h->cpu, h->pid, h->ts);
	ev.ctx = h->ctx;
	ev.type = KMAG_EV_OTHER;
	ev.event_name = kmag_symtab_name(t->st, id);
	return kmag__trace_deliver(t, &ev);
}

/* One line shaped "comm-pid [cpu] ... ts: ..." (function text or report text). */
static int event_line(struct kmag_trace *t, struct text_input *in, char *line, bool *recognised)
{
	struct ev_head h;
	const char *rest = parse_head(line, &h), *colon;
	int ret;

	*recognised = rest != NULL;
	if (!rest)
		return 0;
	if ((ret = remember_comm(t, in, &h)))
		return ret;
	/* report text: "event_name: payload" */
	colon = rest;
	while (*colon && *colon != ':' && *colon != ' ')
		colon++;
	if (*colon == ':' && colon > rest && (colon[1] == ' ' || !colon[1])) {
		size_t nlen = (size_t)(colon - rest);
		const char *payload = skip_sp(colon + 1);

		if ((nlen == 8 && !memcmp(rest, "function", 8)) ||
		    (nlen == 12 && !memcmp(rest, "func_repeats", 12)))
			return function_call(t, &h, payload);
		if ((nlen == 15 && !memcmp(rest, "funcgraph_entry", 15)) ||
		    (nlen == 14 && !memcmp(rest, "funcgraph_exit", 14))) {
			struct graph_ctx g = { .cpu = h.cpu, .pid = h.pid, .ts = h.ts, .ctx = h.ctx };
			uint64_t dur;
			const char *body = kmag__text_graph_columns(payload, &dur, &g.ctx);

			if (!body) {
				/* trace-cmd report -R: "func=name depth=N ..." is not parsed */
				return parse_fail(in, "function_graph record without the \"|\" column (raw -R output is not supported; use plain `trace-cmd report`)");
			}
			return kmag__text_graph_body(t, in, &g, body, dur);
		}
		return other_event(t, &h, rest, nlen);
	}
	return function_call(t, &h, rest);
}

/*
 * "# entries-in-buffer/entries-written: 425/12345   #P:2": the trace file
 * says how many events were overwritten before it was read.
 */
static void header_line(struct kmag_trace *t, const char *p)
{
	static const char key[] = "# entries-in-buffer/entries-written: ";
	uint64_t in_buf, written;
	const char *q;

	if (strncmp(p, key, sizeof(key) - 1))
		return;
	q = parse_uint(p + sizeof(key) - 1, &in_buf);
	if (q && *q == '/' && parse_uint(q + 1, &written) && written > in_buf)
		t->info.lost_unattributed += written - in_buf;
}

/*
 * Damaged lines read past before the text counts as binary data: more than
 * this many, and more than half of all lines.
 */
#define MAX_BAD_LINES 16

/*
 * A line that cannot be read (@why; @col: 1-based column of the byte that
 * cannot be there, or 0) is skipped and recorded. Returns 0, -EILSEQ with
 * strict reading, or when most lines are like it, the error that this is
 * no text (with @what, the byte's description).
 */
static int skip_line(struct kmag_trace *t, struct text_input *in, size_t len, long col,
		     const char *why, unsigned char byte)
{
	struct kmag_damage d = { .kind = KMAG_DAMAGE_SKIPPED, .cpu = -1, .line = in->lineno,
				 .column = col > 0 && col < UINT32_MAX ? (uint32_t)col : 0,
				 .bytes = len, .events = 1, .why = why, .ts = KMAG_TS_NONE,
				 .func = KMAG_FUNC_NONE };

	if (++in->bad_lines > MAX_BAD_LINES && in->bad_lines * 2 > in->lineno && col > 0)
		return kmag_err_set(in->err, EILSEQ,
				    "line %llu, column %ld: %s byte 0x%02x, and %llu of the %llu lines so far are not text either; ftrace text is UTF-8 (is this a binary file?)",
				    (unsigned long long)in->lineno, col, byte ? "invalid UTF-8" : "NUL",
				    byte, (unsigned long long)in->bad_lines - 1,
				    (unsigned long long)in->lineno - 1);
	return kmag__damage(t, &d, NULL, in->err);
}

static int text_read(struct kmag_trace *t, struct kmag_err *err)
{
	struct text_input *in = t->priv;
	bool graph = t->info.tracer == KMAG_TRACER_FUNCTION_GRAPH &&
		     t->info.format == KMAG_INPUT_FTRACE_TEXT;
	int ret = 0;

	in->err = err;
	for (;;) {
		size_t len;
		char *line = next_line(in, &len, &ret);
		const char *p;
		bool handled;
		long bad;

		if (!line)
			break;
		bad = utf8_invalid((const unsigned char *)line, len);
		if (bad >= 0) {
			ret = skip_line(t, in, len, bad + 1,
					line[bad] ? "a byte that is not UTF-8 text" : "a NUL byte",
					(unsigned char)line[bad]);
			if (ret)
				break;
			continue;
		}
		p = skip_sp(line);
		switch (*p) {
		case '#':
			header_line(t, p);
			continue;
		case '\0':
			continue;
		case 'c':
			if (!strncmp(p, "cpus=", 5))
				continue;
			break;
		case 'v':
			if (!strncmp(p, "version = ", 10))
				continue;
			break;
		case '-':
			if (!strncmp(p, "-----", 5))
				continue;
			break;
		case 'C':
			if ((ret = try_lost(t, p, &handled)))
				goto out;
			if (handled)
				continue;
			break;
		default:
			break;
		}
		if (graph) {
			ret = kmag__text_graph_line(t, in, line);
		} else {
			bool ok;

			ret = event_line(t, in, line, &ok);
			if (!ret && !ok)
				ret = skip_line(t, in, len, 0,
						"not an event line (\"task-pid [cpu] ... time:\" expected)",
						0);
		}
		if (ret)
			break;
	}
out:
	in->err = NULL;
	return ret;
}

static void text_close(struct kmag_trace *t)
{
	struct text_input *in = t->priv;

	if (!in)
		return;
	if (in->fd >= 0)
		close(in->fd);
	free(in->buf);
	free(in->cpus);
	free(in);
	t->priv = NULL;
}

static uint64_t text_bytes_read(const struct kmag_trace *t)
{
	const struct text_input *in = t->priv;

	return in ? in->bytes_read : 0;
}

const struct kmag_input_ops kmag__input_text = {
	.name = "ftrace text",
	.read = text_read,
	.close = text_close,
	.bytes_read = text_bytes_read,
};

/* Decides format and tracer from the first lines; rewinds afterwards. */
static int sniff(struct kmag_trace *t, struct text_input *in, struct kmag_err *err)
{
	enum kmag_input_format fmt = KMAG_INPUT_UNKNOWN;
	enum kmag_tracer tracer = KMAG_TRACER_UNKNOWN;
	int ret = 0, lines = 0, graph_lines = 0, func_lines = 0, report_lines = 0;

	in->err = err;
	while (lines < SNIFF_LINES) {
		size_t len;
		char *line = next_line(in, &len, &ret);
		const char *p;
		struct ev_head h;

		if (!line)
			break;
		if (utf8_invalid((const unsigned char *)line, len) >= 0)
			break;	/* reported properly by the read pass */
		p = skip_sp(line);
		if (!*p)
			continue;
		lines++;
		if (!strncmp(p, "# tracer: ", 10)) {
			const char *n = p + 10;

			fmt = KMAG_INPUT_FTRACE_TEXT;
			if (!strncmp(n, "function_graph", 14))
				tracer = KMAG_TRACER_FUNCTION_GRAPH;
			else if (!strncmp(n, "function", 8))
				tracer = KMAG_TRACER_FUNCTION;
			else
				tracer = KMAG_TRACER_EVENTS;
			break;
		}
		if (*p == '#')
			continue;
		if (!strncmp(p, "cpus=", 5)) {
			fmt = KMAG_INPUT_REPORT_TEXT;
			continue;
		}
		if (strstr(p, "funcgraph_entry:") || strstr(p, "funcgraph_exit:")) {
			report_lines++;
			tracer = KMAG_TRACER_FUNCTION_GRAPH;
		} else if (strstr(p, " function: ")) {
			report_lines++;
			if (tracer == KMAG_TRACER_UNKNOWN)
				tracer = KMAG_TRACER_FUNCTION;
		} else if (is_digit(*p) && strchr(p, ')') && strchr(p, '|')) {
			graph_lines++;
		} else if (parse_head(line, &h)) {
			func_lines++;
		}
		if (report_lines + graph_lines + func_lines >= 20)
			break;
	}
	if (ret)
		return ret;
	if (fmt == KMAG_INPUT_UNKNOWN) {
		if (report_lines)
			fmt = KMAG_INPUT_REPORT_TEXT;
		else if (graph_lines > func_lines) {
			fmt = KMAG_INPUT_FTRACE_TEXT;
			tracer = KMAG_TRACER_FUNCTION_GRAPH;
		} else if (func_lines) {
			fmt = KMAG_INPUT_FTRACE_TEXT;
		}
	}
	if (fmt == KMAG_INPUT_UNKNOWN)
		return kmag_err_set(err, EINVAL,
				    "%s is neither a trace.dat file nor ftrace text (no \"# tracer:\" header or event lines in its first %d lines)",
				    t->path, lines);
	t->info.format = fmt;
	if (fmt == KMAG_INPUT_REPORT_TEXT && tracer == KMAG_TRACER_UNKNOWN)
		tracer = KMAG_TRACER_EVENTS;
	t->info.tracer = tracer == KMAG_TRACER_EVENTS ? KMAG_TRACER_UNKNOWN : tracer;
	in->header_tracer = tracer;
	/* rewind */
	if (lseek(in->fd, 0, SEEK_SET) < 0)
		return kmag_err_set(err, errno, "cannot rewind %s: %s", t->path, strerror(errno));
	in->len = in->pos = 0;
	in->bytes_read = 0;	/* the progress counts the pass that reads events */
	in->eof = false;
	in->lineno = 0;
	in->err = NULL;
	return 0;
}

int kmag__text_input_open(struct kmag_trace *t, struct kmag_err *err)
{
	struct text_input *in = calloc(1, sizeof(*in));
	int ret;

	if (!in)
		return kmag_err_set(err, ENOMEM, "out of memory");
	t->priv = in;
	t->ops = &kmag__input_text;
	in->nocpu = (struct cpu_state){ .pid = -1, .last_comm_pid = -1 };
	in->fd = open(t->path, O_RDONLY | O_CLOEXEC);
	if (in->fd < 0)
		return kmag_err_set(err, errno, "cannot open %s: %s", t->path, strerror(errno));
	{
		struct stat st;

		/* small files get a small buffer (it grows for long lines anyway) */
		in->cap = BLOCK;
		if (!fstat(in->fd, &st) && st.st_size >= 0 && (uint64_t)st.st_size < BLOCK)
			in->cap = (size_t)st.st_size + 64;
	}
	in->buf = malloc(in->cap);
	if (!in->buf)
		return kmag_err_set(err, ENOMEM, "out of memory");
	ret = sniff(t, in, err);
	if (ret)
		return ret;
	/* the graph text's depth-first tracer knowledge is needed by read */
	if (in->header_tracer == KMAG_TRACER_FUNCTION_GRAPH)
		t->info.tracer = KMAG_TRACER_FUNCTION_GRAPH;
	t->info.has_timestamps = t->info.tracer != KMAG_TRACER_FUNCTION_GRAPH ||
				 t->info.format == KMAG_INPUT_REPORT_TEXT;
	t->info.has_pids = true;
	t->info.has_durations = t->info.tracer == KMAG_TRACER_FUNCTION_GRAPH;
	return 0;
}
