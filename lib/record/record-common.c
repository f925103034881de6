// SPDX-License-Identifier: MIT
/*
 * record-common.c - helpers every part of the recorder uses: telling a
 * killed kmag run from a live one.
 */
#define PR_DOMAIN "record"
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
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
