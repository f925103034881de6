// SPDX-License-Identifier: MIT
/*
 * dwarf-symbols.c - functions of a vmlinux or kernel module with the source
 * file and line of their definition, read in-process with elfutils.
 *
 * The ELF symbol table is the list of names the kernel's kallsyms shows
 * (including GCC clones such as "foo.isra.0" or "foo.cold", which DWARF names
 * only through DW_AT_abstract_origin). Every function DIE with code -- out-
 * of-line copies of inline functions and clones included -- gives the
 * address ranges it covers, the file of its definition (DW_AT_decl_file,
 * following DW_AT_specification / DW_AT_abstract_origin, so never the header
 * with a prototype), and each symbol inside those ranges gets the location of
 * its address in the function's own body: the outermost frame at that
 * address, which is what `addr2line -i` prints last. Symbols no function DIE
 * covers (assembly) fall back to the line table of the unit holding them.
 *
 * libdwfl rather than plain libdw is used because kernel modules are
 * relocatable objects whose DWARF needs relocating before it can be read.
 */
#define PR_DOMAIN "dwarf"
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <unistd.h>

#include "dwarf-symbols.h"
#include "internal.h"
#include "srcpath.h"
#include "symmap-internal.h"
#include "util/u64map.h"

#define MAX_RANGES 64		/* a function's address ranges we look at */
#define MAX_SCOPE_DEPTH 256	/* nested lexical blocks searched for inlined calls */
#define PATH_BUF 4096

struct elfsym {
	uint64_t addr, size;
	const char *name;	/* in the ELF string table */
	bool done;		/* a function DIE covered it */
};

struct found {
	const char *name;	/* ELF or DWARF string, valid while the file is open */
	const char *file;	/* interned in gen.paths */
	uint32_t line;
	uint64_t addr, size;
};

struct gen {
	struct dwsyms_req *req;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf *dw;
	Dwarf_Addr bias;
	struct elfsym *syms;
	size_t nr_syms;
	struct found *found;
	size_t nr_found, cap_found;
	struct srcroots roots;
	struct kmag_symtab *paths;	/* interned tree-relative paths */
	struct u64map path_of;		/* raw path pointer -> path id */
	/* the unit being read */
	Dwarf_Die cudie;
	const char *comp_dir;
	/* module text layout: section index -> address in the kernel's layout, 0 = none */
	uint64_t *sec_addr;
	size_t nr_secs;
};

static const char *tree_path(struct gen *g, const char *raw)
{
	char buf[PATH_BUF];
	uint64_t *v;
	kmag_func_t id;
	int n;

	if (!raw)
		return NULL;
	v = u64map_get(&g->path_of, (uint64_t)(uintptr_t)raw);
	if (v)
		return kmag_symtab_name(g->paths, (kmag_func_t)*v);
	n = srcroots_relative(&g->roots, raw, g->comp_dir, buf, sizeof(buf));
	if (n < 0)
		return NULL;
	id = kmag_symtab_intern(g->paths, buf, (size_t)n);
	if (id == KMAG_FUNC_NONE || !u64map_upsert(&g->path_of, (uint64_t)(uintptr_t)raw, id, NULL))
		return NULL;
	return kmag_symtab_name(g->paths, id);
}

static int add_found(struct gen *g, const char *name, const char *file, uint32_t line,
		     uint64_t addr, uint64_t size)
{
	if (kmag__grow(&g->found, &g->cap_found, g->nr_found + 1, sizeof(*g->found)))
		return -ENOMEM;
	g->found[g->nr_found++] = (struct found){ name, file, line, addr, size };
	return 0;
}

/*
 * The outermost inlined call whose code covers @pc, searching through lexical
 * blocks (at most @depth deep: hostile input must not exhaust the stack).
 */
static bool outer_inline_site(Dwarf_Die *scope, Dwarf_Addr pc, Dwarf_Die *out, int depth)
{
	Dwarf_Die child;

	if (depth <= 0 || dwarf_child(scope, &child))
		return false;
	do {
		int tag = dwarf_tag(&child);

		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_lexical_block)
			continue;
		if (dwarf_haspc(&child, pc) != 1)
			continue;
		if (tag == DW_TAG_inlined_subroutine) {
			*out = child;
			return true;
		}
		if (outer_inline_site(&child, pc, out, depth - 1))
			return true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

/*
 * Location of @pc in function @fn's own body: the call site of the outermost
 * inlined function covering it, else the line table row. When that lands in
 * another file than the definition (code #included into a body), the
 * definition's file and line are used so the file stays the definition's.
 */
static void location_at(struct gen *g, Dwarf_Die *fn, Dwarf_Addr pc, const char *def_file,
			int decl_line, const char **file, uint32_t *line)
{
	const char *f = NULL;
	Dwarf_Word idx, ln = 0;
	Dwarf_Attribute a;
	Dwarf_Die site;
	int l = 0;

	if (outer_inline_site(fn, pc, &site, MAX_SCOPE_DEPTH)) {
		Dwarf_Files *files;
		size_t nf;

		if (dwarf_formudata(dwarf_attr(&site, DW_AT_call_file, &a), &idx) == 0 &&
		    dwarf_formudata(dwarf_attr(&site, DW_AT_call_line, &a), &ln) == 0 &&
		    dwarf_getsrcfiles(&g->cudie, &files, &nf) == 0 && idx < nf)
			f = tree_path(g, dwarf_filesrc(files, idx, NULL, NULL));
		l = (int)ln;
	} else {
		Dwarf_Line *row = dwarf_getsrc_die(&g->cudie, pc);

		if (row && dwarf_lineno(row, &l) == 0)
			f = tree_path(g, dwarf_linesrc(row, NULL, NULL));
	}
	if (def_file && (!f || f != def_file || l <= 0)) {
		*file = def_file;
		*line = decl_line > 0 ? (uint32_t)decl_line : 0;
		return;
	}
	*file = f;
	*line = l > 0 ? (uint32_t)l : 0;
}

/* First ELF symbol at or above @addr. */
static size_t first_sym_from(const struct gen *g, uint64_t addr)
{
	size_t lo = 0, hi = g->nr_syms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (g->syms[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int read_function(struct gen *g, Dwarf_Die *die)
{
	Dwarf_Addr base, lo[MAX_RANGES], hi[MAX_RANGES], entry;
	const char *name, *def_file, *file;
	bool entry_named = false;
	int nr = 0, decl_line = 0, ret;
	ptrdiff_t off = 0;
	uint32_t line;

	if (dwarf_hasattr(die, DW_AT_declaration))
		return 0;
	while (nr < MAX_RANGES && (off = dwarf_ranges(die, off, &base, &lo[nr], &hi[nr])) > 0)
		if (hi[nr] > lo[nr])
			nr++;
	if (!nr)
		return 0;	/* abstract instance of an inline function: no code */
	/* the entry is DW_AT_entry_pc / DW_AT_low_pc, else the first range GCC lists */
	if (dwarf_entrypc(die, &entry))
		entry = lo[0];
	name = dwarf_diename(die);
	def_file = tree_path(g, dwarf_decl_file(die));
	dwarf_decl_line(die, &decl_line);
	for (int r = 0; r < nr; r++) {
		size_t i;

		for (i = first_sym_from(g, lo[r] + g->bias);
		     i < g->nr_syms && g->syms[i].addr < hi[r] + g->bias; i++) {
			struct elfsym *s = &g->syms[i];

			if (s->done)
				continue;
			location_at(g, die, s->addr - g->bias, def_file, decl_line, &file, &line);
			if (!file)
				continue;
			ret = add_found(g, s->name, file, line, s->addr,
					s->size ? s->size : hi[r] + g->bias - s->addr);
			if (ret)
				return ret;
			s->done = true;
			if (s->addr == entry + g->bias)
				entry_named = true;
		}
	}
	/* no ELF symbol at the entry (stripped symtab): keep the DWARF name */
	if (!entry_named && name && *name) {
		location_at(g, die, entry, def_file, decl_line, &file, &line);
		if (file) {
			uint64_t size = 0;

			for (int r = 0; r < nr; r++)
				if (entry >= lo[r] && entry < hi[r])
					size = hi[r] - entry;
			return add_found(g, name, file, line, entry + g->bias, size);
		}
	}
	return 0;
}

static int read_unit(struct gen *g)
{
	Dwarf_Attribute a;
	Dwarf_Die child;
	int ret;

	g->comp_dir = dwarf_formstring(dwarf_attr(&g->cudie, DW_AT_comp_dir, &a));
	if (dwarf_child(&g->cudie, &child))
		return 0;
	do {
		/* functions are children of the unit in C; nested scopes hold only inlines */
		if (dwarf_tag(&child) == DW_TAG_subprogram && (ret = read_function(g, &child)))
			return ret;
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

/* Symbols no function DIE covers (assembly): the line table of their unit. */
static int read_uncovered(struct gen *g)
{
	size_t i;
	int ret, l;

	for (i = 0; i < g->nr_syms; i++) {
		struct elfsym *s = &g->syms[i];
		Dwarf_Line *row;
		const char *f;

		if (s->done || !dwarf_addrdie(g->dw, s->addr - g->bias, &g->cudie))
			continue;
		g->comp_dir = dwarf_formstring(dwarf_attr(&g->cudie, DW_AT_comp_dir,
							  &(Dwarf_Attribute){ 0 }));
		row = dwarf_getsrc_die(&g->cudie, s->addr - g->bias);
		if (!row || dwarf_lineno(row, &l) ||
		    !(f = tree_path(g, dwarf_linesrc(row, NULL, NULL))))
			continue;
		ret = add_found(g, s->name, f, l > 0 ? (uint32_t)l : 0, s->addr, s->size);
		if (ret)
			return ret;
		s->done = true;
	}
	return 0;
}

static int by_addr(const void *a, const void *b)
{
	const struct elfsym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The function symbols of the ELF file (what kallsyms will show), sorted by address. */
static int load_elf_symbols(struct gen *g, struct kmag_err *err)
{
	int n = dwfl_module_getsymtab(g->mod), i;
	size_t cap = 0;

	if (n <= 0)
		return 0;	/* no symbol table: DWARF names only */
	for (i = 1; i < n; i++) {
		GElf_Addr addr, bias;
		GElf_Word shndx;
		GElf_Shdr shdr;
		GElf_Sym sym;
		Elf *elf;
		const char *name = dwfl_module_getsym_info(g->mod, i, &sym, &addr, &shndx, &elf,
							   &bias);
		int type = GELF_ST_TYPE(sym.st_info);
		Elf_Scn *scn;

		/*
		 * Not functions: local labels, mapping symbols, and the padding
		 * (__pfx_, CALL_PADDING) and CFI stubs (__cfi_) placed before
		 * functions since 6.2, which no line-table row describes.
		 */
		if (!name || !*name || name[0] == '$' || !strncmp(name, ".L", 2) ||
		    !strncmp(name, "__pfx_", 6) || !strncmp(name, "__cfi_", 6) ||
		    shndx == SHN_UNDEF || shndx == SHN_ABS ||
		    (type != STT_FUNC && type != STT_NOTYPE))
			continue;
		/* NOTYPE: assembly entry points (SYM_CODE_START), but only in code */
		scn = elf_getscn(elf, shndx);
		if (!scn || !gelf_getshdr(scn, &shdr) || !(shdr.sh_flags & SHF_EXECINSTR))
			continue;
		if (kmag__grow(&g->syms, &cap, g->nr_syms + 1, sizeof(*g->syms)))
			return kmag_err_set(err, ENOMEM, "out of memory");
		g->syms[g->nr_syms++] = (struct elfsym){ addr, sym.st_size, name, false };
	}
	if (g->nr_syms)
		qsort(g->syms, g->nr_syms, sizeof(*g->syms), by_addr);
	return 0;
}

/*
 * Module text layout as the kernel's module loader builds it (layout_sections()
 * in kernel/module/main.c): executable, allocated, non-init sections in
 * section-header order, each aligned, from offset 0. Runtime address = module
 * text base + offset; the map holds KMAG_MODULE_TEXT_BASE + offset and
 * kmag_symmap_bind() learns the difference from kallsyms.
 */
static int module_layout(struct gen *g, Elf *elf)
{
	size_t shnum, i;
	uint64_t size = 0;
	const char *sname;
	size_t shstrndx;

	if (elf_getshdrnum(elf, &shnum) || elf_getshdrstrndx(elf, &shstrndx))
		return -EINVAL;
	g->sec_addr = calloc(shnum ? shnum : 1, sizeof(*g->sec_addr));
	if (!g->sec_addr)
		return -ENOMEM;
	g->nr_secs = shnum;
	for (i = 1; i < shnum; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		GElf_Shdr sh;
		uint64_t align;

		if (!scn || !gelf_getshdr(scn, &sh) ||
		    (sh.sh_flags & (SHF_EXECINSTR | SHF_ALLOC)) != (SHF_EXECINSTR | SHF_ALLOC))
			continue;
		sname = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!sname || !strncmp(sname, ".init", 5))
			continue;
		align = sh.sh_addralign ? sh.sh_addralign : 1;
		size = (size + align - 1) / align * align;
		/* +1 so that 0 keeps meaning "not in the core text" */
		g->sec_addr[i] = size + 1;
		size += sh.sh_size;
	}
	return 0;
}

/* Converts a dwfl (offline layout) address of a module to the kernel's layout, 0 if none. */
static uint64_t module_addr(struct gen *g, uint64_t addr)
{
	Dwarf_Addr off = addr, bias;
	Elf_Scn *scn = dwfl_module_address_section(g->mod, &off, &bias);
	size_t i = scn ? elf_ndxscn(scn) : 0;

	return i && i < g->nr_secs && g->sec_addr[i] ?
		       KMAG_MODULE_TEXT_BASE + g->sec_addr[i] - 1 + off : 0;
}

static void progress(const struct gen *g, uint64_t done, uint64_t total)
{
	const struct kmag_symgen_opts *o = g->req->opts;

	if (o && o->progress)
		o->progress(o->progress_ctx, g->req->path, done, total);
}

static int read_units(struct gen *g, struct kmag_symmap *m, struct kmag_err *err)
{
	Dwarf_CU *cu = NULL;
	uint8_t unit_type;
	size_t nr = 0, done = 0;
	int ret;

	/* pass 1: the units' primary files, to find the source tree root */
	while (dwarf_get_units(g->dw, cu, &cu, NULL, &unit_type, &g->cudie, NULL) == 0) {
		Dwarf_Attribute a;

		if (unit_type != DW_UT_compile && unit_type != DW_UT_partial)
			continue;
		nr++;
		if (srcroots_add_unit(&g->roots, dwarf_diename(&g->cudie),
				      dwarf_formstring(dwarf_attr(&g->cudie, DW_AT_comp_dir, &a))))
			return kmag_err_set(err, ENOMEM, "out of memory");
	}
	if (srcroots_finish(&g->roots, g->req->is_module ? kmag__symmap_src_roots(m) : NULL) ||
	    (!g->req->is_module && !g->roots.forced &&
	     kmag__symmap_set_src_roots(m, g->roots.roots, g->roots.nr_roots)))
		return kmag_err_set(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < g->roots.nr_roots; i++)
		pr_debug("%s: source root \"%s\"", g->req->path, g->roots.roots[i]);
	/* pass 2: the functions */
	cu = NULL;
	while (dwarf_get_units(g->dw, cu, &cu, NULL, &unit_type, &g->cudie, NULL) == 0) {
		if (unit_type != DW_UT_compile && unit_type != DW_UT_partial)
			continue;
		ret = read_unit(g);
		if (ret)
			return kmag_err_set(err, -ret, "out of memory");
		if (++done % 64 == 0)
			progress(g, done, nr);
	}
	progress(g, nr, nr);
	if (g->req->stats)
		g->req->stats->units += nr;
	ret = read_uncovered(g);
	return ret ? kmag_err_set(err, -ret, "out of memory") : 0;
}

static int by_found_addr(const void *a, const void *b)
{
	const struct found *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int store(struct gen *g, struct kmag_symmap *m, const char *module, struct kmag_err *err)
{
	size_t i, added = 0;

	for (i = 0; i < g->nr_found; i++)
		if (g->req->is_module)
			g->found[i].addr = module_addr(g, g->found[i].addr);
	if (g->nr_found)
		qsort(g->found, g->nr_found, sizeof(*g->found), by_found_addr);
	for (i = 0; i < g->nr_found; i++) {
		const struct found *f = &g->found[i];
		struct kmag_symmap_entry e = {
			f->name, f->file, f->line, f->addr, f->size, module,
		};

		/* the same symbol twice (aliases in two symbol tables): once is enough */
		if (i && f->addr && f->addr == g->found[i - 1].addr &&
		    !strcmp(f->name, g->found[i - 1].name))
			continue;
		if (kmag_symmap_add(m, &e))
			return kmag_err_set(err, ENOMEM, "out of memory");
		added++;
	}
	if (g->req->stats) {
		g->req->stats->functions += added;
		for (i = 0; i < g->nr_syms; i++)
			g->req->stats->no_source += !g->syms[i].done;
	}
	return (int)(added > INT32_MAX ? INT32_MAX : added);
}

/* "Linux version 6.1.0-56-cloud-amd64 (...)": the release from linux_banner. */
static char *banner_release(struct gen *g)
{
	int n = dwfl_module_getsymtab(g->mod), i;

	for (i = 1; i < n; i++) {
		GElf_Addr addr, bias;
		GElf_Sym sym;
		const char *name = dwfl_module_getsym_info(g->mod, i, &sym, &addr, NULL, NULL,
							   &bias);
		Dwarf_Addr off = addr;
		Elf_Scn *scn;
		Elf_Data *d;
		char rel[128];

		if (!name || strcmp(name, "linux_banner"))
			continue;
		scn = dwfl_module_address_section(g->mod, &off, &bias);
		d = scn ? elf_getdata(scn, NULL) : NULL;
		if (!d || !d->d_buf || off + 16 >= d->d_size ||
		    !memchr((const char *)d->d_buf + off, '\0', d->d_size - off))
			return NULL;
		if (sscanf((const char *)d->d_buf + off, "Linux version %127s", rel) == 1)
			return strdup(rel);
		return NULL;
	}
	return NULL;
}

/* A module's "name=" and the release from "vermagic=" in .modinfo (malloc'ed or NULL). */
static void read_modinfo(Elf *elf, char **name, char **release)
{
	size_t shstrndx, i, shnum;

	if (elf_getshdrstrndx(elf, &shstrndx) || elf_getshdrnum(elf, &shnum))
		return;
	for (i = 1; i < shnum; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		const char *sname, *p, *end;
		GElf_Shdr sh;
		Elf_Data *d;

		if (!scn || !gelf_getshdr(scn, &sh) ||
		    !(sname = elf_strptr(elf, shstrndx, sh.sh_name)) || strcmp(sname, ".modinfo"))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || sh.sh_type == SHT_NOBITS)
			return;
		end = (const char *)d->d_buf + d->d_size;
		for (p = d->d_buf; p < end; p += strnlen(p, (size_t)(end - p)) + 1) {
			size_t room = (size_t)(end - p);

			if (!*name && room > 5 && !strncmp(p, "name=", 5))
				*name = strndup(p + 5, strnlen(p + 5, room - 5));
			else if (!*release && room > 9 && !strncmp(p, "vermagic=", 9))
				*release = strndup(p + 9, strcspn(p + 9, " "));
		}
		return;
	}
}

/* "fs/ext4/ext4.ko.debug" -> "ext4"; "nf-conntrack.ko" -> "nf_conntrack" as kallsyms shows it. */
static char *module_name_of(const char *path)
{
	const char *base = strrchr(path, '/');
	char *s, *p;

	s = strdup(base ? base + 1 : path);
	if (!s)
		return NULL;
	if ((p = strstr(s, ".ko")))
		*p = '\0';
	for (p = s; *p; p++)
		if (*p == '-')
			*p = '_';
	return s;
}

int kmag__dwsyms_read(struct kmag_symmap *m, struct dwsyms_req *req, struct kmag_err *err)
{
	static const Dwfl_Callbacks callbacks = {
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.section_address = dwfl_offline_section_address,
	};
	struct gen g = { .req = req };
	char *modname = NULL;
	GElf_Addr elf_bias;
	Elf *elf;
	int fd, ret;

	fd = open(req->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return kmag_err_set(err, errno, "cannot open %s: %s", req->path, strerror(errno));
	g.paths = kmag_symtab_new();
	u64map_init(&g.path_of);
	if (!g.paths || srcroots_init(&g.roots, req->opts ? req->opts->source_root : NULL) ||
	    !(g.dwfl = dwfl_begin(&callbacks))) {
		close(fd);
		ret = kmag_err_set(err, ENOMEM, "out of memory");
		goto out;
	}
	/* dwfl owns @fd from here on */
	g.mod = dwfl_report_offline(g.dwfl, req->module ? req->module : "kernel", req->path, fd);
	if (!g.mod || dwfl_report_end(g.dwfl, NULL, NULL)) {
		ret = kmag_err_set(err, EINVAL, "%s: not an ELF file elfutils can read (%s)", req->path,
				   dwfl_errmsg(-1));
		goto out;
	}
	elf = dwfl_module_getelf(g.mod, &elf_bias);
	g.dw = dwfl_module_getdwarf(g.mod, &g.bias);
	if (!elf || !g.dw) {
		ret = kmag_err_set(err, ENODATA,
				   "%s has no DWARF debug info (%s); use the debug build of the kernel (e.g. the -dbg or -debuginfo package)",
				   req->path, dwfl_errmsg(-1));
		goto out;
	}
	if (req->is_module) {
		read_modinfo(elf, &modname, &req->release);
		if (!modname && !(modname = module_name_of(req->path))) {
			ret = kmag_err_set(err, ENOMEM, "out of memory");
			goto out;
		}
		if (module_layout(&g, elf)) {
			ret = kmag_err_set(err, EINVAL, "%s: unreadable section headers", req->path);
			goto out;
		}
	} else if (!req->release) {
		req->release = banner_release(&g);
	}
	ret = load_elf_symbols(&g, err);
	if (!ret)
		ret = read_units(&g, m, err);
	if (!ret)
		ret = store(&g, m, req->module ? req->module : modname, err);
out:
	dwfl_end(g.dwfl);
	srcroots_release(&g.roots);
	kmag_symtab_free(g.paths);
	u64map_release(&g.path_of);
	free(g.syms);
	free(g.found);
	free(g.sec_addr);
	free(modname);
	return ret;
}
