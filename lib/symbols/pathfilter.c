// SPDX-License-Identifier: MIT
/*
 * pathfilter.c - "net,kernel/sched/fair.c" path filters over source paths.
 */
#include <stdio.h>

#include "internal.h"
#include "kmag/symmap.h"

struct pattern {
	char *text;
	bool anchored;	/* leading '/' */
	bool glob;
};

struct kmag_pathfilter {
	char *spec;
	struct pattern *pats;
	size_t nr;
};

struct kmag_pathfilter *kmag_pathfilter_new(const char *spec, struct kmag_err *err)
{
	struct kmag_pathfilter *f = calloc(1, sizeof(*f));
	const char *p = spec;

	if (!f || !(f->spec = strdup(spec))) {
		free(f);
		kmag_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	while (*p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		while (len && *p == ' ') {
			p++;
			len--;
		}
		if (len) {
			struct pattern *pt;
			size_t cap = f->nr;

			if (kmag__grow(&f->pats, &cap, f->nr + 1, sizeof(*f->pats)))
				goto oom;
			pt = &f->pats[f->nr];
			pt->anchored = *p == '/';
			pt->text = strndup(p + pt->anchored, len - pt->anchored);
			if (!pt->text)
				goto oom;
			pt->glob = strpbrk(pt->text, "*?[") != NULL;
			f->nr++;
		}
		p += len + (comma ? 1 : 0);
		if (!comma)
			break;
	}
	if (!f->nr) {
		kmag_pathfilter_free(f);
		kmag_err_set(err, EINVAL, "empty path filter \"%s\" (expected e.g. net,kernel/sched/fair.c)",
			     spec);
		return NULL;
	}
	return f;
oom:
	kmag_pathfilter_free(f);
	kmag_err_set(err, ENOMEM, "out of memory");
	return NULL;
}

void kmag_pathfilter_free(struct kmag_pathfilter *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->nr; i++)
		free(f->pats[i].text);
	free(f->pats);
	free(f->spec);
	free(f);
}

/* Strips an absolute build-directory prefix the seed's maps may carry is not
 * possible in general, so anchored patterns also match after any "/". */
static bool match_one(const struct pattern *pt, const char *path)
{
	if (pt->glob) {
		char buf[4096];

		if (pt->anchored)
			return kmag__glob_match(pt->text, path) ||
			       (snprintf(buf, sizeof(buf), "*/%s", pt->text) < (int)sizeof(buf) &&
				path[0] == '/' && kmag__glob_match(buf, path));
		snprintf(buf, sizeof(buf), "*%s*", pt->text);
		return kmag__glob_match(buf, path);
	}
	if (pt->anchored) {
		size_t n = strlen(pt->text);

		if (!strncmp(path, pt->text, n))
			return true;
		/* absolute paths (seed maps): the pattern may start after any '/' */
		if (path[0] == '/') {
			const char *s = path;

			while ((s = strstr(s, pt->text))) {
				if (s > path && s[-1] == '/')
					return true;
				s++;
			}
		}
		return false;
	}
	return strstr(path, pt->text) != NULL;
}

bool kmag_pathfilter_match(const struct kmag_pathfilter *f, const char *path)
{
	size_t i;

	if (!path)
		return false;
	for (i = 0; i < f->nr; i++)
		if (match_one(&f->pats[i], path))
			return true;
	return false;
}
