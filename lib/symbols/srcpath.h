/* SPDX-License-Identifier: MIT */
/*
 * srcpath.h - turning DWARF source paths into paths relative to the kernel
 * source tree root ("net/ipv4/tcp.c"). Private to libkmag.
 *
 * DWARF gives a file as a directory plus a name, either absolute or relative
 * to the compile unit's DW_AT_comp_dir, and kernels are built in-tree, with
 * O=, with -fdebug-prefix-map, or (Debian) with several of these at once.
 * The tree root is therefore not written anywhere; it is found by voting over
 * the compile units' primary source files: a prefix of a unit's path that is
 * followed by a top-level kernel directory (kernel/, net/, drivers/, ...) is a
 * candidate, and each unit takes its candidate with the most votes (the
 * longest on a tie, so /src/net/linux/kernel/... keeps /src/net/linux/).
 */
#ifndef KMAG_SRCPATH_H
#define KMAG_SRCPATH_H

#include <stddef.h>

struct srcroots {
	char **units;		/* joined, cleaned path of each unit's primary file */
	size_t nr_units, cap_units;
	char **roots;		/* chosen roots, each ending in '/', longest first */
	size_t nr_roots;
	char *forced;		/* --source-root, ending in '/', or NULL */
};

/* @forced: the user's source root (NULL = detect). Returns 0 or -ENOMEM. */
int srcroots_init(struct srcroots *r, const char *forced);
void srcroots_release(struct srcroots *r);
/* Records a unit's primary source file (DW_AT_name) and DW_AT_comp_dir (may be NULL). */
int srcroots_add_unit(struct srcroots *r, const char *name, const char *comp_dir);
/*
 * Chooses the roots once every unit was added, or takes @known (a NULL-ended
 * list of roots learnt from the vmlinux of the same build; may be NULL) when
 * it is not empty. Returns 0 or -ENOMEM.
 */
int srcroots_finish(struct srcroots *r, const char *const *known);

/*
 * Writes the tree-relative form of @raw (a DWARF file path of a unit whose
 * comp_dir is @comp_dir, may be NULL) to @out (@len bytes). Paths outside
 * every root (system headers) stay absolute. Returns the length written, or
 * -1 when @out is too small.
 */
int srcroots_relative(const struct srcroots *r, const char *raw, const char *comp_dir, char *out,
		      size_t len);

/* Lexically cleans @path in place: drops "." and empty components, folds "x/..". */
void srcpath_clean(char *path);

#endif /* KMAG_SRCPATH_H */
