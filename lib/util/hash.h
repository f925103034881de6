/* SPDX-License-Identifier: MIT */
/*
 * hash.h - the hash functions of kmag's tables (u64map, the symbol table).
 */
#ifndef KMAG_UTIL_HASH_H
#define KMAG_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Fast 64-bit mix for hash tables. */
static inline uint64_t kmag__hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/* Hash of a byte string, eight bytes per step (function names are short). */
static inline uint64_t kmag__hash_bytes(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;

	while (n >= 8) {
		uint64_t w;

		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
		s += 8;
		n -= 8;
	}
	if (n) {
		uint64_t w = 0;

		memcpy(&w, s, n);
		h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	}
	return kmag__hash64(h);
}

#endif /* KMAG_UTIL_HASH_H */
