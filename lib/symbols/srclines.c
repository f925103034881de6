// SPDX-License-Identifier: MIT
/*
 * srclines.c - addresses of a vmlinux to source lines with libdwfl (see
 * include/kmag/srclines.h). Paths are made tree-relative as the symbol maps
 * make them (srcpath.c: the tree root voted over the compile units).
 */
#define PR_DOMAIN "srclines"
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "config.h"
#include "internal.h"
#include "kmag/srclines.h"
#include "kmag/symtab.h"

#if KMAG_HAVE_LIBDW
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "symbols/srcpath.h"

struct sym {
	const char *name;	/* borrowed from the ELF */
	uint64_t addr;
};

struct kmag_srclines {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	struct sym *syms;	/* functions by name */
	size_t nr_syms;
	struct srcroots roots;
	struct kmag_symtab *paths;	/* interned tree-relative paths */
};

static int by_name(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->addr > y->addr) - (x->addr < y->addr);
}

static int load_syms(struct kmag_srclines *s)
{
	int n = dwfl_module_getsymtab(s->mod);
	size_t cap = 0;

	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *name = dwfl_module_getsym_info(s->mod, i, &sym, &addr, NULL, NULL, NULL);

		if (!name || !*name || GELF_ST_TYPE(sym.st_info) != STT_FUNC)
			continue;
		if (kmag__grow(&s->syms, &cap, s->nr_syms + 1, sizeof(*s->syms)))
			return -ENOMEM;
		s->syms[s->nr_syms++] = (struct sym){ name, addr };
	}
	if (s->nr_syms)
		qsort(s->syms, s->nr_syms, sizeof(*s->syms), by_name);
	return 0;
}

static int vote_roots(struct kmag_srclines *s)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = NULL;

	while ((cu = dwfl_module_nextcu(s->mod, cu, &bias))) {
		Dwarf_Attribute a;
		const char *comp = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &a));

		if (srcroots_add_unit(&s->roots, dwarf_diename(cu), comp))
			return -ENOMEM;
	}
	return srcroots_finish(&s->roots, NULL);
}

struct kmag_srclines *kmag_srclines_open(const char *vmlinux, struct kmag_err *err)
{
	static const Dwfl_Callbacks callbacks = {
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.section_address = dwfl_offline_section_address,
	};
	struct kmag_srclines *s = calloc(1, sizeof(*s));
	int fd = -1, e = ENOMEM;

	if (!s || srcroots_init(&s->roots, NULL) || !(s->paths = kmag_symtab_new()) ||
	    !(s->dwfl = dwfl_begin(&callbacks))) {
		kmag_err_set(err, ENOMEM, "out of memory");
		goto fail;
	}
	fd = open(vmlinux, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		kmag_err_set(err, e, "%s: %s", vmlinux, strerror(e));
		goto fail;
	}
	dwfl_report_begin(s->dwfl);
	s->mod = dwfl_report_offline(s->dwfl, "kernel", vmlinux, fd);
	fd = -1;	/* libdwfl owns it now */
	if (!s->mod || dwfl_report_end(s->dwfl, NULL, NULL)) {
		e = EINVAL;
		kmag_err_set(err, e, "%s: not an ELF file elfutils can read (%s)", vmlinux,
			     dwfl_errmsg(-1));
		goto fail;
	}
	if (load_syms(s) || vote_roots(s)) {
		kmag_err_set(err, ENOMEM, "out of memory");
		goto fail;
	}
	if (!s->nr_syms) {
		e = EINVAL;
		kmag_err_set(err, e, "%s: no function symbols (a stripped file? give the build's vmlinux)",
			     vmlinux);
		goto fail;
	}
	return s;
fail:
	if (fd >= 0)
		close(fd);
	kmag_srclines_free(s);
	errno = e;
	return NULL;
}

void kmag_srclines_free(struct kmag_srclines *s)
{
	if (!s)
		return;
	if (s->dwfl)
		dwfl_end(s->dwfl);
	free(s->syms);
	srcroots_release(&s->roots);
	kmag_symtab_free(s->paths);
	free(s);
}

uint64_t kmag_srclines_func_addr(const struct kmag_srclines *s, const char *name)
{
	size_t lo = 0, hi = s->nr_syms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(s->syms[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->nr_syms && !strcmp(s->syms[lo].name, name) ? s->syms[lo].addr : 0;
}

const char *kmag_srclines_at(struct kmag_srclines *s, uint64_t addr, uint32_t *line)
{
	Dwfl_Line *l = dwfl_module_getsrc(s->mod, addr);
	const char *file, *comp = NULL;
	char buf[4096];
	int lineno = 0, n;
	kmag_func_t id;

	if (!l || !(file = dwfl_lineinfo(l, NULL, &lineno, NULL, NULL, NULL)) || lineno <= 0)
		return NULL;
	{
		Dwarf_Addr bias;
		Dwarf_Die *cu = dwfl_module_addrdie(s->mod, addr, &bias);
		Dwarf_Attribute a;

		if (cu)
			comp = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &a));
	}
	n = srcroots_relative(&s->roots, file, comp, buf, sizeof(buf));
	if (n < 0)
		return NULL;
	id = kmag_symtab_intern(s->paths, buf, (size_t)n);
	if (id == KMAG_FUNC_NONE)
		return NULL;
	*line = (uint32_t)lineno;
	return kmag_symtab_name(s->paths, id);
}

#else /* !KMAG_HAVE_LIBDW */

struct kmag_srclines {
	int unused;
};

struct kmag_srclines *kmag_srclines_open(const char *vmlinux, struct kmag_err *err)
{
	(void)vmlinux;
	errno = -kmag_need_feature(KMAG_FEATURE_LIBDW, "resolving call sites to source lines", err);
	return NULL;
}

void kmag_srclines_free(struct kmag_srclines *s)
{
	free(s);
}

uint64_t kmag_srclines_func_addr(const struct kmag_srclines *s, const char *name)
{
	(void)s, (void)name;
	return 0;
}

const char *kmag_srclines_at(struct kmag_srclines *s, uint64_t addr, uint32_t *line)
{
	(void)s, (void)addr, (void)line;
	return NULL;
}

#endif /* KMAG_HAVE_LIBDW */

size_t kmag_srclines_call_site(struct kmag_srclines *s, const char *caller, uint32_t off, char *buf,
			       size_t size)
{
	uint64_t base = s && caller ? kmag_srclines_func_addr(s, caller) : 0;
	const char *file;
	uint32_t line = 0;
	int n;

	if (size)
		buf[0] = '\0';
	if (!base || !off || off == UINT32_MAX)
		return 0;
	file = kmag_srclines_at(s, base + off - 1, &line);
	if (!file)
		return 0;
	n = snprintf(buf, size, "%s:%u", file, line);
	return n > 0 ? (size_t)n : 0;
}
