// SPDX-License-Identifier: MIT
/*
 * cmd-merge.c - `kmag merge`: the sum of many recordings' profiles (traces,
 * report --format json, earlier merges) as one profile. The sums are
 * kmag_cg_merge()'s (lib/analysis/profile.c); the output is report's JSON.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "kmag/profile.h"
#include "kmag/render/report.h"

static const struct cli_command merge_cmd = {
	.name = "merge",
	.usage = "Usage: kmag merge [-o OUT] INPUT...\n"
		 "\n"
		 "Sum the profiles of many recordings into one profile: calls, total and self\n"
		 "time per function and per call edge, the shortest and longest call. An INPUT\n"
		 "is any trace kmag reads, the output of `kmag report --format json --limit 0`\n"
		 "or of an earlier merge, so a fleet reduces each host to a small JSON file and\n"
		 "merges centrally, without moving traces; sums do not depend on the order or\n"
		 "grouping of the inputs. report, visualize, html and diff read the result\n"
		 "wherever they read a trace. The recordings summed are listed in it (name,\n"
		 "kernel, calls); when their kernels differ, a note on stderr says so.\n",
	.footer = "\n"
		  "Example:\n"
		  "  kmag merge -o fleet.json host1.json host2.json trace.dat\n",
};

/* Everything summed so far. */
struct merge {
	struct kmag_cg *cg;
	struct kmag_symtab *st;
	struct kmag_trace_source *src;	/* strings owned */
	size_t nr_src;
	enum kmag_tracer tracer;
	const char *tracer_from;	/* the first input with a function tracer */
	uint64_t events, lost;
	bool lost_unknown;
	/* source files of the functions, where an input names them (the first one wins) */
	struct kmag_symmap *files;
	unsigned char *has_file;	/* per function id of st */
	size_t cap_has_file;
};

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static int add_source(struct merge *m, const struct kmag_trace_source *s)
{
	struct kmag_trace_source *d;
	struct kmag_trace_source *grown = realloc(m->src, (m->nr_src + 1) * sizeof(*m->src));

	if (!grown)
		return cli_error("out of memory");
	m->src = grown;
	d = &m->src[m->nr_src];
	*d = *s;
	d->name = strdup(s->name);
	d->uname = dup_or_null(s->uname);
	d->tracer = dup_or_null(s->tracer);
	m->nr_src++;
	if (!d->name || (s->uname && !d->uname) || (s->tracer && !d->tracer))
		return cli_error("out of memory");
	return 0;
}

/* function and function_graph sums do not mix: one has times and call chains, the other not */
static int check_tracer(struct merge *m, const char *path, enum kmag_tracer t)
{
	if (t != KMAG_TRACER_FUNCTION && t != KMAG_TRACER_FUNCTION_GRAPH)
		return 0;
	if (m->tracer_from && t != m->tracer)
		return cli_error("%s was recorded with the %s tracer but %s with %s: merge recordings of one tracer",
				 path, kmag_tracer_name(t), m->tracer_from, kmag_tracer_name(m->tracer));
	if (!m->tracer_from) {
		m->tracer = t;
		m->tracer_from = path;
	}
	return 0;
}

/*
 * Keeps the source file of each of @g's functions that @loc (the input's
 * symbol map, or the files its profile names) knows and no earlier input did.
 */
static int add_files(struct merge *m, const struct kmag_session *s)
{
	const struct kmag_cg *cg = kmag_session_graph(s);
	const struct kmag_cg_node *nodes = kmag_cg_nodes(cg);
	const struct kmag_symtab *st = kmag_session_symtab(s);
	struct kmag_srcloc *loc = kmag_session_srcloc(s);
	size_t i;

	for (i = 0; loc && i < kmag_cg_nr_nodes(cg); i++) {
		const struct kmag_symmap_entry *e = kmag_srcloc_entry(loc, nodes[i].func, NULL);
		const char *name = kmag_symtab_name(st, nodes[i].func);
		kmag_func_t f = name ? kmag_symtab_find(m->st, name) : KMAG_FUNC_NONE;
		struct kmag_symmap_entry copy;
		size_t old = m->cap_has_file;

		if (!e || f == KMAG_FUNC_NONE)
			continue;
		if (f >= old) {
			size_t cap = (size_t)f * 2 + 64;
			unsigned char *grown = realloc(m->has_file, cap);

			if (!grown)
				return cli_error("out of memory");
			memset(grown + old, 0, cap - old);
			m->has_file = grown;
			m->cap_has_file = cap;
		}
		if (m->has_file[f])
			continue;
		copy = (struct kmag_symmap_entry){ .name = name, .file = e->file, .line = e->line,
						   .module = e->module };
		if ((!m->files && !(m->files = kmag_symmap_new())) || kmag_symmap_add(m->files, &copy))
			return cli_error("out of memory");
		m->has_file[f] = 1;
	}
	return 0;
}

/* Adds @s's recordings: a profile's own, or the trace as one. 0 or the exit code. */
static int add_sources(struct merge *m, const struct kmag_session *s, const char *path)
{
	const struct kmag_trace_info *info = kmag_session_info(s);
	const struct kmag_cg *cg = kmag_session_graph(s);
	const struct kmag_cg_node *nodes = kmag_cg_nodes(cg);
	struct kmag_trace_source one = { .name = path, .uname = info->uname,
					 .tracer = kmag_tracer_name(info->tracer),
					 .events = info->events, .lost = info->lost };
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < info->nr_sources; i++)
		ret = add_source(m, &info->sources[i]);
	if (ret || info->nr_sources)
		return ret;
	for (i = 0; i < kmag_cg_nr_nodes(cg); i++)
		one.calls += nodes[i].st.calls;
	return add_source(m, &one);
}

/* Reads @path (a trace or a profile) and adds it. Returns 0 or an exit code (printed). */
static int merge_one(struct merge *m, const char *path)
{
	/* sums only: the order across CPUs does not matter */
	const struct kmag_session_opts so = { .path = path, .unordered = true, .symbols = true,
					      .calls_optional = true, .views = { .graph = true } };
	const struct kmag_trace_info *info;
	struct kmag_session *s;
	int ret = cli_session_load("merge", &so, &s);

	if (ret)
		return ret;
	info = kmag_session_info(s);
	ret = check_tracer(m, path, info->tracer);
	if (!ret && kmag_cg_merge(m->cg, m->st, kmag_session_graph(s), kmag_session_symtab(s)))
		ret = cli_error("out of memory");
	if (!ret)
		ret = add_files(m, s);
	if (!ret)
		ret = add_sources(m, s, path);
	m->events += info->events;
	m->lost += info->lost;
	m->lost_unknown |= info->lost_unknown;
	kmag_session_free(s);
	return ret;
}

/*
 * Inputs summed twice: the same file named twice (also by another path), or
 * one recording that two profiles both hold (same name, kernel, tracer,
 * events and calls). Summing is what merge does, so a warning, not an error.
 */
static void warn_twice(char **inputs, int n, const struct merge *m)
{
	struct stat a, b;
	size_t i, j;
	int x, y;

	for (x = 0; x < n; x++)
		for (y = x + 1; y < n; y++)
			if (!stat(inputs[x], &a) && !stat(inputs[y], &b) && a.st_dev == b.st_dev &&
			    a.st_ino == b.st_ino) {
				cli_warn("%s and %s are the same file: its calls are counted twice",
					 inputs[x], inputs[y]);
				return;
			}
	for (i = 0; i < m->nr_src; i++)
		for (j = i + 1; j < m->nr_src; j++) {
			const struct kmag_trace_source *p = &m->src[i], *q = &m->src[j];

			if (!strcmp(p->name, q->name) && p->events == q->events && p->calls == q->calls &&
			    !strcmp(p->uname ? p->uname : "", q->uname ? q->uname : "") &&
			    !strcmp(p->tracer ? p->tracer : "", q->tracer ? q->tracer : "")) {
				cli_warn("the recording %s is in the inputs twice (same kernel, events and calls): its calls are counted twice",
					 p->name);
				return;
			}
		}
}

/* "Linux host 6.1.0-56-cloud-amd64 x86_64" -> its third word, the release, into @buf. */
static const char *release(const char *uname, char *buf, size_t size)
{
	char fmt[32];

	snprintf(fmt, sizeof(fmt), "%%*s %%*s %%%zus", size - 1);
	if (!uname || sscanf(uname, fmt, buf) != 1)
		snprintf(buf, size, "unknown");
	return buf;
}

/*
 * The kernel the merged profile names: the sources' common one (the first
 * source's uname when all releases agree), else NULL and a note on stderr
 * naming each kernel and its inputs.
 */
static const char *common_uname(const struct merge *m)
{
	char a[128], b[128], line[1024];
	size_t i, j, len = 0;
	bool differ = false;

	for (i = 1; i < m->nr_src; i++)
		differ |= strcmp(release(m->src[0].uname, a, sizeof(a)),
				 release(m->src[i].uname, b, sizeof(b))) != 0;
	if (!differ)
		return m->nr_src ? m->src[0].uname : NULL;
	/* one group per kernel, in first-seen order */
	line[0] = '\0';
	for (i = 0; i < m->nr_src; i++) {
		bool seen = false;

		release(m->src[i].uname, a, sizeof(a));
		for (j = 0; j < i && !seen; j++)
			seen = !strcmp(a, release(m->src[j].uname, b, sizeof(b)));
		if (seen)
			continue;
		len += (size_t)snprintf(line + len, len < sizeof(line) ? sizeof(line) - len : 0,
					"%s%s (", i ? "; " : "", a);
		for (j = i; j < m->nr_src; j++)
			if (!strcmp(a, release(m->src[j].uname, b, sizeof(b))))
				len += (size_t)snprintf(line + len,
							len < sizeof(line) ? sizeof(line) - len : 0,
							"%s%s", j == i ? "" : ", ", m->src[j].name);
		len += (size_t)snprintf(line + len, len < sizeof(line) ? sizeof(line) - len : 0, ")");
	}
	fprintf(stderr, "kmag: note: the inputs come from different kernels, summed by function name: %s\n",
		line);
	return NULL;
}

static int write_profile(struct merge *m, const char *output)
{
	struct kmag_trace_info info = {
		.format = KMAG_INPUT_PROFILE,
		.tracer = m->tracer_from ? m->tracer : KMAG_TRACER_EVENTS,
		.events = m->events,
		.lost_unattributed = m->lost,
		.lost = m->lost,
		.lost_unknown = m->lost_unknown,
		.first_ts = KMAG_TS_NONE,	/* clocks of different machines do not compare */
		.last_ts = KMAG_TS_NONE,
		.sources = m->src,
		.nr_sources = m->nr_src,
	};
	struct kmag_report r = { .cg = m->cg, .st = m->st, .info = &info, .input = "kmag merge",
				 .sort = KMAG_SORT_CALLS, .focus = -1 };
	struct kmag_srcloc *loc = NULL;
	struct cli_out o;
	int ret;

	info.uname = common_uname(m);
	info.has_durations = kmag_cg_summary(m->cg)->has_time;
	if (m->files) {
		if (!(loc = kmag_srcloc_new(m->files, m->st)))
			return cli_error("out of memory");
		r.srcline = kmag_srcloc_report_cb;
		r.srcline_ctx = loc;
	}
	if (!(ret = cli_out_open(output, &o)))
		ret = cli_out_close(&o, kmag_report_json(o.f, &r));
	kmag_srcloc_free(loc);
	return ret;
}

static void merge_release(struct merge *m)
{
	size_t i;

	for (i = 0; i < m->nr_src; i++) {
		free((char *)m->src[i].name);
		free((char *)m->src[i].uname);
		free((char *)m->src[i].tracer);
	}
	free(m->src);
	free(m->has_file);
	kmag_symmap_free(m->files);
	kmag_cg_free(m->cg);
	kmag_symtab_free(m->st);
}

/* The command line of merge. */
struct merge_args {
	const char *output;
};

#define CLI_ARGS struct merge_args
static const struct cli_option merge_options[] = {
	CLI_SECTION("\nOptions:\n"),
	CLI_STRING('o', "output", "PATH", output, "the merged profile (default: standard output)"),
	CLI_HELP_OPTION,
	CLI_END,
};
#undef CLI_ARGS

int cmd_merge(struct kmag_cli *cli, int argc, char **argv)
{
	struct merge_args a = { 0 };
	struct merge m = { 0 };
	int ret, first, stdin_seen = 0;

	(void)cli;
	ret = cli_parse(&merge_cmd, argc, argv, merge_options, &a);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (optind >= argc)
		return cli_usage_error("merge", "no input: name the traces and profiles to merge");
	for (first = optind; first < argc; first++)
		if (!strcmp(argv[first], "-") && (stdin_seen++))
			return cli_usage_error("merge", "standard input (\"-\") is given twice; it holds one input: give it once");
	first = optind;
	if ((ret = cli_out_check(a.output)))
		return ret;
	m.cg = kmag_cg_new(NULL);
	m.st = kmag_symtab_new();
	if (!m.cg || !m.st) {
		merge_release(&m);
		return cli_error("out of memory");
	}
	for (; optind < argc && !ret; optind++)
		ret = merge_one(&m, argv[optind]);
	if (!ret)
		warn_twice(argv + first, argc - first, &m);
	if (!ret && kmag_cg_finish(m.cg))
		ret = cli_error("out of memory");
	if (!ret)
		ret = write_profile(&m, a.output);
	merge_release(&m);
	return ret;
}
