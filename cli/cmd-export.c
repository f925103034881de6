// SPDX-License-Identifier: MIT
/*
 * cmd-export.c - `kmag export`: a trace's calls in other tools' formats.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "kmag/render/export.h"
#include "kmag/flame.h"
#include "kmag/render/flame.h"
#include "kmag/render/report.h"
#include "kmag/report.h"

static const struct cli_command export_cmd = {
	.name = "export",
	.usage = "Usage: kmag export --format FMT [options] [FILE]\n"
		 "\n"
		 "Write the calls of a trace (default ./trace.dat) for other tools.\n"
		 "\n"
		 "Formats (-F, --format):\n"
		 "  folded    one \"outer;...;inner weight\" line per call stack (flamegraph.pl,\n"
		 "            speedscope, inferno); function_graph traces only\n"
		 "  chrome    every function_graph call as a Chrome trace event, one track per\n"
		 "            task: open it in the Perfetto UI (ui.perfetto.dev) or chrome://tracing\n"
		 "  perfetto  every function_graph call as a slice of a native Perfetto trace (one\n"
		 "            file of any size, with arguments, return values and call sites):\n"
		 "            ui.perfetto.dev, trace_processor\n"
		 "  pprof     a gzipped pprof profile: calls and self time per call stack\n"
		 "            (go tool pprof, Pyroscope, Parca); also of a profile (merge)\n"
		 "  csv       the functions table (or, with --table edges, every caller->callee edge)\n"
		 "  json      functions and edges with their statistics\n"
		 "  dot       the whole call graph as Graphviz DOT (render with dot -Tsvg)\n",
};

enum fmt { FMT_NONE, FMT_FOLDED, FMT_CHROME, FMT_CSV, FMT_JSON, FMT_DOT, FMT_PERFETTO, FMT_PPROF };

struct export_args {
	enum fmt fmt;
	const char *format;	/* -F, as given */
	const char *output;
	bool edges;
	int table;		/* functions, edges */
	int weight;		/* enum kmag_flame_weight: time, calls (their order) */
	uint64_t split_bytes;
	bool table_set, weight_set, split_set;	/* given on the command line */
	struct kmag_session_opts so;
};

/* "200" (MB), "512K", "1.5G" -> bytes; false on junk. */
static bool parse_size(const char *arg, uint64_t *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (!*arg || errno || v < 0 || arg[0] == '-')
		return false;
	switch (*end) {
	case 'k': case 'K':
		v *= 1024;
		end++;
		break;
	case '\0': case 'm': case 'M':
		v *= 1024 * 1024;
		end += *end != '\0';
		break;
	case 'g': case 'G':
		v *= 1024.0 * 1024 * 1024;
		end++;
		break;
	default:
		return false;
	}
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end || v > 1e15)
		return false;
	*out = (uint64_t)v;
	return true;
}

static int parse_split(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	uint64_t *bytes = value;

	(void)o;
	if (!parse_size(arg, bytes))
		return cli_usage_error(cmd, "--split-size expects a size like 200, 512K or 1G, got \"%s\"",
				       arg);
	if (*bytes && *bytes < 4096)
		return cli_usage_error(cmd, "--split-size must be at least 4K");
	return 0;
}

#define CLI_ARGS struct export_args
static const struct cli_option export_options[] = {
	CLI_SECTION("\nOptions:\n"),
	CLI_FORMAT("FMT", format, "folded,chrome,perfetto,pprof,csv,json,dot",
		   "one of the formats above"),
	CLI_STRING('o', "output", "PATH", output,
		   "output file (default: standard output); without -F,\n"
		   "a name ending .csv, .json, .dot, .folded, .pftrace\n"
		   "or .pb.gz picks the format (.json: json)"),
	CLI_CHOICE_GIVEN(0, "table", "functions|edges", table, "functions,edges", "table",
			 table_set, "what csv writes (default functions)"),
	CLI_CHOICE_GIVEN('w', "weight", "time|calls", weight, "time,calls", "weight", weight_set,
			 "folded: weight of a stack (default time)"),
	CLI_OPTION_GIVEN(0, "split-size", "SIZE", parse_split, split_bytes, uint64_t *, split_set,
			 "chrome: start a new file (PATH.1.json, ...) past SIZE\n"
			 "(megabytes, or with a K/M/G suffix), so each part\n"
			 "loads in the viewers (default 200M; 0 = one file)"),
	CLI_BTF_OPTION(so, "perfetto: the kernel's BTF (default: the trace's own),\n"
			   "to name the arguments"),
	CLI_VMLINUX_OPTION(so.vmlinux, "perfetto, pprof: the kernel's vmlinux with DWARF: call\n"
				       "sites' and functions' source lines"),
	CLI_SYMMAP_OPTIONS(so),
	CLI_SECTION("  (csv, json and dot; pprof takes --symbol-file-path)\n"),
	CLI_INPUT_OPTIONS(so),
	CLI_SECTION("\n"),
	CLI_HELP_OPTION,
	CLI_END,
};
#undef CLI_ARGS

static int parse_args(int argc, char **argv, struct export_args *a)
{
	static const char *const names[] = { "", "folded", "chrome", "csv", "json", "dot",
					     "perfetto", "pprof" };
	const char *fmt;
	int ret = cli_parse(&export_cmd, argc, argv, export_options, a);
	size_t i;

	if (ret)
		return ret;
	if ((ret = cli_input_arg("export", argc, argv, &a->so.path)))
		return ret;
	/* the output's name and the format agree (cli/formats.c) */
	fmt = a->format;
	a->edges = a->table == 1;
	if ((ret = cli_output_format("export", a->output, "folded,chrome,perfetto,pprof,csv,json,dot",
				     &fmt)))
		return ret;
	for (i = 1; fmt && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(fmt, names[i]))
			a->fmt = (enum fmt)i;
	if (a->fmt == FMT_NONE)
		return cli_usage_error("export", "choose a format with --format (folded, chrome, perfetto, pprof, csv, json or dot)");
	/* which formats each option works with: cli/formats.c */
	if ((a->table_set && (ret = cli_format_check("export", "--table", names[a->fmt]))) ||
	    (a->weight_set && (ret = cli_format_check("export", "--weight", names[a->fmt]))) ||
	    (a->split_set && (ret = cli_format_check("export", "--split-size", names[a->fmt]))) ||
	    (a->so.vmlinux && (ret = cli_format_check("export", "--vmlinux", names[a->fmt]))) ||
	    (a->so.btf_path && (ret = cli_format_check("export", "--btf", names[a->fmt]))) ||
	    (a->so.filter_filepath &&
	     (ret = cli_format_check("export", "--filter-filepath", names[a->fmt]))) ||
	    (a->so.symbol_map && (ret = cli_format_check("export", "--symbol-file-path", names[a->fmt]))))
		return ret;
	if (a->fmt == FMT_DOT && cli_lacks_feature(KMAG_FEATURE_GRAPHVIZ, "export -F dot"))
		return EXIT_ERR;
	if (a->output && !strcmp(a->output, "-"))
		a->output = NULL;
	return 0;
}

/* A failed Chrome export; standard output's write error is reported once, at exit. */
static int chrome_error(const struct export_args *a, const struct kmag_err *err)
{
	if (!a->output && err->code == EIO)
		return cli_write_error(NULL, -EIO);
	return cli_lib_error(err, "cannot export the trace");
}

/* After the export: no calls, lost events, the parts written, a part too big for the viewers. */
static void tell_chrome(const struct export_args *a, const struct kmag_session *s,
			const struct kmag_chrome *c)
{
	const struct kmag_chrome_stats *cs = kmag_chrome_stats(c);
	unsigned i;

	if (!cs->calls)
		cli_warn("%s holds no function_graph calls%s; the export has no call events",
			 kmag_session_name(s), kmag_session_filters(s)[0] ? " that pass the filters" : "");
	cli_warn_lost(kmag_session_info(s));
	if (a->output && cs->parts > 1) {
		fprintf(stderr, "kmag: wrote %u files of about %.1f MB each (load them one at a time):",
			cs->parts, (double)a->split_bytes / 1e6);
		for (i = 0; kmag_chrome_part_path(c, i); i++)
			fprintf(stderr, " %s", kmag_chrome_part_path(c, i));
		fputc('\n', stderr);
	}
	if (cs->largest_part > KMAG_CHROME_VIEWER_LIMIT)
		cli_warn("%.0f MB in one file: chrome://tracing cannot load JSON past about 256 MB and the Perfetto UI may run out of memory; use -o FILE with --split-size, or narrow with --time/--pid",
			 (double)cs->largest_part / 1e6);
}

/* Every call as a Chrome trace event, written while @s reads; returns the exit code. */
static int export_chrome(const struct export_args *a, struct kmag_session *s)
{
	struct kmag_chrome_opts co = {
		.path = a->output, .stream = stdout, .source = kmag_session_name(s),
		.split_bytes = a->output ? a->split_bytes : 0,
	};
	struct kmag_err err = { 0 };
	struct kmag_chrome *c;
	int ret;

	/* refused before any output exists */
	if (kmag_session_info(s)->tracer == KMAG_TRACER_FUNCTION)
		return cli_error("%s was recorded with the function tracer, which records no call durations; the Chrome export needs function_graph data (trace-cmd record -p function_graph)",
				 co.source);
	c = kmag_chrome_new(kmag_session_trace(s), &co, &err);
	if (!c || kmag_session_tap(s, kmag_chrome_event_fn, c)) {
		kmag_chrome_free(c);
		return cli_lib_error(&err, "cannot start the export");
	}
	ret = cli_session_read(s);
	if (ret < 0)
		ret = chrome_error(a, kmag_chrome_error(c));
	/* on failure, kmag_chrome_free() removes the parts written so far */
	if (!ret && kmag_chrome_finish(c, &err))
		ret = chrome_error(a, &err);
	if (!ret)
		tell_chrome(a, s, c);
	kmag_chrome_free(c);
	return ret;
}

/* Every call as a slice of a Perfetto trace, written while @s reads; returns the exit code. */
static int export_perfetto(const struct export_args *a, struct kmag_session *s)
{
	struct kmag_perfetto_opts po = { .path = a->output, .stream = stdout,
					 .lines = kmag_session_srclines(s),
					 .source = kmag_session_name(s) };
	struct kmag_err err = { 0 };
	struct kmag_perfetto *p;
	int ret;

	if (kmag_session_info(s)->tracer == KMAG_TRACER_FUNCTION)
		return cli_error("%s was recorded with the function tracer, which records no call durations; the Perfetto export needs function_graph data (trace-cmd record -p function_graph)",
				 po.source);
	p = kmag_perfetto_new(kmag_session_trace(s), &po, &err);
	if (!p || kmag_session_tap(s, kmag_perfetto_event_fn, p)) {
		kmag_perfetto_free(p);
		return cli_lib_error(&err, "cannot start the export");
	}
	ret = cli_session_read(s);
	if (ret < 0)
		ret = chrome_error(a, kmag_perfetto_error(p));
	if (!ret && kmag_perfetto_finish(p, &err))
		ret = chrome_error(a, &err);
	if (!ret && !kmag_perfetto_stats(p)->calls)
		cli_warn("%s holds no function_graph calls%s; the export has no slices", po.source,
			 kmag_session_filters(s)[0] ? " that pass the filters" : "");
	if (!ret)
		cli_warn_lost(kmag_session_info(s));
	kmag_perfetto_free(p);
	return ret;
}

/* The folded stacks of @s into *@out (free with kmag_flame_free()); 0 or the exit code, printed. */
static int folded_prepare(const struct export_args *a, const struct kmag_session *s,
			  struct kmag_flame **out)
{
	struct kmag_flame *fl = kmag_flame_new(false);
	const struct kmag_cg *cg = kmag_session_graph(s);
	const char *name = kmag_session_name(s);
	int ret;

	*out = NULL;
	if (!fl)
		return cli_error("out of memory");
	ret = kmag_flame_add_graph(fl, cg, kmag_session_symtab(s), NULL);
	if (ret == -ENODATA)
		ret = !kmag_cg_summary(cg)->func_events ?
			      cli_error("%s holds no function calls%s", name,
					kmag_session_filters(s)[0] ? " that pass the filters" : "") :
			      cli_error("%s was recorded with the function tracer, which keeps only each call's direct caller, not its stack; folded stacks need function_graph data",
					name);
	else if (ret || kmag_flame_finish(fl, (enum kmag_flame_weight)a->weight))
		ret = cli_error("out of memory");
	else if (a->weight == KMAG_FLAME_TIME && !kmag_flame_total(fl, 0))
		ret = cli_error("%s has no call durations; use --weight calls", name);
	if (ret) {
		kmag_flame_free(fl);
		return ret;
	}
	*out = fl;
	return 0;
}

/* The graph of @s in format a->fmt to @out; 0, -EIO, or an exit code (printed). */
static int write_graph(const struct export_args *a, const struct kmag_session *s, FILE *out,
		       const struct kmag_flame *fl)
{
	struct kmag_srcloc *loc = kmag_session_srcloc(s);
	const char *(*srcline)(void *, kmag_func_t) = loc ? kmag_srcloc_report_cb : NULL;
	bool (*visible)(void *, kmag_func_t) =
		kmag_session_pathfilter(s) ? kmag_srcloc_visible_cb : NULL;
	struct kmag_export x = { .cg = kmag_session_graph(s), .st = kmag_session_symtab(s),
				 .input = kmag_session_name(s), .visible = visible,
				 .visible_ctx = loc };
	struct kmag_report r = {
		.cg = x.cg, .st = x.st, .info = kmag_session_info(s), .input = x.input,
		.filters = kmag_session_filters(s), .sort = KMAG_SORT_CALLS, .focus = -1,
		.srcline = srcline, .srcline_ctx = loc, .visible = visible, .visible_ctx = loc,
	};
	int ret;

	switch (a->fmt) {
	case FMT_FOLDED:
		return kmag_flame_write_folded(out, fl) ? -EIO : 0;
	case FMT_PPROF: {
		struct kmag_pprof_opts po = { .cg = x.cg, .st = x.st, .info = r.info,
					      .source = x.input, .loc = loc,
					      .lines = kmag_session_srclines(s) };

		ret = kmag_pprof_write(out, &po);
		return ret == -ENOMEM ? cli_error("out of memory") : ret ? -EIO : 0;
	}
	case FMT_CSV:
		if (a->edges)
			return kmag_export_edges_csv(out, &x) ? -EIO : 0;
		return kmag_report_csv(out, &r) ? -EIO : 0;
	case FMT_DOT:
		x.srcline = srcline;
		x.srcline_ctx = loc;
		ret = kmag_export_dot(out, &x);
		return ret == -ENOMEM ? cli_error("out of memory") : ret ? -EIO : 0;
	default:
		return kmag_report_json(out, &r) ? -EIO : 0;
	}
}

/* Folded stacks, CSV, JSON or DOT of the call graph; returns the exit code. */
static int export_graph(const struct export_args *a, const struct kmag_session *s)
{
	struct kmag_flame *fl = NULL;
	struct cli_out o;
	int ret;

	/* everything that can refuse the trace runs before the output is opened */
	if ((a->fmt == FMT_FOLDED && (ret = folded_prepare(a, s, &fl))) ||
	    (ret = cli_out_open(a->output, &o))) {
		kmag_flame_free(fl);
		return ret;
	}
	ret = cli_out_close(&o, write_graph(a, s, o.f, fl));
	kmag_flame_free(fl);
	if (!ret) {
		cli_warn_sources(s);
		cli_warn_lost(kmag_session_info(s));
	}
	return ret;
}

int cmd_export(struct kmag_cli *cli, int argc, char **argv)
{
	struct export_args a = { .split_bytes = KMAG_CHROME_SPLIT_DEFAULT };
	struct kmag_session *s = NULL;
	int ret;

	(void)cli;
	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (a.fmt == FMT_CHROME || a.fmt == FMT_PERFETTO) {
		a.so.calls_optional = true;	/* other events are instants of their own */
		if (!(ret = cli_session_open("export", &a.so, &s)))
			ret = a.fmt == FMT_CHROME ? export_chrome(&a, s) : export_perfetto(&a, s);
	} else {
		/*
		 * folded stacks need the call paths, pprof takes them where the
		 * input has them (a profile's edges else); the tables, DOT and
		 * pprof, the source files
		 */
		a.so.views.graph = true;
		a.so.views.call_paths = a.fmt == FMT_FOLDED || a.fmt == FMT_PPROF;
		a.so.views.paths_optional = a.fmt == FMT_PPROF;
		/* the report's tables: percentiles per function */
		a.so.views.durations = a.fmt == FMT_CSV || a.fmt == FMT_JSON;
		a.so.symbols = a.fmt != FMT_FOLDED;
		if (!(ret = cli_session_load("export", &a.so, &s)))
			ret = export_graph(&a, s);
	}
	kmag_session_free(s);
	return ret;
}
