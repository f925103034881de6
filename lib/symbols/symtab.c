// SPDX-License-Identifier: MIT
/*
 * symtab.c - function-name interning and kallsyms address resolution.
 */
#include <stdio.h>

#include "internal.h"
#include "kmag/symtab.h"
#include "util/u64map.h"

#define ARENA_CHUNK (64 * 1024)

struct arena_chunk {
	struct arena_chunk *next;
	size_t used, size;
	char data[];
};

struct ksym {
	uint64_t addr;
	kmag_func_t id;
	uint32_t module;	/* index into st->modules + 1, 0 = core kernel */
	uint32_t seq;		/* position in the kallsyms text */
	bool global;		/* T/W rather than t/w */
	bool marker;		/* a section boundary such as __softirqentry_text_start */
};

/*
 * The linker's section-boundary labels (__softirqentry_text_start,
 * __kprobes_text_end, ...) share the address of the first function of the
 * next section; the kernel names that function (its kallsyms lookup takes
 * the function), so must kmag.
 */
static bool is_section_marker(const char *name, size_t len)
{
	static const char *const ends[] = { "_text_start", "_text_end" };

	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		size_t n = strlen(ends[i]);

		if (len > n && !memcmp(name + len - n, ends[i], n))
			return true;
	}
	return false;
}

struct kmag_symtab {
	/* interned names: id -> string */
	const char **names;
	uint64_t *addrs;	/* id -> kallsyms address (0 if none) */
	uint32_t *modules_of;	/* id -> module index + 1 (0 = none) */
	size_t count, cap;
	/* hash index: open addressing over ids, stores id + 1 (0 = empty) */
	uint32_t *index;
	uint32_t *index_hash;	/* low 32 bits of each slot's hash, to skip strcmp */
	size_t index_mask;

	struct arena_chunk *arena;

	/* kallsyms, sorted by address after loading */
	struct ksym *ksyms;
	size_t nr_ksyms, cap_ksyms;
	bool ksyms_sorted;
	const char **modules;
	size_t nr_modules, cap_modules;

	struct u64map resolved;	/* address -> id cache */
};

struct kmag_symtab *kmag_symtab_new(void)
{
	struct kmag_symtab *st = calloc(1, sizeof(*st));

	if (st)
		u64map_init(&st->resolved);
	return st;
}

void kmag_symtab_free(struct kmag_symtab *st)
{
	struct arena_chunk *c, *n;

	if (!st)
		return;
	for (c = st->arena; c; c = n) {
		n = c->next;
		free(c);
	}
	free(st->names);
	free(st->addrs);
	free(st->modules_of);
	free(st->index);
	free(st->index_hash);
	free(st->ksyms);
	free(st->modules);
	u64map_release(&st->resolved);
	free(st);
}

static char *arena_strndup(struct kmag_symtab *st, const char *s, size_t len)
{
	struct arena_chunk *c = st->arena;
	char *p;

	if (!c || c->size - c->used < len + 1) {
		size_t size = len + 1 > ARENA_CHUNK ? len + 1 : ARENA_CHUNK;

		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->size = size;
		c->used = 0;
		c->next = st->arena;
		st->arena = c;
	}
	p = c->data + c->used;
	memcpy(p, s, len);
	p[len] = '\0';
	c->used += len + 1;
	return p;
}

static int index_rebuild(struct kmag_symtab *st, size_t cap)
{
	uint32_t *index = calloc(cap, sizeof(*index));
	uint32_t *hashes = calloc(cap, sizeof(*hashes));
	size_t i;

	if (!index || !hashes) {
		free(index);
		free(hashes);
		return -ENOMEM;
	}
	for (i = 0; i < st->count; i++) {
		uint64_t h = kmag__hash_bytes(st->names[i], strlen(st->names[i]));
		size_t j = h & (cap - 1);
		bool dup = false;

		/* ids split off by kmag_symtab_split_duplicates() share the string: index the first */
		while (index[j] && !(dup = st->names[index[j] - 1] == st->names[i]))
			j = (j + 1) & (cap - 1);
		if (dup)
			continue;
		index[j] = (uint32_t)i + 1;
		hashes[j] = (uint32_t)h;
	}
	free(st->index);
	free(st->index_hash);
	st->index = index;
	st->index_hash = hashes;
	st->index_mask = cap - 1;
	return 0;
}

static kmag_func_t lookup(const struct kmag_symtab *st, const char *name, size_t len, uint64_t h,
			  size_t *slot)
{
	size_t j;

	if (!st->index) {
		*slot = 0;
		return KMAG_FUNC_NONE;
	}
	for (j = h & st->index_mask; st->index[j]; j = (j + 1) & st->index_mask) {
		uint32_t id = st->index[j] - 1;

		if (st->index_hash[j] == (uint32_t)h && !strncmp(st->names[id], name, len) &&
		    st->names[id][len] == '\0')
			return id;
	}
	*slot = j;
	return KMAG_FUNC_NONE;
}

kmag_func_t kmag_symtab_intern(struct kmag_symtab *st, const char *name, size_t len)
{
	kmag_func_t id;
	uint64_t h;
	size_t slot;
	char *copy;

	if (len == (size_t)-1)
		len = strlen(name);
	h = kmag__hash_bytes(name, len);
	id = lookup(st, name, len, h, &slot);
	if (id != KMAG_FUNC_NONE)
		return id;
	if (st->count >= UINT32_MAX - 1)
		return KMAG_FUNC_NONE;
	if ((st->count + 1) * 2 > (st->index ? st->index_mask + 1 : 0)) {
		if (index_rebuild(st, st->index ? (st->index_mask + 1) * 2 : 1024))
			return KMAG_FUNC_NONE;
		lookup(st, name, len, h, &slot);
	}
	if (st->count == st->cap) {
		size_t cap = st->cap;

		if (kmag__grow(&st->names, &cap, st->count + 1, sizeof(*st->names)))
			return KMAG_FUNC_NONE;
		cap = st->cap;
		if (kmag__grow(&st->addrs, &cap, st->count + 1, sizeof(*st->addrs)))
			return KMAG_FUNC_NONE;
		cap = st->cap;
		if (kmag__grow(&st->modules_of, &cap, st->count + 1, sizeof(*st->modules_of)))
			return KMAG_FUNC_NONE;
		st->cap = cap;
	}
	copy = arena_strndup(st, name, len);
	if (!copy)
		return KMAG_FUNC_NONE;
	id = (kmag_func_t)st->count++;
	st->names[id] = copy;
	st->addrs[id] = 0;
	st->modules_of[id] = 0;
	st->index[slot] = id + 1;
	st->index_hash[slot] = (uint32_t)h;
	return id;
}

kmag_func_t kmag_symtab_find(const struct kmag_symtab *st, const char *name)
{
	size_t len = strlen(name), slot;

	return lookup(st, name, len, kmag__hash_bytes(name, len), &slot);
}

const char *kmag_symtab_name(const struct kmag_symtab *st, kmag_func_t id)
{
	if (!st || id >= st->count)
		return NULL;
	return st->names[id];
}

size_t kmag_symtab_count(const struct kmag_symtab *st)
{
	return st ? st->count : 0;
}

size_t kmag_symtab_nr_addrs(const struct kmag_symtab *st)
{
	return st ? st->nr_ksyms : 0;
}

static uint32_t module_index(struct kmag_symtab *st, const char *name, size_t len)
{
	size_t i;

	/* modules are few (tens) and come clustered, so check the last one first */
	for (i = st->nr_modules; i-- > 0;)
		if (!strncmp(st->modules[i], name, len) && !st->modules[i][len])
			return (uint32_t)i + 1;
	if (kmag__grow(&st->modules, &st->cap_modules, st->nr_modules + 1, sizeof(*st->modules)))
		return 0;
	st->modules[st->nr_modules] = arena_strndup(st, name, len);
	if (!st->modules[st->nr_modules])
		return 0;
	return (uint32_t)++st->nr_modules;
}

/*
 * Several names can share one address (aliases such as __do_sys_rt_sigreturn,
 * __ia32_sys_rt_sigreturn and __x64_sys_rt_sigreturn). The one sorted first
 * names the address: a function over a section marker (is_section_marker()),
 * a global symbol over a local one, and among equals the
 * one listed last, which for syscalls is the native (x64) entry point. The
 * rule is deterministic, unlike libtraceevent's, whose bsearch lands on any
 * alias; the tests compare names modulo aliases for that reason.
 */
static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->marker != y->marker)
		return x->marker ? 1 : -1;
	if (x->global != y->global)
		return x->global ? -1 : 1;
	return x->seq > y->seq ? -1 : x->seq < y->seq;
}

int kmag_symtab_load_kallsyms(struct kmag_symtab *st, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	size_t loaded = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *line_end = nl ? nl : end;
		const char *q = p, *name, *name_end;
		uint64_t addr = 0;
		int digits = 0;
		char type;

		/* "ffffffff81000000 T _text [module]" */
		while (q < line_end && digits < 17) {
			char c = *q;
			int v;

			if (c >= '0' && c <= '9')
				v = c - '0';
			else if (c >= 'a' && c <= 'f')
				v = c - 'a' + 10;
			else if (c >= 'A' && c <= 'F')
				v = c - 'A' + 10;
			else
				break;
			addr = addr << 4 | (uint64_t)v;
			digits++;
			q++;
		}
		if (!digits || digits > 16 || q + 3 > line_end || *q != ' ')
			goto next;
		type = q[1];
		if (q[2] != ' ')
			goto next;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			goto next;
		name = q + 3;
		name_end = name;
		while (name_end < line_end && *name_end != '\t' && *name_end != ' ')
			name_end++;
		if (name_end == name || addr == 0)
			goto next;
		{
			kmag_func_t id = kmag_symtab_intern(st, name, (size_t)(name_end - name));
			uint32_t mod = 0;
			const char *m = name_end;

			if (id == KMAG_FUNC_NONE)
				return -ENOMEM;
			while (m < line_end && (*m == '\t' || *m == ' '))
				m++;
			if (m < line_end && *m == '[') {
				const char *me = memchr(m, ']', (size_t)(line_end - m));

				if (me && me > m + 1)
					mod = module_index(st, m + 1, (size_t)(me - m - 1));
			}
			if (kmag__grow(&st->ksyms, &st->cap_ksyms, st->nr_ksyms + 1, sizeof(*st->ksyms)))
				return -ENOMEM;
			st->ksyms[st->nr_ksyms] = (struct ksym){
				addr, id, mod, (uint32_t)st->nr_ksyms, type == 'T' || type == 'W',
				is_section_marker(name, (size_t)(name_end - name)) };
			st->nr_ksyms++;
			if (!st->addrs[id]) {
				st->addrs[id] = addr;
				st->modules_of[id] = mod;
			}
			loaded++;
		}
next:
		p = nl ? nl + 1 : end;
	}
	if (st->nr_ksyms)	/* qsort(NULL, 0, ...) is undefined */
		qsort(st->ksyms, st->nr_ksyms, sizeof(*st->ksyms), ksym_cmp);
	st->ksyms_sorted = true;
	u64map_release(&st->resolved);
	return (int)(loaded > INT32_MAX ? INT32_MAX : loaded);
}

uint64_t kmag_symtab_addr(const struct kmag_symtab *st, kmag_func_t id)
{
	if (!st || id >= st->count)
		return 0;
	return st->addrs[id];
}

const char *kmag_symtab_module(const struct kmag_symtab *st, kmag_func_t id)
{
	if (!st || id >= st->count || !st->modules_of[id])
		return NULL;
	return st->modules[st->modules_of[id] - 1];
}

/* Addresses further than this past the last symbol are not attributed to it. */
#define MAX_FUNC_SPAN (1u << 20)

static kmag_func_t resolve_slow(struct kmag_symtab *st, uint64_t addr, bool fallback_hex)
{
	size_t lo = 0, hi = st->nr_ksyms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->ksyms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0) {
		const struct ksym *k = &st->ksyms[lo - 1];

		/* skip duplicates at the same address: the first one listed wins */
		while (k > st->ksyms && k[-1].addr == k->addr)
			k--;
		if (addr - k->addr < MAX_FUNC_SPAN)
			return k->id;
	}
	if (fallback_hex) {
		char buf[32];
		int n = snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)addr);

		return kmag_symtab_intern(st, buf, (size_t)n);
	}
	return KMAG_FUNC_NONE;
}

kmag_func_t kmag_symtab_resolve(struct kmag_symtab *st, uint64_t addr, bool fallback_hex)
{
	uint64_t *v = u64map_get(&st->resolved, addr);
	kmag_func_t id;

	if (v)
		return (kmag_func_t)*v;
	id = resolve_slow(st, addr, fallback_hex);
	if (id == KMAG_FUNC_NONE && !fallback_hex)
		return id;
	v = u64map_upsert(&st->resolved, addr, id, NULL);
	(void)v; /* a failed cache insert only costs speed */
	return id;
}

int kmag_symtab_split_duplicates(struct kmag_symtab *st)
{
	size_t i;
	int added = 0;

	for (i = 0; i < st->nr_ksyms; i++) {
		struct ksym *k = &st->ksyms[i];
		size_t cap;
		kmag_func_t id;

		if (st->addrs[k->id] == k->addr)
			continue;
		/* the same symbol listed twice at one address keeps one id */
		if (i && st->ksyms[i - 1].addr == k->addr &&
		    st->names[st->ksyms[i - 1].id] == st->names[k->id]) {
			k->id = st->ksyms[i - 1].id;
			continue;
		}
		if (st->count >= UINT32_MAX - 1)
			return -ENOMEM;
		cap = st->cap;
		if (kmag__grow(&st->names, &cap, st->count + 1, sizeof(*st->names)))
			return -ENOMEM;
		cap = st->cap;
		if (kmag__grow(&st->addrs, &cap, st->count + 1, sizeof(*st->addrs)))
			return -ENOMEM;
		cap = st->cap;
		if (kmag__grow(&st->modules_of, &cap, st->count + 1, sizeof(*st->modules_of)))
			return -ENOMEM;
		st->cap = cap;
		id = (kmag_func_t)st->count++;
		st->names[id] = st->names[k->id];
		st->addrs[id] = k->addr;
		st->modules_of[id] = k->module;
		k->id = id;
		added++;
	}
	if (added) {
		u64map_release(&st->resolved);
		u64map_init(&st->resolved);
	}
	return added;
}
