/* SPDX-License-Identifier: MIT */
/*
 * outfile.h - the one way kmag writes an output file (exports, pictures,
 * pages, symbol maps) and its standard output.
 *
 * Rules (doc/output-files.md):
 *   - a new or existing regular file is written as a temporary file in the
 *     same directory (O_EXCL|O_NOFOLLOW, the mode of the file it replaces) and
 *     renamed over the path only by kmag_outfile_commit(); any failure removes
 *     the temporary file and leaves the path as it was;
 *   - a symlink to a regular file, or a dangling one, is replaced by the new
 *     regular file (as mv, sed -i, rsync and ld do); its target is never
 *     written (a symlink to a directory is refused);
 *   - a device node, FIFO or socket (also through a symlink: /dev/null,
 *     /dev/stdout, >(cmd)) is written directly and never unlinked;
 *   - a directory is refused.
 */
#ifndef KMAG_OUTFILE_H
#define KMAG_OUTFILE_H

#include <stdio.h>

#include "kmag.h"

#ifdef __cplusplus
extern "C" {
#endif

enum kmag_outfile_kind {
	KMAG_OUTFILE_NEW = 1,	/* no such file: created by the rename */
	KMAG_OUTFILE_REPLACE,	/* a regular file or a symlink, replaced by the rename */
	KMAG_OUTFILE_DEVICE,	/* device, FIFO or socket: written in place */
};

struct kmag_outfile;

/*
 * Checks that @path can be an output (its directory exists, it is not a
 * directory) without creating anything; sets *@kind when non-NULL.
 * Returns 0 or -errno with @err set ("cannot create PATH: ...").
 */
int kmag_outfile_check(const char *path, enum kmag_outfile_kind *kind, struct kmag_err *err);

/*
 * Opens @path for writing by the rules above. Returns a handle to end with
 * kmag_outfile_commit() or kmag_outfile_abort(), or NULL with @err set.
 */
struct kmag_outfile *kmag_outfile_open(const char *path, struct kmag_err *err);

/*
 * Wraps the open descriptor @fd (e.g. STDOUT_FILENO; not closed) as an
 * output named @name in messages ("standard output"), so its first write
 * error is kept with its cause. Returns NULL with errno set.
 */
struct kmag_outfile *kmag_outfile_fd(int fd, const char *name);

/* The stream to write to; borrowed, valid until commit or abort. */
FILE *kmag_outfile_stream(struct kmag_outfile *o);
/* The path (or name) given at open; borrowed, valid until commit or abort. */
const char *kmag_outfile_name(const struct kmag_outfile *o);
/* A write to the stream failed; its errno (the first one), else 0. */
int kmag_outfile_error(const struct kmag_outfile *o);

/*
 * Flushes and closes the stream; the file is not in place yet (for writers
 * with several files that must appear together). Returns 0 or -errno with
 * @err set ("cannot write PATH: <the first write's cause>"). Idempotent.
 */
int kmag_outfile_close(struct kmag_outfile *o, struct kmag_err *err);

/*
 * Closes (if still open) and renames the file into place. Frees @o in all
 * cases; on failure the temporary file is removed and @err set. Returns 0 or
 * -errno.
 */
int kmag_outfile_commit(struct kmag_outfile *o, struct kmag_err *err);

/* Drops the output: removes the temporary file only, frees @o. Accepts NULL. */
void kmag_outfile_abort(struct kmag_outfile *o);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_OUTFILE_H */
