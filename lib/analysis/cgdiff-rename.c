// SPDX-License-Identifier: MIT
/*
 * cgdiff-rename.c - pairing the functions two call graphs name differently
 * but that are one function: compiler clones, the _noprof allocator
 * wrappers, a "__" prefix at the same place in the graph (the rules are in
 * include/kmag/cgdiff.h). The names are the kernel's own conventions, so
 * there is no library to ask; the rules are written out here.
 */
#define PR_DOMAIN "diff"
#include <stdlib.h>
#include <string.h>

#include "cgdiff-internal.h"

/* Suffixes GCC and clang append to a function's clones and split parts. */
static const char *const clone_suffixes[] = {
	"isra", "constprop", "part", "cold", "lto_priv", "localalias", "llvm",
};

#define NOPROF "_noprof"

/* Length of @name without its trailing ".SUFFIX" and ".SUFFIX.N" parts. */
static size_t clone_base_len(const char *name, size_t len)
{
	for (;;) {
		size_t end = len, i, k = 0;

		/* an optional ".N" */
		while (end && name[end - 1] >= '0' && name[end - 1] <= '9')
			end--;
		if (end < len && end && name[end - 1] == '.')
			end--;
		else
			end = len;
		for (i = 0; i < sizeof(clone_suffixes) / sizeof(clone_suffixes[0]); i++) {
			k = strlen(clone_suffixes[i]);
			if (end > k + 1 && name[end - k - 1] == '.' &&
			    !memcmp(name + end - k, clone_suffixes[i], k))
				break;
		}
		if (i == sizeof(clone_suffixes) / sizeof(clone_suffixes[0]))
			return len;
		len = end - k - 1;
	}
}

/* The name a function has under rules 1 and 2: clone suffixes and "_noprof" removed. */
struct key {
	const char *name;	/* the function's full name */
	size_t len;		/* of the key, a prefix of @name (after @skip) */
	size_t skip;		/* rule 3: 2 when a leading "__" is not part of the key */
	bool noprof;		/* "_noprof" was removed */
	uint32_t idx;		/* A: diff function; B: node */
	bool in_b;
	uint32_t b_idx;		/* rule 3: the B node an A key is to be paired with */
};

static void make_key(struct key *k, const char *name, uint32_t idx, bool in_b)
{
	size_t len = clone_base_len(name, strlen(name)), n = strlen(NOPROF);

	k->name = name;
	k->idx = idx;
	k->in_b = in_b;
	k->skip = 0;
	k->noprof = len > n && !memcmp(name + len - n, NOPROF, n);
	k->len = k->noprof ? len - n : len;
}

static int cmp_keys(const void *pa, const void *pb)
{
	const struct key *a = pa, *b = pb;
	size_t la = a->len - a->skip, lb = b->len - b->skip;
	int c = memcmp(a->name + a->skip, b->name + b->skip, la < lb ? la : lb);

	if (c)
		return c;
	if (la != lb)
		return la < lb ? -1 : 1;
	if (a->in_b != b->in_b)
		return a->in_b ? 1 : -1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static bool same_key(const struct key *a, const struct key *b)
{
	return a->len - a->skip == b->len - b->skip &&
	       !memcmp(a->name + a->skip, b->name + b->skip, a->len - a->skip);
}

/* Makes diff function @ia (only in A) and B's node @nb one function. */
static void pair(struct kmag_cgdiff *d, uint32_t *diff_of_b, uint32_t ia, uint32_t nb,
		 enum kmag_diff_rename why)
{
	struct kmag_diff_func *f = &d->funcs[ia];

	f->func_b = kmag_cg_nodes(d->b)[nb].func;
	f->node_b = nb;
	f->b = kmag_cg_nodes(d->b)[nb].st;
	f->name_b = kmag_symtab_name(d->stb, f->func_b);
	f->rename = why;
	diff_of_b[nb] = ia;
	d->renamed++;
}

/*
 * Do A's node @na and B's node @nb sit at the same place: a caller of @na
 * matched with a caller of @nb, or, when neither has a caller, a callee of
 * one matched with a callee of the other?
 */
static bool same_place(const struct kmag_cgdiff *d, uint32_t na, uint32_t nb)
{
	const struct kmag_cg_node *a = &kmag_cg_nodes(d->a)[na];
	const struct kmag_cg_edge *ea = kmag_cg_edges(d->a);
	const uint32_t *in = kmag_cg_in_edges(d->a), *out = kmag_cg_out_edges(d->a);
	bool callers = false;
	uint32_t k;

	for (k = 0; k < a->in_count; k++) {
		uint32_t c = ea[in[a->in_first + k]].caller;	/* A's node c is diff function c */

		if (c == na)
			continue;
		callers = true;
		if (d->funcs[c].node_b >= 0 &&
		    kmag_cg_edge_index(d->b, (uint32_t)d->funcs[c].node_b, nb) >= 0)
			return true;
	}
	if (callers || kmag_cg_nodes(d->b)[nb].in_count)
		return false;
	for (k = 0; k < a->out_count; k++) {
		uint32_t c = ea[out[a->out_first + k]].callee;

		if (c != na && d->funcs[c].node_b >= 0 &&
		    kmag_cg_edge_index(d->b, nb, (uint32_t)d->funcs[c].node_b) >= 0)
			return true;
	}
	return false;
}

/*
 * Pairs the keys of @k (sorted) that occur exactly once in A and once in B.
 * @prefix: rule 3, which also needs exactly one of the two names to have
 * had the "__" and the same place in the graphs, judged by the matches made
 * before this rule only (so the order of the names plays no part): the pairs
 * are chosen first and made after.
 */
static void pair_unique(struct kmag_cgdiff *d, uint32_t *diff_of_b, struct key *k, size_t n,
			bool prefix)
{
	size_t i = 0, j, nr = 0;

	while (i < n) {
		for (j = i + 1; j < n && same_key(&k[i], &k[j]); j++)
			;
		/*
		 * One of A, then one of B (sorted A first), neither of whose names
		 * the other kernel has: a function its symbol table still lists
		 * was not renamed there, only not called.
		 */
		if (j - i == 2 && !k[i].in_b && k[i + 1].in_b &&
		    kmag_symtab_find(d->stb, k[i].name) == KMAG_FUNC_NONE &&
		    kmag_symtab_find(d->sta, k[i + 1].name) == KMAG_FUNC_NONE) {
			const struct key *a = &k[i], *b = &k[i + 1];

			if (!prefix) {
				pair(d, diff_of_b, a->idx, b->idx,
				     a->noprof != b->noprof ? KMAG_RENAME_NOPROF : KMAG_RENAME_CLONE);
			} else if (a->skip != b->skip &&
				   same_place(d, (uint32_t)d->funcs[a->idx].node_a, b->idx)) {
				/* paired after the loop; k[nr] was passed already (nr <= i / 2) */
				k[i].b_idx = b->idx;
				k[nr++] = k[i];
			}
		}
		i = j;
	}
	for (i = 0; i < nr; i++)
		pair(d, diff_of_b, k[i].idx, k[i].b_idx, KMAG_RENAME_PREFIX);
}

/* The unmatched functions of A and B as keys; rule 3 keys drop a leading "__". */
static size_t collect(const struct kmag_cgdiff *d, const uint32_t *diff_of_b, struct key *k,
		      bool prefix)
{
	size_t i, n = 0, na = kmag_cg_nr_nodes(d->a), nb = kmag_cg_nr_nodes(d->b);

	for (i = 0; i < na + nb; i++) {
		bool in_b = i >= na;
		uint32_t idx = (uint32_t)(in_b ? i - na : i);
		const char *name;

		if (in_b ? diff_of_b[idx] != UINT32_MAX : d->funcs[idx].node_b >= 0)
			continue;
		name = in_b ? kmag_symtab_name(d->stb, kmag_cg_nodes(d->b)[idx].func) :
			      kmag_symtab_name(d->sta, d->funcs[idx].func_a);
		if (!name || !*name)
			continue;
		make_key(&k[n], name, idx, in_b);
		if (prefix && k[n].len > 2 && !strncmp(name, "__", 2))
			k[n].skip = 2;
		n++;
	}
	qsort(k, n, sizeof(*k), cmp_keys);
	return n;
}

int kmag__cgdiff_pair_renames(struct kmag_cgdiff *d, uint32_t *diff_of_b)
{
	size_t cap = kmag_cg_nr_nodes(d->a) + kmag_cg_nr_nodes(d->b), n;
	struct key *k = malloc((cap + 1) * sizeof(*k));

	if (!k)
		return -ENOMEM;
	n = collect(d, diff_of_b, k, false);
	pair_unique(d, diff_of_b, k, n, false);
	n = collect(d, diff_of_b, k, true);
	pair_unique(d, diff_of_b, k, n, true);
	free(k);
	return 0;
}
