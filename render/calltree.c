// SPDX-License-Identifier: MIT
/*
 * calltree.c - `kmag replay`: the calls of a trace in time order (see
 * include/kmag/calltree.h), printed from the hooks of the one replay.
 *
 * The lines themselves are written by calltree-lines.c.
 *
 * When a line appears: a call's "f() {" when its first shown child opens
 * (so a call without shown children becomes the leaf "f();" when it
 * returns, as the kernel prints it), its "}" when it returns. With
 * --min-duration/--errors a call qualifies only when it returns; then the
 * open lines of its callers not printed yet are printed first (they are the
 * replay's open calls, kmag_replay_open()), so nothing is buffered.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kmag/render/callfmt.h"
#include "kmag/render/calltree.h"
#include "kmag/replay.h"
#include "kmag/srclines.h"
#include "render-util.h"

#include "calltree-internal.h"

static const struct kmag_replay_ops calltree_ops;

/* Notes the printed calls open on the current task, outermost first: where --limit stopped. */
static void note_stop(struct kmag_calltree *c)
{
	size_t n = kmag_replay_nr_open(c->replay), i, len = 0;

	c->stopped_in[0] = '\0';
	for (i = 0; i < n && len < sizeof(c->stopped_in); i++) {
		const struct cdata *d = kmag_replay_open_data(c->replay, i, &calltree_ops);
		const struct kmag_call *call = kmag_replay_open(c->replay, i);
		const char *name = call->func == KMAG_FUNC_NONE ? NULL :
				   kmag_symtab_name(c->st, call->func);

		/* (JSON writes a call when it returns: every shown open call is unwritten) */
		if (!d || !d->shown || (!d->emitted && c->o.format == KMAG_CALLTREE_TEXT))
			continue;
		len += (size_t)snprintf(c->stopped_in + len, sizeof(c->stopped_in) - len, "%s%.100s",
					len ? " > " : "", name ? name : "[unknown]");
	}
	c->stats.stopped_in = c->stopped_in;
}

/* Counts @call shown against --limit (kmag__ct_count_shown()), noting where it stopped. */
static int count_shown(struct kmag_calltree *c, const struct kmag_call *call)
{
	int ret = kmag__ct_count_shown(c, call->start_ns);

	if (ret == KMAG_CALLTREE_STOP)
		note_stop(c);
	return ret;
}

/* Prints the open line of @call (data @d, caller @parent) unless printed already. */
static int emit_open(struct kmag_calltree *c, const struct kmag_call *call, struct cdata *d,
		     const struct kmag_call *parent)
{
	int ret;

	if (d->emitted)
		return 0;
	if ((ret = count_shown(c, call)))
		return ret;
	d->emitted = 1;
	return kmag__ct_text_line(c, L_OPEN, call, d, parent);
}

/* --min-duration/--errors: prints the open lines of the callers of the call leaving. */
static int emit_callers(struct kmag_calltree *c)
{
	size_t n = kmag_replay_nr_open(c->replay), i = n, k;
	int ret;

	/* the printed ones are the outermost shown calls: find where they end */
	while (i > 0) {
		struct cdata *d = kmag_replay_open_data(c->replay, i - 1, &calltree_ops);

		if (d->shown && d->emitted)
			break;
		i--;
	}
	for (k = i; k < n; k++) {
		struct cdata *d = kmag_replay_open_data(c->replay, k, &calltree_ops);
		const struct kmag_call *p = k ? kmag_replay_open(c->replay, k - 1) : NULL;

		if (d->shown && (ret = emit_open(c, kmag_replay_open(c->replay, k), d, p)))
			return ret;
	}
	return 0;
}

/*
 * The slot of @call's CPU for a pending open line; NULL when the CPU is
 * unknown or out of memory (the line is then printed as before: a leaf).
 */
static struct pending_open *pend_slot(struct kmag_calltree *c, const struct kmag_call *call)
{
	size_t cpu = (size_t)call->cpu, cap;
	struct pending_open *v;

	if (call->cpu < 0 || c->o.format != KMAG_CALLTREE_TEXT || c->qualify)
		return NULL;
	if (cpu < c->cap_pend)
		return &c->pend[cpu];
	cap = cpu < 8 ? 8 : 2 * cpu;
	v = realloc(c->pend, cap * sizeof(*v));
	if (!v)
		return NULL;
	memset(v + c->cap_pend, 0, (cap - c->cap_pend) * sizeof(*v));
	c->pend = v;
	c->cap_pend = cap;
	return &c->pend[cpu];
}

/*
 * Before a line of @call: a call of another task pending on its CPU was
 * switched out before its next event, so it is no leaf in time order: its
 * open line comes now, at its entry's time (trace-cmd prints it so too), and
 * the CPU's time column never runs backwards.
 */
static int flush_pending(struct kmag_calltree *c, const struct kmag_call *call,
			 struct pending_open *p)
{
	struct pending_open o = *p;

	if (!o.id || o.task == kmag_task_key(call->pid, call->cpu))
		return 0;
	p->id = 0;
	return emit_open(c, o.call, o.d, o.parent);
}

static int on_enter(void *ctx, const struct kmag_call *call, void *data,
		    const struct kmag_call *parent, void *parent_data)
{
	struct kmag_calltree *c = ctx;
	struct cdata *d = data, *pd = parent_data;
	struct pending_open *p = pend_slot(c, call);
	int ret;

	c->stats.calls++;
	if (p && (ret = flush_pending(c, call, p)))
		return ret;
	/* its caller's line is no longer pending: it opens below, or stays hidden */
	if (parent && parent->cpu >= 0 && (size_t)parent->cpu < c->cap_pend &&
	    c->pend[parent->cpu].id == parent->id)
		c->pend[parent->cpu].id = 0;
	d->root_depth = -1;
	if (!c->o.function)
		d->root_depth = 0;
	else if (pd && pd->root_depth >= 0)
		d->root_depth = pd->root_depth;
	else if (kmag__ct_function_matches(c, call->func))
		d->root_depth = call->depth;
	if (d->root_depth < 0)
		return 0;
	if (c->o.function && d->root_depth == call->depth)
		c->stats.function_seen = true;
	d->shown = !c->o.max_depth || (uint32_t)(call->depth - d->root_depth) < c->o.max_depth;
	/* the caller was a leaf so far: now it opens */
	if (d->shown && pd && pd->shown && !c->qualify && c->o.format == KMAG_CALLTREE_TEXT) {
		/* open now: ..., the caller's caller, the caller, this call */
		size_t n = kmag_replay_nr_open(c->replay);

		ret = emit_open(c, parent, pd, n > 2 ? kmag_replay_open(c->replay, n - 3) : NULL);
		if (ret)
			return ret;
	}
	if (d->shown && p)
		*p = (struct pending_open){ call->id, kmag_task_key(call->pid, call->cpu), call, d,
					    parent };
	return 0;
}

static bool qualifies(const struct kmag_calltree *c, const struct kmag_call *call)
{
	if (c->o.min_duration_ns &&
	    (call->kernel_ns == KMAG_DURATION_NONE || call->kernel_ns < c->o.min_duration_ns))
		return false;
	if (c->o.errnum && kmag__ct_errno(call) != -(int64_t)c->o.errnum)
		return false;
	return !c->o.errors || kmag__ct_is_errno(call);
}

static int on_leave(void *ctx, const struct kmag_call *call, void *data,
		    const struct kmag_call *parent, void *parent_data)
{
	struct kmag_calltree *c = ctx;
	struct cdata *d = data, *pd = parent_data;
	struct pending_open *p = pend_slot(c, call);
	int ret;

	if (p) {
		if ((ret = flush_pending(c, call, p)))
			return ret;
		if (p->id == call->id)
			p->id = 0;
	}
	if (call->kernel_ns != KMAG_DURATION_NONE && !(call->flags & KMAG_CALL_NO_EXIT) &&
	    (c->stats.longest_ns == KMAG_DURATION_NONE || call->kernel_ns > c->stats.longest_ns)) {
		c->stats.longest_ns = call->kernel_ns;
		c->stats.longest_func = call->func;
	}
	if (!d->shown)
		return 0;
	if (c->o.format == KMAG_CALLTREE_JSON) {
		if (c->qualify && !d->needed && !qualifies(c, call))
			return 0;
		if (c->qualify && pd)
			pd->needed = 1;
		if ((ret = count_shown(c, call)))
			return ret;
		return kmag__ct_json_line(c, call);
	}
	if (c->qualify) {
		if (!d->emitted && !qualifies(c, call))
			return 0;
		if (!d->emitted && (ret = emit_callers(c)))
			return ret;
	}
	if (d->emitted)
		return kmag__ct_text_line(c, L_CLOSE, call, d, parent);
	if ((ret = count_shown(c, call)))
		return ret;
	return kmag__ct_text_line(c, L_LEAF, call, d, parent);
}


static int refuse_function_tracer(struct kmag_calltree *c)
{
	char msg[256];

	if (c->o.errors || c->o.errnum)
		snprintf(msg, sizeof(msg), "records no return values; %s needs a function_graph trace recorded with the funcgraph-retval option (Linux 6.5+)",
			 c->o.errnum ? "--errno" : "--errors");
	else
		snprintf(msg, sizeof(msg), "records no call %s; %s needs function_graph data (kmag record -p function_graph)",
			 c->o.max_depth ? "stacks" : "durations",
			 c->o.max_depth ? "--depth" : "--min-duration");
	kmag_err_set(&c->err, ENODATA, "%s was recorded with the function tracer, which %s",
		     c->o.source ? c->o.source : "the trace", msg);
	c->failed = true;
	return -ENODATA;
}

int kmag_calltree_event_fn(const struct kmag_event *ev, void *ctx)
{
	struct kmag_calltree *c = ctx;
	int ret;

	if (c->failed)
		return -c->err.code;
	if (ev->ts != KMAG_TS_NONE && (ev->ts > c->last_ts || c->last_ts == KMAG_TS_NONE))
		c->last_ts = ev->ts;
	switch (ev->type) {
	case KMAG_EV_FUNC:
		if (c->o.errors || c->o.errnum || c->o.min_duration_ns || c->o.max_depth)
			return refuse_function_tracer(c);
		return kmag__ct_func_line(c, ev);
	case KMAG_EV_LOST:
		if (c->o.format == KMAG_CALLTREE_TEXT && !c->qualify && (ret = kmag__ct_lost_line(c, ev)))
			return ret;
		break;
	case KMAG_EV_GRAPH_EXIT:
		/* a void function's exit says nothing: its return value was dropped (trace.h) */
		if ((c->o.errors || c->o.errnum) && !c->retval_checked &&
		    !(c->trace && kmag_trace_returns_void(c->trace, ev->func))) {
			if (!ev->has_retval)
				return kmag__ct_fail(c, ENODATA, c->o.errnum ?
					    "%s has no return values: --errno needs a function_graph trace recorded with funcgraph-retval (Linux 6.5+, CONFIG_FUNCTION_GRAPH_RETVAL)" :
					    "%s has no return values: --errors needs a function_graph trace recorded with the funcgraph-retval option (Linux 6.5+, CONFIG_FUNCTION_GRAPH_RETVAL)",
					    c->o.source ? c->o.source : "the trace");
			c->retval_checked = true;
		}
		break;
	default:
		break;
	}
	ret = kmag_replay_add(c->replay, ev);
	if (ret < 0 && !c->failed)
		kmag__ct_fail(c, -ret, "cannot replay the calls: %s", strerror(-ret));
	return ret;
}

static const struct kmag_replay_ops calltree_ops = {
	.data_size = sizeof(struct cdata),
	.enter = on_enter,
	.leave = on_leave,
};

struct kmag_calltree *kmag_calltree_new(struct kmag_trace *t, FILE *out,
					const struct kmag_calltree_opts *o, struct kmag_err *err)
{
	struct kmag_calltree *c = calloc(1, sizeof(*c));

	if (c)
		c->buf = malloc(OUTBUF);
	if (c && c->buf)
		c->replay = kmag_replay_new();
	if (!c || !c->buf || !c->replay || kmag_replay_subscribe(c->replay, &calltree_ops, c)) {
		kmag_err_set(err, ENOMEM, "out of memory");
		kmag_calltree_free(c);
		return NULL;
	}
	kmag_replay_set_cost(c->replay, o->tracer_cost_ns);
	c->trace = t;
	c->st = kmag_trace_symtab(t);
	c->out = out;
	c->o = *o;
	c->qualify = o->min_duration_ns || o->errors || o->errnum;
	c->last_ts = KMAG_TS_NONE;
	c->comm_pid = INT32_MIN;
	c->stats.next_ns = KMAG_TS_NONE;
	c->stats.stopped_in = "";
	c->stats.longest_ns = KMAG_DURATION_NONE;
	c->stats.longest_func = KMAG_FUNC_NONE;
	return c;
}

int kmag_calltree_finish(struct kmag_calltree *c, struct kmag_err *err)
{
	int ret = c->failed ? -c->err.code : 0;

	if (!ret && !c->stats.limited) {
		/* a call open at the end of the trace was last seen there (its line is last) */
		ret = kmag_replay_finish(c->replay, c->last_ts);
		if (ret == KMAG_CALLTREE_STOP)
			ret = 0;
		if (ret < 0 && !c->failed)
			kmag__ct_fail(c, -ret, "cannot replay the calls: %s", strerror(-ret));
	}
	if (!ret && c->stats.limited && c->o.format == KMAG_CALLTREE_TEXT)
		ret = kmag__ct_limit_line(c);
	if (ret >= 0)
		ret = kmag__ct_flush(c);
	if (!ret && fflush(c->out))
		ret = kmag__ct_fail(c, EIO, "cannot write the calls: %s", strerror(errno ? errno : EIO));
	if (ret)
		kmag_err_set(err, c->err.code, "%s", c->err.msg);
	return ret;
}

const struct kmag_err *kmag_calltree_error(const struct kmag_calltree *c)
{
	return &c->err;
}

const struct kmag_calltree_stats *kmag_calltree_stats(const struct kmag_calltree *c)
{
	return &c->stats;
}

size_t kmag_calltree_suggest(const struct kmag_calltree *c, char *buf, size_t size)
{
	const char **names;
	size_t f, n = 0, found;

	if (size)
		buf[0] = '\0';
	/* --function looked up every function called outside a match: c->match knows them */
	if (!c->o.function || !(names = calloc(c->cap_match + 1, sizeof(*names))))
		return 0;
	for (f = 0; f < c->cap_match; f++)
		if (c->match[f] != M_UNKNOWN && (names[n] = kmag_symtab_name(c->st, (kmag_func_t)f)))
			n++;
	found = kmag_suggest(c->o.function, names, n, "", buf, size);
	free(names);
	return found;
}

void kmag_calltree_free(struct kmag_calltree *c)
{
	if (!c)
		return;
	kmag_replay_free(c->replay);
	free(c->pend);
	free(c->match);
	free(c->buf);
	free(c);
}
