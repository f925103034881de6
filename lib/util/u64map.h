/* SPDX-License-Identifier: MIT */
/*
 * u64map.h - open-addressing hash map from a 64-bit key to a 64-bit value.
 *
 * Used on the hot decode path (address -> function id, caller/callee pair ->
 * edge index), where a generic map's indirection would cost more than the
 * work itself. Key UINT64_MAX marks empty slots, so that one key lives in a
 * separate slot (inputs can contain any 64-bit value).
 */
#ifndef KMAG_U64MAP_H
#define KMAG_U64MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hash.h"

#define U64MAP_EMPTY UINT64_MAX

struct u64map_slot {
	uint64_t key;
	uint64_t val;
};

struct u64map {
	struct u64map_slot *slots;
	size_t mask;	/* capacity - 1 (capacity is a power of two), 0 when unallocated */
	size_t count;
	bool has_max;	/* key UINT64_MAX is present, its value in max_val */
	uint64_t max_val;
};

void u64map_init(struct u64map *m);
void u64map_release(struct u64map *m);

/* Returns a pointer to the value for @key, or NULL. */
static inline uint64_t *u64map_get(const struct u64map *m, uint64_t key)
{
	size_t i;

	if (__builtin_expect(key == U64MAP_EMPTY, 0))
		return m->has_max ? (uint64_t *)&m->max_val : NULL;
	if (!m->mask)
		return NULL;
	for (i = kmag__hash64(key) & m->mask;; i = (i + 1) & m->mask) {
		struct u64map_slot *s = &m->slots[i];

		if (s->key == key)
			return &s->val;
		if (s->key == U64MAP_EMPTY)
			return NULL;
	}
}

/*
 * Returns the value slot for @key, inserting it with @init if absent
 * (*@inserted tells which). NULL on allocation failure.
 */
uint64_t *u64map_upsert(struct u64map *m, uint64_t key, uint64_t init, bool *inserted);

#endif /* KMAG_U64MAP_H */
