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
	uint64_t addr;		/* link-time start address (modules: KMAG_MODULE_TEXT_BASE +
				   offset in the module's text), 0 if unknown */
	uint64_t size;		/* bytes of code, 0 if unknown */
	const char *module;	/* "ext4", or NULL for vmlinux */
};

/*
 * Module functions are placed as the kernel's module loader lays out a
 * module's text, starting at this address (so that 0 keeps meaning
 * "unknown"); kmag_symmap_bind() learns each loaded module's real base.
 */
#define KMAG_MODULE_TEXT_BASE 0x1000000ull

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
 * ./kernel-magnifier.map or ./symbol-filepath.map (the seed's names), then
 * ~/.cache/kmag/symbols-<release>.map
 * for @kernel_release (NULL: the running kernel). Returns a static path or NULL.
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

/*
 * The symbol map and path filter a command uses for kernel @release, found
 * as every command finds them (kmag_symmap_find()).
 */
struct kmag_symmap_choice {
	/* in */
	const char *path;	/* the map asked for (--symbol-file-path); NULL: look it up */
	const char *release;	/* the kernel's release; NULL: unknown */
	const char *filepath;	/* the path filter (--filter-filepath); NULL: none */
	const char *for_what;	/* "the trace was recorded on": the warning's words */
	kmag_warn_fn warn;	/* the map's kernel is not @release; NULL: logged */
	void *warn_ctx;
	/* out, owned: free with kmag_symmap_choice_release() */
	struct kmag_symmap *map;	/* NULL: none found (fine without a filter) */
	struct kmag_pathfilter *filter;	/* @filepath parsed, or NULL */
	char used[4096];		/* the map's path, "" without one */
};

/*
 * Fills @c's map (@c->path, else kmag_symmap_default_path(@c->release)) and
 * filter. No map and no filter is fine. Returns 0, or -errno with @err set:
 * a filter without a map (the message says how to make one), a map that
 * cannot be read, a bad filter.
 */
int kmag_symmap_choose(struct kmag_symmap_choice *c, struct kmag_err *err);
/* Frees what kmag_symmap_choose() made. */
void kmag_symmap_choice_release(struct kmag_symmap_choice *c);

/* ---- Metadata ---- */

/* Kernel release the map describes ("6.1.0-56-cloud-amd64"), or NULL; borrowed. */
const char *kmag_symmap_kernel_release(const struct kmag_symmap *m);
/* Sets the release (copied; NULL clears it). Returns 0 or -ENOMEM. */
int kmag_symmap_set_kernel_release(struct kmag_symmap *m, const char *release);

/*
 * Finds the entry for function @func of a trace's symbol table @st, using its
 * name, its kallsyms address and its module. Same contract as
 * kmag_symmap_lookup(); the map should be bound to @st (kmag_symmap_bind()).
 */
const struct kmag_symmap_entry *kmag_symmap_lookup_func(const struct kmag_symmap *m,
							const struct kmag_symtab *st,
							kmag_func_t func, bool *ambiguous);

/* ---- Generating a map from DWARF (elfutils, in-process) ---- */

struct kmag_symgen_opts {
	/* Source tree root as recorded in the DWARF, stripped from paths; NULL = detect. */
	const char *source_root;
	/* Called now and then with work done of @total in file @what (units or files). */
	void (*progress)(void *ctx, const char *what, uint64_t done, uint64_t total);
	void *progress_ctx;
};

struct kmag_symgen_stats {
	uint64_t functions;	/* entries added */
	uint64_t units;		/* DWARF compile units read */
	uint64_t modules;	/* module files read */
	uint64_t skipped;	/* module files without usable DWARF */
	uint64_t no_source;	/* function symbols DWARF gave no source location for */
};

/*
 * Adds every function of the vmlinux at @path (ELF with DWARF) to @m: name as
 * kallsyms shows it (GCC clones included), tree-relative source file of the
 * definition, line of the entry, link-time address and size. Sets the map's
 * release from the image's linux_banner if the map has none. @opts and
 * @stats may be NULL. Returns the number of entries added, or -errno with
 * @err naming the file and the fix.
 */
int kmag_symmap_add_vmlinux(struct kmag_symmap *m, const char *path,
			    const struct kmag_symgen_opts *opts, struct kmag_symgen_stats *stats,
			    struct kmag_err *err);

/*
 * Adds the functions of one kernel module (*.ko with DWARF, or a *.ko.debug
 * debug file) as entries of module @name (NULL = the name in .modinfo, else
 * the file name). Returns the count added or -errno with @err set.
 */
int kmag_symmap_add_module(struct kmag_symmap *m, const char *path, const char *name,
			   const struct kmag_symgen_opts *opts, struct kmag_symgen_stats *stats,
			   struct kmag_err *err);

/*
 * Walks @dir recursively and adds every *.ko and *.ko.debug file (one per
 * module: a .ko.debug wins over the .ko of the same module). Files without
 * usable DWARF are skipped with a warning (counted in @stats->skipped).
 * Returns the number of modules read, or -errno with @err set when @dir is
 * unreadable or holds no module at all.
 */
int kmag_symmap_add_modules(struct kmag_symmap *m, const char *dir,
			    const struct kmag_symgen_opts *opts, struct kmag_symgen_stats *stats,
			    struct kmag_err *err);

/*
 * Finds the vmlinux with debug info for kernel @release (NULL = running
 * kernel) in the usual places (/usr/lib/debug/boot/vmlinux-R,
 * /usr/lib/debug/lib/modules/R/vmlinux, /boot/vmlinux-R, ...). Returns @buf,
 * or NULL with @err naming the places looked at and the package to install.
 */
const char *kmag_vmlinux_find(const char *release, char *buf, size_t len, struct kmag_err *err);

/* ---- Source locations of a trace's functions ---- */

/*
 * A cache from the function ids of one trace's symbol table to their map
 * entries and "file:line" labels, for renderers and filters. Binds @m to @st
 * (kmag_symmap_bind()) when @st has kallsyms. Both stay borrowed and must
 * outlive the cache. Returns a new cache to free with kmag_srcloc_free().
 */
struct kmag_srcloc;
struct kmag_srcloc *kmag_srcloc_new(struct kmag_symmap *m, const struct kmag_symtab *st);
void kmag_srcloc_free(struct kmag_srcloc *s);

/* The entry of @func, or NULL; *@ambiguous as for kmag_symmap_lookup(). */
const struct kmag_symmap_entry *kmag_srcloc_entry(struct kmag_srcloc *s, kmag_func_t func,
						  bool *ambiguous);
/*
 * "net/ipv4/tcp.c:1490" for @func ("file" when the line is unknown, with
 * " (+N more)" when the name is in N other files and the trace has no address
 * to decide), or NULL when the map does not know it. Borrowed, valid until
 * kmag_srcloc_free().
 */
const char *kmag_srcloc_label(struct kmag_srcloc *s, kmag_func_t func);
/* The same, with the signature of struct kmag_report's srcline hook (@ctx = the cache). */
const char *kmag_srcloc_report_cb(void *ctx, kmag_func_t func);
/*
 * Whether @func's source file matches @f. An ambiguous name matches when any
 * of its files does; an unknown function never matches.
 */
bool kmag_srcloc_match(struct kmag_srcloc *s, const struct kmag_pathfilter *f, kmag_func_t func);

/* Attaches path filter @f (borrowed; NULL detaches) for kmag_srcloc_visible_cb(). */
void kmag_srcloc_set_filter(struct kmag_srcloc *s, const struct kmag_pathfilter *f);
/*
 * True when no filter is attached or @func matches it (kmag_srcloc_match());
 * the signature of struct kmag_report's visible hook (@ctx = the cache).
 */
bool kmag_srcloc_visible_cb(void *ctx, kmag_func_t func);

struct kmag_srcloc_stats {
	size_t mapped;		/* functions looked up with an entry */
	size_t unmapped;	/* functions the map does not know */
	size_t ambiguous;	/* mapped by name only, several files possible */
	bool bound;		/* addresses were usable (map bound to the trace's kallsyms) */
};
/* Counts over the functions looked up so far. */
struct kmag_srcloc_stats kmag_srcloc_stats(const struct kmag_srcloc *s);

/* ---- Record-time selection (set_ftrace_filter from a path filter) ---- */

struct kmag_selected {
	const char *name;	/* function name, as in available_filter_functions */
	const char *module;	/* "ext4", or NULL for vmlinux */
	size_t index;		/* 1-based line number in available_filter_functions */
	const struct kmag_symmap_entry *entry;	/* its map entry (file, line) */
	bool ambiguous;		/* the name is in several files, one of which matched */
};

struct kmag_selection {
	struct kmag_selected *funcs;	/* @nr functions, in available_filter_functions order */
	size_t nr;
	size_t available;	/* functions listed in the input */
	size_t unmapped;	/* of those, unknown to the map */
	size_t ambiguous;	/* selected by name only (no address to decide) */
	char *text;		/* private copy the names point into */
};

/*
 * Expands path filter @f into the traceable functions it covers: every
 * function in @available (@len bytes of tracefs available_filter_functions:
 * "name" or "name [module]" lines; the "addr name [module]" lines of
 * available_filter_functions_addrs are used to tell same-named functions apart
 * when @m is bound to the running kernel's kallsyms) whose source file in @m
 * matches @f. Fills @out (release with kmag_selection_release()). Returns the
 * number selected, or -errno with @err set.
 */
int kmag_symmap_select(const struct kmag_symmap *m, const struct kmag_pathfilter *f,
		       const char *available, size_t len, struct kmag_selection *out,
		       struct kmag_err *err);
void kmag_selection_release(struct kmag_selection *s);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_SYMMAP_H */
