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

int kmag__session_check_matched(const struct kmag_session *s, struct kmag_err *err)
{
	const struct kmag_filter *f = s->filter;
	const struct kmag_trace *t = s->trace;
	const char *path = s->name, *desc = s->filters;
	const struct kmag_trace_info *info = kmag_trace_info(t);
	struct kmag_filter_stats st;
	char cpus[256], tasks[512];
	size_t i, n = 0;

	kmag_filter_stats(f, &st);
	if (kmag_filter_is_empty(f) || st.passed)
		return 0;
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
