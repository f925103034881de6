// SPDX-License-Identifier: MIT
/*
 * probes.c - `kmag report --probes`: per probe hit counts, per argument a
 * summary (min, max, mean), the most frequent values and a histogram.
 */
#include <inttypes.h>
#include <string.h>

#include "kmag/probes.h"
#include "kmag/render/probes.h"
#include "kmag/report.h"
#include "render-util.h"

#define BAR_WIDTH 40

/* Hex types (x8..x64) print as hex, signed ones as signed, the rest unsigned. */
static void fmt_value(char *buf, size_t len, const struct kmag_probe_arg *a, uint64_t v)
{
	if (a->type && a->type[0] == 'x')
		snprintf(buf, len, "0x%" PRIx64, v);
	else
		render_fmt_number(buf, len, v, a->is_signed);
}

static const char *kind_name(const struct kmag_probe *p)
{
	if (p->kernel)
		return p->kind == KMAG_PROBE_RETURN ? "kretprobe" : "kprobe";
	return p->kind == KMAG_PROBE_RETURN ? "uretprobe" : "uprobe";
}

/* "1024..2047" for bucket 11; negative buckets mirrored. */
static void bucket_label(char *buf, size_t len, unsigned b, bool neg)
{
	uint64_t lo = b ? (uint64_t)1 << (b - 1) : 0;
	uint64_t hi = b ? (b == 64 ? UINT64_MAX : ((uint64_t)1 << b) - 1) : 0;

	if (!b)
		snprintf(buf, len, "0");
	else if (neg)
		snprintf(buf, len, "-%" PRIu64 "..-%" PRIu64, hi, lo);
	else if (lo == hi)
		snprintf(buf, len, "%" PRIu64, lo);
	else
		snprintf(buf, len, "%" PRIu64 "..%" PRIu64, lo, hi);
}

static void hist_line(FILE *out, unsigned b, bool neg, uint64_t n, uint64_t most)
{
	char label[64], c[32];

	bucket_label(label, sizeof(label), b, neg);
	fprintf(out, "      %22s %12s |%.*s\n", label, kmag_fmt_count(c, sizeof(c), n),
		(int)(1 + (n * (BAR_WIDTH - 1)) / most), "########################################");
}

static void text_hist(FILE *out, const struct kmag_probe_arg *a)
{
	render_log2hist_text(out, "    histogram:\n", a->hist, a->neg_hist, KMAG_PROBE_HIST, hist_line);
}

int kmag_probes_text(FILE *out, const struct kmag_probes *p, const struct kmag_symtab *st)
{
	size_t i, a, k;
	char n[32], v1[40], v2[40];

	if (!kmag_probes_count(p)) {
		fputs("no probe events in this trace (record some with kmag record --kprobe, --kretprobe or --uprobe)\n",
		      out);
		return render_status(out);
	}
	for (i = 0; i < kmag_probes_count(p); i++) {
		const struct kmag_probe *pr = kmag_probes_get(p, i);
		const char *fn = pr->func != KMAG_FUNC_NONE ? kmag_symtab_name(st, pr->func) : NULL;

		fprintf(out, "%s", i ? "\n" : "");
		render_fput_text(out, pr->system);
		fputc(':', out);
		render_fput_text(out, pr->name);
		fprintf(out, "  (%s%s", kind_name(pr), fn ? " on " : "");
		render_fput_text(out, fn);
		fprintf(out, "): %s hit%s\n", kmag_fmt_count(n, sizeof(n), pr->hits),
			pr->hits == 1 ? "" : "s");
		if (!pr->nr_args)
			fputs("  (no arguments fetched)\n", out);
		for (a = 0; a < pr->nr_args; a++) {
			const struct kmag_probe_arg *ar = &pr->args[a];

			fputs("  ", out);
			render_fput_text(out, ar->name);
			fputs(" (", out);
			render_fput_text(out, ar->type);
			fprintf(out, "): %s value%s", kmag_fmt_count(n, sizeof(n), ar->count),
				ar->count == 1 ? "" : "s");
			if (!ar->is_string && ar->count) {
				fmt_value(v1, sizeof(v1), ar, ar->min);
				fmt_value(v2, sizeof(v2), ar, ar->max);
				fprintf(out, ", min %s, max %s, mean %.6g", v1, v2,
					ar->sum / (double)ar->count);
			}
			fprintf(out, ", %" PRIu64 "%s distinct\n", ar->distinct,
				ar->distinct_capped ? "+" : "");
			if (ar->nr_top)
				fputs("    top values:", out);
			for (k = 0; k < ar->nr_top; k++) {
				const struct kmag_probe_value *tv = &ar->top[k];

				if (ar->is_string) {
					/* a string the traced code handled: anything at all */
					fputs(" \"", out);
					render_fput_text(out, tv->str);
					fputc('"', out);
				} else {
					fmt_value(v1, sizeof(v1), ar, tv->value);
					fprintf(out, " %s", v1);
				}
				fprintf(out, " x%s (%.1f%%)%s", kmag_fmt_count(n, sizeof(n), tv->count),
					100.0 * (double)tv->count / (double)ar->count,
					k + 1 < ar->nr_top ? "," : "\n");
			}
			if (!ar->is_string)
				text_hist(out, ar);
		}
	}
	return render_status(out);
}

static void json_value(FILE *out, const struct kmag_probe_arg *a, uint64_t v)
{
	render_put_number(out, v, a->is_signed);
}

int kmag_probes_json(FILE *out, const struct kmag_probes *p, const struct kmag_symtab *st)
{
	size_t i, a, k;
	int b;

	fputs("{\"probes\":[", out);
	for (i = 0; i < kmag_probes_count(p); i++) {
		const struct kmag_probe *pr = kmag_probes_get(p, i);

		fputs(i ? ",\n{\"system\":" : "\n{\"system\":", out);
		kmag_fput_json_string(out, pr->system);
		fputs(",\"name\":", out);
		kmag_fput_json_string(out, pr->name);
		fprintf(out, ",\"kind\":\"%s\",\"function\":", kind_name(pr));
		if (pr->func != KMAG_FUNC_NONE)
			kmag_fput_json_string(out, kmag_symtab_name(st, pr->func));
		else
			fputs("null", out);
		fprintf(out, ",\"hits\":%" PRIu64 ",\"args\":[", pr->hits);
		for (a = 0; a < pr->nr_args; a++) {
			const struct kmag_probe_arg *ar = &pr->args[a];
			bool first = true;

			fputs(a ? ",{\"name\":" : "{\"name\":", out);
			kmag_fput_json_string(out, ar->name);
			fputs(",\"type\":", out);
			kmag_fput_json_string(out, ar->type);
			fprintf(out, ",\"count\":%" PRIu64 ",\"distinct\":%" PRIu64
				",\"distinct_capped\":%s",
				ar->count, ar->distinct, ar->distinct_capped ? "true" : "false");
			if (!ar->is_string && ar->count)
				render_json_min_max_mean(out, ar->min, ar->max, ar->sum, ar->count,
							 ar->is_signed);
			fputs(",\"top\":[", out);
			for (k = 0; k < ar->nr_top; k++) {
				fputs(k ? ",{\"value\":" : "{\"value\":", out);
				if (ar->is_string)
					kmag_fput_json_string(out, ar->top[k].str);
				else
					json_value(out, ar, ar->top[k].value);
				fprintf(out, ",\"count\":%" PRIu64 "}", ar->top[k].count);
			}
			fputs("]", out);
			if (!ar->is_string) {
				/* log2 buckets: {"lo":1024,"hi":2047,"count":n}, negatives first */
				fputs(",\"histogram\":[", out);
				for (b = KMAG_PROBE_HIST - 1; b > 0; b--) {
					if (!ar->neg_hist[b])
						continue;
					fprintf(out, "%s{\"lo\":-%" PRIu64 ",\"hi\":-%" PRIu64
						",\"count\":%" PRIu64 "}",
						first ? "" : ",",
						b == 64 ? UINT64_MAX : ((uint64_t)1 << b) - 1,
						(uint64_t)1 << (b - 1), ar->neg_hist[b]);
					first = false;
				}
				for (b = 0; b < KMAG_PROBE_HIST; b++) {
					if (!ar->hist[b])
						continue;
					fprintf(out, "%s{\"lo\":%" PRIu64 ",\"hi\":%" PRIu64
						",\"count\":%" PRIu64 "}",
						first ? "" : ",", b ? (uint64_t)1 << (b - 1) : 0,
						!b ? 0 : b == 64 ? UINT64_MAX : ((uint64_t)1 << b) - 1,
						ar->hist[b]);
					first = false;
				}
				fputs("]", out);
			}
			fputs("}", out);
		}
		fputs("]}", out);
	}
	fputs("\n]}\n", out);
	return render_status(out);
}
