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

#include <errno.h>
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
	uint8_t ctx_of[256];		/* common_flags -> enum kmag_ctx_flags */

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
 * What the inline kmag__decode() below leaves to decode.c: the name of an
 * address the decoder's cache does not have (and caching it), a record of
 * any layout, a function_graph entry with its call site.
 */
kmag_func_t kmag__decode_resolve(struct kmag_decoder *d, uint64_t addr);
int kmag__decode_generic(struct kmag_decoder *d, const uint8_t *data, uint32_t size,
			 struct kmag_event *ev);
int kmag__decode_retaddr(struct kmag_decoder *d, const uint8_t *data, uint32_t size,
			 struct kmag_event *ev);

/* The function at @addr: the direct-mapped cache (rcache) first. */
static inline kmag_func_t kmag__decode_func(struct kmag_decoder *d, uint64_t addr)
{
	size_t slot = (size_t)((addr >> 4) ^ (addr >> 16)) &
		      (sizeof(d->rcache) / sizeof(d->rcache[0]) - 1);

	if (__builtin_expect(d->rcache[slot].addr == addr && addr, 1))
		return d->rcache[slot].id;
	return kmag__decode_resolve(d, addr);
}

static inline uint64_t kmag__ld64(const uint8_t *p)
{
	uint64_t v;

	__builtin_memcpy(&v, p, 8);
	return v;
}

static inline uint32_t kmag__ld32(const uint8_t *p)
{
	uint32_t v;

	__builtin_memcpy(&v, p, 4);
	return v;
}

/*
 * A call depth the kernel can record: its return stack holds at most a few
 * hundred calls (FTRACE_RETFUNC_DEPTH 50 up to 6.8, SHADOW_STACK_SIZE since).
 * Anything else is a damaged record.
 */
static inline bool kmag__depth_ok(int32_t depth)
{
	return (uint32_t)depth < KMAG__MAX_DEPTH;
}

/*
 * The arguments saved at @off of a record of @size bytes: the kernel stores
 * all FTRACE_REGS_MAX_ARGS registers or none (print_graph_entry() prints
 * them only when the whole array is there), so a shorter tail is padding.
 */
static inline void kmag__decode_args(const struct kmag_decoder *d, const uint8_t *data,
				     uint32_t size, uint16_t off, struct kmag_event *ev)
{
	uint32_t i;

	ev->nargs = 0;
	if (!off || size < (uint32_t)off + 8u * KMAG_MAX_ARGS)
		return;
	for (i = 0; i < KMAG_MAX_ARGS; i++) {
		uint64_t v = kmag__ld64(data + off + 8 * i);

		ev->args[i] = d->swap ? __builtin_bswap64(v) : v;
	}
	ev->nargs = KMAG_MAX_ARGS;
}

/*
 * The fast path for the usual layout (d->fast), inline in the readers' loops
 * (a call per record costs more than the decoding); returns 1 when the
 * record is not one it knows.
 */
static inline int kmag__decode_fast(struct kmag_decoder *d, const uint8_t *data, uint32_t size,
				    struct kmag_event *ev)
{
	uint16_t type;

	__builtin_memcpy(&type, data + d->common_type.off, 2);
	if ((int)type == d->id_entry) {
		if (__builtin_expect(size < d->need_entry, 0))
			return -EINVAL;
		ev->type = KMAG_EV_GRAPH_ENTRY;
		ev->ip = kmag__ld64(data + d->ge_func.off);
		/* (an 8-byte depth, 6.x: its low half, the records being little-endian here) */
		ev->depth = (int32_t)kmag__ld32(data + d->ge_depth.off);
		if (__builtin_expect(!kmag__depth_ok(ev->depth), 0))
			return -ERANGE;
		kmag__decode_args(d, data, size, d->ge_args, ev);
		ev->has_retval = false;
	} else if ((int)type == d->id_exit) {
		uint64_t ct, rt;

		if (__builtin_expect(size < d->need_exit, 0))
			return -EINVAL;
		ev->type = KMAG_EV_GRAPH_EXIT;
		ev->ip = kmag__ld64(data + d->gx_func.off);
		ev->depth = (int32_t)kmag__ld32(data + d->gx_depth.off);
		if (__builtin_expect(!kmag__depth_ok(ev->depth), 0))
			return -ERANGE;
		ct = kmag__ld64(data + d->gx_calltime.off);
		rt = kmag__ld64(data + d->gx_rettime.off);
		ev->calltime = ct;
		ev->duration = rt >= ct ? rt - ct : 0;
		ev->has_retval = d->gx_retval.size != 0;
		if (ev->has_retval)
			ev->retval = (int64_t)kmag__ld64(data + d->gx_retval.off);
		ev->nargs = 0;
	} else if ((int)type == d->id_retaddr && d->fast_retaddr) {
		return kmag__decode_retaddr(d, data, size, ev);
	} else if ((int)type == d->id_function) {
		if (__builtin_expect(size < d->need_fn, 0))
			return -EINVAL;
		ev->type = KMAG_EV_FUNC;
		ev->ip = kmag__ld64(data + d->fn_ip.off);
		ev->parent_ip = kmag__ld64(data + d->fn_parent.off);
		ev->repeat = 1;
		ev->depth = -1;
		ev->func = kmag__decode_func(d, ev->ip);
		ev->parent = ev->parent_ip ? kmag__decode_func(d, ev->parent_ip) : KMAG_FUNC_NONE;
		ev->parent_off = KMAG_OFF_NONE;
		ev->pid = (int32_t)kmag__ld32(data + d->common_pid.off);
		ev->ctx = d->ctx_of[data[d->common_flags.off]];
		ev->has_retval = false;
		kmag__decode_args(d, data, size, d->fn_args, ev);
		return 0;
	} else {
		return 1;
	}
	ev->pid = (int32_t)kmag__ld32(data + d->common_pid.off);
	ev->ctx = d->ctx_of[data[d->common_flags.off]];
	ev->repeat = 1;
	ev->parent = KMAG_FUNC_NONE;
	ev->parent_ip = 0;
	ev->parent_off = KMAG_OFF_NONE;
	ev->func = kmag__decode_func(d, ev->ip);
	return 0;
}

/*
 * Decodes the record at @data (@size bytes, starting at common_type) into @ev.
 * Returns 0, -EINVAL if the record is shorter than its format says, -ENOENT
 * if no format has its event id, -ERANGE for a function_graph depth no
 * kernel records (KMAG__MAX_DEPTH): damaged records all.
 */
static inline int kmag__decode(struct kmag_decoder *d, const uint8_t *data, uint32_t size,
			       struct kmag_event *ev)
{
	if (__builtin_expect(d->fast, 1) && __builtin_expect(size >= 8, 1)) {
		int ret = kmag__decode_fast(d, data, size, ev);

		if (ret <= 0)
			return ret;
	}
	return kmag__decode_generic(d, data, size, ev);
}

#endif /* KMAG_DECODE_H */
