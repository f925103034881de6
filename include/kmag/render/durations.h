/* SPDX-License-Identifier: MIT */
/*
 * render/durations.h - the slowest calls (`kmag report --slowest`) as text and JSON.
 * Implemented in libkmag-render (render/).
 */
#ifndef KMAG_RENDER_DURATIONS_H
#define KMAG_RENDER_DURATIONS_H

#include <stdio.h>

#include "../durations.h"
#include "../symtab.h"
#include "../trace.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kmag_srclines;

/*
 * @t names the tasks and the arguments (kmag_fmt_trace_args(); may be NULL),
 * @lines the call sites' source lines (may be NULL; not const: it caches).
 * A call's arguments, return value and call site are shown where the trace
 * recorded them (Linux 6.5+/6.13+/6.15+), nothing otherwise; the return value
 * is left out of a function the trace's BTF says returns void.
 * JSON adds "call_site", "call_site_line", "args", "retval" and
 * "chain_call_sites" (one per chain entry, null when unknown) only then.
 * Return 0 or -errno.
 */
int kmag_slowest_text(FILE *out, const struct kmag_slowest *s, const struct kmag_symtab *st,
		      const struct kmag_trace *t, struct kmag_srclines *lines);
int kmag_slowest_json(FILE *out, const struct kmag_slowest *s, const struct kmag_symtab *st,
		      const struct kmag_trace *t, struct kmag_srclines *lines);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_RENDER_DURATIONS_H */
