/* SPDX-License-Identifier: MIT */
/*
 * symmap.h - kernel function -> source location maps, and path filters.
 *
 * A symbol map tells, for each kernel function, the source file (relative to
 * the kernel tree root) and line of its definition. `kmag generate-symbol-map`
 * writes it from the vmlinux DWARF; kmag also reads the seed tool's
 * "name|path" text. See doc/symbol-map.md for the file format.
 */
#ifndef KMAG_SYMMAP_H
#define KMAG_SYMMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmag.h"
#include "symtab.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kmag_symmap_entry {
	const char *name;	/* function name as in kallsyms */
	const char *file;	/* "kernel/sched/fair.c" */
	uint32_t line;		/* 0 if unknown */
	uint64_t addr;		/* link-time start address, 0 if unknown */
	uint64_t size;		/* bytes of code, 0 if unknown */
	const char *module;	/* "ext4", or NULL for vmlinux */
};

struct kmag_symmap;

/*
 * Loads a map file (kmag format, any version kmag knows, or the seed's
 * "name|path" lines). Returns a new map to free with kmag_symmap_free(), or
 * NULL with @err set (the message names the file and line).
 */
struct kmag_symmap *kmag_symmap_load(const char *path, struct kmag_err *err);
/* Returns a new empty map (for writers); free with kmag_symmap_free(). */
struct kmag_symmap *kmag_symmap_new(void);
void kmag_symmap_free(struct kmag_symmap *m);

/* Adds one entry (strings are copied). Returns 0 or -ENOMEM. */
int kmag_symmap_add(struct kmag_symmap *m, const struct kmag_symmap_entry *e);
size_t kmag_symmap_count(const struct kmag_symmap *m);
/* Entry @i in load/add order; borrowed. */
const struct kmag_symmap_entry *kmag_symmap_entry(const struct kmag_symmap *m, size_t i);

/*
 * Finds the entry for function @name. Functions with the same name in
 * different files (static functions) are told apart by @addr, a runtime
 * address from the trace's kallsyms (0 = unknown), once the map knows the
 * kernel's relocation (kmag_symmap_bind()). GCC clone suffixes (".isra.0",
 * ".constprop.0", ".part.0", ".cold") fall back to the origin's entry.
 * *@ambiguous (if non-NULL) is set when several entries matched and @addr
 * could not decide. Returns NULL when unknown.
 */
const struct kmag_symmap_entry *kmag_symmap_lookup(const struct kmag_symmap *m, const char *name,
						   uint64_t addr, bool *ambiguous);

/*
 * Learns the relocation (KASLR offset) between the map's link-time addresses
 * and the runtime addresses in @st's kallsyms, so lookups can use addresses.
 * Returns 0, or -ENOENT when no anchor symbol is in both.
 */
int kmag_symmap_bind(struct kmag_symmap *m, const struct kmag_symtab *st);

/* Writes @m in kmag's format (seed=false) or the seed's "name|path" (seed=true). */
int kmag_symmap_write(const struct kmag_symmap *m, const char *path, bool seed,
		      const char *comment, struct kmag_err *err);

/*
 * The map to use when the user gave none: $KMAG_SYMBOL_MAP, then
 * ./kernel-magnifier.map (the seed's name), then ~/.cache/kmag/symbols-<release>.map
 * for the running kernel. Returns a static path or NULL.
 */
const char *kmag_symmap_default_path(const char *kernel_release);

/*
 * Path filters: "net,kernel/sched/fair.c". Each comma-separated pattern
 * matches a path as a substring, or as a glob when it has * ? or [; a
 * leading '/' anchors it at the tree root ("/net" matches net/... but not
 * drivers/net/...).
 */
struct kmag_pathfilter;
struct kmag_pathfilter *kmag_pathfilter_new(const char *spec, struct kmag_err *err);
void kmag_pathfilter_free(struct kmag_pathfilter *f);
bool kmag_pathfilter_match(const struct kmag_pathfilter *f, const char *path);
/* The spec as given; borrowed. */
const char *kmag_pathfilter_spec(const struct kmag_pathfilter *f);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_SYMMAP_H */
