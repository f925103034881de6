// SPDX-License-Identifier: MIT
/*
 * flight.c - a flight recording's life (see flight.h and include/kmag/
 * record.h): its options checked against the kernel, the rings and the
 * watcher started, the snapshots written.
 */
#define PR_DOMAIN "flight"
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <traceevent/event-parse.h>
#include <tracefs.h>
#include <unistd.h>
#include <zstd.h>

#include "flight.h"
#include "record-internal.h"

#define DEFAULT_AFTER_NS 1000000000ull

/* ------------------------------------------------------------ checks */

/* Does this kernel's funcgraph_exit carry the return value (Linux 6.5+)? */
static bool has_retval(struct kmag_recorder *r)
{
	char *f = kmag__tracefs_read(r->dir, "events/ftrace/funcgraph_exit/format");
	bool yes = f && strstr(f, " retval;");

	free(f);
	return yes;
}

static int check_func(struct kmag_recorder *r, const struct kmag__trigger *t,
		      struct kmag_err *err)
{
	char **list = NULL;
	int n;

	if (!t->func)
		return 0;
	if (tracefs_filter_functions(t->func, NULL, &list) < 0)
		n = 0;
	else
		n = tracefs_list_size(list);
	tracefs_list_free(list);
	if (n <= 0)
		return kmag_err_set(err, ENOENT,
				    "--trigger \"%s\": %s is not a function the kernel can trace (see %s/available_filter_functions)",
				    t->spec, t->func, r->dir);
	return 0;
}

/* An event trigger: its event must exist (it is recorded), its filter fit its format. */
static int check_event(struct kmag_recorder *r, const struct kmag__trigger *t,
		       struct kmag_err *err)
{
	struct tep_handle *tep;
	struct tep_event *te;
	char rel[512], *text;
	int ret = 0;

	snprintf(rel, sizeof(rel), "events/%s/%s/format", t->system, t->event);
	text = kmag__tracefs_read(r->dir, rel);
	if (!text)
		return kmag_err_set(err, ENOENT,
				    "--trigger \"%s\": unknown event %s:%s (see %s/available_events)",
				    t->spec, t->system, t->event, r->dir);
	tep = tep_alloc();
	if (!tep) {
		free(text);
		return kmag_err_set(err, ENOMEM, "out of memory");
	}
	tep_set_flag(tep, TEP_DISABLE_PLUGINS | TEP_DISABLE_SYS_PLUGINS);
	tep_set_long_size(tep, (int)sizeof(long));
	if (kmag__tep_parse_fields(tep, text, strlen(text), t->system) ||
	    !(te = tep_find_event_by_name(tep, t->system, t->event)))
		ret = kmag_err_set(err, EINVAL, "--trigger \"%s\": cannot read the format of %s:%s",
				   t->spec, t->system, t->event);
	else
		ret = kmag__trigger_check_filter(t, te, err);
	tep_free(tep);
	free(text);
	return ret;
}

int kmag__rec_flight_check(struct kmag_recorder *r, struct kmag_err *err)
{
	const struct kmag_record_opts *o = &r->o;
	struct fl_state *fl;
	size_t i;
	int ret;

	if (!o->flight_bytes)
		return 0;
	fl = calloc(1, sizeof(*fl));
	if (!fl)
		return kmag_err_set(err, ENOMEM, "out of memory");
	r->fl = fl;
	fl->r = r;
	pthread_mutex_init(&fl->lock, NULL);
	fl->wake_fd = -1;
	fl->after_ns = o->after_ns ? o->after_ns : DEFAULT_AFTER_NS;
	fl->max_snapshots = o->snapshots ? o->snapshots : 1;
	fl->trig = calloc(o->nr_triggers + 1, sizeof(*fl->trig));
	if (!fl->trig)
		return kmag_err_set(err, ENOMEM, "out of memory");
	for (i = 0; i < o->nr_triggers; i++) {
		const struct kmag__trigger *t = &fl->trig[i];

		if ((ret = kmag__trigger_parse(o->triggers[i], &fl->trig[i], err)))
			return ret;
		fl->ntrig++;
		if (t->kind != KMAG_TRIG_EVENT && r->tracer != KMAG_REC_TRACER_FUNCTION_GRAPH)
			return kmag_err_set(err, EINVAL,
					    "--trigger \"%s\" follows calls: it needs the function_graph tracer (not %s)",
					    t->spec, r->tracer_name);
		if (t->kind == KMAG_TRIG_ERROR && !has_retval(r))
			return kmag_err_set(err, ENOTSUP,
					    "--trigger \"%s\" needs return values, which this kernel does not record (Linux 6.5+ with CONFIG_FUNCTION_GRAPH_RETVAL); slow= and event= triggers work here",
					    t->spec);
		if ((ret = check_func(r, t, err)) ||
		    (t->kind == KMAG_TRIG_EVENT && (ret = check_event(r, t, err))))
			return ret;
	}
	return 0;
}

/* ------------------------------------------------------------ start */

int kmag__rec_flight_begin(struct kmag_recorder *r, struct kmag_err *err)
{
	struct fl_state *fl = r->fl;
	char *base = NULL;
	int *cpus, i, ret;

	fl->n = r->nr_rec;
	fl->geom = (struct kmag_page_geom){ r->page_size, 8 + (uint32_t)r->commit_size,
					    r->commit_size, false, false };
	fl->cpu = calloc((size_t)fl->n + 1, sizeof(*fl->cpu));
	cpus = calloc((size_t)fl->n + 1, sizeof(*cpus));
	if (!fl->cpu || !cpus || asprintf(&base, "%s.kmag-%d", r->o.output, (int)getpid()) < 0) {
		free(cpus);
		return kmag_err_set(err, ENOMEM, "out of memory");
	}
	for (i = 0; i < fl->n; i++)
		cpus[i] = r->cpus[i].cpu;
	ret = kmag__fl_rings_init(&fl->rings, base, cpus, fl->n, r->o.flight_bytes, r->page_size,
				  err);
	free(cpus);
	free(base);
	if (ret)
		return ret;
	for (i = 0; i < fl->n; i++) {
		struct fl_cpu *f = &fl->cpu[i];

		f->blk = malloc((size_t)r->page_size * FL_BLOCK_PAGES);
		f->z = malloc(fl->rings.max_block);
		f->zc = ZSTD_createCCtx();
		if (!f->blk || !f->z || !f->zc)
			return kmag_err_set(err, ENOMEM, "out of memory");
		/* as trace-cmd's chunks: no content size in the frame */
		ZSTD_CCtx_setParameter(f->zc, ZSTD_c_contentSizeFlag, 0);
		ZSTD_CCtx_setParameter(f->zc, ZSTD_c_compressionLevel, 1);
	}
	/* the watcher's return types; the snapshots leave it out (see write_file()) */
	fl->btf = fl->ntrig ? kmag__rec_read_btf(&fl->btf_size) : NULL;
	if (fl->ntrig)
		return kmag__fl_watch_start(r, fl, err);
	return 0;
}

/* ------------------------------------------------------------ while recording */

void kmag__rec_flight_progress(struct kmag_recorder *r, struct kmag_rec_progress *p)
{
	struct fl_state *fl = r->fl;
	uint64_t first = UINT64_MAX, last = 0;
	bool blocked;
	int i;

	if (!fl || !fl->rings.inited)
		return;
	blocked = kmag__fl_blocked(&fl->rings);
	pthread_mutex_lock(&fl->rings.lock);
	for (i = 0; i < fl->rings.n; i++) {
		struct fl_ring *ring = &fl->rings.r[i];
		size_t k;

		for (k = 0; k < ring->count; k++) {
			const struct fl_block *b = &ring->b[(ring->first + k) % ring->capb];

			p->kept_bytes += b->csize;
			if (b->first_ts == KMAG_TS_NONE)
				continue;
			if (b->first_ts < first)
				first = b->first_ts;
			if (b->last_ts > last)
				last = b->last_ts;
		}
	}
	pthread_mutex_unlock(&fl->rings.lock);
	if (last > first && first != UINT64_MAX)
		p->kept_seconds = (double)(last - first) / 1e9;
	pthread_mutex_lock(&fl->lock);
	/* the rings are full of the open window: it ends now */
	if (fl->window && blocked && !fl->due) {
		fl->due = true;
		fl->cut = true;
	}
	p->fires = fl->fires;
	p->snapshot_due = fl->window && fl->due;
	p->unwatched = atomic_load(&fl->unwatched);
	p->stored_raw = atomic_load(&fl->stored_raw);
	if (fl->watch_error)
		p->failed = true;
	pthread_mutex_unlock(&fl->lock);
}

void kmag__fl_comm(struct kmag_recorder *r, int pid, char *buf, size_t size)
{
	char rel[64], *c, *p;

	buf[0] = '\0';
	if (pid <= 0)
		return;
	snprintf(rel, sizeof(rel), "%d/comm", pid);
	c = kmag__tracefs_read("/proc", rel);
	if (c) {
		c[strcspn(c, "\n")] = '\0';
		snprintf(buf, size, "%s", c);
		free(c);
		return;
	}
	c = kmag__tracefs_read(r->dir, "saved_cmdlines");
	for (p = c; p && *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0)) {
		char *end;

		if (strtol(p, &end, 10) == pid && *end == ' ') {
			snprintf(buf, size, "%.*s", (int)strcspn(end + 1, "\n"), end + 1);
			break;
		}
	}
	free(c);
}

/* Under fl->lock: the open window's fire as the API gives it. */
static void public_fire(struct fl_state *fl, struct kmag_rec_fire *out)
{
	const struct kmag__fire *f = &fl->fire;

	memset(out, 0, sizeof(*out));
	out->seq = fl->fires;
	out->trigger = fl->trig[f->trigger].spec;
	out->ts = f->ts;
	out->pid = f->pid;
	out->cpu = f->cpu;
	out->func = fl->fire_func[0] ? fl->fire_func : NULL;
	out->errnum = f->errnum;
	out->duration = f->duration;
	out->event = fl->trig[f->trigger].kind == KMAG_TRIG_EVENT ? fl->fire_event : NULL;
	out->depth = f->depth;
	/* the chain's root when calls were open around it (else it is the call itself) */
	if (fl->fire_root[0] &&
	    (fl->trig[f->trigger].kind == KMAG_TRIG_EVENT ? f->root_id != 0 : f->depth > 0))
		out->root = fl->fire_root;
}

int kmag_recorder_fire(struct kmag_recorder *r, uint64_t seq, struct kmag_rec_fire *f)
{
	struct fl_state *fl = r->fl;
	int ret = 0;

	if (!fl)
		return -ENOENT;
	pthread_mutex_lock(&fl->lock);
	if (!fl->fires || (seq && seq != fl->fires))
		ret = -ENOENT;
	else
		public_fire(fl, f);
	if (!ret)
		memcpy(fl->comm, fl->fire_comm, sizeof(fl->comm));
	pthread_mutex_unlock(&fl->lock);
	if (!ret)
		f->comm = fl->comm[0] ? fl->comm : NULL;
	return ret;
}

/* ------------------------------------------------------------ snapshots */

/*
 * CPU @cpu's CPUSTAT for the file, as the kernel's stats file reads: what a
 * reader counts as lost (overrun) is what the window lost, not what the
 * whole recording did.
 */
static char *window_stats(int cpu, const struct fl_part *p)
{
	char *out = NULL;

	if (asprintf(&out, "CPU: %d\nentries: 0\noverrun: %llu\ncommit overrun: 0\nbytes: %llu\ndropped events: 0\nread events: %llu\n",
		     cpu, (unsigned long long)(p ? p->lost : 0),
		     (unsigned long long)(p ? p->bytes : 0),
		     (unsigned long long)(p ? p->events : 0)) < 0)
		out = NULL;
	return out;
}

/* The path of snapshot @index: opts.output, then "<output>.1", ... */
static char *snap_path(struct kmag_recorder *r, unsigned index)
{
	char *p = NULL;

	if (!index)
		return strdup(r->o.output);
	if (asprintf(&p, "%s.%u", r->o.output, index) < 0)
		return NULL;
	return p;
}

static int write_file(struct kmag_recorder *r, const struct fl_window *w, const char *path,
		      uint64_t *size, struct kmag_err *err)
{
	struct fl_state *fl = r->fl;
	struct tdw_tail t = { 0 };
	char **stats = calloc((size_t)r->nr_cpus + 1, sizeof(char *));
	char *tmp = NULL;
	struct stat st;
	int fd, i, ret = 0;

	if (!stats || asprintf(&tmp, "%s.kmag-%d.snap.tmp", r->o.output, (int)getpid()) < 0) {
		free(stats);
		return kmag_err_set(err, ENOMEM, "out of memory");
	}
	for (i = 0; i < r->nr_cpus; i++) {
		const struct fl_part *p = NULL;
		int k;

		for (k = 0; k < w->n; k++)
			if (w->parts[k].cpu == i)
				p = &w->parts[k];
		stats[i] = window_stats(i, p);
	}
	if (!r->stopped)
		kmag__rec_collect_cmdlines(r);
	t.cmdlines = (struct tdw_blob){ r->cmdlines ? r->cmdlines : "", r->cmdlines_len };
	t.nr_cpus = r->nr_cpus;
	t.clock_file = r->clock_file;
	t.clock = r->clock_name;
	t.uname = r->uname;
	t.version = "kmag " KMAG_VERSION_STRING;
	t.cpustats = (const char *const *)stats;
	t.nr_cpustats = (size_t)r->nr_cpus;
	/*
	 * No BTF: it would add about a megabyte to every snapshot (985 KB on
	 * the 6.19 test kernel, zstd), the file is to stay near the rings' size,
	 * and kmag errors/replay take --btf (a copy of /sys/kernel/btf/vmlinux).
	 */
	/* the reserve makes room for the file, whatever filled the disk meanwhile */
	kmag__rec_release_reserve(r);
	fd = kmag__create_file(tmp, 0644);
	if (fd < 0) {
		ret = kmag_err_set(err, errno, "cannot create %s: %s", tmp, strerror(errno));
	} else {
		if (!lstat(path, &st) && S_ISREG(st.st_mode) && fchmod(fd, st.st_mode & 07777))
			pr_debug("cannot keep the mode of %s: %s", path, strerror(errno));
		ret = kmag__fl_write(&fl->rings, w, fd, r->page_size, &r->meta.m, &t, err);
		if (!ret && fstat(fd, &st) == 0)
			*size = (uint64_t)st.st_size;
		if (close(fd) && !ret)
			ret = kmag_err_set(err, errno, "cannot write %s: %s", tmp, strerror(errno));
		/* (tests: a signal while the file is written, before it is in place) */
		kmag__rec_test_pause(r, "snapshot");
		if (!ret && rename(tmp, path))
			ret = kmag_err_set(err, errno, "cannot rename %s to %s: %s", tmp, path,
					   strerror(errno));
		if (ret)
			unlink(tmp);
	}
	/* room for the next one */
	if (!r->stopped && fl->written + 1 < fl->max_snapshots) {
		struct kmag_err e = { 0 };

		if (kmag__rec_make_reserve(r, &e))
			kmag__rec_note(r, "%s: the next snapshot may not fit", e.msg);
	}
	for (i = 0; i < r->nr_cpus; i++)
		free(stats[i]);
	free(stats);
	free(tmp);
	return ret;
}

int kmag_recorder_snapshot(struct kmag_recorder *r, struct kmag_rec_snapshot *s,
			   struct kmag_err *err)
{
	struct fl_state *fl = r->fl;
	struct fl_window w;
	bool triggered;
	int ret;

	memset(s, 0, sizeof(*s));
	if (!fl || !fl->rings.inited)
		return kmag_err_set(err, EINVAL, "not a flight recording");
	if (fl->written >= fl->max_snapshots)
		return kmag_err_set(err, ENOENT, "all %u snapshots were written", fl->max_snapshots);
	pthread_mutex_lock(&fl->lock);
	triggered = fl->window;
	if (!r->stopped && !(fl->window && fl->due)) {
		pthread_mutex_unlock(&fl->lock);
		return kmag_err_set(err, EAGAIN, "no snapshot is due");
	}
	if (!triggered && fl->written) {
		pthread_mutex_unlock(&fl->lock);
		return -ENOENT;	/* stopped, no window open: the snapshots are written */
	}
	if (triggered) {
		public_fire(fl, &s->fire);
		s->triggered = true;
		s->cut_short = fl->cut || !fl->due;
		s->more = fl->fire.more;
		s->chain_whole = !fl->fire.root_open && fl->fire.root_start_ns != KMAG_TS_NONE;
		/* a match from now on opens the next window */
		fl->window = false;
		fl->due = false;
		fl->rearm = true;
	}
	s->index = fl->written;
	if (triggered) {
		memcpy(fl->comm, fl->fire_comm, sizeof(fl->comm));
		s->fire.comm = fl->comm[0] ? fl->comm : NULL;
	}
	pthread_mutex_unlock(&fl->lock);
	if (kmag__fl_window(&fl->rings, &w))
		return kmag_err_set(err, ENOMEM, "out of memory");
	if (triggered && s->chain_whole)
		s->chain_whole = w.start_ts <= fl->fire.root_start_ns;
	free(fl->snap_path);
	fl->snap_path = snap_path(r, s->index);
	ret = fl->snap_path ? write_file(r, &w, fl->snap_path, &s->file_size, err) :
			      kmag_err_set(err, ENOMEM, "out of memory");
	s->path = fl->snap_path;
	s->first_ts = w.first_ts;
	s->last_ts = w.last_ts;
	s->events = w.events;
	s->lost = w.lost;
	kmag__fl_window_release(&fl->rings, &w);
	kmag__fl_pin(&fl->rings, KMAG_TS_NONE);
	if (!ret)
		fl->written++;
	return ret;
}

/* ------------------------------------------------------------ end */

void kmag__rec_flight_stop(struct kmag_recorder *r)
{
	if (r->fl)
		kmag__fl_watch_stop(r->fl);
}

void kmag__rec_flight_free(struct kmag_recorder *r)
{
	struct fl_state *fl = r->fl;
	size_t i;
	int k;

	if (!fl)
		return;
	kmag__fl_stop(&fl->rings);
	kmag__fl_watch_free(fl);
	kmag__fl_rings_release(&fl->rings);
	for (k = 0; fl->cpu && k < fl->n; k++) {
		free(fl->cpu[k].blk);
		free(fl->cpu[k].z);
		ZSTD_freeCCtx(fl->cpu[k].zc);
	}
	free(fl->cpu);
	for (i = 0; i < fl->ntrig; i++)
		kmag__trigger_release(&fl->trig[i]);
	free(fl->trig);
	free(fl->btf);
	free(fl->snap_path);
	pthread_mutex_destroy(&fl->lock);
	free(fl);
	r->fl = NULL;
}
