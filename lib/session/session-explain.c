// SPDX-License-Identifier: MIT
/*
 * session-explain.c - when a reading leaves nothing to show, one line saying
 * why and what the trace holds instead (include/kmag/session.h): no call
 * lasted --min-duration (the longest is named), the trace holds no function
 * calls (its other events are named, and the commands that show them),
 * --filter-filepath keeps no function, an --arg names a function with no
 * call or an argument it does not have; and finding a function a user named,
 * with "did you mean" (kmag_suggest()) for all of them.
 */
#define PR_DOMAIN "session"
#include <inttypes.h>
#include <stdlib.h>

#include "session-internal.h"
#include "kmag/argstats.h"
#include "kmag/durations.h"
#include "kmag/errors.h"
#include "kmag/filter.h"
#include "kmag/probes.h"
#include "kmag/report.h"

void kmag__session_seen(struct kmag_session *s, const struct kmag_event *ev)
{
	struct session_seen *n = &s->seen;
	size_t i;

	if (ev->type == KMAG_EV_FUNC || ev->type == KMAG_EV_GRAPH_ENTRY ||
	    ev->type == KMAG_EV_GRAPH_EXIT) {
		n->calls++;
		return;
	}
	if (ev->type != KMAG_EV_OTHER)
		return;
	n->other++;
	for (i = 0; i < n->nr_kinds; i++)
		if (n->kinds[i].name == ev->event_name ||
		    (n->kinds[i].name && ev->event_name && !strcmp(n->kinds[i].name, ev->event_name) &&
		     (n->kinds[i].system == ev->event_system ||
		      (n->kinds[i].system && ev->event_system &&
		       !strcmp(n->kinds[i].system, ev->event_system))))) {
			n->kinds[i].count++;
			return;
		}
	if (n->nr_kinds < SESSION_EVENT_KINDS) {
		n->kinds[n->nr_kinds].system = ev->event_system;
		n->kinds[n->nr_kinds].name = ev->event_name;
		n->kinds[n->nr_kinds++].count = 1;
	}
}

static int seen_event(void *ctx, const struct kmag_event *ev)
{
	kmag__session_seen(ctx, ev);
	return 0;
}

/* (graph entries and exits: the replay's own count, kmag__session_check_calls()) */
const struct kmag_replay_ops kmag__session_seen_ops = { .event = seen_event };

static int errno_leave(void *ctx, const struct kmag_call *call, void *data,
		       const struct kmag_call *parent, void *parent_data)
{
	struct session_seen *n = &((struct kmag_session *)ctx)->seen;
	int64_t e = call->has_retval ? -kmag_call_errno(call->retval) : 0;

	(void)data, (void)parent, (void)parent_data;
	n->retvals += call->has_retval;
	if (e > 0 && e < 4096)
		n->errnos[e / 8] |= (uint8_t)(1u << (e % 8));
	return 0;
}

const struct kmag_replay_ops kmag__session_errno_ops = { .leave = errno_leave };

/* "-22 EINVAL" */
static const char *errno_text(char *buf, size_t len, int e)
{
	const char *name = kmag_errno_name(e);

	snprintf(buf, len, "-%d%s%s", e, name ? " " : "", name ? name : "");
	return buf;
}

/*
 * --errno E on a trace without return values, or where no call returned E:
 * -ENODATA or -ENOENT with @err saying so (and which errors there are); else 0.
 */
static int check_errno(const struct kmag_session *s, struct kmag_err *err)
{
	const struct session_seen *n = &s->seen;
	char want[64], list[300];
	size_t used = 0, shown = 0;
	int e;

	if (!n->retvals)
		return kmag_err_set(err, ENODATA, "%s has no return values: --errno needs a function_graph trace recorded with funcgraph-retval (Linux 6.5+, CONFIG_FUNCTION_GRAPH_RETVAL)",
				    s->name);
	if (n->errnos[s->o.errnum / 8] & (1u << (s->o.errnum % 8)))
		return 0;
	list[0] = '\0';
	for (e = 1; e < 4096 && used < sizeof(list); e++) {
		const char *name = kmag_errno_name(e);

		if (!(n->errnos[e / 8] & (1u << (e % 8))))
			continue;
		if (++shown > 12) {
			snprintf(list + used, sizeof(list) - used, ", ...");
			break;
		}
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", used ? ", " : "",
					 name ? name : errno_text(want, sizeof(want), e));
	}
	errno_text(want, sizeof(want), s->o.errnum);
	if (!shown)
		return kmag_err_set(err, ENOENT, "no call in %s%s returned %s (--errno): none returned an error",
				    s->name, kmag_filter_is_empty(s->filter) ? "" : " that passes the filters", want);
	return kmag_err_set(err, ENOENT, "no call in %s%s returned %s (--errno); its calls returned %s",
			    s->name, kmag_filter_is_empty(s->filter) ? "" : " that passes the filters", want, list);
}

/* Whether the trace holds probe events (kprobes, uprobes: report --probes sums them up). */
static bool has_probes(const struct kmag_session *s)
{
	size_t i;

	if (s->probes && kmag_probes_count(s->probes))
		return true;
	for (i = 0; i < s->seen.nr_kinds; i++)
		if (s->seen.kinds[i].system && (!strcmp(s->seen.kinds[i].system, "kprobes") ||
						!strcmp(s->seen.kinds[i].system, "uprobes")))
			return true;
	return false;
}

/* "sched:sched_switch 19, irq:irq_handler_entry 3, ..." */
static void describe_kinds(const struct session_seen *n, char *buf, size_t len)
{
	uint64_t listed = 0;
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < n->nr_kinds && used < len; i++) {
		used += (size_t)snprintf(buf + used, len - used, "%s%s%s%s %" PRIu64, i ? ", " : "",
					 n->kinds[i].system ? n->kinds[i].system : "",
					 n->kinds[i].system ? ":" : "",
					 n->kinds[i].name ? n->kinds[i].name : "?", n->kinds[i].count);
		listed += n->kinds[i].count;
	}
	if (listed < n->other && used < len)
		snprintf(buf + used, len - used, ", ...");
}

int kmag__session_check_calls(struct kmag_session *s, struct kmag_err *err)
{
	const struct session_seen *n = &s->seen;
	uint64_t calls = n->calls;
	char kinds[400], msg[512];
	const char *f;

	if (s->direct && s->replay)
		calls += kmag_replay_stats(s->replay)->graph_events;
	if (n->mindur && !n->passed && n->dropped) {
		f = n->longest_func != KMAG_FUNC_NONE ?
			    kmag_symtab_name(kmag_trace_symtab(s->trace), n->longest_func) : NULL;
		kmag_mindur_explain(msg, sizeof(msg), s->name, s->o.min_duration_ns, n->longest_ns, f);
		return kmag_err_set(err, ENOENT, "%s", msg);
	}
	if (calls && s->o.errnum)
		return check_errno(s, err);
	if (calls)
		return 0;
	if (!n->other) {
		kmag_err_set(&s->no_calls, ENODATA, "%s holds no %s; record function calls with kmag record -p function_graph (or -p function)",
			     s->name, kmag_trace_info(s->trace)->events ? "function calls" : "events");
	} else {
		describe_kinds(n, kinds, sizeof(kinds));
		kmag_err_set(&s->no_calls, ENODATA,
			     "%s holds no function calls, only %" PRIu64 " other event%s (%s): `kmag export -F perfetto` or `-F chrome` shows them on a timeline%s",
			     s->name, n->other, n->other == 1 ? "" : "s", kinds,
			     has_probes(s) ? ", `kmag report --probes` sums up its probes" : "");
	}
	if (s->o.calls_optional)
		return 0;
	return kmag_err_set(err, ENODATA, "%s", s->no_calls.msg);
}

const char *kmag_session_no_calls(const struct kmag_session *s)
{
	return s->no_calls.code ? s->no_calls.msg : NULL;
}

/* The names of the call graph's functions (NULL-free), for kmag_suggest(); free() it. */
static const char **graph_names(const struct kmag_session *s, size_t *n)
{
	const struct kmag_symtab *st = kmag_trace_symtab(s->trace);
	const struct kmag_cg_node *nodes = s->cg ? kmag_cg_nodes(s->cg) : NULL;
	const char **names;
	size_t i;

	*n = s->cg ? kmag_cg_nr_nodes(s->cg) : 0;
	if (!(names = calloc(*n + 1, sizeof(*names))))
		return NULL;
	for (i = 0; i < *n; i++) {
		names[i] = kmag_symtab_name(st, nodes[i].func);
		if (!names[i])
			names[i] = "";
	}
	return names;
}

/* "; did you mean a, b?" for function @name among the graph's, or "". */
static void suggest_function(const struct kmag_session *s, const char *name, char *buf,
			     size_t len)
{
	char list[400];
	const char **names;
	size_t n;

	buf[0] = '\0';
	if (!(names = graph_names(s, &n)))
		return;
	if (kmag_suggest(name, names, n, "", list, sizeof(list)))
		snprintf(buf, len, "; did you mean %s?", list);
	free(names);
}

int kmag_session_find_function(const struct kmag_session *s, const char *opt, const char *name,
			       long *node, struct kmag_err *err)
{
	char contains[400] = "", similar[450];

	*node = s->cg ? kmag_cg_find_name(s->cg, kmag_trace_symtab(s->trace), name, contains,
					  sizeof(contains)) : -1;
	if (*node >= 0)
		return 0;
	if (contains[0])
		return kmag_err_set(err, ENOENT, "%s: function \"%s\" is not in the trace; did you mean %s?",
				    opt, name, contains);
	suggest_function(s, name, similar, sizeof(similar));
	if (similar[0])
		return kmag_err_set(err, ENOENT, "%s: function \"%s\" is not in the trace%s", opt,
				    name, similar);
	return kmag_err_set(err, ENOENT, "%s: function \"%s\" is not in the trace (check the spelling and the --pid/--comm/--cpu/--time filters, or record it with -l/-g)",
			    opt, name);
}

/* --filter-filepath that keeps none of the graph's functions. */
static int check_paths(const struct kmag_session *s, struct kmag_err *err)
{
	const struct kmag_cg_node *nodes = kmag_cg_nodes(s->cg);
	size_t n = kmag_cg_nr_nodes(s->cg), i, with_file = 0;

	for (i = 0; i < n; i++) {
		if (kmag_srcloc_match(s->loc, s->sym.filter, nodes[i].func))
			return 0;
		with_file += kmag_srcloc_entry(s->loc, nodes[i].func, NULL) != NULL;
	}
	return kmag_err_set(err, ENOENT,
			    "--filter-filepath \"%s\" matches none of the %zu functions (%zu of them have a source file in %s); check the paths or the symbol map",
			    s->o.filter_filepath, n, with_file, s->sym.used);
}

/* The names of "file,buf,count,pos" into @v (a struct's further, empty, names skipped). */
static size_t split_names(const char *names, char *list, size_t len, const char **v, size_t max)
{
	size_t n = 0;
	char *p, *save = NULL;

	snprintf(list, len, "%s", names);
	for (p = strtok_r(list, ",", &save); p && n < max; p = strtok_r(NULL, ",", &save))
		v[n++] = p;
	return n;
}

/* An --arg whose function had no call, or has no argument of that name. */
static int check_arg(const struct kmag_session *s, const struct kmag_argstat *a,
		     struct kmag_err *err)
{
	char hint[450], copy[512], names[600], similar[300];
	const char *v[64];
	size_t n, i, used = 0;

	if (!a->calls) {
		suggest_function(s, a->func, hint, sizeof(hint));
		return kmag_err_set(err, ENOENT, "--arg %s:%s: %s has no call of %s%s%s", a->func,
				    a->arg, s->name, a->func, s->filters[0] ? " that passes the filters" : "",
				    hint[0] ? hint : " (check the spelling, or record it with -g)");
	}
	if (a->reg >= 0 || !a->names)
		return 0;	/* found, or the trace names none (the summary says to give --btf) */
	n = split_names(a->names, copy, sizeof(copy), v, sizeof(v) / sizeof(v[0]));
	names[0] = '\0';
	for (i = 0; i < n && used < sizeof(names); i++)
		used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s", used ? ", " : "",
					 v[i]);
	hint[0] = '\0';
	if (kmag_suggest(a->arg, v, n, "", similar, sizeof(similar)))
		snprintf(hint, sizeof(hint), "; did you mean %s?", similar);
	return kmag_err_set(err, ENOENT, "--arg %s:%s: %s has no argument named %s; its arguments are %s%s",
			    a->func, a->arg, a->func, a->arg, names[0] ? names : "none", hint);
}

int kmag__session_check_views(const struct kmag_session *s, struct kmag_err *err)
{
	size_t i;
	int ret;

	if (s->cg && s->loc && s->sym.filter && kmag_cg_nr_nodes(s->cg) &&
	    (ret = check_paths(s, err)))
		return ret;
	if (kmag_trace_info(s->trace)->format == KMAG_INPUT_PROFILE)
		return 0;
	for (i = 0; i < kmag_argstats_count(s->argstats); i++)
		if ((ret = check_arg(s, kmag_argstats_get(s->argstats, i), err)))
			return ret;
	return 0;
}
