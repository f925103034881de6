// SPDX-License-Identifier: MIT
/*
 * outfile.c - output files written through a temporary file and a rename,
 * and streams that keep the cause of their first write error (see
 * include/kmag/outfile.h for the rules).
 *
 * The stream is a fopencookie() one over our own descriptor rather than
 * fdopen(): stdio reports a failed write only as ferror(), and errno is long
 * overwritten by the time the writer checks it, so "No space left on device"
 * would become a guessed EIO. The cookie keeps the first errno.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmag/outfile.h"

struct kmag_outfile {
	char *path;		/* as given (or the name of a wrapped descriptor) */
	char *tmp;		/* the temporary file, NULL when written in place */
	int fd;
	bool own_fd;		/* close fd at the end (not a wrapped descriptor) */
	FILE *f;		/* NULL once closed */
	int werr;		/* errno of the first failed write, 0 if none */
	int cerr;		/* kmag_outfile_close()'s result, kept for commit */
	bool closed;
};

static ssize_t cookie_write(void *ctx, const char *buf, size_t n)
{
	struct kmag_outfile *o = ctx;
	size_t done = 0;

	while (done < n) {
		ssize_t w = write(o->fd, buf + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!o->werr)
				o->werr = w < 0 ? errno : EIO;
			/* the contract: bytes taken, or 0 for an error (never negative) */
			return (ssize_t)done;
		}
		done += (size_t)w;
	}
	return (ssize_t)n;
}

static FILE *cookie_stream(struct kmag_outfile *o)
{
	static const cookie_io_functions_t io = { .write = cookie_write };

	return fopencookie(o, "w", io);
}

/* The directory part of @path ("." for a bare name); free() it. */
static char *dir_of(const char *path)
{
	char *copy = strdup(path), *d;

	if (!copy)
		return NULL;
	d = strdup(dirname(copy));
	free(copy);
	return d;
}

int kmag_outfile_check(const char *path, enum kmag_outfile_kind *kind, struct kmag_err *err)
{
	enum kmag_outfile_kind k;
	struct stat st, target;
	char *dir;
	int e = 0;

	if (!path || !*path)
		return kmag_err_set(err, EINVAL, "the output path is empty");
	if (lstat(path, &st) == 0) {
		/* through a symlink only to decide: a device is written, a file replaced */
		if (S_ISLNK(st.st_mode) && stat(path, &target) == 0)
			st = target;
		if (S_ISDIR(st.st_mode))
			return kmag_err_set(err, EISDIR, "cannot write %s: it is a directory", path);
		k = S_ISREG(st.st_mode) || S_ISLNK(st.st_mode) ? KMAG_OUTFILE_REPLACE :
								  KMAG_OUTFILE_DEVICE;
	} else if (errno == ENOENT) {
		k = KMAG_OUTFILE_NEW;
	} else {
		return kmag_err_set(err, errno, "cannot create %s: %s", path, strerror(errno));
	}
	if (k != KMAG_OUTFILE_DEVICE) {
		/* the temporary file goes next to the path: its directory must take it */
		dir = dir_of(path);
		if (!dir)
			return kmag_err_set(err, ENOMEM, "out of memory");
		if (stat(dir, &st))
			e = errno;
		else if (!S_ISDIR(st.st_mode))
			e = ENOTDIR;
		else if (access(dir, W_OK | X_OK))
			e = errno;
		free(dir);
		if (e)
			return kmag_err_set(err, e, "cannot create %s: %s", path, strerror(e));
	}
	if (kind)
		*kind = k;
	return 0;
}

/* Creates "<dir>/.<name>.kmag-XXXXXXXX" for @o->path; 0 or -errno. */
static int create_tmp(struct kmag_outfile *o, const struct stat *old)
{
	char *dir = dir_of(o->path), *copy = strdup(o->path);
	const char *base = copy ? basename(copy) : NULL;
	uint32_t rnd;
	int tries, e = EEXIST;

	if (!dir || !copy) {
		free(dir);
		free(copy);
		return -ENOMEM;
	}
	for (tries = 0; tries < 100 && e == EEXIST; tries++) {
		if (getrandom(&rnd, sizeof(rnd), 0) != sizeof(rnd))
			rnd = (uint32_t)getpid() * 2654435761u + (uint32_t)tries;
		free(o->tmp);
		if (asprintf(&o->tmp, "%s/.%s.kmag-%08x", dir, base, rnd) < 0) {
			o->tmp = NULL;
			e = ENOMEM;
			break;
		}
		o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			     old ? (old->st_mode & 07777) : 0666);
		e = o->fd < 0 ? errno : 0;
	}
	free(dir);
	free(copy);
	if (e) {
		free(o->tmp);
		o->tmp = NULL;
		return -e;
	}
	if (old) {
		/* the replaced file's owner and exact mode (open() applied the umask) */
		if (fchown(o->fd, old->st_uid, old->st_gid)) {
			/* not ours to give away (not root): the file stays ours */
		}
		if (fchmod(o->fd, old->st_mode & 07777)) {
			/* the umask-reduced mode stays */
		}
	}
	return 0;
}

struct kmag_outfile *kmag_outfile_open(const char *path, struct kmag_err *err)
{
	enum kmag_outfile_kind kind;
	struct kmag_outfile *o;
	struct stat old;
	int ret;

	if (kmag_outfile_check(path, &kind, err))
		return NULL;
	o = calloc(1, sizeof(*o));
	if (!o || !(o->path = strdup(path))) {
		free(o);
		kmag_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	o->fd = -1;
	o->own_fd = true;
	if (kind == KMAG_OUTFILE_DEVICE) {
		o->fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		ret = o->fd < 0 ? -errno : 0;
	} else {
		/* a symlink is replaced, not followed: the new file gets the default mode */
		bool keep = kind == KMAG_OUTFILE_REPLACE && !lstat(path, &old) &&
			    S_ISREG(old.st_mode);

		ret = create_tmp(o, keep ? &old : NULL);
	}
	if (!ret && !(o->f = cookie_stream(o)))
		ret = -errno;
	if (ret) {
		kmag_err_set(err, -ret, "cannot create %s: %s", path, strerror(-ret));
		kmag_outfile_abort(o);
		return NULL;
	}
	return o;
}

struct kmag_outfile *kmag_outfile_fd(int fd, const char *name)
{
	struct kmag_outfile *o = calloc(1, sizeof(*o));

	if (!o || !(o->path = strdup(name))) {
		free(o);
		errno = ENOMEM;
		return NULL;
	}
	o->fd = fd;
	o->f = cookie_stream(o);
	if (!o->f) {
		free(o->path);
		free(o);
		return NULL;
	}
	return o;
}

FILE *kmag_outfile_stream(struct kmag_outfile *o)
{
	return o->f;
}

const char *kmag_outfile_name(const struct kmag_outfile *o)
{
	return o->path;
}

int kmag_outfile_error(const struct kmag_outfile *o)
{
	if (o->werr)
		return o->werr;
	return o->f && ferror(o->f) ? EIO : 0;
}

int kmag_outfile_close(struct kmag_outfile *o, struct kmag_err *err)
{
	int e;

	if (o->closed)
		goto out;
	o->closed = true;
	e = ferror(o->f) ? EIO : 0;
	if (fclose(o->f) && !e)
		e = EIO;
	o->f = NULL;
	if (o->own_fd && o->fd >= 0) {
		/* NFS and quotas report some failures only here */
		if (close(o->fd) && !e && errno != EINTR)
			e = errno;
		o->fd = -1;
	}
	if (o->werr)
		e = o->werr;
	o->cerr = e;
out:
	if (o->cerr)
		kmag_err_set(err, o->cerr, "cannot write %s: %s", o->path, strerror(o->cerr));
	return -o->cerr;
}

int kmag_outfile_commit(struct kmag_outfile *o, struct kmag_err *err)
{
	int ret = kmag_outfile_close(o, err);

	if (!ret && o->tmp) {
		if (rename(o->tmp, o->path))
			ret = kmag_err_set(err, errno, "cannot create %s: %s", o->path,
					   strerror(errno));
		else {
			free(o->tmp);
			o->tmp = NULL;
		}
	}
	kmag_outfile_abort(o);
	return ret;
}

void kmag_outfile_abort(struct kmag_outfile *o)
{
	if (!o)
		return;
	if (o->f)
		fclose(o->f);
	if (o->own_fd && o->fd >= 0)
		close(o->fd);
	/* only the file kmag made; the path itself is never removed */
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	free(o);
}
