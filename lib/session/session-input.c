// SPDX-License-Identifier: MIT
/*
 * session-input.c - what a session opens before reading: the vmlinux, the
 * trace or profile, the kernel's BTF and the symbol map of the trace's
 * kernel; and a profile's sums as the call graph.
 */
#define PR_DOMAIN "session"
#include <stdio.h>
#include <unistd.h>

#include "session-internal.h"
#include "kmag/btf.h"
#include "kmag/filter.h"
#include "kmag/profile.h"
#include "kmag/srclines.h"

static const char profile_is[] = "is a profile (sums of calls, from report --format json or merge)";

/*
 * A profile holds sums, no events: the views of single calls and the options
 * that choose events or follow call paths cannot apply. 0 or -EINVAL.
 */
static int profile_refuses(const struct kmag_session *s, struct kmag_err *err)
{
	const struct kmag_session_opts *o = &s->o;
	const char *opt = o->pids ? "--pid" : o->comms ? "--comm" : o->cpus ? "--cpu" :
			  o->time ? "--time" : o->min_duration_ns ? "--min-duration" : NULL;

	if (!o->views.graph)
		return kmag_err_set(err, EINVAL, "%s %s: %s needs a trace's events", s->name,
				    profile_is, s->what);
	if (opt)
		return kmag_err_set(err, EINVAL, "%s %s: %s needs a trace's events", s->name,
				    profile_is, opt);
	if (o->views.call_paths && !o->views.paths_optional)
		return kmag_err_set(err, EINVAL,
				    "%s is a profile (sums of calls per function and call edge): %s needs a trace's call paths here",
				    s->name, s->what);
	return 0;
}

/* Events in time order across CPUs, unless only a function tracer's sums are wanted. */
static bool need_order(const struct kmag_session_opts *o)
{
	const struct kmag_session_views *v = &o->views;

	return !o->unordered || o->time || v->call_paths || v->split || v->probes || v->slowest ||
	       v->errors || v->calls || v->nr_args || v->callsites;
}

static int open_trace(struct kmag_session *s, struct kmag_err *err)
{
	struct kmag_trace_opts topts = { .reader = s->o.reader, .unordered = !need_order(&s->o),
					 .threads = s->o.threads };
	struct kmag_err e = { 0 };

	s->trace = kmag_trace_open(s->path, &topts, &e);
	if (!s->trace) {
		if (!s->o.path && e.code == ENOENT)
			return kmag_err_set(err, ENOENT,
					    "no trace file given and ./trace.dat does not exist; record one with `kmag record` or pass a file");
		if (!e.code)
			kmag_err_set(&e, EIO, "cannot open the trace");
		return kmag_err_set(err, e.code, "%s", e.msg);
	}
	kmag_trace_set_strict(s->trace, s->o.strict);
	if (kmag_trace_info(s->trace)->format == KMAG_INPUT_PROFILE)
		return profile_refuses(s, err);
	return 0;
}

/* --btf, else the BTF the trace.dat stores (trace-cmd 3.4, kmag record): names arguments. */
static int open_btf(struct kmag_session *s, struct kmag_err *err)
{
	struct kmag_err e = { 0 };

	if (!s->o.btf_path) {
		size_t size = 0;
		const void *blob = kmag_trace_btf(s->trace, &size);

		if (!blob || !kmag_has_feature(KMAG_FEATURE_BTF))
			return 0;
		if (!(s->btf = kmag_btf_from_blob(blob, size, &e))) {
			kmag__session_warn(s, "%s: arguments stay unnamed", e.msg);
			return 0;
		}
		snprintf(s->types_from, sizeof(s->types_from), "the BTF the trace stores");
	} else {
		if (!(s->btf = kmag_btf_open(s->o.btf_path, err)))
			return kmag_err_set(err, EIO, "cannot read BTF");
		snprintf(s->types_from, sizeof(s->types_from), "BTF of %s", s->o.btf_path);
	}
	kmag_trace_set_btf(s->trace, s->btf);
	return 0;
}

/* "Linux host 6.1.0-56-cloud-amd64 #1 SMP ..." -> "6.1.0-56-cloud-amd64" in @buf, or NULL. */
static const char *release_of(const char *uname, char *buf, size_t size)
{
	char fmt[32];

	snprintf(fmt, sizeof(fmt), "%%*s %%*s %%%zus", size - 1);
	if (!uname || sscanf(uname, fmt, buf) != 1)
		return NULL;
	return buf;
}

/* The symbol map of the trace's kernel, or the files a profile names; the path filter. */
static int open_symbols(struct kmag_session *s, struct kmag_err *err)
{
	struct kmag_symtab *st = kmag_trace_symtab(s->trace);
	struct kmag_symmap_choice *c = &s->sym;
	struct kmag_symmap *map;
	char rel[128];

	c->path = s->o.symbol_map;
	c->filepath = s->o.filter_filepath;
	c->release = release_of(kmag_trace_info(s->trace)->uname, rel, sizeof(rel));
	c->for_what = "the trace was recorded on";
	c->warn = s->o.warn;
	c->warn_ctx = s->o.warn_ctx;
	/* a profile names its functions' files itself (where it was written with a map) */
	if (!c->path && (s->profile_map = kmag_profile_symmap(s->trace))) {
		snprintf(c->used, sizeof(c->used), "the source files the profile names");
		if (c->filepath && !(c->filter = kmag_pathfilter_new(c->filepath, err)))
			return kmag_err_set(err, EINVAL, "bad --filter-filepath");
		map = s->profile_map;
	} else if (!c->path && errno == ENOMEM) {
		return kmag_err_set(err, ENOMEM, "out of memory");
	} else {
		int ret = kmag_symmap_choose(c, err);

		c->release = NULL;	/* (@rel goes out of scope) */
		if (ret || !c->map)
			return ret;
		map = c->map;
	}
	/* with addresses, same-named static functions become separate functions */
	if (kmag_symtab_nr_addrs(st) && kmag_symtab_split_duplicates(st) < 0)
		return kmag_err_set(err, ENOMEM, "out of memory");
	s->loc = kmag_srcloc_new(map, st);
	if (!s->loc)
		return kmag_err_set(err, ENOMEM, "out of memory");
	kmag_srcloc_set_filter(s->loc, c->filter);
	return 0;
}

int kmag__session_open_input(struct kmag_session *s, struct kmag_err *err)
{
	int ret;

	/* the vmlinux first: a wrong one is said before a long read */
	if (s->o.vmlinux && !(s->lines = kmag_srclines_open(s->o.vmlinux, err)))
		return kmag_err_set(err, EIO, "cannot read the vmlinux");
	if ((ret = open_trace(s, err)) || (ret = open_btf(s, err)))
		return ret;
	return s->o.symbols ? open_symbols(s, err) : 0;
}

int kmag__session_load_profile(struct kmag_session *s, struct kmag_err *err)
{
	int ret = kmag_cg_load_profile(s->cg, s->trace, err);

	return ret ? kmag_err_set(err, -ret, "cannot read the profile") : 0;
}
