/* SPDX-License-Identifier: MIT */
/*
 * argstats.h - a summary of one argument of one function over its calls
 * (`kmag report --arg vfs_write:count`): count, min, max, mean, the most
 * frequent values and a power-of-two histogram, from the argument registers
 * function_graph saves (funcgraph-args, Linux 6.15+). Arguments are found by
 * name: the trace's own (text) or its BTF's (kmag_trace_set_btf()).
 */
#ifndef KMAG_ARGSTATS_H
#define KMAG_ARGSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmag.h"
#include "replay.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kmag_trace;

#define KMAG_ARGSTAT_TOP 10	/* most frequent values kept */
#define KMAG_ARGSTAT_HIST 65	/* buckets: bit length of |value|, 0..64 */

struct kmag_argstat_value {
	uint64_t value;		/* as is_signed says */
	uint64_t count;
};

struct kmag_argstat {
	const char *func;	/* "vfs_write"; owned by the kmag_argstats */
	const char *arg;	/* "count"; borrowed from the spec given */
	int reg;		/* argument register it was found in, -1: not (yet) */
	const char *names;	/* the function's argument names as the trace or its BTF
				   gives them ("file,buf,count,pos"), NULL: none known;
				   borrowed from the trace */
	bool is_signed;		/* a signed integer or enum by the BTF: values sign-extended */
	uint32_t size;		/* bytes by the BTF (0: unknown, the whole register) */
	uint64_t calls;		/* calls of func seen */
	uint64_t count;		/* of those, calls that saved the argument */
	uint64_t min, max;	/* raw bits; compare as signed if is_signed */
	double sum;
	uint64_t distinct;	/* distinct values (capped) */
	bool distinct_capped;
	size_t nr_top;
	struct kmag_argstat_value top[KMAG_ARGSTAT_TOP];	/* most frequent first */
	uint64_t hist[KMAG_ARGSTAT_HIST];	/* hist[b]: values of bit length b */
	uint64_t neg_hist[KMAG_ARGSTAT_HIST];	/* negative values by |value| */
};

struct kmag_argstats;

/* A new, empty collection for @t (borrowed, must outlive it); free with kmag_argstats_free(). */
struct kmag_argstats *kmag_argstats_new(struct kmag_trace *t);
void kmag_argstats_free(struct kmag_argstats *s);
/*
 * Adds "FUNC:ARG" (@spec borrowed, must outlive @s). Returns 0, or -EINVAL
 * with @err set for a malformed spec, -ENOMEM.
 */
int kmag_argstats_want(struct kmag_argstats *s, const char *spec, struct kmag_err *err);
/* Subscribes @s to @r's calls. 0 or -ENOMEM. */
int kmag_argstats_subscribe(struct kmag_argstats *s, struct kmag_replay *r);
/* Sorts the top values; call once after the replay finished. */
int kmag_argstats_finish(struct kmag_argstats *s);
size_t kmag_argstats_count(const struct kmag_argstats *s);
/* The @i-th spec's summary, in the order given; borrowed, valid until kmag_argstats_free(). */
const struct kmag_argstat *kmag_argstats_get(const struct kmag_argstats *s, size_t i);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_ARGSTATS_H */
