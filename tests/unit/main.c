// SPDX-License-Identifier: MIT
/*
 * main.c - runs every unit-test suite, each test in a forked child, as TAP.
 * Usage: kmag-unit [SUBSTRING]   (only tests whose suite/name contains it)
 */
#include <stdarg.h>
#include <sys/wait.h>

#include "test.h"

#define SUITE(s) extern const struct test_case s[];
#include "suites.h"
#undef SUITE

static const struct {
	const char *name;
	const struct test_case *cases;
} suites[] = {
#define SUITE(s) { #s, s },
#include "suites.h"
#undef SUITE
};

static char tmpdir[256];

void test_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	printf("# %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	_exit(1);
}

#define EXIT_SKIP 77	/* a child's exit status for a skipped test */

void test_skip(const char *reason)
{
	FILE *f;

	/* the parent reads the reason back before it removes the directory */
	f = fopen(write_tmp(".skip", "", 0), "w");
	if (f) {
		fprintf(f, "this kmag was built without %s", reason);
		fclose(f);
	}
	fflush(stdout);
	_exit(EXIT_SKIP);
}

/* The reason a skipped test left in @dir (static buffer). */
static const char *skip_reason(const char *dir)
{
	static char buf[256];
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/.skip", dir);
	buf[0] = '\0';
	f = fopen(path, "r");
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	return buf;
}

const char *fixture(const char *rel)
{
	static char buf[4096];
	const char *base = getenv("KMAG_FIXTURES");

	snprintf(buf, sizeof(buf), "%s/%s", base ? base : "tests/fixtures", rel);
	return buf;
}

const char *fixture_unpacked(const char *rel)
{
	static char out[512];
	char cmd[sizeof(out) + 4096 + 32];	/* fixture()'s buffer, out and the words */
	const char *base = strrchr(rel, '/');

	base = base ? base + 1 : rel;
	if (strlen(base) < 3 || strcmp(base + strlen(base) - 3, ".xz"))
		return fixture(rel);
	snprintf(out, sizeof(out), "%s/%.*s", tmpdir, (int)(strlen(base) - 3), base);
	snprintf(cmd, sizeof(cmd), "xz -dc '%s' > '%s'", fixture(rel), out);
	if (system(cmd))
		test_skip("xz is not installed");
	return out;
}

const char *test_tmpdir(void)
{
	return tmpdir;
}

const char *write_tmp(const char *name, const void *data, size_t len)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f))
		test_fail(__FILE__, __LINE__, "cannot write %s", path);
	return path;
}

static void rm_rf(const char *dir)
{
	char cmd[600];

	/* the directory name is ours (mkdtemp), not user input */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", dir);
}

int main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : NULL;
	int total = 0, failed = 0, n = 0;
	size_t s;

	for (s = 0; s < sizeof(suites) / sizeof(suites[0]); s++)
		for (const struct test_case *t = suites[s].cases; t->name; t++) {
			char full[256];

			snprintf(full, sizeof(full), "%s/%s", suites[s].name, t->name);
			if (!only || strstr(full, only))
				total++;
		}
	printf("1..%d\n", total);
	for (s = 0; s < sizeof(suites) / sizeof(suites[0]); s++) {
		for (const struct test_case *t = suites[s].cases; t->name; t++) {
			char full[256];
			int status;
			pid_t pid;

			snprintf(full, sizeof(full), "%s/%s", suites[s].name, t->name);
			if (only && !strstr(full, only))
				continue;
			n++;
			snprintf(tmpdir, sizeof(tmpdir), "/tmp/kmag-unit-XXXXXX");
			if (!mkdtemp(tmpdir)) {
				perror("mkdtemp");
				return 1;
			}
			fflush(stdout);
			pid = fork();
			if (pid == 0) {
				t->fn();
				fflush(stdout);
				_exit(0);
			}
			waitpid(pid, &status, 0);
			if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_SKIP) {
				printf("ok %d - %s # SKIP %s\n", n, full, skip_reason(tmpdir));
			} else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
				printf("ok %d - %s\n", n, full);
			} else {
				failed++;
				if (WIFSIGNALED(status))
					printf("# killed by signal %d\n", WTERMSIG(status));
				printf("not ok %d - %s\n", n, full);
			}
			rm_rf(tmpdir);
		}
	}
	return failed ? 1 : 0;
}
