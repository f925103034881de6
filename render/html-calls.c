// SPDX-License-Identifier: MIT
/*
 * html-calls.c - the data of the explorer's Calls view: the sampled calls
 * of each function (callsample.h) and their call trees, as the "calls"
 * member of the page's JSON document.
 *
 * Column by column like the rest of the page: one array per field, the
 * trees as one flat array of nodes in preorder where each node gives the
 * distance back to its parent (0 for a tree's call) and its start relative
 * to the first kept call. Rare fields (flags, calls a tree leaves out) are
 * pairs of node index and value. Names go through kmag_fput_json_string(),
 * which escapes '<', so no name can end the page's <script> element.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "html-calls.h"
#include "kmag/callsample.h"
#include "kmag/errors.h"
#include "kmag/render/callfmt.h"
#include "kmag/srclines.h"
#include "grow.h"
#include "render-util.h"
#include "u64map.h"

/* Functions in trees that the page does not list (hidden by a path filter), by name. */
struct xnames {
	struct u64map of;	/* func id -> index in names */
	const char **names;
	size_t nr, cap;
};

/* The page's index of function @func: a shown function, N + an extra name, or -1. */
static long func_ref(const struct html_calls_ctx *c, struct xnames *xn, kmag_func_t func)
{
	long node;
	bool ins;
	uint64_t *v;

	if (func == KMAG_FUNC_NONE)
		return -1;
	node = kmag_cg_node_index(c->x->cg, func);
	if (node >= 0 && c->new_of[node] != UINT32_MAX)
		return (long)c->new_of[node];
	v = u64map_upsert(&xn->of, func, xn->nr, &ins);
	if (!v)
		return -2;
	if (ins) {
		const char *name = kmag_symtab_name(c->x->st, func);

		if (kmag__grow(&xn->names, &xn->cap, xn->nr + 1, sizeof(*xn->names)))
			return -2;
		xn->names[xn->nr++] = name ? name : "?";
	}
	return (long)(c->nr_shown + *v);
}

static void put_retval(FILE *out, const struct kmag_sample_node *n)
{
	int64_t e;

	if (!n->has_retval) {
		fputs("null", out);
		return;
	}
	e = kmag_call_errno(n->retval);
	if (e)
		fprintf(out, "%" PRId64, e);
	else if (n->retval >= 0 && n->retval < (1ll << 53))
		fprintf(out, "%" PRId64, n->retval);
	else	/* beyond a JavaScript number's exact integers: in hex, as the kernel prints it */
		fprintf(out, "\"0x%" PRIx64 "\"", (uint64_t)n->retval);
}

/* Names of the error codes the kept calls returned: {"-22":"EINVAL",...}. */
static void put_errnames(FILE *out, const struct kmag_sample_call *calls, size_t nc)
{
	bool seen[4096] = { false };
	size_t i, j, shown = 0;

	for (i = 0; i < nc; i++)
		for (j = 0; j < calls[i].nr_tree; j++) {
			const struct kmag_sample_node *n = &calls[i].tree[j];
			int64_t e = n->has_retval ? kmag_call_errno(n->retval) : 0;

			if (e)
				seen[-e] = true;
		}
	fputs(",\"errname\":{", out);
	for (i = 1; i < 4096; i++) {
		const char *name = seen[i] ? kmag_errno_name((int)i) : NULL;

		if (name)
			fprintf(out, "%s\"-%zu\":\"%s\"", shown++ ? "," : "", i, name);
	}
	fputc('}', out);
}

static void put_kept(FILE *out, const struct kmag_callsample_opts *o)
{
	fprintf(out, "\"kept\":{\"slowest\":%zu,\"failing\":%zu,\"first\":%zu,\"treeMax\":%zu,\"budget\":%zu}",
		o->slowest, o->failing, o->first, o->tree_max, o->budget);
}

/* Per listed function: its page index, calls seen and failing, kept per reason, its kept calls. */
static void put_funcs(FILE *out, const struct html_calls_ctx *c, const struct kmag_sample_func *f,
		      size_t nf, const long *ref)
{
	static const char *const keys[] = { "f", "seen", "fail", "ks", "kf", "k1", "cs", "cn" };
	size_t k, i, shown;

	fputs(",\"fn\":{", out);
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		fprintf(out, "%s\"%s\":[", k ? "," : "", keys[k]);
		for (i = 0, shown = 0; i < nf; i++) {
			uint64_t v[] = { (uint64_t)ref[i], f[i].calls, f[i].failing, f[i].kept_slowest,
					 f[i].kept_failing, f[i].kept_first, f[i].first_call,
					 f[i].nr_calls };

			if (ref[i] < 0 || (size_t)ref[i] >= c->nr_shown)
				continue;
			fprintf(out, "%s%" PRIu64, shown++ ? "," : "", v[k]);
		}
		fputc(']', out);
	}
	fputc('}', out);
}

/* Per kept call: its tree's first node, task, CPU, why it was kept, calls inside it. */
static void put_calls(FILE *out, const struct kmag_sample_call *calls, size_t nc)
{
	size_t i, node = 0;

	fputs(",\"call\":{\"node\":[", out);
	for (i = 0; i < nc; i++) {
		fprintf(out, "%s%zu", i ? "," : "", node);
		node += calls[i].nr_tree;
	}
	fputs("],\"pid\":[", out);
	for (i = 0; i < nc; i++)
		fprintf(out, "%s%d", i ? "," : "", calls[i].pid);
	fputs("],\"cpu\":[", out);
	for (i = 0; i < nc; i++)
		fprintf(out, "%s%d", i ? "," : "", calls[i].tree[0].cpu);
	fputs("],\"why\":[", out);
	for (i = 0; i < nc; i++)
		fprintf(out, "%s%u", i ? "," : "", calls[i].why);
	fputs("],\"inside\":[", out);
	for (i = 0; i < nc; i++)
		fprintf(out, "%s%" PRIu64, i ? "," : "", calls[i].inside);
	fputs("]}", out);
}

/* A field most nodes have at 0, as [node, value, node, value, ...] over all trees. */
static void put_rare(FILE *out, const char *key, const struct kmag_sample_call *calls, size_t nc,
		     bool more)
{
	size_t i, j, node = 0, any = 0;

	fprintf(out, ",\"%s\":[", key);
	for (i = 0; i < nc; i++)
		for (j = 0; j < calls[i].nr_tree; j++, node++) {
			uint64_t v = more ? calls[i].tree[j].more : calls[i].tree[j].flags;

			if (v)
				fprintf(out, "%s%zu,%" PRIu64, any++ ? "," : "", node, v);
		}
	fputc(']', out);
}

/*
 * The arguments ("args": "fd=0x3, count=0x400") or the call sites ("site":
 * "ksys_write+0x71", with a vmlinux "ksys_write+0x71 (fs/read_write.c:738)")
 * where recorded, as [node, text, ...] (callfmt.h: the same text as kmag
 * replay's).
 */
/* "ksys_write+0x71", and " (fs/read_write.c:738)" when the vmlinux has its line. */
static void site_text(const struct kmag_explore *x, const struct kmag_sample_node *n, char *buf,
		      size_t size)
{
	const char *caller = kmag_symtab_name(x->st, n->caller);
	size_t len = kmag_fmt_call_site(buf, size, caller, n->caller_off);
	char line[256];

	if (x->lines && caller && len + 4 < size &&
	    kmag_srclines_call_site(x->lines, caller, n->caller_off, line, sizeof(line)))
		snprintf(buf + len, size - len, " (%s)", line);
}

static void put_details(FILE *out, const struct kmag_explore *x,
			const struct kmag_sample_call *calls, size_t nc, bool site)
{
	size_t i, j, node = 0, any = 0;
	char buf[512];

	fprintf(out, ",\"%s\":[", site ? "site" : "args");
	for (i = 0; i < nc; i++)
		for (j = 0; j < calls[i].nr_tree; j++, node++) {
			const struct kmag_sample_node *n = &calls[i].tree[j];

			if (site && n->caller != KMAG_FUNC_NONE) {
				site_text(x, n, buf, sizeof(buf));
			} else if (!site && n->nargs) {
				struct kmag_call call = { .func = n->func, .nargs = n->nargs };

				memcpy(call.args, n->args, n->nargs * sizeof(*n->args));
				kmag_fmt_trace_args(buf, sizeof(buf), &call, x->trace);
			} else {
				continue;
			}
			if (!buf[0])
				continue;
			fprintf(out, "%s%zu,", any++ ? "," : "", node);
			kmag_fput_json_string(out, buf);
		}
	fputc(']', out);
}

/* Every tree's nodes, one after the other. */
static int put_nodes(FILE *out, const struct html_calls_ctx *c, struct xnames *xn,
		     const struct kmag_sample_call *calls, size_t nc, uint64_t t0, bool has_ret)
{
	size_t i, j, any;

	fputs(",\"node\":{\"fn\":[", out);
	for (i = 0, any = 0; i < nc; i++)
		for (j = 0; j < calls[i].nr_tree; j++) {
			long r = func_ref(c, xn, calls[i].tree[j].func);

			if (r == -2)
				return -ENOMEM;
			fprintf(out, "%s%ld", any++ ? "," : "", r);
		}
	fputs("],\"up\":[", out);
	for (i = 0, any = 0; i < nc; i++)
		for (j = 0; j < calls[i].nr_tree; j++)
			fprintf(out, "%s%zu", any++ ? "," : "", j ? j - calls[i].tree[j].parent : 0);
	fputs("],\"t\":[", out);
	for (i = 0, any = 0; i < nc; i++)
		for (j = 0; j < calls[i].nr_tree; j++) {
			uint64_t t = calls[i].tree[j].start_ns;

			if (t == KMAG_TS_NONE || t < t0)
				fprintf(out, "%s-1", any++ ? "," : "");
			else
				fprintf(out, "%s%" PRIu64, any++ ? "," : "", t - t0);
		}
	fputs("],\"d\":[", out);
	for (i = 0, any = 0; i < nc; i++)
		for (j = 0; j < calls[i].nr_tree; j++) {
			uint64_t d = calls[i].tree[j].duration;

			if (d == KMAG_DURATION_NONE)
				fprintf(out, "%s-1", any++ ? "," : "");
			else
				fprintf(out, "%s%" PRIu64, any++ ? "," : "", d);
		}
	fputc(']', out);
	if (has_ret) {
		fputs(",\"r\":[", out);
		for (i = 0, any = 0; i < nc; i++)
			for (j = 0; j < calls[i].nr_tree; j++) {
				if (any++)
					fputc(',', out);
				put_retval(out, &calls[i].tree[j]);
			}
		fputc(']', out);
	}
	put_rare(out, "flags", calls, nc, false);
	put_rare(out, "more", calls, nc, true);
	put_details(out, c->x, calls, nc, false);
	put_details(out, c->x, calls, nc, true);
	fputc('}', out);
	return 0;
}

static uint64_t t0_of(const struct kmag_sample_call *calls, size_t nc)
{
	uint64_t t0 = KMAG_TS_NONE;
	size_t i;

	for (i = 0; i < nc; i++)
		if (calls[i].tree[0].start_ns < t0)
			t0 = calls[i].tree[0].start_ns;
	return t0 == KMAG_TS_NONE ? 0 : t0;
}

/* The tasks' names, once per task: {"198":"wl.sh",...}. */
static int put_comms(FILE *out, const struct kmag_explore *x, const struct kmag_sample_call *calls,
		     size_t nc)
{
	struct u64map pids;
	size_t i, shown = 0;
	int ret = 0;

	u64map_init(&pids);
	fputs(",\"comm\":{", out);
	for (i = 0; x->trace && i < nc; i++) {
		bool ins;
		const char *comm;

		if (!u64map_upsert(&pids, (uint32_t)calls[i].pid, 0, &ins)) {
			ret = -ENOMEM;
			break;
		}
		if (!ins || calls[i].pid < 0 || !(comm = kmag_trace_comm(x->trace, calls[i].pid)))
			continue;
		fprintf(out, "%s\"%d\":", shown++ ? "," : "", calls[i].pid);
		kmag_fput_json_string(out, comm);
	}
	fputc('}', out);
	u64map_release(&pids);
	return ret;
}

int html_calls_write(FILE *out, const struct html_calls_ctx *c)
{
	const struct kmag_callsample *s = c->x->calls;
	size_t nf, nc, i, j;
	const struct kmag_sample_func *f = kmag_callsample_funcs(s, &nf);
	const struct kmag_sample_call *calls = kmag_callsample_calls(s, &nc);
	struct xnames xn = { 0 };
	long *ref = malloc((nf ? nf : 1) * sizeof(*ref));
	bool has_ret = false;
	uint64_t t0 = t0_of(calls, nc);
	int ret = 0;

	u64map_init(&xn.of);
	if (!ref) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < nf; i++) {
		long node = kmag_cg_node_index(c->x->cg, f[i].func);

		ref[i] = node >= 0 && c->new_of[node] != UINT32_MAX ? (long)c->new_of[node] : -1;
	}
	for (i = 0; i < nc && !has_ret; i++)
		for (j = 0; j < calls[i].nr_tree && !has_ret; j++)
			has_ret = calls[i].tree[j].has_retval;
	fputs(",\"calls\":{", out);
	put_kept(out, kmag_callsample_opts(s));
	fprintf(out, ",\"hasRet\":%s,\"t0\":%" PRIu64 ",\"nodes\":%zu",
		has_ret ? "true" : "false", t0, kmag_callsample_nr_nodes(s));
	put_funcs(out, c, f, nf, ref);
	put_calls(out, calls, nc);
	if ((ret = put_nodes(out, c, &xn, calls, nc, t0, has_ret)))
		goto out;
	if (has_ret)
		put_errnames(out, calls, nc);
	fputs(",\"xname\":[", out);
	for (i = 0; i < xn.nr; i++) {
		if (i)
			fputc(',', out);
		kmag_fput_json_string(out, xn.names[i]);
	}
	fputc(']', out);
	if (!(ret = put_comms(out, c->x, calls, nc)))
		fputc('}', out);
out:
	u64map_release(&xn.of);
	free(xn.names);
	free(ref);
	return ret;
}
