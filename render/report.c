// SPDX-License-Identifier: MIT
/*
 * report.c - text, JSON and CSV renderings of a call-graph report.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kmag/render/report.h"
#include "kmag/report.h"
#include "render-util.h"

/* Whether the row of @node passes the report's row filter. */
static bool listed_node(const struct kmag_report *r, uint32_t node)
{
	return !r->visible || r->visible(r->visible_ctx, kmag_cg_nodes(r->cg)[node].func);
}

static const char *name_of(const struct kmag_report *r, uint32_t node)
{
	const char *s = kmag_symtab_name(r->st, kmag_cg_nodes(r->cg)[node].func);

	return s ? s : "?";
}

/*
 * The edges of --callers/--callees (r->focus) whose other end is listed,
 * sorted by the report key: an array of @count edge indices (free() it), @all
 * before the path filter. NULL when out of memory. Text and CSV share it.
 */
static uint32_t *focus_edges(const struct kmag_report *r, uint32_t *count, uint32_t *all)
{
	const struct kmag_cg_edge *edges = kmag_cg_edges(r->cg);
	const struct kmag_cg_node *f = &kmag_cg_nodes(r->cg)[r->focus];
	const uint32_t *list = r->callers ? kmag_cg_in_edges(r->cg) : kmag_cg_out_edges(r->cg);
	uint32_t first = r->callers ? f->in_first : f->out_first;
	uint32_t n = r->callers ? f->in_count : f->out_count;
	uint32_t *idx = malloc((n + 1) * sizeof(*idx)), j, k;

	if (!idx)
		return NULL;
	for (j = 0, k = 0; j < n; j++) {
		const struct kmag_cg_edge *e = &edges[list[first + j]];

		if (listed_node(r, r->callers ? e->caller : e->callee))
			idx[k++] = list[first + j];
	}
	*all = n;
	*count = k;
	/* sort the edges by the report key (insertion sort: lists are short) */
	for (j = 1; j < *count; j++)
		for (k = j; k > 0 && kmag_stats_value(&edges[idx[k]].st, r->sort) >
					     kmag_stats_value(&edges[idx[k - 1]].st, r->sort);
		     k--) {
			uint32_t t = idx[k];

			idx[k] = idx[k - 1];
			idx[k - 1] = t;
		}
	return idx;
}

static void put_u64(FILE *out, uint64_t v)
{
	fprintf(out, "%" PRIu64, v);
}


/* A profile's recordings, for the header: "# events:  N in 3 recordings: a.dat, b.dat, c.json" */
static void profile_sources(FILE *out, const struct kmag_trace_info *info, const char *events)
{
	size_t i;

	fprintf(out, "# events:  %s in %zu recording%s", events, info->nr_sources,
		info->nr_sources == 1 ? "" : "s");
	for (i = 0; i < info->nr_sources && i < 8; i++) {
		fputs(i ? ", " : ": ", out);
		render_fput_text(out, info->sources[i].name);
	}
	if (i < info->nr_sources)
		fprintf(out, " and %zu more", info->nr_sources - i);
}

/* The release of @src's kernel (the uname's third word) into @buf, "unknown" without one. */
static const char *release_of(const struct kmag_trace_source *src, char *buf)
{
	if (!src->uname || sscanf(src->uname, "%*s %*s %127s", buf) != 1)
		strcpy(buf, "unknown");
	return buf;
}

/* A profile of recordings from several kernels: "# kernels: 6.1.0-56-amd64 (2 recordings), ..." */
static void profile_kernels(FILE *out, const struct kmag_trace_info *info)
{
	char a[128], b[128];
	size_t i, j, n;
	bool seen;

	fputs("# kernels:", out);
	for (i = 0; i < info->nr_sources; i++) {
		release_of(&info->sources[i], a);
		for (j = 0, seen = false; j < i && !seen; j++)
			seen = !strcmp(a, release_of(&info->sources[j], b));
		if (seen)
			continue;
		for (j = i, n = 0; j < info->nr_sources; j++)
			n += !strcmp(a, release_of(&info->sources[j], b));
		fputs(i ? ", " : " ", out);
		render_fput_text(out, a);
		fprintf(out, " (%zu recording%s)", n, n == 1 ? "" : "s");
	}
	fputc('\n', out);
}

/* "# input:", "# kernel:" and "# events:" lines: what was read. */
static void header_input(FILE *out, const struct kmag_trace_info *info)
{
	char a[64];
	int i;

	fprintf(out, "# input:   %s", kmag_input_format_name(info->format));
	if (info->file_version)
		fprintf(out, " v%d", info->file_version);
	if (info->compression && strcmp(info->compression, "none"))
		fprintf(out, " (%s)", info->compression);
	fprintf(out, ", tracer %s", kmag_tracer_name(info->tracer));
	if (info->clock) {
		fputs(", clock ", out);
		render_fput_text(out, info->clock);
	}
	fputc('\n', out);
	if (info->uname) {
		fputs("# kernel:  ", out);
		render_fput_text(out, info->uname);
		fputc('\n', out);
	}
	else if (info->format == KMAG_INPUT_PROFILE && info->nr_sources)
		profile_kernels(out, info);
	kmag_fmt_count(a, sizeof(a), info->events);
	if (info->format == KMAG_INPUT_PROFILE)
		profile_sources(out, info, a);
	else
		fprintf(out, "# events:  %s on %d CPU%s", a, info->nr_cpus,
			info->nr_cpus == 1 ? "" : "s");
	if (info->nr_cpus > 1 && info->nr_cpus <= 64) {
		fputs(" (", out);
		for (i = 0; i < info->nr_cpus; i++) {
			kmag_fmt_count(a, sizeof(a), info->cpus[i].events);
			fprintf(out, "%sCPU%d %s", i ? ", " : "", i, a);
		}
		fputc(')', out);
	}
	fputc('\n', out);
}

/* "# lost:" lines: per CPU, overwritten before reading, or none. */
static void header_lost(FILE *out, const struct kmag_trace_info *info)
{
	char a[64];
	int i, shown = 0;

	for (i = 0; i < info->nr_cpus; i++) {
		const struct kmag_cpu_info *ci = &info->cpus[i];
		uint64_t stat = ci->stat_overrun + ci->stat_commit_overrun + ci->stat_dropped;
		uint64_t lost = ci->has_stats && stat >= ci->lost ? stat : ci->lost;

		if (!lost && !ci->lost_markers)
			continue;
		fprintf(out, "# lost:    CPU%d: ", i);
		if (lost) {
			kmag_fmt_count(a, sizeof(a), lost);
			fprintf(out, "%s events lost (%.1f%%)", a,
				100.0 * (double)lost / (double)(lost + ci->events));
		} else {
			fputs("events lost (count unknown)", out);
		}
		if (ci->lost_markers)
			fprintf(out, ", %u gap%s in the data", ci->lost_markers,
				ci->lost_markers == 1 ? "" : "s");
		fputc('\n', out);
		shown++;
	}
	if (info->lost_unattributed) {
		kmag_fmt_count(a, sizeof(a), info->lost_unattributed);
		fprintf(out, "# lost:    %s events overwritten before the trace was read (%.1f%%)\n", a,
			100.0 * (double)info->lost_unattributed /
				(double)(info->lost_unattributed + info->events));
		shown++;
	}
	if (!shown)
		fputs("# lost:    none\n", out);
}

/* "# other:" line: the events that are no function calls, by name. */
static void header_other(FILE *out, const struct kmag_cg *cg)
{
	const struct kmag_cg_event_count *ec = kmag_cg_event_counts(cg);
	size_t k, n = kmag_cg_nr_event_counts(cg);
	char a[64];

	if (!n)
		return;
	fputs("# other:  ", out);
	for (k = 0; k < n && k < 12; k++) {
		kmag_fmt_count(a, sizeof(a), ec[k].count);
		/* event names come from the trace: escaped as function names are */
		fputs(k ? ", " : " ", out);
		if (ec[k].system) {
			render_fput_text(out, ec[k].system);
			fputc(':', out);
		}
		render_fput_text(out, ec[k].name);
		fprintf(out, " %s", a);
	}
	if (n > 12)
		fprintf(out, ", ... (%zu event types)", n);
	fputc('\n', out);
}

static void header(FILE *out, const struct kmag_report *r)
{
	const struct kmag_trace_info *info = r->info;
	const struct kmag_cg_summary *sum = kmag_cg_summary(r->cg);
	char a[64], b[64];

	/* the file's path and what the trace.dat says (uname, clock): any bytes */
	fputs("# kmag report: ", out);
	render_fput_text(out, r->input ? r->input : "-");
	fputc('\n', out);
	header_input(out, info);
	header_lost(out, info);
	if (info->first_ts != KMAG_TS_NONE && info->last_ts != KMAG_TS_NONE)
		fprintf(out, "# time:    %.6f .. %.6f s (%s)\n", (double)info->first_ts / 1e9,
			(double)info->last_ts / 1e9,
			kmag_format_duration(b, sizeof(b), info->last_ts - info->first_ts));
	if (r->filters && *r->filters) {
		fputs("# filters: ", out);
		render_fput_text(out, r->filters);
		fputc('\n', out);
	}
	if (r->times && *r->times)
		fprintf(out, "# %s\n", r->times);
	kmag_fmt_count(a, sizeof(a), sum->incomplete_calls);
	fprintf(out, "# graph:   %zu functions, %zu call edges, %s incomplete calls%s\n",
		kmag_cg_nr_nodes(r->cg), kmag_cg_nr_edges(r->cg), a,
		info->tracer == KMAG_TRACER_FUNCTION ?
			" (function tracer: callers only, no durations)" : "");
	header_other(out, r->cg);
	fputs("#\n", out);
}

static void time_cell(FILE *out, const struct kmag_cg_stats *st, enum kmag_sort_key key, bool has_time)
{
	char buf[32];

	if (!has_time || !st->timed)
		fprintf(out, " %11s", "-");
	else
		fprintf(out, " %11s", kmag_format_duration(buf, sizeof(buf), kmag_stats_value(st, key)));
}

/* The fifth column: the longest call, or the shortest when the table is sorted by it. */
static enum kmag_sort_key extreme_column(const struct kmag_report *r)
{
	return r->sort == KMAG_SORT_MIN ? KMAG_SORT_MIN : KMAG_SORT_MAX;
}

static const char *extreme_label(const struct kmag_report *r)
{
	return extreme_column(r) == KMAG_SORT_MIN ? "Min" : "Max";
}

static void row(FILE *out, const struct kmag_report *r, const struct kmag_cg_stats *st,
		const char *name, kmag_func_t func, bool has_time)
{
	fprintf(out, "%11" PRIu64, st->calls);
	time_cell(out, st, KMAG_SORT_TOTAL, has_time);
	time_cell(out, st, KMAG_SORT_SELF, has_time);
	time_cell(out, st, KMAG_SORT_AVG, has_time);
	time_cell(out, st, extreme_column(r), has_time);
	fprintf(out, " %6" PRIu64 "  ", st->incomplete);
	render_fput_text(out, name);
	if (r->srcline && func != KMAG_FUNC_NONE) {
		const char *loc = r->srcline(r->srcline_ctx, func);

		if (loc) {
			fputs("  [", out);
			render_fput_text(out, loc);
			fputc(']', out);
		}
	}
	if (r->probe_hits && func != KMAG_FUNC_NONE) {
		uint64_t hits = r->probe_hits(r->probe_hits_ctx, func);

		if (hits)
			fprintf(out, "  {probe: %" PRIu64 " hit%s}", hits, hits == 1 ? "" : "s");
	}
	fputc('\n', out);
}

int kmag_report_text(FILE *out, const struct kmag_report *r)
{
	const struct kmag_cg_node *nodes = kmag_cg_nodes(r->cg);
	const struct kmag_cg_edge *edges = kmag_cg_edges(r->cg);
	bool has_time = kmag_cg_summary(r->cg)->has_time;
	size_t n = kmag_cg_nr_nodes(r->cg), i, shown, total;
	uint32_t *order;

	header(out, r);
	if (r->focus >= 0) {
		const struct kmag_cg_node *f = &nodes[r->focus];
		uint32_t all, count, j, *idx = focus_edges(r, &count, &all);

		if (!idx)
			return -ENOMEM;
		fprintf(out, "# %s of ", r->callers ? "callers" : "callees");
		render_fput_text(out, name_of(r, (uint32_t)r->focus));
		fprintf(out, " (%" PRIu64 " calls in all)\n#\n", f->st.calls);
		fprintf(out, "#%10s %11s %11s %11s %11s %6s  %s\n", "Calls", "Total", "Self", "Avg",
			extreme_label(r), "Incmpl", r->callers ? "Caller" : "Callee");
		for (j = 0; j < count && (!r->limit || j < r->limit); j++) {
			const struct kmag_cg_edge *e = &edges[idx[j]];
			uint32_t other = r->callers ? e->caller : e->callee;
			char label[512];

			snprintf(label, sizeof(label), "%s%s", name_of(r, other),
				 e->flags & KMAG_EDGE_IRQ ? "  (interrupt)" : "");
			row(out, r, &e->st, label, nodes[other].func, has_time);
			if (r->call_sites && r->call_sites(r->call_sites_ctx, nodes[e->caller].func,
							   nodes[e->callee].func, label, sizeof(label))) {
				fprintf(out, "#%67s called from ", "");
				render_fput_text(out, label);	/* DWARF's file names */
				fputc('\n', out);
			}
		}
		/* the cut is said, as in the functions table */
		if (r->limit && count > r->limit)
			fprintf(out, "# ... %" PRIu64 " more %s (use --limit 0 to see all)\n",
				(uint64_t)(count - r->limit), r->callers ? "callers" : "callees");
		if (!count && all)
			fprintf(out, "# (none of the %u %s passes the filters)\n", all,
				r->callers ? "callers" : "callees");
		else if (!count)
			fprintf(out, "# (none: %s\n", r->callers ?
				"no caller was seen; it ran at the top of a traced stack)" :
				"it called no traced function)");
		free(idx);
		return ferror(out) ? -EIO : 0;
	}
	order = kmag_cg_sorted_nodes(r->cg, r->st, r->sort);
	if (!order)
		return -ENOMEM;
	fprintf(out, "#%10s %11s %11s %11s %11s %6s  %s\n", "Calls", "Total", "Self", "Avg",
		extreme_label(r), "Incmpl", "Function");
	for (i = 0, shown = 0, total = 0; i < n; i++) {
		const struct kmag_cg_node *nd = &nodes[order[i]];

		if (!listed_node(r, order[i]))
			continue;
		total++;
		if (r->limit && shown >= r->limit)
			continue;
		row(out, r, &nd->st, name_of(r, order[i]), nd->func, has_time);
		shown++;
	}
	if (total > shown)
		fprintf(out, "# ... %zu more functions (use --limit 0 to see all)\n", total - shown);
	free(order);
	return ferror(out) ? -EIO : 0;
}

static void json_time(FILE *out, const char *key, const struct kmag_cg_stats *st,
		      enum kmag_sort_key k, bool has_time)
{
	fprintf(out, ", \"%s\": ", key);
	if (!has_time || !st->timed)
		fputs("null", out);
	else
		put_u64(out, kmag_stats_value(st, k));
}

/* The nearest-rank percentiles the JSON and CSV give per function (include/kmag/dist.h). */
static const struct {
	const char *key;
	double p;
} pcts[] = { { "p50_ns", 50 }, { "p90_ns", 90 }, { "p99_ns", 99 } };

static void json_percentiles(FILE *out, const struct kmag_dist *d)
{
	size_t k;

	for (k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
		fprintf(out, ", \"%s\": ", pcts[k].key);
		if (d)
			put_u64(out, kmag_dist_percentile(d, pcts[k].p));
		else
			fputs("null", out);
	}
	if (d)
		fprintf(out, ", \"percentiles_exact\": %s", kmag_dist_exact(d) ? "true" : "false");
}

static void json_function(FILE *out, const struct kmag_report *r, uint32_t node, bool has_time)
{
	const struct kmag_cg_node *nd = &kmag_cg_nodes(r->cg)[node];
	const char *mod = kmag_symtab_module(r->st, nd->func);

	fputs("{\"name\": ", out);
	kmag_fput_json_string(out, name_of(r, node));
	fprintf(out, ", \"calls\": %" PRIu64 ", \"timed\": %" PRIu64, nd->st.calls, nd->st.timed);
	json_time(out, "total_ns", &nd->st, KMAG_SORT_TOTAL, has_time);
	json_time(out, "self_ns", &nd->st, KMAG_SORT_SELF, has_time);
	json_time(out, "avg_ns", &nd->st, KMAG_SORT_AVG, has_time);
	fputs(", \"sum_ns\": ", out);
	if (!has_time || !nd->st.timed)
		fputs("null", out);
	else
		put_u64(out, nd->st.sum_ns);
	json_time(out, "min_ns", &nd->st, KMAG_SORT_MIN, has_time);
	json_time(out, "max_ns", &nd->st, KMAG_SORT_MAX, has_time);
	json_percentiles(out, has_time ? kmag_cg_node_dist(r->cg, node) : NULL);
	fprintf(out, ", \"incomplete\": %" PRIu64, nd->st.incomplete);
	if (r->probe_hits) {
		uint64_t hits = r->probe_hits(r->probe_hits_ctx, nd->func);

		if (hits)
			fprintf(out, ", \"probe_hits\": %" PRIu64, hits);
	}
	if (mod) {
		fputs(", \"module\": ", out);
		kmag_fput_json_string(out, mod);
	}
	if (r->srcline) {
		const char *loc = r->srcline(r->srcline_ctx, nd->func);

		fputs(", \"source\": ", out);
		if (loc)
			kmag_fput_json_string(out, loc);
		else
			fputs("null", out);
	}
	fputc('}', out);
}

static void json_edge(FILE *out, const struct kmag_report *r, const struct kmag_cg_edge *e,
		      bool has_time)
{
	fputs("{\"caller\": ", out);
	kmag_fput_json_string(out, name_of(r, e->caller));
	fputs(", \"callee\": ", out);
	kmag_fput_json_string(out, name_of(r, e->callee));
	fprintf(out, ", \"calls\": %" PRIu64 ", \"timed\": %" PRIu64, e->st.calls, e->st.timed);
	json_time(out, "total_ns", &e->st, KMAG_SORT_TOTAL, has_time);
	json_time(out, "self_ns", &e->st, KMAG_SORT_SELF, has_time);
	json_time(out, "min_ns", &e->st, KMAG_SORT_MIN, has_time);
	json_time(out, "max_ns", &e->st, KMAG_SORT_MAX, has_time);
	fprintf(out, ", \"incomplete\": %" PRIu64 ", \"interrupt\": %s", e->st.incomplete,
		e->flags & KMAG_EDGE_IRQ ? "true" : "false");
	if (r->call_sites && r->focus >= 0) {
		const struct kmag_cg_node *nodes = kmag_cg_nodes(r->cg);
		char sites[1024];

		if (r->call_sites(r->call_sites_ctx, nodes[e->caller].func, nodes[e->callee].func,
				  sites, sizeof(sites))) {
			fputs(", \"call_sites\": ", out);
			kmag_fput_json_string(out, sites);
		}
	}
	fputs("}", out);
}

static void json_str_or_null(FILE *out, const char *s)
{
	if (s)
		kmag_fput_json_string(out, s);
	else
		fputs("null", out);
}

static void json_source(FILE *out, const struct kmag_trace_source *src)
{
	char rel[128];

	fputs("{\"name\": ", out);
	kmag_fput_json_string(out, src->name);
	fputs(", \"kernel\": ", out);
	/* the release, the uname's third word ("Linux host 6.1.0-56-amd64 x86_64") */
	json_str_or_null(out, src->uname && sscanf(src->uname, "%*s %*s %127s", rel) == 1 ? rel : NULL);
	fputs(", \"uname\": ", out);
	json_str_or_null(out, src->uname);
	fputs(", \"tracer\": ", out);
	json_str_or_null(out, src->tracer);
	fprintf(out, ", \"events\": %" PRIu64 ", \"lost_events\": %" PRIu64 ", \"calls\": %" PRIu64
		     ", \"tracer_cost_ns\": %" PRIu64 "}",
		src->events, src->lost, src->calls, src->tracer_cost_ns);
}

/*
 * What makes the JSON a profile that report, merge, visualize, html and diff
 * read back (lib/trace/input-profile.c): the version, whether every function
 * is listed, and the recordings summed into it (a trace: itself).
 */
static void json_profile_fields(FILE *out, const struct kmag_report *r)
{
	const struct kmag_trace_info *info = r->info;
	const struct kmag_cg_node *nodes = kmag_cg_nodes(r->cg);
	size_t n = kmag_cg_nr_nodes(r->cg), listed = 0, i;
	struct kmag_trace_source self = { .name = r->input ? r->input : "-", .uname = info->uname,
					  .tracer = kmag_tracer_name(info->tracer),
					  .events = info->events, .lost = info->lost,
					  .tracer_cost_ns = r->tracer_cost_ns };

	for (i = 0; i < n; i++) {
		listed += listed_node(r, (uint32_t)i);
		self.calls += nodes[i].st.calls;
	}
	fprintf(out, ", \"complete\": %s, \"sources\": [",
		r->focus < 0 && (!r->limit || listed <= r->limit) ? "true" : "false");
	if (!info->nr_sources)
		json_source(out, &self);
	for (i = 0; i < info->nr_sources; i++) {
		fputs(i ? ", " : "", out);
		json_source(out, &info->sources[i]);
	}
	fputc(']', out);
}

/* The CPUs of a report's JSON: events, lost events and gaps, the recorder's counters. */
static void json_cpus(FILE *out, const struct kmag_trace_info *info)
{
	int c;

	fputs(", \"cpus\": [", out);
	for (c = 0; c < info->nr_cpus; c++) {
		const struct kmag_cpu_info *ci = &info->cpus[c];
		uint64_t stat = ci->stat_overrun + ci->stat_commit_overrun + ci->stat_dropped;

		fprintf(out, "%s{\"cpu\": %d, \"events\": %" PRIu64 ", \"lost\": %" PRIu64
			     ", \"gaps\": %u",
			c ? ", " : "", c, ci->events,
			ci->has_stats && stat >= ci->lost ? stat : ci->lost, ci->lost_markers);
		if (ci->has_stats)
			fprintf(out, ", \"overrun\": %" PRIu64 ", \"commit_overrun\": %" PRIu64
				     ", \"dropped\": %" PRIu64,
				ci->stat_overrun, ci->stat_commit_overrun, ci->stat_dropped);
		fputc('}', out);
	}
	fputc(']', out);
}

/* A timestamp member's value: the number, or null when unknown. */
static void json_ts(FILE *out, const char *key, uint64_t ts)
{
	fputs(key, out);
	if (ts != KMAG_TS_NONE)
		put_u64(out, ts);
	else
		fputs("null", out);
}

/* What a report's JSON says of the trace before its functions. */
static void json_trace(FILE *out, const struct kmag_report *r)
{
	const struct kmag_trace_info *info = r->info;
	const struct kmag_cg_summary *sum = kmag_cg_summary(r->cg);
	size_t i;

	fputs("{\"input\": ", out);
	kmag_fput_json_string(out, r->input);
	fputs(", \"format\": ", out);
	kmag_fput_json_string(out, kmag_input_format_name(info->format));
	fputs(", \"tracer\": ", out);
	kmag_fput_json_string(out, kmag_tracer_name(info->tracer));
	fputs(", \"kmag_profile\": 1, \"uname\": ", out);
	json_str_or_null(out, info->uname);
	fprintf(out, ", \"has_time\": %s, \"has_stacks\": %s", sum->has_time ? "true" : "false",
		sum->has_stacks ? "true" : "false");
	fprintf(out, ", \"events\": %" PRIu64 ", \"lost_events\": %" PRIu64
		     ", \"lost_events_unknown\": %s",
		info->events, info->lost, info->lost_unknown ? "true" : "false");
	json_cpus(out, info);
	json_ts(out, ", \"time_start_ns\": ", info->first_ts);
	json_ts(out, ", \"time_end_ns\": ", info->last_ts);
	fputs(", \"filters\": ", out);
	kmag_fput_json_string(out, r->filters ? r->filters : "");
	/* the durations are the kernel's less this per traced call beneath (0: the kernel's) */
	fprintf(out, ", \"tracer_cost_ns\": %" PRIu64, r->tracer_cost_ns);
	fprintf(out, ", \"incomplete_calls\": %" PRIu64 ", \"unmatched_exits\": %" PRIu64,
		sum->incomplete_calls, sum->unmatched_exits);
	fputs(", \"other_events\": [", out);
	for (i = 0; i < kmag_cg_nr_event_counts(r->cg); i++) {
		const struct kmag_cg_event_count *ec = &kmag_cg_event_counts(r->cg)[i];

		fputs(i ? ", {\"system\": " : "{\"system\": ", out);
		json_str_or_null(out, ec->system);
		fputs(", \"name\": ", out);
		kmag_fput_json_string(out, ec->name);
		fprintf(out, ", \"count\": %" PRIu64 "}", ec->count);
	}
	fputc(']', out);
	json_profile_fields(out, r);
}

/* The focus's callers or callees as functions, each marked in @listed. */
static void json_focus_functions(FILE *out, const struct kmag_report *r, unsigned char *listed)
{
	const struct kmag_cg_node *f = &kmag_cg_nodes(r->cg)[r->focus];
	const struct kmag_cg_edge *edges = kmag_cg_edges(r->cg);
	const uint32_t *list = r->callers ? kmag_cg_in_edges(r->cg) : kmag_cg_out_edges(r->cg);
	uint32_t first = r->callers ? f->in_first : f->out_first;
	uint32_t count = r->callers ? f->in_count : f->out_count, j;
	bool has_time = kmag_cg_summary(r->cg)->has_time;
	size_t shown = 0;

	for (j = 0; j < count && (!r->limit || j < r->limit); j++) {
		const struct kmag_cg_edge *e = &edges[list[first + j]];
		uint32_t other = r->callers ? e->caller : e->callee;

		if (listed[other] || !listed_node(r, other))
			continue;
		listed[other] = 1;
		fputs(shown++ ? ", " : "", out);
		json_function(out, r, other, has_time);
	}
}

/* The functions in the sort order, up to the limit, each marked in @listed. 0 or -ENOMEM. */
static int json_sorted_functions(FILE *out, const struct kmag_report *r, unsigned char *listed)
{
	uint32_t *order = kmag_cg_sorted_nodes(r->cg, r->st, r->sort);
	size_t n = kmag_cg_nr_nodes(r->cg), i, shown = 0;
	bool has_time = kmag_cg_summary(r->cg)->has_time;

	if (!order)
		return -ENOMEM;
	for (i = 0; i < n && (!r->limit || shown < r->limit); i++) {
		if (!listed_node(r, order[i]))
			continue;
		fputs(shown++ ? ", " : "", out);
		json_function(out, r, order[i], has_time);
		listed[order[i]] = 1;
	}
	free(order);
	return 0;
}

/* The edges between listed functions (with a focus: its edges to them). */
static void json_edges(FILE *out, const struct kmag_report *r, const unsigned char *listed)
{
	const struct kmag_cg_edge *edges = kmag_cg_edges(r->cg);
	size_t ne = kmag_cg_nr_edges(r->cg), i, shown = 0;
	bool has_time = kmag_cg_summary(r->cg)->has_time;

	for (i = 0; i < ne; i++) {
		const struct kmag_cg_edge *e = &edges[i];

		if (r->focus >= 0) {
			if (r->callers ? (long)e->callee != r->focus : (long)e->caller != r->focus)
				continue;
			if (!listed[r->callers ? e->caller : e->callee])
				continue;
		} else if (!listed[e->caller] || !listed[e->callee]) {
			continue;
		}
		fputs(shown++ ? ", " : "", out);
		json_edge(out, r, e, has_time);
	}
}

int kmag_report_json(FILE *out, const struct kmag_report *r)
{
	unsigned char *listed = calloc(kmag_cg_nr_nodes(r->cg) + 1, 1);

	if (!listed)
		return -ENOMEM;
	json_trace(out, r);
	if (r->focus >= 0) {
		fprintf(out, ", \"focus_kind\": \"%s\", \"focus\": ", r->callers ? "callers" : "callees");
		json_function(out, r, (uint32_t)r->focus, kmag_cg_summary(r->cg)->has_time);
	}
	fputs(", \"functions\": [", out);
	if (r->focus >= 0) {
		json_focus_functions(out, r, listed);
	} else if (json_sorted_functions(out, r, listed)) {
		free(listed);
		return -ENOMEM;
	}
	fputs("], \"edges\": [", out);
	json_edges(out, r, listed);
	fputs("]}\n", out);
	free(listed);
	return ferror(out) ? -EIO : 0;
}

/*
 * --callers/--callees as CSV: the edges to or from the focus, one row each,
 * with the columns of `kmag export -F csv --table edges`.
 */
static int csv_focus(FILE *out, const struct kmag_report *r)
{
	const struct kmag_cg_edge *edges = kmag_cg_edges(r->cg);
	const struct kmag_cg_node *nodes = kmag_cg_nodes(r->cg);
	bool has_time = kmag_cg_summary(r->cg)->has_time;
	uint32_t all, count, j, *idx = focus_edges(r, &count, &all);
	static const enum kmag_sort_key cols[] = { KMAG_SORT_TOTAL, KMAG_SORT_SELF, KMAG_SORT_AVG,
						   KMAG_SORT_MIN, KMAG_SORT_MAX };
	size_t k;

	if (!idx)
		return -ENOMEM;
	fputs("caller,callee,calls,total_ns,self_ns,avg_ns,min_ns,max_ns,incomplete,interrupt,module", out);
	if (r->srcline)
		fputs(",source", out);
	fputc('\n', out);
	for (j = 0; j < count && (!r->limit || j < r->limit); j++) {
		const struct kmag_cg_edge *e = &edges[idx[j]];
		uint32_t other = r->callers ? e->caller : e->callee;

		kmag_fput_csv_field(out, name_of(r, e->caller));
		fputc(',', out);
		kmag_fput_csv_field(out, name_of(r, e->callee));
		fprintf(out, ",%" PRIu64, e->st.calls);
		for (k = 0; k < sizeof(cols) / sizeof(cols[0]); k++) {
			fputc(',', out);
			if (has_time && e->st.timed)
				put_u64(out, kmag_stats_value(&e->st, cols[k]));
		}
		fprintf(out, ",%" PRIu64 ",%d,", e->st.incomplete, e->flags & KMAG_EDGE_IRQ ? 1 : 0);
		/* module and source of the listed end, as the text report shows them */
		kmag_fput_csv_field(out, kmag_symtab_module(r->st, nodes[other].func));
		if (r->srcline) {
			fputc(',', out);
			kmag_fput_csv_field(out, r->srcline(r->srcline_ctx, nodes[other].func));
		}
		fputc('\n', out);
	}
	free(idx);
	return ferror(out) ? -EIO : 0;
}

int kmag_report_csv(FILE *out, const struct kmag_report *r)
{
	const struct kmag_cg_node *nodes = kmag_cg_nodes(r->cg);
	bool has_time = kmag_cg_summary(r->cg)->has_time;
	size_t n = kmag_cg_nr_nodes(r->cg), i, shown = 0;
	uint32_t *order = kmag_cg_sorted_nodes(r->cg, r->st, r->sort);
	static const enum kmag_sort_key cols[] = { KMAG_SORT_TOTAL, KMAG_SORT_SELF, KMAG_SORT_AVG,
						   KMAG_SORT_MIN, KMAG_SORT_MAX };

	if (!order)
		return -ENOMEM;
	if (r->focus >= 0) {
		free(order);
		return csv_focus(out, r);
	}
	fputs("function,calls,total_ns,self_ns,avg_ns,min_ns,max_ns,p50_ns,p90_ns,p99_ns,incomplete,"
	      "module", out);
	if (r->srcline)
		fputs(",source", out);
	fputc('\n', out);
	for (i = 0; i < n && (!r->limit || shown < r->limit); i++) {
		const struct kmag_cg_node *nd = &nodes[order[i]];
		const struct kmag_dist *d;
		size_t k;

		if (!listed_node(r, order[i]))
			continue;
		shown++;
		kmag_fput_csv_field(out, name_of(r, order[i]));
		fprintf(out, ",%" PRIu64, nd->st.calls);
		for (k = 0; k < sizeof(cols) / sizeof(cols[0]); k++) {
			fputc(',', out);
			if (has_time && nd->st.timed)
				put_u64(out, kmag_stats_value(&nd->st, cols[k]));
		}
		d = has_time ? kmag_cg_node_dist(r->cg, order[i]) : NULL;
		for (k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
			fputc(',', out);
			if (d)
				put_u64(out, kmag_dist_percentile(d, pcts[k].p));
		}
		fprintf(out, ",%" PRIu64 ",", nd->st.incomplete);
		kmag_fput_csv_field(out, kmag_symtab_module(r->st, nd->func));
		if (r->srcline) {
			fputc(',', out);
			kmag_fput_csv_field(out, r->srcline(r->srcline_ctx, nd->func));
		}
		fputc('\n', out);
	}
	free(order);
	return ferror(out) ? -EIO : 0;
}
