// SPDX-License-Identifier: MIT
/*
 * trace-btf.c - a trace's functions seen through the kernel's BTF
 * (kmag_trace_set_btf()): their prototypes, cached per function, and the
 * argument names of binary traces, whose records carry only registers
 * (kmag_trace_arg_names(): the names a text trace printed, else these).
 */
#include <stdio.h>

#include "internal.h"
#include "kmag/btf.h"
#include "kmag/symtab.h"
#include "trace/trace-internal.h"

void kmag_trace_set_btf(struct kmag_trace *t, const struct kmag_btf *btf)
{
	t->types = btf;
	kmag__trace_btf_release(t);
	u64map_init(&t->btf_ix);
}

const struct kmag_btf *kmag_trace_get_btf(const struct kmag_trace *t)
{
	return t->types;
}

void kmag__trace_btf_release(struct kmag_trace *t)
{
	for (size_t i = 0; i < t->nr_btf_funcs; i++)
		free(t->btf_funcs[i]);
	free(t->btf_funcs);
	t->btf_funcs = NULL;
	t->nr_btf_funcs = t->cap_btf_funcs = 0;
	u64map_release(&t->btf_ix);
}

const struct kmag_btf_func *kmag_trace_arg_proto(const struct kmag_trace *ct, kmag_func_t func)
{
	struct kmag_trace *t = (struct kmag_trace *)ct;	/* a cache only */
	struct kmag_btf_func *f;
	const char *name;
	uint64_t *slot;
	bool ins;

	if (!t->types || func == KMAG_FUNC_NONE)
		return NULL;
	slot = u64map_get(&t->btf_ix, func);
	if (slot)
		return *slot ? t->btf_funcs[*slot - 1] : NULL;
	name = kmag_symtab_name(t->st, func);
	f = malloc(sizeof(*f));
	if (!f)
		return NULL;
	if (!name || kmag_btf_func(t->types, name, f) ||
	    kmag__grow(&t->btf_funcs, &t->cap_btf_funcs, t->nr_btf_funcs + 1, sizeof(*t->btf_funcs))) {
		free(f);
		f = NULL;
	} else {
		t->btf_funcs[t->nr_btf_funcs++] = f;
	}
	slot = u64map_upsert(&t->btf_ix, func, f ? t->nr_btf_funcs : 0, &ins);
	(void)slot;
	return f;
}

bool kmag_trace_returns_void(const struct kmag_trace *t, kmag_func_t func)
{
	const struct kmag_btf_func *f = kmag_trace_arg_proto(t, func);

	return f && f->ret.kind == KMAG_BTF_VOID;
}

/* "fd,buf,count" of @f, a struct in k registers as "name" and k - 1 empty names. */
static int btf_names(const struct kmag_btf_func *f, char *buf, size_t size)
{
	size_t len = 0;
	uint32_t regs = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < f->nparams && i < KMAG_BTF_MAX_PARAMS; i++) {
		uint32_t r = f->params[i].type.nregs ? f->params[i].type.nregs : 1;

		for (uint32_t k = 0; k < r && regs < KMAG_MAX_ARGS; k++, regs++) {
			int n = snprintf(buf + len, size - len, "%s%s", regs ? "," : "",
					 k ? "" : f->params[i].name);

			if (n < 0 || (size_t)n >= size - len)
				return -ENOSPC;
			len += (size_t)n;
		}
	}
	return (int)len;
}

const char *kmag__trace_btf_arg_names(const struct kmag_trace *ct, kmag_func_t func)
{
	struct kmag_trace *t = (struct kmag_trace *)ct;	/* names are cached like the text's */
	const struct kmag_btf_func *f = kmag_trace_arg_proto(t, func);
	char buf[1024];
	int len;

	if (!f || (len = btf_names(f, buf, sizeof(buf))) < 0)
		return NULL;
	if (kmag__trace_set_arg_names(t, func, buf, (size_t)len))
		return NULL;
	return kmag__keyed_get(&t->arg_names, func);
}

const char *kmag_trace_arg_names(const struct kmag_trace *t, kmag_func_t func)
{
	const char *names = func == KMAG_FUNC_NONE ? NULL : kmag__keyed_get(&t->arg_names, func);

	if (!names && t->types && func != KMAG_FUNC_NONE)
		names = kmag__trace_btf_arg_names(t, func);
	return names;
}
