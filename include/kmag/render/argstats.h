/* SPDX-License-Identifier: MIT */
/*
 * argstats.h (render) - `kmag report --arg FUNC:ARG` as text or JSON.
 */
#ifndef KMAG_RENDER_ARGSTATS_H
#define KMAG_RENDER_ARGSTATS_H

#include <stdio.h>

#include "../argstats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes every summary of @s (finished) to @out. 0 or -EIO (write error). */
int kmag_argstats_text(FILE *out, const struct kmag_argstats *s);
/* {"args":[{"function","argument","calls","count","min","max","mean","top","histogram"}]} */
int kmag_argstats_json(FILE *out, const struct kmag_argstats *s);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_RENDER_ARGSTATS_H */
