// SPDX-License-Identifier: MIT
/*
 * lastboot.c - `kmag record --last-boot`: the previous boot's trace, left in
 * a boot-mapped persistent ring buffer (Linux 6.12+: reserve_mem=SIZE:ALIGN:
 * trace trace_instance=NAME@trace; 6.19 also copies it into a backup
 * instance, trace_instance=backup=NAME), turned into a trace.dat.
 *
 * The instance's last_boot_info names where the previous boot's kernel text
 * was ("ffffffff81000000\t[kernel]", from Linux 6.15 on the address of
 * _text; then each module's base and name) or says "# Current" (or a zero
 * address) when the buffer holds this boot's trace. The events carry the
 * previous boot's addresses, so the file's kallsyms are this boot's moved
 * by the difference (each module's symbols by its own): every reader, kmag
 * and `trace-cmd report` of any version, names the functions. The text is
 * also stored as trace-cmd 3.4 does (LAST_BOOT_INFO, "NAME:" + the file);
 * readers of it compute the difference against the file's kallsyms, which
 * is then none. Reading trace_pipe_raw empties the instance (and removes a
 * 7.1 backup instance).
 */
#define PR_DOMAIN "record"
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <tracefs.h>
#include <unistd.h>

#include "flight.h"
#include "kmag/outfile.h"
#include "record-internal.h"
#include "trace/tracedat-format.h"
#include "util/grow.h"

/* ------------------------------------------------------------ addresses */

/* The first line of last_boot_info: the previous boot's _text, 0 when it is this boot's. */
uint64_t kmag__lastboot_text(const char *info)
{
	char *end;
	uint64_t a;

	if (!info || !strncmp(info, "# Current", 9))
		return 0;
	a = strtoull(info, &end, 16);
	return end != info && (*end == '\t' || *end == ' ') && strstr(end, "[kernel]") ? a : 0;
}

/* The base of module @name in @text ("ADDR\tNAME" lines of last_boot_info, or /proc/modules). */
static uint64_t module_base(const char *text, const char *name, bool proc_modules)
{
	size_t n = strlen(name);
	const char *p;

	for (p = text; p && *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0)) {
		const char *q = p;
		char *end;

		if (proc_modules) {
			/* "name size refs deps state 0xaddr" */
			if (strncmp(p, name, n) || p[n] != ' ')
				continue;
			q = strstr(p, " 0x");
			return q && q < p + strcspn(p, "\n") ? strtoull(q + 1, NULL, 16) : 0;
		}
		{
			uint64_t a = strtoull(q, &end, 16);

			while (*end == '\t' || *end == ' ')
				end++;
			if (end != q && !strncmp(end, name, n) &&
			    (end[n] == '\n' || end[n] == '\0' || end[n] == ' ' || end[n] == '\t'))
				return a;
		}
	}
	return 0;
}

struct shift_stats {
	int64_t delta;		/* of the kernel's text */
	size_t modules, modules_gone;	/* moved; loaded now but not then (left out) */
};

/*
 * This boot's /proc/kallsyms @cur moved to the previous boot's addresses of
 * @info (last_boot_info); @modules is /proc/modules (may be NULL). Returns a
 * new text (free it), or NULL on ENOMEM or when @info names no text.
 */
char *kmag__lastboot_kallsyms(const char *cur, const char *info, const char *modules,
			      int64_t *delta, size_t *nmod)
{
	uint64_t prev = kmag__lastboot_text(info), now = 0;
	struct shift_stats st = { 0 };
	size_t len = 0, cap = 0;
	char *out = NULL, lastmod[128] = "";
	int64_t moddelta = 0;
	bool keep = true;
	const char *p;

	if (!prev)
		return NULL;
	for (p = cur; *p && !now; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0)) {
		char *end;
		uint64_t a = strtoull(p, &end, 16);

		if (!strncmp(end, " T _text\n", 9) || !strncmp(end, " t _text\n", 9))
			now = a;
	}
	if (!now)
		return NULL;
	st.delta = (int64_t)(prev - now);
	for (p = cur; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0)) {
		size_t l = strcspn(p, "\n");
		const char *br = memchr(p, '[', l);
		char *end;
		uint64_t a = strtoull(p, &end, 16);
		int64_t d = st.delta;

		if (br) {
			/* "addr t name\t[module]" */
			size_t ml = (size_t)(p + l - br) - 2;

			if (ml < sizeof(lastmod) && (strncmp(lastmod, br + 1, ml) || lastmod[ml])) {
				uint64_t then, base;

				memcpy(lastmod, br + 1, ml);
				lastmod[ml] = '\0';
				then = module_base(info, lastmod, false);
				base = modules ? module_base(modules, lastmod, true) : 0;
				keep = then && base;
				moddelta = (int64_t)(then - base);
				if (keep)
					st.modules++;
				else
					st.modules_gone++;
			}
			if (!keep)
				continue;
			d = moddelta;
		}
		if (kmag__grow(&out, &cap, len + l + 32, 1)) {
			free(out);
			return NULL;
		}
		len += (size_t)snprintf(out + len, cap - len, "%016llx%.*s\n",
					(unsigned long long)(a ? a + (uint64_t)d : 0),
					(int)(l - (size_t)(end - p)), end);
	}
	if (!out && !(out = calloc(1, 1)))
		return NULL;
	*delta = st.delta;
	*nmod = st.modules;
	return out;
}

/* ------------------------------------------------------------ the instance */

static char *read_rel(const char *dir, const char *inst, const char *rel)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/instances/%s", dir, inst);
	return kmag__tracefs_read(path, rel);
}

/* The instance holding a previous boot's trace, or an error naming what to do. */
static int find_instance(const char *dir, const char *want, char *name, size_t size,
			 struct kmag_err *err)
{
	char path[4096], **v;
	size_t n, i, found = 0;
	char names[512] = "";

	if (want) {
		char *info = read_rel(dir, want, "last_boot_info");

		if (!info)
			return kmag_err_set(err, ENOENT,
					    "-B %s: no tracefs instance %s with a last_boot_info (a boot-mapped ring buffer, Linux 6.12+)",
					    want, want);
		found = kmag__lastboot_text(info) != 0;
		free(info);
		if (!found)
			return kmag_err_set(err, ENOENT,
					    "-B %s: the instance holds this boot's trace, not the previous boot's (its last_boot_info says so)",
					    want);
		snprintf(name, size, "%s", want);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/instances", dir);
	v = kmag__list_dir(path, "*", false, &n);
	for (i = 0; i < n; i++) {
		char *info = read_rel(dir, v[i], "last_boot_info");

		if (info && kmag__lastboot_text(info)) {
			if (!found++)
				snprintf(name, size, "%s", v[i]);
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 found > 1 ? ", " : "", v[i]);
		}
		free(info);
	}
	kmag__free_list(v, n);
	if (!found)
		return kmag_err_set(err, ENOENT,
				    "no tracefs instance holds a previous boot's trace: boot with a persistent ring buffer (Linux 6.12+: reserve_mem=12M:4096:trace trace_instance=boot_map@trace) and trace into it before the reboot");
	if (found > 1)
		return kmag_err_set(err, EEXIST,
				    "several tracefs instances hold a previous boot's trace (%s): name one with -B INSTANCE",
				    names);
	return 0;
}

/* ------------------------------------------------------------ the file */

struct lb_cpu {
	int fd;			/* memfd of its pages */
	uint64_t size;
};

/* Reads every page CPU @cpu's buffer holds into a memfd. */
static int read_cpu(const char *idir, int cpu, uint32_t ps, const struct kmag_page_geom *g,
		    struct lb_cpu *c, uint64_t *events, uint64_t *first, uint64_t *last,
		    struct kmag_err *err)
{
	char path[4400];
	uint8_t *page = malloc(ps);
	int fd;

	c->fd = -1;
	c->size = 0;
	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", idir, cpu);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (!page || fd < 0) {
		free(page);
		if (fd >= 0)
			close(fd);
		return fd < 0 ? kmag_err_set(err, errno, "cannot open %s: %s", path, strerror(errno)) :
				kmag_err_set(err, ENOMEM, "out of memory");
	}
	c->fd = memfd_create("kmag-last-boot", MFD_CLOEXEC);
	if (c->fd < 0) {
		free(page);
		close(fd);
		return kmag_err_set(err, errno, "memfd_create: %s", strerror(errno));
	}
	for (;;) {
		ssize_t n = read(fd, page, ps);
		struct fl_block b;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if ((uint32_t)n < ps)
			memset(page + n, 0, ps - (size_t)n);
		if (!kmag__fl_describe(g, page, ps, &b) && b.events) {
			*events += b.events;
			if (*first == UINT64_MAX || b.first_ts < *first)
				*first = b.first_ts;
			if (b.last_ts > *last || *last == UINT64_MAX)
				*last = b.last_ts;
		}
		if (pwrite(c->fd, page, ps, (off_t)c->size) != (ssize_t)ps) {
			free(page);
			close(fd);
			return kmag_err_set(err, errno, "cannot keep the pages: %s", strerror(errno));
		}
		c->size += ps;
	}
	free(page);
	close(fd);
	return 0;
}

/* Every event format of the instance (which events the previous boot had on is unknown). */
static int read_all_formats(const char *idir, struct rec_meta *f, struct kmag_err *err)
{
	char path[4600], **sys, **ev;
	size_t ns, ne, i, k, nf = 0, capf = 0, cape = 0;

	snprintf(path, sizeof(path), "%s/events", idir);
	sys = kmag__list_dir(path, "*", false, &ns);
	f->systems = calloc(ns + 1, sizeof(*f->systems));
	if (!f->systems)
		goto nomem;
	for (i = 0; i < ns; i++) {
		bool ftrace = !strcmp(sys[i], "ftrace");
		struct tdw_system *s = &f->systems[f->m.nr_systems];
		size_t first = nf;

		snprintf(path, sizeof(path), "%s/events/%s", idir, sys[i]);
		ev = kmag__list_dir(path, "*", true, &ne);
		for (k = 0; k < ne; k++) {
			char rel[600], *text;

			snprintf(rel, sizeof(rel), "events/%s/%s/format", sys[i], ev[k]);
			text = kmag__tracefs_read(idir, rel);
			if (!text)
				continue;
			if (ftrace) {
				if (kmag__grow(&f->ftrace, &capf, f->m.nr_ftrace_formats + 1,
					       sizeof(*f->ftrace)))
					goto nomem;
				f->ftrace[f->m.nr_ftrace_formats++] = (struct tdw_blob){ text, strlen(text) };
				continue;
			}
			if (kmag__grow(&f->event_formats, &cape, nf + 1, sizeof(*f->event_formats)))
				goto nomem;
			f->event_formats[nf++] = (struct tdw_blob){ text, strlen(text) };
		}
		kmag__free_list(ev, ne);
		if (!ftrace && nf > first) {
			s->name = strdup(sys[i]);
			s->nr_formats = nf - first;
			s->formats = (const struct tdw_blob *)(uintptr_t)first;	/* fixed below */
			f->m.nr_systems++;
		}
	}
	/* the formats array moved while growing: point each system at its part */
	for (i = 0; i < f->m.nr_systems; i++)
		f->systems[i].formats = f->event_formats + (size_t)(uintptr_t)f->systems[i].formats;
	kmag__free_list(sys, ns);
	f->m.ftrace_formats = f->ftrace;
	f->m.systems = f->systems;
	return 0;
nomem:
	kmag__free_list(sys, ns);
	return kmag_err_set(err, ENOMEM, "out of memory");
}

static int write_lastboot(const char *out, const char *inst, const char *info,
			  const struct rec_meta *f, const struct lb_cpu *cpus, int nr_cpus,
			  uint32_t page_size, const char *clock_file, uint64_t *size,
			  struct kmag_err *err)
{
	struct tdw_cpu *tc = calloc((size_t)nr_cpus + 1, sizeof(*tc));
	char *clock = NULL, *opt = NULL, *tmp = NULL, **stats = NULL, *btf = NULL, *uname_s = NULL;
	const char *br = clock_file ? strchr(clock_file, '[') : NULL;
	struct tdw_tail t = { 0 };
	struct utsname u;
	struct tdw w;
	struct stat st;
	int fd = -1, i, ret;

	stats = calloc((size_t)nr_cpus + 1, sizeof(char *));
	if (!tc || !stats || asprintf(&tmp, "%s.kmag-%d.tmp", out, (int)getpid()) < 0 ||
	    asprintf(&opt, "%s:%s", inst, info) < 0) {
		ret = kmag_err_set(err, ENOMEM, "out of memory");
		goto out;
	}
	clock = br ? strndup(br + 1, strcspn(br + 1, "]")) : NULL;
	for (i = 0; i < nr_cpus; i++) {
		tc[i] = (struct tdw_cpu){ .fd = cpus[i].fd, .size = cpus[i].size };
		if (asprintf(&stats[i], "CPU: %d\nentries: 0\noverrun: 0\ncommit overrun: 0\nbytes: %llu\ndropped events: 0\n",
			     i, (unsigned long long)cpus[i].size) < 0)
			stats[i] = NULL;
	}
	if (!uname(&u) &&
	    asprintf(&uname_s, "%s %s %s %s", u.sysname, u.nodename, u.release, u.machine) < 0)
		uname_s = NULL;
	btf = kmag__rec_read_btf(&t.btf.size);
	t.btf.data = btf;
	t.cmdlines = (struct tdw_blob){ "", 0 };	/* the previous boot's task names are gone */
	t.nr_cpus = nr_cpus;
	t.cpus = tc;
	t.clock_file = clock_file;
	t.clock = clock ? clock : "local";
	t.uname = uname_s;
	t.version = "kmag " KMAG_VERSION_STRING;
	t.cpustats = (const char *const *)stats;
	t.nr_cpustats = (size_t)nr_cpus;
	t.last_boot_info = opt;
	fd = kmag__create_file(tmp, 0644);
	if (fd < 0) {
		ret = kmag_err_set(err, errno, "cannot create %s: %s", tmp, strerror(errno));
		goto out;
	}
	ret = kmag__tdw_begin(&w, fd, 7, true, page_size, err);
	if (!ret)
		ret = kmag__tdw_metadata(&w, &f->m);
	if (!ret)
		ret = kmag__tdw_finish(&w, &t);
	kmag__tdw_release(&w);
	if (!ret && !fstat(fd, &st))
		*size = (uint64_t)st.st_size;
	if (close(fd) && !ret)
		ret = kmag_err_set(err, errno, "cannot write %s: %s", tmp, strerror(errno));
	fd = -1;
	if (!ret && rename(tmp, out))
		ret = kmag_err_set(err, errno, "cannot rename %s to %s: %s", tmp, out, strerror(errno));
	if (ret)
		unlink(tmp);
out:
	for (i = 0; stats && i < nr_cpus; i++)
		free(stats[i]);
	free(stats);
	free(tc);
	free(clock);
	free(opt);
	free(tmp);
	free(btf);
	free(uname_s);
	return ret;
}

int kmag_record_last_boot(const struct kmag_lastboot_opts *o, struct kmag_lastboot_result *res,
			  struct kmag_err *err)
{
	struct kmag_page_geom g = { 0 };
	struct rec_meta f = { 0 };
	struct lb_cpu *cpus = NULL;
	char idir[4100], **dirs = NULL, *info = NULL, *cur = NULL, *mods = NULL, *clock = NULL;
	enum kmag_outfile_kind kind;
	const char *dir;
	size_t n = 0, i;
	int ret, nr = 0;

	memset(res, 0, sizeof(*res));
	res->first_ts = res->last_ts = UINT64_MAX;
	if (geteuid() != 0)
		return kmag_err_set(err, EACCES, "kmag record --last-boot needs root to read tracefs (run it with sudo)");
	if ((ret = kmag_outfile_check(o->output, &kind, err)))
		return ret;
	if (kind == KMAG_OUTFILE_DEVICE)
		return kmag_err_set(err, EINVAL, "-o %s is not a regular file; write a file, then copy it",
				    o->output);
	dir = tracefs_tracing_dir();
	if (!dir)
		return kmag_err_set(err, ENOENT, "tracefs is not mounted and mounting it failed; mount it with: mount -t tracefs nodev /sys/kernel/tracing");
	if ((ret = find_instance(dir, o->instance, res->instance, sizeof(res->instance), err)))
		return ret;
	snprintf(idir, sizeof(idir), "%s/instances/%s", dir, res->instance);
	info = kmag__tracefs_read(idir, "last_boot_info");
	cur = kmag__tracefs_read("/proc", "kallsyms");
	mods = kmag__tracefs_read("/proc", "modules");
	clock = kmag__tracefs_read(idir, "trace_clock");
	if (!info || !cur) {
		ret = kmag_err_set(err, errno, "cannot read %s: %s", !info ? "last_boot_info" : "/proc/kallsyms",
				   strerror(errno));
		goto out;
	}
	if (!strncmp(cur, "0000000000000000 ", 17)) {
		ret = kmag_err_set(err, EPERM, "/proc/kallsyms shows no addresses (kernel.kptr_restrict): run as root with kptr_restrict below 2");
		goto out;
	}
	res->text_then = kmag__lastboot_text(info);
	f.kallsyms = kmag__lastboot_kallsyms(cur, info, mods, &res->delta, &res->modules);
	f.header_page = kmag__tracefs_read(idir, "events/header_page");
	f.header_event = kmag__tracefs_read(idir, "events/header_event");
	f.printk = kmag__tracefs_read(dir, "printk_formats");
	if (!f.kallsyms || !f.header_page || !f.header_event || !f.printk) {
		ret = kmag_err_set(err, f.kallsyms ? errno : EINVAL, "cannot read the %s",
				   !f.kallsyms ? "kernel's text address in /proc/kallsyms" :
						 "instance's formats");
		goto out;
	}
	res->text_now = res->text_then - (uint64_t)res->delta;
	if ((ret = kmag__rec_page_geometry(f.header_page, "the instance's", &g, err)) || (ret = read_all_formats(idir, &f, err)))
		goto out;
	f.m.header_page = (struct tdw_blob){ f.header_page, strlen(f.header_page) };
	f.m.header_event = (struct tdw_blob){ f.header_event, strlen(f.header_event) };
	f.m.kallsyms = (struct tdw_blob){ f.kallsyms, strlen(f.kallsyms) };
	f.m.printk = (struct tdw_blob){ f.printk, strlen(f.printk) };
	{
		char pc[4200];

		snprintf(pc, sizeof(pc), "%s/per_cpu", idir);
		dirs = kmag__list_dir(pc, "cpu*", false, &n);
	}
	for (i = 0; i < n; i++)
		if (atoi(dirs[i] + 3) + 1 > nr)
			nr = atoi(dirs[i] + 3) + 1;
	cpus = calloc((size_t)nr + 1, sizeof(*cpus));
	if (!nr || !cpus) {
		ret = kmag_err_set(err, nr ? ENOMEM : ENODEV, nr ? "out of memory" :
				   "the instance has no per-CPU buffers");
		goto out;
	}
	for (i = 0; i < (size_t)nr; i++)
		cpus[i].fd = -1;
	for (i = 0; i < (size_t)nr && !ret; i++)
		ret = read_cpu(idir, (int)i, g.page_size, &g, &cpus[i], &res->events, &res->first_ts,
			       &res->last_ts, err);
	res->nr_cpus = nr;
	if (!ret)
		ret = write_lastboot(o->output, res->instance, info, &f, cpus, nr, g.page_size, clock,
				     &res->file_size, err);
out:
	for (i = 0; cpus && i < (size_t)nr; i++)
		if (cpus[i].fd >= 0)
			close(cpus[i].fd);
	free(cpus);
	kmag__free_list(dirs, n);
	kmag__rec_meta_free(&f);
	free(info);
	free(cur);
	free(mods);
	free(clock);
	return ret;
}
