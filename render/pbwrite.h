/* SPDX-License-Identifier: MIT */
/*
 * pbwrite.h - a protocol-buffers encoder for the exports that write
 * protobuf (render/perfetto.c, render/pprof.c). Not public API.
 *
 * Why our own and not protobuf-c (which Debian has): the exports only ever
 * write, field by field, in one pass, and stream the result (a Perfetto
 * trace is a sequence of small TracePackets, a pprof profile a sequence of
 * samples): a message is encoded into a small buffer as its fields are
 * known, nested messages get their length when they close, and the buffer
 * goes to the file. protobuf-c would need a struct tree per packet, a
 * sizing pass and a packing pass through its descriptors, generated code
 * from an 18,000-line Perfetto schema (or a trimmed copy of it that could
 * drift from upstream's field numbers), and a run-time library in every
 * package, for the four wire types used here. What the encoder writes is
 * checked by the formats' own schemas (protoc, python3-protobuf, go tool
 * pprof) in tests/e2e, never by this code.
 *
 * Wire format: https://protobuf.dev/programming-guides/encoding/ (varints,
 * zigzag is not needed: every signed field here is int32/int64, which is
 * two's complement in 10 bytes when negative).
 */
#ifndef KMAG_RENDER_PBWRITE_H
#define KMAG_RENDER_PBWRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define PB_MAX_NEST 16

enum { PB_VARINT = 0, PB_I64 = 1, PB_LEN = 2, PB_I32 = 5 };

/* A message being encoded; zero-initialise, free .b when done. */
struct pb {
	uint8_t *b;
	size_t len, cap;
	size_t open[PB_MAX_NEST];	/* where each open nested message's content starts */
	unsigned depth;
	bool oom;			/* an allocation failed: the content is incomplete */
};

/* Makes room for @more bytes; false (and .oom) when memory ran out. */
bool pb_reserve(struct pb *p, size_t more);

static inline void pb_raw_varint(struct pb *p, uint64_t v)
{
	if (!pb_reserve(p, 10))
		return;
	while (v >= 0x80) {
		p->b[p->len++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p->b[p->len++] = (uint8_t)v;
}

static inline void pb_tag(struct pb *p, uint32_t field, unsigned wire)
{
	pb_raw_varint(p, (uint64_t)field << 3 | wire);
}

/* uint32/uint64/bool/enum fields */
static inline void pb_uint(struct pb *p, uint32_t field, uint64_t v)
{
	pb_tag(p, field, PB_VARINT);
	pb_raw_varint(p, v);
}

/* int32/int64 fields (a negative value takes ten bytes, as the format says) */
static inline void pb_int(struct pb *p, uint32_t field, int64_t v)
{
	pb_uint(p, field, (uint64_t)v);
}

/* fixed64/double fields: little-endian */
static inline void pb_fixed64(struct pb *p, uint32_t field, uint64_t v)
{
	int i;

	pb_tag(p, field, PB_I64);
	if (!pb_reserve(p, 8))
		return;
	for (i = 0; i < 8; i++)
		p->b[p->len++] = (uint8_t)(v >> (8 * i));
}

/* bytes/string fields */
void pb_bytes(struct pb *p, uint32_t field, const void *data, size_t len);

/* string fields; NULL is "" */
static inline void pb_str(struct pb *p, uint32_t field, const char *s)
{
	pb_bytes(p, field, s ? s : "", s ? strlen(s) : 0);
}

/*
 * Opens a nested message (or packed field) as @field; pb_end() closes the
 * innermost one and writes its length in front of it.
 */
void pb_begin(struct pb *p, uint32_t field);
void pb_end(struct pb *p);

/* Empties @p for the next message (keeps its memory). */
static inline void pb_reset(struct pb *p)
{
	p->len = 0;
	p->depth = 0;
}

/* The bytes a varint of @v takes. */
static inline size_t pb_varint_size(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

#endif /* KMAG_RENDER_PBWRITE_H */
