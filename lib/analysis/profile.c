// SPDX-License-Identifier: MIT
/*
 * profile.c - call graphs made of sums: a profile read back
 * (trace/input-profile.c parsed it) and the merge of many graphs by name.
 */
#define PR_DOMAIN "profile"
#include "callgraph-internal.h"
#include "kmag/profile.h"
#include "trace/profile-data.h"

int kmag_cg_add_node_stats(struct kmag_cg *cg, kmag_func_t func, const struct kmag_cg_stats *st)
{
	uint32_t n = kmag__cg_node_get(cg, func);

	if (n == NONE32)
		return -ENOMEM;
	stats_merge(&cg->nodes[n].st, st);
	return 0;
}

int kmag_cg_add_edge_stats(struct kmag_cg *cg, kmag_func_t caller, kmag_func_t callee,
			   uint32_t flags, const struct kmag_cg_stats *st)
{
	uint32_t from = kmag__cg_node_get(cg, caller);
	uint32_t to = from == NONE32 ? NONE32 : kmag__cg_node_get(cg, callee);
	uint32_t e = to == NONE32 ? NONE32 : kmag__cg_edge_get(cg, from, to);

	if (e == NONE32)
		return -ENOMEM;
	stats_merge(&cg->edges[e].st, st);
	cg->edges[e].flags |= flags;
	return 0;
}

static char *own(struct kmag_cg *cg, const char *s)
{
	char *copy;

	if (!s)
		return NULL;
	if (kmag__grow(&cg->owned, &cg->cap_owned, cg->nr_owned + 1, sizeof(*cg->owned)) ||
	    !(copy = strdup(s)))
		return NULL;
	cg->owned[cg->nr_owned++] = copy;
	return copy;
}

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

int kmag_cg_add_event_count(struct kmag_cg *cg, const char *system, const char *name,
			    uint64_t count)
{
	struct kmag_cg_event_count *c;
	size_t i;

	/* event names are few (tens): a linear search is enough */
	for (i = 0; i < cg->nr_evcounts; i++) {
		c = &cg->evcounts[i];
		if (same(c->system, system) && same(c->name, name)) {
			c->count += count;
			return 0;
		}
	}
	if (kmag__grow(&cg->evcounts, &cg->cap_evcounts, cg->nr_evcounts + 1,
		       sizeof(*cg->evcounts)))
		return -ENOMEM;
	c = &cg->evcounts[cg->nr_evcounts];
	c->system = own(cg, system);
	c->name = own(cg, name);
	c->count = count;
	if ((system && !c->system) || !c->name)
		return -ENOMEM;
	cg->nr_evcounts++;
	return 0;
}

void kmag_cg_add_summary(struct kmag_cg *cg, const struct kmag_cg_summary *s)
{
	struct kmag_cg_summary *d = &cg->sum;

	d->events += s->events;
	d->func_events += s->func_events;
	d->lost_markers += s->lost_markers;
	d->unmatched_exits += s->unmatched_exits;
	d->unfinished_entries += s->unfinished_entries;
	d->tasks += s->tasks;
	d->other_events += s->other_events;
	d->has_time |= s->has_time;
	d->has_stacks |= s->has_stacks;
	/* incomplete_calls is recomputed from the nodes by kmag_cg_finish() */
}

int kmag_cg_load_profile(struct kmag_cg *cg, const struct kmag_trace *t, struct kmag_err *err)
{
	const struct kmag__profile *p = kmag__trace_profile(t);
	size_t i;

	if (!p)
		return kmag_err_set(err, EINVAL, "not a kmag profile");
	for (i = 0; i < p->nr_funcs; i++)
		if (kmag_cg_add_node_stats(cg, p->funcs[i].func, &p->funcs[i].st))
			return kmag_err_set(err, ENOMEM, "out of memory");
	for (i = 0; i < p->nr_edges; i++) {
		const struct kmag__profile_edge *e = &p->edges[i];

		if (kmag_cg_add_edge_stats(cg, e->caller, e->callee, e->flags, &e->st))
			return kmag_err_set(err, ENOMEM, "out of memory");
	}
	for (i = 0; i < p->nr_evcounts; i++)
		if (kmag_cg_add_event_count(cg, p->evcounts[i].system, p->evcounts[i].name,
					    p->evcounts[i].count))
			return kmag_err_set(err, ENOMEM, "out of memory");
	kmag_cg_add_summary(cg, &p->sum);
	return 0;
}

/* @src's function @f as a function of @dst_st. */
static kmag_func_t func_in(struct kmag_symtab *dst_st, const struct kmag_symtab *src_st,
			   kmag_func_t f)
{
	const char *name = kmag_symtab_name(src_st, f);

	return name ? kmag_symtab_intern(dst_st, name, (size_t)-1) : KMAG_FUNC_NONE;
}

int kmag_cg_merge(struct kmag_cg *dst, struct kmag_symtab *dst_st, const struct kmag_cg *src,
		  const struct kmag_symtab *src_st)
{
	size_t i;

	for (i = 0; i < src->nr_nodes; i++) {
		kmag_func_t f = func_in(dst_st, src_st, src->nodes[i].func);

		const struct kmag_dist *d = kmag_cg_node_dist(src, i);

		if (f == KMAG_FUNC_NONE || kmag_cg_add_node_stats(dst, f, &src->nodes[i].st))
			return -ENOMEM;
		/* durations travel with the graph (not with a profile's JSON) */
		if (d && kmag__cg_dist_add(dst, (uint32_t)kmag_cg_node_index(dst, f), 0, d))
			return -ENOMEM;
	}
	for (i = 0; i < src->nr_edges; i++) {
		const struct kmag_cg_edge *e = &src->edges[i];
		kmag_func_t from = func_in(dst_st, src_st, src->nodes[e->caller].func);
		kmag_func_t to = func_in(dst_st, src_st, src->nodes[e->callee].func);

		if (from == KMAG_FUNC_NONE || to == KMAG_FUNC_NONE ||
		    kmag_cg_add_edge_stats(dst, from, to, e->flags, &e->st))
			return -ENOMEM;
	}
	for (i = 0; i < src->nr_evcounts; i++)
		if (kmag_cg_add_event_count(dst, src->evcounts[i].system, src->evcounts[i].name,
					    src->evcounts[i].count))
			return -ENOMEM;
	kmag_cg_add_summary(dst, &src->sum);
	return 0;
}

struct kmag_symmap *kmag_profile_symmap(const struct kmag_trace *t)
{
	const struct kmag__profile *p = kmag__trace_profile(t);
	struct kmag_symtab *st = kmag_trace_symtab((struct kmag_trace *)t);
	struct kmag_symmap *m;
	size_t i, n = 0;

	for (i = 0; p && i < p->nr_funcs; i++)
		n += p->funcs[i].file != NULL;
	if (!n) {
		errno = ENOENT;
		return NULL;
	}
	m = kmag_symmap_new();
	for (i = 0; m && i < p->nr_funcs; i++) {
		const struct kmag__profile_func *f = &p->funcs[i];
		struct kmag_symmap_entry e = { .name = kmag_symtab_name(st, f->func), .file = f->file,
					       .line = f->line, .module = f->module };

		if (f->file && kmag_symmap_add(m, &e)) {
			kmag_symmap_free(m);
			m = NULL;
		}
	}
	if (!m)
		errno = ENOMEM;
	return m;
}
