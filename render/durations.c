// SPDX-License-Identifier: MIT
/*
 * durations.c - `kmag report --slowest N`: the longest calls with their
 * call chains, and where recorded their arguments, return values and call
 * sites, as text or JSON.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "kmag/btf.h"
#include "kmag/durations.h"
#include "kmag/render/callfmt.h"
#include "kmag/render/durations.h"
#include "kmag/report.h"
#include "kmag/srclines.h"
#include "kmag/trace.h"
#include "render-util.h"

static const char *name_of(const struct kmag_symtab *st, kmag_func_t f)
{
	const char *n = f != KMAG_FUNC_NONE ? kmag_symtab_name(st, f) : NULL;

	return n ? n : "?";
}

static void fmt_ns(char *buf, size_t len, uint64_t ns)
{
	if (ns >= 1000000000)
		snprintf(buf, len, "%.3f s", (double)ns / 1e9);
	else if (ns >= 1000000)
		snprintf(buf, len, "%.3f ms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.3f us", (double)ns / 1e3);
}


/* The call site of chain entry @k as "ksys_write+0x71" in @buf; false when not recorded. */
static bool chain_site(const struct kmag_slow_call *c, size_t k, const struct kmag_symtab *st,
		       char *buf, size_t size)
{
	kmag_func_t caller = c->chain_sites ? c->chain_sites[k].caller : KMAG_FUNC_NONE;

	if (caller == KMAG_FUNC_NONE)
		return false;
	kmag_fmt_call_site(buf, size, name_of(st, caller), c->chain_sites[k].caller_off);
	return true;
}

/* Its source line "fs/read_write.c:738" in @buf through @lines; false when unknown. */
static bool site_line(const struct kmag_call *call, const struct kmag_symtab *st,
		      struct kmag_srclines *lines, char *buf, size_t size)
{
	return lines && call->caller != KMAG_FUNC_NONE && call->caller_off != KMAG_OFF_NONE &&
	       kmag_srclines_call_site(lines, name_of(st, call->caller), call->caller_off, buf, size);
}

/* The call site of @call (KMAG_FUNC_NONE caller: none) into @site, its source line into @line or "". */
static void call_site(const struct kmag_call *call, const struct kmag_symtab *st,
		      struct kmag_srclines *lines, char site[static 256], char line[static 768])
{
	kmag_fmt_call_site(site, 256, name_of(st, call->caller), call->caller_off);
	if (!site_line(call, st, lines, line, 768))
		line[0] = '\0';
}

/*
 * The slow call itself, where the trace recorded them: "vfs_write(file=0x..,
 * count=0x1000, ..) = 0x1000" (or "returned 0x1000" without arguments) and
 * "called from ksys_write+0x71 (fs/read_write.c:738)". Nothing otherwise.
 */
static void text_details(FILE *out, const struct kmag_slow_call *c, const struct kmag_symtab *st,
			 const struct kmag_trace *t, struct kmag_srclines *lines)
{
	const struct kmag_call *call = &c->call;
	bool ret = call->has_retval;
	char buf[1024], line[768], *tmp = NULL;

	/* a function without parameters shows as one that saved none */
	bool args = call->nargs && kmag_fmt_trace_args(buf, sizeof(buf), call, t);

	if (args) {
		fputs("       ", out);
		render_fput_text(out, name_of(st, c->func));
		fputc('(', out);
		render_fput_text(out, buf);
		fputc(')', out);
	} else if (ret) {
		fputs("       returned", out);
	}
	if (ret) {
		kmag_fmt_retval(buf, sizeof(buf), call);
		fprintf(out, "%s%s", args ? " = " : " ", buf);
	}
	if (args || ret)
		fputc('\n', out);
	if (call->caller == KMAG_FUNC_NONE)
		return;
	call_site(call, st, lines, buf, line);
	fputs("       called from ", out);
	render_fput_text(out, buf);
	if (line[0])
		fprintf(out, " (%s)", render_text_safe(line, &tmp));
	fputc('\n', out);
	free(tmp);
}

int kmag_slowest_text(FILE *out, const struct kmag_slowest *s, const struct kmag_symtab *st,
		      const struct kmag_trace *t, struct kmag_srclines *lines)
{
	size_t i, k, n = kmag_slowest_count(s);
	char dur[32];

	if (!n) {
		fputs("no timed calls in this trace (--slowest needs a function_graph recording)\n",
		      out);
		return render_status(out);
	}
	fprintf(out, "The %zu longest call%s:\n", n, n == 1 ? "" : "s");
	for (i = 0; i < n; i++) {
		const struct kmag_slow_call *c = kmag_slowest_get(s, i);
		const char *comm = t ? kmag_trace_comm(t, c->pid) : NULL;

		fmt_ns(dur, sizeof(dur), c->duration);
		fprintf(out, "%3zu. %12s  ", i + 1, dur);
		render_fput_text(out, name_of(st, c->func));
		fprintf(out, "  (pid %d%s", (int)c->pid, comm ? " " : "");
		render_fput_text(out, comm);
		fprintf(out, ", CPU %d", (int)c->cpu);
		if (c->entry_ts != KMAG_TS_NONE) {
			/* as replay prints it (and --time reads it back): the nearest microsecond */
			uint64_t us = c->entry_ts / 1000 + (c->entry_ts % 1000 >= 500);

			fprintf(out, ", at %" PRIu64 ".%06" PRIu64 " s", us / 1000000, us % 1000000);
		}
		fputs(")\n       ", out);
		if (c->chain_partial)
			fputs("... > ", out);
		for (k = 0; k < c->nr_chain; k++) {
			fputs(k ? " > " : "", out);
			render_fput_text(out, name_of(st, c->chain[k]));
		}
		fputc('\n', out);
		text_details(out, c, st, t, lines);
	}
	return render_status(out);
}

/* ,"call_site":..,"call_site_line":..,"args":..,"retval":.. where recorded, as kmag replay's */
static void json_details(FILE *out, const struct kmag_slow_call *c, const struct kmag_symtab *st,
			 const struct kmag_trace *t, struct kmag_srclines *lines)
{
	const struct kmag_call *call = &c->call;
	char buf[1024], line[768];
	size_t k;
	bool any = false;

	if (call->caller != KMAG_FUNC_NONE) {
		call_site(call, st, lines, buf, line);
		fputs(",\"call_site\":", out);
		kmag_fput_json_string(out, buf);
		if (line[0]) {
			fputs(",\"call_site_line\":", out);
			kmag_fput_json_string(out, line);
		}
	}
	if (call->nargs && kmag_fmt_trace_args(buf, sizeof(buf), call, t)) {
		fputs(",\"args\":", out);
		kmag_fput_json_string(out, buf);
	}
	if (call->has_retval) {	/* an error as the kernel reads it, as replay's */
		int64_t e = kmag_call_errno(call->retval);

		fprintf(out, ",\"retval\":%" PRId64, e ? e : call->retval);
	}
	for (k = 0; k < c->nr_chain && !any; k++)
		any = chain_site(c, k, st, buf, sizeof(buf));
	if (!any)
		return;
	fputs(",\"chain_call_sites\":[", out);	/* one per chain entry, null when unknown */
	for (k = 0; k < c->nr_chain; k++) {
		fputs(k ? "," : "", out);
		if (chain_site(c, k, st, buf, sizeof(buf)))
			kmag_fput_json_string(out, buf);
		else
			fputs("null", out);
	}
	fputc(']', out);
}

int kmag_slowest_json(FILE *out, const struct kmag_slowest *s, const struct kmag_symtab *st,
		      const struct kmag_trace *t, struct kmag_srclines *lines)
{
	size_t i, k, n = kmag_slowest_count(s);

	fputs("{\"slowest\":[", out);
	for (i = 0; i < n; i++) {
		const struct kmag_slow_call *c = kmag_slowest_get(s, i);
		const char *comm = t ? kmag_trace_comm(t, c->pid) : NULL;

		fputs(i ? ",\n{\"function\":" : "\n{\"function\":", out);
		kmag_fput_json_string(out, name_of(st, c->func));
		fprintf(out, ",\"duration_ns\":%" PRIu64 ",\"pid\":%d,\"comm\":", c->duration,
			(int)c->pid);
		if (comm)
			kmag_fput_json_string(out, comm);
		else
			fputs("null", out);
		fprintf(out, ",\"cpu\":%d,\"entry_ns\":", (int)c->cpu);
		if (c->entry_ts != KMAG_TS_NONE)
			fprintf(out, "%" PRIu64 ",\"start_from\":\"%s\"", c->entry_ts,
				kmag_call_start_name(c->call.start_src));
		else
			fputs("null,\"start_from\":null", out);
		fprintf(out, ",\"chain_partial\":%s,\"chain\":[", c->chain_partial ? "true" : "false");
		for (k = 0; k < c->nr_chain; k++) {
			if (k)
				fputc(',', out);
			kmag_fput_json_string(out, name_of(st, c->chain[k]));
		}
		fputc(']', out);
		json_details(out, c, st, t, lines);
		fputc('}', out);
	}
	fputs("\n]}\n", out);
	return render_status(out);
}
