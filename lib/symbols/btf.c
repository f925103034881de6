// SPDX-License-Identifier: MIT
/*
 * btf.c - function prototypes from the kernel's BTF, with libbpf (see
 * include/kmag/btf.h). Functions are found by name through an index sorted
 * once at load time (libbpf's btf__find_by_name_kind() walks every type).
 */
#define PR_DOMAIN "btf"
#include <stdarg.h>
#include <stdio.h>

#include "config.h"
#include "internal.h"
#include "kmag/btf.h"

#if KMAG_HAVE_BTF
#include <bpf/btf.h>
#include <bpf/libbpf.h>

struct func_ix {
	const char *name;	/* borrowed from btf */
	uint32_t id;		/* BTF_KIND_FUNC type id */
};

struct kmag_btf {
	struct btf *btf;
	struct func_ix *funcs;	/* sorted by name, then id */
	size_t nfuncs;
};

static int cmp_ix(const void *a, const void *b)
{
	const struct func_ix *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->id < y->id ? -1 : x->id > y->id;
}

static struct kmag_btf *index_btf(struct btf *b, const char *what, struct kmag_err *err)
{
	struct kmag_btf *k = calloc(1, sizeof(*k));
	uint32_t n = btf__type_cnt(b);

	if (!k || !(k->funcs = calloc(n ? n : 1, sizeof(*k->funcs)))) {
		free(k);
		btf__free(b);
		kmag_err_set(err, ENOMEM, "%s: out of memory indexing BTF", what);
		errno = ENOMEM;
		return NULL;
	}
	k->btf = b;
	for (uint32_t id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(b, id);

		if (!btf_is_func(t))
			continue;
		k->funcs[k->nfuncs].name = btf__name_by_offset(b, t->name_off);
		k->funcs[k->nfuncs].id = id;
		if (k->funcs[k->nfuncs].name)
			k->nfuncs++;
	}
	qsort(k->funcs, k->nfuncs, sizeof(*k->funcs), cmp_ix);
	return k;
}

/* libbpf's own messages go to kmag's log at debug level: the library never prints. */
static int libbpf_log(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char msg[512];
	size_t n;

	(void)level;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	n = strlen(msg);
	while (n && msg[n - 1] == '\n')
		msg[--n] = '\0';
	pr_debug("libbpf: %s", msg);
	return 0;
}

static const char *bpf_strerror(int e, char *buf, size_t size)
{
	if (libbpf_strerror(e, buf, size))
		snprintf(buf, size, "%s", strerror(e));
	return buf;
}

struct kmag_btf *kmag_btf_open(const char *path, struct kmag_err *err)
{
	struct btf *b;
	char why[128];
	int e;

	libbpf_set_print(libbpf_log);
	errno = 0;
	b = btf__parse(path, NULL);
	e = errno;
	if (!b) {
		e = e ? e : EINVAL;
		kmag_err_set(err, e < 4000 ? e : EINVAL, "%s: no BTF read (%s): give a copy of /sys/kernel/btf/vmlinux or a vmlinux built with CONFIG_DEBUG_INFO_BTF",
			     path, bpf_strerror(e, why, sizeof(why)));
		errno = e < 4000 ? e : EINVAL;
		return NULL;
	}
	return index_btf(b, path, err);
}

struct kmag_btf *kmag_btf_from_blob(const void *data, size_t size, struct kmag_err *err)
{
	struct btf *b;
	int e;

	if (!data || !size || size > UINT32_MAX) {
		kmag_err_set(err, EINVAL, "empty or oversized BTF blob (%zu bytes)", size);
		errno = EINVAL;
		return NULL;
	}
	libbpf_set_print(libbpf_log);
	errno = 0;
	b = btf__new(data, (uint32_t)size);
	e = errno;
	if (!b) {
		char why[128];

		e = e ? e : EINVAL;
		kmag_err_set(err, e < 4000 ? e : EINVAL, "the trace's BTF (%zu bytes) is not valid BTF: %s", size,
			     bpf_strerror(e, why, sizeof(why)));
		errno = e < 4000 ? e : EINVAL;
		return NULL;
	}
	return index_btf(b, "the trace's BTF", err);
}

void kmag_btf_free(struct kmag_btf *k)
{
	if (!k)
		return;
	btf__free(k->btf);
	free(k->funcs);
	free(k);
}

size_t kmag_btf_nr_funcs(const struct kmag_btf *k)
{
	return k ? k->nfuncs : 0;
}

/* The kernel's btf_kind_str[] (kernel/bpf/btf.c), used by print_function_args(). */
static const char *kind_str(unsigned kind)
{
	static const char *const s[] = {
		[BTF_KIND_UNKN] = "UNKNOWN",	[BTF_KIND_INT] = "INT",
		[BTF_KIND_PTR] = "PTR",		[BTF_KIND_ARRAY] = "ARRAY",
		[BTF_KIND_STRUCT] = "STRUCT",	[BTF_KIND_UNION] = "UNION",
		[BTF_KIND_ENUM] = "ENUM",	[BTF_KIND_FWD] = "FWD",
		[BTF_KIND_TYPEDEF] = "TYPEDEF",	[BTF_KIND_VOLATILE] = "VOLATILE",
		[BTF_KIND_CONST] = "CONST",	[BTF_KIND_RESTRICT] = "RESTRICT",
		[BTF_KIND_FUNC] = "FUNC",	[BTF_KIND_FUNC_PROTO] = "FUNC_PROTO",
		[BTF_KIND_VAR] = "VAR",		[BTF_KIND_DATASEC] = "DATASEC",
		[BTF_KIND_FLOAT] = "FLOAT",	[BTF_KIND_DECL_TAG] = "DECL_TAG",
		[BTF_KIND_TYPE_TAG] = "TYPE_TAG", [BTF_KIND_ENUM64] = "ENUM64",
	};

	return kind < ARRAY_SIZE(s) && s[kind] ? s[kind] : "UNKNOWN";
}

/* Type @id with typedefs and modifiers skipped, as btf_type_skip_modifiers(). */
static const struct btf_type *skip_mods(const struct btf *b, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(b, id);

	for (int guard = 0; t && guard < 64; guard++) {
		if (!btf_is_typedef(t) && !btf_is_mod(t))
			return t;
		t = btf__type_by_id(b, t->type);
	}
	return t;
}

static void describe(const struct btf *b, uint32_t id, struct kmag_btf_type *out)
{
	const struct btf_type *t;
	unsigned kind;

	memset(out, 0, sizeof(*out));
	out->nregs = 1;
	if (id == 0) {
		out->kind = KMAG_BTF_VOID;
		out->kind_name = "VOID";
		return;
	}
	t = skip_mods(b, id);
	if (!t) {
		out->kind_name = kind_str(BTF_KIND_UNKN);
		return;
	}
	kind = btf_kind(t);
	out->kind_name = kind_str(kind);
	switch (kind) {
	case BTF_KIND_INT:
		out->size = t->size;
		if (btf_int_encoding(t) & BTF_INT_BOOL) {
			out->kind = KMAG_BTF_BOOL;
		} else {
			out->kind = KMAG_BTF_INT;
			out->is_signed = btf_int_encoding(t) & BTF_INT_SIGNED;
		}
		break;
	case BTF_KIND_PTR:
		out->kind = KMAG_BTF_PTR;
		out->size = 8;
		break;
	case BTF_KIND_ENUM:
		out->kind = KMAG_BTF_ENUM;
		out->size = t->size;
		out->is_signed = btf_kflag(t);
		break;
	default: {
		long sz = btf__resolve_size(b, id);

		out->kind = KMAG_BTF_OTHER;
		out->size = sz > 0 ? (uint32_t)sz : 0;
		/* print_function_args(): one register, then one per further long */
		out->nregs = out->size > 8 ? (out->size + 7) / 8 : 1;
		break;
	}
	}
}

int kmag_btf_func(const struct kmag_btf *k, const char *name, struct kmag_btf_func *out)
{
	struct func_ix key = { .name = name, .id = 0 };
	const struct func_ix *hit = NULL;
	const struct btf_type *fn, *proto;
	const struct btf_param *p;
	size_t lo = 0, hi = k ? k->nfuncs : 0;

	memset(out, 0, sizeof(*out));
	while (lo < hi) {	/* the first (lowest id) entry of @name */
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_ix(&k->funcs[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (k && lo < k->nfuncs && !strcmp(k->funcs[lo].name, name))
		hit = &k->funcs[lo];
	if (!hit)
		return -ENOENT;
	fn = btf__type_by_id(k->btf, hit->id);
	proto = fn ? btf__type_by_id(k->btf, fn->type) : NULL;
	if (!proto || !btf_is_func_proto(proto))
		return -ENOENT;
	out->name = hit->name;
	describe(k->btf, proto->type, &out->ret);
	p = btf_params(proto);
	for (uint32_t i = 0; i < btf_vlen(proto); i++) {
		if (i + 1 == btf_vlen(proto) && p[i].type == 0 && p[i].name_off == 0) {
			out->variadic = true;	/* a trailing "..." */
			break;
		}
		if (out->nparams < KMAG_BTF_MAX_PARAMS) {
			struct kmag_btf_param *q = &out->params[out->nparams];
			const char *pn = btf__name_by_offset(k->btf, p[i].name_off);

			q->name = pn ? pn : "";
			describe(k->btf, p[i].type, &q->type);
		}
		out->nparams++;
	}
	return 0;
}

#else /* !KMAG_HAVE_BTF */

struct kmag_btf {
	int unused;
};

struct kmag_btf *kmag_btf_open(const char *path, struct kmag_err *err)
{
	(void)path;
	errno = -kmag_need_feature(KMAG_FEATURE_BTF, "reading BTF", err);
	return NULL;
}

struct kmag_btf *kmag_btf_from_blob(const void *data, size_t size, struct kmag_err *err)
{
	(void)data;
	(void)size;
	errno = -kmag_need_feature(KMAG_FEATURE_BTF, "reading BTF", err);
	return NULL;
}

void kmag_btf_free(struct kmag_btf *k)
{
	free(k);
}

size_t kmag_btf_nr_funcs(const struct kmag_btf *k)
{
	(void)k;
	return 0;
}

int kmag_btf_func(const struct kmag_btf *k, const char *name, struct kmag_btf_func *out)
{
	(void)k;
	(void)name;
	memset(out, 0, sizeof(*out));
	return -ENOENT;
}

#endif /* KMAG_HAVE_BTF */

uint32_t kmag_btf_func_nregs(const struct kmag_btf_func *f, uint32_t max)
{
	uint32_t regs = 0, n = f->nparams < KMAG_BTF_MAX_PARAMS ? f->nparams : KMAG_BTF_MAX_PARAMS;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t r = f->params[i].type.nregs ? f->params[i].type.nregs : 1;

		if (regs + r > max)
			break;
		regs += r;
	}
	return regs;
}

bool kmag_btf_ret_is_error(const struct kmag_btf_type *ret, uint64_t value, int *errnum)
{
	int64_t v;

	switch (ret->kind) {
	case KMAG_BTF_INT:
	case KMAG_BTF_ENUM:
		if (ret->kind == KMAG_BTF_INT && !ret->is_signed)
			return false;
		if (ret->size == 1)
			v = (int8_t)value;
		else if (ret->size == 2)
			v = (int16_t)value;
		else if (ret->size == 4)
			v = (int32_t)value;
		else
			v = (int64_t)value;
		break;
	case KMAG_BTF_PTR:	/* IS_ERR_VALUE(): the top 4095 addresses */
		v = (int64_t)value;
		break;
	default:
		return false;
	}
	if (v >= 0 || v < -4095)
		return false;
	if (errnum)
		*errnum = (int)-v;
	return true;
}
