// SPDX-License-Identifier: MIT
/*
 * html-errors.c - the data of the explorer's Errors panel: where the
 * trace's errors were born (errors.h), grouped by origin, errno and entry
 * point with counts and one example chain each, and the error paths the
 * graph marks, as the "errors" member of the page's JSON document:
 *
 *   "errors": {"types": "BTF of vmlinux" | null, "calls": N, "withRetval": N,
 *     "errorReturns": N, "origins": N, "notByType": N, "untyped": N,
 *     "nrGroups": N (all; "groups" holds at most HTML_ERRORS_MAX_GROUPS),
 *     "groups": [{"origin": F, "entry": F, "errno": -2, "errname": "ENOENT",
 *       "count": N, "reached": N, "pid": P, "start": NS, "cut": false,
 *       "after": F, "chain": [F, ...], "dur": [NS or -1, ...],
 *       "ret": [1 or 0, ...]}],
 *     "pathEdge": [edge, ...], "pathOrigin": [function, ...]}
 *
 * A function F is the page's index of a function it lists, the name of one
 * it leaves out (a path filter), or null (a caller the trace lacks). The
 * example chain runs from the entry point to the origin; "ret" says which
 * links returned the group's errno. "pathEdge" and "pathOrigin" are what
 * `kmag visualize --errors` draws purple (kmag_errors_path_edge/_origin):
 * the steps of the chains whose error reached the entry point, and their
 * origins. Names go through kmag_fput_json_string(), which escapes '<', so
 * no name can end the page's <script> element.
 */
#include <inttypes.h>

#include "html-errors.h"
#include "render-util.h"

bool html_errors_any(const struct kmag_explore *x)
{
	return x->errors && !x->diff && x->cg && kmag_errors_stats(x->errors)->calls_with_retval;
}

static void put_func(FILE *out, const struct html_errors_ctx *c, kmag_func_t func)
{
	long node = func == KMAG_FUNC_NONE ? -1 : kmag_cg_node_index(c->x->cg, func);
	const char *name;

	if (node >= 0 && c->new_of[node] != UINT32_MAX) {
		fprintf(out, "%" PRIu32, c->new_of[node]);
		return;
	}
	name = func == KMAG_FUNC_NONE ? NULL : kmag_symtab_name(c->x->st, func);
	if (name)
		kmag_fput_json_string(out, name);
	else
		fputs("null", out);
}

static void put_group(FILE *out, const struct html_errors_ctx *c, const struct kmag_error_group *g)
{
	const char *name = kmag_errno_name(g->errnum);
	uint32_t i;

	fputs("{\"origin\":", out);
	put_func(out, c, g->origin);
	fputs(",\"entry\":", out);
	put_func(out, c, g->entry);
	fprintf(out, ",\"errno\":%d,\"errname\":", -g->errnum);
	if (name)
		kmag_fput_json_string(out, name);
	else
		fputs("null", out);
	fprintf(out, ",\"count\":%" PRIu64 ",\"reached\":%" PRIu64 ",\"pid\":%" PRId32, g->count,
		g->reached, g->pid);
	if (g->start_ns != KMAG_TS_NONE)
		fprintf(out, ",\"start\":%" PRIu64, g->start_ns);
	fprintf(out, ",\"cut\":%s", g->chain_cut ? "true" : "false");
	if (g->after != KMAG_FUNC_NONE) {
		fputs(",\"after\":", out);
		put_func(out, c, g->after);
	}
	fputs(",\"chain\":[", out);
	for (i = 0; i < g->chain_len; i++) {
		if (i)
			fputc(',', out);
		put_func(out, c, g->chain[i].func);
	}
	fputs("],\"dur\":[", out);
	for (i = 0; i < g->chain_len; i++) {
		if (g->chain[i].duration == KMAG_DURATION_NONE)
			fprintf(out, "%s-1", i ? "," : "");
		else
			fprintf(out, "%s%" PRIu64, i ? "," : "", g->chain[i].duration);
	}
	fputs("],\"ret\":[", out);
	for (i = 0; i < g->chain_len; i++)
		fprintf(out, "%s%d", i ? "," : "", g->chain[i].returned_err ? 1 : 0);
	fputs("]}", out);
}

/* The page's edges and functions on the error paths (as visualize --errors marks them). */
static void put_paths(FILE *out, const struct html_errors_ctx *c)
{
	const struct kmag_cg_node *nodes = kmag_cg_nodes(c->x->cg);
	const struct kmag_cg_edge *edges = kmag_cg_edges(c->x->cg);
	size_t i, n = kmag_cg_nr_nodes(c->x->cg), shown = 0;

	fputs(",\"pathEdge\":[", out);
	for (i = 0; i < c->nr_edge; i++) {
		const struct kmag_cg_edge *e = &edges[c->edge[i]];

		if (kmag_errors_path_edge(c->x->errors, nodes[e->caller].func, nodes[e->callee].func))
			fprintf(out, "%s%zu", shown++ ? "," : "", i);
	}
	fputs("],\"pathOrigin\":[", out);
	shown = 0;
	for (i = 0; i < n; i++)
		if (c->new_of[i] != UINT32_MAX && kmag_errors_path_origin(c->x->errors, nodes[i].func))
			fprintf(out, "%s%" PRIu32, shown++ ? "," : "", c->new_of[i]);
	fputc(']', out);
}

void html_errors_write(FILE *out, const struct html_errors_ctx *c)
{
	const struct kmag_errors *e = c->x->errors;
	const struct kmag_errors_stats *s;
	size_t i, n;

	if (!html_errors_any(c->x))
		return;
	s = kmag_errors_stats(e);
	n = kmag_errors_nr_groups(e);
	fputs(",\"errors\":{\"types\":", out);
	if (c->x->errors_types)
		kmag_fput_json_string(out, c->x->errors_types);
	else
		fputs("null", out);
	fprintf(out, ",\"calls\":%" PRIu64 ",\"withRetval\":%" PRIu64 ",\"errorReturns\":%" PRIu64
		",\"origins\":%" PRIu64 ",\"notByType\":%" PRIu64 ",\"untyped\":%" PRIu64
		",\"nrGroups\":%zu,\"groups\":[",
		s->calls, s->calls_with_retval, s->error_returns, s->origins, s->not_by_type,
		s->untyped_returns, n);
	for (i = 0; i < n && i < HTML_ERRORS_MAX_GROUPS; i++) {
		if (i)
			fputc(',', out);
		put_group(out, c, kmag_errors_group(e, i));
	}
	fputc(']', out);
	put_paths(out, c);
	fputc('}', out);
}
