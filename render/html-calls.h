/* SPDX-License-Identifier: MIT */
/*
 * html-calls.h - the Calls view's data in the explorer page (html-calls.c),
 * for html.c only.
 */
#ifndef KMAG_RENDER_HTML_CALLS_H
#define KMAG_RENDER_HTML_CALLS_H

#include <stdio.h>

#include "kmag/render/explore.h"

struct html_calls_ctx {
	const struct kmag_explore *x;	/* x->calls, x->cg and x->st are used */
	const uint32_t *new_of;		/* graph node index -> the page's function index */
	size_t nr_shown;		/* functions the page lists */
};

/* Writes ",\"calls\":{...}" (x->calls must be finished). 0 or -ENOMEM. */
int html_calls_write(FILE *out, const struct html_calls_ctx *c);

#endif
