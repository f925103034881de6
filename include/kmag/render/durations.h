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

/* @t names the tasks (may be NULL). Return 0 or -errno. */
int kmag_slowest_text(FILE *out, const struct kmag_slowest *s, const struct kmag_symtab *st,
		      const struct kmag_trace *t);
int kmag_slowest_json(FILE *out, const struct kmag_slowest *s, const struct kmag_symtab *st,
		      const struct kmag_trace *t);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_RENDER_DURATIONS_H */
