/* SPDX-License-Identifier: MIT */
/*
 * profile-data.h - what a kmag profile (report --format json, kmag merge)
 * holds, as input-profile.c parses it; lib/analysis/profile.c turns it into a
 * call graph. Internal.
 */
#ifndef KMAG_PROFILE_DATA_H
#define KMAG_PROFILE_DATA_H

#include "kmag/callgraph.h"
#include "kmag/trace.h"

struct kmag__profile_func {
	kmag_func_t func;		/* in the trace's symtab */
	struct kmag_cg_stats st;
	char *file;			/* source file from "source", or NULL */
	uint32_t line;			/* its line, 0 if unknown */
	char *module;			/* "module", or NULL */
};

struct kmag__profile_edge {
	kmag_func_t caller, callee;
	uint32_t flags;			/* enum kmag_cg_edge_flags */
	struct kmag_cg_stats st;
};

struct kmag__profile_evcount {
	char *system;			/* NULL when unknown */
	char *name;
	uint64_t count;
};

/* Everything owned by the profile (freed with the trace). */
struct kmag__profile {
	struct kmag__profile_func *funcs;
	size_t nr_funcs;
	struct kmag__profile_edge *edges;
	size_t nr_edges;
	struct kmag__profile_evcount *evcounts;
	size_t nr_evcounts;
	struct kmag_cg_summary sum;	/* incomplete_calls, unmatched_exits, has_time, has_stacks */
	struct kmag_trace_source *sources;
	size_t nr_sources;
};

/* The profile of @t (KMAG_INPUT_PROFILE), or NULL for other inputs; borrowed. */
const struct kmag__profile *kmag__trace_profile(const struct kmag_trace *t);

#endif /* KMAG_PROFILE_DATA_H */
