/* SPDX-License-Identifier: MIT */
/*
 * render/stack.h - the deepest kernel stack (`kmag stack`) as text and JSON.
 * Implemented in libkmag-render (render/).
 */
#ifndef KMAG_RENDER_STACK_H
#define KMAG_RENDER_STACK_H

#include <stdio.h>

#include "../stack.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Return 0 or -errno (a write error). */
int kmag_stack_text(FILE *out, const struct kmag_stack_result *res);
int kmag_stack_json(FILE *out, const struct kmag_stack_result *res);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_RENDER_STACK_H */
