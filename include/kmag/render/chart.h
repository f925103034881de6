/* SPDX-License-Identifier: MIT */
/*
 * render/chart.h - the sorted bar chart of `kmag visualize`, drawn with cairo
 * (a build without cairo returns -ENOTSUP with @err naming the package).
 * Implemented in libkmag-render (render/chart.c).
 */
#ifndef KMAG_RENDER_CHART_H
#define KMAG_RENDER_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../kmag.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A horizontal bar chart of values, largest first; every pointer is borrowed. */
struct kmag_chart {
	const char *title;
	const char *subtitle;		/* may be NULL */
	const char *axis_label;		/* "calls", "total time", ... */
	bool durations;			/* values are nanoseconds: label them as times */
	size_t nr;			/* bars */
	const char *const *names;	/* nr labels */
	const uint64_t *values;		/* nr values, sorted descending */
	const double *heat;		/* nr colour positions 0..1, or NULL for one colour */
};

/*
 * Draws @c with a logarithmic value axis as "png", "pdf" or "svg" to @path.
 * Returns 0 or -errno with @err set. Nothing is drawn for nr == 0 (-EINVAL).
 */
int kmag_render_chart(const struct kmag_chart *c, const char *path, const char *format,
		      struct kmag_err *err);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_RENDER_CHART_H */
