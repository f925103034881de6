// SPDX-License-Identifier: MIT
/*
 * record-common.c - helpers every part of the recorder uses: notes to the
 * user, and telling a killed kmag run from a live one.
 */
#define PR_DOMAIN "record"
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "record-internal.h"

void kmag__rec_note(struct kmag_recorder *r, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (r->o.note)
		r->o.note(r->o.note_ctx, buf);
	else
		pr_info("%s", buf);
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
