// SPDX-License-Identifier: MIT
/*
 * shared-opts.c - the parsers of the options several commands share
 * (CLI_INPUT_OPTIONS, CLI_SYMMAP_OPTIONS, --min-duration, --btf, --vmlinux,
 * --errno, --color in cli/cli.h): one parser and one message per option. A
 * value is checked when it is parsed, so a bad one is a usage error before
 * any work.
 */
#include <string.h>

#include "cli.h"
#include "kmag/durations.h"
#include "kmag/errors.h"
#include "kmag/filter.h"
#include "kmag/symmap.h"

/* Checks @arg with @add on a scratch filter, then stores it. */
static int filter_option(void *value, const char *arg, const char *cmd,
			 int (*add)(struct kmag_filter *, const char *, struct kmag_err *))
{
	struct kmag_filter *f = kmag_filter_new();
	struct kmag_err err = { 0 };
	int ret;

	if (!f)
		return cli_error("out of memory");
	ret = add(f, arg, &err);
	kmag_filter_free(f);
	if (ret)
		return cli_usage_error(cmd, "%s", err.msg);
	*(const char **)value = arg;
	return 0;
}

int cli_opt_pids(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	(void)o;
	return filter_option(value, arg, cmd, kmag_filter_add_pids);
}

int cli_opt_comms(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	(void)o;
	return filter_option(value, arg, cmd, kmag_filter_add_comms);
}

int cli_opt_cpus(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	(void)o;
	return filter_option(value, arg, cmd, kmag_filter_add_cpus);
}

int cli_opt_time(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	(void)o;
	return filter_option(value, arg, cmd, kmag_filter_set_time);
}

int cli_opt_reader(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	static const struct cli_option readers = {
		.choices = "auto,builtin,libtracecmd", .noun = "reader",
	};
	static const enum kmag_reader values[] = {
		KMAG_READER_AUTO, KMAG_READER_BUILTIN, KMAG_READER_LIBTRACECMD,
	};
	int i = cli_choice_index(&readers, arg, cmd);

	if (i < 0)
		return EXIT_USAGE;
	*(enum kmag_reader *)value = values[i];
	return 0;
}

int cli_opt_threads(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	unsigned long n;

	(void)o;
	if (!cli_parse_ulong(cmd, "--threads", arg, &n))
		return EXIT_USAGE;
	if (!n || n > KMAG_MAX_THREADS)
		return cli_usage_error(cmd, "--threads expects a number of threads from 1 to %d, got \"%s\"",
				       KMAG_MAX_THREADS, arg);
	*(unsigned *)value = (unsigned)n;
	return 0;
}

int cli_opt_duration(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	uint64_t *ns = value;

	(void)o;
	if (kmag_duration_parse(arg, ns) || !*ns)
		return cli_usage_error(cmd, "--min-duration expects a duration above 0 like 250us, 1.5ms or 2s, got \"%s\"",
				       arg);
	return 0;
}

int cli_opt_overhead(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	unsigned long n;

	(void)o;
	if (!cli_parse_ulong(cmd, "--overhead", arg, &n))
		return EXIT_USAGE;
	if (!n || n > 1000000)
		return cli_usage_error(cmd, "--overhead expects ns per traced call from 1 to 1000000, got \"%s\" (--raw-times: the kernel's durations)",
				       arg);
	*(uint64_t *)value = n;
	return 0;
}

int cli_opt_btf(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	(void)o, (void)cmd;
	if (cli_lacks_feature(KMAG_FEATURE_BTF, "--btf"))
		return EXIT_USAGE;
	*(const char **)value = arg;
	return 0;
}

int cli_opt_vmlinux(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	(void)o, (void)cmd;
	if (cli_lacks_feature(KMAG_FEATURE_LIBDW, "--vmlinux"))
		return EXIT_ERR;
	*(const char **)value = arg;
	return 0;
}

int cli_opt_errno(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	struct kmag_err err = { 0 };
	int e = kmag_errno_parse(arg, &err);

	(void)o;
	if (e < 0)
		return cli_usage_error(cmd, "--errno: %s", err.msg);
	*(int *)value = e;
	return 0;
}

int cli_opt_filepath(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	struct kmag_err err = { 0 };
	struct kmag_pathfilter *f = kmag_pathfilter_new(arg, &err);

	(void)o;
	/* checked now for a usage error; built again once the trace is open */
	if (!f)
		return cli_usage_error(cmd, "--filter-filepath: %s", err.msg);
	kmag_pathfilter_free(f);
	*(const char **)value = arg;
	return 0;
}

int cli_opt_color(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	static const struct cli_option whens = { .choices = "auto,always,never", .noun = "--color" };
	static const enum cli_color values[] = { CLI_COLOR_AUTO, CLI_COLOR_ALWAYS, CLI_COLOR_NEVER };
	int i = cli_choice_index(&whens, arg, cmd);

	if (i < 0)
		return EXIT_USAGE;
	*(enum cli_color *)value = values[i];
	return 0;
}
