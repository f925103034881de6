// SPDX-License-Identifier: MIT
/*
 * html-sites.c - the explorer's "Called from" lists: per function the page
 * lists, the distinct call sites it was called from (funcgraph-retaddr, as
 * kmag_callsites counted them over all calls), most calls first, as the
 * "sites" member of the page's JSON document, column by column:
 *
 *   "sites": {"f": [callee], "c": [caller], "s": ["ksys_write+0x71"],
 *             "n": [calls], "l": ["fs/read_write.c:738" or null]}
 *
 * f and c are the page's function indexes (c is -1 for a caller the page
 * does not list), the rows of one function are consecutive; "l" is there
 * only with a vmlinux (x->lines). Text goes through kmag_fput_json_string(),
 * which escapes '<'.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "html-sites.h"
#include "kmag/render/callfmt.h"
#include "kmag/srclines.h"
#include "render-util.h"

struct row {
	uint32_t fn;		/* the callee's page index */
	size_t site;		/* index in kmag_callsites_list() */
	uint64_t count;
};

static int by_fn_count(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->fn != y->fn)
		return x->fn < y->fn ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->site < y->site ? -1 : x->site > y->site;
}

/* The page's index of @func, or -1 when the page does not list it. */
static long page_index(const struct html_sites_ctx *c, kmag_func_t func)
{
	long node = kmag_cg_node_index(c->x->cg, func);

	return node >= 0 && c->new_of[node] != UINT32_MAX ? (long)c->new_of[node] : -1;
}

static const char *name_of(const struct kmag_explore *x, kmag_func_t f)
{
	const char *n = kmag_symtab_name(x->st, f);

	return n ? n : "?";
}

static void put_column(FILE *out, const struct html_sites_ctx *c, const struct kmag_callsite *cs,
		       const struct row *rows, size_t n, char key)
{
	char buf[512];
	size_t i;

	fprintf(out, "%s\"%c\":[", key == 'f' ? "" : ",", key);
	for (i = 0; i < n; i++) {
		const struct kmag_callsite *s = &cs[rows[i].site];

		if (i)
			fputc(',', out);
		switch (key) {
		case 'f':
			fprintf(out, "%" PRIu32, rows[i].fn);
			break;
		case 'c':
			fprintf(out, "%ld", page_index(c, s->caller));
			break;
		case 'n':
			fprintf(out, "%" PRIu64, rows[i].count);
			break;
		case 's':
			kmag_fmt_call_site(buf, sizeof(buf), name_of(c->x, s->caller), s->caller_off);
			kmag_fput_json_string(out, buf);
			break;
		default:	/* 'l' */
			if (kmag_srclines_call_site(c->x->lines, name_of(c->x, s->caller),
						    s->caller_off, buf, sizeof(buf)))
				kmag_fput_json_string(out, buf);
			else
				fputs("null", out);
			break;
		}
	}
	fputc(']', out);
}

int html_sites_write(FILE *out, const struct html_sites_ctx *c)
{
	size_t nr, i, n = 0;
	const struct kmag_callsite *cs = kmag_callsites_list(c->x->callsites, &nr);
	struct row *rows;

	if (!nr)
		return 0;
	rows = malloc(nr * sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		long fn = page_index(c, cs[i].callee);

		if (fn >= 0)
			rows[n++] = (struct row){ (uint32_t)fn, i, cs[i].count };
	}
	if (n) {
		qsort(rows, n, sizeof(*rows), by_fn_count);
		fputs(",\"sites\":{", out);
		put_column(out, c, cs, rows, n, 'f');
		put_column(out, c, cs, rows, n, 'c');
		put_column(out, c, cs, rows, n, 's');
		put_column(out, c, cs, rows, n, 'n');
		if (c->x->lines)
			put_column(out, c, cs, rows, n, 'l');
		fputc('}', out);
	}
	free(rows);
	return 0;
}
