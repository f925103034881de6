// SPDX-License-Identifier: MIT
/*
 * diff.c - text, JSON and DOT renderings of a call-graph diff.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "kmag/cgdiff.h"
#include "kmag/render/diff.h"
#include "kmag/report.h"
#include "render-util.h"

#if KMAG_HAVE_GRAPHVIZ
#include <graphviz/cgraph.h>
#include "render-gv.h"
#endif

/* ---- what is shown: everything, or what the source path filter keeps ---- */

static bool func_shown(const struct kmag_diff_report *r, const struct kmag_diff_func *f)
{
	if (f->node_b >= 0)
		return !r->visible || r->visible(r->visible_ctx, f->func_b);
	return !r->visible_a || r->visible_a(r->visible_a_ctx, f->func_a);
}

static bool edge_shown(const struct kmag_diff_report *r, const struct kmag_diff_edge *e)
{
	const struct kmag_diff_func *f = kmag_cgdiff_funcs(r->diff);

	return func_shown(r, &f[e->caller]) && func_shown(r, &f[e->callee]);
}

/* Shown functions (or edges) with status @s. */
static size_t count_shown(const struct kmag_diff_report *r, bool edges, enum kmag_diff_status s)
{
	const struct kmag_cgdiff *d = r->diff;
	size_t i, n = 0;

	if (edges) {
		const struct kmag_diff_edge *e = kmag_cgdiff_edges(d);

		for (i = 0; i < kmag_cgdiff_nr_edges(d); i++)
			n += e[i].status == s && edge_shown(r, &e[i]);
	} else {
		const struct kmag_diff_func *f = kmag_cgdiff_funcs(d);

		for (i = 0; i < kmag_cgdiff_nr_funcs(d); i++)
			n += f[i].status == s && func_shown(r, &f[i]);
	}
	return n;
}

/* ---- text ---- */

static void signed_count(char *buf, size_t len, uint64_t a, uint64_t b)
{
	if (b >= a)
		snprintf(buf, len, "+%" PRIu64, b - a);
	else
		snprintf(buf, len, "-%" PRIu64, a - b);
}

static void signed_time(char *buf, size_t len, uint64_t a, uint64_t b)
{
	char t[32];

	kmag_format_duration(t, sizeof(t), b >= a ? b - a : a - b);
	snprintf(buf, len, "%c%s", b >= a ? '+' : '-', t);
}

static void time_or_dash(char *buf, size_t len, const struct kmag_cg_stats *st, bool has_time)
{
	if (has_time && st->timed)
		kmag_format_duration(buf, len, st->total_ns);
	else
		snprintf(buf, len, "-");
}

static void input_line(FILE *out, const char *tag, const char *path,
		       const struct kmag_trace_info *i)
{
	char ev[32], dur[32], rel[128];

	fprintf(out, "# %s: %s (%s, %s events", tag, path ? path : "-", kmag_tracer_name(i->tracer),
		kmag_fmt_count(ev, sizeof(ev), i->events));
	if (i->first_ts != KMAG_TS_NONE && i->last_ts != KMAG_TS_NONE && i->last_ts >= i->first_ts)
		fprintf(out, " in %s", kmag_format_duration(dur, sizeof(dur), i->last_ts - i->first_ts));
	if (i->lost || i->lost_unknown)
		fprintf(out, ", %s%s events lost", i->lost_unknown && !i->lost ? "some" : "",
			i->lost ? kmag_fmt_count(ev, sizeof(ev), i->lost) : "");
	fputs("; kernel ", out);
	render_fput_text(out, kmag_uname_release(i->uname, rel, sizeof(rel)));
	fputs(")\n", out);
}

/* Whether A and B come from different kernel releases (both known). */
static bool kernels_differ(const struct kmag_diff_report *r)
{
	return kmag_uname_differ(r->info_a->uname, r->info_b->uname);
}

/* A function's name; a renamed one's as "A's name (B: B's name)". */
static void put_func(FILE *out, const struct kmag_diff_func *f)
{
	render_fput_text(out, f->name);
	if (f->rename) {
		fputs(" (B: ", out);
		render_fput_text(out, f->name_b);
		fputc(')', out);
	}
}

/* Shown functions paired by a rename rule. */
static size_t count_renamed(const struct kmag_diff_report *r)
{
	const struct kmag_diff_func *f = kmag_cgdiff_funcs(r->diff);
	size_t i, n = 0;

	for (i = 0; i < kmag_cgdiff_nr_funcs(r->diff); i++)
		n += f[i].rename && func_shown(r, &f[i]);
	return n;
}

static const char *colour_of(enum kmag_diff_status s)
{
	switch (s) {
	case KMAG_DIFF_GREW:
	case KMAG_DIFF_ADDED:
		return "\033[31m";	/* red: growth */
	case KMAG_DIFF_SHRANK:
	case KMAG_DIFF_REMOVED:
		return "\033[34m";	/* blue: shrinkage */
	default:
		return "";
	}
}

/*
 * Whether a section has shown its --limit of rows (@shown): then it says
 * so once, below them, and the caller stops.
 */
static bool cut_here(FILE *out, const struct kmag_diff_report *r, size_t shown)
{
	if (!r->limit || shown < r->limit)
		return false;
	fprintf(out, "%11s ... and more (use --limit 0 to see all)\n", "");
	return true;
}

static void func_section(FILE *out, const struct kmag_diff_report *r, const uint32_t *order,
			 enum kmag_diff_status want, const char *title, bool colour)
{
	const struct kmag_cgdiff *d = r->diff;
	const struct kmag_diff_func *f = kmag_cgdiff_funcs(d);
	size_t n = kmag_cgdiff_nr_funcs(d), i, shown = 0, total = count_shown(r, false, want);
	bool has_time = kmag_cgdiff_has_time(d);
	bool changed = want == KMAG_DIFF_GREW;

	fprintf(out, "\n%s (%zu)%s\n", title,
		changed ? total + count_shown(r, false, KMAG_DIFF_SHRANK) : total,
		changed ? ", largest change first:" : ":");
	if (changed)
		fprintf(out, "%11s %11s %9s %11s %11s %12s  %s\n", "Calls A", "Calls B", "Delta",
			"Total A", "Total B", "Delta", "Function");
	else
		fprintf(out, "%11s %11s  %s\n", "Calls", "Total", "Function");
	for (i = 0; i < n; i++) {
		const struct kmag_diff_func *x = &f[order[i]];
		char a[40], b[40], c[48], t1[40], t2[40];

		if (x->status != want && !(changed && x->status == KMAG_DIFF_SHRANK))
			continue;
		if (!func_shown(r, x))
			continue;
		if (cut_here(out, r, shown))
			break;
		shown++;
		if (colour)
			fputs(colour_of(x->status), out);
		if (changed) {
			signed_count(a, sizeof(a), x->a.calls, x->b.calls);
			time_or_dash(t1, sizeof(t1), &x->a, has_time);
			time_or_dash(t2, sizeof(t2), &x->b, has_time);
			if (has_time)
				signed_time(c, sizeof(c), x->a.total_ns, x->b.total_ns);
			else
				snprintf(c, sizeof(c), "-");
			fprintf(out, "%11" PRIu64 " %11" PRIu64 " %9s %11s %11s %12s  ", x->a.calls,
				x->b.calls, a, t1, t2, c);
		} else {
			const struct kmag_cg_stats *st = want == KMAG_DIFF_ADDED ? &x->b : &x->a;

			time_or_dash(b, sizeof(b), st, has_time);
			fprintf(out, "%11" PRIu64 " %11s  ", st->calls, b);
		}
		put_func(out, x);
		fputs(colour ? "\033[0m\n" : "\n", out);
	}
	if (!shown)
		fprintf(out, "%11s (none)\n", "");
}

/* Which way a latency moved: as its larger move, of p50 or p99. */
static enum kmag_diff_status latency_way(const struct kmag_diff_latency *l)
{
	uint64_t m50 = l->p50_b > l->p50_a ? l->p50_b - l->p50_a : l->p50_a - l->p50_b;
	uint64_t m99 = l->p99_b > l->p99_a ? l->p99_b - l->p99_a : l->p99_a - l->p99_b;
	bool up = m99 >= m50 ? l->p99_b > l->p99_a : l->p50_b > l->p50_a;

	return up ? KMAG_DIFF_GREW : KMAG_DIFF_SHRANK;
}

/*
 * The functions whose p50 or p99 moved past the time thresholds, largest
 * move first (both traces timed). Returns 0 or -ENOMEM.
 */
static int latency_section(FILE *out, const struct kmag_diff_report *r, bool colour)
{
	const struct kmag_diff_func *f = kmag_cgdiff_funcs(r->diff);
	size_t n, i, shown = 0, total = 0;
	uint32_t *order = kmag_cgdiff_latency_changes(r->diff, &n);
	struct kmag_diff_latency l;
	char c[6][48];

	if (!order)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		total += func_shown(r, &f[order[i]]);
	fprintf(out, "\nLatency changed, nearest-rank p50 or p99 (%zu), largest change first:\n", total);
	fprintf(out, "%11s %11s %12s %11s %11s %12s  %s\n", "p50 A", "p50 B", "Delta", "p99 A",
		"p99 B", "Delta", "Function");
	for (i = 0; i < n; i++) {
		const struct kmag_diff_func *x = &f[order[i]];

		if (!func_shown(r, x) || !kmag_cgdiff_latency(r->diff, order[i], &l))
			continue;
		if (cut_here(out, r, shown))
			break;
		shown++;
		if (colour)
			fputs(colour_of(latency_way(&l)), out);
		kmag_format_duration(c[0], sizeof(c[0]), l.p50_a);
		kmag_format_duration(c[1], sizeof(c[1]), l.p50_b);
		signed_time(c[2], sizeof(c[2]), l.p50_a, l.p50_b);
		kmag_format_duration(c[3], sizeof(c[3]), l.p99_a);
		kmag_format_duration(c[4], sizeof(c[4]), l.p99_b);
		signed_time(c[5], sizeof(c[5]), l.p99_a, l.p99_b);
		fprintf(out, "%11s %11s %12s %11s %11s %12s  ", c[0], c[1], c[2], c[3], c[4], c[5]);
		put_func(out, x);
		fputs(colour ? "\033[0m\n" : "\n", out);
	}
	if (!shown)
		fprintf(out, "%11s (none)\n", "");
	free(order);
	return 0;
}

/* The functions paired across A and B by a rename rule, largest change first. */
static void renamed_section(FILE *out, const struct kmag_diff_report *r, const uint32_t *order)
{
	const struct kmag_diff_func *f = kmag_cgdiff_funcs(r->diff);
	size_t n = kmag_cgdiff_nr_funcs(r->diff), i, shown = 0;
	bool has_time = kmag_cgdiff_has_time(r->diff);

	fprintf(out, "\nRenamed functions, one function under two names (%zu; rules: kmag-diff(1)):\n",
		count_renamed(r));
	fprintf(out, "%11s %11s %11s %11s  %-7s %s\n", "Calls A", "Calls B", "Total A", "Total B",
		"Rule", "Name in A -> name in B");
	for (i = 0; i < n; i++) {
		const struct kmag_diff_func *x = &f[order[i]];
		char t1[40], t2[40];

		if (!x->rename || !func_shown(r, x))
			continue;
		if (cut_here(out, r, shown))
			break;
		shown++;
		time_or_dash(t1, sizeof(t1), &x->a, has_time);
		time_or_dash(t2, sizeof(t2), &x->b, has_time);
		fprintf(out, "%11" PRIu64 " %11" PRIu64 " %11s %11s  %-7s ", x->a.calls, x->b.calls,
			t1, t2, kmag_diff_rename_name(x->rename));
		render_fput_text(out, x->name);
		fputs(" -> ", out);
		render_fput_text(out, x->name_b);
		fputc('\n', out);
	}
}

static void edge_section(FILE *out, const struct kmag_diff_report *r, const uint32_t *order,
			 bool colour)
{
	const struct kmag_cgdiff *d = r->diff;
	const struct kmag_diff_edge *e = kmag_cgdiff_edges(d);
	const struct kmag_diff_func *f = kmag_cgdiff_funcs(d);
	size_t n = kmag_cgdiff_nr_edges(d), i, shown = 0;
	size_t changes = count_shown(r, true, KMAG_DIFF_GREW) +
			 count_shown(r, true, KMAG_DIFF_SHRANK) +
			 count_shown(r, true, KMAG_DIFF_ADDED) +
			 count_shown(r, true, KMAG_DIFF_REMOVED);

	bool has_time = kmag_cgdiff_has_time(d);

	fprintf(out, "\nChanged call edges (%zu), largest change first:\n", changes);
	fprintf(out, "%11s %11s %9s %12s %-8s  %s\n", "Calls A", "Calls B", "Delta", "Delta time",
		"Status", "Caller -> callee");
	for (i = 0; i < n; i++) {
		const struct kmag_diff_edge *x = &e[order[i]];
		char a[40], t[48];

		if (x->status == KMAG_DIFF_SAME || !edge_shown(r, x))
			continue;
		if (cut_here(out, r, shown))
			break;
		shown++;
		signed_count(a, sizeof(a), x->a.calls, x->b.calls);
		if (has_time)
			signed_time(t, sizeof(t), x->a.total_ns, x->b.total_ns);
		else
			snprintf(t, sizeof(t), "-");
		if (colour)
			fputs(colour_of(x->status), out);
		fprintf(out, "%11" PRIu64 " %11" PRIu64 " %9s %12s %-8s  ", x->a.calls, x->b.calls, a,
			t, kmag_diff_status_name(x->status));
		put_func(out, &f[x->caller]);
		fputs(" -> ", out);
		put_func(out, &f[x->callee]);
		fputs(x->flags & KMAG_EDGE_IRQ ? "  (interrupt)" : "", out);
		fputs(colour ? "\033[0m\n" : "\n", out);
	}
	if (!shown)
		fprintf(out, "%11s (none)\n", "");
}

static void summary_line(FILE *out, const char *what, size_t in_a, size_t in_b,
			 const struct kmag_diff_report *r, bool edges)
{
	size_t renamed = edges ? 0 : count_renamed(r);

	fprintf(out, "# %s %zu in A, %zu in B: %zu added, %zu removed, %zu grew, %zu shrank, %zu unchanged",
		what, in_a, in_b, count_shown(r, edges, KMAG_DIFF_ADDED),
		count_shown(r, edges, KMAG_DIFF_REMOVED), count_shown(r, edges, KMAG_DIFF_GREW),
		count_shown(r, edges, KMAG_DIFF_SHRANK), count_shown(r, edges, KMAG_DIFF_SAME));
	if (renamed)
		fprintf(out, " (%zu of them renamed)", renamed);
	fputc('\n', out);
}

int kmag_diff_text(FILE *out, const struct kmag_diff_report *r)
{
	bool colour = r->colour;
	const struct kmag_cgdiff *d = r->diff;
	uint32_t *fo = kmag_cgdiff_sorted_funcs(d), *eo = kmag_cgdiff_sorted_edges(d);
	size_t fa = 0, fb = 0, ea = 0, eb = 0, i;

	if (!fo || !eo) {
		free(fo);
		free(eo);
		return -ENOMEM;
	}
	for (i = 0; i < kmag_cgdiff_nr_funcs(d); i++) {
		const struct kmag_diff_func *f = &kmag_cgdiff_funcs(d)[i];

		fa += f->node_a >= 0 && func_shown(r, f);
		fb += f->node_b >= 0 && func_shown(r, f);
	}
	for (i = 0; i < kmag_cgdiff_nr_edges(d); i++) {
		const struct kmag_diff_edge *e = &kmag_cgdiff_edges(d)[i];

		ea += e->in_a && edge_shown(r, e);
		eb += e->in_b && edge_shown(r, e);
	}
	fputs("# kmag diff: what changed from A to B (red: more in B, blue: less)\n", out);
	input_line(out, "A", r->input_a, r->info_a);
	input_line(out, "B", r->input_b, r->info_b);
	if (kernels_differ(r))
		fprintf(out, "# kernels differ: functions are matched by name, and %zu renamed or cloned ones paired with their twin (rules: kmag-diff(1))\n",
			kmag_cgdiff_nr_renamed(d));
	if (r->filters && *r->filters)
		fprintf(out, "# filters: %s\n", r->filters);
	if (r->times && *r->times)
		fprintf(out, "# %s\n", r->times);
	if (r->path_filter)
		fprintf(out, "# source path filter: %s (other functions are left out)\n", r->path_filter);
	summary_line(out, "functions:", fa, fb, r, false);
	summary_line(out, "edges:    ", ea, eb, r, true);
	if (!kmag_cgdiff_has_time(d))
		fputs("# (no durations in both traces: changes are in calls only)\n", out);
	func_section(out, r, fo, KMAG_DIFF_ADDED, "Added functions, only in B", colour);
	func_section(out, r, fo, KMAG_DIFF_REMOVED, "Removed functions, only in A", colour);
	if (kmag_cgdiff_nr_renamed(d))
		renamed_section(out, r, fo);
	func_section(out, r, fo, KMAG_DIFF_GREW, "Changed functions", colour);
	if (kmag_cgdiff_has_time(d) && latency_section(out, r, colour)) {
		free(fo);
		free(eo);
		return -ENOMEM;
	}
	edge_section(out, r, eo, colour);
	free(fo);
	free(eo);
	return render_status(out);
}

/* ---- JSON ---- */

/* @p50, @p99: a function's nearest-rank percentiles (NULL: none, or an edge) */
static void json_stats(FILE *out, const struct kmag_cg_stats *st, bool present, bool has_time,
		       const uint64_t *p50, const uint64_t *p99)
{
	if (!present) {
		fputs("null", out);
		return;
	}
	fprintf(out, "{\"calls\": %" PRIu64, st->calls);
	if (has_time && st->timed)
		fprintf(out, ", \"total_ns\": %" PRIu64 ", \"self_ns\": %" PRIu64 ", \"max_ns\": %" PRIu64,
			st->total_ns, st->self_ns, st->max_ns);
	if (p50)
		fprintf(out, ", \"p50_ns\": %" PRIu64 ", \"p99_ns\": %" PRIu64, *p50, *p99);
	fprintf(out, ", \"incomplete\": %" PRIu64 "}", st->incomplete);
}

static void json_deltas(FILE *out, const struct kmag_cg_stats *a, const struct kmag_cg_stats *b,
			bool has_time)
{
	fprintf(out, ", \"delta_calls\": %" PRId64, (int64_t)(b->calls - a->calls));
	if (has_time)
		fprintf(out, ", \"delta_total_ns\": %" PRId64 ", \"delta_self_ns\": %" PRId64,
			(int64_t)(b->total_ns - a->total_ns), (int64_t)(b->self_ns - a->self_ns));
}

static void json_input(FILE *out, const char *path, const struct kmag_trace_info *i)
{
	char rel[128];

	fputs("{\"input\": ", out);
	kmag_fput_json_string(out, path);
	fputs(", \"kernel\": ", out);
	if (i->uname)
		kmag_fput_json_string(out, kmag_uname_release(i->uname, rel, sizeof(rel)));
	else
		fputs("null", out);
	fputs(", \"tracer\": ", out);
	kmag_fput_json_string(out, kmag_tracer_name(i->tracer));
	fprintf(out, ", \"events\": %" PRIu64 ", \"lost_events\": %" PRIu64,
		i->events, i->lost);
	fprintf(out, ", \"lost_unknown\": %s}", i->lost_unknown ? "true" : "false");
}

static void json_counts(FILE *out, const struct kmag_diff_report *r, bool edges)
{
	static const enum kmag_diff_status all[] = {
		KMAG_DIFF_ADDED, KMAG_DIFF_REMOVED, KMAG_DIFF_GREW,
		KMAG_DIFF_SHRANK, KMAG_DIFF_SAME,
	};
	size_t i;

	fputc('{', out);
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		fprintf(out, "%s\"%s\": %zu", i ? ", " : "", kmag_diff_status_name(all[i]),
			count_shown(r, edges, all[i]));
	if (!edges)
		fprintf(out, ", \"renamed\": %zu", count_renamed(r));
	fputc('}', out);
}

int kmag_diff_json(FILE *out, const struct kmag_diff_report *r)
{
	const struct kmag_cgdiff *d = r->diff;
	const struct kmag_diff_func *f = kmag_cgdiff_funcs(d);
	const struct kmag_diff_edge *e = kmag_cgdiff_edges(d);
	uint32_t *fo = kmag_cgdiff_sorted_funcs(d), *eo = kmag_cgdiff_sorted_edges(d);
	bool has_time = kmag_cgdiff_has_time(d), lat;
	struct kmag_diff_latency l = { 0 };
	size_t i, nf = 0, ne = 0;

	if (!fo || !eo) {
		free(fo);
		free(eo);
		return -ENOMEM;
	}
	fputs("{\"a\": ", out);
	json_input(out, r->input_a, r->info_a);
	fputs(", \"b\": ", out);
	json_input(out, r->input_b, r->info_b);
	fputs(", \"filters\": ", out);
	kmag_fput_json_string(out, r->filters ? r->filters : "");
	fputs(", \"times\": ", out);
	kmag_fput_json_string(out, r->times ? r->times : "");
	fputs(", \"path_filter\": ", out);
	if (r->path_filter)
		kmag_fput_json_string(out, r->path_filter);
	else
		fputs("null", out);
	fprintf(out, ", \"kernels_differ\": %s", kernels_differ(r) ? "true" : "false");
	fprintf(out, ", \"has_time\": %s, \"summary\": {\"functions\": ", has_time ? "true" : "false");
	json_counts(out, r, false);
	fputs(", \"edges\": ", out);
	json_counts(out, r, true);
	fputs("}, \"functions\": [", out);
	for (i = 0; i < kmag_cgdiff_nr_funcs(d); i++) {
		const struct kmag_diff_func *x = &f[fo[i]];

		if (!func_shown(r, x))
			continue;
		fputs(nf++ ? ", {\"name\": " : "{\"name\": ", out);
		kmag_fput_json_string(out, x->name);
		if (x->rename) {
			/* one function under two names: B's, and the rule that paired them */
			fputs(", \"name_b\": ", out);
			kmag_fput_json_string(out, x->name_b);
			fprintf(out, ", \"renamed\": \"%s\"", kmag_diff_rename_name(x->rename));
		}
		fprintf(out, ", \"status\": \"%s\", \"a\": ", kmag_diff_status_name(x->status));
		lat = kmag_cgdiff_latency(d, fo[i], &l);
		json_stats(out, &x->a, x->node_a >= 0, has_time, lat ? &l.p50_a : NULL, &l.p99_a);
		fputs(", \"b\": ", out);
		json_stats(out, &x->b, x->node_b >= 0, has_time, lat ? &l.p50_b : NULL, &l.p99_b);
		json_deltas(out, &x->a, &x->b, has_time);
		if (lat)
			fprintf(out, ", \"delta_p50_ns\": %" PRId64 ", \"delta_p99_ns\": %" PRId64
				     ", \"latency_changed\": %s",
				(int64_t)(l.p50_b - l.p50_a), (int64_t)(l.p99_b - l.p99_a),
				l.changed ? "true" : "false");
		fputc('}', out);
	}
	fputs("], \"edges\": [", out);
	for (i = 0; i < kmag_cgdiff_nr_edges(d); i++) {
		const struct kmag_diff_edge *x = &e[eo[i]];

		if (!edge_shown(r, x))
			continue;
		fputs(ne++ ? ", {\"caller\": " : "{\"caller\": ", out);
		kmag_fput_json_string(out, f[x->caller].name);
		fputs(", \"callee\": ", out);
		kmag_fput_json_string(out, f[x->callee].name);
		fprintf(out, ", \"status\": \"%s\", \"interrupt\": %s, \"a\": ",
			kmag_diff_status_name(x->status), x->flags & KMAG_EDGE_IRQ ? "true" : "false");
		json_stats(out, &x->a, x->in_a, has_time, NULL, NULL);
		fputs(", \"b\": ", out);
		json_stats(out, &x->b, x->in_b, has_time, NULL, NULL);
		json_deltas(out, &x->a, &x->b, has_time);
		fputc('}', out);
	}
	fputs("]}\n", out);
	free(fo);
	free(eo);
	return render_status(out);
}

/* ---- DOT ---- */

#if KMAG_HAVE_GRAPHVIZ

/* Fill colour for a status: red/blue, stronger for larger relative changes. */
static void status_colour(char *buf, size_t len, enum kmag_diff_status s, uint64_t a, uint64_t b)
{
	double rel = 0, w;
	uint64_t big = a > b ? a : b;

	if (big)
		rel = (double)(a > b ? a - b : b - a) / (double)big;
	w = 0.25 + 0.75 * rel;	/* share of the full colour mixed into white */
	switch (s) {
	case KMAG_DIFF_ADDED:
		snprintf(buf, len, "#f46d5d");
		break;
	case KMAG_DIFF_REMOVED:
		snprintf(buf, len, "#5d9cf4");
		break;
	case KMAG_DIFF_GREW:
		snprintf(buf, len, "#%02x%02x%02x", 255, (int)(255 - w * (255 - 0x6d)),
			 (int)(255 - w * (255 - 0x5d)));
		break;
	case KMAG_DIFF_SHRANK:
		snprintf(buf, len, "#%02x%02x%02x", (int)(255 - w * (255 - 0x5d)),
			 (int)(255 - w * (255 - 0x9c)), 255 - (int)(w * 11));
		break;
	default:
		snprintf(buf, len, "#ffffff");
	}
}

static bool wanted_edge(const struct kmag_diff_report *r, const struct kmag_diff_edge *e)
{
	return (r->all || e->status != KMAG_DIFF_SAME) && edge_shown(r, e);
}

/*
 * Node @n's label: @name, cut when longer than a label shows (the whole name,
 * up to RENDER_TIP_MAX, is then its tooltip), and @suffix. 0 or -ENOMEM.
 */
static int set_label(Agnode_t *n, const char *name, const char *suffix)
{
	char *tmp = NULL, *esc;
	const char *shown = render_name_cut(name, RENDER_LABEL_MAX, &tmp);
	bool cut = shown != name;

	esc = render_dot_esc(shown, suffix);
	free(tmp);
	tmp = NULL;
	if (!esc)
		return -ENOMEM;
	agset(n, "label", esc);
	free(esc);
	if (!cut)
		return 0;
	esc = render_dot_esc(render_name_cut(name, RENDER_TIP_MAX, &tmp), NULL);
	free(tmp);
	if (!esc)
		return -ENOMEM;
	agsafeset(n, "tooltip", esc, "");
	free(esc);
	return 0;
}

/* The diff graph's defaults: unchanged functions and edges stay plain. */
static const struct render_gv_attr dot_defaults[] = {
	{ AGRAPH, "rankdir", "LR", NULL },
	{ AGRAPH, "label", "", NULL },
	{ AGNODE, "shape", "box", NULL },
	{ AGNODE, "style", "filled", NULL },
	{ AGNODE, "fillcolor", "#ffffff", NULL },
	{ AGNODE, "fontname", "monospace", NULL },
	{ AGNODE, "label", "\\N", NULL },
	{ AGNODE, "penwidth", "1", NULL },
	{ AGNODE, "kmag_status", "same", NULL },
	{ AGEDGE, "color", "#999999", NULL },
	{ AGEDGE, "label", "", NULL },
	{ AGEDGE, "style", "solid", NULL },
	{ AGEDGE, "penwidth", "1", NULL },
	{ AGEDGE, "kmag_status", "same", NULL },
};

/* The graph's title: the inputs, their kernels and, when these differ, how renamed functions look. */
static int dot_title(Agraph_t *g, const struct kmag_diff_report *r)
{
	char buf[4096], ra[128], rb[128], note[160] = "", *esc;

	snprintf(buf, sizeof(buf),
		 "kmag diff: A = %s (kernel %s), B = %s (kernel %s); red: more in B, blue: less",
		 r->input_a ? r->input_a : "-", kmag_uname_release(r->info_a->uname, ra, sizeof(ra)),
		 r->input_b ? r->input_b : "-", kmag_uname_release(r->info_b->uname, rb, sizeof(rb)));
	if (kernels_differ(r))
		snprintf(note, sizeof(note),
			 "\\nkernels differ: %zu renamed or cloned functions paired, drawn as A's name \u2192 B's name",
			 kmag_cgdiff_nr_renamed(r->diff));
	if (!(esc = render_dot_esc(buf, note)))
		return -ENOMEM;
	agset(g, "label", esc);
	free(esc);
	return 0;
}

/* Function @x's node @n: its label (calls, time; a renamed one under both names), status, colour. */
static int dot_node(Agnode_t *n, const struct kmag_diff_func *x, bool has_time)
{
	char buf[192], colour[16], t1[40], t2[40];
	int ret;

	if (has_time) {
		kmag_format_duration(t1, sizeof(t1), x->a.total_ns);
		kmag_format_duration(t2, sizeof(t2), x->b.total_ns);
		snprintf(buf, sizeof(buf), "\\n%" PRIu64 " → %" PRIu64 " calls\\n%s → %s",
			 x->a.calls, x->b.calls, t1, t2);
	} else {
		snprintf(buf, sizeof(buf), "\\n%" PRIu64 " → %" PRIu64 " calls", x->a.calls,
			 x->b.calls);
	}
	if (x->rename) {
		/* one function under two names: both, and the rule that paired them */
		char *both = NULL;

		if (asprintf(&both, "%s \u2192 %s", x->name, x->name_b) < 0)
			return -ENOMEM;
		ret = set_label(n, both, buf);
		free(both);
		agsafeset(n, "kmag_renamed", (char *)kmag_diff_rename_name(x->rename), "");
	} else {
		ret = set_label(n, x->name, buf);
	}
	if (ret)
		return ret;
	agset(n, "kmag_status", (char *)kmag_diff_status_name(x->status));
	status_colour(colour, sizeof(colour), x->status, x->a.calls, x->b.calls);
	agset(n, "fillcolor", colour);
	if (x->status == KMAG_DIFF_ADDED) {
		agset(n, "style", "filled,bold");
		agset(n, "penwidth", "2");
	} else if (x->status == KMAG_DIFF_REMOVED) {
		agset(n, "style", "filled,dashed");
	}
	return 0;
}

int kmag_diff_dot(FILE *out, const struct kmag_diff_report *r)
{
	const struct kmag_cgdiff *d = r->diff;
	const struct kmag_diff_func *f = kmag_cgdiff_funcs(d);
	const struct kmag_diff_edge *e = kmag_cgdiff_edges(d);
	size_t nf = kmag_cgdiff_nr_funcs(d), ne = kmag_cgdiff_nr_edges(d), i;
	Agnode_t **agn = calloc(nf + 1, sizeof(*agn));
	unsigned char *want = calloc(nf + 1, 1);
	Agraph_t *g = render_gv_graph("kmag_diff", dot_defaults,
				      sizeof(dot_defaults) / sizeof(dot_defaults[0]));
	char buf[64], *esc;
	int ret = 0;

	if (!agn || !want || !g) {
		free(agn);
		free(want);
		if (g)
			agclose(g);
		return -ENOMEM;
	}
	ret = dot_title(g, r);
	for (i = 0; i < nf; i++)
		want[i] = (r->all || f[i].status != KMAG_DIFF_SAME) && func_shown(r, &f[i]);
	for (i = 0; i < ne; i++)
		if (wanted_edge(r, &e[i]))
			want[e[i].caller] = want[e[i].callee] = 1;
	for (i = 0; i < nf && !ret; i++) {
		if (!want[i])
			continue;
		/* backslashes doubled: Graphviz writes them raw and expands them in labels */
		esc = render_dot_id(f[i].name, i);
		agn[i] = esc ? agnode(g, esc, 1) : NULL;
		free(esc);
		ret = agn[i] ? dot_node(agn[i], &f[i], kmag_cgdiff_has_time(d)) : -ENOMEM;
	}
	for (i = 0; i < ne && !ret; i++) {
		const struct kmag_diff_edge *x = &e[i];
		Agedge_t *ae;

		if (!wanted_edge(r, x))
			continue;
		ae = agedge(g, agn[x->caller], agn[x->callee], NULL, 1);
		if (!ae) {
			ret = -ENOMEM;
			break;
		}
		snprintf(buf, sizeof(buf), "%" PRIu64 " → %" PRIu64, x->a.calls, x->b.calls);
		agset(ae, "label", buf);
		agset(ae, "kmag_status", (char *)kmag_diff_status_name(x->status));
		if (x->status != KMAG_DIFF_SAME) {
			/* edges need a darker tone than fills to be visible */
			agset(ae, "color", x->status == KMAG_DIFF_GREW || x->status == KMAG_DIFF_ADDED ?
						   "#d7301f" : "#2b6cc4");
			agset(ae, "penwidth", x->status == KMAG_DIFF_ADDED || x->status == KMAG_DIFF_REMOVED ?
						      "2" : "1.5");
		}
		if (x->status == KMAG_DIFF_REMOVED)
			agset(ae, "style", "dashed");
	}
	free(agn);
	free(want);
	return render_gv_write_close(g, out, ret);
}

#else /* !KMAG_HAVE_GRAPHVIZ: DOT is written with libcgraph */

int kmag_diff_dot(FILE *out, const struct kmag_diff_report *r)
{
	return -ENOTSUP;
}

#endif /* KMAG_HAVE_GRAPHVIZ */
