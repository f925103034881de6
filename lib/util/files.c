// SPDX-License-Identifier: MIT
/*
 * files.c - small file-system helpers: state directories, private files,
 * lock files, directory listings. Used by the recorder and the stack tracer.
 */
#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "util/files.h"

int kmag__mkdir_p(const char *path)
{
	char *p = strdup(path), *s;
	int ret = 0;

	if (!p)
		return -1;
	for (s = p + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST)
			ret = -1;
		*s = '/';
		if (ret)
			break;
	}
	if (!ret && mkdir(p, 0700) && errno != EEXIST)
		ret = -1;
	free(p);
	return ret;
}

int kmag__create_file(const char *path, mode_t mode)
{
	if (unlink(path) && errno != ENOENT)
		return -1;
	return open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
}

int kmag__lock_file(const char *dir, const char *name, bool wait, int *fd_out)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB))) {
		int e = errno;

		close(fd);
		return -e;
	}
	*fd_out = fd;
	return 0;
}

void kmag__unlock_file(const char *dir, const char *name, int *fd)
{
	char path[4096];

	if (*fd < 0)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
	close(*fd);
	*fd = -1;
}

char **kmag__list_dir(const char *path, const char *glob, bool need_format, size_t *n)
{
	char **v = NULL;
	size_t cap = 0;
	struct dirent *de;
	DIR *d = opendir(path);

	*n = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		char sub[4096];
		struct stat st;

		if (de->d_name[0] == '.' || fnmatch(glob, de->d_name, 0))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s%s", path, de->d_name, need_format ? "/format" : "");
		if (stat(sub, &st) || (need_format ? !S_ISREG(st.st_mode) : !S_ISDIR(st.st_mode)))
			continue;
		if (kmag__grow(&v, &cap, *n + 2, sizeof(*v)) || !(v[*n] = strdup(de->d_name)))
			break;
		v[++*n] = NULL;
	}
	closedir(d);
	return v;
}

void kmag__free_list(char **v, size_t n)
{
	while (n)
		free(v[--n]);
	free(v);
}

bool kmag__word_in(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		bool start = p == list || p[-1] == ' ' || p[-1] == '[' || p[-1] == '\n';
		char end = p[n];

		if (start && (end == '\0' || end == ' ' || end == ']' || end == '\n'))
			return true;
		p += n;
	}
	return false;
}
