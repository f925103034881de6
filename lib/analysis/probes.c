// SPDX-License-Identifier: MIT
/*
 * probes.c - hit counts and argument statistics of dynamic probe events.
 *
 * Fields are read through the event formats (libtraceevent's
 * tep_read_number_field(), which also handles the file's byte order); the
 * per-id description is resolved once, on the first record of that id.
 */
#define PR_DOMAIN "probes"
#include <traceevent/event-parse.h>

#include "internal.h"
#include "kmag/probes.h"
#include "kmag/trace.h"
#include "trace/event-format.h"
#include "util/log2hist.h"
#include "util/u64map.h"

#define MAX_DISTINCT (1u << 16)	/* distinct values tracked per argument */
#define KERNEL_HALF 0xffff800000000000ull	/* x86-64/arm64 kernel addresses */

struct arg_state {
	struct tep_format_field *field;
	struct u64map index;		/* value (or string hash) -> vals index + 1 */
	struct kmag_probe_value *vals;
	size_t nr_vals, cap_vals;
};

struct probe_state {
	struct kmag_probe pub;
	struct tep_format_field *ip;	/* __probe_ip or __probe_func */
	struct arg_state *args;
};

struct kmag_probes {
	struct kmag_trace *t;
	uint8_t *kind;			/* event id -> 0 unknown, 1 not a probe, 2 + index */
	uint32_t *slot;			/* event id -> probe index */
	struct probe_state *probes;
	size_t nr, cap;
	struct u64map hits_by_func;	/* func -> hits */
};

struct kmag_probes *kmag_probes_new(struct kmag_trace *t)
{
	struct kmag_probes *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->t = t;
	p->kind = calloc(UINT16_MAX + 1, 1);
	p->slot = calloc(UINT16_MAX + 1, sizeof(*p->slot));
	if (!p->kind || !p->slot) {
		kmag_probes_free(p);
		return NULL;
	}
	u64map_init(&p->hits_by_func);
	return p;
}

void kmag_probes_free(struct kmag_probes *p)
{
	size_t i, a, v;

	if (!p)
		return;
	for (i = 0; i < p->nr; i++) {
		for (a = 0; a < p->probes[i].pub.nr_args; a++) {
			struct arg_state *as = &p->probes[i].args[a];

			for (v = 0; v < as->nr_vals; v++)
				free((char *)as->vals[v].str);
			free(as->vals);
			u64map_release(&as->index);
		}
		free(p->probes[i].args);
		free(p->probes[i].pub.args);
	}
	free(p->probes);
	free(p->kind);
	free(p->slot);
	u64map_release(&p->hits_by_func);
	free(p);
}

/* Registers event @id if its format is a probe's; returns its index or -1. */
static long probe_of(struct kmag_probes *p, int id)
{
	struct tep_event *te;
	struct tep_format_field *ip, *f;
	struct probe_state *ps;
	bool ret = false;
	size_t n = 0, a;

	if (p->kind[id])
		return p->kind[id] == 1 ? -1 : (long)p->slot[id];
	p->kind[id] = 1;
	te = kmag__trace_event_format(p->t, id);
	if (!te)
		return -1;
	ip = tep_find_field(te, "__probe_ip");
	if (!ip) {
		ip = tep_find_field(te, "__probe_func");
		ret = ip && tep_find_field(te, "__probe_ret_ip");
		if (!ret)
			return -1;
	}
	if (kmag__grow(&p->probes, &p->cap, p->nr + 1, sizeof(*p->probes)))
		return -2;
	for (f = te->format.fields; f; f = f->next)
		n += strncmp(f->name, "__probe_", 8) != 0;
	ps = &p->probes[p->nr];
	memset(ps, 0, sizeof(*ps));
	ps->args = calloc(n ? n : 1, sizeof(*ps->args));
	ps->pub.args = calloc(n ? n : 1, sizeof(*ps->pub.args));
	if (!ps->args || !ps->pub.args) {
		free(ps->args);
		free(ps->pub.args);
		return -2;
	}
	ps->ip = ip;
	ps->pub.system = te->system;
	ps->pub.name = te->name;
	ps->pub.event_id = id;
	ps->pub.kind = ret ? KMAG_PROBE_RETURN : KMAG_PROBE_ENTRY;
	ps->pub.func = KMAG_FUNC_NONE;
	for (f = te->format.fields, a = 0; f; f = f->next) {
		struct kmag_probe_arg *pa = &ps->pub.args[a];

		if (!strncmp(f->name, "__probe_", 8))
			continue;
		ps->args[a].field = f;
		u64map_init(&ps->args[a].index);
		pa->name = f->name;
		pa->type = f->type;
		pa->is_string = (f->flags & TEP_FIELD_IS_STRING) || (f->flags & TEP_FIELD_IS_DYNAMIC);
		pa->is_signed = !pa->is_string && (f->flags & TEP_FIELD_IS_SIGNED);
		pa->min = pa->is_signed ? (uint64_t)INT64_MAX : UINT64_MAX;
		pa->max = pa->is_signed ? (uint64_t)INT64_MIN : 0;
		a++;
	}
	ps->pub.nr_args = n;
	p->slot[id] = (uint32_t)p->nr;
	p->kind[id] = 2;
	return (long)p->nr++;
}

/* A string argument's text: __data_loc (dynamic) or a fixed char array. */
static bool read_string(struct tep_format_field *f, const struct kmag_event *ev, const char **s,
			size_t *len)
{
	const uint8_t *data = ev->raw;
	uint32_t off, n;

	if ((uint32_t)f->offset + (uint32_t)f->size > ev->raw_size)
		return false;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		uint64_t loc;

		if (f->size != 4 || tep_read_number_field(f, data, (unsigned long long *)&loc))
			return false;
		off = (uint32_t)loc & 0xffff;
		n = (uint32_t)(loc >> 16) & 0xffff;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += (uint32_t)f->offset + (uint32_t)f->size;
	} else {
		off = (uint32_t)f->offset;
		n = (uint32_t)f->size;
	}
	if ((uint64_t)off + n > ev->raw_size)
		return false;
	*s = (const char *)data + off;
	*len = strnlen(*s, n);
	return true;
}

static struct kmag_probe_value *value_slot(struct arg_state *as, struct kmag_probe_arg *pa,
					   uint64_t key, const char *s, size_t len, int *err)
{
	uint64_t *v;
	bool inserted;

	for (;;) {
		v = u64map_get(&as->index, key);
		if (!v)
			break;
		if (!s || (!strncmp(as->vals[*v - 1].str, s, len) && !as->vals[*v - 1].str[len]))
			return &as->vals[*v - 1];
		key++;	/* another string with the same hash: the next key */
	}
	if (as->nr_vals >= MAX_DISTINCT) {
		pa->distinct_capped = true;
		return NULL;
	}
	if (kmag__grow(&as->vals, &as->cap_vals, as->nr_vals + 1, sizeof(*as->vals)))
		goto nomem;
	as->vals[as->nr_vals] = (struct kmag_probe_value){ key, NULL, 0 };
	if (s && !(as->vals[as->nr_vals].str = strndup(s, len)))
		goto nomem;
	if (!u64map_upsert(&as->index, key, as->nr_vals + 1, &inserted)) {
		free((char *)as->vals[as->nr_vals].str);
		goto nomem;
	}
	pa->distinct++;
	return &as->vals[as->nr_vals++];
nomem:
	*err = -ENOMEM;
	return NULL;
}

static int add_arg(struct arg_state *as, struct kmag_probe_arg *pa, const struct kmag_event *ev)
{
	struct tep_format_field *f = as->field;
	struct kmag_probe_value *pv;
	unsigned long long raw;
	uint64_t v;
	int err = 0;

	if (pa->is_string) {
		const char *s;
		size_t len;

		if (!read_string(f, ev, &s, &len))
			return 0;
		pa->count++;
		pv = value_slot(as, pa, kmag__hash_bytes(s, len), s, len, &err);
		if (pv)
			pv->count++;
		return err;
	}
	if ((uint32_t)f->offset + (uint32_t)f->size > ev->raw_size ||
	    tep_read_number_field(f, ev->raw, &raw))
		return 0;
	v = raw;
	if (pa->is_signed && f->size < 8) {
		unsigned shift = 64 - 8 * (unsigned)f->size;

		v = (uint64_t)((int64_t)(v << shift) >> shift);
	}
	pa->count++;
	if (pa->is_signed) {
		int64_t s = (int64_t)v;

		if (s < (int64_t)pa->min)
			pa->min = v;
		if (s > (int64_t)pa->max)
			pa->max = v;
		pa->sum += (double)s;
	} else {
		if (v < pa->min)
			pa->min = v;
		if (v > pa->max)
			pa->max = v;
		pa->sum += (double)v;
	}
	kmag__log2hist_add(pa->hist, pa->neg_hist, v, pa->is_signed);
	pv = value_slot(as, pa, v, NULL, 0, &err);
	if (pv)
		pv->count++;
	return err;
}

int kmag_probes_add(struct kmag_probes *p, const struct kmag_event *ev)
{
	struct probe_state *ps;
	long i;
	size_t a;
	int ret;

	if (ev->type != KMAG_EV_OTHER || !ev->raw)
		return 0;
	i = probe_of(p, ev->event_id);
	if (i == -2)
		return -ENOMEM;
	if (i < 0)
		return 0;
	ps = &p->probes[i];
	ps->pub.hits++;
	if (ps->pub.func == KMAG_FUNC_NONE && !ps->pub.kernel) {
		unsigned long long ip;

		/* the probed address names the function (kernel probes only) */
		if ((uint32_t)ps->ip->offset + (uint32_t)ps->ip->size <= ev->raw_size &&
		    !tep_read_number_field(ps->ip, ev->raw, &ip) && ip >= KERNEL_HALF) {
			ps->pub.kernel = true;
			ps->pub.func = kmag_symtab_resolve(kmag_trace_symtab(p->t), ip, false);
		}
	}
	if (ps->pub.func != KMAG_FUNC_NONE) {
		uint64_t *h = u64map_upsert(&p->hits_by_func, ps->pub.func, 0, NULL);

		if (!h)
			return -ENOMEM;
		(*h)++;
	}
	for (a = 0; a < ps->pub.nr_args; a++)
		if ((ret = add_arg(&ps->args[a], &ps->pub.args[a], ev)))
			return ret;
	return 0;
}

static int by_count_desc(const void *a, const void *b)
{
	const struct kmag_probe_value *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return x->value < y->value ? -1 : x->value > y->value;
}

int kmag_probes_finish(struct kmag_probes *p)
{
	size_t i, a, k;

	for (i = 0; i < p->nr; i++) {
		for (a = 0; a < p->probes[i].pub.nr_args; a++) {
			struct arg_state *as = &p->probes[i].args[a];
			struct kmag_probe_arg *pa = &p->probes[i].pub.args[a];

			if (as->nr_vals)
				qsort(as->vals, as->nr_vals, sizeof(*as->vals), by_count_desc);
			pa->nr_top = as->nr_vals < KMAG_PROBE_TOP ? as->nr_vals : KMAG_PROBE_TOP;
			for (k = 0; k < pa->nr_top; k++)
				pa->top[k] = as->vals[k];
			/* the index points into the sorted array no more */
			u64map_release(&as->index);
			u64map_init(&as->index);
		}
	}
	return 0;
}

size_t kmag_probes_count(const struct kmag_probes *p)
{
	return p ? p->nr : 0;
}

const struct kmag_probe *kmag_probes_get(const struct kmag_probes *p, size_t i)
{
	return p && i < p->nr ? &p->probes[i].pub : NULL;
}

uint64_t kmag_probes_hits_of(const struct kmag_probes *p, kmag_func_t func)
{
	uint64_t *h;

	if (!p || func == KMAG_FUNC_NONE)
		return 0;
	h = u64map_get(&p->hits_by_func, func);
	return h ? *h : 0;
}

uint64_t kmag_probes_hits_cb(void *ctx, kmag_func_t func)
{
	return kmag_probes_hits_of(ctx, func);
}
