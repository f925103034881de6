/* SPDX-License-Identifier: MIT */
/*
 * cgsplit.h - one call graph per task (or per command name) from one trace,
 * for `kmag flame --per`: each graph becomes a subtree of the flame graph.
 */
#ifndef KMAG_CGSPLIT_H
#define KMAG_CGSPLIT_H

#include <stddef.h>

#include "callgraph.h"
#include "event.h"
#include "kmag.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kmag_trace;

enum kmag_split_key {
	KMAG_SPLIT_PID = 0,	/* one graph per task id, named "comm-pid" */
	KMAG_SPLIT_COMM,	/* one graph per command name (all its tasks) */
};

struct kmag_cg_split;

/*
 * Returns a router of @t's events into one graph per task or command name,
 * each built with @opts. @t (borrowed; may be NULL) names the tasks. Free
 * with kmag_cg_split_free().
 */
struct kmag_cg_split *kmag_cg_split_new(struct kmag_trace *t, enum kmag_split_key key,
					const struct kmag_cg_opts *opts);
void kmag_cg_split_free(struct kmag_cg_split *s);
/* kmag_event_fn: @ctx is the struct kmag_cg_split *. LOST events reach every graph. */
int kmag_cg_split_event_fn(const struct kmag_event *ev, void *ctx);
/* Finishes every graph. Returns 0 or -ENOMEM. */
int kmag_cg_split_finish(struct kmag_cg_split *s);
size_t kmag_cg_split_count(const struct kmag_cg_split *s);
/* Graph @i and its name; borrowed, valid until the split is freed. */
const struct kmag_cg *kmag_cg_split_graph(const struct kmag_cg_split *s, size_t i);
const char *kmag_cg_split_name(const struct kmag_cg_split *s, size_t i);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_CGSPLIT_H */
