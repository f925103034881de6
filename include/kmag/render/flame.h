/* SPDX-License-Identifier: MIT */
/*
 * render/flame.h - a flame graph as folded stacks and as an interactive SVG.
 * Implemented in libkmag-render (render/).
 */
#ifndef KMAG_RENDER_FLAME_H
#define KMAG_RENDER_FLAME_H

#include <stdio.h>

#include "../flame.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Writes one line per stack with a non-zero own weight: the frames from the
 * outermost down, joined by ';', a space and the weight (Brendan Gregg's
 * folded format, read by flamegraph.pl, speedscope and inferno). ';' and
 * line breaks in names are replaced. Returns 0 or -EIO.
 */
int kmag_flame_write_folded(FILE *out, const struct kmag_flame *f);

struct kmag_flame_svg_opts {
	const char *title;	/* heading; NULL = "Flame Graph" */
	const char *subtitle;	/* second line (input, filters), may be NULL */
	unsigned width;		/* image width in px; 0 = 1200 */
	double min_width;	/* frames narrower than this many px are left out; < 0 = 0.1 */
	bool icicle;		/* draw the outermost frame at the top */
};

/*
 * Writes a self-contained interactive SVG: hover shows a frame's calls and
 * time, click zooms into a frame, Ctrl-F / the search button highlights
 * matching frames. Returns 0 or -EIO.
 */
int kmag_flame_write_svg(FILE *out, const struct kmag_flame *f,
			 const struct kmag_flame_svg_opts *o);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_RENDER_FLAME_H */
