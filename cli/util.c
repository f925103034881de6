// SPDX-License-Identifier: MIT
/*
 * util.c - error printing and small option helpers for the CLI.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("kmag: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_ERR;
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	fputs("kmag: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "kmag %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see 'kmag %s --help')\n", cmd);
	return EXIT_USAGE;
}

int cli_lib_error(const struct kmag_err *err, const char *fallback)
{
	if (err && err->code && err->msg[0])
		return cli_error("%s", err->msg);
	return cli_error("%s", fallback);
}

bool cli_lacks_feature(enum kmag_feature f, const char *what)
{
	struct kmag_err err = { 0 };

	if (!kmag_need_feature(f, what, &err))
		return false;
	cli_lib_error(&err, "a library this kmag was built without");
	return true;
}

bool cli_parse_ulong(const char *cmd, const char *opt, const char *arg, unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (!*arg || *end || errno || arg[0] == '-') {
		cli_usage_error(cmd, "%s expects a non-negative number, got \"%s\"", opt, arg);
		return false;
	}
	*out = v;
	return true;
}
