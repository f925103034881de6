// SPDX-License-Identifier: MIT
/*
 * session-matched.c - the one answer when the --pid/--comm/--cpu/--time
 * filters let no event through: say so, and what the trace holds (its time,
 * CPUs and busiest tasks), so the user can correct the filter.
 */
#define PR_DOMAIN "session"
#include <stdio.h>
#include <inttypes.h>

#include "session-internal.h"
#include "kmag/filter.h"

/* "0-1,4" from the CPUs that had events; "none" if none. */
static void cpu_list(const struct kmag_trace_info *info, char *buf, size_t len)
{
	size_t n = 0;
	int i, start = -1;

	buf[0] = '\0';
	for (i = 0; i <= info->nr_cpus; i++) {
		bool has = i < info->nr_cpus && info->cpus[i].events;

		if (has && start < 0)
			start = i;
		if (!has && start >= 0) {
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%d", n ? "," : "", start);
			if (i - 1 > start)
				n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "-%d", i - 1);
			start = -1;
		}
	}
	if (!buf[0])
		snprintf(buf, len, "none");
}

static int count_nothing(const struct kmag_event *ev, void *ctx)
{
	(void)ev;
	(void)ctx;
	return 0;
}

/*
 * The reader read only the --time window (kmag_trace_set_window()), which
 * passed nothing: the trace is read again, whole, through the same filters,
 * for what it holds. *@t and *@f: free them. 0, or -errno (then the
 * window's own counts tell).
 */
static int read_whole(const struct kmag_session *s, struct kmag_trace **t, struct kmag_filter **f)
{
	struct kmag_trace_opts topts = { .reader = s->o.reader, .threads = s->o.threads };
	struct kmag_err e = { 0 };

	*f = kmag_filter_new();
	*t = kmag_trace_open(s->path, &topts, &e);
	if (!*f || !*t || kmag__session_build_filter(*f, &s->o, &e))
		return -EINVAL;
	kmag_filter_bind(*f, *t, count_nothing, NULL);
	return kmag_trace_read(*t, kmag_filter_event_fn, *f, &e) < 0 ? -EIO : 0;
}

/* The message of kmag__session_check_matched(), from what @f saw of @t. */
static int say_nothing(const struct kmag_session *s, struct kmag_trace *t,
		       const struct kmag_filter *f, struct kmag_err *err)
{
	const char *path = s->name, *desc = s->filters;
	const struct kmag_trace_info *info = kmag_trace_info(t);
	struct kmag_filter_stats st;
	char cpus[256], tasks[512];
	size_t i, n = 0;

	kmag_filter_stats(f, &st);
	if (!st.seen)
		return kmag_err_set(err, ENOENT, "no event of %s matches the filters (%s): the trace holds no events",
				 path, desc);
	cpu_list(info, cpus, sizeof(cpus));
	tasks[0] = '\0';
	for (i = 0; i < st.nr_top && n < sizeof(tasks); i++) {
		const char *comm = kmag_trace_comm(t, st.top_pids[i]);

		n += (size_t)snprintf(tasks + n, sizeof(tasks) - n, "%s%s-%d", i ? ", " : "",
				      comm ? comm : "?", (int)st.top_pids[i]);
	}
	if (st.tasks > st.nr_top && n < sizeof(tasks))
		snprintf(tasks + n, sizeof(tasks) - n, ", ...");
	if (info->first_ts == KMAG_TS_NONE)
		return kmag_err_set(err, ENOENT,
				    "no event of %s matches the filters (%s); the trace holds %" PRIu64 " events on CPUs %s from %zu task%s%s%s%s",
				 path, desc, st.seen, cpus, st.tasks, st.tasks == 1 ? "" : "s",
				 st.tasks ? " (" : "", tasks, st.tasks ? ")" : "");
	return kmag_err_set(err, ENOENT,
			    "no event of %s matches the filters (%s); the trace holds %.6f .. %.6f s on CPUs %s from %zu task%s%s%s%s",
			 path, desc, (double)info->first_ts / 1e9, (double)info->last_ts / 1e9, cpus,
			 st.tasks, st.tasks == 1 ? "" : "s", st.tasks ? " (" : "", tasks,
			 st.tasks ? ")" : "");
}

int kmag__session_check_matched(const struct kmag_session *s, struct kmag_err *err)
{
	struct kmag_filter_stats st;
	struct kmag_filter *f = NULL;
	struct kmag_trace *t = NULL;
	int ret;

	kmag_filter_stats(s->filter, &st);
	if (kmag_filter_is_empty(s->filter) || st.passed)
		return 0;
	if (s->windowed && !read_whole(s, &t, &f))
		ret = say_nothing(s, t, f, err);
	else
		ret = say_nothing(s, s->trace, s->filter, err);
	kmag_trace_close(t);
	kmag_filter_free(f);
	return ret;
}
