// SPDX-License-Identifier: MIT
/*
 * record-common.c - helpers every part of the recorder uses: the set-up's
 * checkpoints, telling a killed kmag run from a live one, the ring buffer's
 * page geometry, and a CPU reader's poll and splice loops (a normal
 * recording's record-capture.c and a flight recording's flight-capture.c
 * differ only in where the pages go).
 */
#define PR_DOMAIN "record"
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <traceevent/event-parse.h>
#include <unistd.h>

#include "record-internal.h"

/*
 * KMAG_TEST_SETUP_PAUSE=STEP:FILE: at STEP, create FILE and wait for the
 * interrupt flag (60 s at most), so a test can signal kmag at a known point
 * of the set-up instead of guessing with sleeps (tests/vm/record).
 */
void kmag__rec_test_pause(struct kmag_recorder *r, const char *step)
{
	const char *hook = getenv("KMAG_TEST_SETUP_PAUSE"), *colon;
	size_t len = strlen(step);
	int fd, i;

	if (!hook || !r->o.interrupt || strncmp(hook, step, len) || hook[len] != ':')
		return;
	colon = hook + len;
	fd = open(colon + 1, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	for (i = 0; i < 6000 && !rec_interrupted(r); i++) {
		struct timespec nap = { 0, 10 * 1000 * 1000 };

		nanosleep(&nap, NULL);
	}
}

int kmag__rec_checkpoint(struct kmag_recorder *r, const char *step, struct kmag_err *err)
{
	kmag__rec_test_pause(r, step);
	if (!rec_interrupted(r))
		return 0;
	return kmag_err_set(err, EINTR, "interrupted during set-up (before: %s)", step);
}

/* Is the kmag run @pid gone? Its lock file says so; without one, ask the kernel. */
bool kmag__rec_owner_gone(const char *state_dir, int pid)
{
	char name[64], path[4096];
	int fd = -1;

	snprintf(name, sizeof(name), "inst-%d.lock", pid);
	snprintf(path, sizeof(path), "%s/%s", state_dir, name);
	if (!access(path, F_OK)) {
		if (kmag__lock_file(state_dir, name, false, &fd))
			return false;	/* a live run holds it */
		kmag__unlock_file(state_dir, name, &fd);
		return true;
	}
	return kill(pid, 0) && errno == ESRCH;
}

int kmag__rec_page_geometry(const char *header_page, const char *whose,
			    struct kmag_page_geom *g, struct kmag_err *err)
{
	struct tep_handle *tep = tep_alloc();
	int ret = 0;

	if (!tep)
		return kmag_err_set(err, ENOMEM, "out of memory");
	if (tep_parse_header_page(tep, (char *)header_page, (unsigned long)strlen(header_page),
				  (int)sizeof(long))) {
		ret = kmag_err_set(err, EINVAL, "cannot parse %s events/header_page", whose);
	} else {
		*g = (struct kmag_page_geom){ .page_size = (uint32_t)tep_get_sub_buffer_size(tep),
					      .commit_size = tep_get_header_page_size(tep) };
		g->page_hdr = 8 + (uint32_t)g->commit_size;
		if (g->page_size < 64 || (g->page_size & (g->page_size - 1)) ||
		    (g->commit_size != 4 && g->commit_size != 8))
			ret = kmag_err_set(err, EINVAL,
					   "unexpected ring-buffer geometry (sub-buffer %u bytes, commit %d bytes)",
					   g->page_size, g->commit_size);
	}
	tep_free(tep);
	return ret;
}

int64_t kmag__rec_splice_pages(struct rec_cpu *c, int (*sink)(struct rec_cpu *c, size_t n))
{
	int64_t total = 0;

	for (;;) {
		ssize_t n = splice(c->trace_fd, NULL, c->pipe_wr, NULL, (size_t)c->pipe_size,
				   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		int ret;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		if ((ret = sink(c, (size_t)n)))
			return ret;
		total += n;
	}
	return total;
}

int kmag__rec_reader_loop(struct rec_cpu *c, int64_t (*move)(struct rec_cpu *c, void *ctx),
			  void *ctx)
{
	struct kmag_recorder *r = c->r;
	bool backoff = false;

	atomic_store(&c->tid, gettid());
	while (!atomic_load(&r->stopping)) {
		struct pollfd p[2] = { { r->stop_efd, POLLIN, 0 }, { c->trace_fd, POLLIN, 0 } };
		int n = poll(p, backoff ? 1 : 2, backoff ? REC_IDLE_MS : REC_POLL_MS);
		int64_t moved;

		if (atomic_load(&r->stopping))
			break;
		if (n < 0 && errno != EINTR)
			return -errno;
		moved = move(c, ctx);
		if (moved < 0)
			return (int)moved;
		/* kernels before 6.1 wake pollers on any data: do not spin on a partial page */
		backoff = !moved && n > 0 && (p[1].revents & POLLIN);
	}
	return 0;
}

uint64_t kmag__rec_stat(const char *text, const char *key)
{
	const char *p = text;
	size_t k = strlen(key);

	while (p && (p = strstr(p, key))) {
		if ((p == text || p[-1] == '\n') && p[k] == ':')
			return strtoull(p + k + 1, NULL, 10);
		p += k;
	}
	return 0;
}
