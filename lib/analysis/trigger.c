// SPDX-License-Identifier: MIT
/*
 * trigger.c - the flight recorder's triggers (see trigger.h): their specs,
 * and a replay subscriber that matches them on every call that leaves and
 * every tracepoint; the root of a fire's chain of callers is the outermost
 * call open on the replay's stack of the task, and a call's errno is read
 * as `kmag errors` reads it (by its return type, errors.c). Event filters
 * are libtraceevent's (tep_filter_*): the kernel's filter syntax, evaluated
 * on the record as the kernel would.
 */
#define PR_DOMAIN "trigger"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "internal.h"
#include "kmag/durations.h"
#include "kmag/errors.h"
#include "kmag/replay.h"
#include "trigger.h"

/* ------------------------------------------------------------ parsing */

static int bad(struct kmag_err *err, const char *spec, const char *why)
{
	return kmag_err_set(err, EINVAL,
			    "--trigger \"%s\": %s (the forms: error[=ERRNO][@FUNC], slow=FUNC>DURATION, event=SYSTEM:EVENT[/FILTER])",
			    spec, why);
}

/* A function name as the kernel spells them (letters, digits, _ and the compiler's .suffix). */
static bool func_name_ok(const char *s)
{
	if (!*s || isdigit((unsigned char)*s))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.')
			return false;
	return true;
}

static int parse_error(const char *spec, const char *rest, struct kmag__trigger *t,
		       struct kmag_err *err)
{
	const char *at = strchr(rest, '@');
	char *num;

	t->kind = KMAG_TRIG_ERROR;
	if (*rest == '=') {
		num = strndup(rest + 1, at ? (size_t)(at - rest - 1) : strlen(rest + 1));
		if (!num)
			return kmag_err_set(err, ENOMEM, "out of memory");
		t->errnum = kmag_errno_parse(num, NULL);
		t->errnum = t->errnum > 0 ? t->errnum : 0;
		free(num);
		if (!t->errnum)
			return bad(err, spec, "ERRNO is an errno name or number: error=ENOENT, error=2");
	} else if (*rest && *rest != '@') {
		return bad(err, spec, "write error=ERRNO or error@FUNC");
	}
	if (at) {
		if (!func_name_ok(at + 1))
			return bad(err, spec, "FUNC after @ must be a kernel function name");
		t->func = strdup(at + 1);
		if (!t->func)
			return kmag_err_set(err, ENOMEM, "out of memory");
	}
	return 0;
}

static int parse_slow(const char *spec, const char *rest, struct kmag__trigger *t,
		      struct kmag_err *err)
{
	const char *gt = strchr(rest, '>');

	t->kind = KMAG_TRIG_SLOW;
	if (*rest != '=' || !gt)
		return bad(err, spec, "write slow=FUNC>DURATION, e.g. slow=vfs_read>5ms");
	t->func = strndup(rest + 1, (size_t)(gt - rest - 1));
	if (!t->func)
		return kmag_err_set(err, ENOMEM, "out of memory");
	if (!func_name_ok(t->func))
		return bad(err, spec, "FUNC must be a kernel function name");
	if (kmag_duration_parse(gt + 1, &t->min_ns) || !t->min_ns)
		return bad(err, spec, "DURATION is a time above 0 like 250us, 5ms or 1s");
	return 0;
}

static int parse_event(const char *spec, const char *rest, struct kmag__trigger *t,
		       struct kmag_err *err)
{
	const char *colon, *slash;

	t->kind = KMAG_TRIG_EVENT;
	if (*rest != '=' || !(colon = strchr(rest, ':')))
		return bad(err, spec, "write event=SYSTEM:EVENT, e.g. event=sched:sched_switch");
	slash = strchr(colon, '/');
	t->system = strndup(rest + 1, (size_t)(colon - rest - 1));
	t->event = slash ? strndup(colon + 1, (size_t)(slash - colon - 1)) : strdup(colon + 1);
	if (!t->system || !t->event)
		return kmag_err_set(err, ENOMEM, "out of memory");
	if (!func_name_ok(t->system) || !func_name_ok(t->event) || strchr(t->system, '.') ||
	    strchr(t->event, '.'))
		return bad(err, spec, "SYSTEM and EVENT name one tracepoint (no globs), e.g. sched:sched_switch");
	if (slash) {
		const char *f = slash + 1;

		while (isspace((unsigned char)*f))
			f++;
		if (!*f)
			return bad(err, spec, "an empty FILTER after /");
		t->filter = strdup(f);
		if (!t->filter)
			return kmag_err_set(err, ENOMEM, "out of memory");
	}
	return 0;
}

int kmag__trigger_parse(const char *spec, struct kmag__trigger *t, struct kmag_err *err)
{
	int ret;

	memset(t, 0, sizeof(*t));
	t->spec = spec;
	if (!strncmp(spec, "error", 5))
		ret = parse_error(spec, spec + 5, t, err);
	else if (!strncmp(spec, "slow", 4))
		ret = parse_slow(spec, spec + 4, t, err);
	else if (!strncmp(spec, "event", 5))
		ret = parse_event(spec, spec + 5, t, err);
	else
		ret = bad(err, spec, "unknown trigger");
	if (ret)
		kmag__trigger_release(t);
	return ret;
}

void kmag__trigger_release(struct kmag__trigger *t)
{
	free(t->func);
	free(t->system);
	free(t->event);
	free(t->filter);
	t->func = t->system = t->event = t->filter = NULL;
}

/* A compiled filter of @t on @te; NULL with @err set. */
static struct tep_event_filter *compile_filter(const struct kmag__trigger *t,
					       struct tep_event *te, struct kmag_err *err)
{
	struct tep_event_filter *f = tep_filter_alloc(te->tep);
	enum tep_errno e;
	char *text = NULL;

	if (!f) {
		kmag_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	if (asprintf(&text, "%s/%s:%s", t->system, t->event, t->filter) < 0) {
		tep_filter_free(f);
		kmag_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	e = tep_filter_add_filter_str(f, text);
	free(text);
	if (e < 0) {
		char msg[256] = "";

		tep_filter_strerror(f, e, msg, sizeof(msg));
		kmag_err_set(err, EINVAL, "--trigger \"%s\": the filter does not fit %s:%s: %s",
			     t->spec, t->system, t->event, msg[0] ? msg : "syntax error");
		tep_filter_free(f);
		return NULL;
	}
	return f;
}

/*
 * A filter's syntax, checked before libtraceevent sees it: its parser
 * (1.7) dereferences NULL on some malformed filters ("a == 1 &&"), and
 * reads an unknown field as "false" where the kernel refuses it, so a typo
 * would never fire. The grammar is the kernel's (Documentation/trace/
 * events.rst): predicates FIELD OP VALUE (OP one of == != < <= > >= ~ &)
 * joined by && and ||, with ! and parentheses. Each FIELD must be one of
 * the event's (or COMM, CPU).
 */
enum ftok { FT_END, FT_LP, FT_RP, FT_NOT, FT_LOGIC, FT_OP, FT_WORD, FT_STR, FT_BAD };

struct fscan {
	const char *p;
	const char *tok;	/* start of the current token */
	size_t len;
	enum ftok kind;
	int depth;
};

static void fnext(struct fscan *s)
{
	static const char *const ops[] = { "&&", "||", "==", "!=", "<=", ">=", "<", ">", "~", "&" };
	size_t i;

	while (*s->p == ' ' || *s->p == '\t')
		s->p++;
	s->tok = s->p;
	s->len = 1;
	if (!*s->p) {
		s->kind = FT_END;
		s->len = 0;
		return;
	}
	if (*s->p == '(' || *s->p == ')') {
		s->kind = *s->p++ == '(' ? FT_LP : FT_RP;
		return;
	}
	for (i = 0; i < ARRAY_SIZE(ops); i++)
		if (!strncmp(s->p, ops[i], strlen(ops[i]))) {
			s->len = strlen(ops[i]);
			s->kind = i < 2 ? FT_LOGIC : FT_OP;
			s->p += s->len;
			return;
		}
	if (*s->p == '!') {
		s->kind = FT_NOT;
		s->p++;
		return;
	}
	if (*s->p == '"' || *s->p == '\'') {
		char q = *s->p++;

		while (*s->p && *s->p != q)
			s->p += s->p[0] == '\\' && s->p[1] ? 2 : 1;
		s->kind = *s->p ? FT_STR : FT_BAD;
		s->p += *s->p != '\0';
		s->len = (size_t)(s->p - s->tok);
		return;
	}
	while (isalnum((unsigned char)*s->p) || (*s->p && strchr("_.-*:/", *s->p)))
		s->p++;
	s->len = (size_t)(s->p - s->tok);
	s->kind = s->len ? FT_WORD : FT_BAD;
	if (!s->len)
		s->len = 1;
}

static int fsyntax(const struct kmag__trigger *t, struct fscan *s, const char *why,
		   struct kmag_err *err)
{
	return kmag_err_set(err, EINVAL, "--trigger \"%s\": filter syntax: %s at \"%.*s\"", t->spec,
			    why, s->kind == FT_END ? 5 : (int)strlen(s->tok),
			    s->kind == FT_END ? "(end)" : s->tok);
}

static int fexpr(const struct kmag__trigger *t, struct tep_event *te, struct fscan *s,
		 struct kmag_err *err);

/* [!] ( EXPR ) | FIELD OP VALUE */
static int fterm(const struct kmag__trigger *t, struct tep_event *te, struct fscan *s,
		 struct kmag_err *err)
{
	char *name;
	bool known;
	int ret;

	while (s->kind == FT_NOT)
		fnext(s);
	if (s->kind == FT_LP) {
		if (++s->depth > 32)
			return fsyntax(t, s, "too many parentheses", err);
		fnext(s);
		if ((ret = fexpr(t, te, s, err)))
			return ret;
		if (s->kind != FT_RP)
			return fsyntax(t, s, "expected )", err);
		s->depth--;
		fnext(s);
		return 0;
	}
	if (s->kind != FT_WORD || isdigit((unsigned char)*s->tok) || *s->tok == '-')
		return fsyntax(t, s, "expected a field name", err);
	name = strndup(s->tok, s->len);
	if (!name)
		return kmag_err_set(err, ENOMEM, "out of memory");
	known = tep_find_any_field(te, name) || !strcmp(name, "COMM") || !strcmp(name, "CPU");
	if (!known) {
		ret = kmag_err_set(err, EINVAL,
				   "--trigger \"%s\": %s:%s has no field \"%s\" (see events/%s/%s/format)",
				   t->spec, t->system, t->event, name, t->system, t->event);
		free(name);
		return ret;
	}
	free(name);
	fnext(s);
	if (s->kind != FT_OP)
		return fsyntax(t, s, "expected an operator (== != < <= > >= ~ &)", err);
	fnext(s);
	if (s->kind != FT_WORD && s->kind != FT_STR)
		return fsyntax(t, s, "expected a value", err);
	fnext(s);
	return 0;
}

/* TERM ( (&& | ||) TERM )* */
static int fexpr(const struct kmag__trigger *t, struct tep_event *te, struct fscan *s,
		 struct kmag_err *err)
{
	int ret = fterm(t, te, s, err);

	while (!ret && s->kind == FT_LOGIC) {
		fnext(s);
		ret = fterm(t, te, s, err);
	}
	return ret;
}

static int check_syntax(const struct kmag__trigger *t, struct tep_event *te,
			struct kmag_err *err)
{
	struct fscan s = { .p = t->filter };
	int ret;

	fnext(&s);
	ret = fexpr(t, te, &s, err);
	if (!ret && s.kind != FT_END)
		ret = fsyntax(t, &s, s.kind == FT_RP ? "unbalanced )" : "expected && or ||", err);
	return ret;
}

int kmag__trigger_check_filter(const struct kmag__trigger *t, struct tep_event *te,
			       struct kmag_err *err)
{
	struct tep_event_filter *f;
	int ret;

	if (t->kind != KMAG_TRIG_EVENT || !t->filter)
		return 0;
	if ((ret = check_syntax(t, te, err)))
		return ret;
	f = compile_filter(t, te, err);
	if (!f)
		return -EINVAL;
	tep_filter_free(f);
	return 0;
}

/* ------------------------------------------------------------ watching */

enum { FN_UNKNOWN = 0, FN_NO, FN_YES };

/* Does a trigger's FUNC name a function? Asked once per function id. */
struct fn_match {
	uint8_t *v;		/* func id -> FN_UNKNOWN, FN_NO, FN_YES */
	size_t n;
};

struct kmag__watch {
	const struct kmag__trigger *t;
	size_t n;
	struct kmag_symtab *st;
	kmag__event_format_fn format;
	void *format_ctx;
	struct kmag_errors *errors;	/* only its errno of a call (the errors view's reading) */
	struct kmag_replay *replay;
	struct kmag_replay_ops ops;
	struct tep_event_filter **filters;	/* per trigger, compiled on first use */
	bool *filter_failed;
	struct fn_match *fn_match;	/* per trigger */
	uint64_t cur_ts;		/* of the event being fed */
	struct kmag__fire fire;
	bool armed;			/* a window is open */
	uint64_t matches;
	int error;
};

/* Does @name (a kallsyms name, maybe "foo.isra.0") name the function @want? */
static bool same_function(const char *name, const char *want)
{
	size_t n = strlen(want);

	return name && !strncmp(name, want, n) && (name[n] == '\0' || name[n] == '.');
}

static bool func_matches(struct kmag__watch *w, size_t i, kmag_func_t func)
{
	struct fn_match *m = &w->fn_match[i];
	bool yes;

	if (!w->t[i].func)
		return true;
	if (func < m->n && m->v[func] != FN_UNKNOWN)
		return m->v[func] == FN_YES;
	yes = same_function(kmag_symtab_name(w->st, func), w->t[i].func);
	if (func >= m->n) {
		size_t cap = m->n;

		if (kmag__grow(&m->v, &cap, (size_t)func + 1, 1))
			return yes;	/* asked again next time */
		memset(m->v + m->n, FN_UNKNOWN, cap - m->n);
		m->n = cap;
	}
	m->v[func] = yes ? FN_YES : FN_NO;
	return yes;
}

/*
 * The outermost call open on the task of the event being replayed (the
 * root of the chain around a match; a leaving call is no longer open), or
 * NULL: the replay's own stack.
 */
static const struct kmag_call *root_of(const struct kmag__watch *w)
{
	return kmag_replay_open(w->replay, 0);
}

/*
 * A match of trigger @i at the current event: opens a window (returns true)
 * or counts in the open one. @root is the outermost call open on the task,
 * or NULL.
 */
static bool fire(struct kmag__watch *w, size_t i, const struct kmag_call *root)
{
	w->matches++;
	if (w->armed) {
		w->fire.more++;
		return false;
	}
	w->armed = true;
	w->fire.trigger = i;
	w->fire.ts = w->cur_ts;
	w->fire.more = 0;
	w->fire.root_func = KMAG_FUNC_NONE;
	w->fire.root_id = 0;
	w->fire.root_start_ns = w->cur_ts;
	w->fire.root_open = false;
	w->fire.root_end_ns = w->cur_ts;
	w->fire.root_duration = KMAG_DURATION_NONE;
	if (root) {
		w->fire.root_func = root->func;
		w->fire.root_id = root->id;
		w->fire.root_start_ns = root->flags & KMAG_CALL_NO_ENTRY ? KMAG_TS_NONE :
									    root->start_ns;
		w->fire.root_open = true;
	}
	return true;
}

/* A placeholder was named: the open window's root may be it. */
static int on_named(void *ctx, const struct kmag_call *call, void *data,
		    const struct kmag_call *parent, void *parent_data)
{
	struct kmag__watch *w = ctx;

	(void)data;
	(void)parent;
	(void)parent_data;
	if (w->armed && w->fire.root_id == call->id)
		w->fire.root_func = call->func;
	return 0;
}

/* The match of trigger @i (ERROR or SLOW) on the call @c leaving. */
static bool call_matches(struct kmag__watch *w, size_t i, const struct kmag_call *c, int *errnum)
{
	const struct kmag__trigger *t = &w->t[i];

	if (c->func == KMAG_FUNC_NONE || !func_matches(w, i, c->func))
		return false;
	if (t->kind == KMAG_TRIG_SLOW)
		return c->duration != KMAG_DURATION_NONE && c->duration > t->min_ns;
	/* by its return type when the BTF has it, as `kmag errors` reads it */
	*errnum = kmag_errors_call_errno(w->errors, c);
	return *errnum && (!t->errnum || *errnum == t->errnum);
}

static int on_leave(void *ctx, const struct kmag_call *call, void *data,
		    const struct kmag_call *parent, void *parent_data)
{
	struct kmag__watch *w = ctx;
	size_t i;

	(void)data;
	(void)parent;
	(void)parent_data;
	for (i = 0; i < w->n; i++) {
		int errnum = 0;

		if (w->t[i].kind == KMAG_TRIG_EVENT || !call_matches(w, i, call, &errnum) ||
		    !fire(w, i, root_of(w)))
			continue;
		w->fire.pid = call->pid;
		w->fire.cpu = call->cpu;
		w->fire.func = call->func;
		w->fire.start_ns = call->start_ns;
		w->fire.duration = call->duration;
		w->fire.errnum = errnum;
		w->fire.retval = call->retval;
		w->fire.depth = (uint32_t)kmag_replay_nr_open(w->replay);
		w->fire.event_system = w->fire.event_name = NULL;
		if (!w->fire.root_open) {
			/* no caller open: the chain is the call itself */
			w->fire.root_func = call->func;
			w->fire.root_id = call->id;
			w->fire.root_start_ns = call->flags & KMAG_CALL_NO_ENTRY ? KMAG_TS_NONE :
										    call->start_ns;
			w->fire.root_end_ns = w->cur_ts;
			w->fire.root_duration = call->duration;
		}
	}
	if (w->armed && w->fire.root_open && w->fire.root_id == call->id) {
		w->fire.root_open = false;
		w->fire.root_end_ns = w->cur_ts;
		w->fire.root_duration = call->duration;
	}
	return 0;
}

static bool event_matches(struct kmag__watch *w, size_t i, const struct kmag_event *ev)
{
	const struct kmag__trigger *t = &w->t[i];
	struct tep_record rec;
	struct tep_event *te;

	if (!ev->event_name || !ev->event_system || strcmp(ev->event_name, t->event) ||
	    strcmp(ev->event_system, t->system))
		return false;
	if (!t->filter)
		return true;
	if (!w->filters[i] && !w->filter_failed[i]) {
		struct kmag_err e = { 0 };

		te = w->format ? w->format(w->format_ctx, ev->event_id) : NULL;
		w->filters[i] = te ? compile_filter(t, te, &e) : NULL;
		if (!w->filters[i]) {
			w->filter_failed[i] = true;
			pr_warn("%s", te ? e.msg : "an event trigger's format is unknown");
		}
	}
	if (!w->filters[i] || !ev->raw)
		return false;
	memset(&rec, 0, sizeof(rec));
	rec.ts = ev->ts;
	rec.cpu = ev->cpu;
	rec.data = (void *)(uintptr_t)ev->raw;
	rec.size = (int)ev->raw_size;
	rec.record_size = (int)ev->raw_size;
	return tep_filter_match(w->filters[i], &rec) == TEP_ERRNO__FILTER_MATCH;
}

static int on_event(void *ctx, const struct kmag_event *ev)
{
	struct kmag__watch *w = ctx;
	size_t i;

	if (ev->type != KMAG_EV_OTHER)
		return 0;
	for (i = 0; i < w->n; i++) {
		if (w->t[i].kind != KMAG_TRIG_EVENT || !event_matches(w, i, ev) ||
		    !fire(w, i, root_of(w)))
			continue;
		w->fire.pid = ev->pid;
		w->fire.cpu = ev->cpu;
		w->fire.func = KMAG_FUNC_NONE;
		w->fire.start_ns = ev->ts;
		w->fire.duration = KMAG_DURATION_NONE;
		w->fire.errnum = 0;
		w->fire.depth = 0;
		w->fire.event_system = ev->event_system;
		w->fire.event_name = ev->event_name;
	}
	return 0;
}

struct kmag__watch *kmag__watch_new(const struct kmag__trigger *t, size_t n,
				    struct kmag_symtab *st, kmag__event_format_fn format,
				    void *format_ctx, const struct kmag_btf *btf,
				    struct kmag_err *err)
{
	struct kmag__watch *w = calloc(1, sizeof(*w));

	if (!w)
		goto nomem;
	w->t = t;
	w->n = n;
	w->st = st;
	w->format = format;
	w->format_ctx = format_ctx;
	w->filters = calloc(n + 1, sizeof(*w->filters));
	w->filter_failed = calloc(n + 1, sizeof(*w->filter_failed));
	w->fn_match = calloc(n + 1, sizeof(*w->fn_match));
	w->replay = kmag_replay_new();
	w->errors = kmag_errors_new(st);
	if (!w->filters || !w->filter_failed || !w->fn_match || !w->replay || !w->errors)
		goto nomem;
	/* (never subscribed: the trigger asks it only for a call's errno) */
	kmag_errors_use_btf(w->errors, btf);
	w->ops = (struct kmag_replay_ops){ .named = on_named,
					   .leave = on_leave, .event = on_event };
	if (kmag_replay_subscribe(w->replay, &w->ops, w))
		goto nomem;
	return w;
nomem:
	kmag__watch_free(w);
	kmag_err_set(err, ENOMEM, "out of memory");
	return NULL;
}

void kmag__watch_free(struct kmag__watch *w)
{
	size_t i;

	if (!w)
		return;
	kmag_replay_free(w->replay);
	for (i = 0; w->filters && i < w->n; i++)
		if (w->filters[i])
			tep_filter_free(w->filters[i]);
	for (i = 0; w->fn_match && i < w->n; i++)
		free(w->fn_match[i].v);
	kmag_errors_free(w->errors);
	free(w->filters);
	free(w->filter_failed);
	free(w->fn_match);
	free(w);
}

int kmag__watch_add(struct kmag__watch *w, const struct kmag_event *ev)
{
	bool was = w->armed;
	int ret;

	w->cur_ts = ev->ts;
	ret = kmag_replay_add(w->replay, ev);
	if (ret < 0)
		return ret;
	return !was && w->armed ? 1 : 0;
}

const struct kmag__fire *kmag__watch_fire(const struct kmag__watch *w)
{
	return w->armed ? &w->fire : NULL;
}

void kmag__watch_rearm(struct kmag__watch *w)
{
	w->armed = false;
}

uint64_t kmag__watch_matches(const struct kmag__watch *w)
{
	return w->matches;
}
