/* SPDX-License-Identifier: MIT */
/*
 * dwarf-symbols.h - reading one ELF file's functions and their source
 * locations with elfutils (libdwfl/libdw). Private to libkmag; the public
 * entry points are in include/kmag/symmap.h.
 */
#ifndef KMAG_DWARF_SYMBOLS_H
#define KMAG_DWARF_SYMBOLS_H

#include "kmag/symmap.h"

/* What to read from one ELF file. */
struct dwsyms_req {
	const char *path;		/* vmlinux, *.ko or *.ko.debug */
	const char *module;		/* module name to use; NULL = from .modinfo or the file name */
	bool is_module;			/* a relocatable kernel module, not vmlinux */
	const struct kmag_symgen_opts *opts;
	struct kmag_symgen_stats *stats;	/* counters are added to */
	char *release;			/* out: kernel release if found and still NULL; caller frees */
};

/*
 * Adds the functions of @req->path to @m. Module functions get the module's
 * name and addresses in the kernel's module text layout (see
 * doc/symbol-map.md). Returns the number of entries added or -errno with @err set.
 */
int kmag__dwsyms_read(struct kmag_symmap *m, struct dwsyms_req *req, struct kmag_err *err);

#endif /* KMAG_DWARF_SYMBOLS_H */
