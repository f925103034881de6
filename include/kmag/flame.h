/* SPDX-License-Identifier: MIT */
/*
 * flame.h - flame graphs: stacks merged into a tree of frames with weights,
 * built from the calling-context tree of function_graph call graphs (the
 * renderings are in render/flame.h).
 *
 * Only function_graph data has true stacks. A graph from the function tracer
 * has no calling-context tree; kmag_flame_add_graph() refuses it (-ENODATA)
 * rather than inventing stacks from parent edges.
 *
 * Per-task flame graphs: a struct kmag_cg_split (cgsplit.h) routes one
 * trace's events into one call graph per task (or per command name), each of
 * which becomes a subtree under a base frame named after the task.
 */
#ifndef KMAG_FLAME_H
#define KMAG_FLAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "callgraph.h"
#include "event.h"
#include "kmag.h"
#include "symtab.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kmag_trace;

enum kmag_flame_weight {
	KMAG_FLAME_TIME = 0,	/* frame width = time (self time of each stack) */
	KMAG_FLAME_CALLS,	/* frame width = number of calls */
};

/* Parses "time" or "calls" into *@out; returns 0 or -EINVAL. */
int kmag_flame_weight_parse(const char *s, enum kmag_flame_weight *out);

struct kmag_flame_frame {
	const char *name;	/* borrowed from the symtab or the flame; "[unknown]" for frames
				   whose function the trace does not show */
	uint32_t parent;	/* frame index; the root (index 0) is its own parent */
	uint32_t first_child;	/* 0 = none; siblings in name order after finish */
	uint32_t next_sibling;	/* 0 = none */
	uint32_t depth;		/* 0 for the root, 1 for base frames */
	uint64_t self_ns;	/* time spent in this exact stack outside traced callees */
	uint64_t self_calls;	/* calls of this exact stack (forward) / of the leaf (reversed) */
	/* After kmag_flame_finish(): sums over the frame and its descendants. */
	uint64_t total_ns;
	uint64_t total_calls;
};

struct kmag_flame;

/*
 * Returns a new, empty flame graph. @reverse merges stacks from the leaf
 * (the function that ran) towards the outermost caller, which answers "who
 * calls the hot functions". Free with kmag_flame_free().
 */
struct kmag_flame *kmag_flame_new(bool reverse);
void kmag_flame_free(struct kmag_flame *f);

/*
 * Adds every stack of @cg's calling-context tree (function names from @st)
 * under a base frame named @base (copied; NULL = no base frame). Every graph
 * added to one flame must use the same @st (-EINVAL otherwise).
 * Returns 0, -ENODATA when @cg has no calling-context tree (function tracer
 * data, or built without opts.build_cct), or -ENOMEM.
 */
int kmag_flame_add_graph(struct kmag_flame *f, const struct kmag_cg *cg,
			 const struct kmag_symtab *st, const char *base);

/*
 * Draws only functions @keep (borrowed, with @ctx) says yes to, before the
 * first kmag_flame_add_graph(): a hidden function's callees hang on its
 * nearest shown caller, and its own time counts there (its calls are not
 * counted). NULL keeps every function.
 */
void kmag_flame_set_keep(struct kmag_flame *f, bool (*keep)(void *ctx, kmag_func_t func),
			 void *ctx);

/*
 * Draws only the calls made under @root (an id of the symbol table of the
 * graphs added; KMAG_FUNC_NONE: every call), before the first
 * kmag_flame_add_graph(): every stack starts at the outermost call of @root
 * it holds (under the base frame), the calls of @root nested in it stay
 * where they ran; stacks without @root are left out. The same calls as
 * kmag_cg_new_scoped() counts.
 */
void kmag_flame_set_root(struct kmag_flame *f, kmag_func_t root);

/* Computes the totals and orders children by weight. Call once after the last add. */
int kmag_flame_finish(struct kmag_flame *f, enum kmag_flame_weight weight);

/* Frame array (index 0 = the root); borrowed, valid until the flame is freed. */
const struct kmag_flame_frame *kmag_flame_frames(const struct kmag_flame *f);
size_t kmag_flame_nr_frames(const struct kmag_flame *f);
bool kmag_flame_reversed(const struct kmag_flame *f);
enum kmag_flame_weight kmag_flame_weight(const struct kmag_flame *f);
/* Weight of a frame's own stack / of its subtree, in the finish() weight. */
uint64_t kmag_flame_self(const struct kmag_flame *f, uint32_t frame);
uint64_t kmag_flame_total(const struct kmag_flame *f, uint32_t frame);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_FLAME_H */
