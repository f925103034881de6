/* SPDX-License-Identifier: MIT */
/*
 * cgdiff-internal.h - state shared by cgdiff.c and cgdiff-rename.c.
 */
#ifndef KMAG_CGDIFF_INTERNAL_H
#define KMAG_CGDIFF_INTERNAL_H

#include "internal.h"
#include "kmag/cgdiff.h"

struct kmag_cgdiff {
	struct kmag_diff_func *funcs;	/* A's node i is function i, then B's others */
	size_t nr_funcs, cap_funcs;
	struct kmag_diff_edge *edges;
	size_t nr_edges, cap_edges;
	const struct kmag_cg *a, *b;
	const struct kmag_symtab *sta, *stb;
	bool has_time;
	struct kmag_diff_opts opts;	/* the thresholds it was made with */
	size_t renamed;			/* functions paired by kmag__cgdiff_pair_renames() */
};

/*
 * After A's functions were added and matched by name (funcs[i] for A's node
 * i; @diff_of_b[j] the function of B's node j, UINT32_MAX for B's unmatched):
 * pairs A's unmatched functions with B's unmatched ones by the rules of
 * cgdiff.h, filling their B side and @diff_of_b. 0 or -ENOMEM.
 */
int kmag__cgdiff_pair_renames(struct kmag_cgdiff *d, uint32_t *diff_of_b);

#endif /* KMAG_CGDIFF_INTERNAL_H */
