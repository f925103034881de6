// SPDX-License-Identifier: MIT
/*
 * durations.c - `kmag report --slowest N`: the longest calls with their
 * call chains, as text or JSON.
 */
#include <inttypes.h>

#include "kmag/durations.h"
#include "kmag/render/durations.h"
#include "kmag/report.h"
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

int kmag_slowest_text(FILE *out, const struct kmag_slowest *s, const struct kmag_symtab *st,
		      const struct kmag_trace *t)
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
		if (c->entry_ts != KMAG_TS_NONE)
			fprintf(out, ", at %" PRIu64 ".%06" PRIu64 " s", c->entry_ts / 1000000000,
				c->entry_ts % 1000000000 / 1000);
		fputs(")\n       ", out);
		if (c->chain_partial)
			fputs("... > ", out);
		for (k = 0; k < c->nr_chain; k++) {
			fputs(k ? " > " : "", out);
			render_fput_text(out, name_of(st, c->chain[k]));
		}
		fputc('\n', out);
	}
	return render_status(out);
}

int kmag_slowest_json(FILE *out, const struct kmag_slowest *s, const struct kmag_symtab *st,
		      const struct kmag_trace *t)
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
			fprintf(out, "%" PRIu64, c->entry_ts);
		else
			fputs("null", out);
		fprintf(out, ",\"chain_partial\":%s,\"chain\":[", c->chain_partial ? "true" : "false");
		for (k = 0; k < c->nr_chain; k++) {
			if (k)
				fputc(',', out);
			kmag_fput_json_string(out, name_of(st, c->chain[k]));
		}
		fputs("]}", out);
	}
	fputs("\n]}\n", out);
	return render_status(out);
}
