/* SPDX-License-Identifier: MIT */
/*
 * html-errors.h - the Errors panel's data in the explorer page
 * (html-errors.c), for html.c only.
 */
#ifndef KMAG_RENDER_HTML_ERRORS_H
#define KMAG_RENDER_HTML_ERRORS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "kmag/render/explore.h"

/* At most this many groups go into a page (the page says how many there were). */
#define HTML_ERRORS_MAX_GROUPS 500

struct html_errors_ctx {
	const struct kmag_explore *x;	/* x->errors, x->errors_types, x->cg and x->st are used */
	const uint32_t *new_of;		/* graph node index -> the page's function index */
	const uint32_t *edge;		/* the page's edge index -> graph edge index */
	size_t nr_edge;
};

/* Whether @x has errors to show: an analysis of a trace with return values. */
bool html_errors_any(const struct kmag_explore *x);

/* Writes ",\"errors\":{...}" when html_errors_any(), else nothing. */
void html_errors_write(FILE *out, const struct html_errors_ctx *c);

#endif
