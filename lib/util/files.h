/* SPDX-License-Identifier: MIT */
/*
 * files.h - small file-system helpers shared inside libkmag.
 */
#ifndef KMAG_UTIL_FILES_H
#define KMAG_UTIL_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* mkdir -p for kmag's state directories: parents 0755, the last one 0700. 0 or -1 (errno). */
int kmag__mkdir_p(const char *path);

/*
 * Creates a fresh private file at @path (mode @mode): whatever is there is
 * removed first and the new file is opened with O_EXCL | O_NOFOLLOW, so a
 * link planted at a predictable name (kmag runs as root, often in /tmp)
 * cannot redirect the write. Returns the fd, or -1 with errno set.
 */
int kmag__create_file(const char *path, mode_t mode);

/* Takes <dir>/<name> exclusively (waiting or not). Returns 0 with *@fd_out set, or -errno. */
int kmag__lock_file(const char *dir, const char *name, bool wait, int *fd_out);
/* Removes and releases a lock taken with kmag__lock_file(); *@fd becomes -1. */
void kmag__unlock_file(const char *dir, const char *name, int *fd);

/*
 * Names in directory @path matching @glob: subdirectories, or with
 * @need_format the subdirectories holding a "format" file (events).
 * NULL-terminated, *@n entries; free with kmag__free_list().
 */
char **kmag__list_dir(const char *path, const char *glob, bool need_format, size_t *n);
void kmag__free_list(char **v, size_t n);

/* True when @word is one of the blank-separated names in @list ("[local] global"). */
bool kmag__word_in(const char *list, const char *word);

#endif /* KMAG_UTIL_FILES_H */
