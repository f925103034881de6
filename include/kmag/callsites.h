/* SPDX-License-Identifier: MIT */
/*
 * callsites.h - the distinct call sites of each caller -> callee edge
 * (funcgraph-retaddr: the caller and the return address's offset in it),
 * counted over a replay's calls, and described as source lines through a
 * vmlinux's DWARF (kmag_srclines): "fs/read_write.c:738 x9".
 */
#ifndef KMAG_CALLSITES_H
#define KMAG_CALLSITES_H

#include <stddef.h>
#include <stdint.h>

#include "replay.h"
#include "srclines.h"
#include "symtab.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kmag_callsites;

/* One distinct call site: @callee called from @caller at offset @caller_off, @count times. */
struct kmag_callsite {
	kmag_func_t caller, callee;
	uint32_t caller_off;	/* the return address's offset in @caller */
	uint64_t count;
};

/*
 * A new collector naming functions through @st and lines through @lines (both
 * borrowed, must outlive it). Free with kmag_callsites_free(). NULL on ENOMEM.
 */
struct kmag_callsites *kmag_callsites_new(const struct kmag_symtab *st, struct kmag_srclines *lines);
void kmag_callsites_free(struct kmag_callsites *cs);
/* Subscribes @cs to @r's calls. 0 or -ENOMEM. */
int kmag_callsites_subscribe(struct kmag_callsites *cs, struct kmag_replay *r);
/* Counts only the calls under @root (kmag_call_under(); KMAG_FUNC_NONE: all), before the first event. */
void kmag_callsites_set_root(struct kmag_callsites *cs, kmag_func_t root);
/*
 * Writes the source lines @callee was called from in @caller, most calls
 * first: "fs/read_write.c:738 x9, fs/read_write.c:740 x1" into @buf
 * (NUL-terminated). Returns @buf, or NULL when no call of the edge had a
 * call site that resolved to a line.
 */
const char *kmag_callsites_describe(struct kmag_callsites *cs, kmag_func_t caller,
				    kmag_func_t callee, char *buf, size_t size);

/*
 * Every distinct call site seen so far, in the order first seen; *@n gets
 * their number. Borrowed, valid until the next event fed to the replay or
 * kmag_callsites_free().
 */
const struct kmag_callsite *kmag_callsites_list(const struct kmag_callsites *cs, size_t *n);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_CALLSITES_H */
