/* SPDX-License-Identifier: MIT */
/*
 * symtab.h - function names interned as small integer ids.
 *
 * Every kernel function a trace mentions is interned once; events, call-graph
 * nodes and renderers refer to it by id. For binary traces the table also holds
 * the kernel's symbol table (kallsyms) and resolves addresses to ids.
 */
#ifndef KMAG_SYMTAB_H
#define KMAG_SYMTAB_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint32_t kmag_func_t;
#define KMAG_FUNC_NONE ((kmag_func_t)UINT32_MAX)

struct kmag_symtab;

/* Returns a new empty table; free with kmag_symtab_free(). */
struct kmag_symtab *kmag_symtab_new(void);
/* Frees @st and every string it owns. Accepts NULL. */
void kmag_symtab_free(struct kmag_symtab *st);

/*
 * Interns @name (first @len bytes; @len may be (size_t)-1 for a C string).
 * Returns its id, or KMAG_FUNC_NONE when out of memory.
 */
kmag_func_t kmag_symtab_intern(struct kmag_symtab *st, const char *name, size_t len);
/* Looks @name up without adding it. Returns KMAG_FUNC_NONE when absent. */
kmag_func_t kmag_symtab_find(const struct kmag_symtab *st, const char *name);
/* Returns the name of @id; borrowed, valid until @st is freed. NULL for bad ids. */
const char *kmag_symtab_name(const struct kmag_symtab *st, kmag_func_t id);
/* Number of interned names (ids are 0 .. count-1). */
size_t kmag_symtab_count(const struct kmag_symtab *st);

/*
 * Loads /proc/kallsyms-format text ("ffffffff81000000 T name [module]").
 * Only text symbols (t/T/w/W) are kept. Returns the number of symbols loaded
 * or -errno. May be called more than once; tables are merged.
 */
int kmag_symtab_load_kallsyms(struct kmag_symtab *st, const char *text, size_t len);
/* Number of address symbols loaded. */
size_t kmag_symtab_nr_addrs(const struct kmag_symtab *st);

/*
 * Resolves a kernel text address to the function containing it (the nearest
 * symbol at or below @addr). Results are cached per address. Returns
 * KMAG_FUNC_NONE when no symbol covers @addr (an id for "0x..." is returned
 * instead when @fallback_hex is true).
 */
kmag_func_t kmag_symtab_resolve(struct kmag_symtab *st, uint64_t addr, bool fallback_hex);
/* Start address of @id's symbol, or 0 if the name did not come from kallsyms. */
uint64_t kmag_symtab_addr(const struct kmag_symtab *st, kmag_func_t id);
/* Module name of @id ("ext4"), or NULL for core kernel symbols; borrowed. */
const char *kmag_symtab_module(const struct kmag_symtab *st, kmag_func_t id);

/*
 * Gives every kallsyms function whose name an earlier function at another
 * address already has (static functions of the same name in different
 * files) an id of its own, so that call graphs keep them apart. The extra ids
 * share the name; kmag_symtab_find() and kmag_symtab_intern() keep returning
 * the first one, kmag_symtab_resolve() and kmag_symtab_addr() see each
 * function. Call after loading kallsyms and before resolving events.
 * Returns the number of ids added or -ENOMEM.
 */
int kmag_symtab_split_duplicates(struct kmag_symtab *st);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_SYMTAB_H */
