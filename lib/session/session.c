// SPDX-License-Identifier: MIT
/*
 * session.c - one reading of a trace or a profile (include/kmag/session.h):
 * the options checked, the input opened (session-input.c), the views made
 * (session-views.c), and the reading: every event through the shared
 * filters and the minimum-duration filter to the taps and the one replay.
 */
#define PR_DOMAIN "session"
#include <stdio.h>
#include <inttypes.h>
#include <unistd.h>

#include "session-internal.h"
#include "kmag/btf.h"
#include "kmag/durations.h"
#include "kmag/errors.h"
#include "kmag/filter.h"
#include "kmag/srclines.h"

/* The default input: ./trace.dat, else the seed's ./kernel-magnifier.data. */
static const char *default_input(void)
{
	if (access("trace.dat", F_OK) == 0)
		return "trace.dat";
	if (access("kernel-magnifier.data", F_OK) == 0)
		return "kernel-magnifier.data";
	return "trace.dat";
}

int kmag__session_build_filter(struct kmag_filter *f, const struct kmag_session_opts *o,
			       struct kmag_err *err)
{
	if ((o->pids && kmag_filter_add_pids(f, o->pids, err)) ||
	    (o->comms && kmag_filter_add_comms(f, o->comms, err)) ||
	    (o->cpus && kmag_filter_add_cpus(f, o->cpus, err)) ||
	    (o->time && kmag_filter_set_time(f, o->time, err)))
		return kmag_err_set(err, EINVAL, "bad filter");
	return 0;
}

unsigned kmag_session_threads(const struct kmag_session_opts *o, struct kmag_err *err)
{
	const char *env = getenv("KMAG_THREADS");
	unsigned long n;
	char *end;
	long cpus;

	if (o->threads)
		return o->threads > KMAG_MAX_THREADS ? KMAG_MAX_THREADS : o->threads;
	if (env) {
		errno = 0;
		n = strtoul(env, &end, 10);
		if (errno || end == env || *end || !n || n > KMAG_MAX_THREADS ||
		    !strchr("0123456789", *env)) {
			kmag_err_set(err, EINVAL,
				     "KMAG_THREADS=\"%.40s\" is not a number of threads from 1 to %d (unset it for one per online CPU)",
				     env, KMAG_MAX_THREADS);
			return 0;
		}
		return (unsigned)n;
	}
	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	return cpus < 1 ? 1 : cpus > KMAG_MAX_THREADS ? KMAG_MAX_THREADS : (unsigned)cpus;
}

struct kmag_session *kmag_session_new(const struct kmag_session_opts *o, struct kmag_err *err)
{
	struct kmag_session *s = calloc(1, sizeof(*s));
	struct kmag_pathfilter *pf;

	if (!s || !(s->filter = kmag_filter_new())) {
		free(s);
		kmag_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	s->o = *o;
	s->path = o->path ? o->path : default_input();
	s->name = o->name ? o->name : s->path;
	s->what = o->what ? o->what : "kmag";
	if (!(s->o.threads = kmag_session_threads(o, err)) || kmag__session_build_filter(s->filter, o, err))
		goto fail;
	if (o->filter_filepath) {
		if (!(pf = kmag_pathfilter_new(o->filter_filepath, err))) {
			kmag_err_set(err, EINVAL, "bad --filter-filepath");
			goto fail;
		}
		kmag_pathfilter_free(pf);
	}
	if (o->raw_times && o->overhead_ns) {
		kmag_err_set(err, EINVAL,
			     "--raw-times and --overhead contradict each other: give one (--raw-times: the kernel's durations)");
		goto fail;
	}
	if (o->views.nr_args && !o->views.args) {
		kmag_err_set(err, EINVAL, "argument summaries asked for without their names");
		goto fail;
	}
	return s;
fail:
	kmag_session_free(s);
	return NULL;
}

void kmag_session_free(struct kmag_session *s)
{
	if (!s)
		return;
	kmag__session_free_views(s);
	kmag_srcloc_free(s->loc);
	kmag_symmap_choice_release(&s->sym);
	kmag_symmap_free(s->profile_map);
	kmag_trace_close(s->trace);
	kmag_btf_free(s->btf);	/* after the trace that borrowed it */
	kmag_srclines_free(s->lines);
	kmag_filter_free(s->filter);
	free(s);
}

/* Appends --errno's part to the filters' description: "calls returning -22 EINVAL". */
static void describe_errno(struct kmag_session *s)
{
	const char *name = kmag_errno_name(s->o.errnum);
	size_t n = strlen(s->filters);

	snprintf(s->filters + n, sizeof(s->filters) - n, "%scalls returning -%d%s%s", n ? ", " : "",
		 s->o.errnum, name ? " " : "", name ? name : "");
}

/*
 * A profile's sums were made with the cost of each recording taken off
 * already: what the header says of it. Nothing is taken off or put back here:
 * --raw-times and --overhead are refused when it would matter.
 */
static int profile_cost(struct kmag_session *s, struct kmag_err *err)
{
	const struct kmag_trace_info *info = kmag_trace_info(s->trace);
	uint64_t lo, hi;
	size_t n = kmag_trace_sources_cost(info, &lo, &hi);

	if (s->o.overhead_ns)
		return kmag_err_set(err, EINVAL,
				    "--overhead: %s is a profile, whose sums are made already; give it the trace it was made from",
				    s->name);
	if (!n)
		return 0;
	if (s->o.raw_times)
		return kmag_err_set(err, EINVAL,
				    "--raw-times: %s is a profile whose times had the tracer's cost taken off when it was made (%" PRIu64
				    " ns per traced call); give it the trace it was made from, or make it with --raw-times",
				    s->name, hi);
	if (n == info->nr_sources && lo == hi) {
		s->cost_ns = lo;
		snprintf(s->times, sizeof(s->times),
			 "times corrected for the tracer's cost: %" PRIu64
			 " ns per traced call (taken off when the profile was made)", lo);
	} else {
		snprintf(s->times, sizeof(s->times),
			 "times corrected for the tracer's cost of each recording: %" PRIu64 " to %" PRIu64
			 " ns per traced call (taken off when the profile was made, in %zu of its %zu recordings; the others: the kernel's times)",
			 lo, hi, n, info->nr_sources);
	}
	return 0;
}

/* The tracer's cost to take off (opts.raw_times, opts.overhead_ns, the trace's own). */
static int choose_cost(struct kmag_session *s, struct kmag_err *err)
{
	const struct kmag_trace_info *info = kmag_trace_info(s->trace);
	const struct kmag_tracer_cost *c = &info->cost;
	char a[32], b[32];

	if (info->format == KMAG_INPUT_PROFILE)
		return profile_cost(s, err);
	if (s->o.raw_times)
		return 0;
	if (s->o.overhead_ns) {
		s->cost_ns = s->o.overhead_ns;
		snprintf(s->times, sizeof(s->times),
			 "times corrected for the tracer's cost: %" PRIu64
			 " ns per traced call (given by --overhead)", s->cost_ns);
		return 0;
	}
	if (!c->ns)
		return 0;
	s->cost_ns = c->ns;
	snprintf(a, sizeof(a), "%" PRIu64, c->q1_ns);
	snprintf(b, sizeof(b), "%" PRIu64, c->q3_ns);
	snprintf(s->times, sizeof(s->times),
		 "times corrected for the tracer's cost: %" PRIu64
		 " ns per traced call (measured at record time: %s to %s ns over %u rounds%s%s)",
		 c->ns, a, b, c->rounds, c->options[0] ? ", with " : "", c->options);
	return 0;
}

int kmag_session_open(struct kmag_session *s, struct kmag_err *err)
{
	int ret;

	if (s->opened)
		return kmag_err_set(err, EBUSY, "the session is open already");
	s->opened = true;
	if ((ret = kmag__session_open_input(s, err)) || (ret = choose_cost(s, err)) ||
	    (ret = kmag__session_make_views(s, err)))
		return ret;
	if (!kmag_filter_is_empty(s->filter))
		snprintf(s->filters, sizeof(s->filters), "%s", kmag_filter_describe(s->filter));
	if (s->o.errnum)
		describe_errno(s);
	return 0;
}

int kmag_session_tap(struct kmag_session *s, kmag_event_fn fn, void *ctx)
{
	if (s->nr_taps == SESSION_MAX_TAPS)
		return -ENOSPC;
	s->taps[s->nr_taps].fn = fn;
	s->taps[s->nr_taps].ctx = ctx;
	s->nr_taps++;
	return 0;
}

void kmag_session_set_progress(struct kmag_session *s, kmag_trace_progress_fn fn, void *ctx)
{
	s->progress = fn;
	s->progress_ctx = ctx;
}

/* Every event that passed the filters: the taps, the one replay, the per-task graphs. */
static int dispatch(const struct kmag_event *ev, void *ctx)
{
	struct kmag_session *s = ctx;
	size_t i;
	int ret;

	kmag__session_seen(s, ev);
	for (i = 0; i < s->nr_taps; i++) {
		ret = s->taps[i].fn(ev, s->taps[i].ctx);
		if (ret) {
			s->tap_failed = ret < 0;
			return ret;
		}
	}
	if (s->replay && (ret = kmag_replay_add(s->replay, ev)))
		return ret;
	return s->split ? kmag_cg_split_event_fn(ev, s->split) : 0;
}

/* Appends the minimum duration's part to the filters' description. */
static void describe_mindur(struct kmag_session *s, const struct kmag_mindur *m)
{
	size_t n = strlen(s->filters);

	snprintf(s->filters + n, sizeof(s->filters) - n,
		 "%scalls >= %.3f us (%" PRIu64 " shorter calls left out)", n ? ", " : "",
		 (double)s->o.min_duration_ns / 1e3, kmag_mindur_dropped(m));
}

/* kmag_trace_set_window(): the --time window, resolved by the filter as it would be. */
static bool session_window(void *ctx, const struct kmag_event *firsts, size_t n, uint64_t *from,
			   uint64_t *to)
{
	struct kmag_session *s = ctx;

	return kmag_filter_time_window(s->filter, firsts, n, from, to);
}

/* Reads the events through the filters into the taps and views. 0 or -errno, @err set. */
static int read_events(struct kmag_session *s, struct kmag_err *err)
{
	/* the common case, the views alone, goes straight to the replay */
	kmag_event_fn fn = s->nr_taps || s->split ? dispatch : kmag_replay_event_fn;
	void *ctx = s->nr_taps || s->split ? (void *)s : (void *)s->replay;
	struct kmag_mindur *mindur = NULL;
	struct kmag_err e = { 0 };
	int ret;

	/* straight to the replay: it counts what passed (dispatch() does otherwise) */
	s->direct = !s->nr_taps && !s->split;
	if (s->direct && s->replay && kmag_replay_subscribe(s->replay, &kmag__session_seen_ops, s))
		return kmag_err_set(err, ENOMEM, "out of memory");
	if (s->o.min_duration_ns) {
		if (!(mindur = kmag_mindur_new(s->o.min_duration_ns, fn, ctx)))
			return kmag_err_set(err, ENOMEM, "out of memory");
		fn = kmag_mindur_event_fn;
		ctx = mindur;
	}
	if (!kmag_filter_is_empty(s->filter)) {
		kmag_filter_bind(s->filter, s->trace, fn, ctx);
		fn = kmag_filter_event_fn;
		ctx = s->filter;
	}
	/* a reader that can seeks to the --time window: it reads only that (issue 25) */
	if (s->o.time)
		s->windowed = kmag_trace_set_window(s->trace, session_window, s);
	kmag_trace_set_progress(s->trace, s->progress, s->progress_ctx);
	ret = kmag_trace_read(s->trace, fn, ctx, &e);
	kmag_trace_set_progress(s->trace, NULL, NULL);
	kmag__session_tell_damage(s, &e);
	if (mindur) {
		describe_mindur(s, mindur);
		s->seen.mindur = true;
		s->seen.dropped = kmag_mindur_dropped(mindur);
		s->seen.passed = kmag_mindur_passed(mindur);
		s->seen.longest_ns = kmag_mindur_longest(mindur, &s->seen.longest_func);
	}
	kmag_mindur_free(mindur);
	if (ret >= 0 && s->o.min_duration_ns &&
	    kmag_trace_info(s->trace)->tracer == KMAG_TRACER_FUNCTION)
		kmag__session_warn(s, "--min-duration needs call durations, which only function_graph traces have: nothing was left out");
	if (ret < 0 && e.code)
		return kmag_err_set(err, e.code, "%s", e.msg);
	if (ret < 0 && s->tap_failed)
		return ret;	/* the tap's own error, for its caller to explain */
	if (ret < 0)
		return kmag_err_set(err, -ret, ret == -ENOMEM ? "out of memory" :
					       "cannot read the trace");
	return 0;	/* (a tap may end the reading early: not an error) */
}

int kmag_session_read(struct kmag_session *s, struct kmag_err *err)
{
	int ret;

	if (!s->opened || s->read)
		return kmag_err_set(err, EBUSY, s->read ? "the session was read already" :
							   "the session is not open");
	s->read = true;
	if (kmag_trace_info(s->trace)->format == KMAG_INPUT_PROFILE && s->o.errnum)
		return kmag_err_set(err, EINVAL, "%s is a profile (sums of calls, from report --format json or merge): --errno needs a trace's calls and their return values",
				    s->name);
	if (kmag_trace_info(s->trace)->format == KMAG_INPUT_PROFILE)
		ret = kmag__session_load_profile(s, err);	/* sums, no events */
	else if ((ret = read_events(s, err)) || (ret = kmag__session_check_matched(s, err)) ||
		 (ret = kmag__session_check_calls(s, err)))
		return ret;
	if (ret || (ret = kmag__session_finish_views(s, err)))
		return ret;
	return kmag__session_check_views(s, err);
}

const char *kmag_session_name(const struct kmag_session *s)
{
	return s->name;
}

struct kmag_trace *kmag_session_trace(const struct kmag_session *s)
{
	return s->trace;
}

const struct kmag_trace_info *kmag_session_info(const struct kmag_session *s)
{
	return kmag_trace_info(s->trace);
}

struct kmag_symtab *kmag_session_symtab(const struct kmag_session *s)
{
	return kmag_trace_symtab(s->trace);
}

const char *kmag_session_filters(const struct kmag_session *s)
{
	return s->filters;
}

uint64_t kmag_session_tracer_cost(const struct kmag_session *s)
{
	return s->cost_ns;
}

const char *kmag_session_times(const struct kmag_session *s)
{
	return s->times;
}

struct kmag_cg *kmag_session_graph(const struct kmag_session *s)
{
	return s->cg;
}

void kmag_session_set_graph(struct kmag_session *s, struct kmag_cg *cg)
{
	if (cg == s->cg)
		return;
	kmag_cg_free(s->cg);
	s->cg = cg;
}

const struct kmag_cg_split *kmag_session_split(const struct kmag_session *s)
{
	return s->split;
}

struct kmag_probes *kmag_session_probes(const struct kmag_session *s)
{
	return s->probes;
}

struct kmag_slowest *kmag_session_slowest(const struct kmag_session *s)
{
	return s->slowest;
}

struct kmag_errors *kmag_session_errors(const struct kmag_session *s)
{
	return s->errors;
}

struct kmag_callsample *kmag_session_calls(const struct kmag_session *s)
{
	return s->calls;
}

struct kmag_argstats *kmag_session_argstats(const struct kmag_session *s)
{
	return s->argstats;
}

struct kmag_callsites *kmag_session_callsites(const struct kmag_session *s)
{
	return s->callsites;
}

const char *kmag_session_types_from(const struct kmag_session *s)
{
	return s->btf ? s->types_from : NULL;
}

struct kmag_srclines *kmag_session_srclines(const struct kmag_session *s)
{
	return s->lines;
}

struct kmag_srcloc *kmag_session_srcloc(const struct kmag_session *s)
{
	return s->loc;
}

const struct kmag_pathfilter *kmag_session_pathfilter(const struct kmag_session *s)
{
	return s->sym.filter;
}

const char *kmag_session_symbol_map(const struct kmag_session *s)
{
	return s->sym.used[0] ? s->sym.used : NULL;
}
