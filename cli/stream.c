// SPDX-License-Identifier: MIT
/*
 * stream.c - opening a trace through the shared input options and streaming
 * its (filtered) events to any consumer, for commands that need more than
 * one finished call graph (per-task flame graphs, the Chrome export).
 * cli_load_graph() in input.c is the one-graph special case.
 */
#include <errno.h>
#include <string.h>

#include "cli.h"
#include "kmag/btf.h"

int cli_stream_open(const char *cmd, const struct cli_input *in, struct cli_stream *s)
{
	struct kmag_trace_opts topts = { .reader = in->reader, .unordered = in->unordered };
	struct kmag_err err = { 0 };
	const char *open_path;
	int ret;

	memset(s, 0, sizeof(*s));
	s->path = in->path ? in->path : cli_default_input();
	if ((ret = cli_input_filter(cmd, in, &s->filter)))
		return ret;
	if (in->time)
		topts.unordered = false;
	if ((ret = cli_input_path(s->path, &open_path))) {
		cli_stream_close(s);
		return ret;
	}
	if (!strcmp(s->path, "-"))
		s->path = "standard input";
	s->trace = kmag_trace_open(open_path, &topts, &err);
	if (!s->trace) {
		if (!in->path && err.code == ENOENT)
			ret = cli_error("no trace file given and ./trace.dat does not exist; record one with `kmag record` or pass a file");
		else
			ret = cli_lib_error(&err, "cannot open the trace");
		cli_stream_close(s);
		return ret;
	}
	/* the sums of a profile (cli_load_graph() reads them) are no events to stream */
	if (kmag_trace_info(s->trace)->format == KMAG_INPUT_PROFILE) {
		ret = cli_error("%s is a profile (sums of calls, from report --format json or merge): %s needs a trace's events",
				s->path, cmd);
		cli_stream_close(s);
		return ret;
	}
	if ((ret = cli_input_btf(in, s->trace, &s->btf))) {
		cli_stream_close(s);
		return ret;
	}
	if (in->after_open) {
		ret = in->after_open(in->after_open_ctx, s->trace);
		if (ret) {
			cli_stream_close(s);
			return ret;
		}
	}
	if (!kmag_filter_is_empty(s->filter))
		snprintf(s->filters, sizeof(s->filters), "%s", kmag_filter_describe(s->filter));
	return 0;
}

int cli_stream_read(struct cli_stream *s, kmag_event_fn fn, void *ctx)
{
	struct kmag_err err = { 0 };
	int ret;

	if (!kmag_filter_is_empty(s->filter)) {
		kmag_filter_bind(s->filter, s->trace, fn, ctx);
		fn = kmag_filter_event_fn;
		ctx = s->filter;
	}
	ret = cli_trace_read(s->trace, s->path, fn, ctx, &err);
	if (ret < 0 && err.code)
		return cli_lib_error(&err, "cannot read the trace");
	if (ret == -ENOMEM)
		return cli_error("out of memory");
	if (ret < 0)
		return ret;
	if (!kmag_filter_is_empty(s->filter))
		return cli_filter_matched(s->path, s->filter, s->filters, s->trace);
	return 0;
}

void cli_stream_close(struct cli_stream *s)
{
	kmag_trace_close(s->trace);
	kmag_btf_free(s->btf);
	kmag_filter_free(s->filter);
	memset(s, 0, sizeof(*s));
}
