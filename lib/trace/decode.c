// SPDX-License-Identifier: MIT
/*
 * decode.c - ftrace record decoding through event formats.
 */
#define PR_DOMAIN "decode"
#include <traceevent/event-parse.h>

#include "decode.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* common_flags bits (kernel's trace_flag_type, stable since 2.6.3x) */
#define TRACE_FLAG_IRQS_OFF 0x01
#define TRACE_FLAG_HARDIRQ 0x08
#define TRACE_FLAG_SOFTIRQ 0x10
#define TRACE_FLAG_NMI 0x40

static bool set_field(struct tep_event *ev, const char *name, struct fdesc *f, bool common)
{
	struct tep_format_field *fld = common ? tep_find_common_field(ev, name) :
						tep_find_field(ev, name);

	memset(f, 0, sizeof(*f));
	if (!fld || fld->offset < 0 || fld->offset > UINT16_MAX)
		return false;
	if (fld->size != 1 && fld->size != 2 && fld->size != 4 && fld->size != 8)
		return false;
	f->off = (uint16_t)fld->offset;
	f->size = (uint8_t)fld->size;
	f->is_signed = fld->flags & TEP_FIELD_IS_SIGNED;
	return true;
}

/* Offset of the dynamic "unsigned long args[]" tail of @ev, 0 when it has none. */
static uint16_t args_offset(struct tep_event *ev)
{
	struct tep_format_field *fld = tep_find_field(ev, "args");

	if (!fld || fld->offset <= 0 || fld->offset > UINT16_MAX || fld->size != 0 ||
	    fld->elementsize != 8)
		return 0;
	return (uint16_t)fld->offset;
}

static inline uint8_t ctx_of(uint8_t fl)
{
	return KMAG_CTX_KNOWN | (fl & TRACE_FLAG_HARDIRQ ? KMAG_CTX_HARDIRQ : 0) |
	       (fl & TRACE_FLAG_SOFTIRQ ? KMAG_CTX_SOFTIRQ : 0) |
	       (fl & TRACE_FLAG_NMI ? KMAG_CTX_NMI : 0) |
	       (fl & TRACE_FLAG_IRQS_OFF ? KMAG_CTX_IRQS_OFF : 0);
}

static int find_id(struct tep_handle *tep, const char *name)
{
	struct tep_event *ev = tep_find_event_by_name(tep, "ftrace", name);

	return ev ? ev->id : -1;
}

static uint32_t end_of(const struct fdesc *f)
{
	return (uint32_t)f->off + f->size;
}

static uint32_t max3(uint32_t a, uint32_t b, uint32_t c)
{
	return a > b ? (a > c ? a : c) : (b > c ? b : c);
}

static void setup_fast(struct kmag_decoder *d)
{
	d->fast = !d->swap && d->common_type.size == 2 && d->common_pid.size == 4 &&
		  d->common_flags.size == 1 && d->id_function >= 0 && d->fn_ip.size == 8 &&
		  d->fn_parent.size == 8 && d->id_entry >= 0 && d->ge_func.size == 8 &&
		  (d->ge_depth.size == 4 || d->ge_depth.size == 8) && d->id_exit >= 0 && d->gx_func.size == 8 &&
		  d->gx_depth.size == 4 && d->gx_calltime.size == 8 && d->gx_rettime.size == 8 &&
		  (!d->gx_retval.size || d->gx_retval.size == 8);
	d->need_fn = max3(end_of(&d->fn_ip), end_of(&d->fn_parent), end_of(&d->common_pid));
	d->need_entry = max3(end_of(&d->ge_func), end_of(&d->ge_depth), end_of(&d->common_pid));
	d->need_retaddr = max3(end_of(&d->gr_func), end_of(&d->gr_depth), end_of(&d->gr_retaddr));
	d->fast_retaddr = d->fast && d->id_retaddr >= 0 && d->gr_func.size == 8 &&
			  (d->gr_depth.size == 4 || d->gr_depth.size == 8) && d->gr_retaddr.size == 8;
	if (d->need_retaddr < end_of(&d->common_pid))
		d->need_retaddr = end_of(&d->common_pid);
	d->need_exit = max3(max3(end_of(&d->gx_func), end_of(&d->gx_depth), end_of(&d->common_pid)),
			    end_of(&d->gx_calltime), max3(end_of(&d->gx_rettime), end_of(&d->gx_retval), 0));
}

int kmag__decoder_init(struct kmag_decoder *d, struct tep_handle *tep, struct kmag_symtab *st,
		       bool swap, struct kmag_err *err)
{
	struct tep_event *ev;
	int i, n, max_id = 0;

	memset(d, 0, sizeof(*d));
	d->tep = tep;
	d->st = st;
	d->swap = swap;
	d->id_function = find_id(tep, "function");
	d->id_entry = find_id(tep, "funcgraph_entry");
	d->id_exit = find_id(tep, "funcgraph_exit");
	d->id_repeats = find_id(tep, "func_repeats");
	d->id_retaddr = find_id(tep, "fgraph_retaddr_entry");

	n = tep_get_events_count(tep);
	for (i = 0; i < n; i++) {
		ev = tep_get_event(tep, i);
		if (ev && ev->id > max_id)
			max_id = ev->id;
	}
	if (n <= 0)
		return kmag_err_set(err, EINVAL, "the trace has no usable event formats");
	/* any event carries the common fields at the same place */
	ev = tep_get_event(tep, 0);
	if (!set_field(ev, "common_type", &d->common_type, true) ||
	    !set_field(ev, "common_pid", &d->common_pid, true))
		return kmag_err_set(err, EINVAL,
				    "event format \"%s\" lacks common_type/common_pid", ev->name);
	set_field(ev, "common_flags", &d->common_flags, true);

	if (max_id > UINT16_MAX)
		max_id = UINT16_MAX;
	d->nr_kind = (uint32_t)max_id + 1;
	d->kind = calloc(d->nr_kind, 1);
	if (!d->kind)
		return kmag_err_set(err, ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		ev = tep_get_event(tep, i);
		if (ev && ev->id >= 0 && (uint32_t)ev->id < d->nr_kind)
			d->kind[ev->id] = KMAG_EV_OTHER;
	}
	if (d->id_function >= 0 && (ev = tep_find_event(tep, d->id_function)) &&
	    set_field(ev, "ip", &d->fn_ip, false) && set_field(ev, "parent_ip", &d->fn_parent, false)) {
		d->kind[d->id_function] = KMAG_EV_FUNC;
		d->fn_args = args_offset(ev);
	}
	if (d->id_repeats >= 0 && (ev = tep_find_event(tep, d->id_repeats)) &&
	    set_field(ev, "ip", &d->fr_ip, false) && set_field(ev, "parent_ip", &d->fr_parent, false) &&
	    set_field(ev, "count", &d->fr_count, false))
		d->kind[d->id_repeats] = KMAG_EV_FUNC;
	if (d->id_entry >= 0 && (ev = tep_find_event(tep, d->id_entry)) &&
	    set_field(ev, "func", &d->ge_func, false) && set_field(ev, "depth", &d->ge_depth, false)) {
		d->kind[d->id_entry] = KMAG_EV_GRAPH_ENTRY;
		d->ge_args = args_offset(ev);
	}
	if (d->id_retaddr >= 0 && (ev = tep_find_event(tep, d->id_retaddr)) &&
	    set_field(ev, "func", &d->gr_func, false) && set_field(ev, "depth", &d->gr_depth, false) &&
	    set_field(ev, "retaddr", &d->gr_retaddr, false)) {
		d->kind[d->id_retaddr] = KMAG_EV_GRAPH_ENTRY;
		d->gr_args = args_offset(ev);
	}
	if (d->id_exit >= 0 && (ev = tep_find_event(tep, d->id_exit)) &&
	    set_field(ev, "func", &d->gx_func, false) && set_field(ev, "depth", &d->gx_depth, false)) {
		set_field(ev, "calltime", &d->gx_calltime, false);
		set_field(ev, "rettime", &d->gx_rettime, false);
		set_field(ev, "retval", &d->gx_retval, false);
		d->kind[d->id_exit] = KMAG_EV_GRAPH_EXIT;
	}
	for (i = 0; i < 256; i++)
		d->ctx_of[i] = ctx_of((uint8_t)i);
	setup_fast(d);
	return 0;
}

void kmag__decoder_release(struct kmag_decoder *d)
{
	u64map_release(&d->tep_cache);
	free(d->lazy);
	d->lazy = NULL;
	free(d->kind);
	d->kind = NULL;
	d->nr_kind = 0;
}

int kmag__decoder_add_lazy(struct kmag_decoder *d, int id, const char *system, const char *text,
			   size_t size)
{
	if (id < 0 || id > UINT16_MAX)
		return 0;
	if (!d->lazy) {
		d->lazy = calloc(d->nr_kind ? d->nr_kind : 1, sizeof(*d->lazy));
		if (!d->lazy)
			return -ENOMEM;
	}
	if ((uint32_t)id >= d->nr_kind) {
		uint32_t n = (uint32_t)id + 1;
		uint8_t *kind = realloc(d->kind, n);
		struct lazy_format *lazy;

		if (!kind)
			return -ENOMEM;
		d->kind = kind;
		lazy = realloc(d->lazy, n * sizeof(*lazy));
		if (!lazy)
			return -ENOMEM;
		d->lazy = lazy;
		memset(d->kind + d->nr_kind, 0, n - d->nr_kind);
		memset(d->lazy + d->nr_kind, 0, (n - d->nr_kind) * sizeof(*lazy));
		d->nr_kind = n;
	}
	if (d->kind[id])
		return 0;	/* already parsed eagerly */
	d->kind[id] = KMAG_EV_OTHER;
	d->lazy[id] = (struct lazy_format){ system, text, size, false };
	return 0;
}

static struct tep_event *find_event(struct kmag_decoder *d, int id)
{
	struct tep_event *te = tep_find_event(d->tep, id);
	struct lazy_format *lf;

	if (te || !d->lazy || (uint32_t)id >= d->nr_kind)
		return te;
	lf = &d->lazy[id];
	if (!lf->text || lf->tried)
		return NULL;
	lf->tried = true;
	if (kmag__tep_parse_fields(d->tep, lf->text, lf->size, lf->system))
		return NULL;
	return tep_find_event(d->tep, id);
}

int kmag__tep_parse_fields(struct tep_handle *tep, const char *text, size_t len,
			   const char *system)
{
	static const char empty_print[] = "print fmt: \"\"\n";
	const char *p = text, *end = text + len, *cut = end;
	char *copy;
	size_t keep;
	int ret;

	/* the print format starts a line: "print fmt: ..." */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if ((size_t)(end - p) >= 10 && !memcmp(p, "print fmt:", 10)) {
			cut = p;
			break;
		}
		p = nl ? nl + 1 : end;
	}
	keep = (size_t)(cut - text);
	copy = malloc(keep + sizeof(empty_print));
	if (!copy)
		return -1;
	memcpy(copy, text, keep);
	memcpy(copy + keep, empty_print, sizeof(empty_print));
	ret = tep_parse_event(tep, copy, keep + sizeof(empty_print) - 1, system);
	free(copy);
	return ret;
}

struct tep_event *kmag__decoder_event(struct kmag_decoder *d, int id)
{
	return find_event(d, id);
}

static kmag_func_t resolve_tep(struct kmag_decoder *d, uint64_t addr)
{
	uint64_t *v = u64map_get(&d->tep_cache, addr);
	const char *name;
	kmag_func_t id;
	char buf[32];

	if (v)
		return (kmag_func_t)*v;
	name = tep_find_function(d->tep, addr);
	if (!name) {
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)addr);
		name = buf;
	}
	id = kmag_symtab_intern(d->st, name, (size_t)-1);
	if (id != KMAG_FUNC_NONE)
		u64map_upsert(&d->tep_cache, addr, id, NULL);
	return id;
}

kmag_func_t kmag__decode_resolve(struct kmag_decoder *d, uint64_t addr)
{
	size_t slot = (size_t)((addr >> 4) ^ (addr >> 16)) & (ARRAY_SIZE(d->rcache) - 1);
	kmag_func_t id;

	id = unlikely(d->tep_names) ? resolve_tep(d, addr) : kmag_symtab_resolve(d->st, addr, true);
	if (id != KMAG_FUNC_NONE) {
		d->rcache[slot].addr = addr;
		d->rcache[slot].id = id;
	}
	return id;
}

static inline bool fits(const struct fdesc *f, uint32_t size)
{
	return (uint32_t)f->off + f->size <= size;
}

/*
 * A function_graph entry's call site (fgraph_retaddr_entry's retaddr): the
 * function it returns into and the offset there.
 */
static inline void set_call_site(struct kmag_decoder *d, struct kmag_event *ev, uint64_t retaddr)
{
	uint64_t start;

	ev->parent_ip = retaddr;
	ev->parent = retaddr ? kmag__decode_func(d, retaddr) : KMAG_FUNC_NONE;
	ev->parent_off = KMAG_OFF_NONE;
	if (ev->parent == KMAG_FUNC_NONE)
		return;
	start = d->tep_names ? tep_find_function_address(d->tep, retaddr) :
			       kmag_symtab_addr(d->st, ev->parent);
	if (start && start <= retaddr && retaddr - start < UINT32_MAX)
		ev->parent_off = (uint32_t)(retaddr - start);
}

/* A fgraph_retaddr_entry record of the usual layout (kmag__decode_fast()). */
int kmag__decode_retaddr(struct kmag_decoder *d, const uint8_t *data, uint32_t size,
			 struct kmag_event *ev)
{
	if (unlikely(size < d->need_retaddr))
		return -EINVAL;
	ev->type = KMAG_EV_GRAPH_ENTRY;
	ev->ip = kmag__ld64(data + d->gr_func.off);
	ev->depth = (int32_t)kmag__ld32(data + d->gr_depth.off);
	if (unlikely(!kmag__depth_ok(ev->depth)))
		return -ERANGE;
	kmag__decode_args(d, data, size, d->gr_args, ev);
	ev->pid = (int32_t)kmag__ld32(data + d->common_pid.off);
	ev->ctx = d->ctx_of[data[d->common_flags.off]];
	ev->repeat = 1;
	ev->has_retval = false;
	ev->func = kmag__decode_func(d, ev->ip);
	set_call_site(d, ev, kmag__ld64(data + d->gr_retaddr.off));
	return 0;
}

int kmag__decode_generic(struct kmag_decoder *d, const uint8_t *data, uint32_t size,
			 struct kmag_event *ev)
{
	uint32_t type;
	uint8_t kind;

	if (unlikely(size < (uint32_t)d->common_pid.off + d->common_pid.size ||
		     size < (uint32_t)d->common_type.off + d->common_type.size))
		return -EINVAL;
	type = (uint32_t)fd_read(&d->common_type, data, d->swap);
	ev->pid = (int32_t)fd_read(&d->common_pid, data, d->swap);
	ev->ctx = 0;
	if (d->common_flags.size && fits(&d->common_flags, size)) {
		uint32_t fl = (uint32_t)fd_read(&d->common_flags, data, d->swap);

		ev->ctx = ctx_of((uint8_t)fl);
	}
	kind = type < d->nr_kind ? d->kind[type] : 0;
	ev->repeat = 1;
	ev->parent = KMAG_FUNC_NONE;
	ev->parent_ip = 0;
	ev->parent_off = KMAG_OFF_NONE;
	ev->depth = -1;
	ev->has_retval = false;
	ev->nargs = 0;

	switch (kind) {
	case KMAG_EV_FUNC:
		ev->type = KMAG_EV_FUNC;
		if ((int)type == d->id_repeats) {
			/* func_repeats: the previous function ran `count` more times */
			if (unlikely(!fits(&d->fr_count, size) || !fits(&d->fr_parent, size)))
				return -EINVAL;
			ev->ip = fd_read(&d->fr_ip, data, d->swap);
			ev->parent_ip = fd_read(&d->fr_parent, data, d->swap);
			ev->repeat = (uint16_t)fd_read(&d->fr_count, data, d->swap);
			if (!ev->repeat)
				ev->repeat = 1;
		} else {
			if (unlikely(!fits(&d->fn_ip, size) || !fits(&d->fn_parent, size)))
				return -EINVAL;
			ev->ip = fd_read(&d->fn_ip, data, d->swap);
			ev->parent_ip = fd_read(&d->fn_parent, data, d->swap);
		}
		ev->func = kmag__decode_func(d, ev->ip);
		ev->parent = ev->parent_ip ? kmag__decode_func(d, ev->parent_ip) :
					     KMAG_FUNC_NONE;
		if ((int)type == d->id_function)
			kmag__decode_args(d, data, size, d->fn_args, ev);
		return 0;
	case KMAG_EV_GRAPH_ENTRY:
		ev->type = KMAG_EV_GRAPH_ENTRY;
		if ((int)type == d->id_retaddr) {
			if (unlikely(!fits(&d->gr_func, size) || !fits(&d->gr_depth, size) ||
				     !fits(&d->gr_retaddr, size)))
				return -EINVAL;
			ev->ip = fd_read(&d->gr_func, data, d->swap);
			ev->depth = (int32_t)fd_read(&d->gr_depth, data, d->swap);
			if (unlikely(!kmag__depth_ok(ev->depth)))
				return -ERANGE;
			ev->func = kmag__decode_func(d, ev->ip);
			set_call_site(d, ev, fd_read(&d->gr_retaddr, data, d->swap));
			kmag__decode_args(d, data, size, d->gr_args, ev);
			return 0;
		}
		if (unlikely(!fits(&d->ge_func, size) || !fits(&d->ge_depth, size)))
			return -EINVAL;
		ev->ip = fd_read(&d->ge_func, data, d->swap);
		ev->depth = (int32_t)fd_read(&d->ge_depth, data, d->swap);
		if (unlikely(!kmag__depth_ok(ev->depth)))
			return -ERANGE;
		ev->func = kmag__decode_func(d, ev->ip);
		kmag__decode_args(d, data, size, d->ge_args, ev);
		return 0;
	case KMAG_EV_GRAPH_EXIT:
		if (unlikely(!fits(&d->gx_func, size) || !fits(&d->gx_depth, size)))
			return -EINVAL;
		ev->type = KMAG_EV_GRAPH_EXIT;
		ev->ip = fd_read(&d->gx_func, data, d->swap);
		ev->depth = (int32_t)fd_read(&d->gx_depth, data, d->swap);
		if (unlikely(!kmag__depth_ok(ev->depth)))
			return -ERANGE;
		ev->func = kmag__decode_func(d, ev->ip);
		ev->duration = KMAG_DURATION_NONE;
		ev->calltime = KMAG_TS_NONE;
		if (d->gx_calltime.size && d->gx_rettime.size && fits(&d->gx_calltime, size) &&
		    fits(&d->gx_rettime, size)) {
			uint64_t ct = fd_read(&d->gx_calltime, data, d->swap);
			uint64_t rt = fd_read(&d->gx_rettime, data, d->swap);

			ev->calltime = ct;
			ev->duration = rt >= ct ? rt - ct : 0;
		}
		if (d->gx_retval.size && fits(&d->gx_retval, size)) {
			ev->retval = (int64_t)fd_read(&d->gx_retval, data, d->swap);
			ev->has_retval = true;
		}
		return 0;
	default:
		/* no format in the file has this id: garbage, not an event */
		if (unlikely(!kind))
			return -ENOENT;
		ev->type = KMAG_EV_OTHER;
		ev->func = KMAG_FUNC_NONE;
		ev->ip = 0;
		ev->event_id = (uint16_t)type;
		ev->event_name = NULL;
		ev->event_system = NULL;
		if (kind == KMAG_EV_OTHER) {
			struct tep_event *te = find_event(d, (int)type);

			if (te) {
				ev->event_name = te->name;
				ev->event_system = te->system;
			}
		}
		ev->raw = data;
		ev->raw_size = size;
		return 0;
	}
}
