// SPDX-License-Identifier: MIT
/*
 * filter.c - pid / comm / cpu / time predicates between a reader and a consumer.
 */
#include <stdio.h>

#include "internal.h"
#include "kmag/filter.h"
#include "kmag/trace.h"
#include "util/u64map.h"

#define MAX_FILTER_CPUS 8192

struct kmag_filter {
	struct u64map pids;
	bool has_pids;
	char **comms;
	size_t nr_comms, cap_comms;
	struct u64map comm_cache;	/* pid -> 1 match / 2 no match */
	uint64_t *cpus;			/* bitmap, NULL = any */
	bool has_time;
	bool time_relative;
	double t_start, t_end;		/* seconds; <0 = open */
	uint64_t ts_start, ts_end;	/* resolved, ns */
	bool time_resolved;
	char desc[512];

	struct kmag_trace *trace;
	kmag_event_fn next;
	void *next_ctx;

	/* what the filter saw, for "matched nothing" (kmag_filter_stats()) */
	uint64_t seen, passed;
	struct u64map tasks;		/* pid -> events seen */
	int32_t last_pid;		/* the pid of the previous event (most repeat it) */
	uint64_t *last_count;
};

struct kmag_filter *kmag_filter_new(void)
{
	struct kmag_filter *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	u64map_init(&f->pids);
	u64map_init(&f->comm_cache);
	u64map_init(&f->tasks);
	return f;
}

void kmag_filter_free(struct kmag_filter *f)
{
	size_t i;

	if (!f)
		return;
	u64map_release(&f->pids);
	u64map_release(&f->comm_cache);
	u64map_release(&f->tasks);
	for (i = 0; i < f->nr_comms; i++)
		free(f->comms[i]);
	free(f->comms);
	free(f->cpus);
	free(f);
}

int kmag_pid_list_parse(const char *spec, int (*add)(void *ctx, int32_t pid), void *ctx,
			struct kmag_err *err)
{
	const char *p = spec;

	if (!*p)
		return kmag_err_set(err, EINVAL, "empty pid list");
	while (*p) {
		char *end;
		long v;

		errno = 0;
		v = strtol(p, &end, 10);
		if (end == p || errno || v < 0 || v > INT32_MAX || (*end && *end != ','))
			return kmag_err_set(err, EINVAL,
					    "invalid pid list \"%s\" (expected numbers separated by commas, e.g. 123,456)",
					    spec);
		if (add(ctx, (int32_t)v))
			return kmag_err_set(err, ENOMEM, "out of memory");
		p = *end ? end + 1 : end;
	}
	return 0;
}

static int filter_add_pid(void *ctx, int32_t pid)
{
	struct kmag_filter *f = ctx;

	return u64map_upsert(&f->pids, (uint64_t)pid, 1, NULL) ? 0 : -ENOMEM;
}

int kmag_filter_add_pids(struct kmag_filter *f, const char *spec, struct kmag_err *err)
{
	int ret = kmag_pid_list_parse(spec, filter_add_pid, f, err);

	if (!ret)
		f->has_pids = true;
	return ret;
}

int kmag_filter_add_comms(struct kmag_filter *f, const char *spec, struct kmag_err *err)
{
	const char *p = spec;

	if (!*p)
		return kmag_err_set(err, EINVAL, "empty command-name list");
	while (*p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char *c;

		if (len) {
			if (kmag__grow(&f->comms, &f->cap_comms, f->nr_comms + 1, sizeof(char *)) ||
			    !(c = strndup(p, len)))
				return kmag_err_set(err, ENOMEM, "out of memory");
			f->comms[f->nr_comms++] = c;
		}
		p += len + (comma ? 1 : 0);
	}
	return 0;
}

int kmag_filter_add_cpus(struct kmag_filter *f, const char *spec, struct kmag_err *err)
{
	uint64_t *bits = calloc(MAX_FILTER_CPUS / 64, sizeof(uint64_t));
	int ret;
	size_t i;

	if (!bits)
		return kmag_err_set(err, ENOMEM, "out of memory");
	ret = kmag__parse_cpulist_err(spec, bits, MAX_FILTER_CPUS, err);
	if (ret) {
		free(bits);
		return ret;
	}
	if (f->cpus) {
		for (i = 0; i < MAX_FILTER_CPUS / 64; i++)
			f->cpus[i] |= bits[i];
		free(bits);
	} else {
		f->cpus = bits;
	}
	return 0;
}

static int parse_time_side(const char *s, size_t len, double *out, bool *relative)
{
	char buf[64], *end;

	*out = -1;
	if (!len)
		return 0;
	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (buf[0] == '+')
		*relative = true;
	*out = strtod(buf[0] == '+' ? buf + 1 : buf, &end);
	if (*end || end == buf || *out < 0)
		return -EINVAL;
	return 0;
}

int kmag_filter_set_time(struct kmag_filter *f, const char *spec, struct kmag_err *err)
{
	const char *comma = strchr(spec, ',');
	bool rel_a = false, rel_b = false;

	if (!comma ||
	    parse_time_side(spec, (size_t)(comma - spec), &f->t_start, &rel_a) ||
	    parse_time_side(comma + 1, strlen(comma + 1), &f->t_end, &rel_b) ||
	    (f->t_start < 0 && f->t_end < 0) || (rel_a != rel_b && f->t_start >= 0 && f->t_end >= 0) ||
	    (f->t_start >= 0 && f->t_end >= 0 && f->t_end < f->t_start))
		return kmag_err_set(err, EINVAL,
				    "invalid time range \"%s\" (expected START,END in seconds as printed by report, e.g. 6.30,6.35; prefix both with + to count from the first event: +0.5,+1)",
				    spec);
	f->time_relative = rel_a || rel_b;
	f->has_time = true;
	return 0;
}

bool kmag_filter_is_empty(const struct kmag_filter *f)
{
	return !f->has_pids && !f->nr_comms && !f->cpus && !f->has_time;
}

const char *kmag_filter_describe(struct kmag_filter *f)
{
	size_t n = 0, i;

	f->desc[0] = '\0';
#define ADD(...) (n += (size_t)snprintf(f->desc + n, n < sizeof(f->desc) ? sizeof(f->desc) - n : 0, __VA_ARGS__))
	if (f->has_pids) {
		size_t k, shown = 0;

		ADD("pid ");
		for (k = 0; k <= f->pids.mask && f->pids.slots; k++) {
			if (f->pids.slots[k].key == U64MAP_EMPTY)
				continue;
			ADD("%s%llu", shown++ ? "," : "", (unsigned long long)f->pids.slots[k].key);
		}
	}
	if (f->nr_comms) {
		ADD("%scomm ", n ? "; " : "");
		for (i = 0; i < f->nr_comms; i++)
			ADD("%s%s", i ? "," : "", f->comms[i]);
	}
	if (f->cpus) {
		unsigned c;
		int first = 1;

		ADD("%scpu ", n ? "; " : "");
		for (c = 0; c < MAX_FILTER_CPUS; c++) {
			unsigned e = c;

			if (!(f->cpus[c / 64] & (1ull << (c % 64))))
				continue;
			while (e + 1 < MAX_FILTER_CPUS && (f->cpus[(e + 1) / 64] & (1ull << ((e + 1) % 64))))
				e++;
			if (e > c)
				ADD("%s%u-%u", first ? "" : ",", c, e);
			else
				ADD("%s%u", first ? "" : ",", c);
			first = 0;
			c = e;
		}
	}
	if (f->has_time) {
		ADD("%stime ", n ? "; " : "");
		if (f->t_start >= 0)
			ADD("%s%.6f", f->time_relative ? "+" : "", f->t_start);
		ADD(",");
		if (f->t_end >= 0)
			ADD("%s%.6f", f->time_relative ? "+" : "", f->t_end);
	}
#undef ADD
	return f->desc;
}

void kmag_filter_bind(struct kmag_filter *f, struct kmag_trace *t, kmag_event_fn next, void *next_ctx)
{
	f->trace = t;
	f->next = next;
	f->next_ctx = next_ctx;
}

static bool comm_matches(struct kmag_filter *f, int pid)
{
	uint64_t *v = u64map_get(&f->comm_cache, (uint64_t)(uint32_t)pid);
	const char *comm;
	bool match = false;
	size_t i;

	if (v)
		return *v == 1;
	comm = f->trace ? kmag_trace_comm(f->trace, pid) : NULL;
	if (comm)
		for (i = 0; i < f->nr_comms && !match; i++)
			match = kmag__glob_match(f->comms[i], comm);
	/* text inputs learn comms as they go, so only cache positive answers there */
	if (match || (f->trace && kmag_trace_info(f->trace)->format == KMAG_INPUT_TRACEDAT))
		u64map_upsert(&f->comm_cache, (uint64_t)(uint32_t)pid, match ? 1 : 2, NULL);
	return match;
}

/* @ev's CPU passes the CPU filter. */
static bool cpu_passes(const struct kmag_filter *f, const struct kmag_event *ev)
{
	return !f->cpus || (ev->cpu >= 0 && ev->cpu < MAX_FILTER_CPUS &&
			    (f->cpus[ev->cpu / 64] & (1ull << (ev->cpu % 64))));
}

static void resolve_time(struct kmag_filter *f, const struct kmag_event *ev)
{
	uint64_t origin = f->time_relative && ev->ts != KMAG_TS_NONE ? ev->ts : 0;

	/*
	 * kmag prints times rounded to the microsecond, as the kernel and
	 * trace-cmd do: a time as printed stands for its whole microsecond.
	 */
	f->ts_start = f->t_start >= 0 ? origin + (uint64_t)(f->t_start * 1e9 + 0.5) : 0;
	f->ts_start = f->ts_start >= 500 ? f->ts_start - 500 : 0;
	f->ts_end = f->t_end >= 0 ? origin + (uint64_t)(f->t_end * 1e9 + 0.5) + 499 : UINT64_MAX;
	f->time_resolved = true;
}

bool kmag_filter_match(struct kmag_filter *f, const struct kmag_event *ev)
{
	if (!cpu_passes(f, ev))
		return false;
	/*
	 * A LOST marker is in the window when its time is (the page where the
	 * loss was noticed): a reader that seeks to the window (kmag_trace_set_window())
	 * finds no other. One without a time passes, as it did.
	 */
	if (f->has_time && ev->ts != KMAG_TS_NONE) {
		if (!f->time_resolved)
			resolve_time(f, ev);
		if (ev->ts < f->ts_start || ev->ts > f->ts_end)
			return false;
	} else if (f->has_time && ev->type != KMAG_EV_LOST) {
		return false;
	}
	if (ev->type == KMAG_EV_LOST)
		return true;
	if (f->has_pids && (ev->pid < 0 || !u64map_get(&f->pids, (uint64_t)ev->pid)))
		return false;
	if (f->nr_comms && !comm_matches(f, ev->pid))
		return false;
	return true;
}

bool kmag_filter_time_window(struct kmag_filter *f, const struct kmag_event *firsts, size_t n,
			     uint64_t *from, uint64_t *to)
{
	const struct kmag_event *o = NULL;
	struct kmag_event none = { .ts = 0 };
	size_t i;

	if (!f->has_time)
		return false;
	if (!f->time_resolved) {
		/* the first event kmag_filter_match() would resolve on: the earliest on its CPUs */
		for (i = 0; i < n; i++) {
			const struct kmag_event *ev = &firsts[i];

			if (ev->ts == KMAG_TS_NONE || !cpu_passes(f, ev))
				continue;
			if (!o || ev->ts < o->ts || (ev->ts == o->ts && ev->cpu < o->cpu))
				o = ev;
		}
		/* (none: no event can pass, whatever the window) */
		resolve_time(f, o ? o : &none);
	}
	*from = f->ts_start;
	*to = f->ts_end;
	return true;
}

/* Counts @ev for kmag_filter_stats(): events and the tasks they came from. */
static void count_seen(struct kmag_filter *f, const struct kmag_event *ev)
{
	f->seen++;
	if (ev->pid < 0)
		return;
	if (!f->last_count || ev->pid != f->last_pid) {
		/* the map never moves a value between inserts of other keys */
		f->last_count = u64map_upsert(&f->tasks, (uint64_t)ev->pid, 0, NULL);
		f->last_pid = ev->pid;
		if (!f->last_count)
			return;	/* out of memory: only the task list of a message is shorter */
	}
	++*f->last_count;
}

int kmag_filter_event_fn(const struct kmag_event *ev, void *ctx)
{
	struct kmag_filter *f = ctx;

	if (ev->type != KMAG_EV_LOST)
		count_seen(f, ev);
	if (!kmag_filter_match(f, ev))
		return 0;
	if (ev->type != KMAG_EV_LOST)
		f->passed++;
	return f->next(ev, f->next_ctx);
}

void kmag_filter_stats(const struct kmag_filter *f, struct kmag_filter_stats *st)
{
	size_t i, k, n = 0;

	memset(st, 0, sizeof(*st));
	st->seen = f->seen;
	st->passed = f->passed;
	st->tasks = f->tasks.count + f->tasks.has_max;
	/* the busiest tasks first, for a message naming a few */
	for (i = 0; f->tasks.mask && i <= f->tasks.mask; i++) {
		const struct u64map_slot *s = &f->tasks.slots[i];

		if (s->key == U64MAP_EMPTY)
			continue;
		for (k = n; k > 0 && st->top_events[k - 1] < s->val; k--) {
			if (k < KMAG_FILTER_TOP_TASKS) {
				st->top_pids[k] = st->top_pids[k - 1];
				st->top_events[k] = st->top_events[k - 1];
			}
		}
		if (k < KMAG_FILTER_TOP_TASKS) {
			st->top_pids[k] = (int32_t)s->key;
			st->top_events[k] = s->val;
			if (n < KMAG_FILTER_TOP_TASKS)
				n++;
		}
	}
	st->nr_top = n;
}
