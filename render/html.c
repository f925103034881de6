// SPDX-License-Identifier: MIT
/*
 * html.c - the interactive HTML explorer page.
 *
 * The page is assets/explorer.html with the style, the scripts and the data
 * put in at its {{...}} markers. The data is one JSON document in a
 * <script type="application/json"> element, column by column (one array
 * per statistic) so it stays compact and parses fast for graphs of tens of
 * thousands of edges. The escaping of kmag_fput_json_string() turns every
 * '<' into \u003c, so no name can end the element early; the scripts build
 * the page with textContent and setAttribute only, never with markup.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "assets.h"
#include "html-calls.h"
#include "html-errors.h"
#include "html-sites.h"
#include "kmag/cgview.h"
#include "kmag/dist.h"
#include "kmag/render/explore.h"
#include "kmag/outfile.h"
#include "kmag/render/graph.h"
#include "kmag/report.h"
#include "render-util.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* File names of the functions, interned so each is written once. */
struct files {
	const char **names;
	size_t nr, cap;
	struct kmag_symtab *index;	/* file name -> position in names */
};

static long file_index(struct files *f, const char *name)
{
	kmag_func_t id;

	if (!name)
		return -1;
	id = kmag_symtab_intern(f->index, name, (size_t)-1);
	if (id == KMAG_FUNC_NONE)
		return -2;
	if (id == f->nr) {
		if (kmag__grow(&f->names, &f->cap, f->nr + 1, sizeof(*f->names)))
			return -2;
		f->names[f->nr++] = kmag_symtab_name(f->index, id);
	}
	return (long)id;
}

struct column {
	const char *key;
	enum { COL_CALLS, COL_TOTAL, COL_SELF, COL_MAX, COL_TIMED, COL_INC, COL_SUM } what;
};

/* (edges take the first two: calls and total) */
static const struct column node_cols[] = {
	{ "calls", COL_CALLS }, { "total", COL_TOTAL }, { "self", COL_SELF },
	{ "max", COL_MAX },     { "timed", COL_TIMED }, { "inc", COL_INC },
	{ "sum", COL_SUM },
};

static uint64_t col_value(const struct kmag_cg_stats *st, int what)
{
	switch (what) {
	case COL_CALLS:
		return st->calls;
	case COL_TOTAL:
		return st->total_ns;
	case COL_SELF:
		return st->self_ns;
	case COL_MAX:
		return st->max_ns;
	case COL_TIMED:
		return st->timed;
	case COL_SUM:
		return st->sum_ns;
	default:
		return st->incomplete;
	}
}

/* Stats of function or edge @i, side A (diff only) or B / the graph. */
typedef const struct kmag_cg_stats *(*stats_at_fn)(const struct kmag_explore *x, size_t i, bool a);

static const struct kmag_cg_stats *node_stats(const struct kmag_explore *x, size_t i, bool a)
{
	if (x->diff)
		return a ? &kmag_cgdiff_funcs(x->diff)[i].a : &kmag_cgdiff_funcs(x->diff)[i].b;
	return &kmag_cg_nodes(x->cg)[i].st;
}

static const struct kmag_cg_stats *edge_stats(const struct kmag_explore *x, size_t i, bool a)
{
	if (x->diff)
		return a ? &kmag_cgdiff_edges(x->diff)[i].a : &kmag_cgdiff_edges(x->diff)[i].b;
	return &kmag_cg_edges(x->cg)[i].st;
}

/* Columns of the statistics of the functions (edges) listed in @idx, one array per column. */
static void stats_columns(FILE *out, const struct kmag_explore *x, const uint32_t *idx, size_t n,
			  stats_at_fn at, bool a, const struct column *cols, size_t ncols)
{
	size_t c, i;

	for (c = 0; c < ncols; c++) {
		fprintf(out, "%s\"%s\":[", c ? "," : "", cols[c].key);
		for (i = 0; i < n; i++)
			fprintf(out, "%s%" PRIu64, i ? "," : "", col_value(at(x, idx[i], a), cols[c].what));
		fputc(']', out);
	}
}

static void json_key_str(FILE *out, const char *key, const char *val)
{
	fprintf(out, ",\"%s\":", key);
	if (val)
		kmag_fput_json_string(out, val);
	else
		fputs("null", out);
}

static void lost_list(FILE *out, const struct kmag_trace_info *info)
{
	int i, shown = 0;

	fputc('[', out);
	for (i = 0; info && i < info->nr_cpus; i++) {
		const struct kmag_cpu_info *ci = &info->cpus[i];
		uint64_t stat = ci->stat_overrun + ci->stat_commit_overrun + ci->stat_dropped;
		uint64_t lost = ci->has_stats && stat >= ci->lost ? stat : ci->lost;

		if (!lost && !ci->lost_markers && !ci->lost_unknown)
			continue;
		fprintf(out, "%s{\"cpu\":%d,\"lost\":%" PRIu64 ",\"unknown\":%s,\"gaps\":%u,\"events\":%" PRIu64 "}",
			shown++ ? "," : "", i, lost, !lost ? "true" : "false", ci->lost_markers, ci->events);
	}
	fputc(']', out);
}

static void trace_facts(FILE *out, const char *prefix, const char *input,
			const struct kmag_trace_info *info)
{
	char key[32], rel[128];

	snprintf(key, sizeof(key), "%sinput", prefix);
	json_key_str(out, key, input);
	if (!info)
		return;
	snprintf(key, sizeof(key), "%stracer", prefix);
	json_key_str(out, key, kmag_tracer_name(info->tracer));
	snprintf(key, sizeof(key), "%sformat", prefix);
	json_key_str(out, key, kmag_input_format_name(info->format));
	snprintf(key, sizeof(key), "%skernel", prefix);
	json_key_str(out, key, info->uname);
	snprintf(key, sizeof(key), "%srelease", prefix);
	json_key_str(out, key, info->uname ? kmag_uname_release(info->uname, rel, sizeof(rel)) : NULL);
	fprintf(out, ",\"%sevents\":%" PRIu64 ",\"%sspanNs\":%" PRIu64 ",\"%slost\":", prefix,
		info->events, prefix,
		info->first_ts != KMAG_TS_NONE && info->last_ts != KMAG_TS_NONE &&
				info->last_ts >= info->first_ts ?
			info->last_ts - info->first_ts : 0,
		prefix);
	lost_list(out, info);
}

/* Caller (or callee) of edge @i, as a function index. */
static uint32_t edge_end(const struct kmag_explore *x, size_t i, bool caller)
{
	if (x->diff) {
		const struct kmag_diff_edge *e = &kmag_cgdiff_edges(x->diff)[i];

		return caller ? e->caller : e->callee;
	}
	return caller ? kmag_cg_edges(x->cg)[i].caller : kmag_cg_edges(x->cg)[i].callee;
}

static uint32_t edge_flags(const struct kmag_explore *x, size_t i)
{
	return x->diff ? kmag_cgdiff_edges(x->diff)[i].flags : kmag_cg_edges(x->cg)[i].flags;
}

/* Name of function @i; *@id is its id in the graph's symtab (diff: B's, else A's). */
/* "probe":[hits per shown function], only when some function was probed. */
static void put_probe_hits(FILE *out, const struct kmag_explore *x, const uint32_t *fn, size_t n)
{
	const struct kmag_cg_node *nodes = kmag_cg_nodes(x->cg);
	size_t i, any = 0;

	for (i = 0; i < n && !any; i++)
		any = x->probe_hits(x->probe_hits_ctx, nodes[fn[i]].func) != 0;
	if (!any)
		return;
	fputs(",\"probe\":[", out);
	for (i = 0; i < n; i++)
		fprintf(out, "%s%" PRIu64, i ? "," : "", x->probe_hits(x->probe_hits_ctx, nodes[fn[i]].func));
	fputc(']', out);
}

/*
 * The shown functions' durations (graph mode): "p50", "p90", "p99" (null
 * without a distribution) and "hist", each one's log2 histogram in ns as
 * funclatency counts it (0 with 1), [first slot, counts up to the last in use].
 */
static void put_latency(FILE *out, const struct kmag_explore *x, const uint32_t *fn, size_t n)
{
	static const char *const keys[] = { "p50", "p90", "p99" };
	static const double pcts[] = { 50, 90, 99 };
	uint64_t slots[KMAG_DIST_LOG2_SLOTS];
	size_t i, k;
	int s, top, first;

	for (k = 0; k < 3; k++) {
		fprintf(out, ",\"%s\":[", keys[k]);
		for (i = 0; i < n; i++) {
			const struct kmag_dist *d = kmag_cg_node_dist(x->cg, fn[i]);

			if (i)
				fputc(',', out);
			if (d)
				fprintf(out, "%" PRIu64, kmag_dist_percentile(d, pcts[k]));
			else
				fputs("null", out);
		}
		fputc(']', out);
	}
	fputs(",\"hist\":[", out);
	for (i = 0; i < n; i++) {
		const struct kmag_dist *d = kmag_cg_node_dist(x->cg, fn[i]);

		if (i)
			fputc(',', out);
		top = d ? kmag_dist_log2(d, 1, slots) : -1;
		if (top < 0) {
			fputs("null", out);
			continue;
		}
		slots[1] += slots[0];
		for (first = 1; first < top && !slots[first]; first++)
			;
		fprintf(out, "[%d", first);
		for (s = first; s <= top; s++)
			fprintf(out, ",%" PRIu64, slots[s]);
		fputc(']', out);
	}
	fputc(']', out);
}

static const char *func_name(const struct kmag_explore *x, size_t i, kmag_func_t *id, bool *in_a)
{
	if (x->diff) {
		const struct kmag_diff_func *f = &kmag_cgdiff_funcs(x->diff)[i];

		*in_a = f->node_b < 0;
		*id = *in_a ? f->func_a : f->func_b;
		return f->name;
	}
	*in_a = false;
	*id = kmag_cg_nodes(x->cg)[i].func;
	return kmag_symtab_name(x->st, *id);
}

static bool func_visible(const struct kmag_explore *x, size_t i)
{
	bool in_a;
	kmag_func_t id;

	func_name(x, i, &id, &in_a);
	if (in_a)
		return !x->visible_a || x->visible_a(x->visible_a_ctx, id);
	return !x->visible || x->visible(x->visible_ctx, id);
}

/*
 * Splits a source label ("mm/filemap.c:3712", "mm/filemap.c", either with
 * " (+N more)" when the name is in several files) into file and line.
 */
static long source_of(struct files *files, const char *label, uint32_t *line)
{
	char buf[4096];
	char *more, *colon, *end;
	unsigned long v;

	*line = 0;
	if (!label || snprintf(buf, sizeof(buf), "%s", label) >= (int)sizeof(buf))
		return -1;
	more = strstr(buf, " (+");
	if (more)
		*more = '\0';
	colon = strrchr(buf, ':');
	if (colon && colon[1]) {
		v = strtoul(colon + 1, &end, 10);
		if (!*end && v <= UINT32_MAX) {
			*colon = '\0';
			*line = (uint32_t)v;
		}
	}
	return file_index(files, buf);
}

/* The functions and edges the page shows (all, unless x->visible drops some). */
struct shown {
	uint32_t *fn, *edge;	/* original indexes, in order */
	uint32_t *new_of;	/* original function index -> position in fn (UINT32_MAX: left out) */
	size_t nr_fn, nr_edge;
};

static int pick_shown(const struct kmag_explore *x, size_t nn, size_t ne, struct shown *sh)
{
	size_t i;

	sh->fn = malloc((nn + 1) * sizeof(*sh->fn));
	sh->new_of = malloc((nn + 1) * sizeof(*sh->new_of));
	sh->edge = malloc((ne + 1) * sizeof(*sh->edge));
	if (!sh->fn || !sh->new_of || !sh->edge)
		return -ENOMEM;
	for (i = 0; i < nn; i++) {
		sh->new_of[i] = UINT32_MAX;
		if (func_visible(x, i)) {
			sh->new_of[i] = (uint32_t)sh->nr_fn;
			sh->fn[sh->nr_fn++] = (uint32_t)i;
		}
	}
	for (i = 0; i < ne; i++)
		if (sh->new_of[edge_end(x, i, true)] != UINT32_MAX &&
		    sh->new_of[edge_end(x, i, false)] != UINT32_MAX)
			sh->edge[sh->nr_edge++] = (uint32_t)i;
	return 0;
}

/* The names of the shown functions as a JSON array; a renamed one (diff) as "A's name → B's name". */
static int put_names(FILE *out, const struct kmag_explore *x, const struct shown *sh)
{
	size_t i;

	fputc('[', out);
	for (i = 0; i < sh->nr_fn; i++) {
		bool in_a;
		kmag_func_t id;
		const char *name = func_name(x, sh->fn[i], &id, &in_a);
		char *both = NULL;

		if (x->diff && kmag_cgdiff_funcs(x->diff)[sh->fn[i]].rename &&
		    asprintf(&both, "%s \u2192 %s", name,
			     kmag_cgdiff_funcs(x->diff)[sh->fn[i]].name_b) < 0)
			return -ENOMEM;
		if (i)
			fputc(',', out);
		kmag_fput_json_string(out, both ? both : name ? name : "?");
		free(both);
	}
	fputc(']', out);
	return 0;
}

/* The page's facts: its mode, title, filters, the trace(s), the source files. */
static void put_facts(FILE *out, const struct kmag_explore *x, const struct files *files,
		      size_t nn, bool has_time, bool sources)
{
	size_t i;

	fprintf(out, "{\"v\":1,\"mode\":\"%s\",\"hasTime\":%s,\"hasStacks\":%s",
		x->diff ? "diff" : "graph", has_time ? "true" : "false",
		x->diff || kmag_cg_summary(x->cg)->has_stacks ? "true" : "false");
	json_key_str(out, "title", x->title);
	json_key_str(out, "focus", x->focus);
	json_key_str(out, "filters", x->filters && *x->filters ? x->filters : NULL);
	json_key_str(out, "pathFilter", x->path_filter);
	json_key_str(out, "generator", "kmag " KMAG_VERSION_STRING);
	json_key_str(out, "symbolMap", sources ? "yes" : NULL);
	fprintf(out, ",\"allFunctions\":%zu", nn);
	trace_facts(out, "", x->input, x->info);
	if (x->diff) {
		trace_facts(out, "a_", x->input_a, x->info_a);
		fprintf(out, ",\"renamed\":%zu", kmag_cgdiff_nr_renamed(x->diff));
	}
	fputs(",\"files\":[", out);
	for (i = 0; i < files->nr; i++) {
		if (i)
			fputc(',', out);
		kmag_fput_json_string(out, files->names[i]);
	}
	fputc(']', out);
}

/* The shown functions: names, source places, counts and times (A's and the status in a diff). */
static int put_functions(FILE *out, const struct kmag_explore *x, const struct shown *sh,
			 const long *file_of, const uint32_t *line_of, bool has_time, bool sources)
{
	size_t i;
	int ret;

	fputs(",\"fn\":{\"name\":", out);
	if ((ret = put_names(out, x, sh)))
		return ret;
	if (sources) {
		fputs(",\"file\":[", out);
		for (i = 0; i < sh->nr_fn; i++)
			fprintf(out, "%s%ld", i ? "," : "", file_of[i]);
		fputs("],\"line\":[", out);
		for (i = 0; i < sh->nr_fn; i++)
			fprintf(out, "%s%u", i ? "," : "", line_of[i]);
		fputc(']', out);
	}
	if (x->probe_hits && !x->diff)
		put_probe_hits(out, x, sh->fn, sh->nr_fn);
	fputc(',', out);
	stats_columns(out, x, sh->fn, sh->nr_fn, node_stats, false, node_cols, ARRAY_LEN(node_cols));
	if (!x->diff && has_time)
		put_latency(out, x, sh->fn, sh->nr_fn);
	fputc('}', out);
	if (x->diff) {
		const struct kmag_diff_func *f = kmag_cgdiff_funcs(x->diff);

		fputs(",\"fnA\":{", out);
		stats_columns(out, x, sh->fn, sh->nr_fn, node_stats, true, node_cols,
			      ARRAY_LEN(node_cols));
		fputs("},\"status\":[", out);
		for (i = 0; i < sh->nr_fn; i++)
			fprintf(out, "%s%d", i ? "," : "", (int)f[sh->fn[i]].status);
		fputc(']', out);
	}
	return 0;
}

/* The shown call edges: ends, interrupt marks, counts and times (A's and the status in a diff). */
static void put_edges(FILE *out, const struct kmag_explore *x, const struct shown *sh)
{
	bool irq = false;
	size_t i;

	fputs(",\"edge\":{\"src\":[", out);
	for (i = 0; i < sh->nr_edge; i++)
		fprintf(out, "%s%u", i ? "," : "", sh->new_of[edge_end(x, sh->edge[i], true)]);
	fputs("],\"dst\":[", out);
	for (i = 0; i < sh->nr_edge; i++)
		fprintf(out, "%s%u", i ? "," : "", sh->new_of[edge_end(x, sh->edge[i], false)]);
	fputc(']', out);
	for (i = 0; i < sh->nr_edge && !irq; i++)
		irq = edge_flags(x, sh->edge[i]) & KMAG_EDGE_IRQ;
	if (irq) {
		fputs(",\"irq\":[", out);
		for (i = 0; i < sh->nr_edge; i++)
			fprintf(out, "%s%d", i ? "," : "",
				edge_flags(x, sh->edge[i]) & KMAG_EDGE_IRQ ? 1 : 0);
		fputc(']', out);
	}
	fputc(',', out);
	stats_columns(out, x, sh->edge, sh->nr_edge, edge_stats, false, node_cols, 2);
	fputc('}', out);
	if (x->diff) {
		const struct kmag_diff_edge *e = kmag_cgdiff_edges(x->diff);

		fputs(",\"edgeA\":{", out);
		stats_columns(out, x, sh->edge, sh->nr_edge, edge_stats, true, node_cols, 2);
		fputs("},\"edgeStatus\":[", out);
		for (i = 0; i < sh->nr_edge; i++)
			fprintf(out, "%s%d", i ? "," : "", (int)e[sh->edge[i]].status);
		fputc(']', out);
	}
}

/* The calls, call sites and errors of the shown functions (what the trace has of them). */
static int put_extras(FILE *out, const struct kmag_explore *x, const struct shown *sh)
{
	int ret;

	if (x->calls && !x->diff) {
		struct html_calls_ctx cc = { .x = x, .new_of = sh->new_of, .nr_shown = sh->nr_fn };

		if ((ret = html_calls_write(out, &cc)))
			return ret;
	}
	if (x->callsites && !x->diff) {
		struct html_sites_ctx sc = { .x = x, .new_of = sh->new_of };

		if ((ret = html_sites_write(out, &sc)))
			return ret;
	}
	if (html_errors_any(x)) {
		struct html_errors_ctx ec = { .x = x, .new_of = sh->new_of, .edge = sh->edge,
					      .nr_edge = sh->nr_edge };

		html_errors_write(out, &ec);
	}
	return 0;
}

/* The page's data object: what explorer.html draws. Returns 0 or -ENOMEM. */
static int write_data(FILE *out, const struct kmag_explore *x)
{
	size_t nn = x->diff ? kmag_cgdiff_nr_funcs(x->diff) : kmag_cg_nr_nodes(x->cg);
	size_t ne = x->diff ? kmag_cgdiff_nr_edges(x->diff) : kmag_cg_nr_edges(x->cg);
	bool has_time = x->diff ? kmag_cgdiff_has_time(x->diff) : kmag_cg_summary(x->cg)->has_time;
	bool sources = x->srcline || x->srcline_a;
	struct files files = { .index = kmag_symtab_new() };
	long *file_of = malloc((nn + 1) * sizeof(*file_of));
	uint32_t *line_of = malloc((nn + 1) * sizeof(*line_of));
	struct shown sh = { 0 };
	size_t i;
	int ret = 0;

	if (!files.index || !file_of || !line_of || pick_shown(x, nn, ne, &sh)) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < sh.nr_fn; i++) {
		bool in_a;
		kmag_func_t id;
		const char *label = NULL;

		func_name(x, sh.fn[i], &id, &in_a);
		if (id != KMAG_FUNC_NONE && in_a && x->srcline_a)
			label = x->srcline_a(x->srcline_a_ctx, id);
		else if (id != KMAG_FUNC_NONE && !in_a && x->srcline)
			label = x->srcline(x->srcline_ctx, id);
		file_of[i] = source_of(&files, label, &line_of[i]);
		if (file_of[i] == -2) {
			ret = -ENOMEM;
			goto out;
		}
	}
	put_facts(out, x, &files, nn, has_time, sources);
	if ((ret = put_functions(out, x, &sh, file_of, line_of, has_time, sources)))
		goto out;
	put_edges(out, x, &sh);
	if ((ret = put_extras(out, x, &sh)))
		goto out;
	fputs("}", out);
out:
	kmag_symtab_free(files.index);
	free(files.names);
	free(file_of);
	free(line_of);
	free(sh.fn);
	free(sh.new_of);
	free(sh.edge);
	return ret;
}

static void page_title(char *buf, size_t len, const struct kmag_explore *x)
{
	const char *base_b = x->input ? strrchr(x->input, '/') : NULL;
	const char *base_a = x->input_a ? strrchr(x->input_a, '/') : NULL;

	base_b = base_b ? base_b + 1 : x->input ? x->input : "trace";
	base_a = base_a ? base_a + 1 : x->input_a ? x->input_a : "A";
	if (x->title)
		snprintf(buf, len, "%s", x->title);
	else if (x->diff)
		snprintf(buf, len, "kmag diff: %s → %s", base_a, base_b);
	else
		snprintf(buf, len, "kmag explorer: %s", base_b);
}

int kmag_explore_html(FILE *out, const struct kmag_explore *x)
{
	const char *t = kmag_asset_explorer_html, *end = t + kmag_asset_explorer_html_len;
	char title[1024];
	int ret = 0;

	if ((!x->diff && (!x->cg || !x->st)) || !x->info)
		return -EINVAL;
	page_title(title, sizeof(title), x);
	while (t < end && !ret) {
		const char *m = strstr(t, "{{"), *close;
		size_t key;

		if (!m || !(close = strstr(m, "}}"))) {
			render_fput_bytes(out, t, (size_t)(end - t));
			break;
		}
		render_fput_bytes(out, t, (size_t)(m - t));
		key = (size_t)(close - m - 2);
		if (key == 5 && !strncmp(m + 2, "TITLE", 5))
			render_fput_xml(out, title);
		else if (key == 3 && !strncmp(m + 2, "CSS", 3))
			render_fput_bytes(out, kmag_asset_explorer_css,
					  kmag_asset_explorer_css_len);
		else if (key == 2 && !strncmp(m + 2, "JS", 2)) {
			render_fput_bytes(out, kmag_asset_explorer_graph_js,
					  kmag_asset_explorer_graph_js_len);
			render_fput_bytes(out, kmag_asset_explorer_calls_js,
					  kmag_asset_explorer_calls_js_len);
			render_fput_bytes(out, kmag_asset_explorer_errors_js,
					  kmag_asset_explorer_errors_js_len);
			render_fput_bytes(out, kmag_asset_explorer_sites_js,
					  kmag_asset_explorer_sites_js_len);
			render_fput_bytes(out, kmag_asset_explorer_js, kmag_asset_explorer_js_len);
		} else if (key == 4 && !strncmp(m + 2, "DATA", 4))
			ret = write_data(out, x);
		else
			render_fput_bytes(out, m, (size_t)(close + 2 - m));	/* not ours */
		t = close + 2;
	}
	return ret ? ret : render_status(out);
}

/* The page written to @path through kmag_outfile (replaced atomically). */
static int explore_html_path(const char *path, const struct kmag_explore *x, struct kmag_err *err)
{
	struct kmag_outfile *o;
	int ret;
	FILE *f = render_out_open(path, &o, &ret, err);

	if (!f)
		return ret;
	ret = kmag_explore_html(f, x);
	if (ret == -ENOMEM) {
		kmag_outfile_abort(o);
		return kmag_err_set(err, ENOMEM, "out of memory while writing %s", path);
	}
	if (ret) {
		/* the stream knows the cause */
		ret = kmag_outfile_close(o, err);
		kmag_outfile_abort(o);
		return ret ? ret : kmag_err_set(err, -ret, "cannot write %s: %s", path, strerror(-ret));
	}
	return kmag_outfile_commit(o, err);
}

/* The view hides a function for its focus, call counts or path filter (not for pruning). */
static bool view_keeps(void *ctx, kmag_func_t func)
{
	const struct kmag_graph_doc *doc = ctx;
	long node = kmag_cg_node_index(doc->cg, func);
	enum kmag_cgview_hide why;

	if (node < 0)
		return false;
	why = kmag_cgview_hidden(doc->view, (uint32_t)node);
	return why == KMAG_HIDE_NONE || why == KMAG_HIDE_PRUNED;
}

int kmag_render_explorer(const struct kmag_graph_doc *doc, const char *path, const char *format,
			 struct kmag_err *err)
{
	struct kmag_explore x = {
		.cg = doc->cg, .st = doc->st, .info = doc->info, .input = doc->input,
		.filters = doc->filters, .srcline = doc->srcline, .srcline_ctx = doc->srcline_ctx,
		.probe_hits = doc->probe_hits, .probe_hits_ctx = doc->probe_hits_ctx,
		.errors = doc->errors, .errors_types = doc->errors_types,
	};

	(void)format;
	if (!doc->info)
		return kmag_err_set(err, EINVAL, "the explorer page needs the trace's facts");
	if (doc->view) {
		x.visible = view_keeps;
		x.visible_ctx = (void *)doc;
	}
	return explore_html_path(path, &x, err);
}
