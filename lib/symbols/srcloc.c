// SPDX-License-Identifier: MIT
/*
 * srcloc.c - using a symbol map: per-trace source locations and path
 * matching (view time), and expanding a path filter into traceable functions
 * (record time).
 */
#define PR_DOMAIN "symmap"
#include <stdio.h>

#include "internal.h"
#include "kmag/symmap.h"
#include "symmap-internal.h"

enum {
	LOC_UNKNOWN = 0,	/* not looked up yet */
	LOC_NONE,		/* looked up, not in the map */
	LOC_FOUND,
	LOC_AMBIGUOUS,
};

struct loc {
	const struct kmag_symmap_entry *e;
	const char *label;	/* in labels, built on first use */
	uint8_t state;
};

struct kmag_srcloc {
	struct kmag_symmap *m;
	const struct kmag_symtab *st;
	struct loc *locs;	/* by function id; grows with the trace's symbol table */
	size_t cap;
	struct kmag_symtab *labels;	/* interned "file:line" strings */
	const struct kmag_pathfilter *filter;	/* for kmag_srcloc_visible_cb(), or NULL */
	struct kmag_srcloc_stats stats;
};

struct kmag_srcloc *kmag_srcloc_new(struct kmag_symmap *m, const struct kmag_symtab *st)
{
	struct kmag_srcloc *s = calloc(1, sizeof(*s));

	if (!s || !(s->labels = kmag_symtab_new())) {
		free(s);
		return NULL;
	}
	s->m = m;
	s->st = st;
	if (kmag_symtab_nr_addrs(st) && kmag_symmap_bind(m, st) == 0)
		s->stats.bound = true;
	else if (kmag_symtab_nr_addrs(st))
		pr_info("the symbol map's addresses do not match the trace's kallsyms (another kernel build?); same-named functions are told apart by name only");
	return s;
}

void kmag_srcloc_free(struct kmag_srcloc *s)
{
	if (!s)
		return;
	kmag_symtab_free(s->labels);
	free(s->locs);
	free(s);
}

static struct loc *loc_of(struct kmag_srcloc *s, kmag_func_t func)
{
	struct loc *l;
	bool amb;

	if (func == KMAG_FUNC_NONE || func >= kmag_symtab_count(s->st))
		return NULL;
	if (func >= s->cap) {
		size_t old = s->cap;

		if (kmag__grow(&s->locs, &s->cap, (size_t)func + 1, sizeof(*s->locs)))
			return NULL;
		memset(s->locs + old, 0, (s->cap - old) * sizeof(*s->locs));
	}
	l = &s->locs[func];
	if (l->state != LOC_UNKNOWN)
		return l;
	l->e = kmag_symmap_lookup_func(s->m, s->st, func, &amb);
	l->state = !l->e ? LOC_NONE : amb ? LOC_AMBIGUOUS : LOC_FOUND;
	if (!l->e)
		s->stats.unmapped++;
	else
		s->stats.mapped++;
	if (l->e && amb)
		s->stats.ambiguous++;
	return l;
}

const struct kmag_symmap_entry *kmag_srcloc_entry(struct kmag_srcloc *s, kmag_func_t func,
						  bool *ambiguous)
{
	struct loc *l = loc_of(s, func);

	if (ambiguous)
		*ambiguous = l && l->state == LOC_AMBIGUOUS;
	return l ? l->e : NULL;
}

/* Number of other files the entries named like @e's function are in (@module as in lookups). */
static size_t other_files(const struct kmag_symmap *m, const struct kmag_symmap_entry *e)
{
	const struct kmag_symmap_entry *o, *k;
	size_t n = 0;

	for (o = kmag__symmap_first_named(m, e->name); o; o = kmag__symmap_next_same(m, o)) {
		if (!strcmp(o->file, e->file))
			continue;
		/* count each file once: was it seen earlier in the chain? */
		for (k = kmag__symmap_first_named(m, e->name); k != o;
		     k = kmag__symmap_next_same(m, k))
			if (!strcmp(k->file, o->file))
				break;
		n += k == o;
	}
	return n;
}

const char *kmag_srcloc_label(struct kmag_srcloc *s, kmag_func_t func)
{
	struct loc *l = loc_of(s, func);
	char buf[4200];
	kmag_func_t id;
	int n;

	if (!l || !l->e)
		return NULL;
	if (l->label)
		return l->label;
	n = l->e->line ? snprintf(buf, sizeof(buf), "%s:%u", l->e->file, l->e->line) :
			 snprintf(buf, sizeof(buf), "%s", l->e->file);
	if (l->state == LOC_AMBIGUOUS && n > 0 && (size_t)n < sizeof(buf))
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, " (+%zu more)",
			      other_files(s->m, l->e));
	if (n < 0 || (size_t)n >= sizeof(buf))
		return l->e->file;
	id = kmag_symtab_intern(s->labels, buf, (size_t)n);
	l->label = id == KMAG_FUNC_NONE ? l->e->file : kmag_symtab_name(s->labels, id);
	return l->label;
}

const char *kmag_srcloc_report_cb(void *ctx, kmag_func_t func)
{
	return kmag_srcloc_label(ctx, func);
}

/* The first entry named @name (in @module when @has_module) whose file matches @f, or NULL. */
static const struct kmag_symmap_entry *any_file_matches(const struct kmag_symmap *m,
							const struct kmag_pathfilter *f,
							const char *name, bool has_module,
							const char *module)
{
	const struct kmag_symmap_entry *o;

	for (o = kmag__symmap_first_named(m, name); o; o = kmag__symmap_next_same(m, o)) {
		if (has_module && (module ? !o->module || strcmp(o->module, module) : !!o->module))
			continue;
		if (kmag_pathfilter_match(f, o->file))
			return o;
	}
	return NULL;
}

bool kmag_srcloc_match(struct kmag_srcloc *s, const struct kmag_pathfilter *f, kmag_func_t func)
{
	struct loc *l = loc_of(s, func);

	if (!l || !l->e)
		return false;
	if (kmag_pathfilter_match(f, l->e->file))
		return true;
	return l->state == LOC_AMBIGUOUS &&
	       any_file_matches(s->m, f, l->e->name, kmag_symtab_addr(s->st, func) != 0,
				kmag_symtab_module(s->st, func)) != NULL;
}

void kmag_srcloc_set_filter(struct kmag_srcloc *s, const struct kmag_pathfilter *f)
{
	s->filter = f;
}

bool kmag_srcloc_visible_cb(void *ctx, kmag_func_t func)
{
	struct kmag_srcloc *s = ctx;

	return !s->filter || kmag_srcloc_match(s, s->filter, func);
}

struct kmag_srcloc_stats kmag_srcloc_stats(const struct kmag_srcloc *s)
{
	return s->stats;
}

/* ---- record time ---- */

void kmag_selection_release(struct kmag_selection *s)
{
	if (!s)
		return;
	free(s->funcs);
	free(s->text);
	memset(s, 0, sizeof(*s));
}

/* Splits one available_filter_functions(_addrs) line into address, name and module. */
static bool parse_available(char *line, uint64_t *addr, char **name, char **module)
{
	char *p = line, *end;

	*addr = 0;
	*module = NULL;
	while (*p == ' ' || *p == '\t')
		p++;
	/* "ffffffff81000000 name [mod]" (available_filter_functions_addrs) */
	end = p;
	while ((*end >= '0' && *end <= '9') || (*end >= 'a' && *end <= 'f'))
		end++;
	if (end - p >= 8 && (*end == ' ' || *end == '\t')) {
		*addr = strtoull(p, NULL, 16);
		p = end;
		while (*p == ' ' || *p == '\t')
			p++;
	}
	if (!*p)
		return false;
	*name = p;
	p += strcspn(p, " \t");
	if (*p) {
		*p++ = '\0';
		p += strspn(p, " \t");
		if (*p == '[' && (end = strchr(p, ']'))) {
			*end = '\0';
			*module = p + 1;
		}
	}
	return true;
}

int kmag_symmap_select(const struct kmag_symmap *m, const struct kmag_pathfilter *f,
		       const char *available, size_t len, struct kmag_selection *out,
		       struct kmag_err *err)
{
	size_t cap = 0, lineno = 0;
	char *p, *next;

	memset(out, 0, sizeof(*out));
	out->text = malloc(len + 1);
	if (!out->text)
		return kmag_err_set(err, ENOMEM, "out of memory");
	memcpy(out->text, available, len);
	out->text[len] = '\0';
	if (memchr(out->text, '\0', len)) {
		kmag_selection_release(out);
		return kmag_err_set(err, EINVAL,
				    "the list of available functions holds a NUL byte; expected tracefs available_filter_functions text");
	}
	for (p = out->text; p && *p; p = next) {
		const struct kmag_symmap_entry *e;
		char *name, *module;
		uint64_t addr;
		bool amb, match;

		next = strchr(p, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		/* placeholders of discarded weak functions (kernel 6.0+) are not functions */
		if (!parse_available(p, &addr, &name, &module) ||
		    !strncmp(name, "__ftrace_invalid_address___", 27))
			continue;
		out->available++;
		e = kmag__symmap_lookup_in(m, name, addr, true, module, &amb);
		/* a function of that name elsewhere (vmlinux, another module) is not this one */
		if (e && (module ? !e->module || strcmp(e->module, module) : !!e->module))
			e = NULL;
		if (!e) {
			out->unmapped++;
			continue;
		}
		match = kmag_pathfilter_match(f, e->file);
		if (!match && amb) {
			/* name only: report the entry that matched */
			const struct kmag_symmap_entry *o = any_file_matches(m, f, e->name, true, module);

			if (o) {
				e = o;
				match = true;
			}
		}
		if (!match)
			continue;
		if (kmag__grow(&out->funcs, &cap, out->nr + 1, sizeof(*out->funcs))) {
			kmag_selection_release(out);
			return kmag_err_set(err, ENOMEM, "out of memory");
		}
		out->funcs[out->nr++] = (struct kmag_selected){ name, module, lineno, e, amb };
		out->ambiguous += amb;
	}
	return (int)(out->nr > INT32_MAX ? INT32_MAX : out->nr);
}
