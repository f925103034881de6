/* SPDX-License-Identifier: MIT */
/*
 * srclines.h - code addresses of a vmlinux resolved to source lines through
 * its DWARF line tables (libdw): call sites ("ksys_write+0x71", the return
 * address function_graph's funcgraph-retaddr saves) to "fs/read_write.c:738".
 * Needs the libdw feature; the library never prints.
 */
#ifndef KMAG_SRCLINES_H
#define KMAG_SRCLINES_H

#include <stddef.h>
#include <stdint.h>

#include "kmag.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kmag_srclines;

/*
 * Opens @vmlinux (an ELF file with DWARF line tables, e.g. the kernel build's
 * vmlinux). Returns a new object to free with kmag_srclines_free(), or NULL
 * with errno and @err set (one line naming @vmlinux).
 */
struct kmag_srclines *kmag_srclines_open(const char *vmlinux, struct kmag_err *err);
/* Frees @s (NULL is fine); the strings it lent become invalid. */
void kmag_srclines_free(struct kmag_srclines *s);

/* The link-time address of function @name in the vmlinux's symbol table, 0 if none. */
uint64_t kmag_srclines_func_addr(const struct kmag_srclines *s, const char *name);
/*
 * The source line of code address @addr (link-time): its file relative to
 * the kernel tree ("fs/read_write.c", borrowed, valid until
 * kmag_srclines_free()) and *@line; NULL when no line table covers @addr.
 * For inlined code, the innermost line (as addr2line without -i).
 */
const char *kmag_srclines_at(struct kmag_srclines *s, uint64_t addr, uint32_t *line);
/*
 * The line of a call site given as caller function + offset of the return
 * address (the call instruction is the byte before): writes
 * "fs/read_write.c:738" to @buf and returns its length, or 0 (@buf empty)
 * when @caller is not in the vmlinux or no line covers the call.
 */
size_t kmag_srclines_call_site(struct kmag_srclines *s, const char *caller, uint32_t off, char *buf,
			       size_t size);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_SRCLINES_H */
