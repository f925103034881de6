/* SPDX-License-Identifier: MIT */
/*
 * errors.h - where errors are born: for every call that returned a negative
 * errno, the innermost function that produced it.
 *
 * A replay subscriber (replay.h). A call "returns an error" when its return
 * value (funcgraph-retval, Linux 6.5+) is a negative errno by its return type:
 * with the kernel's BTF types known (kmag_errors_set_types()), void, bool and
 * unsigned returns never are, pointer returns are when they hold an ERR_PTR
 * (-4095..-1 as a 64-bit value), signed integers when their value at the
 * type's size is in -4095..-1; without types every return value is read as
 * kmag_call_errno() does (as the kernel's funcgraph-retval prints it), so the
 * registers of void and bool functions may read as errors.
 *
 * The origin of an error: a call that returned errno E while none of its
 * direct callees in that call returned E. An error passed up unchanged
 * (the caller returns the same E its callee returned) keeps its origin; an
 * error transformed (the caller returns another errno) or handled (it
 * returns success) ends there, and a new errno returned by the caller is a
 * new origin, the caller's. When several callees returned E, the caller
 * passes up the last one's (the one nearest its return); the earlier ones
 * count as handled inside it.
 *
 * Each origin is grouped by (origin function, errno, entry point), the entry
 * point being the outermost call of its stack the trace has (the system call,
 * e.g. __x64_sys_openat). A group counts its origins, how many of them the
 * entry point itself returned (the error reached it unchanged), and keeps one
 * example chain: the calls from the entry point down to the origin with their
 * durations (the first origin whose error reached the entry, else the first).
 */
#ifndef KMAG_ERRORS_H
#define KMAG_ERRORS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmag.h"
#include "replay.h"
#include "symtab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One call of an example chain. */
struct kmag_error_link {
	kmag_func_t func;
	uint64_t duration;	/* ns, KMAG_DURATION_NONE when unknown */
	int64_t retval;		/* its return value as recorded */
	bool has_retval;
	bool returned_err;	/* it returned the group's errno (by its type) */
};

/* Longest chain kept: deeper calls keep their entry and the links nearest the origin. */
#define KMAG_ERRORS_MAX_CHAIN 128

/* One (origin, errno, entry point). Borrowed from the kmag_errors, valid until it is freed. */
struct kmag_error_group {
	kmag_func_t origin;
	kmag_func_t entry;
	int errnum;		/* positive: 2 = ENOENT */
	uint64_t count;		/* origins of this errno in this function under this entry */
	uint64_t reached;	/* of those, how many the entry point itself returned */
	/* the example: entry point first, origin last */
	const struct kmag_error_link *chain;
	uint32_t chain_len;
	uint32_t run;		/* the last @run links returned the errno (origin included) */
	bool chain_cut;		/* links between the entry and the run were left out */
	kmag_func_t after;	/* the example origin's caller had earlier called this
				   function, which returned the same errno: the error may
				   have been handed on as data (an ERR_PTR passed as an
				   argument) or retried; KMAG_FUNC_NONE when not */
	int32_t pid;		/* the example's task */
	uint64_t start_ns;	/* the example origin's start, KMAG_TS_NONE when unknown */
};

struct kmag_errors_stats {
	uint64_t calls;			/* calls that left (placeholders never named excluded) */
	uint64_t calls_with_retval;	/* of those, with a return value */
	uint64_t error_returns;		/* calls that returned an error (by type) */
	uint64_t origins;		/* of those, origins */
	uint64_t not_by_type;		/* returns in the errno range that their type excludes
					   (void, bool, unsigned, pointers that are no ERR_PTR) */
	uint64_t untyped_returns;	/* error returns of functions whose type is unknown */
	bool types;			/* return types were given (kmag_errors_set_types()) */
	int errnum;			/* origins only of it (kmag_errors_set_errno()); 0: all */
};

/*
 * What a function returns, as far as the caller knows it (e.g. from BTF).
 * @ctx is the caller's. Return KMAG_ERRORS_RET_UNKNOWN for functions not
 * described. For SINT, *@size gets the type's size in bytes (1, 2, 4, 8).
 */
enum kmag_errors_ret {
	KMAG_ERRORS_RET_UNKNOWN = 0,
	KMAG_ERRORS_RET_NONE,	/* void, bool, unsigned or anything else that cannot be -errno */
	KMAG_ERRORS_RET_SINT,	/* signed integer or enum: -errno at its size */
	KMAG_ERRORS_RET_PTR,	/* pointer: ERR_PTR values */
};
typedef enum kmag_errors_ret (*kmag_errors_type_fn)(void *ctx, const char *func, uint32_t *size);

struct kmag_errors;

/*
 * A new analysis of the calls of a trace whose names are in @st (borrowed,
 * must outlive it). Free with kmag_errors_free(). NULL with errno (ENOMEM).
 */
struct kmag_errors *kmag_errors_new(const struct kmag_symtab *st);
void kmag_errors_free(struct kmag_errors *e);
/*
 * Return types by function name (@fn, @ctx borrowed; asked once per function).
 * Call before the first call leaves.
 */
void kmag_errors_set_types(struct kmag_errors *e, kmag_errors_type_fn fn, void *ctx);
struct kmag_btf;
/*
 * Return types from the kernel's BTF (btf.h): void, bool, unsigned integers
 * and other kinds never are errors, signed integers and enums are -errno at
 * their size, pointers as ERR_PTR values; functions the BTF does not describe
 * read as kmag_call_errno() does (counted in stats.untyped_returns). @btf is
 * borrowed and must outlive @e. Call before the first call leaves.
 */
void kmag_errors_use_btf(struct kmag_errors *e, const struct kmag_btf *btf);
/*
 * Only errors born under @root (kmag_call_under(): a call of @root or one it
 * made, directly or not; KMAG_FUNC_NONE: all, the default), before the first
 * event. An origin's chain still runs up to its entry point.
 */
void kmag_errors_set_root(struct kmag_errors *e, kmag_func_t root);
/*
 * Only errors of @errnum (positive; 0: all, the default), before the first
 * event: only calls returning -@errnum start a record, so the groups are the
 * origins of that error alone (`kmag errors --errno E`). The stats still
 * count every call and every error return.
 */
void kmag_errors_set_errno(struct kmag_errors *e, int errnum);
/* Subscribes @e to replay @r (before its first event). 0 or -errno. */
int kmag_errors_subscribe(struct kmag_errors *e, struct kmag_replay *r);
/*
 * After the replay finished: sorts the groups (those whose errors reached the
 * entry point first, then by count, then by name). 0, or the first -errno an
 * earlier hook met (-ENOMEM).
 */
int kmag_errors_finish(struct kmag_errors *e);

/*
 * The error paths, after kmag_errors_finish(): the caller -> callee steps of
 * the example chains of the groups whose error reached the entry point (the
 * failed system calls, from the entry down to where the error was born), and
 * those groups' origins. For pictures that mark them.
 */
bool kmag_errors_path_edge(const struct kmag_errors *e, kmag_func_t caller, kmag_func_t callee);
bool kmag_errors_path_origin(const struct kmag_errors *e, kmag_func_t func);

struct kmag_cg;
struct kmag_cgview_chain;
/*
 * The example chains of every group, in the groups' order, as chains of @cg
 * node indexes for a picture's pruning (cgview.h, opts.chains): each from the
 * entry point down to the origin, the functions @cg lacks (a graph scoped to
 * one function) left out, the groups with nothing in @cg skipped. Returns an
 * array of *@nr chains in one block to free(); NULL with errno ENOMEM (*@nr
 * 0 and NULL for no chain is no error: errno 0). After kmag_errors_finish().
 */
struct kmag_cgview_chain *kmag_errors_view_chains(const struct kmag_errors *e,
						   const struct kmag_cg *cg, size_t *nr);

/* How many groups (origin, errno, entry point) there are, after kmag_errors_finish(). */
size_t kmag_errors_nr_groups(const struct kmag_errors *e);
/* Group @i (0 <= i < kmag_errors_nr_groups()), in the order finish sorted them. */
const struct kmag_error_group *kmag_errors_group(const struct kmag_errors *e, size_t i);
const struct kmag_errors_stats *kmag_errors_stats(const struct kmag_errors *e);

/* The positive errno call @c returned by @e's return types (see above), else 0. */
int kmag_errors_call_errno(struct kmag_errors *e, const struct kmag_call *c);

/*
 * The symbolic name of kernel error number @errnum (positive): "ENOENT",
 * also the kernel-internal ones ("ENOIOCTLCMD", "ERESTARTSYS"); NULL when it
 * has none. Static string.
 */
const char *kmag_errno_name(int errnum);
/*
 * The error number @text names, for options like --errno: a name as
 * kmag_errno_name() gives them, in any case ("EINVAL", "einval"), or a
 * number from 1 to 4095, with or without its minus ("22", "-22"). Returns
 * it (positive), or -EINVAL with @err (may be NULL) set to one line naming
 * the cause, with the names that look like @text ("\"EINVL\" is no errno
 * name; did you mean EINVAL?", kmag_suggest()).
 */
int kmag_errno_parse(const char *text, struct kmag_err *err);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_ERRORS_H */
