// SPDX-License-Identifier: MIT
/*
 * session.c - how a command reaches its session (include/kmag/session.h):
 * "-" read from standard input, the session's errors and warnings printed
 * with the right exit code, the progress line while reading; and the
 * helpers of the commands' output that take a session (a function by name,
 * the source-file warnings, lost events).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kmag/report.h"

/* The session's warnings, as every other warning (not on the progress line). */
static void warn_cb(void *ctx, const char *msg)
{
	(void)ctx;
	cli_progress_clear();
	cli_warn("%s", msg);
}

int cli_session_open(const char *cmd, const struct kmag_session_opts *so,
		     struct kmag_session **out)
{
	struct kmag_session_opts o = *so;
	struct kmag_err err = { 0 };
	int ret;

	*out = NULL;
	o.what = cmd;
	o.warn = warn_cb;
	if (o.path && !strcmp(o.path, "-")) {
		if ((ret = cli_input_path("-", &o.path)))
			return ret;
		o.name = "standard input";
	}
	*out = kmag_session_new(&o, &err);
	if (!*out)
		return err.code == EINVAL ? cli_usage_error(cmd, "%s", err.msg) :
					    cli_lib_error(&err, "out of memory");
	if (kmag_session_open(*out, &err)) {
		kmag_session_free(*out);
		*out = NULL;
		return cli_lib_error(&err, "cannot open the trace");
	}
	return 0;
}

int cli_session_read(struct kmag_session *s)
{
	struct kmag_err err = { 0 };
	int ret;

	cli_progress_start(s);
	ret = kmag_session_read(s, &err);
	cli_progress_end(s);
	if (ret < 0 && !err.code)
		return ret;	/* a tap's own error */
	return ret ? cli_lib_error(&err, "cannot read the trace") : 0;
}

int cli_session_load(const char *cmd, const struct kmag_session_opts *so,
		     struct kmag_session **out)
{
	int ret = cli_session_open(cmd, so, out);

	if (!ret && (ret = cli_session_read(*out))) {
		kmag_session_free(*out);
		*out = NULL;
		return ret < 0 ? cli_error("cannot read the trace: %s", strerror(-ret)) : ret;
	}
	return ret;
}

int cli_input_arg(const char *cmd, int argc, char **argv, const char **path)
{
	if (optind < argc)
		*path = argv[optind++];
	if (optind < argc)
		return cli_usage_error(cmd, "unexpected argument \"%s\"", argv[optind]);
	return 0;
}

int cli_find_function(const struct kmag_session *s, const char *opt, const char *name,
		      long *node)
{
	struct kmag_err err = { 0 };

	return kmag_session_find_function(s, opt, name, node, &err) ?
		       cli_lib_error(&err, "function not found") : 0;
}

void cli_describe_path(const struct kmag_session *s, const char *filepath, char *buf, size_t len)
{
	const struct kmag_pathfilter *f = kmag_session_pathfilter(s);
	struct kmag_srcloc *loc = kmag_session_srcloc(s);
	const struct kmag_cg *cg = kmag_session_graph(s);
	const struct kmag_cg_node *nodes = kmag_cg_nodes(cg);
	size_t n = kmag_cg_nr_nodes(cg), i, shown = 0;

	buf[0] = '\0';
	if (!f || !loc)
		return;
	for (i = 0; i < n; i++)
		shown += kmag_srcloc_match(loc, f, nodes[i].func);
	snprintf(buf, len, "path %s (%zu of %zu functions)", filepath, shown, n);
}

void cli_warn_sources(const struct kmag_session *s)
{
	struct kmag_srcloc *loc = kmag_session_srcloc(s);
	struct kmag_srcloc_stats st;

	if (!loc)
		return;
	st = kmag_srcloc_stats(loc);
	if (st.ambiguous)
		cli_warn("%zu function name%s %s in several source files and the trace has no addresses to tell them apart; shown with \"(+N more)\"%s",
			 st.ambiguous, st.ambiguous == 1 ? "" : "s", st.ambiguous == 1 ? "is" : "are",
			 kmag_session_pathfilter(s) ?
				 ", kept by --filter-filepath if any of their files matches" : "");
	if (st.unmapped && st.unmapped * 2 > st.mapped + st.unmapped)
		cli_warn("the symbol map %s knows only %zu of %zu functions of the trace; is it for this kernel (and its modules, -m)?",
			 kmag_session_symbol_map(s), st.mapped, st.mapped + st.unmapped);
}

void cli_warn_lost(const struct kmag_trace_info *info)
{
	int i;

	if (info->lost_unattributed)
		cli_warn("%" PRIu64 " events were overwritten in the ring buffer before the trace was read",
			 info->lost_unattributed);
	for (i = 0; i < info->nr_cpus; i++) {
		const struct kmag_cpu_info *ci = &info->cpus[i];
		uint64_t stat = ci->stat_overrun + ci->stat_commit_overrun + ci->stat_dropped;
		uint64_t lost = ci->has_stats && stat >= ci->lost ? stat : ci->lost;

		if (lost)
			cli_warn("CPU%d: %" PRIu64 " events lost (%.1f%%); calls around the gaps are counted as incomplete",
				 i, lost, 100.0 * (double)lost / (double)(lost + ci->events));
		else if (ci->lost_unknown)
			cli_warn("CPU%d: events lost (count unknown, %u gap%s)", i, ci->lost_markers,
				 ci->lost_markers == 1 ? "" : "s");
	}
}

const char *cli_title_times(const struct kmag_session *s, const char *filters, char *buf,
			    size_t len)
{
	const char *times = kmag_session_times(s);

	if (!times[0])
		return filters;
	snprintf(buf, len, "%s%s%s", filters, filters[0] ? "; " : "", times);
	return buf;
}
