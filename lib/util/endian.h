/* SPDX-License-Identifier: MIT */
/*
 * endian.h - reading numbers of a file's byte order (trace.dat headers,
 * ring-buffer pages): memcpy (no alignment needed) and a swap when the file's
 * order is not the host's. Header-only.
 */
#ifndef KMAG_UTIL_ENDIAN_H
#define KMAG_UTIL_ENDIAN_H

#include <stdbool.h>
#include <stdint.h>

static inline uint16_t kmag__get16(bool swap, const void *p)
{
	uint16_t v;

	__builtin_memcpy(&v, p, 2);
	return swap ? __builtin_bswap16(v) : v;
}

static inline uint32_t kmag__get32(bool swap, const void *p)
{
	uint32_t v;

	__builtin_memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t kmag__get64(bool swap, const void *p)
{
	uint64_t v;

	__builtin_memcpy(&v, p, 8);
	return swap ? __builtin_bswap64(v) : v;
}

#endif /* KMAG_UTIL_ENDIAN_H */
