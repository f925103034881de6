/* SPDX-License-Identifier: MIT */
/*
 * tracefs-io.h - reading and writing tracefs files (plain syscalls), and the
 * one-line explanation of EPERM from tracefs: the recorder's (kmag record,
 * kmag stack). Internal to libkmag.
 */
#ifndef KMAG_RECORD_TRACEFS_IO_H
#define KMAG_RECORD_TRACEFS_IO_H

#include <stddef.h>

#include "kmag/kmag.h"

/* Reads tracefs file @rel into a new string (free it). NULL with errno set on failure. */
char *kmag__tracefs_read(const char *dir, const char *rel);
/* Writes @value to tracefs file @rel (truncating). Returns 0 or -errno with @err set. */
int kmag__tracefs_write(const char *dir, const char *rel, const char *value, struct kmag_err *err);

/* Opens tracefs file @rel for writing (truncating). Returns the fd or -errno with @err set. */
int kmag__tracefs_open_write(const char *dir, const char *rel, struct kmag_err *err);
/* Writes @n bytes of @v to @fd (file @dir/@rel, for the message). 0 or -errno with @err set. */
int kmag__tracefs_write_str(int fd, const char *dir, const char *rel, const char *v, size_t n,
			    struct kmag_err *err);

/* One-line EPERM explanation (lockdown, container) for @what; returns -EPERM. */
int kmag__tracefs_perm_error(struct kmag_err *err, const char *what);

#endif /* KMAG_RECORD_TRACEFS_IO_H */
