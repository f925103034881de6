// SPDX-License-Identifier: MIT
/*
 * tracefs-io.c - reading and writing tracefs files with plain open/read/write.
 *
 * Not libtracefs calls: restoring saved settings needs the kernel's per-file
 * semantics spelled out (truncate-on-open, one list entry per write), and it
 * must also work against a tracing directory named in a state file written
 * by a run that was killed.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "internal.h"
#include "tracefs-io.h"

#define MAX_FILE_TEXT (64u << 20)

static char *path_of(const char *dir, const char *rel)
{
	char *p;

	if (asprintf(&p, "%s/%s", dir, rel) < 0)
		return NULL;
	return p;
}

char *kmag__tracefs_read(const char *dir, const char *rel)
{
	char *path = path_of(dir, rel), *buf = NULL;
	size_t len = 0, cap = 0;
	int fd, saved;

	if (!path)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	saved = errno;
	free(path);
	if (fd < 0) {
		errno = saved;
		return NULL;
	}
	for (;;) {
		ssize_t n;

		if (kmag__grow(&buf, &cap, len + 4097, 1)) {
			saved = ENOMEM;
			goto fail;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			saved = errno;
			goto fail;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > MAX_FILE_TEXT) {
			saved = EFBIG;
			goto fail;
		}
	}
	close(fd);
	if (!buf && !(buf = malloc(1))) {
		errno = ENOMEM;
		return NULL;
	}
	buf[len] = '\0';
	return buf;
fail:
	close(fd);
	free(buf);
	errno = saved;
	return NULL;
}

/* Opens tracefs file @rel for writing (truncating). Returns the fd or -errno with @err set. */
int kmag__tracefs_open_write(const char *dir, const char *rel, struct kmag_err *err)
{
	char *path = path_of(dir, rel);
	int fd, e;

	if (!path)
		return kmag_err_set(err, ENOMEM, "out of memory");
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	e = errno;
	free(path);
	if (fd < 0)
		return kmag_err_set(err, e, "cannot open %s/%s for writing: %s", dir, rel,
				    strerror(e));
	return fd;
}

int kmag__tracefs_write_str(int fd, const char *dir, const char *rel, const char *v, size_t n,
		     struct kmag_err *err)
{
	ssize_t w;

	do {
		w = write(fd, v, n);
	} while (w < 0 && errno == EINTR);
	if (w < 0)
		return kmag_err_set(err, errno, "cannot write \"%.*s\" to %s/%s: %s",
				    (int)(n > 80 ? 80 : n), v, dir, rel, strerror(errno));
	if ((size_t)w != n)
		return kmag_err_set(err, EIO, "short write of \"%.*s\" to %s/%s",
				    (int)(n > 80 ? 80 : n), v, dir, rel);
	return 0;
}

int kmag__tracefs_write(const char *dir, const char *rel, const char *value, struct kmag_err *err)
{
	int fd = kmag__tracefs_open_write(dir, rel, err), ret;

	if (fd < 0)
		return fd;
	ret = kmag__tracefs_write_str(fd, dir, rel, value, strlen(value), err);
	/* a filter file applies its content on close: that can fail too */
	if (close(fd) && !ret)
		ret = kmag_err_set(err, errno, "cannot write \"%s\" to %s/%s: %s", value, dir, rel,
				   strerror(errno));
	return ret;
}

/* Names the usual reason for EPERM from tracefs, for the one-line error. */
int kmag__tracefs_perm_error(struct kmag_err *err, const char *what)
{
	char *lock = kmag__tracefs_read("/sys/kernel/security", "lockdown");
	const char *mode = lock ? strchr(lock, '[') : NULL;
	int ret;

	if (mode && strncmp(mode, "[none]", 6))
		ret = kmag_err_set(err, EPERM,
				   "the kernel does not permit %s: Operation not permitted (kernel lockdown is in %.*s mode); tracepoint events (-e SYSTEM:EVENT) may still work",
				   what, (int)strcspn(mode + 1, "]"), mode + 1);
	else
		ret = kmag_err_set(err, EPERM,
				   "the kernel does not permit %s: Operation not permitted (kernel lockdown, or a container without CAP_SYS_ADMIN); tracepoint events (-e SYSTEM:EVENT) may still work",
				   what);
	free(lock);
	return ret;
}
