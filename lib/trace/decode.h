/* SPDX-License-Identifier: MIT */
/*
 * decode.h - turn raw ftrace records into struct kmag_event. Internal.
 *
 * Field offsets and sizes come from the event formats (parsed by
 * libtraceevent) and are resolved once; the per-record path only reads
 * numbers at cached offsets. Offsets differ between kernels (funcgraph_exit
 * gained retval in 6.5, depth/overrun changed size), so nothing is hard-coded.
 */
#ifndef KMAG_DECODE_H
#define KMAG_DECODE_H

#include <stdbool.h>
#include <stdint.h>

#include "kmag/event.h"
#include "kmag/kmag.h"
#include "kmag/symtab.h"
#include "util/u64map.h"

struct tep_handle;

struct fdesc {
	uint16_t off;
	uint8_t size;		/* 0 = field absent */
	bool is_signed;
};

struct kmag_decoder {
	struct tep_handle *tep;		/* borrowed */
	struct kmag_symtab *st;		/* borrowed */
	bool swap;			/* record byte order differs from the host */

	struct fdesc common_type, common_flags, common_pid;
	int id_function, id_entry, id_exit, id_repeats;	/* -1 when absent */
	int id_retaddr;		/* fgraph_retaddr_entry (funcgraph-retaddr, 6.13+), -1 when absent */
	struct fdesc fn_ip, fn_parent;
	struct fdesc ge_func, ge_depth;
	struct fdesc gr_func, gr_depth, gr_retaddr;
	/*
	 * Offsets of the args[] tails of function, funcgraph_entry and
	 * fgraph_retaddr_entry (funcgraph-args/func-args, 6.15+), 0 when the
	 * format has none. A record carries arguments when it is long enough.
	 */
	uint16_t fn_args, ge_args, gr_args;
	struct fdesc gx_func, gx_depth, gx_calltime, gx_rettime, gx_retval;
	struct fdesc fr_ip, fr_parent, fr_count;
	uint8_t *kind;			/* common_type -> enum kmag_event_type (0 = unknown) */
	uint32_t nr_kind;

	/*
	 * The layout every x86-64/arm64 kernel uses (native byte order, 8-byte
	 * longs, 4-byte depth): decoded with fixed-size loads, no per-field
	 * size switch. Anything else takes the generic path.
	 */
	bool fast;
	bool fast_retaddr;		/* and fgraph_retaddr_entry too */
	uint32_t need_fn, need_entry, need_exit, need_retaddr;	/* bytes each record kind must have */

	/*
	 * Name addresses through the tep's own kallsyms (tep_find_function)
	 * instead of the symtab's table: used by the libtracecmd reference
	 * reader so it shares nothing with the built-in one but the formats.
	 */
	bool tep_names;
	struct u64map tep_cache;	/* address -> id */

	/*
	 * Formats registered with kmag__decoder_add_lazy(), parsed by
	 * libtraceevent only when a record of that id first shows up: a
	 * trace.dat carries a thousand or more formats, of which a function
	 * trace uses a handful, and parsing them all would dominate start-up.
	 */
	struct lazy_format {
		const char *system;
		const char *text;
		size_t size;
		bool tried;
	} *lazy;			/* indexed by event id, nr_kind entries */

	/*
	 * Direct-mapped cache in front of the address lookup: a trace touches
	 * a few thousand distinct addresses, each millions of times, and this
	 * keeps the common case to one compare.
	 */
	struct {
		uint64_t addr;
		kmag_func_t id;
	} rcache[4096];
};

/* Resolves event ids and field layouts from @tep. Returns 0 or -errno with @err. */
int kmag__decoder_init(struct kmag_decoder *d, struct tep_handle *tep, struct kmag_symtab *st,
		       bool swap, struct kmag_err *err);
void kmag__decoder_release(struct kmag_decoder *d);

/*
 * Registers a format (text borrowed, must outlive the decoder) to be parsed
 * on first use. Returns 0 or -ENOMEM.
 */
int kmag__decoder_add_lazy(struct kmag_decoder *d, int id, const char *system, const char *text,
			   size_t size);

static inline uint64_t fd_read(const struct fdesc *f, const uint8_t *data, bool swap)
{
	const uint8_t *p = data + f->off;

	switch (f->size) {
	case 1:
		return f->is_signed ? (uint64_t)(int64_t)(int8_t)*p : *p;
	case 2: {
		uint16_t v;

		__builtin_memcpy(&v, p, 2);
		if (swap)
			v = __builtin_bswap16(v);
		return f->is_signed ? (uint64_t)(int64_t)(int16_t)v : v;
	}
	case 4: {
		uint32_t v;

		__builtin_memcpy(&v, p, 4);
		if (swap)
			v = __builtin_bswap32(v);
		return f->is_signed ? (uint64_t)(int64_t)(int32_t)v : v;
	}
	case 8: {
		uint64_t v;

		__builtin_memcpy(&v, p, 8);
		return swap ? __builtin_bswap64(v) : v;
	}
	default:
		return 0;
	}
}

/* The format of event @id, parsing a lazily registered one now; NULL if unknown. */
struct tep_event *kmag__decoder_event(struct kmag_decoder *d, int id);

/*
 * tep_parse_event() on the name, ID and field declarations of format @text
 * only, with an empty print format: kmag reads fields and never prints
 * through the format, and libtraceevent 1.7's print-format parser crashes on
 * malformed input (fuzzing found NULL dereferences in its argument parser).
 * Returns what tep_parse_event() returns, or -1 on ENOMEM.
 */
int kmag__tep_parse_fields(struct tep_handle *tep, const char *text, size_t len,
			   const char *system);

/* Call depths from here on are damaged records (see depth_ok() in decode.c). */
#define KMAG__MAX_DEPTH 4096

/*
 * Decodes the record at @data (@size bytes, starting at common_type) into @ev.
 * Returns 0, -EINVAL if the record is shorter than its format says, -ENOENT
 * if no format has its event id, -ERANGE for a function_graph depth no
 * kernel records (KMAG__MAX_DEPTH): damaged records all.
 */
int kmag__decode(struct kmag_decoder *d, const uint8_t *data, uint32_t size, struct kmag_event *ev);

#endif /* KMAG_DECODE_H */
