/* SPDX-License-Identifier: MIT */
/*
 * fuzz-render.h - the whole pipeline for the render targets: a trace read
 * into a call graph (with the calling-context tree, the slowest calls from
 * its replay and the Chrome export from the same events), then every output:
 * report text/JSON/CSV, edge CSV and DOT export, the Graphviz DOT of a view,
 * the cairo chart, the HTML explorer, the diff of the graph with itself and
 * with an empty graph (text, JSON, DOT, page), flame SVG and folded, the
 * slowest calls as text and JSON, kmag replay's call trees (text, JSON Lines,
 * --errors), kmag errors (text, JSON), the explorer with its Errors panel
 * and its functions' Called from lists, the Perfetto trace (from the same
 * events) and the pprof profile.
 * Outputs go to memory (checked with fuzz-check.h, abort() on malformed
 * output) or to /dev/null (Graphviz and cairo write to paths).
 *
 * Graphviz renders DOT only: an SVG needs a layout per input (dot or sfdp),
 * which takes 10-1000x longer than everything else together and is
 * Graphviz's own code, not kmag's; kmag's part (the graph and its quoted
 * labels) is the same for DOT and SVG.
 */
#ifndef KMAG_FUZZ_RENDER_H
#define KMAG_FUZZ_RENDER_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "fuzz-check.h"
#include "fuzz-check-pb.h"
#include "fuzz-common.h"
#include "kmag/callsample.h"
#include "kmag/cgdiff.h"
#include "kmag/cgview.h"
#include "kmag/durations.h"
#include "kmag/errors.h"
#include "kmag/flame.h"
#include "kmag/kmag.h"
#include "kmag/render/chart.h"
#include "kmag/render/calltree.h"
#include "kmag/render/diff.h"
#include "kmag/render/errors.h"
#include "kmag/render/durations.h"
#include "kmag/render/explore.h"
#include "kmag/render/export.h"
#include "kmag/render/flame.h"
#include "kmag/render/graph.h"
#include "kmag/render/report.h"
#include "kmag/replay.h"
#include "kmag/report.h"
#include <zlib.h>

typedef int (*fz_write_fn)(FILE *out, const void *ctx);
typedef const char *(*fz_check_fn)(const char *s, size_t n);

/* Runs @fn into memory and checks what it wrote with @check (may be NULL). */
static inline void fz_render(const char *what, fz_write_fn fn, const void *ctx, fz_check_fn check)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const char *why;
	int ret;

	if (!f)
		return;
	ret = fn(f, ctx);
	if (fclose(f) || !buf) {
		free(buf);
		return;
	}
	if (getenv("FUZZ_RENDER_VERBOSE"))	/* what each input reaches */
		fprintf(stderr, "%s: %d, %zu bytes\n", what, ret, len);
	why = !ret && check ? check(buf, len) : NULL;
	if (why) {
		fprintf(stderr, "fuzz-render: %s: %s\n--- output (%zu bytes) ---\n", what, why, len);
		fwrite(buf, 1, len < 4096 ? len : 4096, stderr);
		abort();
	}
	free(buf);
}

static inline int fz_report_text(FILE *o, const void *c) { return kmag_report_text(o, c); }
static inline int fz_report_json(FILE *o, const void *c) { return kmag_report_json(o, c); }
static inline int fz_report_csv(FILE *o, const void *c) { return kmag_report_csv(o, c); }
static inline int fz_edges_csv(FILE *o, const void *c) { return kmag_export_edges_csv(o, c); }
static inline int fz_export_dot(FILE *o, const void *c) { return kmag_export_dot(o, c); }
static inline int fz_explore(FILE *o, const void *c) { return kmag_explore_html(o, c); }
static inline int fz_diff_text(FILE *o, const void *c) { return kmag_diff_text(o, c); }
static inline int fz_diff_json(FILE *o, const void *c) { return kmag_diff_json(o, c); }
static inline int fz_diff_dot(FILE *o, const void *c) { return kmag_diff_dot(o, c); }
static inline int fz_folded(FILE *o, const void *c) { return kmag_flame_write_folded(o, c); }

static inline int fz_flame_svg(FILE *o, const void *c)
{
	struct kmag_flame_svg_opts so = { .subtitle = "fuzz <&\"'> ]]>" };

	return kmag_flame_write_svg(o, c, &so);
}

struct fz_slowest {
	const struct kmag_slowest *s;
	const struct kmag_symtab *st;
	const struct kmag_trace *t;
};

static inline int fz_slowest_text(FILE *o, const void *c)
{
	const struct fz_slowest *x = c;

	return kmag_slowest_text(o, x->s, x->st, x->t, NULL);
}

static inline int fz_slowest_json(FILE *o, const void *c)
{
	const struct fz_slowest *x = c;

	return kmag_slowest_json(o, x->s, x->st, x->t, NULL);
}

static inline int fz_pprof(FILE *o, const void *c) { return kmag_pprof_write(o, c); }

/* A pprof export: gzip that inflates to a well-formed Profile whose string_table[0] is "". */
static inline const char *fz_check_pprof(const char *s, size_t n)
{
	static const uint32_t msgs[] = { 4, 0 };	/* Location.line */
	static unsigned char out[1 << 24];
	z_stream z = { 0 };
	struct fz_pb b, sub, packed;
	uint32_t field, f2;
	unsigned wire, w2;
	bool seen_string = false;
	uint64_t val;
	const char *why;
	int zr;

	if (inflateInit2(&z, 15 + 16) != Z_OK)
		return NULL;
	z.next_in = (Bytef *)(uintptr_t)s;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = sizeof(out);
	zr = inflate(&z, Z_FINISH);
	b.p = out;
	b.end = out + z.total_out;
	inflateEnd(&z);
	if (zr == Z_BUF_ERROR && !z.avail_out)
		return NULL;	/* past 16 MiB: not checked */
	if (zr != Z_STREAM_END)
		return "the pprof output is not one whole gzip stream";
	while (fz_pb_field(&b, &field, &wire, &val, &sub, &why)) {
		if (field == 6 && !seen_string) {
			if (wire != 2 || sub.p != sub.end)
				return "string_table[0] is not \"\"";
			seen_string = true;
		}
		if (wire != 2 || field < 2 || field > 5)
			continue;
		if (field != 2) {
			/* mapping, location (with its lines), function */
			if ((why = fz_check_pb(sub, msgs, 0)))
				return why;
			continue;
		}
		/* a Sample: packed location_id (1) and value (2), labels (3) */
		while (fz_pb_field(&sub, &f2, &w2, &val, &packed, &why)) {
			if ((f2 == 1 || f2 == 2) && w2 == 2) {
				while (packed.p < packed.end)
					if (!fz_pb_varint(&packed, &val))
						return "a sample's packed varints are malformed";
			} else if (f2 == 3 && w2 == 2 && (why = fz_check_pb(packed, NULL, 0))) {
				return why;
			}
		}
		if (why)
			return why;
	}
	return why ? why : !seen_string ? "the profile has no string table" : NULL;
}

/* The graph's report in every format and its exports. */
static inline void fz_reports(const struct kmag_cg *cg, struct kmag_trace *t)
{
	struct kmag_report r = { .cg = cg, .st = kmag_trace_symtab(t), .info = kmag_trace_info(t),
				 .sort = KMAG_SORT_TOTAL, .focus = -1, .input = "in\"<put>" };
	struct kmag_export x = { .cg = cg, .st = kmag_trace_symtab(t), .input = "in\"<put>" };

	fz_render("report text", fz_report_text, &r, fz_check_text);
	fz_render("report json", fz_report_json, &r, fz_check_json);
	fz_render("report csv", fz_report_csv, &r, fz_check_csv);
	if (kmag_cg_nr_nodes(cg)) {
		/* a focus: the callers table of the first function */
		r.focus = 0;
		r.callers = true;
		fz_render("report json focus", fz_report_json, &r, fz_check_json);
		fz_render("report csv focus", fz_report_csv, &r, fz_check_csv);
	}
	fz_render("edges csv", fz_edges_csv, &x, fz_check_csv);
	fz_render("export dot", fz_export_dot, &x, fz_check_dot);
	{
		struct kmag_pprof_opts po = { .cg = cg, .st = kmag_trace_symtab(t),
					      .info = kmag_trace_info(t), .source = "in\"put" };

		fz_render("pprof", fz_pprof, &po, fz_check_pprof);
	}
}

/* The view's Graphviz DOT and the cairo chart of its top functions, both to /dev/null. */
static inline void fz_pictures(const struct kmag_cg *cg, struct kmag_trace *t)
{
	struct kmag_cgview_opts vo = { .weight = KMAG_SORT_CALLS, .root = -1, .callers = -1,
				       .depth = -1, .max_nodes = 64 };
	struct kmag_cgview *view = kmag_cgview_new(cg, &vo);
	const struct kmag_cg_node *nodes = kmag_cg_nodes(cg);
	struct kmag_err err = { 0 };
	uint32_t top[16];
	const char *names[16];
	uint64_t values[16];
	double heat[16];
	size_t nr, i;

	if (!view)
		return;
	{
		struct kmag_graph_doc d = { .cg = cg, .view = view, .st = kmag_trace_symtab(t),
					    .info = kmag_trace_info(t), .heat = vo.weight,
					    .layout = "dot" };

		if (kmag_cgview_nr_nodes(view))
			kmag_render_graphviz(&d, "/dev/null", "dot", &err);
	}
	nr = kmag_cgview_top(view, top, 16);
	for (i = 0; i < nr; i++) {
		names[i] = kmag_symtab_name(kmag_trace_symtab(t), nodes[top[i]].func);
		values[i] = kmag_stats_value(&nodes[top[i]].st, vo.weight);
		heat[i] = kmag_cgview_heat(view, values[i]);
	}
	while (nr && !values[nr - 1])
		nr--;
#if KMAG_HAVE_CAIRO
	if (nr) {
		struct kmag_chart c = { .title = "calls", .subtitle = "fuzz", .axis_label = "calls",
					.nr = nr, .names = names, .values = values, .heat = heat };

		kmag_render_chart(&c, "/dev/null", "svg", &err);
	}
#else
	(void)names;	/* the chart's inputs, computed all the same to run their code */
	(void)heat;
#endif
	kmag_cgview_free(view);
}

/* The explorer page of the graph, and the diff of the graph against @other. */
static inline void fz_pages(const struct kmag_cg *cg, struct kmag_trace *t,
			    const struct kmag_cg *other, const struct kmag_symtab *ost,
			    const struct kmag_callsample *calls)
{
	struct kmag_explore x = { .cg = cg, .st = kmag_trace_symtab(t), .info = kmag_trace_info(t),
				  .input = "</script><x>&amp;", .calls = calls, .trace = t };
	struct kmag_cgdiff *d;

	fz_render("explorer", fz_explore, &x, fz_check_html);
	d = kmag_cgdiff_new(other, ost, cg, kmag_trace_symtab(t), NULL);
	if (d) {
		struct kmag_diff_report r = { .diff = d, .input_a = "a\"]]>", .input_b = "b</script>",
					      .info_a = kmag_trace_info(t),
					      .info_b = kmag_trace_info(t), .all = true };
		struct kmag_explore dx = { .diff = d, .info = kmag_trace_info(t),
					   .info_a = kmag_trace_info(t), .input = "b", .input_a = "a" };

		fz_render("diff text", fz_diff_text, &r, fz_check_text);
		fz_render("diff json", fz_diff_json, &r, fz_check_json);
		fz_render("diff dot", fz_diff_dot, &r, fz_check_dot);
		fz_render("diff page", fz_explore, &dx, fz_check_html);
		kmag_cgdiff_free(d);
	}
}

static inline void fz_flames(const struct kmag_cg *cg, struct kmag_trace *t)
{
	int rev;

	for (rev = 0; rev < 2; rev++) {
		struct kmag_flame *f = kmag_flame_new(rev);

		if (f && !kmag_flame_add_graph(f, cg, kmag_trace_symtab(t), rev ? "base\"<&>" : NULL) &&
		    !kmag_flame_finish(f, rev ? KMAG_FLAME_CALLS : KMAG_FLAME_TIME)) {
			fz_render("folded", fz_folded, f, NULL);
			if (kmag_flame_total(f, 0))
				fz_render("flame svg", fz_flame_svg, f, fz_check_xml);
		}
		kmag_flame_free(f);
	}
}

/* kmag replay's printers: plain text, JSON Lines, and text with --errors. */
#define FZ_NR_TREES 3
struct fz_tree {
	struct kmag_calltree *ct;
	FILE *f;
	char *buf;
	size_t len;
	int stopped;
};

/*
 * Events go to the graph (its replay feeds the slowest calls and the
 * errors), to the Chrome export and to the replay printers.
 */
struct fz_tee {
	struct kmag_cg *cg;
	struct kmag_chrome *chrome;
	int chrome_failed;
	struct kmag_perfetto *perfetto;
	int perfetto_failed;
	struct fz_tree tree[FZ_NR_TREES];
};

static inline int fz_tee_fn(const struct kmag_event *ev, void *ctx)
{
	struct fz_tee *x = ctx;
	int i;

	if (x->chrome && !x->chrome_failed && kmag_chrome_event_fn(ev, x->chrome))
		x->chrome_failed = 1;
	if (x->perfetto && !x->perfetto_failed && kmag_perfetto_event_fn(ev, x->perfetto))
		x->perfetto_failed = 1;
	for (i = 0; i < FZ_NR_TREES; i++)
		if (x->tree[i].ct && !x->tree[i].stopped &&
		    kmag_calltree_event_fn(ev, x->tree[i].ct))
			x->tree[i].stopped = 1;	/* its limit, or a refusal (no return values) */
	return kmag_cg_event_fn(ev, x->cg);
}

static inline void fz_trees_new(struct fz_tee *x, struct kmag_trace *t)
{
	static const struct kmag_calltree_opts o[FZ_NR_TREES] = {
		{ .format = KMAG_CALLTREE_TEXT, .source = "a\"</script>" },
		{ .format = KMAG_CALLTREE_JSON, .limit = 2000 },
		{ .format = KMAG_CALLTREE_TEXT, .errors = true, .max_depth = 4 },
	};
	struct kmag_err err = { 0 };
	int i;

	for (i = 0; i < FZ_NR_TREES; i++) {
		struct fz_tree *tr = &x->tree[i];

		tr->f = open_memstream(&tr->buf, &tr->len);
		if (tr->f && !(tr->ct = kmag_calltree_new(t, tr->f, &o[i], &err)))
			tr->stopped = 1;
	}
}

/* Finishes the printers and checks what they wrote (text as a terminal gets it, JSON Lines). */
static inline void fz_trees_finish(struct fz_tee *x)
{
	struct kmag_err err = { 0 };
	int i;

	for (i = 0; i < FZ_NR_TREES; i++) {
		struct fz_tree *tr = &x->tree[i];
		const char *why = NULL;

		if (tr->ct && !kmag_calltree_finish(tr->ct, &err) && !fflush(tr->f)) {
			if (getenv("FUZZ_RENDER_VERBOSE"))
				fprintf(stderr, "replay %d: %zu bytes\n", i, tr->len);
			why = i == 1 ? fz_check_jsonl(tr->buf, tr->len) : fz_check_text(tr->buf, tr->len);
		}
		if (why) {
			fprintf(stderr, "fuzz-render: replay %d: %s\n", i, why);
			fwrite(tr->buf, 1, tr->len < 4096 ? tr->len : 4096, stderr);
			abort();
		}
		kmag_calltree_free(tr->ct);
		if (tr->f)
			fclose(tr->f);
		free(tr->buf);
	}
}

/* kmag errors, as text and JSON */
struct fz_errs {
	const struct kmag_errors *e;
	const struct kmag_symtab *st;
};

static inline int fz_errors_text(FILE *o, const void *c)
{
	const struct fz_errs *x = c;
	struct kmag_errors_render_opts ro = { .format = KMAG_ERRORS_TEXT, .source = "x\x1b[31m" };

	return kmag_errors_render(o, x->e, x->st, &ro);
}

static inline int fz_errors_json(FILE *o, const void *c)
{
	const struct fz_errs *x = c;
	struct kmag_errors_render_opts ro = { .format = KMAG_ERRORS_JSON, .source = "x\"</script>",
					      .types_from = "BTF of \"y\"" };

	return kmag_errors_render(o, x->e, x->st, &ro);
}

/*
 * Reads the trace at @path and renders everything. @other (may be NULL): a
 * second diff's A side, a graph without functions (it borrows the trace's names).
 */
static inline void fuzz_render_trace(const char *path, enum kmag_reader reader,
				     const struct kmag_cg *other)
{
	struct kmag_trace_opts topts = { .reader = reader };
	struct kmag_cg_opts copts = { .build_cct = true };
	struct kmag_err err = { 0 };
	struct kmag_trace *t = kmag_trace_open(path, &topts, &err);
	struct kmag_slowest *slow = NULL;
	struct kmag_callsample_opts so = { .slowest = 3, .failing = 3, .first = 2, .tree_max = 8,
					   .budget = 64 };
	struct kmag_callsample *calls = NULL;
	struct kmag_errors *errs = NULL;
	struct kmag_callsites *sites = NULL;
	struct fz_tee tee = { 0 };
	char *cbuf = NULL, *pbuf = NULL;
	size_t clen = 0, plen = 0;
	FILE *cf = NULL, *pf = NULL;

	if (!t)
		return;
	tee.cg = kmag_cg_new(&copts);
	calls = kmag_callsample_new(&so);
	slow = kmag_slowest_new(5);
	errs = kmag_errors_new(kmag_trace_symtab(t));
	sites = kmag_callsites_new(kmag_trace_symtab(t), NULL);
	if (!tee.cg || !slow || kmag_slowest_subscribe(slow, kmag_cg_replay(tee.cg)) || !calls ||
	    kmag_callsample_subscribe(calls, kmag_cg_replay(tee.cg)) || !errs ||
	    kmag_errors_subscribe(errs, kmag_cg_replay(tee.cg)) || !sites ||
	    kmag_callsites_subscribe(sites, kmag_cg_replay(tee.cg)))
		goto out;
	fz_trees_new(&tee, t);
	if (kmag_trace_info(t)->tracer != KMAG_TRACER_FUNCTION && (cf = open_memstream(&cbuf, &clen))) {
		struct kmag_chrome_opts co = { .stream = cf, .source = "src\"</script>" };

		tee.chrome = kmag_chrome_new(t, &co, &err);
	}
	if (kmag_trace_info(t)->tracer != KMAG_TRACER_FUNCTION && (pf = open_memstream(&pbuf, &plen))) {
		struct kmag_perfetto_opts po = { .stream = pf, .source = "src" };

		tee.perfetto = kmag_perfetto_new(t, &po, &err);
	}
	if (kmag_trace_read(t, fz_tee_fn, &tee, &err) < 0 && !tee.cg)
		goto out;
	if (kmag_cg_finish(tee.cg))
		goto out;
	if (tee.chrome && !tee.chrome_failed && !kmag_chrome_finish(tee.chrome, &err)) {
		const char *why;

		fflush(cf);
		why = fz_check_json(cbuf, clen);
		if (why) {
			fprintf(stderr, "fuzz-render: chrome: %s\n", why);
			fwrite(cbuf, 1, clen < 4096 ? clen : 4096, stderr);
			abort();
		}
	}
	if (tee.perfetto && !tee.perfetto_failed && !kmag_perfetto_finish(tee.perfetto, &err)) {
		const char *why;

		fflush(pf);
		if ((why = fz_check_perfetto(pbuf, plen))) {
			fprintf(stderr, "fuzz-render: perfetto: %s\n", why);
			abort();
		}
	}
	kmag_slowest_finish(slow);
	if (kmag_callsample_finish(calls))
		goto out;
	{
		struct fz_slowest s = { slow, kmag_trace_symtab(t), t };

		fz_render("slowest text", fz_slowest_text, &s, fz_check_text);
		fz_render("slowest json", fz_slowest_json, &s, fz_check_json);
	}
	fz_reports(tee.cg, t);
	fz_pictures(tee.cg, t);
	fz_pages(tee.cg, t, tee.cg, kmag_trace_symtab(t), calls);
	if (other)
		fz_pages(tee.cg, t, other, kmag_trace_symtab(t), NULL);
	fz_flames(tee.cg, t);
	if (!kmag_errors_finish(errs)) {
		struct fz_errs x = { errs, kmag_trace_symtab(t) };

		fz_render("errors text", fz_errors_text, &x, fz_check_text);
		fz_render("errors json", fz_errors_json, &x, fz_check_json);
		/* the explorer page with its Errors panel, error paths and Called from lists */
		struct kmag_explore ex = { .cg = tee.cg, .st = kmag_trace_symtab(t),
					   .info = kmag_trace_info(t), .input = "e</script>",
					   .errors = errs, .errors_types = "BTF of \"</script>\x01",
					   .callsites = sites };

		fz_render("explorer errors", fz_explore, &ex, fz_check_html);
	}
out:
	fz_trees_finish(&tee);
	kmag_errors_free(errs);
	kmag_callsites_free(sites);
	kmag_chrome_free(tee.chrome);
	kmag_perfetto_free(tee.perfetto);
	if (cf)
		fclose(cf);
	if (pf)
		fclose(pf);
	free(cbuf);
	free(pbuf);
	kmag_slowest_free(slow);
	kmag_callsample_free(calls);
	kmag_cg_free(tee.cg);
	kmag_trace_close(t);
}

#endif
