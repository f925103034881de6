/* SPDX-License-Identifier: MIT */
/*
 * btf.h - the kernel's BTF type information (libbpf): per function, its return
 * type and its parameters (names, kinds, sizes, registers), as the kernel's
 * funcgraph-args and funcgraph-retval see them. Loaded from a raw BTF blob (the
 * one trace-cmd 3.4 stores in trace.dat), a raw BTF file (a copy of
 * /sys/kernel/btf/vmlinux) or an ELF vmlinux with a .BTF section.
 *
 * Needs the `btf` feature (libbpf); without it kmag_btf_open()/_from_blob()
 * fail through kmag_need_feature(). Never prints.
 */
#ifndef KMAG_BTF_H
#define KMAG_BTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmag/kmag.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A type after typedefs and const/volatile/restrict/type tags are skipped. */
enum kmag_btf_kind {
	KMAG_BTF_UNKNOWN = 0,	/* no such type / not described */
	KMAG_BTF_VOID,		/* void (return type only) */
	KMAG_BTF_BOOL,		/* _Bool (an INT with the BOOL encoding) */
	KMAG_BTF_INT,		/* integer (char included): see is_signed, size */
	KMAG_BTF_PTR,		/* any pointer */
	KMAG_BTF_ENUM,		/* enum of up to 4 bytes (BTF_KIND_ENUM) */
	KMAG_BTF_OTHER,		/* struct, union, enum64, float, array...: see kind_name */
};

struct kmag_btf_type {
	enum kmag_btf_kind kind;
	bool is_signed;		/* INT: signed encoding; ENUM: signed values */
	uint32_t size;		/* bytes (0 for void/unknown) */
	uint32_t nregs;		/* argument registers it takes on x86_64/arm64: 1, or
				 * size/8 rounded up for a struct passed by value */
	const char *kind_name;	/* BTF kind as the kernel's btf_type_str() spells it:
				 * "int", "ptr", "struct", "union", "enum64", ...;
				 * static string */
};

#define KMAG_BTF_MAX_PARAMS 16

struct kmag_btf_param {
	const char *name;	/* borrowed from the kmag_btf, "" when unnamed */
	struct kmag_btf_type type;
};

/* One function's prototype. Strings borrowed, valid until kmag_btf_free(). */
struct kmag_btf_func {
	const char *name;
	struct kmag_btf_type ret;
	uint32_t nparams;	/* as the prototype has (a trailing ... not counted) */
	bool variadic;
	struct kmag_btf_param params[KMAG_BTF_MAX_PARAMS];	/* first min(nparams, MAX) */
};

struct kmag_btf;

/*
 * Loads BTF from @path: a raw BTF file (a copy of /sys/kernel/btf/vmlinux) or
 * an ELF file with a .BTF section (vmlinux). Returns a new object to free with
 * kmag_btf_free(), or NULL with errno and @err set (one line naming @path).
 */
struct kmag_btf *kmag_btf_open(const char *path, struct kmag_err *err);
/*
 * Loads raw BTF from @data/@size (copied; the caller keeps its buffer), e.g.
 * trace.dat's BTF_FILE option. Returns a new object to free with
 * kmag_btf_free(), or NULL with errno and @err set.
 */
struct kmag_btf *kmag_btf_from_blob(const void *data, size_t size, struct kmag_err *err);
/* Frees @btf (NULL is fine); every string it lent becomes invalid. */
void kmag_btf_free(struct kmag_btf *btf);

/* How many functions (BTF_KIND_FUNC with a prototype) @btf describes. */
size_t kmag_btf_nr_funcs(const struct kmag_btf *btf);

/*
 * Fills @out with function @name's prototype. Returns 0, or -ENOENT when
 * @btf has no function of that name (@out then is zeroed, ret UNKNOWN). A
 * name with a compiler suffix ("foo.isra.0", "foo.constprop.1") is looked up
 * without it (its return type may differ: see the kernel's note in
 * btf_find_func_proto; the result is as the kernel prints it).
 */
int kmag_btf_func(const struct kmag_btf *btf, const char *name, struct kmag_btf_func *out);

/*
 * The argument registers @f's parameters take, in order, as the kernel's
 * print_function_args() walks them: at most @max (the trace's register count;
 * 6 on x86_64). Returns the number of registers covered by whole parameters.
 */
uint32_t kmag_btf_func_nregs(const struct kmag_btf_func *f, uint32_t max);

/*
 * True when @value, the raw register a function returned, is an error by
 * its return type: a negative errno (-4095..-1) for signed INT / ENUM
 * returns (interpreted at the type's size), an ERR_PTR for PTR returns.
 * VOID, BOOL, unsigned INT and UNKNOWN never are. *@errnum (optional) gets
 * the positive errno.
 */
bool kmag_btf_ret_is_error(const struct kmag_btf_type *ret, uint64_t value, int *errnum);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_BTF_H */
