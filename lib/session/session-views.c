// SPDX-License-Identifier: MIT
/*
 * session-views.c - the views a session computes: made once the input is
 * open (they need its function names), subscribed to the session's one
 * replay (or, one graph per task, fed its events), finished after the last
 * event.
 */
#define PR_DOMAIN "session"
#include <stdio.h>
#include "session-internal.h"
#include "kmag/argstats.h"
#include "kmag/callsites.h"
#include "kmag/durations.h"
#include "kmag/errors.h"
#include "kmag/probes.h"

/* The probe events reach the probes view through the replay's other events. */
static int probes_event(void *ctx, const struct kmag_event *ev)
{
	return kmag_probes_add(ctx, ev);
}

static const struct kmag_replay_ops probes_ops = { .event = probes_event };

/* Whether any view subscribes to the replay. */
static bool need_replay(const struct kmag_session *s)
{
	const struct kmag_session_views *v = &s->o.views;

	return v->graph || v->probes || v->slowest || v->errors || v->calls || v->nr_args ||
	       v->callsites;
}

static int oom(struct kmag_err *err)
{
	return kmag_err_set(err, ENOMEM, "out of memory");
}

/* The views that need only the function names, subscribed in this order. */
static int make_call_views(struct kmag_session *s, struct kmag_err *err)
{
	const struct kmag_session_views *v = &s->o.views;
	struct kmag_symtab *st = kmag_trace_symtab(s->trace);
	/* interned now: a text trace names its functions only as it is read */
	kmag_func_t root = v->root ? kmag_symtab_intern(st, v->root, (size_t)-1) : KMAG_FUNC_NONE;

	if (v->root && root == KMAG_FUNC_NONE)
		return oom(err);
	if (v->slowest && (!(s->slowest = kmag_slowest_new(v->slowest)) ||
			   kmag_slowest_subscribe(s->slowest, s->replay)))
		return oom(err);
	if (v->errors) {
		if (!(s->errors = kmag_errors_new(st)))
			return oom(err);
		/* the return types: --btf, else the BTF the trace.dat stores */
		if (s->btf)
			kmag_errors_use_btf(s->errors, s->btf);
		kmag_errors_set_root(s->errors, root);
		kmag_errors_set_errno(s->errors, s->o.errnum);
		if (kmag_errors_subscribe(s->errors, s->replay))
			return oom(err);
	}
	if (v->calls && (!(s->calls = kmag_callsample_new(v->calls_opts)) ||
			 kmag_callsample_subscribe(s->calls, s->replay)))
		return oom(err);
	if (s->calls)
		kmag_callsample_set_root(s->calls, root);
	if (v->callsites && (!(s->callsites = kmag_callsites_new(st, s->lines)) ||
			     kmag_callsites_subscribe(s->callsites, s->replay)))
		return oom(err);
	if (s->callsites)
		kmag_callsites_set_root(s->callsites, root);
	return 0;
}

static int make_argstats(struct kmag_session *s, struct kmag_err *err)
{
	const struct kmag_session_views *v = &s->o.views;
	size_t i;

	if (!(s->argstats = kmag_argstats_new(s->trace)))
		return oom(err);
	for (i = 0; i < v->nr_args; i++)
		if (kmag_argstats_want(s->argstats, v->args[i], err))
			return kmag_err_set(err, ENOMEM, "out of memory");
	if (kmag_argstats_subscribe(s->argstats, s->replay))
		return oom(err);
	return 0;
}

int kmag__session_make_views(struct kmag_session *s, struct kmag_err *err)
{
	const struct kmag_session_views *v = &s->o.views;
	struct kmag_cg_opts copts = { .build_cct = v->call_paths, .errnum = s->o.errnum,
				      .tracer_cost_ns = s->cost_ns,
				      .durations = v->durations };
	int ret;

	if (need_replay(s) && !(s->replay = kmag_replay_new()))
		return oom(err);
	if (s->replay && s->o.errnum && kmag_replay_subscribe(s->replay, &kmag__session_errno_ops, s))
		return oom(err);
	if (s->replay)
		kmag_replay_set_cost(s->replay, s->cost_ns);
	/* the graph first: every other view sees the calls after it counted them */
	if (v->graph && !(s->cg = kmag_cg_new_on(s->replay, &copts)))
		return oom(err);
	if (v->split && !(s->split = kmag_cg_split_new(s->trace, v->split_key, &copts)))
		return oom(err);
	/* only trace.dat files carry the event formats that make probes known */
	if (v->probes && kmag_trace_info(s->trace)->format == KMAG_INPUT_TRACEDAT &&
	    (!(s->probes = kmag_probes_new(s->trace)) ||
	     kmag_replay_subscribe(s->replay, &probes_ops, s->probes)))
		return oom(err);
	if ((ret = make_call_views(s, err)))
		return ret;
	return v->nr_args ? make_argstats(s, err) : 0;
}

int kmag__session_finish_views(struct kmag_session *s, struct kmag_err *err)
{
	int ret;

	if (s->replay && (ret = kmag_replay_finish(s->replay, KMAG_TS_NONE)))
		return kmag_err_set(err, -ret, "cannot replay %s: %s", s->name, strerror(-ret));
	if ((s->cg && kmag_cg_finish(s->cg)) || (s->split && kmag_cg_split_finish(s->split)) ||
	    (s->probes && kmag_probes_finish(s->probes)) ||
	    (s->calls && kmag_callsample_finish(s->calls)) ||
	    (s->argstats && kmag_argstats_finish(s->argstats)))
		return oom(err);
	if (s->slowest)
		kmag_slowest_finish(s->slowest);
	if (s->errors && (ret = kmag_errors_finish(s->errors)))
		return kmag_err_set(err, -ret, "cannot find the errors of %s: %s", s->name,
				    strerror(-ret));
	return 0;
}

void kmag__session_free_views(const struct kmag_session *s)
{
	kmag_cg_free(s->cg);
	kmag_cg_split_free(s->split);
	kmag_probes_free(s->probes);
	kmag_slowest_free(s->slowest);
	kmag_errors_free(s->errors);
	kmag_callsample_free(s->calls);
	kmag_argstats_free(s->argstats);
	kmag_callsites_free(s->callsites);
	kmag_replay_free(s->replay);	/* after the views subscribed to it */
}
