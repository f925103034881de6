// SPDX-License-Identifier: MIT
/*
 * symmap-opts.c - the symbol-map options (--symbol-file-path,
 * --filter-filepath) of the commands that show functions.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cli.h"
#include "kmag/profile.h"

/* "Linux host 6.1.0-56-cloud-amd64 #1 SMP ..." -> "6.1.0-56-cloud-amd64" (static), or NULL. */
static const char *release_of(const char *uname)
{
	static char rel[128];

	if (!uname || sscanf(uname, "%*s %*s %127s", rel) != 1)
		return NULL;
	return rel;
}

int cli_symmap_load(struct cli_symmap *s, const char *release, const char *for_what)
{
	struct kmag_err err = { 0 };
	struct utsname u;
	const char *mrel;

	if (s->filepath && !(s->filter = kmag_pathfilter_new(s->filepath, &err)))
		return cli_lib_error(&err, "bad --filter-filepath");
	s->used = s->map_path ? s->map_path : kmag_symmap_default_path(release);
	if (!s->used) {
		if (!s->filter)
			return 0;	/* file:line is a bonus; the filter is not */
		if (!release && !uname(&u))
			release = u.release;
		return cli_error("--filter-filepath needs a symbol map and none was found for kernel %s (~/.cache/kmag/symbols-%s.map); create it with `kmag generate-symbol-map%s%s` or pass --symbol-file-path MAP",
				 release ? release : "?", release ? release : "<release>",
				 release ? " -r " : "", release ? release : "");
	}
	s->map = kmag_symmap_load(s->used, &err);
	if (!s->map)
		return cli_lib_error(&err, "cannot load the symbol map");
	mrel = kmag_symmap_kernel_release(s->map);
	if (release && mrel && strcmp(release, mrel))
		cli_warn("the symbol map %s is for kernel %s but %s %s; run `kmag generate-symbol-map -r %s`",
			 s->used, mrel, for_what, release, release);
	return 0;
}

int cli_symmap_after_open(void *ctx, struct kmag_trace *t)
{
	struct cli_symmap *s = ctx;
	const char *release = release_of(kmag_trace_info(t)->uname);
	struct kmag_symtab *st = kmag_trace_symtab(t);
	struct kmag_err err = { 0 };
	int ret;

	/* a profile names its functions' files itself (where it was written with a map) */
	if (!s->map_path && (s->map = kmag_profile_symmap(t))) {
		s->used = "the source files the profile names";
		if (s->filepath && !(s->filter = kmag_pathfilter_new(s->filepath, &err)))
			return cli_lib_error(&err, "bad --filter-filepath");
	} else if (!s->map_path && errno == ENOMEM) {
		return cli_error("out of memory");
	} else if ((ret = cli_symmap_load(s, release, "the trace was recorded on")) || !s->map) {
		return ret;
	}
	/* with addresses, same-named static functions become separate functions */
	if (kmag_symtab_nr_addrs(st) && kmag_symtab_split_duplicates(st) < 0)
		return cli_error("out of memory");
	s->loc = kmag_srcloc_new(s->map, st);
	if (!s->loc)
		return cli_error("out of memory");
	kmag_srcloc_set_filter(s->loc, s->filter);
	return 0;
}

void cli_symmap_describe(const struct cli_symmap *s, const struct cli_graph *g, char *buf,
			 size_t len)
{
	const struct kmag_cg_node *nodes = kmag_cg_nodes(g->cg);
	size_t n = kmag_cg_nr_nodes(g->cg), i, shown = 0;

	buf[0] = '\0';
	if (!s->filter || !s->loc)
		return;
	for (i = 0; i < n; i++)
		shown += kmag_srcloc_match(s->loc, s->filter, nodes[i].func);
	snprintf(buf, len, "path %s (%zu of %zu functions)", s->filepath, shown, n);
}

void cli_symmap_warn(const struct cli_symmap *s)
{
	struct kmag_srcloc_stats st;

	if (!s->loc)
		return;
	st = kmag_srcloc_stats(s->loc);
	if (st.ambiguous)
		cli_warn("%zu function name%s %s in several source files and the trace has no addresses to tell them apart; shown with \"(+N more)\"%s",
			 st.ambiguous, st.ambiguous == 1 ? "" : "s", st.ambiguous == 1 ? "is" : "are",
			 s->filter ? ", kept by --filter-filepath if any of their files matches" : "");
	if (st.unmapped && st.unmapped * 2 > st.mapped + st.unmapped)
		cli_warn("the symbol map %s knows only %zu of %zu functions of the trace; is it for this kernel (and its modules, -m)?",
			 s->used, st.mapped, st.mapped + st.unmapped);
}

void cli_symmap_release(struct cli_symmap *s)
{
	kmag_srcloc_free(s->loc);
	kmag_symmap_free(s->map);
	kmag_pathfilter_free(s->filter);
	memset(s, 0, sizeof(*s));
}
