// SPDX-License-Identifier: MIT
/*
 * srcpath.c - kernel-tree-relative source paths from DWARF paths.
 *
 * Written here because no library knows what a kernel source tree looks
 * like: elfutils gives the paths exactly as the compiler recorded them.
 */
#include <stdio.h>

#include "internal.h"
#include "srcpath.h"

/* Top-level directories of a Linux source tree (any architecture, 2.6 .. 6.x). */
static const char *const top_dirs[] = {
	"arch", "block", "certs", "crypto", "drivers", "fs", "include", "init", "io_uring",
	"ipc", "kernel", "lib", "mm", "net", "rust", "samples", "scripts", "security",
	"sound", "tools", "usr", "virt",
};

static bool is_top_dir(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(top_dirs); i++)
		if (strlen(top_dirs[i]) == len && !memcmp(top_dirs[i], s, len))
			return true;
	return false;
}

void srcpath_clean(char *path)
{
	char *out = path, *p = path;
	bool abs = *path == '/';
	size_t fixed;	/* bytes of out that ".." may not remove (leading "../" runs) */

	if (abs) {
		out++;
		p++;
	}
	fixed = (size_t)(out - path);
	while (*p) {
		char *end = strchr(p, '/');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == 0 || (len == 1 && p[0] == '.')) {
			/* skip */
		} else if (len == 2 && p[0] == '.' && p[1] == '.') {
			if ((size_t)(out - path) > fixed) {
				/* drop the previous component */
				out--;	/* the '/' after it */
				while (out > path + fixed && out[-1] != '/')
					out--;
			} else if (!abs) {
				memmove(out, "../", 3);
				out += 3;
				fixed += 3;
			}
		} else {
			memmove(out, p, len);
			out += len;
			*out++ = '/';
		}
		p += len + (end ? 1 : 0);
		if (!end)
			break;
	}
	if (out > path + (abs ? 1 : 0) && out[-1] == '/')
		out--;
	*out = '\0';
}

/* Joins @name to @dir (when @name is relative and @dir absolute) and cleans it; malloc'ed. */
static char *join_clean(const char *name, const char *dir)
{
	char *s;

	if (name[0] != '/' && dir && dir[0] == '/') {
		if (asprintf(&s, "%s/%s", dir, name) < 0)
			return NULL;
	} else if (!(s = strdup(name))) {
		return NULL;
	}
	srcpath_clean(s);
	return s;
}

int srcroots_init(struct srcroots *r, const char *forced)
{
	memset(r, 0, sizeof(*r));
	if (forced && *forced) {
		if (asprintf(&r->forced, "%s/", forced) < 0) {
			r->forced = NULL;
			return -ENOMEM;
		}
		srcpath_clean(r->forced);
		if (strcmp(r->forced, "/")) {
			char *s = realloc(r->forced, strlen(r->forced) + 2);

			if (!s)
				return -ENOMEM;
			r->forced = strcat(s, "/");
		}
	}
	return 0;
}

void srcroots_release(struct srcroots *r)
{
	size_t i;

	for (i = 0; i < r->nr_units; i++)
		free(r->units[i]);
	free(r->units);
	for (i = 0; i < r->nr_roots; i++)
		free(r->roots[i]);
	free(r->roots);
	free(r->forced);
	memset(r, 0, sizeof(*r));
}

int srcroots_add_unit(struct srcroots *r, const char *name, const char *comp_dir)
{
	char *s;

	if (!name || !*name || r->forced)
		return 0;
	s = join_clean(name, comp_dir);
	if (!s || kmag__grow(&r->units, &r->cap_units, r->nr_units + 1, sizeof(*r->units))) {
		free(s);
		return -ENOMEM;
	}
	r->units[r->nr_units++] = s;
	return 0;
}

struct vote {
	const char *unit;	/* candidate = unit[0 .. len) */
	size_t len;
	size_t count;
};

/*
 * Whether the prefix @unit[0 .. @len) can be a tree root: not inside a
 * top-level directory ("drivers/" of drivers/net/x.c, "arch/x86/" of
 * arch/x86/crypto/x.c), which a unit-count vote alone cannot tell for a
 * module built from one or two files.
 */
static bool plausible_root(const char *unit, size_t len)
{
	const char *last, *prev;
	size_t n;

	if (len < 2)
		return true;
	last = unit + len - 1;	/* the '/' ending the prefix */
	prev = last;
	while (prev > unit && prev[-1] != '/')
		prev--;
	n = (size_t)(last - prev);
	if (is_top_dir(prev, n))
		return false;
	/* arch/<name>/ and tools/<name>/ */
	if (prev > unit) {
		/* pend: the '/' before the last component */
		const char *pend = prev - 1, *pp = pend;

		while (pp > unit && pp[-1] != '/')
			pp--;
		n = (size_t)(pend - pp);
		if ((n == 4 && !memcmp(pp, "arch", 4)) || (n == 5 && !memcmp(pp, "tools", 5)))
			return false;
	}
	return true;
}

/* Calls @fn for each candidate root of @unit: the prefix before a top-level dir. */
static int each_candidate(const char *unit, int (*fn)(void *ctx, const char *unit, size_t len),
			  void *ctx)
{
	const char *p = unit;
	int ret;

	for (;;) {
		const char *slash = strchr(p, '/');

		if (!slash)
			return 0;
		/* a file must follow the directory: "kernel/x.c", not just "kernel" */
		if (is_top_dir(p, (size_t)(slash - p)) && slash[1] &&
		    plausible_root(unit, (size_t)(p - unit)) &&
		    (ret = fn(ctx, unit, (size_t)(p - unit))))
			return ret;
		p = slash + 1;
	}
}

struct vote_table {
	struct vote *v;
	size_t nr, cap;
};

static struct vote *find_vote(struct vote_table *t, const char *unit, size_t len)
{
	size_t i;

	/* a handful of distinct candidates in practice: a linear scan is enough */
	for (i = 0; i < t->nr; i++)
		if (t->v[i].len == len && !memcmp(t->v[i].unit, unit, len))
			return &t->v[i];
	return NULL;
}

static int count_vote(void *ctx, const char *unit, size_t len)
{
	struct vote_table *t = ctx;
	struct vote *v = find_vote(t, unit, len);

	if (!v) {
		if (kmag__grow(&t->v, &t->cap, t->nr + 1, sizeof(*t->v)))
			return -ENOMEM;
		v = &t->v[t->nr++];
		*v = (struct vote){ unit, len, 0 };
	}
	v->count++;
	return 0;
}

struct pick {
	struct vote_table *t;
	const struct vote *best;
};

static int pick_best(void *ctx, const char *unit, size_t len)
{
	struct pick *p = ctx;
	const struct vote *v = find_vote(p->t, unit, len);

	if (v && (!p->best || v->count > p->best->count ||
		  (v->count == p->best->count && v->len > p->best->len)))
		p->best = v;
	return 0;
}

static int add_root(struct srcroots *r, const char *s, size_t len)
{
	char **roots;
	size_t i;

	for (i = 0; i < r->nr_roots; i++)
		if (strlen(r->roots[i]) == len && !memcmp(r->roots[i], s, len))
			return 0;
	roots = realloc(r->roots, (r->nr_roots + 1) * sizeof(*roots));
	if (!roots)
		return -ENOMEM;
	r->roots = roots;
	if (!(roots[r->nr_roots] = strndup(s, len)))
		return -ENOMEM;
	r->nr_roots++;
	return 0;
}

static int by_length_desc(const void *a, const void *b)
{
	size_t la = strlen(*(char *const *)a), lb = strlen(*(char *const *)b);

	return la < lb ? 1 : la > lb ? -1 : 0;
}

int srcroots_finish(struct srcroots *r, const char *const *known)
{
	struct vote_table t = { 0 };
	size_t i;
	int ret = 0;

	if (r->forced)
		return add_root(r, r->forced, strlen(r->forced));
	if (known && known[0]) {
		for (i = 0; known[i] && !ret; i++)
			ret = add_root(r, known[i], strlen(known[i]));
		if (!ret && r->nr_roots)
			qsort(r->roots, r->nr_roots, sizeof(*r->roots), by_length_desc);
		return ret;
	}
	for (i = 0; i < r->nr_units && !ret; i++)
		ret = each_candidate(r->units[i], count_vote, &t);
	for (i = 0; i < r->nr_units && !ret; i++) {
		struct pick p = { &t, NULL };

		each_candidate(r->units[i], pick_best, &p);
		if (p.best && p.best->len)
			ret = add_root(r, p.best->unit, p.best->len);
	}
	free(t.v);
	if (!ret && r->nr_roots)
		qsort(r->roots, r->nr_roots, sizeof(*r->roots), by_length_desc);
	return ret;
}

int srcroots_relative(const struct srcroots *r, const char *raw, const char *comp_dir, char *out,
		      size_t len)
{
	char *s = join_clean(raw, comp_dir), *rel;
	size_t i, cut = 0, n;

	if (!s)
		return -1;
	for (i = 0; i < r->nr_roots; i++) {
		n = strlen(r->roots[i]);
		if (!strncmp(s, r->roots[i], n)) {
			cut = n;
			break;
		}
	}
	/* files generated in the build directory: relative to it */
	if (comp_dir && comp_dir[0] == '/') {
		n = strlen(comp_dir);
		while (n > 1 && comp_dir[n - 1] == '/')
			n--;
		if (n > cut && !strncmp(s, comp_dir, n) && s[n] == '/')
			cut = n + 1;
	}
	rel = s + cut;
	n = strlen(rel);
	if (n + 1 > len) {
		free(s);
		return -1;
	}
	memcpy(out, rel, n + 1);
	free(s);
	return (int)n;
}
