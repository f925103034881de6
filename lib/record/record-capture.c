// SPDX-License-Identifier: MIT
/*
 * record-capture.c - the traced command, the per-CPU readers, start and stop.
 *
 * One thread per recorded CPU moves whole ring-buffer pages from
 * per_cpu/cpuN/trace_pipe_raw into a file with splice(2) through a pipe, so
 * the data never passes through user space. Our own loop rather than
 * libtracefs 1.6's tracefs_cpu_write(): that one fixes the bounce pipe at
 * 64 KiB (16 pages per wakeup), can leave spliced data behind in its pipe
 * when the file write is partial, gives no byte count to tell the user how
 * much a full disk cost, and its blocking mode needs a signal or control
 * pipe per CPU to stop. Here each reader sleeps in poll(2) on its buffer
 * (the kernel wakes it at buffer_percent) and on one eventfd that stops
 * them all; a periodic timeout keeps the progress figures fresh.
 */
#define PR_DOMAIN "record"
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "flight.h"
#include "record-internal.h"

#define PIPE_BYTES (1u << 20)	/* bounce pipe: up to 256 pages per splice */

/* ------------------------------------------------------------ the command */

int kmag__rec_spawn(struct kmag_recorder *r, struct kmag_err *err)
{
	int go[2], ep[2];
	pid_t pid;

	if (pipe2(go, O_CLOEXEC))
		return kmag_err_set(err, errno, "pipe: %s", strerror(errno));
	if (pipe2(ep, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		return kmag_err_set(err, errno, "pipe: %s", strerror(errno));
	}
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		close(ep[0]);
		close(ep[1]);
		return kmag_err_set(err, e, "cannot start the command: %s", strerror(e));
	}
	if (pid == 0) {
		sigset_t none;
		char c;
		int sig, e;
		ssize_t n;

		/* the command gets default signal handling, whatever kmag set up */
		for (sig = 1; sig < NSIG; sig++)
			if (sig != SIGKILL && sig != SIGSTOP)
				signal(sig, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		close(go[1]);
		close(ep[0]);
		/* wait until tracing is on: then exec, so the trace starts right before it */
		do {
			n = read(go[0], &c, 1);
		} while (n < 0 && errno == EINTR);
		if (n != 1)
			_exit(127);
		execvp(r->o.command[0], r->o.command);
		e = errno;
		n = write(ep[1], &e, sizeof(e));
		(void)n;
		_exit(127);
	}
	close(go[0]);
	close(ep[1]);
	r->child = pid;
	r->res.command_pid = pid;
	r->child_go_fd = go[1];
	r->child_err_fd = ep[0];
	return 0;
}

int kmag__rec_release_child(struct kmag_recorder *r, struct kmag_err *err)
{
	ssize_t n;
	int e = 0;

	n = write(r->child_go_fd, "x", 1);
	close(r->child_go_fd);
	r->child_go_fd = -1;
	if (n != 1)
		return kmag_err_set(err, errno, "cannot start the command: %s", strerror(errno));
	/* EOF: exec succeeded (the pipe closed on exec); an int: exec failed */
	do {
		n = read(r->child_err_fd, &e, sizeof(e));
	} while (n < 0 && errno == EINTR);
	close(r->child_err_fd);
	r->child_err_fd = -1;
	if (n == (ssize_t)sizeof(e)) {
		waitpid(r->child, &r->child_status, 0);
		r->child_reaped = true;
		return kmag_err_set(err, e, "cannot run \"%s\": %s", r->o.command[0], strerror(e));
	}
	return 0;
}

void kmag__rec_cancel_child(struct kmag_recorder *r)
{
	if (r->child_go_fd >= 0) {
		/* never released: closing the pipe makes it exit without running */
		close(r->child_go_fd);
		r->child_go_fd = -1;
		if (r->child > 0 && !r->child_reaped && waitpid(r->child, &r->child_status, 0) > 0)
			r->child_reaped = true;
	}
	if (r->child_err_fd >= 0) {
		close(r->child_err_fd);
		r->child_err_fd = -1;
	}
}

bool kmag__rec_child_exited(struct kmag_recorder *r)
{
	if (r->child <= 0)
		return false;
	if (!r->child_reaped && waitpid(r->child, &r->child_status, WNOHANG) == r->child)
		r->child_reaped = true;
	return r->child_reaped;
}

/* ------------------------------------------------------------ the readers */

static void add_bytes(struct rec_cpu *c, uint64_t n)
{
	atomic_fetch_add_explicit(&c->bytes, n, memory_order_relaxed);
}

/* Empties the bounce pipe (@n bytes) into the file. Returns 0 or -errno. */
static int pipe_to_file(struct rec_cpu *c, size_t n)
{
	while (n) {
		ssize_t m = splice(c->pipe_rd, NULL, c->out_fd, NULL, n, SPLICE_F_MOVE);

		if (m < 0 && errno == EINTR)
			continue;
		if (m < 0 && errno == EINVAL) {
			/* the file system cannot splice: copy through memory */
			char buf[64 << 10];
			ssize_t rd = read(c->pipe_rd, buf, n < sizeof(buf) ? n : sizeof(buf)), wr;

			if (rd <= 0)
				return rd < 0 ? -errno : -EIO;
			wr = write(c->out_fd, buf, (size_t)rd);
			if (wr != rd)
				return wr < 0 ? -errno : -ENOSPC;
			m = rd;
		} else if (m <= 0) {
			return m < 0 ? -errno : -EIO;
		}
		add_bytes(c, (uint64_t)m);
		n -= (size_t)m;
	}
	return 0;
}

/* After tracing stopped: whole pages, then the partly filled last ones. */
static int final_drain(struct rec_cpu *c)
{
	uint32_t ps = c->r->page_size;
	char *page = malloc(ps);
	int64_t moved = kmag__rec_splice_pages(c, pipe_to_file);
	int ret = moved < 0 ? (int)moved : 0;

	if (!page)
		return -ENOMEM;
	while (!ret) {
		ssize_t n = read(c->trace_fd, page, ps), w;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;	/* EAGAIN: empty */
		if ((uint32_t)n < ps)
			memset(page + n, 0, ps - (size_t)n);
		w = write(c->out_fd, page, ps);
		if (w != (ssize_t)ps) {
			ret = w < 0 ? -errno : -ENOSPC;
			break;
		}
		add_bytes(c, ps);
	}
	free(page);
	return ret;
}

static int64_t move_pages(struct rec_cpu *c, void *ctx)
{
	(void)ctx;
	return kmag__rec_splice_pages(c, pipe_to_file);
}

static void *reader_main(void *arg)
{
	struct rec_cpu *c = arg;
	int ret = kmag__rec_reader_loop(c, move_pages, NULL);

	if (!ret)
		ret = final_drain(c);
	if (ret)
		atomic_store(&c->error, -ret);
	return NULL;
}

static int open_cpu(struct kmag_recorder *r, struct rec_cpu *c, int pipe_bytes,
		    struct kmag_err *err)
{
	char rel[4096 + 64];
	char *path = NULL;
	int p[2];

	snprintf(rel, sizeof(rel), "%s/per_cpu/cpu%d/trace_pipe_raw",
		 r->inst_dir ? r->inst_dir : r->dir, c->cpu);
	c->trace_fd = open(rel, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (c->trace_fd < 0)
		return kmag_err_set(err, errno, "cannot open %s: %s", rel, strerror(errno));
	/* a flight recording's pages go to its rings (flight-capture.c) */
	if (r->fl)
		goto pipe;
	if (asprintf(&path, "%s.kmag-%d-cpu%d", r->o.output, (int)getpid(), c->cpu) < 0)
		return kmag_err_set(err, ENOMEM, "out of memory");
	c->path = path;
	c->out_fd = kmag__create_file(path, 0600);
	if (c->out_fd < 0)
		return kmag_err_set(err, errno, "cannot create %s: %s", path, strerror(errno));
pipe:
	if (pipe2(p, O_CLOEXEC))
		return kmag_err_set(err, errno, "pipe: %s", strerror(errno));
	c->pipe_rd = p[0];
	c->pipe_wr = p[1];
	/* a bigger pipe moves more pages per wakeup; the default (64 KiB) also works */
	if (pipe_bytes > 0)
		fcntl(c->pipe_wr, F_SETPIPE_SZ, pipe_bytes);
	c->pipe_size = fcntl(c->pipe_wr, F_GETPIPE_SZ);
	if (c->pipe_size < (int)r->page_size)
		c->pipe_size = (int)r->page_size;
	return 0;
}

int kmag__rec_open_readers(struct kmag_recorder *r, struct kmag_err *err)
{
	char *maxs = kmag__tracefs_read("/proc/sys/fs", "pipe-max-size");
	long pipe_max = maxs ? strtol(maxs, NULL, 10) : 0;
	struct rlimit rl;
	sigset_t all, old;
	int c, i, ret = 0;

	free(maxs);
	if (pipe_max > (long)PIPE_BYTES || pipe_max <= 0)
		pipe_max = PIPE_BYTES;
	/* four descriptors per CPU */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	r->stop_efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (r->stop_efd < 0)
		return kmag_err_set(err, errno, "eventfd: %s", strerror(errno));
	for (c = 0; c < r->nr_cpus; c++)
		r->nr_rec += rec_cpu_wanted(r, c);
	r->cpus = calloc((size_t)r->nr_rec, sizeof(*r->cpus));
	if (!r->cpus)
		return kmag_err_set(err, ENOMEM, "out of memory");
	for (c = 0, i = 0; c < r->nr_cpus; c++) {
		if (!rec_cpu_wanted(r, c))
			continue;
		r->cpus[i] = (struct rec_cpu){ .r = r, .cpu = c, .index = i, .trace_fd = -1,
					       .out_fd = -1, .pipe_rd = -1, .pipe_wr = -1 };
		if ((ret = open_cpu(r, &r->cpus[i++], (int)pipe_max, err)))
			return ret;
	}
	if (r->fl && (ret = kmag__rec_flight_begin(r, err)))
		return ret;
	/* signals go to the main thread, which decides when to stop */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (i = 0; i < r->nr_rec && !ret; i++) {
		int e = pthread_create(&r->cpus[i].thread, NULL,
				       r->fl ? kmag__rec_flight_reader : reader_main, &r->cpus[i]);

		if (e)
			ret = kmag_err_set(err, e, "cannot start a reader thread: %s", strerror(e));
		else
			r->cpus[i].thread_started = true;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret)
		return ret;
	/* their thread ids are needed for set_ftrace_notrace_pid */
	for (i = 0; i < r->nr_rec; i++)
		while (!atomic_load(&r->cpus[i].tid))
			usleep(200);
	return 0;
}

void kmag__rec_stop_readers(struct kmag_recorder *r)
{
	uint64_t one = 1;
	int i;

	if (!r->cpus)
		return;
	atomic_store(&r->stopping, true);
	if (r->stop_efd >= 0 && write(r->stop_efd, &one, sizeof(one)) < 0)
		pr_debug("eventfd write: %s", strerror(errno));
	/* a reader waiting for room in a flight ring full of a window gives up */
	if (r->fl)
		kmag__fl_stop(&r->fl->rings);
	for (i = 0; i < r->nr_rec; i++) {
		if (r->cpus[i].thread_started)
			pthread_join(r->cpus[i].thread, NULL);
		r->cpus[i].thread_started = false;
	}
}

void kmag__rec_close_readers(struct kmag_recorder *r)
{
	int i;

	for (i = 0; r->cpus && i < r->nr_rec; i++) {
		struct rec_cpu *c = &r->cpus[i];

		if (c->trace_fd >= 0)
			close(c->trace_fd);
		if (c->pipe_rd >= 0)
			close(c->pipe_rd);
		if (c->pipe_wr >= 0)
			close(c->pipe_wr);
		c->trace_fd = c->pipe_rd = c->pipe_wr = -1;
	}
	if (r->stop_efd >= 0)
		close(r->stop_efd);
	r->stop_efd = -1;
}

/* ------------------------------------------------------------ life cycle */

static char *cpu_stats(struct kmag_recorder *r, int cpu)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", cpu);
	return kmag__rec_read(r, rel);
}

static double elapsed_since(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

int kmag_recorder_start(struct kmag_recorder *r, struct kmag_err *err)
{
	int ret;

	if (r->started)
		return kmag_err_set(err, EALREADY, "the recording was already started");
	r->started = true;
	if ((r->o.command && (ret = kmag__rec_spawn(r, err))) ||
	    (ret = kmag__rec_configure(r, err)) ||
	    (ret = kmag__rec_checkpoint(r, "output", err)) || (ret = kmag__rec_out_begin(r, err)) ||
	    (ret = kmag__rec_checkpoint(r, "readers", err)) ||
	    (ret = kmag__rec_open_readers(r, err)) || (ret = kmag__rec_set_notrace_pids(r, err)) ||
	    (ret = kmag__rec_checkpoint(r, "tracing-on", err)))
		goto fail;
	r->res.tracer = r->tracer_name;
	r->res.cpulist = r->cpulist;
	r->res.buffer_kb = r->buffer_kb;
	clock_gettime(CLOCK_MONOTONIC, &r->t_start);
	if ((ret = kmag__rec_tracing_on(r, true, err)))
		goto fail;
	if (r->o.command && (ret = kmag__rec_release_child(r, err)))
		goto fail;
	return 0;
fail:
	/*
	 * Only where kmag owns it: before its instance exists or the top level
	 * is saved, tracing_on is the top level's, as the user left it.
	 */
	if (r->inst_created || r->top_saved)
		kmag__rec_tracing_on(r, false, NULL);
	kmag__rec_cancel_child(r);
	kmag__rec_stop_readers(r);
	kmag__rec_close_readers(r);
	if (rec_interrupted(r)) {
		/* whatever failed while the signal came (a write it cut short...): interrupted */
		struct kmag_err e = { 0 };

		kmag_err_clear(err);
		ret = kmag__rec_restore(r, &e);
		if (ret)
			kmag_err_set(err, e.code, "interrupted during set-up; restoring tracefs failed: %s (the next kmag record repairs it)",
				     e.msg);
		else
			ret = kmag_err_set(err, EINTR, "interrupted during set-up; tracefs restored");
	} else {
		kmag__rec_restore(r, NULL);
	}
	kmag__rec_out_discard(r);
	r->stopped = true;
	return ret;
}

void kmag_recorder_progress(struct kmag_recorder *r, struct kmag_rec_progress *p)
{
	struct timespec now;
	int i;

	memset(p, 0, sizeof(*p));
	if (!r->started || !r->cpus)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	p->elapsed = elapsed_since(&r->t_start, r->stopped ? &r->t_stop : &now);
	for (i = 0; i < r->nr_rec; i++) {
		struct rec_cpu *c = &r->cpus[i];
		char *s = r->stopped ? NULL : cpu_stats(r, c->cpu);

		p->bytes += atomic_load(&c->bytes);
		if (atomic_load(&c->error))
			p->failed = true;
		if (s) {
			/* what the readers have not moved yet is captured too (a page fills slowly) */
			p->bytes += kmag__rec_stat(s, "bytes");
			p->events += kmag__rec_stat(s, "read events") + kmag__rec_stat(s, "entries");
			p->lost += kmag__rec_stat(s, "overrun") + kmag__rec_stat(s, "commit overrun") +
				   kmag__rec_stat(s, "dropped events");
			free(s);
		}
	}
	p->command_exited = kmag__rec_child_exited(r);
	kmag__rec_flight_progress(r, p);
}

/* The tracer's cost, in the recording's instance before it is put back (a failure is a note). */
static void calibrate(struct kmag_recorder *r)
{
	struct kmag_err e = { 0 };

	if (r->tracer != KMAG_REC_TRACER_FUNCTION_GRAPH || r->fl || r->o.no_calibrate)
		return;
	if (kmag__rec_calibrate(r, &r->res.cost, &e)) {
		snprintf(r->cost_note, sizeof(r->cost_note),
			 "the tracer's cost was not measured (%s): the times stay the kernel's; report --overhead NS corrects them",
			 e.msg);
		r->res.cost_note = r->cost_note;
	}
}

int kmag_recorder_stop(struct kmag_recorder *r, struct kmag_err *err)
{
	int i, ret = 0;

	if (!r->started || r->stopped)
		return 0;
	r->stopped = true;
	kmag__rec_tracing_on(r, false, NULL);
	clock_gettime(CLOCK_MONOTONIC, &r->t_stop);
	r->res.duration = elapsed_since(&r->t_start, &r->t_stop);
	/* a failed reader stopped reading: what its buffer holds now is lost */
	for (i = 0; i < r->nr_rec; i++) {
		if (atomic_load(&r->cpus[i].error)) {
			char *s = cpu_stats(r, r->cpus[i].cpu);

			r->res.unwritten += s ? kmag__rec_stat(s, "entries") : 0;
			free(s);
		}
	}
	kmag__rec_stop_readers(r);
	kmag__rec_flight_stop(r);
	r->res_cpus = calloc((size_t)r->nr_cpus, sizeof(*r->res_cpus));
	if (!r->res_cpus)
		return kmag_err_set(err, ENOMEM, "out of memory");
	for (i = 0; i < r->nr_cpus; i++)
		r->res_cpus[i].cpu = i;
	for (i = 0; i < r->nr_rec; i++) {
		struct rec_cpu *c = &r->cpus[i];
		struct kmag_rec_cpu *rc = &r->res_cpus[c->cpu];
		uint64_t bytes = atomic_load(&c->bytes);
		int e = atomic_load(&c->error);

		c->stats = cpu_stats(r, c->cpu);
		rc->recorded = true;
		rc->overrun = kmag__rec_stat(c->stats, "overrun");
		rc->commit_overrun = kmag__rec_stat(c->stats, "commit overrun");
		rc->dropped = kmag__rec_stat(c->stats, "dropped events");
		rc->left = kmag__rec_stat(c->stats, "entries");
		r->res.lost += rc->overrun + rc->commit_overrun + rc->dropped;
		/* a write cut short by a full disk can leave part of a page */
		bytes -= bytes % r->page_size;
		if (c->out_fd >= 0 && ftruncate(c->out_fd, (off_t)bytes) && !ret)
			ret = kmag_err_set(err, errno, "cannot truncate %s: %s", c->path,
					   strerror(errno));
		atomic_store(&c->bytes, bytes);
		rc->bytes = bytes;
		if (e == ENOSPC || e == EDQUOT)
			r->res.disk_full = true;
		else if (e && !ret)
			ret = kmag_err_set(err, e, "reading the CPU %d ring buffer failed: %s", c->cpu,
					   strerror(e));
	}
	if (!ret)
		ret = kmag__rec_out_collect_tail(r, err);
	kmag__rec_close_readers(r);
	if (!ret)
		calibrate(r);
	/* tracefs is needed no more: put it back before the (long) file assembly */
	if (!ret)
		ret = kmag__rec_restore(r, err);
	else
		kmag__rec_restore(r, NULL);
	if (kmag__rec_child_exited(r))
		r->res.command_status = r->child_status;
	r->res.nr_cpus = r->nr_cpus;
	r->res.cpus = r->res_cpus;
	return ret;
}
