// SPDX-License-Identifier: MIT
/*
 * record-output.c - what goes into the trace.dat besides the ring-buffer
 * pages, and assembling the file.
 *
 * The metadata (header page, event formats, kallsyms, printk formats) is
 * captured and written when the recording starts, while tracefs is set up
 * for it; saved cmdlines and the per-CPU statistics at the stop. The CPU
 * data goes to one temporary file per CPU next to the output and is copied
 * (v7: compressed) into the output at the end. Space for finishing the file
 * is reserved up front: if the disk fills during the capture, the reserve is
 * released and the copied CPU data is freed as the copy proceeds, so what
 * was captured still becomes a readable file.
 */
#define PR_DOMAIN "record"
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <traceevent/kbuffer.h>
#include <unistd.h>

#include "record-internal.h"
#include "trace/tracedat-format.h"
#include "util/u64map.h"

#define KMAG_BTF_PATH "/sys/kernel/btf/vmlinux"

void kmag__rec_meta_free(struct rec_meta *f)
{
	size_t i;

	free(f->header_page);
	free(f->header_event);
	free(f->kallsyms);
	free(f->printk);
	for (i = 0; i < f->m.nr_ftrace_formats; i++)
		free((char *)f->ftrace[i].data);
	free(f->ftrace);
	for (i = 0; f->systems && i < f->m.nr_systems; i++) {
		size_t k;

		for (k = 0; k < f->systems[i].nr_formats; k++)
			free((char *)f->systems[i].formats[k].data);
		free((char *)f->systems[i].name);
	}
	free(f->systems);
	free(f->event_formats);
	memset(f, 0, sizeof(*f));
}

static int read_needed(struct kmag_recorder *r, const char *dir, const char *rel, char **out,
		       struct kmag_err *err)
{
	*out = kmag__tracefs_read(dir, rel);
	if (!*out)
		return kmag_err_set(err, errno, "cannot read %s/%s: %s", dir, rel, strerror(errno));
	return 0;
}

/* /proc/kallsyms with addresses: kptr_restrict=2 hides them even from root. */
static char *read_kallsyms(void)
{
	char *text = kmag__tracefs_read("/proc", "kallsyms"), *restrict_was;

	if (!text || strncmp(text, "0000000000000000 ", 17))
		return text;
	restrict_was = kmag__tracefs_read("/proc/sys/kernel", "kptr_restrict");
	if (restrict_was && kmag__tracefs_write("/proc/sys/kernel", "kptr_restrict", "0", NULL) == 0) {
		free(text);
		text = kmag__tracefs_read("/proc", "kallsyms");
		restrict_was[strcspn(restrict_was, "\n")] = '\0';
		if (kmag__tracefs_write("/proc/sys/kernel", "kptr_restrict", restrict_was, NULL))
			pr_warn("cannot restore kernel.kptr_restrict to %s", restrict_was);
	}
	free(restrict_was);
	return text;
}

static int read_formats(struct kmag_recorder *r, struct rec_meta *f, struct kmag_err *err)
{
	const char *base = r->inst_dir ? r->inst_dir : r->dir;
	char dir[4096], rel[512], **names;
	size_t n, i, s, k, nsys = 0;
	int ret = 0;

	snprintf(dir, sizeof(dir), "%s/events/ftrace", base);
	names = kmag__list_dir(dir, "*", true, &n);
	f->ftrace = calloc(n + 1, sizeof(*f->ftrace));
	if (!f->ftrace) {
		kmag__free_list(names, n);
		return kmag_err_set(err, ENOMEM, "out of memory");
	}
	for (i = 0; i < n && !ret; i++) {
		char *text;

		snprintf(rel, sizeof(rel), "events/ftrace/%s/format", names[i]);
		if (!(ret = read_needed(r, base, rel, &text, err)))
			f->ftrace[f->m.nr_ftrace_formats++] = (struct tdw_blob){ text, strlen(text) };
	}
	kmag__free_list(names, n);
	if (ret)
		return ret;

	/* the enabled events, grouped by system */
	f->systems = calloc(r->nr_events + 1, sizeof(*f->systems));
	f->event_formats = calloc(r->nr_events + 1, sizeof(*f->event_formats));
	if (!f->systems || !f->event_formats)
		return kmag_err_set(err, ENOMEM, "out of memory");
	for (i = 0, k = 0; i < r->nr_events && !ret; i++) {
		const struct rec_event *e = &r->events[i];
		char *text;

		for (s = 0; s < nsys && strcmp(f->systems[s].name, e->system); s++)
			;
		if (s < nsys)
			continue;	/* this system was done with an earlier event */
		f->systems[nsys].name = strdup(e->system);
		if (!f->systems[nsys].name)
			return kmag_err_set(err, ENOMEM, "out of memory");
		f->systems[nsys].formats = &f->event_formats[k];
		for (s = i; s < r->nr_events && !ret; s++) {
			if (strcmp(r->events[s].system, e->system))
				continue;
			snprintf(rel, sizeof(rel), "events/%s/%s/format", e->system, r->events[s].name);
			if (!(ret = read_needed(r, base, rel, &text, err))) {
				f->event_formats[k++] = (struct tdw_blob){ text, strlen(text) };
				f->systems[nsys].nr_formats++;
			}
		}
		nsys++;
		f->m.nr_systems = nsys;
	}
	f->m.ftrace_formats = f->ftrace;
	f->m.systems = f->systems;
	return ret;
}

static int page_geometry(struct kmag_recorder *r, const char *header_page, struct kmag_err *err)
{
	struct kmag_page_geom g = { 0 };
	int ret = kmag__rec_page_geometry(header_page, "the kernel's", &g, err);

	r->page_size = g.page_size;
	r->commit_size = g.commit_size;
	return ret;
}

/* Keeps REC_RESERVE_BYTES on the output's file system for finishing the file. */
int kmag__rec_make_reserve(struct kmag_recorder *r, struct kmag_err *err)
{
	int fd, e;

	if (asprintf(&r->reserve_path, "%s.kmag-%d.reserve", r->o.output, (int)getpid()) < 0) {
		r->reserve_path = NULL;
		return kmag_err_set(err, ENOMEM, "out of memory");
	}
	fd = kmag__create_file(r->reserve_path, 0600);
	if (fd < 0)
		return kmag_err_set(err, errno, "cannot create %s: %s", r->reserve_path,
				    strerror(errno));
	e = posix_fallocate(fd, 0, (off_t)kmag__rec_reserve_bytes(&r->o));
	close(fd);
	if (e == ENOSPC || e == EDQUOT)
		return kmag_err_set(err, ENOSPC,
				    "not enough free space next to %s: the recording needs at least %llu MiB",
				    r->o.output,
				    (unsigned long long)(kmag__rec_reserve_bytes(&r->o) >> 20));
	if (e)
		pr_debug("no space reserve (%s): a full disk may cost the file's end", strerror(e));
	return 0;
}

/* The metadata of the recording (formats, kallsyms, ...) into @f. */
static int read_meta(struct kmag_recorder *r, struct rec_meta *f, struct kmag_err *err)
{
	const char *base = r->inst_dir ? r->inst_dir : r->dir;
	struct utsname u;
	char *open_br;
	int ret;

	if ((ret = read_needed(r, base, "events/header_page", &f->header_page, err)) ||
	    (ret = read_needed(r, base, "events/header_event", &f->header_event, err)) ||
	    (ret = page_geometry(r, f->header_page, err)) || (ret = read_formats(r, f, err)) ||
	    (ret = read_needed(r, r->dir, "printk_formats", &f->printk, err)) ||
	    (ret = read_needed(r, base, "trace_clock", &r->clock_file, err)))
		return ret;
	f->kallsyms = read_kallsyms();
	if (!f->kallsyms)
		return kmag_err_set(err, errno, "cannot read /proc/kallsyms: %s", strerror(errno));
	open_br = strchr(r->clock_file, '[');
	r->clock_name = open_br ? strndup(open_br + 1, strcspn(open_br + 1, "]")) : strdup("local");
	if (!uname(&u) &&
	    asprintf(&r->uname, "%s %s %s %s", u.sysname, u.nodename, u.release, u.machine) < 0)
		r->uname = NULL;
	f->m.header_page = (struct tdw_blob){ f->header_page, strlen(f->header_page) };
	f->m.header_event = (struct tdw_blob){ f->header_event, strlen(f->header_event) };
	f->m.kallsyms = (struct tdw_blob){ f->kallsyms, strlen(f->kallsyms) };
	f->m.printk = (struct tdw_blob){ f->printk, strlen(f->printk) };
	return 0;
}

int kmag__rec_out_begin(struct kmag_recorder *r, struct kmag_err *err)
{
	struct rec_meta *f = &r->meta;
	struct stat old;
	int ret;

	if ((ret = read_meta(r, f, err)) || (ret = kmag__rec_track_output(r, true, err)) ||
	    (ret = kmag__rec_make_reserve(r, err)))
		goto out;
	/* a flight recording writes its snapshots with this metadata later */
	if (r->o.flight_bytes)
		return 0;
	if (asprintf(&r->tmp_out, "%s.kmag-%d.tmp", r->o.output, (int)getpid()) < 0) {
		r->tmp_out = NULL;
		ret = kmag_err_set(err, ENOMEM, "out of memory");
		goto out;
	}
	r->out_fd = kmag__create_file(r->tmp_out, 0644);
	if (r->out_fd < 0) {
		ret = kmag_err_set(err, errno, "cannot create %s: %s", r->tmp_out, strerror(errno));
		goto out;
	}
	/* a trace.dat it replaces keeps its mode, as every output (include/kmag/outfile.h) */
	if (!lstat(r->o.output, &old) && S_ISREG(old.st_mode) && fchmod(r->out_fd, old.st_mode & 07777))
		pr_debug("cannot keep the mode of %s: %s", r->o.output, strerror(errno));
	ret = kmag__tdw_begin(&r->w, r->out_fd, r->version, r->version == 7 && r->o.compression != KMAG_REC_COMPRESS_NONE, r->page_size, err);
	if (!ret)
		ret = kmag__tdw_metadata(&r->w, &f->m);
out:
	kmag__rec_meta_free(f);
	return ret;
}

static bool all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

/*
 * saved_cmdlines, plus the tasks alive now that it does not name (its table
 * is small and recycled, so busy recordings lose names otherwise).
 */
int kmag__rec_collect_cmdlines(struct kmag_recorder *r)
{
	char *saved = kmag__tracefs_read(r->dir, "saved_cmdlines"), *out = NULL;
	size_t len = 0, cap = 0;
	struct u64map seen;
	const char *p;
	DIR *proc;
	struct dirent *d;

	u64map_init(&seen);
	if (saved) {
		len = strlen(saved);
		cap = len + 1;
		out = saved;
		for (p = saved; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0)) {
			bool ins;

			if (!u64map_upsert(&seen, strtoull(p, NULL, 10), 0, &ins))
				break;
		}
	}
	proc = opendir("/proc");
	while (proc && (d = readdir(proc))) {
		char tdir[300];
		struct dirent *t;
		DIR *tasks;

		if (!all_digits(d->d_name))
			continue;
		snprintf(tdir, sizeof(tdir), "/proc/%s/task", d->d_name);
		tasks = opendir(tdir);
		while (tasks && (t = readdir(tasks))) {
			char rel[300], *comm;
			uint64_t tid;
			bool ins;

			if (!all_digits(t->d_name))
				continue;
			tid = strtoull(t->d_name, NULL, 10);
			if (u64map_get(&seen, tid) || !u64map_upsert(&seen, tid, 0, &ins))
				continue;
			snprintf(rel, sizeof(rel), "%s/comm", t->d_name);
			comm = kmag__tracefs_read(tdir, rel);
			if (!comm)
				continue;
			comm[strcspn(comm, "\n")] = '\0';
			if (!kmag__grow(&out, &cap, len + strlen(comm) + 32, 1))
				len += (size_t)sprintf(out + len, "%llu %s\n", (unsigned long long)tid,
						       comm);
			free(comm);
		}
		if (tasks)
			closedir(tasks);
	}
	if (proc)
		closedir(proc);
	u64map_release(&seen);
	if (r->cmdlines != out)
		free(r->cmdlines);
	r->cmdlines = out;
	r->cmdlines_len = out ? len : 0;
	return 0;
}

int kmag__rec_out_collect_tail(struct kmag_recorder *r, struct kmag_err *err)
{
	int c;

	r->cpustats = calloc((size_t)r->nr_cpus, sizeof(char *));
	if (!r->cpustats)
		return kmag_err_set(err, ENOMEM, "out of memory");
	for (c = 0; c < r->nr_cpus; c++) {
		char rel[64], *s;

		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", c);
		s = kmag__rec_read(r, rel);
		/* as trace-cmd stores it: "CPU: N" then the stats file */
		if (asprintf(&r->cpustats[c], "CPU: %d\n%s", c, s ? s : "") < 0)
			r->cpustats[c] = NULL;
		free(s);
		if (!r->cpustats[c])
			return kmag_err_set(err, ENOMEM, "out of memory");
	}
	return kmag__rec_collect_cmdlines(r);
}

struct counter {
	struct kmag_recorder *r;
	struct kbuffer *kb;
};

/* Counts the records trace-cmd will show (kbuffer skips padding and time stamps). */
static void count_pages(void *ctx, int cpu, const uint8_t *pages, size_t len)
{
	struct counter *cn = ctx;
	struct kmag_rec_cpu *rc = &cn->r->res_cpus[cpu];
	uint32_t ps = cn->r->page_size;
	size_t off;

	for (off = 0; off + ps <= len; off += ps) {
		const uint8_t *pg = pages + off;
		uint64_t commit = 0;
		void *d;

		memcpy(&commit, pg + 8, (size_t)cn->r->commit_size);
		if (commit & RB_MISSING_EVENTS)
			rc->missing_pages++;
		if (kbuffer_load_subbuffer(cn->kb, (void *)pg) < 0)
			continue;
		for (d = kbuffer_read_event(cn->kb, NULL); d; d = kbuffer_next_event(cn->kb, NULL))
			rc->events++;
	}
}

void kmag__rec_release_reserve(struct kmag_recorder *r)
{
	if (r->reserve_path) {
		unlink(r->reserve_path);
		free(r->reserve_path);
		r->reserve_path = NULL;
	}
}

/*
 * The kernel's BTF (/sys/kernel/btf/vmlinux, Linux 5.5+ with
 * CONFIG_DEBUG_INFO_BTF), for v7 files as trace-cmd 3.4 stores it; NULL
 * (nothing stored) when the kernel has none or it cannot be read.
 */
char *kmag__rec_read_btf(size_t *size)
{
	int fd = open(KMAG_BTF_PATH, O_RDONLY | O_CLOEXEC);
	size_t len = 0, cap = 0;
	char *buf = NULL;

	*size = 0;
	if (fd < 0)
		return NULL;
	for (;;) {
		ssize_t n;

		if (len == cap && kmag__grow(&buf, &cap, len + (1 << 20), 1)) {
			errno = ENOMEM;
			break;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0) {
				close(fd);
				*size = len;
				return buf;
			}
			break;
		}
		len += (size_t)n;
	}
	pr_warn("cannot read %s: %s; the trace file has no BTF", KMAG_BTF_PATH, strerror(errno));
	close(fd);
	free(buf);
	return NULL;
}

int kmag__rec_out_finish(struct kmag_recorder *r, struct kmag_err *err)
{
	struct tdw_cpu *cpus = calloc((size_t)r->nr_cpus, sizeof(*cpus));
	struct counter cn = { r, NULL };
	struct tdw_tail t = { 0 };
	struct stat st;
	char *btf = NULL;
	int i, ret;

	cn.kb = kbuffer_alloc(r->commit_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
			      KBUFFER_ENDIAN_SAME_AS_HOST);
	if (!cpus || !cn.kb) {
		free(cpus);
		kbuffer_free(cn.kb);
		return kmag_err_set(err, ENOMEM, "out of memory");
	}
	for (i = 0; i < r->nr_cpus; i++)
		cpus[i].fd = -1;
	for (i = 0; i < r->nr_rec; i++)
		cpus[r->cpus[i].cpu] = (struct tdw_cpu){ .fd = r->cpus[i].out_fd,
							 .size = atomic_load(&r->cpus[i].bytes) };
	/* on a full disk, the reserve makes room for the rest of the file */
	if (r->res.disk_full)
		kmag__rec_release_reserve(r);
	t.cmdlines = (struct tdw_blob){ r->cmdlines ? r->cmdlines : "", r->cmdlines_len };
	t.nr_cpus = r->nr_cpus;
	t.cpus = cpus;
	t.clock_file = r->clock_file;
	t.clock = r->clock_name;
	t.uname = r->uname;
	t.version = "kmag " KMAG_VERSION_STRING;
	if (r->res.cost.ns)
		t.tracer_cost = kmag_tracer_cost_format(&r->res.cost, r->cost_text,
							sizeof(r->cost_text));
	t.cpustats = (const char *const *)r->cpustats;
	t.nr_cpustats = r->cpustats ? (size_t)r->nr_cpus : 0;
	t.punch_holes = r->res.disk_full;
	t.on_pages = count_pages;
	t.on_pages_ctx = &cn;
	/* on a full disk the reserve is for the trace data, not for BTF */
	if (r->version >= 7 && !r->res.disk_full)
		btf = kmag__rec_read_btf(&t.btf.size);
	t.btf.data = btf;
	r->w.err = err;
	ret = kmag__tdw_finish(&r->w, &t);
	free(btf);
	free(cpus);
	kbuffer_free(cn.kb);
	if (ret)
		return ret;
	if (rename(r->tmp_out, r->o.output))
		return kmag_err_set(err, errno, "cannot rename %s to %s: %s", r->tmp_out, r->o.output,
				    strerror(errno));
	free(r->tmp_out);
	r->tmp_out = NULL;
	for (i = 0; i < r->nr_cpus; i++)
		r->res.events += r->res_cpus[i].events;
	if (!fstat(r->out_fd, &st))
		r->res.file_size = (uint64_t)st.st_size;
	return 0;
}

int kmag_recorder_write(struct kmag_recorder *r, struct kmag_err *err)
{
	int ret;

	if (r->fl)
		return kmag_err_set(err, EINVAL,
				    "a flight recording writes snapshots (kmag_recorder_snapshot())");
	if (!r->stopped || !r->res_cpus || r->out_fd < 0)
		return kmag_err_set(err, EINVAL, "the recording was not stopped");
	if (r->written)
		return kmag_err_set(err, EALREADY, "the file was already written");
	ret = kmag__rec_out_finish(r, err);
	r->written = !ret;
	kmag__rec_out_discard(r);
	return ret;
}

void kmag__rec_out_discard(struct kmag_recorder *r)
{
	int i;

	for (i = 0; r->cpus && i < r->nr_rec; i++) {
		struct rec_cpu *c = &r->cpus[i];

		if (c->out_fd >= 0)
			close(c->out_fd);
		c->out_fd = -1;
		if (c->path)
			unlink(c->path);
		free(c->path);
		free(c->stats);
		c->path = c->stats = NULL;
	}
	free(r->cpus);
	r->cpus = NULL;
	r->nr_rec = 0;
	if (r->out_fd >= 0)
		close(r->out_fd);
	r->out_fd = -1;
	if (r->tmp_out)
		unlink(r->tmp_out);
	free(r->tmp_out);
	r->tmp_out = NULL;
	kmag__tdw_release(&r->w);
	kmag__rec_flight_free(r);
	kmag__rec_meta_free(&r->meta);
	kmag__rec_release_reserve(r);
	kmag__rec_track_output(r, false, NULL);
	for (i = 0; r->cpustats && i < r->nr_cpus; i++)
		free(r->cpustats[i]);
	free(r->cpustats);
	r->cpustats = NULL;
}
