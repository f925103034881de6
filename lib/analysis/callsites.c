// SPDX-License-Identifier: MIT
/*
 * callsites.c - call sites per caller -> callee edge (see
 * include/kmag/callsites.h).
 */
#include <inttypes.h>
#include <stdio.h>

#include "internal.h"
#include "kmag/callsites.h"
#include "util/u64map.h"

struct kmag_callsites {
	const struct kmag_symtab *st;
	struct kmag_srclines *lines;
	struct u64map index;	/* hash of (caller, callee, off) -> sites index + 1 */
	struct kmag_callsite *sites;
	size_t nr, cap;
	kmag_func_t root;	/* only the calls under it; KMAG_FUNC_NONE: all */
};

struct kmag_callsites *kmag_callsites_new(const struct kmag_symtab *st, struct kmag_srclines *lines)
{
	struct kmag_callsites *cs = calloc(1, sizeof(*cs));

	if (!cs)
		return NULL;
	cs->st = st;
	cs->lines = lines;
	cs->root = KMAG_FUNC_NONE;
	u64map_init(&cs->index);
	return cs;
}

void kmag_callsites_free(struct kmag_callsites *cs)
{
	if (!cs)
		return;
	u64map_release(&cs->index);
	free(cs->sites);
	free(cs);
}

static uint64_t key_of(kmag_func_t caller, kmag_func_t callee, uint32_t off, uint64_t probe)
{
	return kmag__hash64(((uint64_t)caller << 32 ^ callee) * 0x9e3779b97f4a7c15ull ^ off) + probe;
}

static int on_enter(void *ctx, const struct kmag_call *call, void *data,
		    const struct kmag_call *parent, void *parent_data)
{
	struct kmag_callsites *cs = ctx;
	bool *under = data;
	const bool *parent_under = parent_data;
	uint64_t *v;

	(void)parent;
	*under = kmag_call_under(cs->root, call, parent_under && *parent_under);
	if (!*under || call->func == KMAG_FUNC_NONE || call->caller == KMAG_FUNC_NONE ||
	    call->caller_off == KMAG_OFF_NONE)
		return 0;
	for (uint64_t probe = 0;; probe++) {	/* another site with the same hash: next key */
		uint64_t key = key_of(call->caller, call->func, call->caller_off, probe);
		struct kmag_callsite *s;

		v = u64map_get(&cs->index, key);
		if (v) {
			s = &cs->sites[*v - 1];
			if (s->caller == call->caller && s->callee == call->func &&
			    s->caller_off == call->caller_off) {
				s->count++;
				return 0;
			}
			continue;
		}
		if (kmag__grow(&cs->sites, &cs->cap, cs->nr + 1, sizeof(*cs->sites)) ||
		    !u64map_upsert(&cs->index, key, cs->nr + 1, NULL))
			return -ENOMEM;
		cs->sites[cs->nr++] = (struct kmag_callsite){ call->caller, call->func, call->caller_off, 1 };
		return 0;
	}
}

void kmag_callsites_set_root(struct kmag_callsites *cs, kmag_func_t root)
{
	cs->root = root;
}

int kmag_callsites_subscribe(struct kmag_callsites *cs, struct kmag_replay *r)
{
	static const struct kmag_replay_ops ops = { .data_size = sizeof(bool), .enter = on_enter };

	return kmag_replay_subscribe(r, &ops, cs);
}

const struct kmag_callsite *kmag_callsites_list(const struct kmag_callsites *cs, size_t *n)
{
	*n = cs ? cs->nr : 0;
	return cs ? cs->sites : NULL;
}

struct line_count {
	char line[256];
	uint64_t count;
};

static int by_count(const void *a, const void *b)
{
	const struct line_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->line, y->line);
}

const char *kmag_callsites_describe(struct kmag_callsites *cs, kmag_func_t caller,
				    kmag_func_t callee, char *buf, size_t size)
{
	struct line_count lc[16];
	size_t n = 0, len = 0;
	const char *name = kmag_symtab_name(cs->st, caller);

	if (size)
		buf[0] = '\0';
	if (!name || !cs->lines || !size)
		return NULL;
	for (size_t i = 0; i < cs->nr; i++) {	/* offsets on one line are one site */
		const struct kmag_callsite *s = &cs->sites[i];
		char line[256];
		size_t k;

		if (s->caller != caller || s->callee != callee ||
		    !kmag_srclines_call_site(cs->lines, name, s->caller_off, line, sizeof(line)))
			continue;
		for (k = 0; k < n && strcmp(lc[k].line, line); k++)
			;
		if (k == n) {
			if (n == sizeof(lc) / sizeof(lc[0]))
				continue;
			snprintf(lc[n].line, sizeof(lc[n].line), "%s", line);
			lc[n++].count = 0;
		}
		lc[k].count += s->count;
	}
	if (!n)
		return NULL;
	qsort(lc, n, sizeof(*lc), by_count);
	for (size_t k = 0; k < n; k++) {
		int w = snprintf(buf + len, size - len, "%s%s x%" PRIu64, k ? ", " : "", lc[k].line,
				 lc[k].count);

		if (w < 0 || (size_t)w >= size - len)
			break;
		len += (size_t)w;
	}
	return buf;
}
