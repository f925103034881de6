// SPDX-License-Identifier: MIT
/*
 * symmap.c - symbol maps (function -> source file:line) and path filters.
 */
#define PR_DOMAIN "symmap"
#include <stdio.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "internal.h"
#include "kmag/symmap.h"
#include "util/u64map.h"

#define KMAG_MAP_MAGIC "# kmag symbol map v"
#define KMAG_MAP_VERSION 1
#define MAX_MAP_LINE 65536

struct kmag_symmap {
	struct kmag_symmap_entry *entries;
	size_t nr, cap;
	uint32_t *next_same;		/* entry -> next entry with the same name, UINT32_MAX = end */
	struct kmag_symtab *names;	/* interned names; id -> first entry via first_of */
	struct kmag_symtab *strings;	/* interned files and modules */
	uint32_t *first_of;		/* name id -> first entry */
	size_t cap_first;
	bool bound;
	int64_t reloc;			/* runtime - link-time address */
};

struct kmag_symmap *kmag_symmap_new(void)
{
	struct kmag_symmap *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->names = kmag_symtab_new();
	m->strings = kmag_symtab_new();
	if (!m->names || !m->strings) {
		kmag_symmap_free(m);
		return NULL;
	}
	return m;
}

void kmag_symmap_free(struct kmag_symmap *m)
{
	if (!m)
		return;
	kmag_symtab_free(m->names);
	kmag_symtab_free(m->strings);
	free(m->entries);
	free(m->next_same);
	free(m->first_of);
	free(m);
}

static const char *intern(struct kmag_symtab *st, const char *s, size_t len)
{
	kmag_func_t id = kmag_symtab_intern(st, s, len);

	return id == KMAG_FUNC_NONE ? NULL : kmag_symtab_name(st, id);
}

static int add_entry(struct kmag_symmap *m, const char *name, size_t name_len, const char *file,
		     size_t file_len, uint32_t line, uint64_t addr, uint64_t size, const char *module,
		     size_t module_len)
{
	struct kmag_symmap_entry *e;
	kmag_func_t id;
	size_t cap = m->cap, i;

	id = kmag_symtab_intern(m->names, name, name_len);
	if (id == KMAG_FUNC_NONE)
		return -ENOMEM;
	if (kmag__grow(&m->entries, &cap, m->nr + 1, sizeof(*m->entries)))
		return -ENOMEM;
	cap = m->cap;
	if (kmag__grow(&m->next_same, &cap, m->nr + 1, sizeof(*m->next_same)))
		return -ENOMEM;
	m->cap = cap;
	if (id >= m->cap_first) {
		size_t old = m->cap_first;

		if (kmag__grow(&m->first_of, &m->cap_first, (size_t)id + 1, sizeof(uint32_t)))
			return -ENOMEM;
		for (i = old; i < m->cap_first; i++)
			m->first_of[i] = UINT32_MAX;
	}
	e = &m->entries[m->nr];
	e->name = kmag_symtab_name(m->names, id);
	e->file = file_len ? intern(m->strings, file, file_len) : "";
	e->module = module_len ? intern(m->strings, module, module_len) : NULL;
	if (!e->file || (module_len && !e->module))
		return -ENOMEM;
	e->line = line;
	e->addr = addr;
	e->size = size;
	/* keep entries of one name in insertion order */
	m->next_same[m->nr] = UINT32_MAX;
	if (m->first_of[id] == UINT32_MAX) {
		m->first_of[id] = (uint32_t)m->nr;
	} else {
		uint32_t j = m->first_of[id];

		while (m->next_same[j] != UINT32_MAX)
			j = m->next_same[j];
		m->next_same[j] = (uint32_t)m->nr;
	}
	m->nr++;
	return 0;
}

int kmag_symmap_add(struct kmag_symmap *m, const struct kmag_symmap_entry *e)
{
	return add_entry(m, e->name, strlen(e->name), e->file ? e->file : "",
			 e->file ? strlen(e->file) : 0, e->line, e->addr, e->size, e->module,
			 e->module ? strlen(e->module) : 0);
}

size_t kmag_symmap_count(const struct kmag_symmap *m)
{
	return m->nr;
}

const struct kmag_symmap_entry *kmag_symmap_entry(const struct kmag_symmap *m, size_t i)
{
	return i < m->nr ? &m->entries[i] : NULL;
}

/* Splits @line at @sep into at most @max fields; returns the count. */
static int split(char *line, char sep, char **f, size_t *len, int max)
{
	int n = 0;
	char *p = line;

	for (;;) {
		char *s = strchr(p, sep);

		if (n == max)
			return max + 1;
		f[n] = p;
		len[n] = s ? (size_t)(s - p) : strlen(p);
		n++;
		if (!s)
			return n;
		p = s + 1;
	}
}

static bool parse_hex(const char *s, size_t len, uint64_t *v)
{
	char buf[32], *end;

	if (len == 1 && *s == '-') {
		*v = 0;
		return true;
	}
	if (!len || len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*v = strtoull(buf, &end, 16);
	return !*end && !errno;
}

static bool parse_dec(const char *s, size_t len, uint64_t *v)
{
	char buf[32], *end;

	if (!len || len >= sizeof(buf) || *s == '-')
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*v = strtoull(buf, &end, 10);
	return !*end && !errno;
}

static int load_line(struct kmag_symmap *m, char *line, bool kmag_fmt, const char *path,
		     unsigned long lineno, struct kmag_err *err)
{
	char *f[7];
	size_t len[7];
	int n;

	if (kmag_fmt) {
		uint64_t ln, addr, size;

		/* name file line addr size module */
		n = split(line, '\t', f, len, 6);
		if (n != 6)
			return kmag_err_set(err, EINVAL,
					    "%s:%lu: expected 6 tab-separated fields (name file line addr size module), found %d",
					    path, lineno, n > 6 ? 7 : n);
		if (!len[0] || !parse_dec(f[2], len[2], &ln) || ln > UINT32_MAX ||
		    !parse_hex(f[3], len[3], &addr) || !parse_dec(f[4], len[4], &size))
			return kmag_err_set(err, EINVAL, "%s:%lu: malformed entry", path, lineno);
		return add_entry(m, f[0], len[0], f[1], len[1], (uint32_t)ln, addr, size, f[5],
				 len[5] == 1 && f[5][0] == '-' ? 0 : len[5]) ?
			       kmag_err_set(err, ENOMEM, "out of memory") : 0;
	}
	/* the seed's format: name|path */
	n = split(line, '|', f, len, 2);
	if (n != 2 || !len[0] || !len[1])
		return kmag_err_set(err, EINVAL,
				    "%s:%lu: expected \"function|path\" (the seed's symbol map format), found %s",
				    path, lineno, n > 2 ? "more than one '|'" : "no '|' separating name and path");
	return add_entry(m, f[0], len[0], f[1], len[1], 0, 0, 0, NULL, 0) ?
		       kmag_err_set(err, ENOMEM, "out of memory") : 0;
}

struct kmag_symmap *kmag_symmap_load(const char *path, struct kmag_err *err)
{
	struct kmag_symmap *m;
	unsigned long lineno = 0;
	bool kmag_fmt = false, first = true;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *fp;

	fp = fopen(path, "re");
	if (!fp) {
		kmag_err_set(err, errno, "cannot open symbol map %s: %s", path, strerror(errno));
		return NULL;
	}
	m = kmag_symmap_new();
	if (!m) {
		fclose(fp);
		kmag_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	while ((len = getline(&line, &cap, fp)) >= 0) {
		lineno++;
		if (len > MAX_MAP_LINE || memchr(line, '\0', (size_t)len)) {
			kmag_err_set(err, EINVAL, "%s:%lu: %s; is this a symbol map?", path, lineno,
				     len > MAX_MAP_LINE ? "line longer than 64 KiB" : "NUL byte");
			goto fail;
		}
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (first) {
			first = false;
			if (!strncmp(line, KMAG_MAP_MAGIC, strlen(KMAG_MAP_MAGIC))) {
				long v = strtol(line + strlen(KMAG_MAP_MAGIC), NULL, 10);

				if (v < 1 || v > KMAG_MAP_VERSION) {
					kmag_err_set(err, ENOTSUP,
						     "%s: symbol map version %ld is newer than this kmag (reads up to %d); regenerate it with kmag generate-symbol-map",
						     path, v, KMAG_MAP_VERSION);
					goto fail;
				}
				kmag_fmt = true;
				continue;
			}
		}
		if (!len || line[0] == '#')
			continue;
		if (load_line(m, line, kmag_fmt, path, lineno, err))
			goto fail;
	}
	if (ferror(fp)) {
		kmag_err_set(err, EIO, "cannot read symbol map %s", path);
		goto fail;
	}
	free(line);
	fclose(fp);
	if (!m->nr) {
		kmag_err_set(err, EINVAL, "symbol map %s has no entries", path);
		kmag_symmap_free(m);
		return NULL;
	}
	return m;
fail:
	free(line);
	fclose(fp);
	kmag_symmap_free(m);
	return NULL;
}

static uint32_t first_entry(const struct kmag_symmap *m, const char *name, size_t len)
{
	kmag_func_t id;
	char buf[512];

	if (len >= sizeof(buf))
		return UINT32_MAX;
	memcpy(buf, name, len);
	buf[len] = '\0';
	id = kmag_symtab_find(m->names, buf);
	if (id == KMAG_FUNC_NONE || id >= m->cap_first)
		return UINT32_MAX;
	return m->first_of[id];
}

const struct kmag_symmap_entry *kmag_symmap_lookup(const struct kmag_symmap *m, const char *name,
						   uint64_t addr, bool *ambiguous)
{
	size_t len = strlen(name);
	uint32_t i = first_entry(m, name, len), j, count = 0;

	if (ambiguous)
		*ambiguous = false;
	if (i == UINT32_MAX) {
		/* GCC clones and split parts live in their origin's file */
		const char *dot = strchr(name, '.');

		if (dot && dot > name)
			i = first_entry(m, name, (size_t)(dot - name));
		if (i == UINT32_MAX)
			return NULL;
		addr = 0;	/* a clone's address is not the origin's */
	}
	for (j = i; j != UINT32_MAX; j = m->next_same[j])
		count++;
	if (count == 1)
		return &m->entries[i];
	if (addr && m->bound) {
		uint64_t link = (uint64_t)((int64_t)addr - m->reloc);

		for (j = i; j != UINT32_MAX; j = m->next_same[j]) {
			const struct kmag_symmap_entry *e = &m->entries[j];

			if (e->addr && link >= e->addr && link < e->addr + (e->size ? e->size : 1))
				return e;
		}
	}
	/* same name in several files, e.g. static helpers: tell the caller */
	if (ambiguous) {
		*ambiguous = false;
		for (j = m->next_same[i]; j != UINT32_MAX; j = m->next_same[j])
			if (strcmp(m->entries[j].file, m->entries[i].file))
				*ambiguous = true;
	}
	return &m->entries[i];
}

int kmag_symmap_bind(struct kmag_symmap *m, const struct kmag_symtab *st)
{
	struct u64map votes;
	uint64_t best = 0, best_n = 0;
	size_t i, tried = 0;

	u64map_init(&votes);
	for (i = 0; i < m->nr && tried < 256; i++) {
		const struct kmag_symmap_entry *e = &m->entries[i];
		kmag_func_t id;
		uint64_t runtime, *v;

		if (!e->addr || e->module || m->next_same[i] != UINT32_MAX)
			continue;
		id = kmag_symtab_find(st, e->name);
		if (id == KMAG_FUNC_NONE || !(runtime = kmag_symtab_addr(st, id)))
			continue;
		tried++;
		v = u64map_upsert(&votes, runtime - e->addr, 0, NULL);
		if (!v)
			break;
		if (++*v > best_n) {
			best_n = *v;
			best = runtime - e->addr;
		}
	}
	u64map_release(&votes);
	if (best_n < 2 && tried > 1)
		return -ENOENT;
	if (!best_n)
		return -ENOENT;
	m->reloc = (int64_t)best;
	m->bound = true;
	return 0;
}

int kmag_symmap_write(const struct kmag_symmap *m, const char *path, bool seed,
		      const char *comment, struct kmag_err *err)
{
	FILE *fp = fopen(path, "we");
	size_t i;

	if (!fp)
		return kmag_err_set(err, errno, "cannot create %s: %s", path, strerror(errno));
	if (!seed) {
		fprintf(fp, "%s%d\n", KMAG_MAP_MAGIC, KMAG_MAP_VERSION);
		if (comment)
			fprintf(fp, "# %s\n", comment);
		fputs("# name\tfile\tline\taddr\tsize\tmodule\n", fp);
	}
	for (i = 0; i < m->nr; i++) {
		const struct kmag_symmap_entry *e = &m->entries[i];

		if (seed)
			fprintf(fp, "%s|%s\n", e->name, e->file);
		else
			fprintf(fp, "%s\t%s\t%u\t%llx\t%llu\t%s\n", e->name, e->file, e->line,
				(unsigned long long)e->addr, (unsigned long long)e->size,
				e->module ? e->module : "-");
	}
	if (fclose(fp))
		return kmag_err_set(err, errno, "cannot write %s: %s", path, strerror(errno));
	return 0;
}

const char *kmag_symmap_default_path(const char *kernel_release)
{
	static char buf[4096];
	const char *env = getenv("KMAG_SYMBOL_MAP"), *home = getenv("HOME");
	struct utsname u;

	if (env && *env)
		return env;
	if (access("kernel-magnifier.map", R_OK) == 0)
		return "kernel-magnifier.map";
	if (!kernel_release) {
		if (uname(&u))
			return NULL;
		kernel_release = u.release;
	}
	if (home && *home) {
		snprintf(buf, sizeof(buf), "%s/.cache/kmag/symbols-%s.map", home, kernel_release);
		if (access(buf, R_OK) == 0)
			return buf;
	}
	return NULL;
}

/* ---- path filters ---- */

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

const char *kmag_pathfilter_spec(const struct kmag_pathfilter *f)
{
	return f->spec;
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
