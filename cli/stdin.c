// SPDX-License-Identifier: MIT
/*
 * stdin.c - "-" as the input trace: standard input.
 *
 * The readers open a path and seek in it (trace.dat sections, libtracecmd),
 * so a pipe is first copied into an unnamed temporary file (O_TMPFILE in
 * $TMPDIR, removed by the kernel when kmag exits) and read through
 * /proc/self/fd; a redirected regular file is read in place.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static char stdin_path[64];

/* A copy of all of standard input in an unnamed file; its descriptor, or -1 (errno set). */
static int copy_stdin(void)
{
	const char *dir = getenv("TMPDIR");
	char buf[1 << 16];
	int fd, e;

	fd = open(dir && *dir ? dir : "/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0)
		fd = memfd_create("kmag-stdin", MFD_CLOEXEC);	/* no O_TMPFILE there */
	if (fd < 0)
		return -1;
	for (;;) {
		ssize_t n = read(STDIN_FILENO, buf, sizeof(buf)), w = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!n)
				return fd;
			break;
		}
		while (w < n) {
			ssize_t k = write(fd, buf + w, (size_t)(n - w));

			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0)
				goto fail;
			w += k;
		}
	}
fail:
	e = errno ? errno : EIO;
	close(fd);
	errno = e;
	return -1;
}

int cli_input_path(const char *path, const char **open_path)
{
	struct stat st;
	int fd;

	*open_path = path;
	if (strcmp(path, "-"))
		return 0;
	if (stdin_path[0]) {	/* already copied (one standard input per run) */
		*open_path = stdin_path;
		return 0;
	}
	if (isatty(STDIN_FILENO))
		return cli_error("the trace is read from standard input (\"-\"), which is a terminal; pipe or redirect a trace into kmag");
	if (!fstat(STDIN_FILENO, &st) && S_ISREG(st.st_mode)) {
		fd = STDIN_FILENO;
	} else {
		fd = copy_stdin();
		if (fd < 0)
			return cli_error("cannot read the trace from standard input: %s", strerror(errno));
	}
	if (!fstat(fd, &st) && st.st_size == 0) {
		if (fd != STDIN_FILENO)
			close(fd);
		return cli_error("standard input (\"-\") is empty: no trace to read");
	}
	snprintf(stdin_path, sizeof(stdin_path), "/proc/self/fd/%d", fd);
	*open_path = stdin_path;
	return 0;
}
