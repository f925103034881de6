// SPDX-License-Identifier: MIT
/*
 * render-util.c - escaping and formatting helpers shared by the renderers.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmag/outfile.h"
#include "render-util.h"

size_t render_utf8_len(const unsigned char *p)
{
	size_t n, i;
	uint32_t cp;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1fu;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0fu;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07u;
	else
		return 0;
	/* a NUL is not a continuation byte: a truncated sequence stops there */
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3fu);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* Escapes @s for a terminal into @out (NULL: only counts); returns the length. */
static size_t text_escape(char *out, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t len = 0, n, i;

	while (*p) {
		n = render_utf8_len(p);
		if (n && !render_is_control(p, n)) {
			if (out)
				memcpy(out + len, p, n);
			len += n;
			p += n;
			continue;
		}
		/* a control character's bytes, or the one byte that is not UTF-8 */
		for (i = 0; i < (n ? n : 1); i++, len += 4) {
			if (out) {
				out[len] = '\\';
				out[len + 1] = 'x';
				out[len + 2] = hex[p[i] >> 4];
				out[len + 3] = hex[p[i] & 15];
			}
		}
		p += n ? n : 1;
	}
	return len;
}

const char *render_text_safe(const char *s, char **tmp)
{
	size_t len = text_escape(NULL, s);

	s = s ? s : "";
	if (len == strlen(s))
		return s;	/* escaping only ever lengthens */
	*tmp = malloc(len + 1);
	if (!*tmp)
		return "?";
	text_escape(*tmp, s);
	(*tmp)[len] = '\0';
	return *tmp;
}

void render_fput_text(FILE *out, const char *s)
{
	char *tmp = NULL;

	fputs(render_text_safe(s, &tmp), out);
	free(tmp);
}

void render_fput_xml(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n;

	for (; *p; p++) {
		switch (*p) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		default:
			/* XML 1.0 allows no control bytes: shown as text, as on a terminal */
			if ((*p < 0x20 && *p != '\t' && *p != '\n') || *p == 0x7f) {
				fprintf(out, "\\x%02x", *p);
			} else if (*p < 0x80) {
				fputc(*p, out);
			} else if ((n = render_utf8_len(p))) {
				fwrite(p, 1, n, out);
				p += n - 1;
			} else {
				/* XML must be UTF-8: a byte that is not becomes U+FFFD */
				fputs(RENDER_UTF8_REPLACEMENT, out);
			}
		}
	}
}

void render_fput_bytes(FILE *out, const char *data, size_t len)
{
	fwrite(data, 1, len, out);
}

int render_status(FILE *out)
{
	if (fflush(out) || ferror(out))
		return -EIO;
	return 0;
}

/* Bytes of the character at @p: its UTF-8 length, or 1 for a byte that is not UTF-8. */
static size_t char_bytes(const unsigned char *p)
{
	size_t n = render_utf8_len(p);

	return n ? n : 1;
}

const char *render_name_cut(const char *s, size_t max, char **tmp)
{
	const unsigned char *p;
	size_t chars = 0, head, tail, i, hb, tb;

	s = s ? s : "";
	if (strlen(s) <= max)
		return s;	/* never more characters than bytes */
	for (p = (const unsigned char *)s; *p; p += char_bytes(p))
		chars++;
	if (chars <= max)
		return s;
	head = max / 2;
	tail = max - 1 - head;
	/* the byte offsets where the head ends and the tail starts */
	for (i = 0, p = (const unsigned char *)s; i < head; i++)
		p += char_bytes(p);
	hb = (size_t)((const char *)p - s);
	for (; i < chars - tail; i++)
		p += char_bytes(p);
	tb = (size_t)((const char *)p - s);
	*tmp = malloc(hb + 3 + strlen(s + tb) + 1);
	if (!*tmp)
		return "?";
	memcpy(*tmp, s, hb);
	memcpy(*tmp + hb, "\xe2\x80\xa6", 3);	/* U+2026 */
	strcpy(*tmp + hb + 3, s + tb);
	return *tmp;
}

char *render_dot_esc(const char *s, const char *suffix)
{
	static const char hex[] = "0123456789abcdef";
	size_t tail = suffix ? strlen(suffix) : 0, n;
	const unsigned char *p;
	char *out, *o;

	s = s ? s : "";
	/* at most 5 bytes out per byte in (a control byte as \\xNN: 5 bytes) */
	out = malloc(strlen(s) * 5 + tail + 1);
	if (!out)
		return NULL;
	for (o = out, p = (const unsigned char *)s; *p; p += n ? n : 1) {
		n = render_utf8_len(p);
		if (!n) {
			memcpy(o, RENDER_UTF8_REPLACEMENT, 3);
			o += 3;
		} else if (render_is_control(p, n)) {
			/* as text: the backslash doubled, as every other one */
			size_t i;

			for (i = 0; i < n; i++) {
				memcpy(o, "\\\\x", 3);
				o[3] = hex[p[i] >> 4];
				o[4] = hex[p[i] & 15];
				o += 5;
			}
		} else {
			if (*p == '\\')
				*o++ = '\\';
			memcpy(o, p, n);
			o += n;
		}
	}
	memcpy(o, suffix ? suffix : "", tail + 1);
	return out;
}

char *render_dot_id(const char *name, size_t index)
{
	char *tmp = NULL, *id, suffix[32];
	const char *shown = render_name_cut(name, RENDER_TIP_MAX, &tmp);

	snprintf(suffix, sizeof(suffix), " #%zu", index);
	id = render_dot_esc(shown, shown == name ? NULL : suffix);
	free(tmp);
	return id;
}

void kmag_fput_json_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	fputc('"', out);
	for (; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		default:
			/* control bytes, and "<" so a name can never close a <script> */
			if (*p < 0x20 || *p == 0x7f || *p == '<') {
				fprintf(out, "\\u%04x", *p);
			} else if (*p < 0x80) {
				fputc(*p, out);
			} else {
				/* JSON is UTF-8: a byte that is not becomes U+FFFD */
				size_t n = render_utf8_len(p);

				if (n)
					fwrite(p, 1, n, out);
				else
					fputs("\\ufffd", out);
				p += n ? n - 1 : 0;
			}
		}
	}
	fputc('"', out);
}

static bool utf8_clean(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	for (; *p; p += n)
		if (!(n = render_utf8_len(p)))
			return false;
	return true;
}

void kmag_fput_csv_field(FILE *out, const char *s)
{
	const char *p;
	size_t n;

	s = s ? s : "";
	/* a leading = + - @ would make spreadsheets run the cell as a formula */
	if (!strpbrk(s, ",\"\n\r") && !strchr("=+-@", *s ? *s : 'x') && utf8_clean(s)) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	if (strchr("=+-@", *s ? *s : 'x') && *s)
		fputc('\'', out);
	for (p = s; *p; p += n) {
		/* CSV files are read as UTF-8: a byte that is not becomes U+FFFD */
		n = render_utf8_len((const unsigned char *)p);
		if (!n) {
			fputs(RENDER_UTF8_REPLACEMENT, out);
			n = 1;
			continue;
		}
		if (*p == '"')
			fputc('"', out);
		fwrite(p, 1, n, out);
	}
	fputc('"', out);
}

void render_log2hist_text(FILE *out, const char *heading, const uint64_t *hist,
			  const uint64_t *neg, unsigned nr,
			  void (*line)(FILE *out, unsigned b, bool neg, uint64_t n, uint64_t most))
{
	uint64_t most = 0;
	unsigned b;

	for (b = 0; b < nr; b++) {
		if (hist[b] > most)
			most = hist[b];
		if (neg[b] > most)
			most = neg[b];
	}
	if (!most)
		return;
	fputs(heading, out);
	for (b = nr - 1; b > 0; b--)	/* (bucket 0 holds 0, never negative) */
		if (neg[b])
			line(out, b, true, neg[b], most);
	for (b = 0; b < nr; b++)
		if (hist[b])
			line(out, b, false, hist[b], most);
}

char *render_fmt_number(char *buf, size_t len, uint64_t v, bool is_signed)
{
	if (is_signed)
		snprintf(buf, len, "%" PRId64, (int64_t)v);
	else
		snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

void render_put_number(FILE *out, uint64_t v, bool is_signed)
{
	char buf[32];

	fputs(render_fmt_number(buf, sizeof(buf), v, is_signed), out);
}

FILE *render_out_open(const char *path, struct kmag_outfile **file, int *ret,
		      struct kmag_err *err)
{
	*file = kmag_outfile_open(path, err);
	if (!*file) {
		*ret = -(err && err->code ? err->code : EIO);
		return NULL;
	}
	return kmag_outfile_stream(*file);
}

void render_json_min_max_mean(FILE *out, uint64_t min, uint64_t max, double sum, uint64_t count,
			      bool is_signed)
{
	fputs(",\"min\":", out);
	render_put_number(out, min, is_signed);
	fputs(",\"max\":", out);
	render_put_number(out, max, is_signed);
	fprintf(out, ",\"mean\":%.17g", sum / (double)count);
}
