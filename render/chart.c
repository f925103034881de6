// SPDX-License-Identifier: MIT
/*
 * chart.c - the sorted call-count chart: horizontal bars, largest first, on a
 * logarithmic axis, drawn with cairo into PNG, PDF or SVG.
 *
 * Horizontal bars keep long kernel function names readable without rotation.
 * cairo's "toy" text API is enough for single-line labels in one font.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "kmag/cgview.h"	/* kmag_heat_rgb() */
#include "kmag/outfile.h"
#include "kmag/render/chart.h"
#include "render-util.h"

#if KMAG_HAVE_CAIRO
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>

#define WIDTH 1200
#define ROW 24
#define BAR 16
#define TOP 78
#define BOTTOM 58
#define RIGHT 110
#define FONT "DejaVu Sans"

/* The picture size for @nr bars. */
static void chart_size(size_t nr, int *width, int *height)
{
	*width = WIDTH;
	*height = TOP + (int)(nr ? nr : 1) * ROW + BOTTOM;
}

/* Length of the valid UTF-8 sequence at @s (of @left bytes), or 0. */
static size_t utf8_seq(const unsigned char *s, size_t left)
{
	size_t n, k;

	if (s[0] < 0x80)
		return s[0] >= 0x20 ? 1 : 0;	/* control characters are not drawable */
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (n > left)
		return 0;
	for (k = 1; k < n; k++)
		if ((s[k] & 0xc0) != 0x80)
			return 0;
	/* overlong forms, UTF-16 surrogates, beyond U+10FFFF */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
		return 0;
	return n;
}

/* cairo rejects invalid UTF-8 (and then draws nothing more): replace bad bytes with '?'. */
static char *utf8_clean(const char *s)
{
	size_t len = strlen(s), i = 0, o = 0;
	char *out = malloc(len + 1);

	if (!out)
		return NULL;
	while (i < len) {
		size_t n = utf8_seq((const unsigned char *)s + i, len - i);

		if (!n) {
			out[o++] = '?';
			i++;
			continue;
		}
		memcpy(out + o, s + i, n);
		o += n;
		i += n;
	}
	out[o] = '\0';
	return out;
}

/* "1", "20", "5k", "10M" or "1 us", "200 ms" for @m times a power of ten. */
static void decade_label(char *buf, size_t len, int exp, int m, bool durations)
{
	static const char *const count_units[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const time_units[] = { "ns", "us", "ms", "s" };
	int unit = exp / 3, mult = m, i;

	for (i = 0; i < exp % 3; i++)
		mult *= 10;
	if (durations) {
		if (unit > 3) {
			mult *= (int)pow(10, 3 * (unit - 3));
			unit = 3;
		}
		snprintf(buf, len, "%d %s", mult, time_units[unit]);
	} else {
		snprintf(buf, len, "%d%s", mult, count_units[unit < 7 ? unit : 6]);
	}
}

static void value_label(char *buf, size_t len, uint64_t v, bool durations)
{
	if (durations)
		kmag_format_duration(buf, len, v);
	else
		kmag_fmt_count(buf, len, v);
}

static double text_width(cairo_t *cr, const char *s)
{
	cairo_text_extents_t ext;

	cairo_text_extents(cr, s, &ext);
	return ext.x_advance;
}

/* Start of the UTF-8 character containing byte @i of @s. */
static size_t char_start(const char *s, size_t i)
{
	while (i && ((unsigned char)s[i] & 0xc0) == 0x80)
		i--;
	return i;
}

/* No glyph of the label font is narrower: a label area of W px holds at most W / this bytes. */
#define MIN_GLYPH_PX 1.0

/*
 * Writes @orig (@len bytes) into @s with its middle cut to keep about @keep
 * bytes around an ellipsis. False when that would not be shorter: the
 * ellipsis takes 3 bytes, so it must replace at least 3, or @s would overflow.
 */
static bool cut_middle(char *s, const char *orig, size_t len, size_t keep)
{
	size_t head = char_start(orig, (keep + 1) / 2);
	size_t tail = char_start(orig, len - keep / 2);

	if (tail < head + 3)
		return false;
	memcpy(s, orig, head);
	memcpy(s + head, "\xe2\x80\xa6", 3);	/* U+2026 ... */
	memmove(s + head + 3, orig + tail, len - tail + 1);
	return true;
}

/*
 * Shortens @s in place to fit @max by cutting its middle ("tcp_v4_...rcv_1"):
 * kernel names that share a long prefix differ at the end. The longest cut
 * that fits is found by bisection over at most @max / MIN_GLYPH_PX bytes, so
 * a name of any length costs a bounded number of measurements.
 */
static void fit_text(cairo_t *cr, char *s, double max)
{
	size_t len = strlen(s), lo = 2, hi, best = 0;
	double cap = max / MIN_GLYPH_PX;
	char *orig;

	if ((double)len <= cap && text_width(cr, s) <= max)
		return;
	if (!(orig = strdup(s)))
		return;
	hi = (double)len < cap ? len : (size_t)cap;
	while (lo <= hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cut_middle(s, orig, len, mid) && text_width(cr, s) <= max) {
			best = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	if (!cut_middle(s, orig, len, best ? best : 2))
		memcpy(s, orig, len + 1);	/* too short to cut */
	free(orig);
}

struct axis {
	double lo, hi;		/* log10 range */
	double x0, w;		/* plot area */
};

static double axis_x(const struct axis *a, uint64_t v)
{
	double l;

	if (!v)
		return a->x0;
	l = (log10((double)v) - a->lo) / (a->hi - a->lo);
	return a->x0 + (l < 0 ? 0 : l > 1 ? 1 : l) * a->w;
}

/* The title and subtitle (names[nr], names[nr + 1]) on a white page. */
static void draw_titles(cairo_t *cr, const struct kmag_chart *c, char **names)
{
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
	cairo_set_font_size(cr, 18);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	cairo_move_to(cr, 20, 32);
	cairo_show_text(cr, names[c->nr]);	/* the title */
	cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	if (names[c->nr + 1]) {
		cairo_set_font_size(cr, 12);
		cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
		cairo_move_to(cr, 20, 54);
		cairo_show_text(cr, names[c->nr + 1]);
	}
}

/*
 * The value axis: from the decade below the smallest value (so the shortest
 * bar keeps a visible length) to just past the largest one, right of the
 * widest name (names cut to fit first).
 */
static void fit_axis(cairo_t *cr, const struct kmag_chart *c, char **names, int width,
		     struct axis *ax)
{
	uint64_t vmax = 0, vmin = UINT64_MAX;
	double label_w = 0;
	size_t i;

	cairo_set_font_size(cr, 12);
	for (i = 0; i < c->nr; i++) {
		if (c->values[i] > vmax)
			vmax = c->values[i];
		if (c->values[i] && c->values[i] < vmin)
			vmin = c->values[i];
		fit_text(cr, names[i], width * 0.45);
		if (text_width(cr, names[i]) > label_w)
			label_w = text_width(cr, names[i]);
	}
	if (vmin == UINT64_MAX)
		vmin = vmax = 1;
	ax->lo = floor(log10((double)vmin));
	if (log10((double)vmin) - ax->lo < 0.15)
		ax->lo -= 0.5;
	ax->hi = log10((double)vmax) + 0.06;
	if (ax->hi < ax->lo + 1)
		ax->hi = ax->lo + 1;
	ax->x0 = 20 + label_w + 12;
	ax->w = width - RIGHT - ax->x0;
}

/* The grid: decades solid, 2..9 dotted, with their labels and the axis's name. */
static void draw_grid(cairo_t *cr, const struct kmag_chart *c, const struct axis *ax, int height)
{
	char buf[64];
	int e, m;

	cairo_set_line_width(cr, 1);
	for (e = (int)floor(ax->lo); e <= (int)ax->hi; e++) {
		for (m = 1; m < 10; m++) {
			double l = e + log10(m), x;

			if (l < ax->lo - 1e-9 || l > ax->hi + 1e-9)
				continue;
			x = floor(ax->x0 + (l - ax->lo) / (ax->hi - ax->lo) * ax->w) + 0.5;
			if (m == 1)
				cairo_set_source_rgb(cr, 0.78, 0.78, 0.78);
			else
				cairo_set_source_rgb(cr, 0.92, 0.92, 0.92);
			cairo_move_to(cr, x, TOP - 6);
			cairo_line_to(cr, x, height - BOTTOM + 4);
			cairo_stroke(cr);
			/* label decades, and 2 and 5 too when the axis spans two decades or less */
			if (e >= 0 && (m == 1 || ((m == 2 || m == 5) && ax->hi - ax->lo <= 2))) {
				decade_label(buf, sizeof(buf), e, m, c->durations);
				cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
				cairo_move_to(cr, x - text_width(cr, buf) / 2,
					      height - BOTTOM + 20);
				cairo_show_text(cr, buf);
			}
		}
	}
	snprintf(buf, sizeof(buf), "%s (log scale)", c->axis_label ? c->axis_label : "value");
	cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
	cairo_move_to(cr, ax->x0 + ax->w / 2 - text_width(cr, buf) / 2, height - BOTTOM + 42);
	cairo_show_text(cr, buf);
}

static void draw(cairo_t *cr, const struct kmag_chart *c, char **names, int width, int height)
{
	struct axis ax;
	char buf[64];
	double y;
	size_t i;

	draw_titles(cr, c, names);
	fit_axis(cr, c, names, width, &ax);
	draw_grid(cr, c, &ax, height);
	for (i = 0, y = TOP; i < c->nr; i++, y += ROW) {
		double x1 = axis_x(&ax, c->values[i]);
		uint8_t rgb[3] = { 0x43, 0x65, 0xa0 };

		if (c->heat)
			kmag_heat_rgb(c->heat[i], rgb);
		cairo_set_source_rgb(cr, rgb[0] / 255.0, rgb[1] / 255.0, rgb[2] / 255.0);
		cairo_rectangle(cr, ax.x0, y + (ROW - BAR) / 2.0, x1 - ax.x0, BAR);
		cairo_fill_preserve(cr);
		cairo_set_source_rgba(cr, 0, 0, 0, 0.35);
		cairo_set_line_width(cr, 0.6);
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		cairo_move_to(cr, ax.x0 - 8 - text_width(cr, names[i]), y + ROW / 2.0 + 4);
		cairo_show_text(cr, names[i]);
		value_label(buf, sizeof(buf), c->values[i], c->durations);
		cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
		cairo_move_to(cr, x1 + 6, y + ROW / 2.0 + 4);
		cairo_show_text(cr, buf);
	}
	/* the value axis */
	cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, ax.x0 - 0.5, TOP - 6);
	cairo_line_to(cr, ax.x0 - 0.5, height - BOTTOM + 4);
	cairo_stroke(cr);
}

static const char *cairo_msg(cairo_status_t st)
{
	return cairo_status_to_string(st);
}

/* cairo writes through the output file's stream (temporary file, then rename) */
static cairo_status_t to_stream(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS :
						      CAIRO_STATUS_WRITE_ERROR;
}

int kmag_render_chart(const struct kmag_chart *c, const char *path, const char *format,
		      struct kmag_err *err)
{
	struct kmag_outfile *file = NULL;
	FILE *out;
	cairo_surface_t *surf = NULL;
	cairo_status_t st;
	char **names = NULL;
	int width, height, ret = 0;
	bool png = !strcmp(format, "png");
	size_t i;
	cairo_t *cr;

	if (!c->nr)
		return kmag_err_set(err, EINVAL, "no function to chart");
	if (!png && strcmp(format, "pdf") && strcmp(format, "svg"))
		return kmag_err_set(err, EINVAL, "cannot write a chart as \"%s\" (choose png, pdf or svg)",
				    format);
	chart_size(c->nr, &width, &height);
	/* labels, then the title and subtitle, cleaned for cairo */
	names = calloc(c->nr + 2, sizeof(*names));
	if (!names)
		return kmag_err_set(err, ENOMEM, "out of memory");
	for (i = 0; i < c->nr + 2; i++) {
		const char *s = i < c->nr ? c->names[i] : i == c->nr ? c->title : c->subtitle;

		if (i == c->nr + 1 && !s)
			continue;
		names[i] = utf8_clean(s ? s : "");
		if (!names[i]) {
			ret = kmag_err_set(err, ENOMEM, "out of memory");
			goto out;
		}
	}
	if (!(out = render_out_open(path, &file, &ret, err)))
		goto out;
	if (png)
		surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
	else if (!strcmp(format, "pdf"))
		surf = cairo_pdf_surface_create_for_stream(to_stream, out, width, height);
	else
		surf = cairo_svg_surface_create_for_stream(to_stream, out, width, height);
	st = cairo_surface_status(surf);
	if (st) {
		ret = kmag_err_set(err, st == CAIRO_STATUS_NO_MEMORY ? ENOMEM : EIO,
				   "cannot create %s: %s", path, cairo_msg(st));
		goto out;
	}
	cr = cairo_create(surf);
	draw(cr, c, names, width, height);
	st = cairo_status(cr);
	cairo_destroy(cr);
	if (st) {
		ret = kmag_err_set(err, EIO, "cannot draw the chart: %s", cairo_msg(st));
		goto out;
	}
	if (png) {
		st = cairo_surface_write_to_png_stream(surf, to_stream, out);
	} else {
		cairo_surface_finish(surf);
		st = cairo_surface_status(surf);
	}
	if (st == CAIRO_STATUS_WRITE_ERROR && kmag_outfile_error(file))
		ret = kmag_outfile_close(file, err);	/* with the file's own cause */
	else if (st)
		ret = kmag_err_set(err, EIO, "cannot write %s: %s", path, cairo_msg(st));
	if (!ret) {
		ret = kmag_outfile_commit(file, err);
		file = NULL;
	}
out:
	/*
	 * The surface first: destroying an unfinished PDF/SVG surface (a failed
	 * draw) finishes it, which still writes through the file's stream.
	 */
	if (surf)
		cairo_surface_destroy(surf);
	kmag_outfile_abort(file);	/* a failed chart leaves the path as it was */
	for (i = 0; names && i < c->nr + 2; i++)
		free(names[i]);
	free(names);
	return ret;
}

#else /* !KMAG_HAVE_CAIRO: say which package the build lacks */

int kmag_render_chart(const struct kmag_chart *c, const char *path, const char *format,
		      struct kmag_err *err)
{
	return kmag_need_feature(KMAG_FEATURE_CAIRO, "drawing the chart", err);
}

#endif /* KMAG_HAVE_CAIRO */
