// SPDX-License-Identifier: MIT
/*
 * chrome.c - function_graph calls as Chrome trace-event JSON, streamed.
 *
 * Format: the "JSON Object Format" of the Trace Event Format document
 * (traceEvents array, "X" complete events with ts/dur in microseconds,
 * "M" metadata naming processes and threads, "i" instant events), which the
 * Perfetto UI and chrome://tracing load. No C library writes it, and it is
 * simple enough to print directly.
 *
 * Tracks: every task is a process named after its command with one thread
 * (its pid); the idle task's per-CPU stacks are threads of process 0, with
 * thread ids past the kernel's PID_MAX_LIMIT so they cannot clash. Times are
 * relative to the first event; the origin is in "otherData".
 *
 * The output is split into parts of opts.split_bytes, each a complete JSON
 * file with the task names repeated, because the viewers refuse single
 * files past a few hundred MiB.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kmag/render/export.h"
#include "kmag/outfile.h"
#include "kmag/replay.h"
#include "kmag/report.h"
#include "kmag/trace.h"
#include "render-util.h"

#define PID_MAX_LIMIT 4194304	/* include/linux/threads.h: no pid is this large */
#define UNKNOWN_TID (2 * PID_MAX_LIMIT)	/* events of inputs without task ids */

struct strbuf {
	char *s;
	size_t len, cap;
	bool oom;
};

struct named_task {
	int32_t pid, tid;
};

struct kmag_chrome {
	struct kmag_trace *trace;
	struct kmag_symtab *st;
	struct kmag_replay *replay;	/* the calls, from the one replay */
	struct kmag_chrome_opts o;
	FILE *out;
	char **paths;			/* parts written */
	struct kmag_outfile **files;	/* their files, until finish puts them in place */
	unsigned nr_paths;
	uint64_t part_bytes;
	bool first_in_part;
	struct kmag_chrome_stats stats;
	uint64_t origin;		/* ts of the first event */
	uint64_t last_ts;
	struct named_task *named;	/* tracks named so far (repeated in every part), by key */
	size_t nr_named, cap_named;
	uint64_t last_track;		/* key of the last track looked up */
	struct strbuf buf;
	struct kmag_err err;
	bool failed;
};

static void sb_reserve(struct strbuf *b, size_t more)
{
	size_t cap;
	char *p;

	if (b->oom || b->len + more + 1 <= b->cap)
		return;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + more + 1)
		cap *= 2;
	p = realloc(b->s, cap);
	if (!p) {
		b->oom = true;
		return;
	}
	b->s = p;
	b->cap = cap;
}

static void sb_printf(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	sb_reserve(b, 128);
	if (b->oom)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= b->cap - b->len) {
		sb_reserve(b, (size_t)n);
		if (b->oom)
			return;
		va_start(ap, fmt);
		vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}

/* Appends @s as a JSON string (same escaping as kmag_fput_json_string). */
static void sb_json(struct strbuf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	sb_reserve(b, strlen((const char *)p) * 6 + 2);
	if (b->oom)
		return;
	b->s[b->len++] = '"';
	for (; *p; p++) {
		if (*p == '"' || *p == '\\') {
			b->s[b->len++] = '\\';
			b->s[b->len++] = (char)*p;
		} else if (*p < 0x20 || *p == 0x7f || *p == '<') {
			b->len += (size_t)sprintf(b->s + b->len, "\\u%04x", *p);
		} else if (*p < 0x80) {
			b->s[b->len++] = (char)*p;
		} else {
			/* JSON is UTF-8: a byte that is not becomes U+FFFD (6 bytes: reserved) */
			size_t n = render_utf8_len(p);

			if (n) {
				memcpy(b->s + b->len, p, n);
				b->len += n;
				p += n - 1;
			} else {
				memcpy(b->s + b->len, "\\ufffd", 6);
				b->len += 6;
			}
		}
	}
	b->s[b->len++] = '"';
	b->s[b->len] = '\0';
}

/* Microseconds with nanosecond precision, as the format wants. */
static void sb_us(struct strbuf *b, uint64_t ns)
{
	sb_printf(b, "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
}

/* Records the first failure: @verb ("create", "write") @path, or out of memory. */
static int fail(struct kmag_chrome *c, int code, const char *verb, const char *path)
{
	if (!c->failed) {
		if (code == ENOMEM)
			kmag_err_set(&c->err, code, "out of memory");
		else
			kmag_err_set(&c->err, code, "cannot %s %s: %s", verb,
				     path ? path : "the export", strerror(code));
		c->failed = true;
	}
	return -code;
}

/* Records the first failure as @e says it. */
static int fail_err(struct kmag_chrome *c, const struct kmag_err *e)
{
	if (!c->failed) {
		kmag_err_set(&c->err, e->code, "%s", e->msg);
		c->failed = true;
	}
	return -e->code;
}

static const char *cur_path(const struct kmag_chrome *c)
{
	return c->nr_paths ? c->paths[c->nr_paths - 1] : NULL;
}

/* A write to the current part failed: with its cause when the file kept it. */
static int write_failed(struct kmag_chrome *c)
{
	struct kmag_outfile *f = c->nr_paths ? c->files[c->nr_paths - 1] : NULL;
	int e = f ? kmag_outfile_error(f) : 0;

	return fail(c, e ? e : EIO, "write", cur_path(c));
}

/* Writes the buffer as one event of the current part. */
static int emit(struct kmag_chrome *c)
{
	const char *sep = c->first_in_part ? "\n" : ",\n";

	if (c->buf.oom)
		return fail(c, ENOMEM, NULL, NULL);
	if (fputs(sep, c->out) == EOF || fwrite(c->buf.s, 1, c->buf.len, c->out) != c->buf.len)
		return write_failed(c);
	c->first_in_part = false;
	c->part_bytes += c->buf.len + strlen(sep);
	c->stats.bytes += c->buf.len + strlen(sep);
	c->buf.len = 0;
	return 0;
}

static const char *comm_of(struct kmag_chrome *c, int32_t pid)
{
	const char *comm = pid >= 0 ? kmag_trace_comm(c->trace, pid) : NULL;

	return comm ? comm : "?";
}

static int name_track(struct kmag_chrome *c, int32_t pid, int32_t tid)
{
	char name[320];
	int ret;

	if (tid == UNKNOWN_TID)
		snprintf(name, sizeof(name), "unknown task");
	else if (tid >= PID_MAX_LIMIT)
		snprintf(name, sizeof(name), "idle (swapper/%d)", tid - PID_MAX_LIMIT);
	else
		snprintf(name, sizeof(name), "%s-%d", comm_of(c, pid), pid);
	sb_printf(&c->buf, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"args\":{\"name\":", pid);
	sb_json(&c->buf, tid >= PID_MAX_LIMIT ? (tid == UNKNOWN_TID ? "unknown" : "idle") : name);
	sb_printf(&c->buf, "}}");
	ret = emit(c);
	if (ret)
		return ret;
	sb_printf(&c->buf, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":",
		  pid, tid);
	sb_json(&c->buf, name);
	sb_printf(&c->buf, "}}");
	return emit(c);
}

static int part_open(struct kmag_chrome *c)
{
	size_t i;
	int ret;

	if (c->o.path) {
		char *path;
		const char *dot = strrchr(c->o.path, '.'), *slash = strrchr(c->o.path, '/');
		size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - c->o.path) :
							       strlen(c->o.path);
		char **paths = realloc(c->paths, (c->nr_paths + 1) * sizeof(*paths));
		struct kmag_outfile **files;
		struct kmag_err e = { 0 };

		if (!paths)
			return fail(c, ENOMEM, NULL, NULL);
		c->paths = paths;
		files = realloc(c->files, (c->nr_paths + 1) * sizeof(*files));
		if (!files)
			return fail(c, ENOMEM, NULL, NULL);
		c->files = files;
		if (c->nr_paths == 0) {
			path = strdup(c->o.path);
		} else {
			path = malloc(strlen(c->o.path) + 16);
			if (path)
				sprintf(path, "%.*s.%u%s", (int)stem, c->o.path, c->nr_paths,
					c->o.path + stem);
		}
		if (!path)
			return fail(c, ENOMEM, NULL, NULL);
		c->files[c->nr_paths] = kmag_outfile_open(path, &e);
		c->paths[c->nr_paths++] = path;
		if (!c->files[c->nr_paths - 1])
			return fail_err(c, &e);
		c->out = kmag_outfile_stream(c->files[c->nr_paths - 1]);
	} else {
		c->out = c->o.stream;
	}
	c->stats.parts++;
	c->part_bytes = 0;
	if (fputs("{\"traceEvents\":[", c->out) == EOF)
		return write_failed(c);
	c->part_bytes += 16;
	c->stats.bytes += 16;
	c->first_in_part = true;
	for (i = 0; i < c->nr_named; i++) {
		ret = name_track(c, c->named[i].pid, c->named[i].tid);
		if (ret)
			return ret;
	}
	return 0;
}

static int part_close(struct kmag_chrome *c)
{
	struct strbuf *b = &c->buf;
	int ret = 0;

	b->len = 0;
	sb_printf(b, "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"kmag %s\",\"source\":",
		  kmag_version());
	sb_json(b, c->o.source);
	/* a trace without a timed event has no origin: 0, not KMAG_TS_NONE */
	sb_printf(b, ",\"time_origin_ns\":%" PRIu64 ",\"part\":%u}}\n",
		  c->origin == KMAG_TS_NONE ? 0 : c->origin, c->stats.parts);
	if (b->oom)
		return fail(c, ENOMEM, NULL, NULL);
	if (fwrite(b->s, 1, b->len, c->out) != b->len)
		ret = write_failed(c);
	c->part_bytes += b->len;
	c->stats.bytes += b->len;
	b->len = 0;
	if (c->part_bytes > c->stats.largest_part)
		c->stats.largest_part = c->part_bytes;
	if (c->o.path) {
		struct kmag_err e = { 0 };

		if (kmag_outfile_close(c->files[c->nr_paths - 1], &e) && !ret)
			ret = fail_err(c, &e);
	} else if (fflush(c->out) && !ret) {
		ret = fail(c, EIO, "write", NULL);
	}
	c->out = NULL;
	return ret;
}

/* Starts a new part when the current one is full (only between events). */
static int maybe_split(struct kmag_chrome *c)
{
	int ret;

	if (!c->o.path || !c->o.split_bytes || c->part_bytes < c->o.split_bytes)
		return 0;
	ret = part_close(c);
	return ret ? ret : part_open(c);
}

/* The track of task @pid on @cpu: (process, thread) ids as the viewers see them. */
static void track_ids(int32_t pid, int32_t cpu, int32_t *p, int32_t *t)
{
	if (pid < 0) {
		*p = 0;
		*t = UNKNOWN_TID;
	} else if (pid == 0) {
		*p = 0;
		*t = PID_MAX_LIMIT + (cpu >= 0 && cpu < PID_MAX_LIMIT ? cpu : 0);
	} else {
		*p = *t = pid;
	}
}

static uint64_t track_key(int32_t pid, int32_t tid)
{
	return (uint64_t)(uint32_t)pid << 32 | (uint32_t)tid;
}

/* Names the track of (@pid, @tid) the first time it is used. */
static int ensure_track(struct kmag_chrome *c, int32_t pid, int32_t tid)
{
	uint64_t key = track_key(pid, tid);
	size_t lo = 0, hi = c->nr_named;

	if (c->nr_named && key == c->last_track)
		return 0;
	/* named[] is sorted by key: binary search, insert in place when new */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t k = track_key(c->named[mid].pid, c->named[mid].tid);

		if (k == key) {
			c->last_track = key;
			return 0;
		}
		if (k < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (kmag__grow(&c->named, &c->cap_named, c->nr_named + 1, sizeof(*c->named)))
		return fail(c, ENOMEM, NULL, NULL);
	memmove(&c->named[lo + 1], &c->named[lo], (c->nr_named - lo) * sizeof(*c->named));
	c->named[lo] = (struct named_task){ pid, tid };
	c->nr_named++;
	c->last_track = key;
	return name_track(c, pid, tid);
}

/*
 * A call left: one complete ("X") slice, the call's slice on the replay's
 * timeline (kmag_replay_slice(): nested, the kernel's duration where the
 * clocks agree).
 */
static int on_call(void *ctx, const struct kmag_call *call, void *data,
		   const struct kmag_call *parent, void *parent_data)
{
	struct kmag_chrome *c = ctx;
	int32_t pid, tid;
	const char *name = kmag_symtab_name(c->st, call->func);
	uint64_t start, end;
	int ret;

	(void)data, (void)parent, (void)parent_data;
	kmag_replay_slice(call, &start, &end);
	/* a call begun before the trace is cut at its start (it is marked incomplete) */
	if (start == KMAG_TS_NONE || start < c->origin)
		start = c->origin;
	if (end == KMAG_TS_NONE || end < start)
		end = start;
	/* a call whose entry and exit are both missing still holds the calls it made */
	if (call->func == KMAG_FUNC_NONE)
		name = "[unknown]";
	track_ids(call->pid, call->cpu, &pid, &tid);
	ret = maybe_split(c);
	if (!ret)
		ret = ensure_track(c, pid, tid);
	if (ret)
		return ret;
	sb_printf(&c->buf, "{\"ph\":\"X\",\"name\":");
	sb_json(&c->buf, name ? name : "?");
	sb_printf(&c->buf, ",\"cat\":\"%s\",\"ts\":",
		  call->ctx & (KMAG_CTX_HARDIRQ | KMAG_CTX_SOFTIRQ | KMAG_CTX_NMI) ? "irq" : "func");
	sb_us(&c->buf, start - c->origin);
	sb_printf(&c->buf, ",\"dur\":");
	sb_us(&c->buf, end - start);
	sb_printf(&c->buf, ",\"pid\":%d,\"tid\":%d", pid, tid);
	if (call->flags & KMAG_CALL_INCOMPLETE)
		sb_printf(&c->buf, ",\"args\":{\"incomplete\":\"%s\"",
			  call->flags & KMAG_CALL_NO_EXIT ? "exit not in the trace" :
			  call->flags & KMAG_CALL_NO_ENTRY ? "entry not in the trace" :
							     "events were lost during the call");
	/*
	 * Where the slice is not the kernel's duration (cut at the start of the
	 * trace, or widened to hold its calls), say the duration.
	 */
	if (call->duration != KMAG_DURATION_NONE && end - start != call->duration)
		sb_printf(&c->buf, "%s\"duration_ns\":%" PRIu64,
			  call->flags & KMAG_CALL_INCOMPLETE ? "," : ",\"args\":{", call->duration);
	if ((call->flags & KMAG_CALL_INCOMPLETE) ||
	    (call->duration != KMAG_DURATION_NONE && end - start != call->duration))
		sb_printf(&c->buf, "}");
	sb_printf(&c->buf, "}");
	c->stats.calls++;
	if (call->flags & KMAG_CALL_INCOMPLETE)
		c->stats.incomplete++;
	return emit(c);
}

static const struct kmag_replay_ops chrome_ops = { .leave = on_call };

struct kmag_chrome *kmag_chrome_new(struct kmag_trace *t, const struct kmag_chrome_opts *o,
				    struct kmag_err *err)
{
	struct kmag_chrome *c = calloc(1, sizeof(*c));

	if (!c) {
		kmag_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	c->trace = t;
	c->st = kmag_trace_symtab(t);
	c->o = *o;
	c->origin = KMAG_TS_NONE;
	c->replay = kmag_replay_new();
	if (!c->replay || kmag_replay_subscribe(c->replay, &chrome_ops, c) ||
	    (!o->path && !o->stream)) {
		kmag_err_set(err, c->replay ? EINVAL : ENOMEM,
			     c->replay ? "no output given for the Chrome export" : "out of memory");
		kmag_chrome_free(c);
		return NULL;
	}
	if (o->path && part_open(c)) {
		kmag_err_set(err, c->err.code, "%s", c->err.msg);
		kmag_chrome_free(c);
		return NULL;
	}
	return c;
}

static int instant(struct kmag_chrome *c, const struct kmag_event *ev)
{
	uint64_t ts = ev->ts > c->origin ? ev->ts - c->origin : 0;
	char name[96];
	int ret;

	if (ev->type == KMAG_EV_LOST) {
		if (ev->lost == KMAG_LOST_UNKNOWN)
			snprintf(name, sizeof(name), "events lost on CPU%d", ev->cpu);
		else
			snprintf(name, sizeof(name), "%" PRIu64 " events lost on CPU%d", ev->lost, ev->cpu);
		sb_printf(&c->buf, "{\"ph\":\"i\",\"s\":\"g\",\"name\":");
		sb_json(&c->buf, name);
		sb_printf(&c->buf, ",\"cat\":\"lost\",\"ts\":");
		sb_us(&c->buf, ts);
		sb_printf(&c->buf, ",\"pid\":0,\"tid\":0}");
	} else {
		int32_t pid, tid;

		track_ids(ev->pid, ev->cpu, &pid, &tid);
		ret = ensure_track(c, pid, tid);
		if (ret)
			return ret;
		sb_printf(&c->buf, "{\"ph\":\"i\",\"s\":\"t\",\"name\":");
		sb_json(&c->buf, ev->event_name ? ev->event_name : "event");
		sb_printf(&c->buf, ",\"cat\":");
		sb_json(&c->buf, ev->event_system ? ev->event_system : "event");
		sb_printf(&c->buf, ",\"ts\":");
		sb_us(&c->buf, ts);
		sb_printf(&c->buf, ",\"pid\":%d,\"tid\":%d,\"args\":{\"cpu\":%d}}", pid, tid, ev->cpu);
	}
	c->stats.instants++;
	return emit(c);
}

int kmag_chrome_event_fn(const struct kmag_event *ev, void *ctx)
{
	struct kmag_chrome *c = ctx;
	int ret;

	if (c->failed)
		return -c->err.code;
	/* a stream starts at the first event: an export that fails before has printed nothing */
	if (!c->out && !c->stats.parts && (ret = part_open(c)))
		return ret;
	if (ev->type == KMAG_EV_FUNC) {
		kmag_err_set(&c->err, ENODATA,
			     "%s was recorded with the function tracer, which records no call durations; the Chrome export needs function_graph data (trace-cmd record -p function_graph)",
			     c->o.source ? c->o.source : "the trace");
		c->failed = true;
		return -ENODATA;
	}
	if (ev->ts == KMAG_TS_NONE) {
		if (ev->type != KMAG_EV_GRAPH_ENTRY && ev->type != KMAG_EV_GRAPH_EXIT)
			return 0;
		kmag_err_set(&c->err, ENODATA,
			     "%s has no timestamps on its function_graph lines; record it with the funcgraph-abstime option, or as trace.dat",
			     c->o.source ? c->o.source : "the trace");
		c->failed = true;
		return -ENODATA;
	}
	if (c->origin == KMAG_TS_NONE)
		c->origin = ev->ts;
	if (ev->ts > c->last_ts)
		c->last_ts = ev->ts;
	if (ev->type == KMAG_EV_LOST || ev->type == KMAG_EV_OTHER) {
		ret = maybe_split(c);
		return ret ? ret : instant(c, ev);
	}
	ret = kmag_replay_add(c->replay, ev);
	if (ret && !c->failed)
		fail(c, -ret, "export", "the calls");
	return ret;
}

int kmag_chrome_finish(struct kmag_chrome *c, struct kmag_err *err)
{
	int ret = c->failed ? -c->err.code : 0;
	unsigned i;

	if (!ret)
		ret = kmag_replay_finish(c->replay,
					 c->origin == KMAG_TS_NONE ? KMAG_TS_NONE : c->last_ts);
	if (!ret && !c->out && !c->stats.parts)
		ret = part_open(c);	/* a stream that saw no event */
	if (c->out) {
		int r = part_close(c);

		if (!ret)
			ret = r;
	}
	/* all parts appear together, or none does */
	for (i = 0; i < c->nr_paths; i++) {
		struct kmag_err e = { 0 };

		if (!ret && c->files[i] && kmag_outfile_commit(c->files[i], &e))
			ret = fail_err(c, &e);
		else if (ret)
			kmag_outfile_abort(c->files[i]);
		c->files[i] = NULL;
	}
	if (ret)
		kmag_err_set(err, c->err.code ? c->err.code : -ret, "%s",
			     c->err.msg[0] ? c->err.msg : strerror(-ret));
	return ret;
}

const struct kmag_err *kmag_chrome_error(const struct kmag_chrome *c)
{
	return &c->err;
}

const struct kmag_chrome_stats *kmag_chrome_stats(const struct kmag_chrome *c)
{
	return &c->stats;
}

const char *kmag_chrome_part_path(const struct kmag_chrome *c, unsigned i)
{
	return i < c->nr_paths ? c->paths[i] : NULL;
}

void kmag_chrome_free(struct kmag_chrome *c)
{
	unsigned i;

	if (!c)
		return;
	for (i = 0; i < c->nr_paths; i++) {
		kmag_outfile_abort(c->files[i]);	/* what finish did not put in place */
		free(c->paths[i]);
	}
	free(c->files);
	free(c->paths);
	kmag_replay_free(c->replay);
	free(c->named);
	free(c->buf.s);
	free(c);
}
