/* SPDX-License-Identifier: MIT */
/*
 * render-util.h - helpers shared by the renderers in render/ (not public API).
 */
#ifndef KMAG_RENDER_RENDER_H
#define KMAG_RENDER_RENDER_H

#include <stdint.h>
#include <stdio.h>

#include "grow.h"	/* kmag__grow(), from lib/util: the base layer every part may use */
#include "kmag/render/report.h"	/* kmag_fmt_count() */

/* Shared by the renderers (render/report.c): write @s escaped for the format. */
void kmag_fput_json_string(FILE *out, const char *s);
void kmag_fput_csv_field(FILE *out, const char *s);
/*
 * Names come from the trace as bytes (a kallsyms line, a comm): every writer
 * decides per character with these two. render_utf8_len() is the length of
 * the well-formed UTF-8 character at @p (1-4 bytes; @p is NUL-terminated), or
 * 0 where the bytes are not UTF-8 (a stray continuation byte, a truncated,
 * overlong or surrogate sequence, past U+10FFFF, 0xc0/0xc1/0xf5-0xff).
 * render_is_control() says whether the character of @len bytes at @p is one a
 * terminal acts on: C0 (also tab and newline: not part of a name), DEL, C1.
 */
size_t render_utf8_len(const unsigned char *p);
static inline int render_is_control(const unsigned char *p, size_t len)
{
	return (len == 1 && (p[0] < 0x20 || p[0] == 0x7f)) ||
	       (len == 2 && p[0] == 0xc2 && p[1] < 0xa0);
}
/* The replacement for bytes that are not UTF-8: U+FFFD in UTF-8. */
#define RENDER_UTF8_REPLACEMENT "\xef\xbf\xbd"
/*
 * Writes @s (NULL = "") for a terminal: control characters and bytes that are
 * not UTF-8 as \xNN text, so no name can move the cursor, recolour or retitle
 * the terminal, or hide what follows it; everything else as is.
 */
void render_fput_text(FILE *out, const char *s);
/*
 * @s escaped as render_fput_text() writes it, for formats that need the text
 * as a string (column widths): returns @s itself when nothing needs escaping,
 * else a new string stored in *@tmp (free it; NULL before). On ENOMEM: "?".
 */
const char *render_text_safe(const char *s, char **tmp);
/*
 * Writes @s with XML/HTML special characters (& < > " ') escaped, control
 * bytes but tab and newline as \xNN text (XML 1.0 allows none) and bytes
 * that are not UTF-8 as U+FFFD.
 * NULL = "".
 */
void render_fput_xml(FILE *out, const char *s);
/* Writes @len bytes of @data as is. */
void render_fput_bytes(FILE *out, const char *data, size_t len);
/*
 * @s for a Graphviz (libcgraph) string, each backslash doubled, then @suffix
 * (NULL = "") as is: Graphviz's DOT writer escapes quotes but not
 * backslashes, so "a\\" came out as the unterminated "a\\\"", and labels
 * expand \N, \n, \l ... Doubled, the name is written and shown as it is.
 * Control characters become \xNN text and bytes that are not UTF-8 U+FFFD
 * (Graphviz would copy them raw into SVG, which XML then rejects).
 * Returns a new string to free(), or NULL (ENOMEM).
 */
char *render_dot_esc(const char *s, const char *suffix);
/*
 * Names in pictures. A label shows at most RENDER_LABEL_MAX characters of a
 * name: every function of Linux 6.19's System.map fits whole (the longest
 * has 76), and a longer one, which only hostile or broken input holds, is
 * cut in the middle ("tcp_v4_…_rcv": kernel names that share a prefix differ
 * at the end), as the chart cuts its labels. The whole name goes to the
 * tooltip, up to RENDER_TIP_MAX characters: the kernel's own limit for a
 * symbol name (KSYM_NAME_LEN, 512 since Linux 6.1), so every real name is
 * whole there and a 1 MB name cannot make a picture megabytes large or hand
 * Graphviz and Pango a text they fail to lay out.
 */
#define RENDER_LABEL_MAX 80
#define RENDER_TIP_MAX 512
/*
 * @s (NULL = "") cut in the middle to at most @max characters (UTF-8
 * characters; a byte that is not UTF-8 counts as one), the cut marked by an
 * ellipsis (U+2026) that counts as one of them. Returns @s itself when it
 * fits, else a new string stored in *@tmp (free it; NULL before). @max >= 3.
 * On ENOMEM: "?".
 */
const char *render_name_cut(const char *s, size_t max, char **tmp);
/*
 * A DOT node identifier for function @name, the node @index of its graph:
 * the name as render_dot_esc() writes it, or, for a name longer than
 * RENDER_TIP_MAX characters, its render_name_cut() and " #@index" (unique
 * again): Graphviz cannot read a quoted string above 16384 bytes back, and
 * a 1 MB name would make the file unreadable. Returns a new string to
 * free(), or NULL (ENOMEM).
 */
char *render_dot_id(const char *name, size_t index);
/* Returns 0, or -EIO when @out has seen a write error. */
int render_status(FILE *out);

/* @v (raw bits) in decimal, as two's complement when @is_signed, into @buf; returns @buf. */
char *render_fmt_number(char *buf, size_t len, uint64_t v, bool is_signed);
/* The same, written to @out (a JSON number). */
void render_put_number(FILE *out, uint64_t v, bool is_signed);
/* ,"min":..,"max":..,"mean":.. of @count values (raw bits, @is_signed) summing to @sum. */
void render_json_min_max_mean(FILE *out, uint64_t min, uint64_t max, double sum, uint64_t count,
			      bool is_signed);

struct kmag_outfile;
/*
 * Opens @path for a picture or page (include/kmag/outfile.h: written aside,
 * in place once committed): its stream, *@file to commit or abort; NULL
 * with @err set and *@ret = -errno.
 */
FILE *render_out_open(const char *path, struct kmag_outfile **file, int *ret,
		      struct kmag_err *err);

/*
 * A power-of-two histogram (lib/util/log2hist.h: @nr buckets in @hist, the
 * negative values' magnitudes in @neg) in a text table: nothing when it is
 * empty, else @heading and each non-empty bucket in order of value (the most
 * negative first) through @line, with its count and the largest count.
 */
void render_log2hist_text(FILE *out, const char *heading, const uint64_t *hist,
			  const uint64_t *neg, unsigned nr,
			  void (*line)(FILE *out, unsigned b, bool neg, uint64_t n, uint64_t most));

#endif /* KMAG_RENDER_RENDER_H */
