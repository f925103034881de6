// SPDX-License-Identifier: MIT
/*
 * report.c - sorting and name lookup over a call graph.
 */
#include <stdio.h>

#include "internal.h"
#include "kmag/report.h"

static const struct {
	const char *name;
	enum kmag_sort_key key;
} sort_keys[] = {
	{ "calls", KMAG_SORT_CALLS }, { "total", KMAG_SORT_TOTAL },
	{ "self", KMAG_SORT_SELF },   { "avg", KMAG_SORT_AVG },
	{ "max", KMAG_SORT_MAX },     { "min", KMAG_SORT_MIN },
	{ "incomplete", KMAG_SORT_INCOMPLETE }, { "name", KMAG_SORT_NAME },
};

int kmag_sort_key_parse(const char *s, enum kmag_sort_key *out)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sort_keys); i++)
		if (!strcmp(s, sort_keys[i].name)) {
			*out = sort_keys[i].key;
			return 0;
		}
	return -EINVAL;
}

const char *kmag_sort_key_names(void)
{
	return "calls, total, self, avg, max, min, incomplete, name";
}

uint64_t kmag_stats_value(const struct kmag_cg_stats *st, enum kmag_sort_key key)
{
	switch (key) {
	case KMAG_SORT_CALLS:
		return st->calls;
	case KMAG_SORT_TOTAL:
		return st->total_ns;
	case KMAG_SORT_SELF:
		return st->self_ns;
	case KMAG_SORT_AVG:
		return st->timed ? st->sum_ns / st->timed : 0;
	case KMAG_SORT_MAX:
		return st->max_ns;
	case KMAG_SORT_MIN:
		return st->timed ? st->min_ns : 0;
	case KMAG_SORT_INCOMPLETE:
		return st->incomplete;
	default:
		return 0;
	}
}

struct sort_ctx {
	const struct kmag_cg_node *nodes;
	const struct kmag_symtab *st;
	enum kmag_sort_key key;
};

/* qsort has no context argument in C11; a small merge sort keeps it reentrant. */
static int cmp_nodes(const struct sort_ctx *c, uint32_t a, uint32_t b)
{
	const char *na = kmag_symtab_name(c->st, c->nodes[a].func);
	const char *nb = kmag_symtab_name(c->st, c->nodes[b].func);
	int byname = strcmp(na ? na : "", nb ? nb : "");

	if (c->key != KMAG_SORT_NAME) {
		uint64_t va = kmag_stats_value(&c->nodes[a].st, c->key);
		uint64_t vb = kmag_stats_value(&c->nodes[b].st, c->key);

		if (va != vb)
			return va > vb ? -1 : 1;
	}
	return byname;
}

static void merge_sort(const struct sort_ctx *c, uint32_t *v, uint32_t *tmp, size_t n)
{
	size_t mid = n / 2, i = 0, j = mid, k = 0;

	if (n < 2)
		return;
	merge_sort(c, v, tmp, mid);
	merge_sort(c, v + mid, tmp, n - mid);
	while (i < mid && j < n)
		tmp[k++] = cmp_nodes(c, v[i], v[j]) <= 0 ? v[i++] : v[j++];
	while (i < mid)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

uint32_t *kmag_cg_sorted_nodes(const struct kmag_cg *cg, const struct kmag_symtab *st,
			       enum kmag_sort_key key)
{
	size_t n = kmag_cg_nr_nodes(cg), i;
	struct sort_ctx c = { kmag_cg_nodes(cg), st, key };
	uint32_t *v = malloc((n + 1) * sizeof(*v)), *tmp = malloc((n + 1) * sizeof(*tmp));

	if (!v || !tmp) {
		free(v);
		free(tmp);
		return NULL;
	}
	for (i = 0; i < n; i++)
		v[i] = (uint32_t)i;
	merge_sort(&c, v, tmp, n);
	free(tmp);
	return v;
}

/* "name.isra.0" / "name.cold" / "name.constprop.3" -> length of "name" */
static size_t base_len(const char *s)
{
	const char *dot = strchr(s, '.');

	return dot ? (size_t)(dot - s) : strlen(s);
}

long kmag_cg_find_name(const struct kmag_cg *cg, const struct kmag_symtab *st, const char *name,
		       char *suggest, size_t suggest_len)
{
	const struct kmag_cg_node *nodes = kmag_cg_nodes(cg);
	size_t n = kmag_cg_nr_nodes(cg), i, nlen = strlen(name), used = 0;
	long clone = -1;
	int clones = 0;

	for (i = 0; i < n; i++) {
		const char *s = kmag_symtab_name(st, nodes[i].func);

		if (!s)
			continue;
		if (!strcmp(s, name))
			return (long)i;
		if (base_len(s) == nlen && !strncmp(s, name, nlen)) {
			clone = (long)i;
			clones++;
		}
	}
	if (clones == 1)
		return clone;
	if (suggest && suggest_len) {
		suggest[0] = '\0';
		for (i = 0; i < n && used + 2 < suggest_len; i++) {
			const char *s = kmag_symtab_name(st, nodes[i].func);
			int w;

			if (!s || !strstr(s, name))
				continue;
			w = snprintf(suggest + used, suggest_len - used, "%s%s", used ? ", " : "", s);
			if (w < 0 || (size_t)w >= suggest_len - used) {
				suggest[used] = '\0';
				break;
			}
			used += (size_t)w;
		}
	}
	return -1;
}
