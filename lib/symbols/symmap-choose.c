// SPDX-License-Identifier: MIT
/*
 * symmap-choose.c - which symbol map a command uses: the one asked for, else
 * the default for the trace's kernel (kmag_symmap_default_path()), with the
 * path filter that needs it (include/kmag/symmap.h).
 */
#define PR_DOMAIN "symmap"
#include <stdio.h>
#include <sys/utsname.h>

#include "internal.h"
#include "kmag/symmap.h"

int kmag_symmap_choose(struct kmag_symmap_choice *c, struct kmag_err *err)
{
	const char *release = c->release, *path, *mrel;
	struct utsname u;

	if (c->filepath && !(c->filter = kmag_pathfilter_new(c->filepath, err)))
		return kmag_err_set(err, EINVAL, "bad --filter-filepath");
	path = c->path ? c->path : kmag_symmap_default_path(release);
	if (!path) {
		if (!c->filter)
			return 0;	/* file:line is a bonus; the filter is not */
		if (!release && !uname(&u))
			release = u.release;
		return kmag_err_set(err, ENOENT,
				    "--filter-filepath needs a symbol map and none was found for kernel %s (~/.cache/kmag/symbols-%s.map); create it with `kmag generate-symbol-map%s%s` or pass --symbol-file-path MAP",
				    release ? release : "?", release ? release : "<release>",
				    release ? " -r " : "", release ? release : "");
	}
	/* (the default path is a static buffer another lookup would overwrite) */
	snprintf(c->used, sizeof(c->used), "%s", path);
	c->map = kmag_symmap_load(c->used, err);
	if (!c->map)
		return kmag_err_set(err, errno ? errno : EIO, "cannot load the symbol map");
	mrel = kmag_symmap_kernel_release(c->map);
	if (c->release && mrel && strcmp(c->release, mrel))
		kmag__tell(c->warn, c->warn_ctx, KMAG_LOG_WARN, PR_DOMAIN,
			   "the symbol map %s is for kernel %s but %s %s; run `kmag generate-symbol-map -r %s`",
			   c->used, mrel, c->for_what, c->release, c->release);
	return 0;
}

void kmag_symmap_choice_release(struct kmag_symmap_choice *c)
{
	kmag_symmap_free(c->map);
	kmag_pathfilter_free(c->filter);
	c->map = NULL;
	c->filter = NULL;
	c->used[0] = '\0';
}
