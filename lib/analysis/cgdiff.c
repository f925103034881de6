// SPDX-License-Identifier: MIT
/*
 * cgdiff.c - compare two call graphs by function name.
 */
#define PR_DOMAIN "diff"
#include "cgdiff-internal.h"

const char *kmag_diff_status_name(enum kmag_diff_status s)
{
	switch (s) {
	case KMAG_DIFF_GREW:
		return "grew";
	case KMAG_DIFF_SHRANK:
		return "shrank";
	case KMAG_DIFF_ADDED:
		return "added";
	case KMAG_DIFF_REMOVED:
		return "removed";
	default:
		return "same";
	}
}

const char *kmag_diff_rename_name(enum kmag_diff_rename r)
{
	switch (r) {
	case KMAG_RENAME_CLONE:
		return "clone";
	case KMAG_RENAME_NOPROF:
		return "noprof";
	case KMAG_RENAME_PREFIX:
		return "prefix";
	default:
		return NULL;
	}
}

void kmag_diff_opts_init(struct kmag_diff_opts *o)
{
	o->calls_min = 1;
	o->calls_pct = 10;
	o->time_min_ns = 1000;
	o->time_pct = 25;
}

static bool moved(uint64_t a, uint64_t b, uint64_t min_abs, double pct)
{
	uint64_t d = a > b ? a - b : b - a, big = a > b ? a : b;

	return d && d >= min_abs && (double)d * 100.0 >= pct * (double)big;
}

static enum kmag_diff_status classify(const struct kmag_cg_stats *a, const struct kmag_cg_stats *b,
				      bool in_a, bool in_b, bool has_time,
				      const struct kmag_diff_opts *o)
{
	if (!in_a)
		return KMAG_DIFF_ADDED;
	if (!in_b)
		return KMAG_DIFF_REMOVED;
	if (!moved(a->calls, b->calls, o->calls_min, o->calls_pct) &&
	    !(has_time && moved(a->total_ns, b->total_ns, o->time_min_ns, o->time_pct)))
		return KMAG_DIFF_SAME;
	/*
	 * Which way it moved: by its time where the traces have times (a function
	 * called more often but taking less time did not grow), else by calls.
	 */
	if (has_time && a->total_ns != b->total_ns)
		return b->total_ns > a->total_ns ? KMAG_DIFF_GREW : KMAG_DIFF_SHRANK;
	return b->calls > a->calls ? KMAG_DIFF_GREW : KMAG_DIFF_SHRANK;
}

static int add_func(struct kmag_cgdiff *d, const char *name, kmag_func_t fa, kmag_func_t fb,
		    long na, long nb)
{
	struct kmag_diff_func *f;

	if (kmag__grow(&d->funcs, &d->cap_funcs, d->nr_funcs + 1, sizeof(*d->funcs)))
		return -ENOMEM;
	f = &d->funcs[d->nr_funcs++];
	memset(f, 0, sizeof(*f));
	f->name = name;
	f->name_b = nb >= 0 ? name : NULL;
	f->func_a = fa;
	f->func_b = fb;
	f->node_a = na;
	f->node_b = nb;
	if (na >= 0)
		f->a = kmag_cg_nodes(d->a)[na].st;
	if (nb >= 0)
		f->b = kmag_cg_nodes(d->b)[nb].st;
	return 0;
}

static int add_edge(struct kmag_cgdiff *d, uint32_t caller, uint32_t callee,
		    const struct kmag_cg_edge *ea, const struct kmag_cg_edge *eb)
{
	struct kmag_diff_edge *e;

	if (kmag__grow(&d->edges, &d->cap_edges, d->nr_edges + 1, sizeof(*d->edges)))
		return -ENOMEM;
	e = &d->edges[d->nr_edges++];
	memset(e, 0, sizeof(*e));
	e->caller = caller;
	e->callee = callee;
	e->in_a = ea != NULL;
	e->in_b = eb != NULL;
	if (ea) {
		e->a = ea->st;
		e->flags |= ea->flags;
	}
	if (eb) {
		e->b = eb->st;
		e->flags |= eb->flags;
	}
	return 0;
}

/* Matches functions by name: A's first, then those only B has. */
static int match_funcs(struct kmag_cgdiff *d, uint32_t *diff_of_b)
{
	const struct kmag_cg_node *na = kmag_cg_nodes(d->a), *nb = kmag_cg_nodes(d->b);
	size_t i, n_a = kmag_cg_nr_nodes(d->a), n_b = kmag_cg_nr_nodes(d->b);

	for (i = 0; i < n_b; i++)
		diff_of_b[i] = UINT32_MAX;
	for (i = 0; i < n_a; i++) {
		const char *name = kmag_symtab_name(d->sta, na[i].func);
		kmag_func_t fb = name ? kmag_symtab_find(d->stb, name) : KMAG_FUNC_NONE;
		long ib = fb == KMAG_FUNC_NONE ? -1 : kmag_cg_node_index(d->b, fb);

		if (add_func(d, name ? name : "?", na[i].func, ib >= 0 ? fb : KMAG_FUNC_NONE,
			     (long)i, ib))
			return -ENOMEM;
		if (ib >= 0)
			diff_of_b[ib] = (uint32_t)(d->nr_funcs - 1);
	}
	if (kmag__cgdiff_pair_renames(d, diff_of_b))
		return -ENOMEM;
	for (i = 0; i < n_b; i++) {
		const char *name;

		if (diff_of_b[i] != UINT32_MAX)
			continue;
		name = kmag_symtab_name(d->stb, nb[i].func);
		if (add_func(d, name ? name : "?", KMAG_FUNC_NONE, nb[i].func, -1, (long)i))
			return -ENOMEM;
		diff_of_b[i] = (uint32_t)(d->nr_funcs - 1);
	}
	return 0;
}

static int match_edges(struct kmag_cgdiff *d, const uint32_t *diff_of_b)
{
	const struct kmag_cg_edge *ea = kmag_cg_edges(d->a), *eb = kmag_cg_edges(d->b);
	size_t i, n_a = kmag_cg_nr_edges(d->a), n_b = kmag_cg_nr_edges(d->b);
	unsigned char *seen_b = calloc(n_b + 1, 1);

	if (!seen_b)
		return -ENOMEM;
	for (i = 0; i < n_a; i++) {
		/* A's node i is diff function i */
		const struct kmag_diff_func *caller = &d->funcs[ea[i].caller];
		const struct kmag_diff_func *callee = &d->funcs[ea[i].callee];
		long ib = -1;

		if (caller->node_b >= 0 && callee->node_b >= 0)
			ib = kmag_cg_edge_index(d->b, (uint32_t)caller->node_b,
						(uint32_t)callee->node_b);
		if (ib >= 0)
			seen_b[ib] = 1;
		if (add_edge(d, ea[i].caller, ea[i].callee, &ea[i], ib >= 0 ? &eb[ib] : NULL)) {
			free(seen_b);
			return -ENOMEM;
		}
	}
	for (i = 0; i < n_b; i++) {
		if (seen_b[i])
			continue;
		if (add_edge(d, diff_of_b[eb[i].caller], diff_of_b[eb[i].callee], NULL, &eb[i])) {
			free(seen_b);
			return -ENOMEM;
		}
	}
	free(seen_b);
	return 0;
}

struct kmag_cgdiff *kmag_cgdiff_new(const struct kmag_cg *a, const struct kmag_symtab *sta,
				    const struct kmag_cg *b, const struct kmag_symtab *stb,
				    const struct kmag_diff_opts *o)
{
	struct kmag_cgdiff *d = calloc(1, sizeof(*d));
	struct kmag_diff_opts def;
	uint32_t *diff_of_b;
	size_t i;

	if (!d)
		return NULL;
	if (!o) {
		kmag_diff_opts_init(&def);
		o = &def;
	}
	d->a = a;
	d->b = b;
	d->opts = *o;
	d->sta = sta;
	d->stb = stb;
	d->has_time = kmag_cg_summary(a)->has_time && kmag_cg_summary(b)->has_time;
	diff_of_b = malloc((kmag_cg_nr_nodes(b) + 1) * sizeof(*diff_of_b));
	if (!diff_of_b || match_funcs(d, diff_of_b) || match_edges(d, diff_of_b)) {
		free(diff_of_b);
		kmag_cgdiff_free(d);
		errno = ENOMEM;
		return NULL;
	}
	free(diff_of_b);
	for (i = 0; i < d->nr_funcs; i++) {
		struct kmag_diff_func *f = &d->funcs[i];

		f->status = classify(&f->a, &f->b, f->node_a >= 0, f->node_b >= 0, d->has_time, o);
	}
	for (i = 0; i < d->nr_edges; i++) {
		struct kmag_diff_edge *e = &d->edges[i];

		e->status = classify(&e->a, &e->b, e->in_a, e->in_b, d->has_time, o);
	}
	return d;
}

void kmag_cgdiff_free(struct kmag_cgdiff *d)
{
	if (!d)
		return;
	free(d->funcs);
	free(d->edges);
	free(d);
}

size_t kmag_cgdiff_nr_funcs(const struct kmag_cgdiff *d)
{
	return d->nr_funcs;
}

const struct kmag_diff_func *kmag_cgdiff_funcs(const struct kmag_cgdiff *d)
{
	return d->funcs;
}

size_t kmag_cgdiff_nr_edges(const struct kmag_cgdiff *d)
{
	return d->nr_edges;
}

const struct kmag_diff_edge *kmag_cgdiff_edges(const struct kmag_cgdiff *d)
{
	return d->edges;
}

long kmag_cgdiff_find(const struct kmag_cgdiff *d, const char *name)
{
	kmag_func_t f = kmag_symtab_find(d->sta, name);
	long n;
	size_t i;

	if (f != KMAG_FUNC_NONE && (n = kmag_cg_node_index(d->a, f)) >= 0)
		return n;	/* A's node n is diff function n */
	for (i = 0; i < d->nr_funcs; i++)
		if ((i >= kmag_cg_nr_nodes(d->a) && !strcmp(d->funcs[i].name, name)) ||
		    (d->funcs[i].rename && !strcmp(d->funcs[i].name_b, name)))
			return (long)i;
	return -1;
}

size_t kmag_cgdiff_nr_renamed(const struct kmag_cgdiff *d)
{
	return d->renamed;
}

bool kmag_cgdiff_has_time(const struct kmag_cgdiff *d)
{
	return d->has_time;
}

size_t kmag_cgdiff_count_funcs(const struct kmag_cgdiff *d, enum kmag_diff_status s)
{
	size_t i, n = 0;

	for (i = 0; i < d->nr_funcs; i++)
		n += d->funcs[i].status == s;
	return n;
}

/* Size of a change: |Δtime| when both have durations, else |Δcalls|. */
static uint64_t change_size(const struct kmag_cg_stats *a, const struct kmag_cg_stats *b, bool time)
{
	uint64_t x = time ? a->total_ns : a->calls, y = time ? b->total_ns : b->calls;

	return x > y ? x - y : y - x;
}

struct sort_item {
	uint64_t key;
	uint32_t idx;
};

static int cmp_items(const void *pa, const void *pb)
{
	const struct sort_item *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key > b->key ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static uint32_t *sorted(size_t n, const struct kmag_cgdiff *d, bool edges)
{
	struct sort_item *items = malloc((n + 1) * sizeof(*items));
	uint32_t *out = malloc((n + 1) * sizeof(*out));
	size_t i;

	if (!items || !out) {
		free(items);
		free(out);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		const struct kmag_cg_stats *a = edges ? &d->edges[i].a : &d->funcs[i].a;
		const struct kmag_cg_stats *b = edges ? &d->edges[i].b : &d->funcs[i].b;

		items[i].key = change_size(a, b, d->has_time);
		items[i].idx = (uint32_t)i;
	}
	qsort(items, n, sizeof(*items), cmp_items);
	for (i = 0; i < n; i++)
		out[i] = items[i].idx;
	free(items);
	return out;
}

uint32_t *kmag_cgdiff_sorted_funcs(const struct kmag_cgdiff *d)
{
	return sorted(d->nr_funcs, d, false);
}

uint32_t *kmag_cgdiff_sorted_edges(const struct kmag_cgdiff *d)
{
	return sorted(d->nr_edges, d, true);
}

bool kmag_cgdiff_latency(const struct kmag_cgdiff *d, size_t i, struct kmag_diff_latency *l)
{
	const struct kmag_diff_func *f = &d->funcs[i];
	const struct kmag_dist *da, *db;

	if (f->node_a < 0 || f->node_b < 0 || !d->has_time)
		return false;
	da = kmag_cg_node_dist(d->a, (size_t)f->node_a);
	db = kmag_cg_node_dist(d->b, (size_t)f->node_b);
	if (!da || !db)
		return false;
	l->p50_a = kmag_dist_percentile(da, 50);
	l->p50_b = kmag_dist_percentile(db, 50);
	l->p99_a = kmag_dist_percentile(da, 99);
	l->p99_b = kmag_dist_percentile(db, 99);
	l->changed = moved(l->p50_a, l->p50_b, d->opts.time_min_ns, d->opts.time_pct) ||
		     moved(l->p99_a, l->p99_b, d->opts.time_min_ns, d->opts.time_pct);
	return true;
}

static uint64_t absdiff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* A changed function and the size of its change, for sorting. */
struct lat_change {
	uint32_t i;
	uint64_t by;	/* the larger move of p50 and p99 */
};

static int cmp_change(const void *x, const void *y)
{
	const struct lat_change *a = x, *b = y;

	if (a->by != b->by)
		return a->by < b->by ? 1 : -1;
	return a->i < b->i ? -1 : a->i > b->i;
}

uint32_t *kmag_cgdiff_latency_changes(const struct kmag_cgdiff *d, size_t *n)
{
	struct lat_change *c = malloc((d->nr_funcs + 1) * sizeof(*c));
	uint32_t *out = malloc((d->nr_funcs + 1) * sizeof(*out));
	struct kmag_diff_latency l;
	size_t i, k = 0;

	if (!c || !out) {
		free(c);
		free(out);
		return NULL;
	}
	for (i = 0; i < d->nr_funcs; i++) {
		uint64_t m50, m99;

		if (!kmag_cgdiff_latency(d, i, &l) || !l.changed)
			continue;
		m50 = absdiff(l.p50_a, l.p50_b);
		m99 = absdiff(l.p99_a, l.p99_b);
		c[k].i = (uint32_t)i;
		c[k++].by = m50 > m99 ? m50 : m99;
	}
	qsort(c, k, sizeof(*c), cmp_change);
	for (i = 0; i < k; i++)
		out[i] = c[i].i;
	free(c);
	*n = k;
	return out;
}
