// SPDX-License-Identifier: MIT
/*
 * t-pbwrite: the exports' protobuf encoder (render/pbwrite.h) against bytes
 * worked out by hand from the wire-format specification
 * (protobuf.dev/programming-guides/encoding): varints, negative int64s in ten
 * bytes, fixed64, strings, and nested messages whose length needs one, two
 * and three bytes (the encoder reserves one and moves the content). What the
 * exports write as a whole is checked by protoc and python3-protobuf in e2e.
 */
#include "test.h"
#include "../../render/pbwrite.h"

static void scalars(void)
{
	static const uint8_t want[] = {
		0x08, 0x96, 0x01,		/* field 1 varint 150 (the spec's example) */
		0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,	/* 2: int64 -1 */
		0x19, 1, 2, 3, 4, 5, 6, 7, 8,	/* 3: fixed64 0x0807060504030201 */
		0x22, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g',	/* 4: "testing" */
		0xa0, 0x1f, 0x00,		/* field 500 varint 0: a two-byte tag */
	};
	struct pb p = { 0 };

	pb_uint(&p, 1, 150);
	pb_int(&p, 2, -1);
	pb_fixed64(&p, 3, 0x0807060504030201ull);
	pb_str(&p, 4, "testing");
	pb_uint(&p, 500, 0);
	CHECK(!p.oom);
	CHECK_EQ(p.len, sizeof(want));
	CHECK(!memcmp(p.b, want, sizeof(want)));
	free(p.b);
}

/* A nested message (field 3) of @n bytes of content: its length prefix and content. */
static void nested_len(size_t n, const uint8_t *prefix, size_t nprefix)
{
	struct pb p = { 0 };
	size_t i;

	pb_uint(&p, 1, 1);
	pb_begin(&p, 3);
	for (i = 0; i < n; i++)		/* n / 2 fields "field 1 varint i % 100" ... */
		if (i + 1 < n) {
			pb_uint(&p, 1, i % 100);
			i++;
		} else {
			pb_raw_varint(&p, 0);
		}
	pb_end(&p);
	pb_uint(&p, 2, 7);
	CHECK(!p.oom);
	CHECK_EQ(p.len, 2 + 1 + nprefix + n + 2);
	CHECK_EQ(p.b[0], 0x08);
	CHECK_EQ(p.b[2], 0x1a);		/* field 3, wire type 2 */
	CHECK(!memcmp(p.b + 3, prefix, nprefix));
	CHECK_EQ(p.b[3 + nprefix], 0x08);	/* the content, moved behind the prefix */
	CHECK_EQ(p.b[3 + nprefix + 1], 0);
	CHECK_EQ(p.b[p.len - 2], 0x10);	/* and what follows it */
	CHECK_EQ(p.b[p.len - 1], 7);
	free(p.b);
}

static void nested(void)
{
	static const uint8_t one[] = { 100 }, two[] = { 0xc8, 0x01 }, three[] = { 0xa0, 0x9c, 0x01 };
	struct pb p = { 0 };

	nested_len(100, one, 1);
	nested_len(200, two, 2);
	nested_len(20000, three, 3);
	/* nested in nested: {2: {1: 5}} */
	pb_begin(&p, 1);
	pb_begin(&p, 2);
	pb_uint(&p, 1, 5);
	pb_end(&p);
	pb_end(&p);
	CHECK_EQ(p.len, 6);
	CHECK(!memcmp(p.b, "\x0a\x04\x12\x02\x08\x05", 6));
	free(p.b);
}

const struct test_case pbwrite_tests[] = {
	{ "pbwrite: scalars as the wire format spells them", scalars },
	{ "pbwrite: nested messages with 1-, 2- and 3-byte lengths", nested },
	TEST_LIST_END,
};
