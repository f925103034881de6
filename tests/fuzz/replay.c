// SPDX-License-Identifier: MIT
/*
 * replay.c - runs a fuzz target's LLVMFuzzerTestOneInput on files, without
 * libFuzzer, so the corpus and every crash kept in regressions/ are replayed
 * by the normal test suite (and under ASan/valgrind).
 *   fuzz-X-replay FILE|DIR...   (prints TAP)
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int n;

static void run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0, got;

	if (!f) {
		printf("not ok %d - %s (cannot open)\n", ++n, path);
		return;
	}
	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		got = fread(buf + len, 1, cap - len, f);
		if (!got)
			break;
		len += got;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	printf("ok %d - %s\n", ++n, path);
	fflush(stdout);
}

static void run_path(const char *path)
{
	struct stat st;
	struct dirent **list;
	int i, k;

	if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
		run_file(path);
		return;
	}
	k = scandir(path, &list, NULL, alphasort);
	for (i = 0; i < k; i++) {
		char sub[4096];

		if (list[i]->d_name[0] != '.') {
			snprintf(sub, sizeof(sub), "%s/%s", path, list[i]->d_name);
			run_path(sub);
		}
		free(list[i]);
	}
	free(list);
}

int main(int argc, char **argv)
{
	int i;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc; i++)
		run_path(argv[i]);
	printf("1..%d\n", n);
	return 0;
}
