// SPDX-License-Identifier: MIT
/*
 * record-topts.c - the tracer options that make current kernels record more
 * per call: return values (funcgraph-retval, Linux 6.5+ with
 * CONFIG_FUNCTION_GRAPH_RETVAL; the binary records carry them whenever the
 * kernel has that, the option adds them to the text output), call sites (funcgraph-retaddr, 6.13+ with
 * CONFIG_FUNCTION_GRAPH_RETADDR) and, on request, arguments (funcgraph-args
 * or func-args, 6.15+ with CONFIG_FUNCTION_TRACE_ARGS). Each is written only
 * where its file exists and holds another value; a kernel without them
 * records as before.
 *
 * Since Linux 6.19 these options belong to each tracefs instance. Before, an
 * instance's option file is the tracer's one global flag: a private instance
 * is then only used when writing its option leaves the top level alone
 * (tried with the first write the recording needs anyway); otherwise the top
 * level is used, where these files are saved and restored like the others.
 */
#include <stdio.h>
#include <unistd.h>

#include "record-internal.h"

enum topt_what { TOPT_RETVAL, TOPT_RETADDR, TOPT_ARGS };

static const struct topt {
	const char *rel;
	enum kmag_rec_tracer tracer;
	enum topt_what what;
	const char *desc;	/* for kmag_rec_result.recorded */
} topts[] = {
	{ "options/funcgraph-retval", KMAG_REC_TRACER_FUNCTION_GRAPH, TOPT_RETVAL, "return values" },
	{ "options/funcgraph-retaddr", KMAG_REC_TRACER_FUNCTION_GRAPH, TOPT_RETADDR, "call sites" },
	{ "options/funcgraph-args", KMAG_REC_TRACER_FUNCTION_GRAPH, TOPT_ARGS, "arguments" },
	{ "options/func-args", KMAG_REC_TRACER_FUNCTION, TOPT_ARGS, "arguments" },
};

static bool exists(const char *dir, const char *rel)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	return !access(path, F_OK);
}

/* The option's file holds "1" (true), "0" (false); -1 if unreadable. */
static int get(const char *dir, const char *rel)
{
	char *v = kmag__tracefs_read(dir, rel);
	int ret = v ? v[0] == '1' : -1;

	free(v);
	return ret;
}

/* Whether the recording wants option @t on; false for another tracer's option. */
static bool wanted(const struct kmag_recorder *r, const struct topt *t)
{
	switch (t->what) {
	case TOPT_RETVAL:
		return true;
	case TOPT_RETADDR:
		return !r->o.no_retaddr;
	case TOPT_ARGS:
		return r->o.args;
	}
	return false;
}

int kmag__rec_topts_check(struct kmag_recorder *r, struct kmag_err *err)
{
	size_t i;

	if (r->tracer == KMAG_REC_TRACER_FUNCTION_GRAPH && !r->o.no_retaddr &&
	    !exists(r->dir, "options/funcgraph-retaddr"))
		r->res.lacks = "this kernel has no options/funcgraph-retaddr (call sites: Linux 6.13+ with CONFIG_FUNCTION_GRAPH_RETADDR)";
	if (!r->o.args)
		return 0;
	if (r->tracer == KMAG_REC_TRACER_NONE)
		return kmag_err_set(err, EINVAL,
				    "--args records function arguments: it needs a function tracer (function_graph or function), not events alone");
	for (i = 0; i < ARRAY_SIZE(topts); i++)
		if (topts[i].tracer == r->tracer && topts[i].what == TOPT_ARGS &&
		    !exists(r->dir, topts[i].rel))
			return kmag_err_set(err, ENODEV,
					    "--args needs a kernel that records function arguments (Linux 6.15+ with CONFIG_FUNCTION_TRACE_ARGS); this one has no %s",
					    topts[i].rel);
	return 0;
}

const char *kmag__rec_topts_instance_lacks(struct kmag_recorder *r)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(topts); i++) {
		const struct topt *t = &topts[i];
		bool want = wanted(r, t);
		int now, top, top_after;

		if (t->tracer != r->tracer || !exists(r->dir, t->rel))
			continue;
		if (!exists(r->inst_dir, t->rel)) {
			if (!want)
				continue;
			snprintf(r->topt_why, sizeof(r->topt_why), "instances have no %s", t->rel);
			return r->topt_why;
		}
		now = get(r->inst_dir, t->rel);
		top = get(r->dir, t->rel);
		if (now < 0 || top < 0 || now == want)
			continue;
		/* a global flag changes the top level too: put it back and use the top level */
		if (kmag__tracefs_write(r->inst_dir, t->rel, want ? "1" : "0", NULL))
			continue;	/* kmag__rec_topts_set() reports it */
		top_after = get(r->dir, t->rel);
		if (top_after == top)
			continue;
		kmag__tracefs_write(r->inst_dir, t->rel, now ? "1" : "0", NULL);
		snprintf(r->topt_why, sizeof(r->topt_why),
			 "%s is one flag for all instances before Linux 6.19", t->rel);
		return r->topt_why;
	}
	return NULL;
}

int kmag__rec_topts_set(struct kmag_recorder *r, struct kmag_err *err)
{
	const char *dir = r->inst_dir ? r->inst_dir : r->dir;
	size_t i, len = 0;

	r->recorded[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(topts); i++) {
		const struct topt *t = &topts[i];
		bool want = wanted(r, t);
		struct kmag_err e = { 0 };
		int now, ret;

		if (t->tracer != r->tracer || !exists(dir, t->rel))
			continue;
		now = get(dir, t->rel);
		if (now != want) {
			ret = kmag__tracefs_write(dir, t->rel, want ? "1" : "0", &e);
			if (ret == -EPERM || ret == -EACCES) {
				char what[96];

				snprintf(what, sizeof(what), "changing tracefs here (writing %s)",
					 t->rel);
				return kmag__tracefs_perm_error(err, what);
			}
			if (ret)
				return kmag_err_set(err, e.code, "cannot turn %s %s: %s",
						    want ? "on" : "off", t->rel, e.msg);
		}
		if (want)
			len += (size_t)snprintf(r->recorded + len, sizeof(r->recorded) - len,
						"%s%s", len ? ", " : "", t->desc);
	}
	r->res.recorded = r->recorded;
	return 0;
}
