// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "grow.h"

int kmag__grow(void *arr, size_t *cap, size_t need, size_t elem)
{
	void **p = arr;
	size_t ncap = *cap ? *cap : 16, bytes;
	void *n;

	if (need <= *cap)
		return 0;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return -ENOMEM;
		ncap *= 2;
	}
	if (__builtin_mul_overflow(ncap, elem, &bytes))
		return -ENOMEM;
	n = realloc(*p, bytes);
	if (!n)
		return -ENOMEM;
	*p = n;
	*cap = ncap;
	return 0;
}
