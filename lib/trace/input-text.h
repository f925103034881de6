/* SPDX-License-Identifier: MIT */
/*
 * input-text.h - shared by the ftrace text reader (input-text.c) and its
 * function_graph line parser (input-text-graph.c). Internal.
 */
#ifndef KMAG_INPUT_TEXT_H
#define KMAG_INPUT_TEXT_H

#include "trace-internal.h"

struct cpu_state {
	int32_t pid;		/* task running, from context-switch markers; -1 unknown */
	int32_t last_comm_pid;	/* last pid whose comm was recorded from this CPU */
	uint8_t irq;		/* inside an "==========>" interrupt block */
};

struct text_input {
	int fd;
	char *buf;
	size_t len, pos, cap;
	bool eof;
	uint64_t bytes_read;	/* for the progress hook */
	uint64_t lineno;
	uint64_t bad_lines;	/* lines skipped as damaged */
	enum kmag_tracer header_tracer;	/* from "# tracer:", else UNKNOWN */
	struct cpu_state *cpus;
	size_t nr_cpu_state;
	struct cpu_state nocpu;		/* for graph text without a CPU column */
	struct kmag_err *err;
};

/*
 * Per-CPU state for @cpu (-1: the no-CPU-column state), grown on demand; NULL on ENOMEM. Owned by @in.
 * Inline here rather than in input-text.c: both parsers use it, and input-text.c calls into
 * input-text-graph.c, so a definition there would make the two files depend on each other.
 */
static inline struct cpu_state *text_cpu_state(struct text_input *in, int cpu)
{
	size_t i;

	if (cpu < 0)
		return &in->nocpu;
	if ((size_t)cpu >= in->nr_cpu_state) {
		size_t cap = in->nr_cpu_state;

		if (cpu >= 65536 || kmag__grow(&in->cpus, &cap, (size_t)cpu + 1, sizeof(*in->cpus)))
			return NULL;
		for (i = in->nr_cpu_state; i < cap; i++)
			in->cpus[i] = (struct cpu_state){ .pid = -1, .last_comm_pid = -1 };
		in->nr_cpu_state = cap;
	}
	return &in->cpus[cpu];
}

/* Resets @ev to an event with no function, duration or depth. */
static inline void text_ev_init(struct kmag_event *ev, int cpu, int pid, uint64_t ts)
{
	memset(ev, 0, sizeof(*ev));
	ev->cpu = cpu;
	ev->pid = pid;
	ev->ts = ts;
	ev->depth = -1;
	ev->repeat = 1;
	ev->func = KMAG_FUNC_NONE;
	ev->parent = KMAG_FUNC_NONE;
	ev->parent_off = KMAG_OFF_NONE;
	ev->duration = KMAG_DURATION_NONE;
	ev->calltime = KMAG_TS_NONE;
}
/*
 * Reads "(name=value, ...)" at @open into @ev's arguments and the trace's
 * names for @ev->func; the text after ")" or NULL (not an argument list).
 */
const char *kmag__text_args(struct kmag_trace *t, struct kmag_event *ev, const char *open);

/* Where a function_graph line was recorded: CPU, task, timestamp, context. */
struct graph_ctx {
	int cpu, pid;
	uint64_t ts;		/* line timestamp or KMAG_TS_NONE */
	uint8_t ctx;
};

/*
 * Parses the part after the duration column separator: indentation, then
 * "f() {", "f();", "}", or a closing comment, and delivers the events. @dur is
 * the duration column value or KMAG_DURATION_NONE.
 */
int kmag__text_graph_body(struct kmag_trace *t, struct text_input *in, const struct graph_ctx *g,
			  const char *body, uint64_t dur);
/* Splits "[mark] dur us |" columns; returns the text after the separator or NULL. */
const char *kmag__text_graph_columns(const char *p, uint64_t *dur, uint8_t *ctx);

/*
 * The context of a latency-format flags column ("d.h1.", at least three
 * characters at @f): interrupts off, hardirq, softirq, NMI
 * (trace_print_lat_fmt() in the kernel's trace_output.c).
 */
static inline uint8_t kmag__text_lat_ctx(const char *f)
{
	uint8_t ctx = KMAG_CTX_KNOWN;

	if (f[0] == 'd' || f[0] == 'D')
		ctx |= KMAG_CTX_IRQS_OFF;
	if (f[2] == 'h' || f[2] == 'H' || f[2] == 'Z')
		ctx |= KMAG_CTX_HARDIRQ;
	if (f[2] == 's' || f[2] == 'H')
		ctx |= KMAG_CTX_SOFTIRQ;
	if (f[2] == 'z' || f[2] == 'Z')
		ctx |= KMAG_CTX_NMI;
	return ctx;
}
/* Parses one line of a function_graph "trace" file into events (may modify @line). */
int kmag__text_graph_line(struct kmag_trace *t, struct text_input *in, char *line);

/*
 * Small parsers, inline: they run several times on every line.
 */
static inline const char *skip_sp(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Parses an unsigned decimal; returns the end or NULL. */
static inline const char *parse_uint(const char *p, uint64_t *v)
{
	uint64_t x = 0;
	int n = 0;

	while (is_digit(*p) && n < 19) {
		x = x * 10 + (uint64_t)(*p++ - '0');
		n++;
	}
	if (!n || is_digit(*p))
		return NULL;
	*v = x;
	return p;
}

/*
 * The digits after a decimal point, in units of 1/@unit (digits beyond that
 * precision are skipped): "345678" with @unit 10^9 -> 345678000. Returns the end.
 */
static inline const char *parse_frac(const char *p, uint64_t unit, uint64_t *frac)
{
	uint64_t scale = unit;

	*frac = 0;
	while (is_digit(*p)) {
		if (scale > 1) {
			scale /= 10;
			*frac += (uint64_t)(*p - '0') * scale;
		}
		p++;
	}
	return p;
}

/* "12.345678" seconds -> ns (any number of decimals; a bare integer is a raw count). */
static inline const char *parse_ts(const char *p, uint64_t *ns)
{
	uint64_t sec, frac = 0;

	p = parse_uint(p, &sec);
	if (!p)
		return NULL;
	if (*p != '.') {
		*ns = sec;
		return p;
	}
	p = parse_frac(p + 1, 1000000000ull, &frac);
	if (sec > UINT64_MAX / 1000000000ull)
		return NULL;
	*ns = sec * 1000000000ull + frac;
	return p;
}

/* "354.007 us" (optionally preceded by an overhead mark) -> ns. */
static inline const char *parse_duration(const char *p, uint64_t *ns)
{
	uint64_t us, frac = 0;

	p = skip_sp(p);
	if (*p && strchr("+!#*@$", *p) && (p[1] == ' ' || is_digit(p[1])))
		p = skip_sp(p + 1);
	p = parse_uint(p, &us);
	if (!p)
		return NULL;
	if (*p == '.')
		p = parse_frac(p + 1, 1000, &frac);
	p = skip_sp(p);
	if (p[0] != 'u' || p[1] != 's' || us > UINT64_MAX / 1000)
		return NULL;
	*ns = us * 1000 + frac;
	return p + 2;
}

/* Length of a function name token: up to '(' ' ' '+' or end; strips "+0x1a/0x50". */
static inline size_t func_len(const char *p)
{
	size_t n = 0;

	while (p[n] && p[n] != ' ' && p[n] != '(' && p[n] != '\t' && p[n] != ';')
		n++;
	/* sym-offset option: name+0xoff/0xsize */
	{
		const char *plus = memchr(p, '+', n);

		if (plus && plus[1] == '0' && plus[2] == 'x')
			n = (size_t)(plus - p);
	}
	return n;
}

#endif /* KMAG_INPUT_TEXT_H */
