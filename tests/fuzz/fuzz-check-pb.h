/* SPDX-License-Identifier: MIT */
/*
 * fuzz-check-pb.h - output checks of the protobuf exports for the render
 * targets: a protobuf wire-format reader of its own (not kmag's encoder,
 * render/pbwrite.c) and what the formats require of the parts kmag writes.
 *
 * fz_check_pb(): every field of a message has a valid tag, wire type and
 * length (recursing into the fields @nested names as messages).
 * fz_check_perfetto(): a perfetto.protos.Trace: only TracePackets (field 1),
 * each well formed; per track (TrackEvent.track_uuid), timestamps never go
 * back and every TYPE_SLICE_END closes an open TYPE_SLICE_BEGIN; none stays
 * open. Each returns NULL, or why the output is malformed.
 */
#ifndef KMAG_FUZZ_CHECK_PB_H
#define KMAG_FUZZ_CHECK_PB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct fz_pb {
	const unsigned char *p, *end;
};

static inline bool fz_pb_varint(struct fz_pb *b, uint64_t *v)
{
	int shift;

	*v = 0;
	for (shift = 0; shift < 70 && b->p < b->end; shift += 7) {
		unsigned char c = *b->p++;

		*v |= (uint64_t)(c & 0x7f) << (shift < 64 ? shift : 0);
		if (!(c & 0x80))
			return true;
	}
	return false;
}

/*
 * The next field of @b: its number, wire type and, for LEN fields, its bytes
 * in @sub (for the others @val). False at the end or on malformed input
 * (*@why says which).
 */
static inline bool fz_pb_field(struct fz_pb *b, uint32_t *field, unsigned *wire, uint64_t *val,
			       struct fz_pb *sub, const char **why)
{
	uint64_t tag, len;

	*why = NULL;
	if (b->p >= b->end)
		return false;
	if (!fz_pb_varint(b, &tag) || (tag >> 3) == 0 || (tag >> 3) > 0x1fffffff) {
		*why = "a field's tag is malformed";
		return false;
	}
	*field = (uint32_t)(tag >> 3);
	*wire = (unsigned)(tag & 7);
	switch (*wire) {
	case 0:
		if (!fz_pb_varint(b, val))
			*why = "a varint runs past its message";
		break;
	case 1:
	case 5:
		if ((size_t)(b->end - b->p) < (*wire == 1 ? 8u : 4u)) {
			*why = "a fixed-size field runs past its message";
			break;
		}
		*val = 0;
		memcpy(val, b->p, *wire == 1 ? 8 : 4);
		b->p += *wire == 1 ? 8 : 4;
		break;
	case 2:
		if (!fz_pb_varint(b, &len) || len > (uint64_t)(b->end - b->p)) {
			*why = "a length-delimited field runs past its message";
			break;
		}
		sub->p = b->p;
		sub->end = b->p + len;
		b->p += len;
		break;
	default:
		*why = "a field has wire type 3, 4, 6 or 7";
		break;
	}
	return !*why;
}

/* Checks the message in @b; the LEN fields numbered in @nested (0-terminated) are messages. */
static inline const char *fz_check_pb(struct fz_pb b, const uint32_t *nested, int depth)
{
	struct fz_pb sub;
	uint32_t field;
	unsigned wire;
	uint64_t val;
	const char *why;
	int i;

	if (depth > 32)
		return "messages nest deeper than 32";
	while (fz_pb_field(&b, &field, &wire, &val, &sub, &why))
		for (i = 0; wire == 2 && nested && nested[i]; i++)
			if (nested[i] == field && (why = fz_check_pb(sub, nested, depth + 1)))
				return why;
	return why;
}

#define FZ_PF_TRACKS 1024

/* Per track: uuid, open slices, last timestamp. */
struct fz_pf_track {
	uint64_t uuid;
	uint64_t open;
	uint64_t last_ts;
	bool used;
};

static inline const char *fz_check_perfetto(const char *s, size_t n)
{
	/* TracePacket: track_event 11, interned_data 12, track_descriptor 60, system_info 45 */
	static const uint32_t packet_msgs[] = { 11, 12, 60, 45, 4, 3, 0 };
	static struct fz_pf_track tracks[FZ_PF_TRACKS];
	struct fz_pb b = { (const unsigned char *)s, (const unsigned char *)s + n }, pkt, te, sub;
	uint32_t field, f2, f3;
	unsigned wire, w2, w3;
	uint64_t val, v2;
	const char *why;
	size_t i;

	memset(tracks, 0, sizeof(tracks));
	while (fz_pb_field(&b, &field, &wire, &val, &pkt, &why)) {
		uint64_t ts = 0, type = 0, uuid = 0;
		bool has_te = false;

		if (field != 1 || wire != 2)
			return "a Trace holds something else than TracePackets (field 1)";
		if ((why = fz_check_pb(pkt, packet_msgs, 0)))
			return why;
		while (fz_pb_field(&pkt, &f2, &w2, &v2, &te, &why)) {
			if (f2 == 8 && w2 == 0)
				ts = v2;
			if (f2 != 11 || w2 != 2)
				continue;
			has_te = true;
			while (fz_pb_field(&te, &f3, &w3, &val, &sub, &why)) {
				if (f3 == 9 && w3 == 0)
					type = val;
				if (f3 == 11 && w3 == 0)
					uuid = val;
			}
		}
		if (!has_te)
			continue;
		if (type < 1 || type > 3)
			return "a track event is no slice begin, slice end or instant";
		for (i = uuid % FZ_PF_TRACKS; tracks[i].used && tracks[i].uuid != uuid;)
			i = (i + 1) % FZ_PF_TRACKS;
		tracks[i].used = true;
		tracks[i].uuid = uuid;
		if (ts < tracks[i].last_ts)
			return "a track goes back in time";
		tracks[i].last_ts = ts;
		if (type == 1)
			tracks[i].open++;
		else if (type == 2 && !tracks[i].open--)
			return "a slice ends with none open on its track";
	}
	if (why)
		return why;
	for (i = 0; i < FZ_PF_TRACKS; i++)
		if (tracks[i].open)
			return "a slice is still open at the end of the trace";
	return NULL;
}

#endif /* KMAG_FUZZ_CHECK_PB_H */
