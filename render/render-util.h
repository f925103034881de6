/* SPDX-License-Identifier: MIT */
/*
 * render-util.h - helpers shared by the renderers in render/ (not public API).
 */
#ifndef KMAG_RENDER_RENDER_H
#define KMAG_RENDER_RENDER_H

#include <stdint.h>
#include <stdio.h>

#include "grow.h"	/* kmag__grow(), from lib/util: the base layer every part may use */

/* Shared by the renderers (render/report.c): write @s escaped for the format. */
void kmag_fput_json_string(FILE *out, const char *s);
void kmag_fput_csv_field(FILE *out, const char *s);
/* Formats @ns as "12.345 us" style text into @buf; returns @buf. */
char *kmag_format_duration(char *buf, size_t len, uint64_t ns);
/* Writes @s with XML/HTML special characters (& < > " ') escaped. NULL = "". */
void render_fput_xml(FILE *out, const char *s);
/* Writes @len bytes of @data as is. */
void render_fput_bytes(FILE *out, const char *data, size_t len);
/* Formats @v with thousands separators ("1,234,567") into @buf; returns @buf. */
char *render_fmt_count(char *buf, size_t len, uint64_t v);
/*
 * @s for a Graphviz (libcgraph) string, each backslash doubled, then @suffix
 * (NULL = "") as is: Graphviz's DOT writer escapes quotes but not
 * backslashes, so "a\\" came out as the unterminated "a\\\"", and labels
 * expand \N, \n, \l ... Doubled, the name is written and shown as it is.
 * Returns a new string to free(), or NULL (ENOMEM).
 */
char *render_dot_esc(const char *s, const char *suffix);
/* Returns 0, or -EIO when @out has seen a write error. */
int render_status(FILE *out);

#endif /* KMAG_RENDER_RENDER_H */
