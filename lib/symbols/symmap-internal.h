/* SPDX-License-Identifier: MIT */
/*
 * symmap-internal.h - symbol-map internals shared by the files of libkmag
 * that implement include/kmag/symmap.h.
 */
#ifndef KMAG_SYMMAP_INTERNAL_H
#define KMAG_SYMMAP_INTERNAL_H

#include "kmag/symmap.h"

/*
 * kmag_symmap_lookup() knowing the module: with @has_module, entries of
 * @module (NULL = vmlinux) are preferred when there are any.
 */
const struct kmag_symmap_entry *kmag__symmap_lookup_in(const struct kmag_symmap *m,
						       const char *name, uint64_t addr,
						       bool has_module, const char *module,
						       bool *ambiguous);

/* The next entry with @e's name (in add order), or NULL. @e must belong to @m. */
const struct kmag_symmap_entry *kmag__symmap_next_same(const struct kmag_symmap *m,
						       const struct kmag_symmap_entry *e);
/* The first entry named exactly @name, or NULL. */
const struct kmag_symmap_entry *kmag__symmap_first_named(const struct kmag_symmap *m,
							 const char *name);

/*
 * Source-tree roots learnt while reading a vmlinux (NULL-ended list, or NULL),
 * so its modules, whose one or two units cannot vote reliably, use the same.
 */
const char *const *kmag__symmap_src_roots(const struct kmag_symmap *m);
/* Copies @nr roots. Returns 0 or -ENOMEM. */
int kmag__symmap_set_src_roots(struct kmag_symmap *m, char *const *roots, size_t nr);

#endif /* KMAG_SYMMAP_INTERNAL_H */
