/* SPDX-License-Identifier: MIT */
/*
 * render/errors.h - `kmag errors`: the origins of the errors of a trace
 * (errors.h) as a table or JSON.
 */
#ifndef KMAG_RENDER_ERRORS_H
#define KMAG_RENDER_ERRORS_H

#include <stdbool.h>
#include <stdio.h>

#include "../errors.h"
#include "../symtab.h"

#ifdef __cplusplus
extern "C" {
#endif

enum kmag_errors_format { KMAG_ERRORS_TEXT = 0, KMAG_ERRORS_JSON };

struct kmag_errors_render_opts {
	enum kmag_errors_format format;
	size_t limit;			/* at most this many groups, 0 = all */
	const char *types_from;		/* where the return types came from ("BTF of
					   FILE"), NULL = none: the output says they are
					   unknown. Borrowed. */
	const char *source;		/* the input's name; borrowed */
	const char *times;		/* kmag_session_times(), or NULL/"": the kernel's */
};

/*
 * Writes @e's groups (after kmag_errors_finish()), names from @st, to @out.
 * 0, or -EIO on a write error.
 */
int kmag_errors_render(FILE *out, const struct kmag_errors *e, const struct kmag_symtab *st,
		       const struct kmag_errors_render_opts *o);

/* The one line saying what return types are unknown (text outputs share it). */
#define KMAG_ERRORS_UNTYPED_NOTE                                                          \
	"return types unknown: give --btf or a trace with BTF; void/bool functions may "  \
	"show as errors"

#ifdef __cplusplus
}
#endif

#endif /* KMAG_RENDER_ERRORS_H */
