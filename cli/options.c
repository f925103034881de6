// SPDX-License-Identifier: MIT
/*
 * options.c - the one option parser of every command (cli/options.h): a
 * command's table of options turned into getopt_long()'s, parsed without
 * getopt's abbreviations, each value through its entry's parser, one
 * message (with a suggestion) for an option a command does not take, and
 * --help written from the same table.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"

/* The option table of the command being parsed, and what cli_getopt() refused. */
static const struct option *cur_longopts;
static char refused[128];

/*
 * getopt_long() without its abbreviations: a long option counts only under
 * its whole name, so "--cpu" is never taken for "--cpumask". An abbreviation
 * is returned as '?' for cli_bad_option().
 */
static int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts)
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
	if (kmag_suggest(word, names, n, "--", list, sizeof(list)))
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

/*
 * Reports the option cli_getopt() rejected (opterr is 0, so getopt itself
 * stays quiet), with the command's similar long options as a suggestion.
 * Returns EXIT_USAGE.
 */
static int cli_bad_option(const char *cmd, int opt, char **argv)
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

bool cli_color_on(enum cli_color c, bool tty)
{
	const char *no = getenv("NO_COLOR");

	/* https://no-color.org: a set, non-empty NO_COLOR turns the default off */
	if (c == CLI_COLOR_AUTO)
		return tty && !(no && *no);
	return c == CLI_COLOR_ALWAYS;
}

/* ---- tables ---- */

/* The option @o's name for messages: "--limit", or "-M" where it has no long name. */
static const char *opt_name(const struct cli_option *o, char *buf, size_t size)
{
	if (o->long_name)
		snprintf(buf, size, "--%s", o->long_name);
	else
		snprintf(buf, size, "-%c", o->short_name);
	return buf;
}

int cli_opt_true(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	(void)o, (void)arg, (void)cmd;
	*(bool *)value = true;
	return 0;
}

int cli_opt_string(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	(void)o, (void)cmd;
	*(const char **)value = arg;
	return 0;
}

int cli_opt_ulong(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	char name[64];
	unsigned long v;

	if (!cli_parse_ulong(cmd, opt_name(o, name, sizeof(name)), arg, &v))
		return EXIT_USAGE;
	if (o->range_msg && (v < o->min || (o->max && v > o->max)))
		/* the message may name the value (%s) or not: an unused argument is harmless */
		return cli_usage_error(cmd, o->range_msg, arg);
	*(unsigned long *)value = v;
	return 0;
}

int cli_choice_index(const struct cli_option *o, const char *arg, const char *cmd)
{
	const char *p = o->choices;
	char can[160];
	int i;

	for (i = 0; *p; i++) {
		size_t n = strcspn(p, ",");

		if (strlen(arg) == n && !strncmp(p, arg, n))
			return i;
		p += n + (p[n] == ',');
	}
	cli_say_list(o->choices, can, sizeof(can));
	cli_usage_error(cmd, "unknown %s \"%s\" (choose %s)", o->noun, arg, can);
	return -1;
}

int cli_opt_choice(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	int i = cli_choice_index(o, arg, cmd);

	if (i < 0)
		return EXIT_USAGE;
	*(int *)value = i;
	return 0;
}

int cli_opt_word(const struct cli_option *o, void *value, const char *arg, const char *cmd)
{
	if (cli_choice_index(o, arg, cmd) < 0)
		return EXIT_USAGE;
	*(const char **)value = arg;
	return 0;
}

/* The help column: an option's help starts there, on the line of its names if they fit. */
#define HELP_COL 28

/* Lines of @text (NULL: none), each after @indent columns; the first after @first instead. */
static void put_lines(FILE *f, const char *text, const char *first, int indent)
{
	const char *p = text;

	if (!p)
		return;
	while (*p) {
		int n = (int)strcspn(p, "\n");

		if (first) {
			fprintf(f, "%s%.*s\n", first, n, p);
			first = NULL;
		} else {
			fprintf(f, "%*s%.*s\n", indent, "", n, p);
		}
		p += n + (p[n] == '\n');
	}
}

/* "  -o, --output, --image-name FILE" and its help, for the option at @opts[i]. */
static void put_option(FILE *f, const struct cli_option *opts, size_t i)
{
	const struct cli_option *o = &opts[i];
	char spec[256], first[HELP_COL + sizeof(spec) + 2];
	size_t n = 0, j;

#define ADD(...) (n += (size_t)snprintf(spec + n, n < sizeof(spec) ? sizeof(spec) - n : 0, __VA_ARGS__))
	if (o->kind == CLI_OPT_OPERAND) {
		ADD("  %s", o->arg);
	} else {
		if (o->short_name)
			ADD("  -%c%s", o->short_name, o->long_name ? ", " : "");
		else
			ADD("      ");
		if (o->long_name)
			ADD("--%s", o->long_name);
		for (j = i + 1; opts[j].kind == CLI_OPT_ALIAS || opts[j].kind == CLI_OPT_HIDDEN; j++)
			if (opts[j].kind == CLI_OPT_ALIAS)
				ADD(", --%s", opts[j].long_name);
		if (o->arg)
			ADD(" %s", o->arg);
	}
#undef ADD
	if (n >= sizeof(spec))
		n = sizeof(spec) - 1;
	if (!o->help) {
		fprintf(f, "%s\n", spec);
		return;
	}
	if (n < HELP_COL) {
		snprintf(first, sizeof(first), "%-*s", HELP_COL, spec);
	} else {
		fprintf(f, "%s\n", spec);
		snprintf(first, sizeof(first), "%*s", HELP_COL, "");
	}
	put_lines(f, o->help, first, HELP_COL);
}

static const struct cli_option help_option = CLI_HELP_OPTION;

static bool is_help(const struct cli_option *o)
{
	return o->kind == CLI_OPT_HELP;
}

void cli_usage(const struct cli_command *cmd, const struct cli_option *opts, FILE *f)
{
	bool help_shown = false;
	size_t i;

	fputs(cmd->usage, f);
	for (i = 0; opts[i].kind != CLI_OPT_END; i++) {
		switch (opts[i].kind) {
		case CLI_OPT_TEXT:
			fputs(opts[i].help, f);
			break;
		case CLI_OPT_NOTE:
			put_lines(f, opts[i].help, NULL, HELP_COL);
			break;
		case CLI_OPT_OPTION:
		case CLI_OPT_OPERAND:
		case CLI_OPT_HELP:
			help_shown |= is_help(&opts[i]);
			put_option(f, opts, i);
			break;
		default:
			break;
		}
	}
	if (!help_shown)
		put_option(f, &help_option, 0);
	if (cmd->footer)
		fputs(cmd->footer, f);
}

/* getopt_long()'s value for the table's entry @i (short options return their letter) */
#define ENTRY_VAL(i) (0x1000 + (int)(i))

static bool is_option(const struct cli_option *o)
{
	return o->kind == CLI_OPT_OPTION || o->kind == CLI_OPT_HELP;
}

/* The option entry an alias belongs to: the last option before it. */
static size_t owner_of(const struct cli_option *opts, size_t i)
{
	while (i > 0 && !is_option(&opts[i]))
		i--;
	return i;
}

/* getopt_long()'s tables for @opts, into *@longopts (free it) and @shortopts. 0 or -ENOMEM. */
static int getopt_tables(const struct cli_command *cmd, const struct cli_option *opts,
			 struct option **longopts, char *shortopts, size_t size)
{
	size_t i, n = 0, s = 0;
	struct option *lo;

	for (i = 0; opts[i].kind != CLI_OPT_END; i++)
		;
	lo = calloc(i + 2, sizeof(*lo));
	if (!lo)
		return -ENOMEM;
	if (cmd->operands_end)
		shortopts[s++] = '+';
	shortopts[s++] = ':';
	for (i = 0; opts[i].kind != CLI_OPT_END; i++) {
		const struct cli_option *o = &opts[i], *owner = &opts[owner_of(opts, i)];
		int has_arg = owner->arg ? required_argument : no_argument;

		if (!is_option(o) && o->kind != CLI_OPT_ALIAS && o->kind != CLI_OPT_HIDDEN)
			continue;
		if (o->long_name)
			lo[n++] = (struct option){ o->long_name, has_arg, NULL,
						   ENTRY_VAL(owner - opts) };
		if (is_option(o) && o->short_name && s + 3 < size) {
			shortopts[s++] = (char)o->short_name;
			if (o->arg)
				shortopts[s++] = ':';
		}
	}
	for (i = 0; opts[i].kind != CLI_OPT_END && !is_help(&opts[i]); i++)
		;
	if (opts[i].kind == CLI_OPT_END && s + 2 < size) {	/* -h, --help everywhere */
		lo[n++] = (struct option){ "help", no_argument, NULL, 'h' };
		shortopts[s++] = 'h';
	}
	shortopts[s] = '\0';
	*longopts = lo;
	return 0;
}

/* The entry getopt returned @opt for (a letter or ENTRY_VAL()), or NULL for -h. */
static const struct cli_option *entry_of(const struct cli_option *opts, int opt)
{
	size_t i;

	if (opt >= ENTRY_VAL(0))
		return &opts[opt - ENTRY_VAL(0)];
	for (i = 0; opts[i].kind != CLI_OPT_END; i++)
		if (is_option(&opts[i]) && opts[i].short_name == opt)
			return &opts[i];
	return NULL;
}

int cli_parse(const struct cli_command *cmd, int argc, char **argv,
	      const struct cli_option *opts, void *args)
{
	struct option *longopts = NULL;
	char shortopts[160];
	int opt, ret = 0;

	if (getopt_tables(cmd, opts, &longopts, shortopts, sizeof(shortopts)))
		return cli_error("out of memory");
	while (!ret && (opt = cli_getopt(argc, argv, shortopts, longopts)) != -1) {
		const struct cli_option *o = opt == '?' || opt == ':' ? NULL : entry_of(opts, opt);

		if (!o && opt == 'h') {
			o = &help_option;
		} else if (!o) {
			ret = cli_bad_option(cmd->name, opt, argv);
			break;
		}
		if (is_help(o)) {
			cli_usage(cmd, opts, stdout);
			ret = -1;
			break;
		}
		if (o->given)
			*(bool *)((char *)args + o->given - 1) = true;
		ret = o->parse(o, (char *)args + o->value, o->arg ? optarg : NULL, cmd->name);
	}
	cur_longopts = NULL;
	free(longopts);
	return ret;
}
