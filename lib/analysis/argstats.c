// SPDX-License-Identifier: MIT
/*
 * argstats.c - one argument of one function summarised over its calls (see
 * include/kmag/argstats.h), fed by the replay's call entries.
 */
#include <stdio.h>

#include "internal.h"
#include "kmag/argstats.h"
#include "kmag/btf.h"
#include "kmag/symtab.h"
#include "kmag/trace.h"
#include "util/log2hist.h"
#include "util/u64map.h"

#define MAX_DISTINCT (1u << 16)

struct stat_state {
	struct kmag_argstat pub;
	size_t func_len;
	kmag_func_t func;		/* resolved function, KMAG_FUNC_NONE until seen */
	struct u64map index;		/* value -> vals index + 1 */
	struct kmag_argstat_value *vals;
	size_t nr_vals, cap_vals;
};

struct kmag_argstats {
	struct kmag_trace *t;
	struct stat_state *st;
	size_t nr, cap;
};

struct kmag_argstats *kmag_argstats_new(struct kmag_trace *t)
{
	struct kmag_argstats *s = calloc(1, sizeof(*s));

	if (s)
		s->t = t;
	return s;
}

void kmag_argstats_free(struct kmag_argstats *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr; i++) {
		u64map_release(&s->st[i].index);
		free(s->st[i].vals);
		free((char *)s->st[i].pub.func);
	}
	free(s->st);
	free(s);
}

int kmag_argstats_want(struct kmag_argstats *s, const char *spec, struct kmag_err *err)
{
	const char *colon = strchr(spec, ':');
	struct stat_state *ss;

	if (!colon || colon == spec || !colon[1] || strchr(colon + 1, ':'))
		return kmag_err_set(err, EINVAL, "--arg expects FUNCTION:ARGUMENT like vfs_write:count, got \"%s\"",
				    spec);
	if (kmag__grow(&s->st, &s->cap, s->nr + 1, sizeof(*s->st)))
		return -ENOMEM;
	ss = &s->st[s->nr++];
	memset(ss, 0, sizeof(*ss));
	ss->func_len = (size_t)(colon - spec);
	if (!(ss->pub.func = strndup(spec, ss->func_len))) {
		s->nr--;
		return -ENOMEM;
	}
	ss->pub.arg = colon + 1;
	ss->pub.reg = -1;
	ss->pub.min = UINT64_MAX;
	ss->func = KMAG_FUNC_NONE;
	u64map_init(&ss->index);
	return 0;
}

/* The register of @arg in "fd,buf,count" (a struct's further registers are empty names). */
static int reg_of(const char *names, const char *arg)
{
	size_t alen = strlen(arg);
	int reg = 0;

	for (const char *p = names; p; reg++) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);

		if (n == alen && !strncmp(p, arg, n))
			return reg;
		p = comma ? comma + 1 : NULL;
	}
	return -1;
}

/* Binds @ss to @func (its first call): the register and, from the BTF, the type. */
static void resolve(struct kmag_argstats *s, struct stat_state *ss, kmag_func_t func)
{
	const char *names = kmag_trace_arg_names(s->t, func);
	const struct kmag_btf_func *proto = kmag_trace_arg_proto(s->t, func);

	ss->func = func;
	ss->pub.names = names;
	ss->pub.reg = names ? reg_of(names, ss->pub.arg) : -1;
	if (proto && ss->pub.reg >= 0) {
		uint32_t regs = 0;

		for (uint32_t i = 0; i < proto->nparams && i < KMAG_BTF_MAX_PARAMS; i++) {
			const struct kmag_btf_type *ty = &proto->params[i].type;

			if ((int)regs == ss->pub.reg && (ty->kind == KMAG_BTF_INT || ty->kind == KMAG_BTF_ENUM)) {
				ss->pub.is_signed = ty->is_signed || ty->kind == KMAG_BTF_ENUM;
				ss->pub.size = ty->size;
			}
			regs += ty->nregs ? ty->nregs : 1;
		}
	}
}

static int add_value(struct stat_state *ss, uint64_t v)
{
	struct kmag_argstat *a = &ss->pub;
	uint64_t *slot;

	if (a->size && a->size < 8) {	/* the type's bits only */
		unsigned shift = 64 - 8 * a->size;

		v = a->is_signed ? (uint64_t)((int64_t)(v << shift) >> shift) : (v << shift) >> shift;
	}
	a->count++;
	if (a->is_signed) {
		int64_t x = (int64_t)v;

		if (a->count == 1 || x < (int64_t)a->min)
			a->min = v;
		if (a->count == 1 || x > (int64_t)a->max)
			a->max = v;
		a->sum += (double)x;
	} else {
		if (v < a->min)
			a->min = v;
		if (a->count == 1 || v > a->max)
			a->max = v;
		a->sum += (double)v;
	}
	kmag__log2hist_add(a->hist, a->neg_hist, v, a->is_signed);
	slot = u64map_get(&ss->index, v);
	if (slot) {
		ss->vals[*slot - 1].count++;
		return 0;
	}
	if (ss->nr_vals >= MAX_DISTINCT) {
		a->distinct_capped = true;
		return 0;
	}
	if (kmag__grow(&ss->vals, &ss->cap_vals, ss->nr_vals + 1, sizeof(*ss->vals)) ||
	    !u64map_upsert(&ss->index, v, ss->nr_vals + 1, NULL))
		return -ENOMEM;
	ss->vals[ss->nr_vals++] = (struct kmag_argstat_value){ v, 1 };
	a->distinct++;
	return 0;
}

static int on_enter(void *ctx, const struct kmag_call *call, void *data,
		    const struct kmag_call *parent, void *parent_data)
{
	struct kmag_argstats *s = ctx;
	const char *name = NULL;

	(void)data, (void)parent, (void)parent_data;
	if (call->func == KMAG_FUNC_NONE)
		return 0;
	for (size_t i = 0; i < s->nr; i++) {
		struct stat_state *ss = &s->st[i];
		int ret;

		if (ss->func != call->func) {
			if (ss->func != KMAG_FUNC_NONE)
				continue;
			if (!name)
				name = kmag_symtab_name(kmag_trace_symtab(s->t), call->func);
			if (!name || strcmp(name, ss->pub.func))
				continue;
			resolve(s, ss, call->func);
		}
		ss->pub.calls++;
		if (ss->pub.reg < 0 && (ss->func = KMAG_FUNC_NONE, 1))
			continue;	/* names may come later (text): look again */
		if ((uint32_t)ss->pub.reg >= call->nargs)
			continue;
		if ((ret = add_value(ss, call->args[ss->pub.reg])))
			return ret;
	}
	return 0;
}

int kmag_argstats_subscribe(struct kmag_argstats *s, struct kmag_replay *r)
{
	static const struct kmag_replay_ops ops = { .enter = on_enter };

	return kmag_replay_subscribe(r, &ops, s);
}

static int by_count_desc(const void *a, const void *b)
{
	const struct kmag_argstat_value *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return x->value < y->value ? -1 : x->value > y->value;
}

int kmag_argstats_finish(struct kmag_argstats *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		struct stat_state *ss = &s->st[i];

		if (ss->nr_vals)
			qsort(ss->vals, ss->nr_vals, sizeof(*ss->vals), by_count_desc);
		ss->pub.nr_top = ss->nr_vals < KMAG_ARGSTAT_TOP ? ss->nr_vals : KMAG_ARGSTAT_TOP;
		if (ss->pub.nr_top)	/* (no values: vals may be NULL, which memcpy must not get) */
			memcpy(ss->pub.top, ss->vals, ss->pub.nr_top * sizeof(*ss->vals));
		u64map_release(&ss->index);
		u64map_init(&ss->index);
		if (!ss->pub.count)
			ss->pub.min = 0;
	}
	return 0;
}

size_t kmag_argstats_count(const struct kmag_argstats *s)
{
	return s ? s->nr : 0;
}

const struct kmag_argstat *kmag_argstats_get(const struct kmag_argstats *s, size_t i)
{
	return i < s->nr ? &s->st[i].pub : NULL;
}
