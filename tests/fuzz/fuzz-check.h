/* SPDX-License-Identifier: MIT */
/*
 * fuzz-check.h - cheap well-formedness checks of rendered output for the
 * render fuzz targets. Each returns NULL when @s (of @n bytes) is well formed,
 * else a short reason; the targets abort() on a reason so libFuzzer reports it.
 * They check structure (JSON grammar, CSV quoting, DOT quoting, XML tags and
 * entities, <script> closing), not content.
 */
#ifndef KMAG_FUZZ_CHECK_H
#define KMAG_FUZZ_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

struct fz_json {
	const char *p, *end;
	const char *why;
};

static inline void fz_ws(struct fz_json *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static inline bool fz_fail(struct fz_json *j, const char *why)
{
	if (!j->why)
		j->why = why;
	return false;
}

static inline bool fz_json_string(struct fz_json *j)
{
	j->p++;	/* the opening quote */
	while (j->p < j->end) {
		unsigned char c = (unsigned char)*j->p++;

		if (c == '"')
			return true;
		if (c < 0x20)
			return fz_fail(j, "JSON: raw control byte in a string");
		if (c != '\\')
			continue;
		if (j->p >= j->end)
			break;
		c = (unsigned char)*j->p++;
		if (c == 'u') {
			int i;

			for (i = 0; i < 4; i++, j->p++)
				if (j->p >= j->end || !strchr("0123456789abcdefABCDEF", *j->p) || !*j->p)
					return fz_fail(j, "JSON: bad \\u escape");
		} else if (!strchr("\"\\/bfnrt", c) || !c) {
			return fz_fail(j, "JSON: bad escape");
		}
	}
	return fz_fail(j, "JSON: unterminated string");
}

static inline bool fz_json_number(struct fz_json *j)
{
	const char *s = j->p;

	if (j->p < j->end && *j->p == '-')
		j->p++;
	if (j->p >= j->end || *j->p < '0' || *j->p > '9')
		return fz_fail(j, "JSON: bad number");
	while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
		j->p++;
	if (j->p < j->end && *j->p == '.') {
		j->p++;
		if (j->p >= j->end || *j->p < '0' || *j->p > '9')
			return fz_fail(j, "JSON: bad fraction");
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		if (j->p >= j->end || *j->p < '0' || *j->p > '9')
			return fz_fail(j, "JSON: bad exponent");
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	return j->p > s;
}

static inline bool fz_json_value(struct fz_json *j, int depth)
{
	fz_ws(j);
	if (depth > 200)
		return fz_fail(j, "JSON: nested too deep");
	if (j->p >= j->end)
		return fz_fail(j, "JSON: value expected");
	switch (*j->p) {
	case '"':
		return fz_json_string(j);
	case '{':
	case '[': {
		char close = *j->p == '{' ? '}' : ']';
		bool obj = close == '}';

		j->p++;
		fz_ws(j);
		if (j->p < j->end && *j->p == close) {
			j->p++;
			return true;
		}
		for (;;) {
			if (obj) {
				fz_ws(j);
				if (j->p >= j->end || *j->p != '"')
					return fz_fail(j, "JSON: key expected");
				if (!fz_json_string(j))
					return false;
				fz_ws(j);
				if (j->p >= j->end || *j->p++ != ':')
					return fz_fail(j, "JSON: ':' expected");
			}
			if (!fz_json_value(j, depth + 1))
				return false;
			fz_ws(j);
			if (j->p < j->end && *j->p == ',') {
				j->p++;
				continue;
			}
			if (j->p < j->end && *j->p == close) {
				j->p++;
				return true;
			}
			return fz_fail(j, "JSON: ',' or close expected");
		}
	}
	case 't':
		if (j->end - j->p >= 4 && !memcmp(j->p, "true", 4))
			return j->p += 4, true;
		return fz_fail(j, "JSON: bad literal");
	case 'f':
		if (j->end - j->p >= 5 && !memcmp(j->p, "false", 5))
			return j->p += 5, true;
		return fz_fail(j, "JSON: bad literal");
	case 'n':
		if (j->end - j->p >= 4 && !memcmp(j->p, "null", 4))
			return j->p += 4, true;
		return fz_fail(j, "JSON: bad literal");
	default:
		return fz_json_number(j);
	}
}

/*
 * Well-formed UTF-8 (RFC 3629: no overlong forms, surrogates or code points
 * past U+10FFFF), as strict parsers (python's, browsers' XML) want it.
 */
static inline const char *fz_check_utf8(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, k, len;
	unsigned long cp, min;

	while (i < n) {
		if (s[i] < 0x80) {
			i++;
			continue;
		}
		if ((s[i] & 0xe0) == 0xc0)
			len = 2, cp = s[i] & 0x1f, min = 0x80;
		else if ((s[i] & 0xf0) == 0xe0)
			len = 3, cp = s[i] & 0x0f, min = 0x800;
		else if ((s[i] & 0xf8) == 0xf0)
			len = 4, cp = s[i] & 0x07, min = 0x10000;
		else
			return "UTF-8: a byte that starts no character";
		if (i + len > n)
			return "UTF-8: a character cut at the end";
		for (k = 1; k < len; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return "UTF-8: a truncated character";
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return "UTF-8: an overlong form, a surrogate or past U+10FFFF";
		i += len;
	}
	return NULL;
}

/*
 * Text for a terminal (report, diff, slowest calls): UTF-8 without a control
 * character a terminal acts on (C0 but newline, DEL, C1 U+0080-U+009F).
 */
static inline const char *fz_check_text(const char *s, size_t n)
{
	const char *why = fz_check_utf8(s, n);
	size_t i;

	if (why)
		return why;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c < 0x20 && c != '\n') || c == 0x7f)
			return "text: a raw control byte";
		if (c == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] < 0xa0)
			return "text: a raw C1 control character";
	}
	return NULL;
}

/* One JSON document in UTF-8 (RFC 8259). */
static inline const char *fz_check_json(const char *s, size_t n)
{
	struct fz_json j = { s, s + n, NULL };

	if (fz_check_utf8(s, n))
		return fz_check_utf8(s, n);
	if (!fz_json_value(&j, 0))
		return j.why ? j.why : "JSON: malformed";
	fz_ws(&j);
	return j.p == j.end ? NULL : "JSON: bytes after the document";
}

/* JSON Lines: every line one JSON document (kmag replay --format json). */
static inline const char *fz_check_jsonl(const char *s, size_t n)
{
	const char *end = s + n;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *why;

		if (!nl)
			return "JSON Lines: the last line has no line break";
		if (nl > s && (why = fz_check_json(s, (size_t)(nl - s))))
			return why;
		s = nl + 1;
	}
	return NULL;
}

/*
 * CSV (RFC 4180): a field is either bare (no quote, comma or line break) or
 * quoted with inner quotes doubled; every record has as many fields as the
 * first, and the output ends with a line break.
 */
static inline const char *fz_check_csv(const char *s, size_t n)
{
	size_t i = 0, fields = 1, want = 0;

	if (fz_check_utf8(s, n))
		return fz_check_utf8(s, n);
	if (!n)
		return NULL;
	while (i < n) {
		if (s[i] == '"') {
			for (i++;; i++) {
				if (i >= n)
					return "CSV: unterminated quoted field";
				if (s[i] == '"') {
					if (i + 1 < n && s[i + 1] == '"') {
						i++;
						continue;
					}
					i++;
					break;
				}
			}
		} else {
			while (i < n && s[i] != ',' && s[i] != '\n' && s[i] != '\r') {
				if (s[i] == '"')
					return "CSV: quote inside a bare field";
				i++;
			}
		}
		if (i >= n)
			return "CSV: no line break at the end";
		if (s[i] == ',') {
			fields++;
			i++;
			continue;
		}
		if (s[i] == '\r')
			i++;
		if (i >= n || s[i] != '\n')
			return "CSV: bytes after a quoted field";
		i++;
		if (!want)
			want = fields;
		else if (fields != want)
			return "CSV: records of different widths";
		fields = 1;
	}
	return NULL;
}

/*
 * DOT: every double-quoted string closes (backslash escapes the next byte),
 * and braces and brackets outside strings balance.
 */
static inline const char *fz_check_dot(const char *s, size_t n)
{
	int brace = 0, bracket = 0;
	size_t i;

	if (fz_check_utf8(s, n))
		return fz_check_utf8(s, n);
	for (i = 0; i < n; i++) {
		if (s[i] == '"') {
			for (i++; i < n && s[i] != '"'; i++)
				if (s[i] == '\\')
					i++;
			if (i >= n)
				return "DOT: unterminated string";
		} else if (s[i] == '<') {
			return "DOT: HTML-like label (kmag writes none; a name leaked out of its quotes)";
		} else if (s[i] == '{' || s[i] == '}' || s[i] == '[' || s[i] == ']') {
			brace += s[i] == '{' ? 1 : s[i] == '}' ? -1 : 0;
			bracket += s[i] == '[' ? 1 : s[i] == ']' ? -1 : 0;
			if (brace < 0 || bracket < 0 || bracket > 1)
				return "DOT: unbalanced braces or brackets";
		} else if (s[i] == '\0') {
			return "DOT: NUL byte";
		}
	}
	return brace || bracket ? "DOT: unbalanced braces or brackets" : NULL;
}

static inline const char *fz_find(const char *s, const char *end, const char *needle)
{
	size_t k = strlen(needle);

	for (; s + k <= end; s++)
		if (!memcmp(s, needle, k))
			return s;
	return NULL;
}

/*
 * XML (SVG): tags nest and close by name, attribute values are quoted and
 * hold no '<', '&' starts an entity in text and attributes; comments,
 * CDATA, declarations and processing instructions are skipped whole.
 */
static inline const char *fz_check_xml(const char *s, size_t n)
{
	const char *p = s, *end = s + n;
	const char *stack[64];
	size_t lens[64];
	int depth = 0, roots = 0;

	if (fz_check_utf8(s, n))
		return fz_check_utf8(s, n);
	while (p < end) {
		if (*p == '&') {
			const char *q = p + 1;

			if (q < end && *q == '#')
				q++;
			while (q < end && ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
					   (*q >= '0' && *q <= '9')))
				q++;
			if (q == p + 1 || q >= end || *q != ';')
				return "XML: '&' that starts no entity";
			p = q + 1;
			continue;
		}
		if (*p == '\0')
			return "XML: NUL byte";
		if (*p != '<') {
			if (*p == '>' && p > s && p[-1] == ']' && p - 1 > s && p[-2] == ']')
				return "XML: ']]>' in text";
			if (!depth && *p != ' ' && *p != '\n' && *p != '\t' && *p != '\r')
				return "XML: text outside the root element";
			p++;
			continue;
		}
		if (end - p >= 4 && !memcmp(p, "<!--", 4)) {
			const char *q = fz_find(p + 4, end, "-->");

			if (!q)
				return "XML: unterminated comment";
			p = q + 3;
			continue;
		}
		if (end - p >= 9 && !memcmp(p, "<![CDATA[", 9)) {
			const char *q = fz_find(p + 9, end, "]]>");

			if (!q || !depth)
				return "XML: bad CDATA section";
			p = q + 3;
			continue;
		}
		if (end - p >= 2 && (p[1] == '?' || p[1] == '!')) {
			const char *q = memchr(p, '>', (size_t)(end - p));

			if (!q)
				return "XML: unterminated declaration";
			p = q + 1;
			continue;
		}
		{
			bool closing = p + 1 < end && p[1] == '/';
			const char *name = p + 1 + closing, *q = name;
			size_t len;

			while (q < end && !strchr(" \t\n\r/>", *q) && *q)
				q++;
			len = (size_t)(q - name);
			if (!len)
				return "XML: tag without a name";
			/* attributes */
			for (;;) {
				while (q < end && strchr(" \t\n\r", *q) && *q)
					q++;
				if (q >= end)
					return "XML: unterminated tag";
				if (*q == '>' || (*q == '/' && q + 1 < end && q[1] == '>'))
					break;
				if (closing)
					return "XML: attributes in a closing tag";
				while (q < end && *q != '=' && *q != '>' && *q != '<' && *q != '"')
					q++;
				if (q + 1 >= end || *q != '=' || (q[1] != '"' && q[1] != '\''))
					return "XML: attribute without a quoted value";
				{
					char quote = q[1];

					for (q += 2; q < end && *q != quote; q++) {
						if (*q == '<' || !*q)
							return "XML: '<' or NUL in an attribute value";
						if (*q == '&') {
							const char *e = q + 1;

							if (e < end && *e == '#')
								e++;
							while (e < end && ((*e >= 'a' && *e <= 'z') ||
									   (*e >= 'A' && *e <= 'Z') ||
									   (*e >= '0' && *e <= '9')))
								e++;
							if (e == q + 1 || e >= end || *e != ';')
								return "XML: '&' that starts no entity in an attribute";
						}
					}
					if (q >= end)
						return "XML: unterminated attribute value";
					q++;
				}
			}
			if (closing) {
				if (!depth || lens[depth - 1] != len || memcmp(stack[depth - 1], name, len))
					return "XML: closing tag does not match";
				depth--;
			} else if (*q == '/') {
				q++;
				if (!depth)
					roots++;
			} else {
				if (depth == 64)
					return "XML: nested too deep";
				if (!depth)
					roots++;
				stack[depth] = name;
				lens[depth++] = len;
			}
			p = q + 1;
		}
	}
	if (depth)
		return "XML: element not closed";
	return roots == 1 ? NULL : "XML: not exactly one root element";
}

/*
 * HTML page: every <script> closes exactly once, so no name closes one early;
 * the explorer's data element (id="kmag-data") holds one JSON document.
 */
static inline const char *fz_check_html(const char *s, size_t n)
{
	static const char data[] = "id=\"kmag-data\">";
	size_t open = 0, close = 0, i;
	const char *d = memmem(s, n, data, sizeof(data) - 1), *end;

	if (fz_check_utf8(s, n))
		return fz_check_utf8(s, n);
	for (i = 0; i + 8 <= n; i++) {
		if (s[i] != '<')
			continue;
		if (!strncasecmp(s + i, "<script", 7))
			open++;
		else if (i + 9 <= n && !strncasecmp(s + i, "</script", 8))
			close++;
		if (close > open)
			return "HTML: </script> without a <script>";
	}
	if (memchr(s, '\0', n))
		return "HTML: NUL byte";
	if (open != close)
		return "HTML: a <script> is not closed";
	if (d) {
		d += sizeof(data) - 1;
		end = memmem(d, n - (size_t)(d - s), "</script>", 9);
		if (!end || fz_check_json(d, (size_t)(end - d)))
			return "HTML: the page's data is not one JSON document";
	}
	return NULL;
}

#endif
