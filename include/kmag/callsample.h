/* SPDX-License-Identifier: MIT */
/*
 * callsample.h - a bounded sample of individual calls with their call trees,
 * for per-call views of a trace too large to keep every call (the explorer's
 * Calls view).
 *
 * A replay subscriber (replay.h) keeps, per function, the calls that matter
 * most when chasing a bug: the N slowest, the first N that returned an error
 * (kmag_call_errno()) and the first N calls, each with its call tree (its
 * callees in time order, preorder, up to a number of nodes per tree). Memory
 * stays bounded whatever the trace length: the trees of the calls open on a
 * task are kept up to that number of nodes each, and when all kept trees
 * together pass four times the overall budget, every tree is cut to half its
 * length. kmag_callsample_finish() then fits the sample into the budget:
 * fewer calls per function while the calls alone would take more than half
 * of it, then the trees share the rest by the calls' places (the slowest and
 * the first of every function keep their whole trees first; the calls left
 * when the budget runs out keep their own node, and each node counts the
 * calls below it that its tree leaves out). What was kept is counted per
 * function, so a page can say
 * "showing 200 of 1,204,311 calls: the 100 slowest, all 12 failing, the
 * first 100".
 */
#ifndef KMAG_CALLSAMPLE_H
#define KMAG_CALLSAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "replay.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kmag_callsample_opts {
	size_t slowest;		/* per function; 0 = none */
	size_t failing;		/* per function, the first ones; 0 = none */
	size_t first;		/* per function; 0 = none */
	size_t tree_max;	/* nodes per call tree (the call itself included), >= 1 */
	size_t budget;		/* nodes of all kept trees together, >= 1 */
};

/* Defaults of kmag_callsample_new(NULL). */
#define KMAG_CALLSAMPLE_SLOWEST 50
#define KMAG_CALLSAMPLE_FAILING 50
#define KMAG_CALLSAMPLE_FIRST 20
#define KMAG_CALLSAMPLE_TREE_MAX 400
#define KMAG_CALLSAMPLE_BUDGET 200000

/* Why a call was kept (bits). */
enum kmag_sample_why {
	KMAG_SAMPLE_SLOWEST = 1u << 0,
	KMAG_SAMPLE_FAILING = 1u << 1,
	KMAG_SAMPLE_FIRST = 1u << 2,
};

/* One call of a kept tree. */
struct kmag_sample_node {
	kmag_func_t func;	/* KMAG_FUNC_NONE: a caller the trace never named */
	uint32_t parent;	/* index in the same tree; UINT32_MAX for the tree's call */
	int32_t cpu;		/* CPU of its entry */
	uint8_t flags;		/* enum kmag_call_flags */
	uint8_t has_retval;
	uint64_t start_ns;	/* as struct kmag_call */
	uint64_t duration;	/* KMAG_DURATION_NONE when unknown */
	int64_t retval;		/* valid when has_retval */
	uint64_t more;		/* calls below it the tree leaves out (cut at its length) */
	/* as struct kmag_call: the call site and the arguments, where recorded */
	kmag_func_t caller;	/* KMAG_FUNC_NONE when not recorded */
	uint32_t caller_off;
	uint8_t nargs;		/* 0: none recorded */
	const uint64_t *args;	/* @nargs values, kept with the tree; NULL when none */
};

/* A kept call: node 0 of its tree is the call itself, the rest in time order (preorder). */
struct kmag_sample_call {
	kmag_func_t func;
	int32_t pid;
	uint8_t why;			/* enum kmag_sample_why */
	uint64_t id;			/* the replay's call id */
	const struct kmag_sample_node *tree;
	size_t nr_tree;
	uint64_t inside;		/* calls it made, directly or not (all, kept or not) */
};

/* What was seen and kept of one function's calls. */
struct kmag_sample_func {
	kmag_func_t func;
	uint64_t calls;		/* calls that ended */
	uint64_t failing;	/* of which returned an error */
	uint32_t kept_slowest, kept_failing, kept_first;	/* calls kept for each reason */
	size_t first_call, nr_calls;	/* its kept calls in kmag_callsample_calls(), by start */
};

struct kmag_callsample;

/*
 * A new sample with @opts (NULL: the defaults above). Free with
 * kmag_callsample_free(). NULL with errno EINVAL (tree_max or budget 0) or ENOMEM.
 */
struct kmag_callsample *kmag_callsample_new(const struct kmag_callsample_opts *opts);
void kmag_callsample_free(struct kmag_callsample *s);
/* Subscribes @s to @r (before its first event). 0 or -errno. */
int kmag_callsample_subscribe(struct kmag_callsample *s, struct kmag_replay *r);
/*
 * Samples and counts only the calls under @root (kmag_call_under();
 * KMAG_FUNC_NONE: all, the default), before the first event.
 */
void kmag_callsample_set_root(struct kmag_callsample *s, kmag_func_t root);
/* After kmag_replay_finish(): fits the sample into the budget and sorts it. 0 or -ENOMEM. */
int kmag_callsample_finish(struct kmag_callsample *s);
/*
 * The options in effect after finish: the per-function counts may be lower
 * (the budget), and the tree length (memory ran over while collecting).
 */
const struct kmag_callsample_opts *kmag_callsample_opts(const struct kmag_callsample *s);

/*
 * After finish: the functions with calls that ended, by function id, and the
 * kept calls, by function then start. Borrowed, valid until kmag_callsample_free().
 */
const struct kmag_sample_func *kmag_callsample_funcs(const struct kmag_callsample *s, size_t *nr);
const struct kmag_sample_call *kmag_callsample_calls(const struct kmag_callsample *s, size_t *nr);
/* Nodes in all kept trees. */
size_t kmag_callsample_nr_nodes(const struct kmag_callsample *s);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_CALLSAMPLE_H */
