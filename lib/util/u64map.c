// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>

#include "u64map.h"

void u64map_init(struct u64map *m)
{
	m->slots = NULL;
	m->mask = 0;
	m->count = 0;
	m->has_max = false;
	m->max_val = 0;
}

void u64map_release(struct u64map *m)
{
	free(m->slots);
	u64map_init(m);
}

static int u64map_rehash(struct u64map *m, size_t cap)
{
	struct u64map_slot *old = m->slots, *slots;
	size_t old_cap = m->mask ? m->mask + 1 : 0, i;

	slots = malloc(cap * sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (i = 0; i < cap; i++)
		slots[i].key = U64MAP_EMPTY;
	m->slots = slots;
	m->mask = cap - 1;
	for (i = 0; i < old_cap; i++) {
		size_t j;

		if (old[i].key == U64MAP_EMPTY)
			continue;
		for (j = kmag__hash64(old[i].key) & m->mask; slots[j].key != U64MAP_EMPTY;
		     j = (j + 1) & m->mask)
			;
		slots[j] = old[i];
	}
	free(old);
	return 0;
}

uint64_t *u64map_upsert(struct u64map *m, uint64_t key, uint64_t init, bool *inserted)
{
	size_t i;

	if (key == U64MAP_EMPTY) {
		if (inserted)
			*inserted = !m->has_max;
		if (!m->has_max) {
			m->has_max = true;
			m->max_val = init;
		}
		return &m->max_val;
	}
	/* keep the load factor under 1/2 so probes stay short */
	if ((m->count + 1) * 2 > (m->mask ? m->mask + 1 : 0)) {
		size_t cap = m->mask ? (m->mask + 1) * 2 : 64;

		if (u64map_rehash(m, cap))
			return NULL;
	}
	for (i = kmag__hash64(key) & m->mask;; i = (i + 1) & m->mask) {
		struct u64map_slot *s = &m->slots[i];

		if (s->key == key) {
			if (inserted)
				*inserted = false;
			return &s->val;
		}
		if (s->key == U64MAP_EMPTY) {
			s->key = key;
			s->val = init;
			m->count++;
			if (inserted)
				*inserted = true;
			return &s->val;
		}
	}
}
