// SPDX-License-Identifier: MIT
/*
 * options.c - the one option parser of every command: getopt_long() without
 * its abbreviations, and one message (with a suggestion) for an option a
 * command does not take.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The option table of the command being parsed, and what cli_getopt() refused. */
static const struct option *cur_longopts;
static char refused[128];

int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts)
{
	const char *text, *name;
	int idx = -1, opt, k;
	size_t len;

	cur_longopts = longopts;
	refused[0] = '\0';
	opt = getopt_long(argc, argv, shortopts, longopts, &idx);
	if (opt == -1 || idx < 0)
		return opt;
	/*
	 * getopt_long() takes any unambiguous prefix of a long option ("--cpu"
	 * for "--cpumask" where only the latter exists), so a command that lacks
	 * an option silently reads it as another one. Only whole names count:
	 * find the word that named the option (before its separate value, if any).
	 */
	k = optind - 1;
	if (longopts[idx].has_arg != no_argument && optarg && k > 0 && optarg == argv[k])
		k--;
	text = k > 0 ? argv[k] : "";
	if (strncmp(text, "--", 2))
		return opt;
	name = text + 2;
	len = strcspn(name, "=");
	if (len == strlen(longopts[idx].name) && !strncmp(name, longopts[idx].name, len))
		return opt;
	snprintf(refused, sizeof(refused), "--%.*s", (int)(len < 100 ? len : 100), name);
	optopt = 0;
	return '?';
}

/* Edit distance of two short strings (insert, delete, substitute; 0..n). */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, row[64];

	if (la >= 63 || lb >= 63)
		return 99;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

/* Is @cand close enough to @word to suggest it: a prefix, or a small typo? */
static bool similar(const char *word, const char *cand)
{
	size_t lw = strlen(word), d;

	if (!lw)
		return false;
	if (!strncmp(cand, word, lw) || (strlen(cand) >= 3 && !strncmp(word, cand, strlen(cand))))
		return true;
	d = edit_distance(word, cand);
	return d <= 1 || (d <= 2 && lw >= 5);
}

size_t cli_suggest(const char *word, const char *const *names, size_t n, const char *prefix,
		   char *buf, size_t size)
{
	size_t i, found = 0, len = 0;

	buf[0] = '\0';
	for (i = 0; i < n && found < 4; i++) {
		if (!similar(word, names[i]))
			continue;
		len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "%s%s%s",
					found ? ", " : "", prefix, names[i]);
		if (len >= size)
			len = size - 1;
		found++;
	}
	return found;
}

/* " (did you mean --cpu?)" for the unknown long option @text, or "". */
static void suggest_long(const char *text, char *buf, size_t size)
{
	const char *names[128];
	char word[128], list[400];
	size_t n = 0;

	buf[0] = '\0';
	if (!cur_longopts || strncmp(text, "--", 2))
		return;
	snprintf(word, sizeof(word), "%.*s", (int)strcspn(text + 2, "="), text + 2);
	for (n = 0; n < 128 && cur_longopts[n].name; n++)
		names[n] = cur_longopts[n].name;
	if (cli_suggest(word, names, n, "--", list, sizeof(list)))
		snprintf(buf, size, "; did you mean %s?", list);
}

/* Whether the command being parsed has long option --@name. */
static bool has_longopt(const char *name)
{
	size_t i;

	for (i = 0; cur_longopts && cur_longopts[i].name; i++)
		if (!strcmp(cur_longopts[i].name, name))
			return true;
	return false;
}

int cli_bad_option(const char *cmd, int opt, char **argv)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "?";
	char hint[450];

	if (opt == ':')
		return cli_usage_error(cmd, "option \"%s\" needs a value", arg);
	if (refused[0]) {
		/* an abbreviation cli_getopt() refused */
		arg = refused;
	} else if (optopt && optopt != '?' && strncmp(arg, "--", 2)) {
		/* -n is record's --notrace (trace-cmd's flag): the analysis commands spell out --limit */
		if (optopt == 'n' && has_longopt("limit"))
			return cli_usage_error(cmd, "unknown option \"-n\" (-n is record's --notrace); use --limit N");
		return cli_usage_error(cmd, "unknown option \"-%c\"", optopt);
	}
	suggest_long(arg, hint, sizeof(hint));
	/* --time is a window in every command: a duration is --record-time */
	if (!strncmp(arg, "--time", strcspn(arg, "=")) && strcspn(arg, "=") == 6 &&
	    has_longopt("record-time"))
		snprintf(hint, sizeof(hint), " (--time is a time window); use --record-time SEC");
	return cli_usage_error(cmd, "unknown option \"%.*s\"%s", (int)strcspn(arg, "="), arg, hint);
}

int cli_color_option(const char *cmd, const char *arg, enum cli_color *out)
{
	if (!strcmp(arg, "auto"))
		*out = CLI_COLOR_AUTO;
	else if (!strcmp(arg, "always"))
		*out = CLI_COLOR_ALWAYS;
	else if (!strcmp(arg, "never"))
		*out = CLI_COLOR_NEVER;
	else
		return cli_usage_error(cmd, "unknown --color \"%s\" (choose auto, always or never)", arg);
	return 0;
}

bool cli_color_on(enum cli_color c, bool tty)
{
	const char *no = getenv("NO_COLOR");

	/* https://no-color.org: a set, non-empty NO_COLOR turns the default off */
	if (c == CLI_COLOR_AUTO)
		return tty && !(no && *no);
	return c == CLI_COLOR_ALWAYS;
}

int cli_shared_option(const char *cmd, int opt, char **argv, const struct cli_shared *sh)
{
	int ret = 0;

	if (opt == OPT_COLOR && sh->color)
		return cli_color_option(cmd, optarg, sh->color);
	if (sh->in)
		ret = cli_input_option(cmd, opt, optarg, sh->in);
	if (!ret && sh->sm)
		ret = cli_symmap_option(cmd, opt, optarg, sh->sm);
	if (ret < 0)
		return EXIT_USAGE;
	return ret ? 0 : cli_bad_option(cmd, opt, argv);
}
