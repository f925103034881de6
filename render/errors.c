// SPDX-License-Identifier: MIT
/*
 * errors.c - `kmag errors` output: the origins of a trace's errors as a
 * table (count, errno, origin, entry point, and the example chain below each
 * row) or one JSON document.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kmag/render/errors.h"
#include "render-util.h"

static const char *fname(const struct kmag_symtab *st, kmag_func_t f)
{
	const char *n = f == KMAG_FUNC_NONE ? NULL : kmag_symtab_name(st, f);

	return n ? n : "?";
}

static void errno_label(char *buf, size_t len, int errnum)
{
	const char *n = kmag_errno_name(errnum);

	if (n)
		snprintf(buf, len, "%s (-%d)", n, errnum);
	else
		snprintf(buf, len, "-%d", errnum);
}

/* "__x64_sys_mkdir 139.345 us > do_mkdirat 120.1 us > ... > lookup_one_qstr_excl 17.360 us" */
static void text_chain(FILE *out, const struct kmag_error_group *g, const struct kmag_symtab *st)
{
	char d[32];
	uint32_t i;

	fputs("        ", out);
	for (i = 0; i < g->chain_len; i++) {
		const struct kmag_error_link *l = &g->chain[i];

		if (i)
			fputs(" > ", out);
		if (g->chain_cut && i == 1)
			fputs("... > ", out);
		render_fput_text(out, fname(st, l->func));
		if (l->duration != KMAG_DURATION_NONE)
			fprintf(out, " %s", kmag_format_duration(d, sizeof(d), l->duration));
		if (l->returned_err)	/* the calls that returned the error */
			fprintf(out, " =-%d", g->errnum);
	}
	fputc('\n', out);
	if (g->after != KMAG_FUNC_NONE) {
		fputs("        (its caller had called ", out);
		render_fput_text(out, fname(st, g->after));
		fprintf(out, " before, which returned -%d too)\n", g->errnum);
	}
}

static void render_text(FILE *out, const struct kmag_errors *e, const struct kmag_symtab *st,
			const struct kmag_errors_render_opts *o, size_t n)
{
	const struct kmag_errors_stats *s = kmag_errors_stats(e);
	char lab[48];
	size_t i, w = 6, we = 5;

	if (o->types_from) {
		fputs("# return types: ", out);
		render_fput_text(out, o->types_from);	/* "BTF of PATH": any bytes */
		fputs(" (void, bool and unsigned returns are no errors, pointers only as ERR_PTR)\n", out);
		if (s->untyped_returns)
			fprintf(out, "# %" PRIu64 " error returns of functions it does not describe are read as funcgraph-retval prints them\n",
				s->untyped_returns);
	}
	else
		fputs("# " KMAG_ERRORS_UNTYPED_NOTE "\n", out);
	if (o->times && *o->times)
		fprintf(out, "# %s\n", o->times);
	if (s->errnum)	/* --errno */
		fprintf(out, "# %" PRIu64 " calls returned an error; %" PRIu64 " of them where -%d%s%s was born\n",
			s->error_returns, s->origins, s->errnum, kmag_errno_name(s->errnum) ? " " : "",
			kmag_errno_name(s->errnum) ? kmag_errno_name(s->errnum) : "");
	else
		fprintf(out, "# %" PRIu64 " calls returned an error; %" PRIu64 " of them where it was born\n",
			s->error_returns, s->origins);
	if (!n) {
		fputs("no call returned an error\n", out);
		return;
	}
	for (i = 0; i < n; i++) {
		const struct kmag_error_group *g = kmag_errors_group(e, i);
		char *tmp = NULL;
		size_t l = strlen(render_text_safe(fname(st, g->origin), &tmp));

		free(tmp);
		w = l > w ? l : w;
		errno_label(lab, sizeof(lab), g->errnum);
		we = strlen(lab) > we ? strlen(lab) : we;
	}
	fprintf(out, "%7s  %-*s  %-*s  %s\n", "count", (int)we, "errno", (int)w, "origin",
		"entry point (times it returned the error)");
	for (i = 0; i < n; i++) {
		const struct kmag_error_group *g = kmag_errors_group(e, i);
		char *tmp = NULL;

		/* names as a terminal may show them (render_fput_text): any bytes */
		errno_label(lab, sizeof(lab), g->errnum);
		fprintf(out, "%7" PRIu64 "  %-*s  %-*s  ", g->count, (int)we, lab, (int)w,
			render_text_safe(fname(st, g->origin), &tmp));
		free(tmp);
		render_fput_text(out, fname(st, g->entry));
		fprintf(out, " (%" PRIu64 ")\n", g->reached);
		text_chain(out, g, st);
	}
	/* as report's table: never cut without saying so */
	if (n < kmag_errors_nr_groups(e))
		fprintf(out, "# ... %zu more (origin, errno, entry point) groups (use --limit 0 to see all)\n",
			kmag_errors_nr_groups(e) - n);
}

static void json_group(FILE *out, const struct kmag_error_group *g, const struct kmag_symtab *st)
{
	const char *n = kmag_errno_name(g->errnum);
	uint32_t i;

	fprintf(out, "{\"count\":%" PRIu64 ",\"errno\":%d,\"errname\":", g->count, -g->errnum);
	if (n)
		kmag_fput_json_string(out, n);
	else
		fputs("null", out);
	fputs(",\"origin\":", out);
	kmag_fput_json_string(out, fname(st, g->origin));
	fputs(",\"entry\":", out);
	kmag_fput_json_string(out, fname(st, g->entry));
	fprintf(out, ",\"entry_returned\":%" PRIu64 ",\"example\":{\"pid\":%" PRId32, g->reached,
		g->pid);
	if (g->start_ns != KMAG_TS_NONE)
		fprintf(out, ",\"start_ns\":%" PRIu64, g->start_ns);
	if (g->after != KMAG_FUNC_NONE) {
		fputs(",\"after\":", out);
		kmag_fput_json_string(out, fname(st, g->after));
	}
	fprintf(out, ",\"cut\":%s,\"chain\":[", g->chain_cut ? "true" : "false");
	for (i = 0; i < g->chain_len; i++) {
		const struct kmag_error_link *l = &g->chain[i];

		fputs(i ? ",{\"function\":" : "{\"function\":", out);
		kmag_fput_json_string(out, fname(st, l->func));
		if (l->duration != KMAG_DURATION_NONE)
			fprintf(out, ",\"duration_ns\":%" PRIu64, l->duration);
		if (l->has_retval)
			fprintf(out, ",\"retval\":\"0x%" PRIx64 "\"", (uint64_t)l->retval);
		fprintf(out, ",\"returned_error\":%s}", l->returned_err ? "true" : "false");
	}
	fputs("]}}", out);
}

static void render_json(FILE *out, const struct kmag_errors *e, const struct kmag_symtab *st,
			const struct kmag_errors_render_opts *o, size_t n)
{
	const struct kmag_errors_stats *s = kmag_errors_stats(e);
	size_t i;

	fputs("{\"source\":", out);
	kmag_fput_json_string(out, o->source ? o->source : "");
	fputs(",\"times\":", out);
	kmag_fput_json_string(out, o->times ? o->times : "");
	fputs(",\"return_types\":", out);
	if (o->types_from)
		kmag_fput_json_string(out, o->types_from);
	else
		fputs("null", out);
	fprintf(out, ",\"calls\":%" PRIu64 ",\"error_returns\":%" PRIu64 ",\"origins\":%" PRIu64
		",\"not_errors_by_type\":%" PRIu64 ",\"untyped_error_returns\":%" PRIu64
		",\"groups_left_out\":%zu,\"groups\":[",
		s->calls, s->error_returns, s->origins, s->not_by_type, s->untyped_returns,
		kmag_errors_nr_groups(e) - n);
	for (i = 0; i < n; i++) {
		if (i)
			fputc(',', out);
		fputs("\n", out);
		json_group(out, kmag_errors_group(e, i), st);
	}
	fputs("\n]}\n", out);
}

int kmag_errors_render(FILE *out, const struct kmag_errors *e, const struct kmag_symtab *st,
		       const struct kmag_errors_render_opts *o)
{
	size_t n = kmag_errors_nr_groups(e);

	if (o->limit && n > o->limit)
		n = o->limit;
	if (o->format == KMAG_ERRORS_JSON)
		render_json(out, e, st, o, n);
	else
		render_text(out, e, st, o, n);
	return render_status(out);
}
