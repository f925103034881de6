// SPDX-License-Identifier: MIT
/*
 * output.c - where commands write: standard output, or a file through
 * kmag_outfile (temporary file + rename, see include/kmag/outfile.h). One set
 * of messages for every command; a write error on standard output is
 * reported once, by cli_stdout_finish(), with its real cause.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "kmag/outfile.h"

static struct kmag_outfile *stdout_wrap;

void cli_stdout_init(void)
{
	bool tty = isatty(STDOUT_FILENO);

	stdout_wrap = kmag_outfile_fd(STDOUT_FILENO, "standard output");
	if (!stdout_wrap)
		return;	/* out of memory at start: plain stdio, causes guessed */
	stdout = kmag_outfile_stream(stdout_wrap);
	/* as stdio would: line-buffered on a terminal (progress stays in step with stderr) */
	setvbuf(stdout, NULL, tty ? _IOLBF : _IOFBF, BUFSIZ);
}

/* Standard output failed (its cause is printed once, at exit). */
static bool stdout_failed(void)
{
	fflush(stdout);
	return stdout_wrap ? kmag_outfile_error(stdout_wrap) != 0 : ferror(stdout) != 0;
}

int cli_stdout_finish(int ret)
{
	int e;

	fflush(stdout);
	if (!stdout_wrap) {
		e = ferror(stdout) ? (errno ? errno : EIO) : 0;
	} else {
		/*
		 * The stream stays stdout until the process ends: libraries
		 * (Graphviz) keep the pointer and flush it from exit handlers.
		 */
		e = kmag_outfile_error(stdout_wrap);
	}
	/* a reader that went away (| head) is not an error of ours */
	if (!e || e == EPIPE)
		return ret;
	cli_error("cannot write to standard output: %s", strerror(e));
	return EXIT_ERR;
}

int cli_out_open(const char *path, struct cli_out *o)
{
	struct kmag_err err = { 0 };

	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		o->name = "standard output";
		return 0;
	}
	o->file = kmag_outfile_open(path, &err);
	if (!o->file)
		return cli_lib_error(&err, "cannot create the output");
	o->f = kmag_outfile_stream(o->file);
	o->name = path;
	return 0;
}

int cli_out_check(const char *path)
{
	struct kmag_err err = { 0 };

	if (!path || !strcmp(path, "-"))
		return 0;
	return kmag_outfile_check(path, NULL, &err) ? cli_lib_error(&err, "cannot create the output") : 0;
}

int cli_out_close(struct cli_out *o, int ret)
{
	struct kmag_err err = { 0 };

	if (!o->f)
		return ret;
	o->f = NULL;
	if (!o->file) {
		/* standard output: main() reports its write error, once */
		if (ret < 0 && stdout_failed())
			return EXIT_ERR;
		if (ret < 0)
			return cli_write_error(o->name, ret);
		return ret;
	}
	if (ret) {
		if (ret < 0 && kmag_outfile_close(o->file, &err))
			ret = cli_lib_error(&err, "cannot write the output");
		else if (ret < 0)
			ret = cli_write_error(o->name, ret);
		kmag_outfile_abort(o->file);
		o->file = NULL;
		return ret;
	}
	ret = kmag_outfile_commit(o->file, &err);
	o->file = NULL;
	return ret ? cli_lib_error(&err, "cannot write the output") : 0;
}

int cli_write_error(const char *name, int ret)
{
	if (ret >= 0)
		return ret;
	if (ret == -ENOMEM)
		return cli_error("out of memory");
	if ((!name || !strcmp(name, "standard output")) && stdout_failed())
		return EXIT_ERR;
	return cli_error("cannot write %s: %s", name ? name : "standard output", strerror(-ret));
}
