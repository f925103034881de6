// SPDX-License-Identifier: MIT
/*
 * pbwrite.c - the protobuf encoder of the exports (see pbwrite.h for why it
 * is our own).
 */
#include <stdlib.h>

#include "pbwrite.h"

bool pb_reserve(struct pb *p, size_t more)
{
	size_t cap;
	uint8_t *b;

	if (p->oom)
		return false;
	if (p->len + more <= p->cap)
		return true;
	cap = p->cap ? p->cap : 256;
	while (cap < p->len + more)
		cap *= 2;
	b = realloc(p->b, cap);
	if (!b) {
		p->oom = true;
		return false;
	}
	p->b = b;
	p->cap = cap;
	return true;
}

void pb_bytes(struct pb *p, uint32_t field, const void *data, size_t len)
{
	pb_tag(p, field, PB_LEN);
	pb_raw_varint(p, len);
	if (!pb_reserve(p, len))
		return;
	if (len)
		memcpy(p->b + p->len, data, len);
	p->len += len;
}

void pb_begin(struct pb *p, uint32_t field)
{
	pb_tag(p, field, PB_LEN);
	/* one byte for the length, which is most often under 128; pb_end() makes room for more */
	if (!pb_reserve(p, 1))
		return;
	p->b[p->len++] = 0;
	if (p->depth == PB_MAX_NEST) {
		p->oom = true;	/* a programming error: no message here nests that deep */
		return;
	}
	p->open[p->depth++] = p->len;
}

void pb_end(struct pb *p)
{
	size_t start, len, n, i;
	uint64_t v;

	if (p->oom || !p->depth)
		return;
	start = p->open[--p->depth];
	len = p->len - start;
	n = pb_varint_size(len);
	if (n > 1) {
		if (!pb_reserve(p, n - 1))
			return;
		memmove(p->b + start + n - 1, p->b + start, len);
		p->len += n - 1;
	}
	v = len;
	for (i = 0; i < n; i++, v >>= 7)
		p->b[start - 1 + i] = (uint8_t)((v & 0x7f) | (i + 1 < n ? 0x80 : 0));
}
