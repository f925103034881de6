/* SPDX-License-Identifier: MIT */
/*
 * probes.h - what dynamic probes (kprobe, kretprobe, uprobe, uretprobe
 * events) caught: hits per probe and, per fetched argument, min, max, mean,
 * the most frequent values and a power-of-two histogram - the seed's "sizes
 * of all TCP messages being sent".
 *
 * A probe event is recognised by its format (a __probe_ip field for entry
 * probes, __probe_func for return probes), so probes recorded by kmag,
 * trace-cmd or perf all count. Needs a trace.dat (text traces carry no
 * formats).
 *
 *   p = kmag_probes_new(trace);
 *   (for each event of the trace) kmag_probes_add(p, ev);
 *   kmag_probes_finish(p);
 *   for (i = 0; i < kmag_probes_count(p); i++) ... kmag_probes_get(p, i) ...
 *   kmag_probes_free(p);
 */
#ifndef KMAG_PROBES_H
#define KMAG_PROBES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "event.h"
#include "symtab.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kmag_trace;

#define KMAG_PROBE_TOP 10		/* most frequent values kept per argument */
#define KMAG_PROBE_HIST 65		/* histogram buckets: bit length of |value|, 0..64 */

/* One value and how often it was seen; strings in @str, numbers in @value. */
struct kmag_probe_value {
	uint64_t value;		/* the raw bits; signed arguments as two's complement */
	const char *str;	/* string arguments (borrowed, lives with the stats), else NULL */
	uint64_t count;
};

struct kmag_probe_arg {
	const char *name;	/* "count"; borrowed from the trace */
	const char *type;	/* "u64", "s32", "x64", "string", ...; borrowed */
	bool is_signed;
	bool is_string;
	uint64_t count;		/* hits that carried this argument */
	uint64_t min, max;	/* numbers only, as raw bits (compare as signed if is_signed) */
	double sum;		/* numbers: for the mean */
	uint64_t distinct;	/* distinct values seen (capped: see distinct_capped) */
	bool distinct_capped;	/* too many distinct values: top values are a lower bound */
	size_t nr_top;		/* after kmag_probes_finish(): up to KMAG_PROBE_TOP */
	struct kmag_probe_value top[KMAG_PROBE_TOP];	/* most frequent first */
	/* numbers: hist[b] counts values whose magnitude has bit length b
	 * (b = 0: zero; b = 11: 1024..2047); negative values in neg_hist */
	uint64_t hist[KMAG_PROBE_HIST];
	uint64_t neg_hist[KMAG_PROBE_HIST];
};

enum kmag_probe_kind {
	KMAG_PROBE_ENTRY = 0,	/* kprobe / uprobe */
	KMAG_PROBE_RETURN,	/* kretprobe / uretprobe */
};

struct kmag_probe {
	const char *system;	/* "kmag_1234", "kprobes"; borrowed from the trace */
	const char *name;	/* "vfs_write"; borrowed */
	int event_id;
	enum kmag_probe_kind kind;
	bool kernel;		/* the probed address is in the kernel */
	kmag_func_t func;	/* the probed kernel function, KMAG_FUNC_NONE if unknown */
	uint64_t hits;
	size_t nr_args;
	struct kmag_probe_arg *args;
};

struct kmag_probes;

/* Stats for the probes of @t (borrowed; must outlive the stats). NULL on ENOMEM. */
struct kmag_probes *kmag_probes_new(struct kmag_trace *t);
/* Frees @p. Accepts NULL. */
void kmag_probes_free(struct kmag_probes *p);
/* Feeds one event (non-probe events are ignored). Returns 0 or -ENOMEM. */
int kmag_probes_add(struct kmag_probes *p, const struct kmag_event *ev);
/* Picks the top values; call once after the last event. Returns 0 or -ENOMEM. */
int kmag_probes_finish(struct kmag_probes *p);
/* Probes seen, in order of first hit; entries borrowed, valid until kmag_probes_free(). */
size_t kmag_probes_count(const struct kmag_probes *p);
const struct kmag_probe *kmag_probes_get(const struct kmag_probes *p, size_t i);
/* Hits of probes on kernel function @func (all its probes), for annotations. */
uint64_t kmag_probes_hits_of(const struct kmag_probes *p, kmag_func_t func);
/* The same as a renderer's probe_hits callback: @ctx is the struct kmag_probes *. */
uint64_t kmag_probes_hits_cb(void *ctx, kmag_func_t func);


#ifdef __cplusplus
}
#endif

#endif /* KMAG_PROBES_H */
