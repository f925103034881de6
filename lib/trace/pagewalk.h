/* SPDX-License-Identifier: MIT */
/*
 * pagewalk.h - walking the records of one ring-buffer sub-buffer ("page").
 * Internal.
 *
 * One walk for every place that reads raw pages: the trace.dat reader
 * (input-tracedat.c) and the flight recorder's live trigger watcher and ring
 * (lib/record/flight*.c). The layout is events/header_page (u64 timestamp,
 * a 4- or 8-byte commit word with the flags below, then the records) and
 * events/header_event (a 32-bit header: 5-bit type_len, 27-bit time delta).
 * Our own code rather than libtraceevent's kbuffer: a function call per
 * record there dominates at tens of millions of records per second; the walk
 * follows kbuffer's rules exactly (tests compare both on every fixture).
 */
#ifndef KMAG_PAGEWALK_H
#define KMAG_PAGEWALK_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "tracedat-format.h"
#include "util/endian.h"

/* The shape of a recording's pages. */
struct kmag_page_geom {
	uint32_t page_size;	/* sub-buffer size */
	uint32_t page_hdr;	/* bytes before the records: timestamp + commit */
	int commit_size;	/* 4 or 8 */
	bool big_endian;	/* byte order of the pages */
	bool swap;		/* differs from the host's */
};

/* The walk of one page. */
struct kmag_page_walk {
	const uint8_t *data;	/* the records */
	uint32_t size;		/* bytes of records (the commit) */
	uint32_t idx;		/* next record */
	uint32_t rec;		/* where the record last returned starts (for messages) */
	uint64_t ts;		/* time of the record last returned (page time before) */
};

/* What kmag__page_load() found in a page header. */
struct kmag_page_info {
	bool missing;		/* events were lost before this page */
	uint64_t lost;		/* how many, when the kernel stored the count, else 0 */
	bool lost_known;
};

/* Numbers in the pages' byte order (util/endian.h). */
static inline uint32_t kmag__pg_get32(const struct kmag_page_geom *g, const uint8_t *p)
{
	return kmag__get32(g->swap, p);
}

static inline uint64_t kmag__pg_get64(const struct kmag_page_geom *g, const uint8_t *p)
{
	return kmag__get64(g->swap, p);
}

/* The commit word of @page (size and flags). */
static inline uint64_t kmag__page_commit(const struct kmag_page_geom *g, const uint8_t *page)
{
	return g->commit_size == 8 ? kmag__pg_get64(g, page + 8) : kmag__pg_get32(g, page + 8);
}

/*
 * Starts the walk @w of @page (page_size bytes). Returns 0, or -EINVAL with
 * *@why set when the commit size does not fit the page. @info (may be NULL)
 * gets the lost-events flags.
 */
static inline int kmag__page_load(const struct kmag_page_geom *g, struct kmag_page_walk *w,
				  const uint8_t *page, struct kmag_page_info *info, const char **why)
{
	uint64_t commit = kmag__page_commit(g, page);
	uint32_t size = (uint32_t)(commit & RB_COMMIT_MASK);

	if (size > g->page_size - g->page_hdr) {
		*why = "commit size exceeds the page";
		return -EINVAL;
	}
	w->ts = kmag__pg_get64(g, page);
	w->data = page + g->page_hdr;
	w->size = size;
	w->idx = 0;
	if (info) {
		info->missing = (commit & RB_MISSING_EVENTS) != 0;
		info->lost = 0;
		info->lost_known = false;
		if (info->missing && (commit & RB_MISSING_STORED) &&
		    (uint64_t)size + (uint64_t)g->commit_size <= g->page_size - g->page_hdr) {
			info->lost = g->commit_size == 8 ? kmag__pg_get64(g, w->data + size) :
							   kmag__pg_get32(g, w->data + size);
			info->lost_known = true;
		}
	}
	return 0;
}

/*
 * The next data record of the page: 1 with *@payload / *@plen set and
 * w->ts its time, 0 at the end of the page, -EINVAL with *@why set for a
 * malformed page. Padding and time records are consumed on the way.
 */
static inline int kmag__page_next(const struct kmag_page_geom *g, struct kmag_page_walk *w,
				  const uint8_t **payload, uint32_t *plen, const char **why)
{
	for (;;) {
		const uint8_t *p;
		uint32_t hdr, type_len, delta, left, len, adv;

		if (w->idx >= w->size)
			return 0;
		p = w->data + w->idx;
		left = w->size - w->idx;
		if (__builtin_expect(left < 4, 0)) {
			*why = "record header cut off";
			return -EINVAL;
		}
		hdr = kmag__pg_get32(g, p);
		if (g->big_endian) {
			type_len = hdr >> 27;
			delta = hdr & ((1u << 27) - 1);
		} else {
			type_len = hdr & 0x1f;
			delta = hdr >> 5;
		}
		switch (type_len) {
		case RB_TYPE_PADDING:
			w->ts += delta;
			if (left < 8) {
				w->idx = w->size;
				continue;
			}
			adv = kmag__pg_get32(g, p + 4);
			if (adv > left - 4 || (!delta && !adv)) {
				/* a null event: the rest of the page is unused */
				w->idx = w->size;
				continue;
			}
			w->idx += 4 + adv;
			continue;
		case RB_TYPE_TIME_EXTEND:
		case RB_TYPE_TIME_STAMP: {
			uint64_t ext;

			if (__builtin_expect(left < 8, 0)) {
				*why = "time extend cut off";
				return -EINVAL;
			}
			ext = ((uint64_t)kmag__pg_get32(g, p + 4) << RB_TS_SHIFT) + delta;
			if (type_len == RB_TYPE_TIME_STAMP)
				w->ts = ext | (w->ts & RB_TS_MSB);
			else
				w->ts += ext;
			w->idx += 8;
			continue;
		}
		case 0:
			if (__builtin_expect(left < 8, 0)) {
				*why = "record length cut off";
				return -EINVAL;
			}
			len = kmag__pg_get32(g, p + 4);
			if (__builtin_expect(len < 4, 0)) {
				*why = "record length below its own size";
				return -EINVAL;
			}
			/* checked before rounding: a length near 2^32 would wrap adv */
			if (__builtin_expect(len - 4 > left - 8, 0)) {
				*why = "record runs past the end of the page";
				return -EINVAL;
			}
			*plen = ((len - 4) + 3) & ~3u;
			*payload = p + 8;
			adv = 8 + *plen;
			break;
		default:
			*plen = type_len * 4;
			*payload = p + 4;
			adv = 4 + *plen;
			break;
		}
		if (__builtin_expect(adv > left, 0)) {
			*why = "record runs past the end of the page";
			return -EINVAL;
		}
		w->ts += delta;
		w->rec = w->idx;
		w->idx += adv;
		return 1;
	}
}

#endif /* KMAG_PAGEWALK_H */
