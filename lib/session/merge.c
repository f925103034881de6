// SPDX-License-Identifier: MIT
/*
 * merge.c - the sum of many recordings' profiles (merge.h). The sums are
 * kmag_cg_merge()'s (lib/analysis/profile.c); here: which recordings were
 * summed, the source files their inputs named, the kernel they share.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmag/merge.h"
#include "kmag/profile.h"
#include "kmag/session.h"
#include "kmag/symmap.h"

struct kmag_merge {
	struct kmag_cg *cg;
	struct kmag_symtab *st;
	struct kmag_trace_source *src;	/* strings owned */
	size_t nr_src;
	enum kmag_tracer tracer;
	const char *tracer_from;	/* the first input with a function tracer (owned) */
	struct kmag_trace_info info;	/* filled by kmag_merge_finish() */
	/* source files of the functions, where an input names them (the first one wins) */
	struct kmag_symmap *files;
	struct kmag_srcloc *loc;	/* of files, by kmag_merge_finish() */
	unsigned char *has_file;	/* per function id of st */
	size_t cap_has_file;
};

static int nomem(struct kmag_err *err)
{
	return kmag_err_set(err, ENOMEM, "out of memory");
}

struct kmag_merge *kmag_merge_new(void)
{
	struct kmag_merge *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->cg = kmag_cg_new(&(struct kmag_cg_opts){ .durations = true });
	m->st = kmag_symtab_new();
	m->info = (struct kmag_trace_info){
		.format = KMAG_INPUT_PROFILE,
		.tracer = KMAG_TRACER_EVENTS,
		.first_ts = KMAG_TS_NONE,	/* clocks of different machines do not compare */
		.last_ts = KMAG_TS_NONE,
	};
	if (!m->cg || !m->st) {
		kmag_merge_free(m);
		errno = ENOMEM;
		return NULL;
	}
	return m;
}

void kmag_merge_free(struct kmag_merge *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nr_src; i++) {
		free((char *)m->src[i].name);
		free((char *)m->src[i].uname);
		free((char *)m->src[i].tracer);
	}
	free(m->src);
	free((char *)m->tracer_from);
	free(m->has_file);
	kmag_srcloc_free(m->loc);
	kmag_symmap_free(m->files);
	kmag_cg_free(m->cg);
	kmag_symtab_free(m->st);
	free(m);
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static int add_source(struct kmag_merge *m, const struct kmag_trace_source *s, struct kmag_err *err)
{
	struct kmag_trace_source *d;
	struct kmag_trace_source *grown = realloc(m->src, (m->nr_src + 1) * sizeof(*m->src));

	if (!grown)
		return nomem(err);
	m->src = grown;
	d = &m->src[m->nr_src];
	*d = *s;
	d->name = strdup(s->name);
	d->uname = dup_or_null(s->uname);
	d->tracer = dup_or_null(s->tracer);
	m->nr_src++;
	if (!d->name || (s->uname && !d->uname) || (s->tracer && !d->tracer))
		return nomem(err);
	return 0;
}

/* function and function_graph sums do not mix: one has times and call chains, the other not */
static int check_tracer(struct kmag_merge *m, const char *path, enum kmag_tracer t,
			struct kmag_err *err)
{
	if (t != KMAG_TRACER_FUNCTION && t != KMAG_TRACER_FUNCTION_GRAPH)
		return 0;
	if (m->tracer_from && t != m->tracer)
		return kmag_err_set(err, EINVAL,
				    "%s was recorded with the %s tracer but %s with %s: merge recordings of one tracer",
				    path, kmag_tracer_name(t), m->tracer_from, kmag_tracer_name(m->tracer));
	if (!m->tracer_from) {
		if (!(m->tracer_from = strdup(path)))
			return nomem(err);
		m->tracer = t;
	}
	return 0;
}

/* Marks function @f of the sum as named by an input; false when one already was. */
static int claim_file(struct kmag_merge *m, kmag_func_t f, bool *first)
{
	size_t old = m->cap_has_file;

	if (f >= old) {
		size_t cap = (size_t)f * 2 + 64;
		unsigned char *grown = realloc(m->has_file, cap);

		if (!grown)
			return -ENOMEM;
		memset(grown + old, 0, cap - old);
		m->has_file = grown;
		m->cap_has_file = cap;
	}
	*first = !m->has_file[f];
	m->has_file[f] = 1;
	return 0;
}

/*
 * Keeps the source file of each of @s's functions that its symbol map (or
 * the files its profile names) knows and no earlier input did.
 */
static int add_files(struct kmag_merge *m, const struct kmag_session *s, struct kmag_err *err)
{
	const struct kmag_cg *cg = kmag_session_graph(s);
	const struct kmag_cg_node *nodes = kmag_cg_nodes(cg);
	const struct kmag_symtab *st = kmag_session_symtab(s);
	struct kmag_srcloc *loc = kmag_session_srcloc(s);
	size_t i;

	for (i = 0; loc && i < kmag_cg_nr_nodes(cg); i++) {
		const struct kmag_symmap_entry *e = kmag_srcloc_entry(loc, nodes[i].func, NULL);
		const char *name = kmag_symtab_name(st, nodes[i].func);
		kmag_func_t f = name ? kmag_symtab_find(m->st, name) : KMAG_FUNC_NONE;
		struct kmag_symmap_entry copy;
		bool first;

		if (!e || f == KMAG_FUNC_NONE)
			continue;
		if (claim_file(m, f, &first))
			return nomem(err);
		if (!first)
			continue;
		copy = (struct kmag_symmap_entry){ .name = name, .file = e->file, .line = e->line,
						   .module = e->module };
		if ((!m->files && !(m->files = kmag_symmap_new())) || kmag_symmap_add(m->files, &copy))
			return nomem(err);
	}
	return 0;
}

/* Adds @s's recordings: a profile's own, or the trace as one. */
static int add_sources(struct kmag_merge *m, const struct kmag_session *s, const char *path,
		       struct kmag_err *err)
{
	const struct kmag_trace_info *info = kmag_session_info(s);
	const struct kmag_cg *cg = kmag_session_graph(s);
	const struct kmag_cg_node *nodes = kmag_cg_nodes(cg);
	struct kmag_trace_source one = { .name = path, .uname = info->uname,
					 .tracer = kmag_tracer_name(info->tracer),
					 .events = info->events, .lost = info->lost,
					 .tracer_cost_ns = kmag_session_tracer_cost(s) };
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < info->nr_sources; i++)
		ret = add_source(m, &info->sources[i], err);
	if (ret || info->nr_sources)
		return ret;
	for (i = 0; i < kmag_cg_nr_nodes(cg); i++)
		one.calls += nodes[i].st.calls;
	return add_source(m, &one, err);
}

int kmag_merge_add(struct kmag_merge *m, const struct kmag_session *s, const char *path,
		   struct kmag_err *err)
{
	const struct kmag_trace_info *info = kmag_session_info(s);
	int ret = check_tracer(m, path, info->tracer, err);

	if (!ret && kmag_cg_merge(m->cg, m->st, kmag_session_graph(s), kmag_session_symtab(s)))
		ret = nomem(err);
	if (!ret)
		ret = add_files(m, s, err);
	if (!ret)
		ret = add_sources(m, s, path, err);
	m->info.events += info->events;
	m->info.lost += info->lost;
	m->info.lost_unknown |= info->lost_unknown;
	return ret;
}

static bool same_release(const char *u1, const char *u2)
{
	char a[128], b[128];

	return !strcmp(kmag_uname_release(u1, a, sizeof(a)), kmag_uname_release(u2, b, sizeof(b)));
}

bool kmag_merge_kernels(const struct kmag_merge *m, char *buf, size_t size)
{
	size_t i, j, len = 0;
	bool differ = false;
	char a[128];

#define PUT(...) (len += (size_t)snprintf(buf + len, len < size ? size - len : 0, __VA_ARGS__))
	/* the rule diff follows: an input that names no kernel differs from none */
	for (i = 0; i < m->nr_src; i++)
		for (j = i + 1; j < m->nr_src; j++)
			differ |= kmag_uname_differ(m->src[i].uname, m->src[j].uname);
	if (!differ || !size)
		return differ;
	/* one group per kernel, in first-seen order */
	buf[0] = '\0';
	for (i = 0; i < m->nr_src; i++) {
		bool seen = false;

		for (j = 0; j < i && !seen; j++)
			seen = same_release(m->src[i].uname, m->src[j].uname);
		if (seen)
			continue;
		PUT("%s%s (", i ? "; " : "", kmag_uname_release(m->src[i].uname, a, sizeof(a)));
		for (j = i; j < m->nr_src; j++)
			if (same_release(m->src[i].uname, m->src[j].uname))
				PUT("%s%s", j == i ? "" : ", ", m->src[j].name);
		PUT(")");
	}
#undef PUT
	return true;
}

/* The uname of the first input that names its kernel (they all name the same), or NULL. */
static const char *shared_uname(const struct kmag_merge *m)
{
	char rel[128];
	size_t i;

	for (i = 0; i < m->nr_src; i++)
		if (m->src[i].uname &&
		    strcmp(kmag_uname_release(m->src[i].uname, rel, sizeof(rel)), "unknown"))
			return m->src[i].uname;
	return NULL;
}

int kmag_merge_finish(struct kmag_merge *m, struct kmag_err *err)
{
	char note[8];

	if (kmag_cg_finish(m->cg))
		return nomem(err);
	if (m->tracer_from)
		m->info.tracer = m->tracer;
	m->info.lost_unattributed = m->info.lost;
	m->info.sources = m->src;
	m->info.nr_sources = m->nr_src;
	m->info.uname = kmag_merge_kernels(m, note, sizeof(note)) ? NULL : shared_uname(m);
	m->info.has_durations = kmag_cg_summary(m->cg)->has_time;
	if (m->files && !(m->loc = kmag_srcloc_new(m->files, m->st)))
		return nomem(err);
	return 0;
}

const struct kmag_cg *kmag_merge_graph(const struct kmag_merge *m)
{
	return m->cg;
}

const struct kmag_symtab *kmag_merge_symtab(const struct kmag_merge *m)
{
	return m->st;
}

const struct kmag_trace_info *kmag_merge_info(const struct kmag_merge *m)
{
	return &m->info;
}

struct kmag_srcloc *kmag_merge_srcloc(const struct kmag_merge *m)
{
	return m->loc;
}
