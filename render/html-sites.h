/* SPDX-License-Identifier: MIT */
/*
 * html-sites.h - the data of the explorer's "Called from" lists
 * (html-sites.c), for html.c only.
 */
#ifndef KMAG_RENDER_HTML_SITES_H
#define KMAG_RENDER_HTML_SITES_H

#include <stdint.h>
#include <stdio.h>

#include "kmag/render/explore.h"

struct html_sites_ctx {
	const struct kmag_explore *x;	/* x->callsites, x->lines, x->cg and x->st are used */
	const uint32_t *new_of;		/* graph node index -> the page's function index */
};

/*
 * Writes ",\"sites\":{...}" when x->callsites recorded any call site of a
 * function the page lists, else nothing. 0 or -ENOMEM.
 */
int html_sites_write(FILE *out, const struct html_sites_ctx *c);

#endif
