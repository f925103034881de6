// SPDX-License-Identifier: MIT
/*
 * argstats.c - `kmag report --arg FUNC:ARG`: per argument its count, min,
 * max, mean, the most frequent values and a histogram by power of two (as
 * bpftrace's hist()).
 */
#include <inttypes.h>
#include <string.h>

#include "kmag/render/argstats.h"
#include "render-util.h"

#define BAR_WIDTH 40

static void fmt_value(char *buf, size_t len, const struct kmag_argstat *a, uint64_t v)
{
	render_fmt_number(buf, len, v, a->is_signed);
}

/* "[1024, 2048)" for bucket 11 (bit length), "0" for bucket 0, negatives mirrored. */
static void bucket_label(char *buf, size_t len, unsigned b, bool neg)
{
	uint64_t lo = b ? (uint64_t)1 << (b - 1) : 0;

	if (!b)
		snprintf(buf, len, "0");
	else if (neg)
		snprintf(buf, len, "(-%" PRIu64 ", -%" PRIu64 "]", b == 64 ? UINT64_MAX : lo << 1, lo);
	else if (b == 64)
		snprintf(buf, len, "[%" PRIu64 ", ...]", lo);
	else
		snprintf(buf, len, "[%" PRIu64 ", %" PRIu64 ")", lo, lo << 1);
}

static void hist_line(FILE *out, unsigned b, bool neg, uint64_t n, uint64_t most)
{
	char c[32], label[64];

	bucket_label(label, sizeof(label), b, neg);
	fprintf(out, "    %-28s %10s |%-*.*s|\n", label, kmag_fmt_count(c, sizeof(c), n), BAR_WIDTH,
		(int)(1 + (n * (BAR_WIDTH - 1)) / most), "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@");
}

static void text_hist(FILE *out, const struct kmag_argstat *a)
{
	render_log2hist_text(out, "  histogram:\n", a->hist, a->neg_hist, KMAG_ARGSTAT_HIST, hist_line);
}

int kmag_argstats_text(FILE *out, const struct kmag_argstats *s)
{
	char n[32], v1[40], v2[40];

	for (size_t i = 0; i < kmag_argstats_count(s); i++) {
		const struct kmag_argstat *a = kmag_argstats_get(s, i);

		fprintf(out, "%s%s:%s: %s call%s", i ? "\n" : "", a->func, a->arg,
			kmag_fmt_count(n, sizeof(n), a->calls), a->calls == 1 ? "" : "s");
		if (!a->calls) {
			fputs(" (the trace has no call of it)\n", out);
			continue;
		}
		if (a->reg < 0) {
			fprintf(out, ", but no argument named %s: the trace names none for it (a trace.dat: give --btf with the kernel's BTF; funcgraph-args needs Linux 6.15+)\n",
				a->arg);
			continue;
		}
		fprintf(out, ", %s with the value (register %d)", kmag_fmt_count(n, sizeof(n), a->count),
			a->reg);
		if (a->count) {
			fmt_value(v1, sizeof(v1), a, a->min);
			fmt_value(v2, sizeof(v2), a, a->max);
			fprintf(out, ", min %s, max %s, mean %.6g", v1, v2, a->sum / (double)a->count);
		}
		fprintf(out, ", %" PRIu64 "%s distinct\n", a->distinct, a->distinct_capped ? "+" : "");
		if (a->nr_top)
			fputs("  top values:", out);
		for (size_t k = 0; k < a->nr_top; k++) {
			fmt_value(v1, sizeof(v1), a, a->top[k].value);
			fprintf(out, " %s x%s (%.1f%%)%s", v1, kmag_fmt_count(n, sizeof(n), a->top[k].count),
				100.0 * (double)a->top[k].count / (double)a->count,
				k + 1 < a->nr_top ? "," : "\n");
		}
		text_hist(out, a);
	}
	return render_status(out);
}

static void json_value(FILE *out, const struct kmag_argstat *a, uint64_t v)
{
	render_put_number(out, v, a->is_signed);
}

static void json_hist(FILE *out, const struct kmag_argstat *a)
{
	bool first = true;
	int b;

	fputs(",\"histogram\":[", out);	/* {"lo":1024,"hi":2047,"count":n}, negatives first */
	for (b = KMAG_ARGSTAT_HIST - 1; b > 0; b--) {
		uint64_t lo = (uint64_t)1 << (b - 1), hi = b == 64 ? UINT64_MAX : (lo << 1) - 1;

		if (!a->neg_hist[b])
			continue;
		fprintf(out, "%s{\"lo\":-%" PRIu64 ",\"hi\":-%" PRIu64 ",\"count\":%" PRIu64 "}",
			first ? "" : ",", hi, lo, a->neg_hist[b]);
		first = false;
	}
	for (b = 0; b < KMAG_ARGSTAT_HIST; b++) {
		uint64_t lo = b ? (uint64_t)1 << (b - 1) : 0;
		uint64_t hi = !b ? 0 : b == 64 ? UINT64_MAX : (lo << 1) - 1;

		if (!a->hist[b])
			continue;
		fprintf(out, "%s{\"lo\":%" PRIu64 ",\"hi\":%" PRIu64 ",\"count\":%" PRIu64 "}",
			first ? "" : ",", lo, hi, a->hist[b]);
		first = false;
	}
	fputs("]", out);
}

int kmag_argstats_json(FILE *out, const struct kmag_argstats *s)
{
	fputs("{\"args\":[", out);
	for (size_t i = 0; i < kmag_argstats_count(s); i++) {
		const struct kmag_argstat *a = kmag_argstats_get(s, i);

		fputs(i ? ",\n{\"function\":" : "\n{\"function\":", out);
		kmag_fput_json_string(out, a->func);
		fputs(",\"argument\":", out);
		kmag_fput_json_string(out, a->arg);
		fprintf(out, ",\"calls\":%" PRIu64 ",\"named\":%s,\"count\":%" PRIu64
			",\"signed\":%s,\"distinct\":%" PRIu64 ",\"distinct_capped\":%s",
			a->calls, a->reg >= 0 ? "true" : "false", a->count, a->is_signed ? "true" : "false",
			a->distinct, a->distinct_capped ? "true" : "false");
		if (a->count)
			render_json_min_max_mean(out, a->min, a->max, a->sum, a->count, a->is_signed);
		fputs(",\"top\":[", out);
		for (size_t k = 0; k < a->nr_top; k++) {
			fputs(k ? ",{\"value\":" : "{\"value\":", out);
			json_value(out, a, a->top[k].value);
			fprintf(out, ",\"count\":%" PRIu64 "}", a->top[k].count);
		}
		fputs("]", out);
		json_hist(out, a);
		fputs("}", out);
	}
	fputs("\n]}\n", out);
	return render_status(out);
}
