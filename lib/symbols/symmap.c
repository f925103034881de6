// SPDX-License-Identifier: MIT
/*
 * symmap.c - symbol maps (function -> source file:line) and path filters.
 */
#define PR_DOMAIN "symmap"
#include <stdio.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "internal.h"
#include "kmag/outfile.h"
#include "kmag/symmap.h"
#include "symmap-internal.h"
#include "util/u64map.h"

#define KMAG_MAP_MAGIC "# kmag symbol map v"
#define KMAG_MAP_VERSION 1
#define MAX_MAP_LINE 65536

/* Relocation of one module (or of vmlinux, module NULL) from map to runtime addresses. */
struct reloc {
	const char *module;		/* interned in strings; NULL = vmlinux */
	int64_t delta;			/* runtime - map address */
};

struct kmag_symmap {
	struct kmag_symmap_entry *entries;
	size_t nr, cap;
	uint32_t *next_same;		/* entry -> next entry with the same name, UINT32_MAX = end */
	struct kmag_symtab *names;	/* interned names; id -> first entry via first_of */
	struct kmag_symtab *strings;	/* interned files and modules */
	uint32_t *first_of;		/* name id -> first entry */
	size_t cap_first;
	char *release;			/* kernel release, or NULL */
	struct reloc *relocs;		/* learnt by kmag_symmap_bind() */
	size_t nr_relocs;
	bool bound;			/* vmlinux relocation known */
	char **src_roots;		/* NULL-ended, from the vmlinux read; or NULL */
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
	free(m->release);
	free(m->relocs);
	kmag__symmap_set_src_roots(m, NULL, 0);
	free(m);
}

const char *const *kmag__symmap_src_roots(const struct kmag_symmap *m)
{
	return (const char *const *)m->src_roots;
}

int kmag__symmap_set_src_roots(struct kmag_symmap *m, char *const *roots, size_t nr)
{
	size_t i;

	for (i = 0; m->src_roots && m->src_roots[i]; i++)
		free(m->src_roots[i]);
	free(m->src_roots);
	m->src_roots = NULL;
	if (!nr)
		return 0;
	m->src_roots = calloc(nr + 1, sizeof(*m->src_roots));
	if (!m->src_roots)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		if (!(m->src_roots[i] = strdup(roots[i])))
			return -ENOMEM;
	return 0;
}

const char *kmag_symmap_kernel_release(const struct kmag_symmap *m)
{
	return m->release;
}

int kmag_symmap_set_kernel_release(struct kmag_symmap *m, const char *release)
{
	char *s = release ? strdup(release) : NULL;

	if (release && !s)
		return -ENOMEM;
	free(m->release);
	m->release = s;
	return 0;
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
		if (kmag_fmt && !strncmp(line, "# release: ", 11) && !m->release) {
			if (kmag_symmap_set_kernel_release(m, line + 11)) {
				kmag_err_set(err, ENOMEM, "out of memory");
				goto fail;
			}
			continue;
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

/* The relocation learnt for @module (interned pointer, NULL = vmlinux), or NULL. */
static const struct reloc *reloc_of(const struct kmag_symmap *m, const char *module)
{
	size_t i;

	for (i = 0; i < m->nr_relocs; i++)
		if (m->relocs[i].module == module)
			return &m->relocs[i];
	return NULL;
}

static bool covers(const struct kmag_symmap *m, const struct kmag_symmap_entry *e, uint64_t addr)
{
	const struct reloc *r = e->addr ? reloc_of(m, e->module) : NULL;
	uint64_t link;

	if (!r)
		return false;
	link = (uint64_t)((int64_t)addr - r->delta);
	return link >= e->addr && link - e->addr < (e->size ? e->size : 1);
}

static bool module_is(const struct kmag_symmap_entry *e, const char *module)
{
	return module ? e->module && !strcmp(e->module, module) : !e->module;
}

/*
 * @has_module: the caller knows the module (@module, NULL = vmlinux); entries
 * of other modules are then ignored unless none is in the right one.
 */
static const struct kmag_symmap_entry *lookup(const struct kmag_symmap *m, const char *name,
					      uint64_t addr, bool has_module, const char *module,
					      bool *ambiguous)
{
	size_t len = strlen(name);
	uint32_t i = first_entry(m, name, len), j, first = UINT32_MAX, count = 0;

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
	if (has_module) {
		for (j = i; j != UINT32_MAX; j = m->next_same[j])
			if (module_is(&m->entries[j], module))
				break;
		has_module = j != UINT32_MAX;
	}
	for (j = i; j != UINT32_MAX; j = m->next_same[j]) {
		if (has_module && !module_is(&m->entries[j], module))
			continue;
		if (first == UINT32_MAX)
			first = j;
		count++;
		if (addr && covers(m, &m->entries[j], addr))
			return &m->entries[j];
	}
	if (count > 1 && ambiguous) {
		/* same name in several files, e.g. static helpers, and no address to decide */
		for (j = m->next_same[first]; j != UINT32_MAX; j = m->next_same[j])
			if ((!has_module || module_is(&m->entries[j], module)) &&
			    strcmp(m->entries[j].file, m->entries[first].file))
				*ambiguous = true;
	}
	return &m->entries[first];
}

const struct kmag_symmap_entry *kmag__symmap_lookup_in(const struct kmag_symmap *m,
						       const char *name, uint64_t addr,
						       bool has_module, const char *module,
						       bool *ambiguous)
{
	return lookup(m, name, addr, has_module, module, ambiguous);
}

const struct kmag_symmap_entry *kmag__symmap_next_same(const struct kmag_symmap *m,
						       const struct kmag_symmap_entry *e)
{
	uint32_t j = m->next_same[e - m->entries];

	return j == UINT32_MAX ? NULL : &m->entries[j];
}

const struct kmag_symmap_entry *kmag__symmap_first_named(const struct kmag_symmap *m,
							 const char *name)
{
	uint32_t i = first_entry(m, name, strlen(name));

	return i == UINT32_MAX ? NULL : &m->entries[i];
}

const struct kmag_symmap_entry *kmag_symmap_lookup(const struct kmag_symmap *m, const char *name,
						   uint64_t addr, bool *ambiguous)
{
	return lookup(m, name, addr, false, NULL, ambiguous);
}

const struct kmag_symmap_entry *kmag_symmap_lookup_func(const struct kmag_symmap *m,
							const struct kmag_symtab *st,
							kmag_func_t func, bool *ambiguous)
{
	const char *name = kmag_symtab_name(st, func);
	uint64_t addr = kmag_symtab_addr(st, func);

	if (ambiguous)
		*ambiguous = false;
	if (!name)
		return NULL;
	/* kallsyms tells the module; without it (text traces) any entry may fit */
	return lookup(m, name, addr, addr != 0, kmag_symtab_module(st, func), ambiguous);
}

/* Whether no other entry has entry @i's name. */
static bool unique_name(const struct kmag_symmap *m, size_t i)
{
	kmag_func_t id = kmag_symtab_find(m->names, m->entries[i].name);

	return id != KMAG_FUNC_NONE && m->first_of[id] == i && m->next_same[i] == UINT32_MAX;
}

struct anchor {
	const char *module;	/* interned */
	uint64_t delta;
};

static int by_module_delta(const void *a, const void *b)
{
	const struct anchor *x = a, *y = b;

	if (x->module != y->module)
		return (uintptr_t)x->module < (uintptr_t)y->module ? -1 : 1;
	return x->delta < y->delta ? -1 : x->delta > y->delta;
}

#define MAX_ANCHORS_PER_MODULE 64

int kmag_symmap_bind(struct kmag_symmap *m, const struct kmag_symtab *st)
{
	struct anchor *a = NULL;
	size_t nr = 0, cap = 0, cap_relocs = 0, i, run;
	struct u64map per_module;	/* module pointer -> anchors taken */
	int ret = 0;

	free(m->relocs);
	m->relocs = NULL;
	m->nr_relocs = 0;
	m->bound = false;
	u64map_init(&per_module);
	/*
	 * Anchors: functions whose name is unique in the map and known to the
	 * trace's kallsyms in the same module. Each votes for runtime - map
	 * address; per module, the delta most anchors agree on wins.
	 */
	for (i = 0; i < m->nr; i++) {
		const struct kmag_symmap_entry *e = &m->entries[i];
		kmag_func_t id;
		uint64_t runtime, *taken;

		if (!e->addr || !unique_name(m, i))
			continue;
		id = kmag_symtab_find(st, e->name);
		if (id == KMAG_FUNC_NONE || !(runtime = kmag_symtab_addr(st, id)) ||
		    !module_is(e, kmag_symtab_module(st, id)))
			continue;
		taken = u64map_upsert(&per_module, (uint64_t)(uintptr_t)e->module, 0, NULL);
		if (!taken || kmag__grow(&a, &cap, nr + 1, sizeof(*a))) {
			ret = -ENOMEM;
			goto out;
		}
		if (++*taken > MAX_ANCHORS_PER_MODULE)
			continue;
		a[nr++] = (struct anchor){ e->module, runtime - e->addr };
	}
	if (nr)
		qsort(a, nr, sizeof(*a), by_module_delta);
	for (i = 0; i < nr; i += run) {
		size_t j, k, best = i, best_n = 0, anchors = 0;

		for (j = i; j < nr && a[j].module == a[i].module; j += k) {
			for (k = 0; j + k < nr && a[j + k].module == a[i].module &&
				    a[j + k].delta == a[j].delta; k++)
				;
			if (k > best_n) {
				best_n = k;
				best = j;
			}
			anchors += k;
		}
		run = j - i;
		/* one anchor may be a coincidence when others disagree */
		if (best_n < 2 && anchors > 1)
			continue;
		if (kmag__grow(&m->relocs, &cap_relocs, m->nr_relocs + 1, sizeof(*m->relocs))) {
			ret = -ENOMEM;
			goto out;
		}
		m->relocs[m->nr_relocs++] =
			(struct reloc){ a[best].module, (int64_t)a[best].delta };
		if (!a[best].module)
			m->bound = true;
	}
	ret = m->nr_relocs ? 0 : -ENOENT;
out:
	free(a);
	u64map_release(&per_module);
	return ret;
}

int kmag_symmap_write(const struct kmag_symmap *m, const char *path, bool seed,
		      const char *comment, struct kmag_err *err)
{
	struct kmag_outfile *o = kmag_outfile_open(path, err);
	size_t i;
	FILE *fp;

	if (!o)
		return -(err && err->code ? err->code : EIO);
	fp = kmag_outfile_stream(o);
	if (!seed) {
		fprintf(fp, "%s%d\n", KMAG_MAP_MAGIC, KMAG_MAP_VERSION);
		if (m->release)
			fprintf(fp, "# release: %s\n", m->release);
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
	/* a map cut short by a full disk never replaces a good one */
	return kmag_outfile_commit(o, err);
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
	if (access("symbol-filepath.map", R_OK) == 0)	/* the seed's own map name */
		return "symbol-filepath.map";
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

