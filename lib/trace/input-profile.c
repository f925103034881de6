// SPDX-License-Identifier: MIT
/*
 * input-profile.c - a kmag profile as input: the JSON of `kmag report
 * --format json` or `kmag merge`, sums of calls per function and per call edge
 * with no events. Opening it parses everything (names into the trace's
 * symtab); kmag_trace_read() delivers no event; lib/analysis/profile.c builds
 * the call graph from the sums.
 *
 * JSON is parsed with Jansson (Debian's libjansson): a strict RFC 8259 parser
 * with 64-bit integers (json_int_t is long long, so nanosecond sums do not
 * lose digits as doubles would) and errors with line and column, which the
 * one-line message passes on. We do not write a JSON parser of our own.
 */
#define PR_DOMAIN "profile"
#include <jansson.h>
#include <stdio.h>

#include "trace-internal.h"
#include "profile-data.h"

struct profile_input {
	struct kmag__profile p;
	char *uname;
};

/* Only integers >= 0 are counts; anything else makes the profile invalid. */
static bool get_u64(json_t *obj, const char *key, bool null_ok, uint64_t *out)
{
	json_t *v = json_object_get(obj, key);

	if (null_ok && (!v || json_is_null(v))) {
		*out = 0;
		return true;
	}
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return false;
	*out = (uint64_t)json_integer_value(v);
	return true;
}

static char *dup_string(json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? strdup(s) : NULL;
}

/* The stats of a function or an edge; false when a field is missing or not a count. */
static bool get_stats(json_t *o, struct kmag_cg_stats *st)
{
	uint64_t min;

	memset(st, 0, sizeof(*st));
	if (!get_u64(o, "calls", false, &st->calls) || !get_u64(o, "timed", false, &st->timed) ||
	    !get_u64(o, "total_ns", true, &st->total_ns) ||
	    !get_u64(o, "self_ns", true, &st->self_ns) || !get_u64(o, "min_ns", true, &min) ||
	    !get_u64(o, "max_ns", true, &st->max_ns) ||
	    !get_u64(o, "incomplete", false, &st->incomplete))
		return false;
	st->min_ns = st->timed ? min : UINT64_MAX;
	/*
	 * All timed calls' durations (the mean's numerator): a function's
	 * sum_ns, else (a report before it had one) avg_ns times its timed
	 * calls, which gives back the same mean; an edge counts every call in
	 * its total.
	 */
	if (json_object_get(o, "sum_ns")) {
		if (!get_u64(o, "sum_ns", true, &st->sum_ns))
			return false;
	} else if (json_object_get(o, "avg_ns")) {
		uint64_t avg;

		if (!get_u64(o, "avg_ns", true, &avg))
			return false;
		st->sum_ns = avg * st->timed;
	} else {
		st->sum_ns = st->total_ns;
	}
	return st->timed <= st->calls;
}

static kmag_func_t get_func(struct kmag_trace *t, json_t *o, const char *key)
{
	const char *name = json_string_value(json_object_get(o, key));

	return name && *name ? kmag_symtab_intern(t->st, name, (size_t)-1) : KMAG_FUNC_NONE;
}

static int bad(struct kmag_trace *t, struct kmag_err *err, const char *what, size_t i)
{
	return kmag_err_set(err, EINVAL, "%s: not a valid kmag profile: %s %zu has a missing or bad field",
			    t->path, what, i + 1);
}

/*
 * "source": "net/ipv4/tcp.c:1490" (report's file:line, from a symbol map;
 * " (+2 more)" when the name was in several files) into file and line.
 */
static int parse_source(json_t *o, struct kmag__profile_func *f)
{
	const char *src = json_string_value(json_object_get(o, "source"));
	const char *more, *colon;
	size_t len;
	char *end;

	if (json_is_string(json_object_get(o, "module")) && !(f->module = dup_string(o, "module")))
		return -ENOMEM;
	if (!src || !*src)
		return 0;
	more = strstr(src, " (+");
	len = more ? (size_t)(more - src) : strlen(src);
	colon = memrchr(src, ':', len);
	if (colon && colon[1] >= '0' && colon[1] <= '9') {
		unsigned long line = strtoul(colon + 1, &end, 10);

		if (end == src + len && line <= UINT32_MAX) {
			f->line = (uint32_t)line;
			len = (size_t)(colon - src);
		}
	}
	f->file = strndup(src, len);
	return f->file ? 0 : -ENOMEM;
}

static int parse_functions(struct kmag_trace *t, struct kmag__profile *p, json_t *arr,
			   struct kmag_err *err)
{
	size_t i;
	json_t *o;

	p->funcs = calloc(json_array_size(arr) + 1, sizeof(*p->funcs));
	if (!p->funcs)
		return kmag_err_set(err, ENOMEM, "out of memory");
	json_array_foreach(arr, i, o) {
		struct kmag__profile_func *f = &p->funcs[p->nr_funcs];

		if (!json_is_object(o) || !get_stats(o, &f->st))
			return bad(t, err, "function", i);
		f->func = get_func(t, o, "name");
		if (f->func == KMAG_FUNC_NONE)
			return bad(t, err, "function", i);
		p->nr_funcs++;
		if (parse_source(o, f))
			return kmag_err_set(err, ENOMEM, "out of memory");
	}
	return 0;
}

static int parse_edges(struct kmag_trace *t, struct kmag__profile *p, json_t *arr,
		       struct kmag_err *err)
{
	size_t i;
	json_t *o;

	p->edges = calloc(json_array_size(arr) + 1, sizeof(*p->edges));
	if (!p->edges)
		return kmag_err_set(err, ENOMEM, "out of memory");
	json_array_foreach(arr, i, o) {
		struct kmag__profile_edge *e = &p->edges[p->nr_edges];

		if (!json_is_object(o) || !get_stats(o, &e->st))
			return bad(t, err, "edge", i);
		e->caller = get_func(t, o, "caller");
		e->callee = get_func(t, o, "callee");
		if (e->caller == KMAG_FUNC_NONE || e->callee == KMAG_FUNC_NONE)
			return bad(t, err, "edge", i);
		e->flags = json_is_true(json_object_get(o, "interrupt")) ? KMAG_EDGE_IRQ : 0;
		p->nr_edges++;
	}
	return 0;
}

static int parse_evcounts(struct kmag_trace *t, struct kmag__profile *p, json_t *arr,
			  struct kmag_err *err)
{
	size_t i;
	json_t *o;

	p->evcounts = calloc(json_array_size(arr) + 1, sizeof(*p->evcounts));
	if (!p->evcounts)
		return kmag_err_set(err, ENOMEM, "out of memory");
	json_array_foreach(arr, i, o) {
		struct kmag__profile_evcount *c = &p->evcounts[p->nr_evcounts];

		if (!json_is_object(o) || !json_is_string(json_object_get(o, "name")) ||
		    !get_u64(o, "count", false, &c->count))
			return bad(t, err, "other event", i);
		c->system = dup_string(o, "system");
		c->name = dup_string(o, "name");
		p->nr_evcounts++;
		if (!c->name)
			return kmag_err_set(err, ENOMEM, "out of memory");
	}
	return 0;
}

/*
 * The recordings summed. Each says the tracer's cost taken off its times; a
 * profile written before sources did says it once (tracer_cost_ns at the top
 * level, @top), which is its one recording's.
 */
static int parse_sources(struct kmag_trace *t, struct kmag__profile *p, json_t *arr, uint64_t top,
			 struct kmag_err *err)
{
	size_t i;
	json_t *o;

	p->sources = calloc(json_array_size(arr) + 1, sizeof(*p->sources));
	if (!p->sources)
		return kmag_err_set(err, ENOMEM, "out of memory");
	json_array_foreach(arr, i, o) {
		struct kmag_trace_source *s = &p->sources[p->nr_sources];

		if (!json_is_object(o) || !json_is_string(json_object_get(o, "name")) ||
		    !get_u64(o, "events", false, &s->events) ||
		    !get_u64(o, "lost_events", false, &s->lost) ||
		    !get_u64(o, "calls", false, &s->calls) ||
		    !get_u64(o, "tracer_cost_ns", true, &s->tracer_cost_ns))
			return bad(t, err, "source", i);
		if (!json_object_get(o, "tracer_cost_ns") && json_array_size(arr) == 1)
			s->tracer_cost_ns = top;
		s->name = dup_string(o, "name");
		s->uname = dup_string(o, "uname");
		s->tracer = dup_string(o, "tracer");
		p->nr_sources++;
		if (!s->name)
			return kmag_err_set(err, ENOMEM, "out of memory");
	}
	return 0;
}

static enum kmag_tracer tracer_of(const char *name)
{
	enum kmag_tracer tr;

	for (tr = KMAG_TRACER_FUNCTION; name && tr <= KMAG_TRACER_EVENTS; tr++)
		if (!strcmp(name, kmag_tracer_name(tr)))
			return tr;
	return KMAG_TRACER_UNKNOWN;
}

/* The top level: what makes it a profile, then its parts. */
static int parse_profile(struct kmag_trace *t, struct profile_input *in, json_t *root,
			 struct kmag_err *err)
{
	struct kmag__profile *p = &in->p;
	json_t *funcs = json_object_get(root, "functions"), *edges = json_object_get(root, "edges");
	json_t *sources = json_object_get(root, "sources"), *evs = json_object_get(root, "other_events");
	uint64_t v, cost;
	int ret;

	if (!json_is_object(root) || !json_is_array(funcs) || !json_is_array(edges))
		return kmag_err_set(err, EINVAL,
				    "%s is JSON but not a kmag profile (no \"functions\" and \"edges\"); merge and the analysis commands read traces, `kmag report --format json` and `kmag merge` output",
				    t->path);
	if (!get_u64(root, "kmag_profile", false, &v) || !json_is_array(sources))
		return kmag_err_set(err, EINVAL,
				    "%s is a report of an older kmag, without the counts a profile needs; write it again with `kmag report --format json --limit 0`",
				    t->path);
	if (v != 1)
		return kmag_err_set(err, EINVAL, "%s is a kmag profile of version %llu; this kmag reads version 1",
				    t->path, (unsigned long long)v);
	if (!json_is_true(json_object_get(root, "complete")))
		return kmag_err_set(err, EINVAL,
				    "%s lists only part of its functions (report --limit, --callers or --callees); write it with `kmag report --format json --limit 0`",
				    t->path);
	if (!get_u64(root, "tracer_cost_ns", true, &cost))
		return kmag_err_set(err, EINVAL, "%s: not a valid kmag profile: tracer_cost_ns is not a count",
				    t->path);
	if ((ret = parse_functions(t, p, funcs, err)) || (ret = parse_edges(t, p, edges, err)) ||
	    (ret = parse_sources(t, p, sources, cost, err)) ||
	    (json_is_array(evs) && (ret = parse_evcounts(t, p, evs, err))))
		return ret;
	if (!get_u64(root, "events", false, &t->info.events) ||
	    !get_u64(root, "lost_events", false, &t->info.lost_unattributed) ||
	    !get_u64(root, "incomplete_calls", false, &p->sum.incomplete_calls) ||
	    !get_u64(root, "unmatched_exits", false, &p->sum.unmatched_exits))
		return kmag_err_set(err, EINVAL, "%s: not a valid kmag profile: a count at the top level is missing or bad",
				    t->path);
	p->sum.events = t->info.events;
	for (size_t i = 0; i < p->nr_evcounts; i++)
		p->sum.other_events += p->evcounts[i].count;
	p->sum.func_events = p->sum.events >= p->sum.other_events ?
				     p->sum.events - p->sum.other_events : 0;
	p->sum.has_time = json_is_true(json_object_get(root, "has_time"));
	p->sum.has_stacks = json_is_true(json_object_get(root, "has_stacks"));
	t->info.tracer = tracer_of(json_string_value(json_object_get(root, "tracer")));
	t->info.has_durations = p->sum.has_time;
	t->info.lost_unknown = json_is_true(json_object_get(root, "lost_events_unknown"));
	if (get_u64(root, "time_start_ns", false, &v))
		t->info.first_ts = v;
	if (get_u64(root, "time_end_ns", false, &v))
		t->info.last_ts = v;
	in->uname = dup_string(root, "uname");
	t->info.uname = in->uname;
	t->info.sources = p->sources;
	t->info.nr_sources = p->nr_sources;
	return 0;
}

/* Everything was read at open: the events were summed before the profile was written. */
static int profile_read(struct kmag_trace *t, struct kmag_err *err)
{
	(void)t;
	(void)err;
	return 0;
}

static void profile_close(struct kmag_trace *t)
{
	struct profile_input *in = t->priv;
	size_t i;

	if (!in)
		return;
	for (i = 0; i < in->p.nr_evcounts; i++) {
		free(in->p.evcounts[i].system);
		free(in->p.evcounts[i].name);
	}
	for (i = 0; i < in->p.nr_sources; i++) {
		free((char *)in->p.sources[i].name);
		free((char *)in->p.sources[i].uname);
		free((char *)in->p.sources[i].tracer);
	}
	for (i = 0; i < in->p.nr_funcs; i++) {
		free(in->p.funcs[i].file);
		free(in->p.funcs[i].module);
	}
	free(in->p.funcs);
	free(in->p.edges);
	free(in->p.evcounts);
	free(in->p.sources);
	free(in->uname);
	free(in);
	t->priv = NULL;
}

const struct kmag_input_ops kmag__input_profile = {
	.name = "kmag profile",
	.read = profile_read,
	.close = profile_close,
};

const struct kmag__profile *kmag__trace_profile(const struct kmag_trace *t)
{
	return t->ops == &kmag__input_profile ? &((struct profile_input *)t->priv)->p : NULL;
}

bool kmag__profile_magic(const void *buf, size_t len)
{
	const unsigned char *b = buf;
	size_t i;

	/* no trace format kmag reads starts with '{' */
	for (i = 0; i < len && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r'); i++)
		;
	return i < len && b[i] == '{';
}

int kmag__profile_input_open(struct kmag_trace *t, struct kmag_err *err)
{
	struct profile_input *in = calloc(1, sizeof(*in));
	json_error_t jerr;
	json_t *root;
	int ret;

	if (!in)
		return kmag_err_set(err, ENOMEM, "out of memory");
	t->ops = &kmag__input_profile;
	t->priv = in;
	t->info.format = KMAG_INPUT_PROFILE;
	root = json_load_file(t->path, 0, &jerr);
	if (!root) {
		if (json_error_code(&jerr) == json_error_out_of_memory)
			return kmag_err_set(err, ENOMEM, "out of memory");
		if (json_error_code(&jerr) == json_error_cannot_open_file)
			return kmag_err_set(err, EIO, "cannot read %s: %s", t->path, jerr.text);
		return kmag_err_set(err, EINVAL, "%s is not valid JSON (line %d, column %d: %s)%s",
				    t->path, jerr.line, jerr.column, jerr.text,
				    json_error_code(&jerr) == json_error_premature_end_of_input ?
					    "; is it truncated?" : "");
	}
	ret = parse_profile(t, in, root, err);
	json_decref(root);
	return ret;
}
