/* SPDX-License-Identifier: MIT */
/*
 * grow.h - the growing array used across the library and the renderers.
 */
#ifndef KMAG_UTIL_GROW_H
#define KMAG_UTIL_GROW_H

#include <stddef.h>

/*
 * Grows *@arr (of *@cap elements of @elem bytes) to hold at least @need
 * elements, doubling the capacity. The array stays owned by the caller.
 * Returns 0 or -ENOMEM (the old array stays valid on failure).
 */
int kmag__grow(void *arr, size_t *cap, size_t need, size_t elem);

#endif /* KMAG_UTIL_GROW_H */
