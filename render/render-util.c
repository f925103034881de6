// SPDX-License-Identifier: MIT
/*
 * render-util.c - escaping and formatting helpers shared by the renderers.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "render-util.h"

void render_fput_xml(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

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
			/* control bytes are not allowed in XML 1.0 */
			if (*p < 0x20 && *p != '\t' && *p != '\n')
				fputc('?', out);
			else
				fputc(*p, out);
		}
	}
}

void render_fput_bytes(FILE *out, const char *data, size_t len)
{
	fwrite(data, 1, len, out);
}

char *render_fmt_count(char *buf, size_t len, uint64_t v)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%" PRIu64, v), i;
	size_t o = 0;

	for (i = 0; i < n && o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
	return buf;
}

int render_status(FILE *out)
{
	if (fflush(out) || ferror(out))
		return -EIO;
	return 0;
}

char *render_dot_esc(const char *s, const char *suffix)
{
	size_t n = 0, len, tail = suffix ? strlen(suffix) : 0;
	const char *p;
	char *out, *o;

	s = s ? s : "";
	for (p = s; *p; p++)
		n += *p == '\\';
	len = (size_t)(p - s);
	out = malloc(len + n + tail + 1);
	if (!out)
		return NULL;
	for (o = out, p = s; *p; p++) {
		if (*p == '\\')
			*o++ = '\\';
		*o++ = *p;
	}
	memcpy(o, suffix ? suffix : "", tail + 1);
	return out;
}
