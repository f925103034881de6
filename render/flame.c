// SPDX-License-Identifier: MIT
/*
 * flame.c - flame-graph renderings: folded stacks and an interactive SVG.
 *
 * The SVG follows the shape of Brendan Gregg's flamegraph.pl output (one
 * <g> per frame with a <title>, a <rect> and a <text>), so it looks familiar,
 * but it is written here from kmag's frame tree: flamegraph.pl is a Perl
 * script, not a library, and kmag must not need Perl at run time. The
 * interaction script (assets/flame.js) is embedded in the file.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "assets.h"
#include "kmag/flame.h"
#include "kmag/render/flame.h"
#include "kmag/report.h"
#include "render-util.h"

#define PAD 10.0
#define FRAME_H 16.0
#define HEADER_H 64.0
#define FOOTER_H 34.0
#define FONT_PX 11
#define CHAR_W 6.62	/* advance of an 11 px monospace glyph */

struct svg_item {
	uint32_t frame;
	double x;
};

/* Writes @s with the characters the folded format reserves replaced. */
static void put_folded_name(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc(*s == ';' ? ':' : (*s == '\n' || *s == '\r') ? ' ' : *s, out);
}

int kmag_flame_write_folded(FILE *out, const struct kmag_flame *f)
{
	const struct kmag_flame_frame *fr = kmag_flame_frames(f);
	size_t n = kmag_flame_nr_frames(f);
	uint32_t *path = NULL;
	size_t depth = 0, cap = 0;
	uint32_t c;
	int ret = 0;

	if (n < 2 || !fr[0].first_child)
		return 0;
	/* iterative depth-first walk; path[] holds the frames from the top */
	c = fr[0].first_child;
	while (c) {
		if (kmag__grow(&path, &cap, depth + 1, sizeof(*path))) {
			ret = -ENOMEM;
			break;
		}
		path[depth++] = c;
		if (kmag_flame_self(f, c)) {
			size_t i;

			for (i = 0; i < depth; i++) {
				if (i)
					fputc(';', out);
				put_folded_name(out, fr[path[i]].name);
			}
			fprintf(out, " %" PRIu64 "\n", kmag_flame_self(f, c));
		}
		if (fr[c].first_child) {
			c = fr[c].first_child;
			continue;
		}
		/* climb until a frame has a next sibling */
		while (depth && !fr[path[depth - 1]].next_sibling)
			depth--;
		if (!depth)
			break;
		c = fr[path[--depth]].next_sibling;
	}
	free(path);
	return ret ? ret : render_status(out);
}

/* ---- SVG ---- */

/* flamegraph.pl's "hot" palette, seeded by the name so a function keeps its colour. */
static void frame_fill(char *buf, size_t len, const char *name, uint32_t depth)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	const char *p;
	double a, b;

	if (depth == 0 || !strcmp(name, "[unknown]")) {
		snprintf(buf, len, "rgb(200,200,200)");
		return;
	}
	for (p = name; *p; p++) {
		h ^= (unsigned char)*p;
		h *= 0x100000001b3ULL;
	}
	a = (double)(h & 0xffff) / 65535.0;
	b = (double)((h >> 16) & 0xffff) / 65535.0;
	snprintf(buf, len, "rgb(%d,%d,%d)", 205 + (int)(50 * a), (int)(230 * b),
		 (int)(55 * (1 - a)));
}

static void put_label(FILE *out, const char *name, double w)
{
	double chars = (w - 6) / CHAR_W;
	size_t len = strlen(name);
	char buf[512];
	int fit;

	/* (a width past INT_MAX, or NaN, must not reach the cast: undefined) */
	if (!(chars >= 3))
		return;
	fit = chars > 65536 ? 65536 : (int)chars;
	if (len <= (size_t)fit) {
		render_fput_xml(out, name);
		return;
	}
	if ((size_t)fit > sizeof(buf) - 1)
		fit = sizeof(buf) - 1;
	/* cut between characters: never inside a UTF-8 sequence */
	while (fit > 3 && ((unsigned char)name[fit - 2] & 0xc0) == 0x80)
		fit--;
	memcpy(buf, name, (size_t)fit - 2);
	strcpy(buf + fit - 2, "..");
	render_fput_xml(out, buf);
}

/* A frame's name in its <title>: whole, up to RENDER_TIP_MAX characters (render-util.h). */
static void put_tip_name(FILE *out, const char *name)
{
	char *tmp = NULL;

	render_fput_xml(out, render_name_cut(name, RENDER_TIP_MAX, &tmp));
	free(tmp);
}

/* The hover text of a frame (second line of its <title>). */
static void put_info(FILE *out, const struct kmag_flame *f, uint32_t i, uint64_t root_total)
{
	const struct kmag_flame_frame *fr = &kmag_flame_frames(f)[i];
	double pct = root_total ? 100.0 * (double)kmag_flame_total(f, i) / (double)root_total : 0;
	char a[48], b[48], c[48];
	bool time = kmag_flame_weight(f) == KMAG_FLAME_TIME;

	if (kmag_flame_reversed(f)) {
		/* a reversed frame: the leaf function's calls along this chain of callers */
		fprintf(out, "%s calls, %s self time (%.2f%%)",
			kmag_fmt_count(a, sizeof(a), fr->total_calls),
			kmag_format_duration(b, sizeof(b), fr->total_ns), pct);
		return;
	}
	if (time)
		fprintf(out, "%s (%.2f%%) incl. callees, self %s, %s calls of this stack",
			kmag_format_duration(a, sizeof(a), fr->total_ns), pct,
			kmag_format_duration(b, sizeof(b), fr->self_ns),
			kmag_fmt_count(c, sizeof(c), fr->self_calls));
	else
		fprintf(out, "%s calls in this subtree (%.2f%%), %s of this stack, %s incl. callees",
			kmag_fmt_count(a, sizeof(a), fr->total_calls), pct,
			kmag_fmt_count(b, sizeof(b), fr->self_calls),
			kmag_format_duration(c, sizeof(c), fr->total_ns));
}

/* The SVG's head: its size, style, script, background, title and text fields, and the frames' group opened. */
static void svg_head(FILE *out, const struct kmag_flame_svg_opts *o, double width, double height)
{
	const struct kmag_flame_svg_opts d = *o;

	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"data-pad=\"%.0f\" data-charw=\"%.2f\" xmlns=\"http://www.w3.org/2000/svg\">\n",
		width, height, width, height, PAD, CHAR_W);
	fprintf(out, "<style>\n"
		"text { font-family: monospace; font-size: %dpx; fill: rgb(0,0,0); }\n"
		"#title { font-size: 17px; text-anchor: middle; }\n"
		"#subtitle { text-anchor: middle; fill: rgb(90,90,90); }\n"
		"#matched { text-anchor: end; }\n"
		".btn { cursor: pointer; fill: rgb(30,60,160); }\n"
		".hide { display: none; }\n"
		".parent { opacity: 0.5; }\n"
		"#frames g { cursor: pointer; }\n"
		"#frames g:hover rect { stroke: rgb(0,0,0); stroke-width: 0.6; }\n"
		"</style>\n", FONT_PX);
	fputs("<script type=\"text/ecmascript\"><![CDATA[\n", out);
	render_fput_bytes(out, kmag_asset_flame_js, kmag_asset_flame_js_len);
	fputs("]]></script>\n", out);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"rgb(248,248,240)\"/>\n",
		width, height);
	fprintf(out, "<text id=\"title\" x=\"%.1f\" y=\"24\">", width / 2);
	render_fput_xml(out, d.title ? d.title : "Flame Graph");
	fputs("</text>\n", out);
	fprintf(out, "<text id=\"subtitle\" x=\"%.1f\" y=\"44\">", width / 2);
	render_fput_xml(out, d.subtitle ? d.subtitle : "");
	fputs("</text>\n", out);
	fprintf(out, "<text id=\"unzoom\" class=\"btn hide\" x=\"%.0f\" y=\"24\">Reset Zoom</text>\n", PAD);
	fprintf(out, "<text id=\"search\" class=\"btn\" x=\"%.0f\" y=\"24\" text-anchor=\"end\">Search</text>\n",
		width - PAD);
	fprintf(out, "<text id=\"details\" x=\"%.0f\" y=\"%.0f\"> </text>\n", PAD, height - 12);
	fprintf(out, "<text id=\"matched\" x=\"%.0f\" y=\"%.0f\"> </text>\n", width - PAD, height - 12);
	fputs("<g id=\"frames\">\n", out);
}

/* The frames, depth-first, parents before children (the script relies on frame 0 being the root). */
static int svg_frames(FILE *out, const struct kmag_flame *f, const struct kmag_flame_svg_opts *o,
		      double scale, double height, double min_w)
{
	const struct kmag_flame_frame *fr = kmag_flame_frames(f);
	const struct kmag_flame_svg_opts d = *o;
	uint64_t root_total = kmag_flame_total(f, 0);
	struct svg_item *stack = NULL;
	size_t sp = 0, cap = 0;
	int ret = 0;

	if (kmag__grow(&stack, &cap, 1, sizeof(*stack))) {
		ret = -ENOMEM;
		goto out;
	}
	stack[sp++] = (struct svg_item){ 0, PAD };
	while (sp) {
		struct svg_item it = stack[--sp];
		const struct kmag_flame_frame *x = &fr[it.frame];
		double w = (double)kmag_flame_total(f, it.frame) * scale;
		double y = d.icicle ? HEADER_H + x->depth * FRAME_H :
				      height - FOOTER_H - (x->depth + 1) * FRAME_H;
		double cx = it.x;
		char fill[32];
		size_t first = sp;
		uint32_t c;

		if (w < min_w && it.frame)
			continue;
		frame_fill(fill, sizeof(fill), x->name, x->depth);
		fprintf(out, "<g data-d=\"%u\"><title>", x->depth);
		put_tip_name(out, x->name);
		fputc('\n', out);
		put_info(out, f, it.frame, root_total);
		fprintf(out, "</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
			"fill=\"%s\" rx=\"2\" ry=\"2\"/><text x=\"%.2f\" y=\"%.1f\">",
			it.x, y, w, FRAME_H - 1, fill, it.x + 3, y + FRAME_H - 5);
		put_label(out, x->name, w);
		fputs("</text></g>\n", out);
		/* push the children in reverse so the first is drawn first */
		for (c = x->first_child; c; c = fr[c].next_sibling) {
			if (kmag__grow(&stack, &cap, sp + 1, sizeof(*stack))) {
				ret = -ENOMEM;
				goto out;
			}
			stack[sp++] = (struct svg_item){ c, cx };
			cx += (double)kmag_flame_total(f, c) * scale;
		}
		for (size_t l = first, r = sp; r > l + 1; l++, r--) {
			struct svg_item t = stack[l];

			stack[l] = stack[r - 1];
			stack[r - 1] = t;
		}
	}
out:
	free(stack);
	return ret;
}

int kmag_flame_write_svg(FILE *out, const struct kmag_flame *f, const struct kmag_flame_svg_opts *o)
{
	const struct kmag_flame_frame *fr = kmag_flame_frames(f);
	struct kmag_flame_svg_opts d = { 0 };
	uint32_t max_depth = 0, i;
	uint64_t root_total = kmag_flame_total(f, 0);
	double width, scale, height, min_w;
	int ret;

	if (o)
		d = *o;
	width = d.width ? d.width : 1200;
	if (width < 200)
		width = 200;
	min_w = d.min_width < 0 ? 0.1 : d.min_width;
	scale = root_total ? (width - 2 * PAD) / (double)root_total : 0;
	/* depth of the deepest frame that will be drawn */
	for (i = 0; i < kmag_flame_nr_frames(f); i++)
		if ((double)kmag_flame_total(f, i) * scale >= min_w && fr[i].depth > max_depth)
			max_depth = fr[i].depth;
	height = HEADER_H + (max_depth + 1) * FRAME_H + FOOTER_H;

	svg_head(out, &d, width, height);
	if ((ret = svg_frames(out, f, &d, scale, height, min_w)))
		return ret;
	fputs("</g>\n</svg>\n", out);
	return render_status(out);
}
