// SPDX-License-Identifier: MIT
/*
 * trace-common.c - the reader state every input fills: per-CPU info slots,
 * the pid -> comm and argument-name tables, the recorder's per-CPU stats
 * text, the progress hook, the tracer's cost as a trace.dat option's text,
 * and the names of formats and tracers (trace.c and
 * the inputs use them; they call no file that calls them).
 */
#define PR_DOMAIN "trace"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace-internal.h"

const char *kmag_tracer_cost_format(const struct kmag_tracer_cost *c, char *buf, size_t size)
{
	snprintf(buf, size,
		 "ns=%" PRIu64 " q1=%" PRIu64 " q3=%" PRIu64 " rounds=%u reads=%u beneath=%u options=%s",
		 c->ns, c->q1_ns, c->q3_ns, c->rounds, c->reads, c->beneath,
		 c->options[0] ? c->options : "-");
	return buf;
}

/* One "key=value" word of the tracer's cost into @c. 0 or -EINVAL. */
static int cost_word(const char *w, size_t n, struct kmag_tracer_cost *c)
{
	static const char *const keys[] = { "ns", "q1", "q3", "rounds", "reads", "beneath" };
	const char *eq = memchr(w, '=', n);
	size_t k, klen;
	char num[24], *end;
	unsigned long long v;

	if (!eq)
		return 0;
	klen = (size_t)(eq - w);
	if (klen == 7 && !memcmp(w, "options", 7)) {
		n -= 8;
		if (n >= sizeof(c->options))
			return -EINVAL;
		memcpy(c->options, eq + 1, n);
		c->options[n] = 0;
		if (!strcmp(c->options, "-"))
			c->options[0] = 0;
		return 0;
	}
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (strlen(keys[k]) == klen && !memcmp(w, keys[k], klen))
			break;
	if (k == sizeof(keys) / sizeof(keys[0]))
		return 0;	/* a word a later kmag writes */
	n -= klen + 1;
	if (!n || n >= sizeof(num) || eq[1] < '0' || eq[1] > '9')
		return -EINVAL;
	memcpy(num, eq + 1, n);
	num[n] = 0;
	errno = 0;
	v = strtoull(num, &end, 10);
	if (*end || errno)
		return -EINVAL;
	switch (k) {
	case 0: c->ns = v; break;
	case 1: c->q1_ns = v; break;
	case 2: c->q3_ns = v; break;
	default:
		if (v > UINT32_MAX)
			return -EINVAL;
		*(k == 3 ? &c->rounds : k == 4 ? &c->reads : &c->beneath) = (uint32_t)v;
	}
	return 0;
}

int kmag_tracer_cost_parse(const char *text, size_t len, struct kmag_tracer_cost *c)
{
	size_t i = 0, j;

	memset(c, 0, sizeof(*c));
	len = strnlen(text, len);
	while (i < len) {
		while (i < len && (text[i] == ' ' || text[i] == '\n'))
			i++;
		for (j = i; j < len && text[j] != ' ' && text[j] != '\n'; j++)
			;
		if (j > i && cost_word(text + i, j - i, c)) {
			memset(c, 0, sizeof(*c));
			return -EINVAL;
		}
		i = j;
	}
	if (!c->ns) {
		memset(c, 0, sizeof(*c));
		return -EINVAL;
	}
	return 0;
}

struct kmag_cpu_info *kmag__trace_cpu(struct kmag_trace *t, int cpu)
{
	size_t i;

	if (cpu < 0 || cpu >= 65536)
		return NULL;
	if ((size_t)cpu < (size_t)t->info.nr_cpus)
		return &t->cpus[cpu];
	if (kmag__grow(&t->cpus, &t->cap_cpus, (size_t)cpu + 1, sizeof(*t->cpus)))
		return NULL;
	for (i = (size_t)t->info.nr_cpus; i <= (size_t)cpu; i++) {
		memset(&t->cpus[i], 0, sizeof(t->cpus[i]));
		t->cpus[i].first_ts = KMAG_TS_NONE;
		t->cpus[i].last_ts = KMAG_TS_NONE;
	}
	t->info.nr_cpus = cpu + 1;
	t->info.cpus = t->cpus;
	return &t->cpus[cpu];
}

int kmag__keyed_set(struct keyed_names *kn, uint64_t key, const char *s, size_t len)
{
	uint64_t *slot;
	bool inserted;
	char *copy;

	len = strnlen(s, len);	/* a NUL inside ends the string, as strndup() does */
	slot = u64map_get(&kn->map, key);
	if (slot) {
		char *old = kn->names[*slot];

		if (strlen(old) == len && !memcmp(old, s, len))
			return 0;
		if (kmag__grow(&kn->retired, &kn->cap_retired, kn->nr_retired + 1, sizeof(char *)))
			return -ENOMEM;
		copy = strndup(s, len);
		if (!copy)
			return -ENOMEM;
		kn->retired[kn->nr_retired++] = old;	/* still borrowed by someone, maybe */
		kn->names[*slot] = copy;
		return 0;
	}
	if (kmag__grow(&kn->names, &kn->cap, kn->nr + 1, sizeof(char *)))
		return -ENOMEM;
	copy = strndup(s, len);
	if (!copy)
		return -ENOMEM;
	slot = u64map_upsert(&kn->map, key, kn->nr, &inserted);
	if (!slot) {
		free(copy);
		return -ENOMEM;
	}
	kn->names[kn->nr++] = copy;
	return 0;
}

const char *kmag__keyed_get(const struct keyed_names *kn, uint64_t key)
{
	const uint64_t *slot = u64map_get((struct u64map *)&kn->map, key);

	return slot ? kn->names[*slot] : NULL;
}

void kmag__keyed_release(struct keyed_names *kn)
{
	size_t i;

	for (i = 0; i < kn->nr; i++)
		free(kn->names[i]);
	free(kn->names);
	for (i = 0; i < kn->nr_retired; i++)
		free(kn->retired[i]);
	free(kn->retired);
	u64map_release(&kn->map);
	memset(kn, 0, sizeof(*kn));
}

int kmag__trace_set_comm(struct kmag_trace *t, int pid, const char *comm, size_t len)
{
	return kmag__keyed_set(&t->comms, (uint64_t)(uint32_t)pid, comm, len);
}

int kmag__trace_set_arg_names(struct kmag_trace *t, kmag_func_t func, const char *names, size_t len)
{
	return kmag__keyed_set(&t->arg_names, func, names, len);
}

int kmag__trace_load_cmdlines(struct kmag_trace *t, const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *q = p;
		long pid = 0;
		int digits = 0;

		while (q < le && *q >= '0' && *q <= '9' && digits < 10) {
			pid = pid * 10 + (*q++ - '0');
			digits++;
		}
		if (digits && q < le && *q == ' ' && le > q + 1) {
			int ret = kmag__trace_set_comm(t, (int)pid, q + 1, (size_t)(le - q - 1));

			if (ret)
				return ret;
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

static uint64_t stat_value(const char *text, const char *key)
{
	const char *p = text;
	size_t klen = strlen(key);

	while ((p = strstr(p, key))) {
		if ((p == text || p[-1] == '\n') && p[klen] == ':')
			return strtoull(p + klen + 1, NULL, 10);
		p += klen;
	}
	return 0;
}

void kmag__parse_cpu_stats(struct kmag_cpu_info *ci, const char *text)
{
	ci->has_stats = true;
	ci->stat_entries = stat_value(text, "entries");
	ci->stat_overrun = stat_value(text, "overrun");
	ci->stat_commit_overrun = stat_value(text, "commit overrun");
	ci->stat_dropped = stat_value(text, "dropped events");
}

void kmag__trace_progress(struct kmag_trace *t)
{
	struct kmag_trace_progress p = {
		.events = t->info.events,
		.bytes = t->ops->bytes_read ? t->ops->bytes_read(t) : 0,
		.size = t->file_size,
	};

	t->progress(&p, t->progress_ctx);
}

const char *kmag_input_format_name(enum kmag_input_format f)
{
	switch (f) {
	case KMAG_INPUT_TRACEDAT:
		return "trace.dat";
	case KMAG_INPUT_FTRACE_TEXT:
		return "ftrace text";
	case KMAG_INPUT_REPORT_TEXT:
		return "trace-cmd report text";
	case KMAG_INPUT_PROFILE:
		return "kmag profile";
	default:
		return "unknown";
	}
}

const char *kmag_tracer_name(enum kmag_tracer t)
{
	switch (t) {
	case KMAG_TRACER_FUNCTION:
		return "function";
	case KMAG_TRACER_FUNCTION_GRAPH:
		return "function_graph";
	case KMAG_TRACER_EVENTS:
		return "events";
	default:
		return "unknown";
	}
}

/* The release in @uname, its third blank-separated word: its length (0: none), at *@start. */
static size_t release_span(const char *uname, const char **start)
{
	const char *p = uname;
	int word;

	for (word = 0; p && *p && word < 2; word++) {
		p += strcspn(p, " \t");
		p += strspn(p, " \t");
	}
	*start = p;
	return p && *p ? strcspn(p, " \t\n") : 0;
}

const char *kmag_uname_release(const char *uname, char *buf, size_t size)
{
	const char *p;
	size_t n = release_span(uname, &p);

	if (!n)
		snprintf(buf, size, "unknown");
	else
		snprintf(buf, size, "%.*s", (int)(n < size ? n : size - 1), p);
	return buf;
}

bool kmag_uname_differ(const char *a, const char *b)
{
	const char *pa, *pb;
	size_t na = release_span(a, &pa), nb = release_span(b, &pb);

	return na && nb && (na != nb || memcmp(pa, pb, na));
}
