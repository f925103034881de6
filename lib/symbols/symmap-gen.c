// SPDX-License-Identifier: MIT
/*
 * symmap-gen.c - building symbol maps: the vmlinux and module entry points,
 * finding the debug vmlinux of a kernel, walking a modules directory.
 */
#define PR_DOMAIN "symmap"
#include <dirent.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "config.h"
#include "dwarf-symbols.h"
#include "internal.h"

static int add_file(struct kmag_symmap *m, const char *path, bool is_module, const char *name,
		    const struct kmag_symgen_opts *opts, struct kmag_symgen_stats *stats,
		    struct kmag_err *err)
{
	struct dwsyms_req req = {
		.path = path, .module = name, .is_module = is_module, .opts = opts, .stats = stats,
	};
	int ret;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return kmag_err_set(err, EINVAL, "libelf is unusable: %s", elf_errmsg(-1));
#if KMAG_HAVE_LIBDW
	ret = kmag__dwsyms_read(m, &req, err);
#else
	ret = kmag_need_feature(KMAG_FEATURE_LIBDW, "reading the debug info of a vmlinux or module",
				err);
#endif
	if (ret >= 0 && req.release && !kmag_symmap_kernel_release(m) &&
	    kmag_symmap_set_kernel_release(m, req.release))
		ret = kmag_err_set(err, ENOMEM, "out of memory");
	free(req.release);
	return ret;
}

int kmag_symmap_add_vmlinux(struct kmag_symmap *m, const char *path,
			    const struct kmag_symgen_opts *opts, struct kmag_symgen_stats *stats,
			    struct kmag_err *err)
{
	return add_file(m, path, false, NULL, opts, stats, err);
}

int kmag_symmap_add_module(struct kmag_symmap *m, const char *path, const char *name,
			   const struct kmag_symgen_opts *opts, struct kmag_symgen_stats *stats,
			   struct kmag_err *err)
{
	int ret = add_file(m, path, true, name, opts, stats, err);

	if (ret >= 0 && stats)
		stats->modules++;
	return ret;
}

/* ---- modules directory ---- */

struct modfile {
	char *path;
	char *key;	/* file name without .ko / .ko.debug: one file per module */
	bool debug;	/* a .ko.debug file */
};

struct modlist {
	struct modfile *f;
	size_t nr, cap;
};

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n > k && !strcmp(s + n - k, suffix);
}

/* Collects *.ko and *.ko.debug below @dir. Depth-limited against symlink loops. */
static int collect(struct modlist *l, const char *dir, int depth)
{
	struct dirent *de;
	DIR *d;
	int ret = 0;

	if (depth > 16)
		return 0;
	d = opendir(dir);
	if (!d)
		return depth ? 0 : -errno;
	while ((de = readdir(d)) && !ret) {
		struct modfile mf = { 0 };
		struct stat sb;
		bool debug;

		if (de->d_name[0] == '.')
			continue;
		if (asprintf(&mf.path, "%s/%s", dir, de->d_name) < 0)
			return closedir(d), -ENOMEM;
		if (stat(mf.path, &sb)) {
			free(mf.path);
			continue;
		}
		if (S_ISDIR(sb.st_mode)) {
			ret = collect(l, mf.path, depth + 1);
			free(mf.path);
			continue;
		}
		debug = has_suffix(de->d_name, ".ko.debug");
		if (!S_ISREG(sb.st_mode) || (!debug && !has_suffix(de->d_name, ".ko"))) {
			free(mf.path);
			continue;
		}
		mf.debug = debug;
		mf.key = strndup(mf.path, strlen(mf.path) - (debug ? 9 : 3));
		if (!mf.key || kmag__grow(&l->f, &l->cap, l->nr + 1, sizeof(*l->f))) {
			free(mf.key);
			free(mf.path);
			ret = -ENOMEM;
			break;
		}
		l->f[l->nr++] = mf;
	}
	closedir(d);
	return ret;
}

static int by_key(const void *a, const void *b)
{
	const struct modfile *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	/* the .ko.debug first: it wins over the .ko of the same module */
	return c ? c : (int)y->debug - (int)x->debug;
}

int kmag_symmap_add_modules(struct kmag_symmap *m, const char *dir,
			    const struct kmag_symgen_opts *opts, struct kmag_symgen_stats *stats,
			    struct kmag_err *err)
{
	struct kmag_symgen_opts quiet = { 0 };
	struct kmag_symgen_stats local = { 0 };
	struct modlist l = { 0 };
	size_t i, todo = 0, done = 0;
	int ret, read = 0;

	if (!stats)
		stats = &local;
	if (opts) {
		quiet = *opts;
		quiet.progress = NULL;	/* progress is reported per file below */
	}
	ret = collect(&l, dir, 0);
	if (ret) {
		kmag_err_set(err, -ret, "cannot read modules directory %s: %s", dir, strerror(-ret));
		goto out;
	}
	if (l.nr)
		qsort(l.f, l.nr, sizeof(*l.f), by_key);
	for (i = 0; i < l.nr; i++)
		todo += !(i && !strcmp(l.f[i].key, l.f[i - 1].key));
	for (i = 0; i < l.nr; i++) {
		struct kmag_err one = { 0 };

		if (i && !strcmp(l.f[i].key, l.f[i - 1].key))
			continue;
		ret = kmag_symmap_add_module(m, l.f[i].path, NULL, &quiet, stats, &one);
		if (ret == -ENOMEM) {
			kmag_err_set(err, ENOMEM, "out of memory");
			goto out;
		}
		if (ret < 0) {
			stats->skipped++;
			pr_warn("skipping %s", one.msg);
		} else {
			read++;
		}
		if (opts && opts->progress)
			opts->progress(opts->progress_ctx, dir, ++done, todo);
	}
	ret = read;
	if (!read)
		ret = kmag_err_set(err, ENOENT,
				   "no kernel module with debug info (*.ko, *.ko.debug) under %s; for Debian's debug package use /usr/lib/debug/lib/modules/<release>",
				   dir);
out:
	for (i = 0; i < l.nr; i++) {
		free(l.f[i].path);
		free(l.f[i].key);
	}
	free(l.f);
	return ret;
}

/* ---- finding the debug vmlinux ---- */

/* Whether @path is an ELF file with a .debug_info section holding data. */
static bool has_debug_info(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool found = false;
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	Elf *elf;

	if (fd < 0)
		return false;
	if (elf_version(EV_CURRENT) == EV_NONE || !(elf = elf_begin(fd, ELF_C_READ, NULL))) {
		close(fd);
		return false;
	}
	if (!elf_getshdrstrndx(elf, &shstrndx))
		while (!found && (scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			const char *name;

			if (gelf_getshdr(scn, &sh) && sh.sh_type != SHT_NOBITS && sh.sh_size &&
			    (name = elf_strptr(elf, shstrndx, sh.sh_name)) &&
			    (!strcmp(name, ".debug_info") || !strcmp(name, ".zdebug_info")))
				found = true;
		}
	elf_end(elf);
	close(fd);
	return found;
}

/* The distribution family from /etc/os-release, for the install hint. */
static const char *install_hint(const char *release, char *buf, size_t len)
{
	char line[256], ids[512] = "";
	FILE *fp = fopen("/etc/os-release", "re");

	while (fp && fgets(line, sizeof(line), fp))
		if (!strncmp(line, "ID=", 3) || !strncmp(line, "ID_LIKE=", 8))
			strncat(ids, line, sizeof(ids) - strlen(ids) - 1);
	if (fp)
		fclose(fp);
	if (strstr(ids, "ubuntu"))
		snprintf(buf, len, "install linux-image-unsigned-%s-dbgsym (from ddebs.ubuntu.com)",
			 release);
	else if (strstr(ids, "debian"))
		snprintf(buf, len, "install it with apt-get install linux-image-%s-dbg", release);
	else if (strstr(ids, "fedora") || strstr(ids, "rhel") || strstr(ids, "centos"))
		snprintf(buf, len, "install it with dnf debuginfo-install kernel-%s (kernel-debuginfo)",
			 release);
	else
		snprintf(buf, len,
			 "install the kernel's debug package (Debian: linux-image-%s-dbg; Fedora: kernel-debuginfo-%s)",
			 release, release);
	return buf;
}

const char *kmag_vmlinux_find(const char *release, char *buf, size_t len, struct kmag_err *err)
{
	static const char *const places[] = {
		"/usr/lib/debug/boot/vmlinux-%s",	/* Debian, Ubuntu */
		"/usr/lib/debug/lib/modules/%s/vmlinux",	/* Fedora, RHEL, SUSE */
		"/usr/lib/debug/boot/vmlinux-%s.debug",	/* SUSE, Arch */
		"/usr/lib/debug/vmlinux-%s",
		"/boot/vmlinux-%s",
		"/lib/modules/%s/build/vmlinux",	/* self-built kernels */
	};
	char hint[320], nodebug[256] = "";
	struct utsname u;
	size_t i;

	if (!release) {
		if (uname(&u))
			return kmag_err_set(err, errno, "uname: %s", strerror(errno)), NULL;
		release = u.release;
	}
	for (i = 0; i < ARRAY_SIZE(places); i++) {
		snprintf(buf, len, places[i], release);
		if (access(buf, R_OK))
			continue;
		if (has_debug_info(buf))
			return buf;
		if (!nodebug[0])
			snprintf(nodebug, sizeof(nodebug), " (%s has no debug info)", buf);
	}
	kmag_err_set(err, ENOENT,
		     "no vmlinux with debug info for kernel %s in /usr/lib/debug, /boot or /lib/modules/%s/build%s; %s, or pass -k VMLINUX",
		     release, release, nodebug, install_hint(release, hint, sizeof(hint)));
	return NULL;
}
