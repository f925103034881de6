/* SPDX-License-Identifier: MIT */
/*
 * render/probes.h - the probe values of `kmag report --probes` as text and JSON.
 * Implemented in libkmag-render (render/).
 */
#ifndef KMAG_RENDER_PROBES_H
#define KMAG_RENDER_PROBES_H

#include <stdio.h>

#include "../probes.h"
#include "../symtab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Return 0 or -errno (a write error). */
int kmag_probes_text(FILE *out, const struct kmag_probes *p, const struct kmag_symtab *st);
int kmag_probes_json(FILE *out, const struct kmag_probes *p, const struct kmag_symtab *st);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_RENDER_PROBES_H */
