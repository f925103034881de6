// SPDX-License-Identifier: MIT
/*
 * t-outfile.c - output files: temporary file + rename, the path untouched on
 * failure, symlinks replaced not followed, devices written in place, the
 * first write error's cause kept (include/kmag/outfile.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "kmag/outfile.h"
#include "test.h"

static char path_buf[4][512];

static const char *tpath(int slot, const char *name)
{
	snprintf(path_buf[slot], sizeof(path_buf[slot]), "%s/%s", test_tmpdir(), name);
	return path_buf[slot];
}

/* The names in the test directory, sorted, space-separated (static). */
static const char *dir_names(void)
{
	static char out[1024];
	struct dirent **list;
	int n, i;

	out[0] = '\0';
	n = scandir(test_tmpdir(), &list, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (strcmp(list[i]->d_name, ".") && strcmp(list[i]->d_name, ".."))
			snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s",
				 out[0] ? " " : "", list[i]->d_name);
		free(list[i]);
	}
	free(list);
	return out;
}

static const char *slurp(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static void clean_dir(void)
{
	struct dirent **list;
	int n, i;

	n = scandir(test_tmpdir(), &list, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (strcmp(list[i]->d_name, ".") && strcmp(list[i]->d_name, ".."))
			unlink(tpath(3, list[i]->d_name));
		free(list[i]);
	}
	free(list);
}

static void new_file_appears_at_commit(void)
{
	struct kmag_err err = { 0 };
	struct kmag_outfile *o;

	clean_dir();
	o = kmag_outfile_open(tpath(0, "out.json"), &err);
	CHECK(o);
	fputs("{}\n", kmag_outfile_stream(o));
	fflush(kmag_outfile_stream(o));
	CHECK(access(tpath(0, "out.json"), F_OK) != 0);	/* not before the commit */
	CHECK(!strncmp(dir_names(), ".out.json.kmag-", 15));
	CHECK_EQ(kmag_outfile_commit(o, &err), 0);
	CHECK_STREQ(slurp(tpath(0, "out.json")), "{}\n");
	CHECK_STREQ(dir_names(), "out.json");
}

static void abort_leaves_the_path(void)
{
	struct kmag_err err = { 0 };
	struct kmag_outfile *o;

	clean_dir();
	write_tmp("keep.csv", "old\n", 4);
	o = kmag_outfile_open(tpath(0, "keep.csv"), &err);
	CHECK(o);
	fputs("new\n", kmag_outfile_stream(o));
	kmag_outfile_abort(o);
	CHECK_STREQ(slurp(tpath(0, "keep.csv")), "old\n");
	CHECK_STREQ(dir_names(), "keep.csv");
}

static void replaced_file_keeps_its_mode(void)
{
	struct kmag_err err = { 0 };
	struct kmag_outfile *o;
	struct stat st;

	clean_dir();
	write_tmp("m.dot", "old\n", 4);
	CHECK_EQ(chmod(tpath(0, "m.dot"), 0640), 0);
	o = kmag_outfile_open(tpath(0, "m.dot"), &err);
	CHECK(o);
	fputs("new\n", kmag_outfile_stream(o));
	CHECK_EQ(kmag_outfile_commit(o, &err), 0);
	CHECK_EQ(stat(tpath(0, "m.dot"), &st), 0);
	CHECK_EQ(st.st_mode & 07777, 0640);
	CHECK_STREQ(slurp(tpath(0, "m.dot")), "new\n");
}

static void symlink_is_replaced_not_followed(void)
{
	struct kmag_err err = { 0 };
	enum kmag_outfile_kind kind = 0;
	struct kmag_outfile *o;
	struct stat st;

	clean_dir();
	write_tmp("target", "precious\n", 9);
	CHECK_EQ(symlink("target", tpath(0, "link.json")), 0);
	CHECK_EQ(kmag_outfile_check(tpath(0, "link.json"), &kind, &err), 0);
	CHECK_EQ(kind, KMAG_OUTFILE_REPLACE);
	o = kmag_outfile_open(tpath(0, "link.json"), &err);
	CHECK(o);
	fputs("new\n", kmag_outfile_stream(o));
	CHECK_EQ(kmag_outfile_commit(o, &err), 0);
	CHECK_EQ(lstat(tpath(0, "link.json"), &st), 0);
	CHECK(S_ISREG(st.st_mode));
	CHECK_STREQ(slurp(tpath(1, "target")), "precious\n");
	CHECK_STREQ(dir_names(), "link.json target");
}

static void devices_are_written_in_place(void)
{
	struct kmag_err err = { 0 };
	enum kmag_outfile_kind kind = 0;

	clean_dir();
	CHECK_EQ(kmag_outfile_check("/dev/null", &kind, &err), 0);
	CHECK_EQ(kind, KMAG_OUTFILE_DEVICE);
	CHECK_EQ(symlink("/dev/null", tpath(0, "null.svg")), 0);
	CHECK_EQ(kmag_outfile_check(tpath(0, "null.svg"), &kind, &err), 0);
	CHECK_EQ(kind, KMAG_OUTFILE_DEVICE);
}

/* A full device of our own (never the machine's /dev/full): the cause survives. */
static void write_error_keeps_its_cause(void)
{
	struct kmag_err err = { 0 };
	struct kmag_outfile *o;
	struct stat st;
	int i;

	clean_dir();
	if (mknod(tpath(0, "full"), S_IFCHR | 0600, makedev(1, 7)))
		return;	/* not root: nothing to test this on */
	o = kmag_outfile_open(tpath(0, "full"), &err);
	CHECK(o);
	for (i = 0; i < 10000; i++)
		fputs("0123456789", kmag_outfile_stream(o));
	CHECK_EQ(kmag_outfile_error(o), ENOSPC);
	CHECK_EQ(kmag_outfile_commit(o, &err), -ENOSPC);
	CHECK(strstr(err.msg, "cannot write ") && strstr(err.msg, "No space left on device"));
	CHECK_EQ(lstat(tpath(0, "full"), &st), 0);
	CHECK(S_ISCHR(st.st_mode));
	unlink(tpath(0, "full"));
}

static void refusals(void)
{
	struct kmag_err err = { 0 };

	clean_dir();
	CHECK(!kmag_outfile_open(test_tmpdir(), &err));
	CHECK_EQ(err.code, EISDIR);
	CHECK(strstr(err.msg, "is a directory"));
	kmag_err_clear(&err);
	CHECK(!kmag_outfile_open(tpath(0, "no/such/dir/x.json"), &err));
	CHECK_EQ(err.code, ENOENT);
	CHECK(!strncmp(err.msg, "cannot create ", 14));
	CHECK_STREQ(dir_names(), "");
}

static void wrapped_descriptor(void)
{
	struct kmag_err err = { 0 };
	struct kmag_outfile *o;
	int fd;

	clean_dir();
	fd = open(tpath(0, "fd.txt"), O_WRONLY | O_CREAT, 0600);
	CHECK(fd >= 0);
	o = kmag_outfile_fd(fd, "standard output");
	CHECK(o);
	CHECK_STREQ(kmag_outfile_name(o), "standard output");
	fputs("via fd\n", kmag_outfile_stream(o));
	CHECK_EQ(kmag_outfile_commit(o, &err), 0);
	CHECK(fcntl(fd, F_GETFD) >= 0);	/* not closed: it is the caller's */
	close(fd);
	CHECK_STREQ(slurp(tpath(0, "fd.txt")), "via fd\n");
}

const struct test_case outfile_tests[] = {
	{ "new_file_appears_at_commit", new_file_appears_at_commit },
	{ "abort_leaves_the_path", abort_leaves_the_path },
	{ "replaced_file_keeps_its_mode", replaced_file_keeps_its_mode },
	{ "symlink_is_replaced_not_followed", symlink_is_replaced_not_followed },
	{ "devices_are_written_in_place", devices_are_written_in_place },
	{ "write_error_keeps_its_cause", write_error_keeps_its_cause },
	{ "refusals", refusals },
	{ "wrapped_descriptor", wrapped_descriptor },
	TEST_LIST_END
};
