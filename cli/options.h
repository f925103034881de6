/* SPDX-License-Identifier: MIT */
/*
 * options.h - every command's options as one table (cli/options.c): each
 * entry gives the option's names, how its value is parsed and where it is
 * stored, and its --help line, so an option is declared once, as git's
 * parse-options and uftrace's option table do. The options several commands
 * share are declared once (CLI_INPUT_OPTIONS, CLI_SYMMAP_OPTIONS, ... in
 * cli/cli.h) and put in each command's table. The man pages stay prose
 * (tests/e2e/t0040 checks that they list the same options as --help).
 *
 * A table is constant data next to the command's struct of parsed values:
 * each entry stores into a member of it, named by the file's CLI_ARGS:
 *
 *	struct diff_args { const char *output; bool all; struct kmag_session_opts so; };
 *	#define CLI_ARGS struct diff_args
 *	static const struct cli_option diff_options[] = {
 *		CLI_SECTION("\nOutput:\n"),
 *		CLI_STRING('o', "output", "PATH", output, "where to write"),
 *		CLI_FLAG(0, "all", all, "also the unchanged ones"),
 *		CLI_INPUT_OPTIONS(so),
 *		CLI_END,
 *	};
 *	ret = cli_parse(&diff_cmd, argc, argv, diff_options, &args);
 *
 * The member's type is checked against the parser's at compile time.
 * --help prints the command's usage text, then the table in order: a section
 * as written, an option as "  -o, --output PATH" with its help from column 28
 * (on the next line when the names are longer), the help's further lines at
 * column 28, -h/--help where CLI_HELP_OPTION stands (else last), the footer.
 */
#ifndef KMAG_CLI_OPTIONS_H
#define KMAG_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct cli_option;

/*
 * Parses one value (@arg; NULL for a flag) of option @o of command @cmd into
 * @value (the member the entry names). Returns 0, or an exit code after
 * printing the message.
 */
typedef int (*cli_opt_parse_fn)(const struct cli_option *o, void *value, const char *arg,
				const char *cmd);

enum cli_opt_kind {
	CLI_OPT_END = 0,
	CLI_OPT_OPTION,		/* an option */
	CLI_OPT_ALIAS,		/* another long name of the option before it, shown after it */
	CLI_OPT_HIDDEN,		/* another long name of the option before it, not shown */
	CLI_OPT_TEXT,		/* help text as written (a section title) */
	CLI_OPT_NOTE,		/* help text, every line at the help column */
	CLI_OPT_OPERAND,	/* an operand shown like an option ("-- COMMAND"), not parsed */
	CLI_OPT_HELP,		/* -h, --help */
};

struct cli_option {
	enum cli_opt_kind kind;
	int short_name;			/* 'o', or 0 */
	const char *long_name;		/* "output", or NULL */
	const char *arg;		/* the value's name in --help ("PATH"); NULL: a flag */
	const char *help;		/* lines after the first start at the help column */
	cli_opt_parse_fn parse;		/* stores the value (see the cli_opt_* parsers) */
	size_t value;			/* offset of the value in the command's struct */
	size_t given;			/* 1 + offset of a bool set when the option is given; 0: none */
	/* cli_opt_ulong: the accepted range (max 0: any), and the message outside it
	   (a printf format that may use the value once, as %s) */
	unsigned long min, max;
	const char *range_msg;
	/* cli_opt_choice, cli_opt_word: the accepted words ("auto,builtin,libtracecmd")
	   and their noun in the message: unknown reader "x" (choose auto, ...) */
	const char *choices;
	const char *noun;
};

/* The stock parsers, by the member's type. */
int cli_opt_true(const struct cli_option *o, void *value, const char *arg, const char *cmd);	/* bool */
int cli_opt_string(const struct cli_option *o, void *value, const char *arg, const char *cmd);	/* const char * */
int cli_opt_ulong(const struct cli_option *o, void *value, const char *arg, const char *cmd);	/* unsigned long */
int cli_opt_choice(const struct cli_option *o, void *value, const char *arg, const char *cmd);	/* int: the index */
int cli_opt_word(const struct cli_option *o, void *value, const char *arg, const char *cmd);	/* const char *: arg */
/*
 * The index of @arg among o->choices, or -1 after the usage error "unknown
 * <noun> "x" (choose a, b or c)": for parsers of choices stored otherwise.
 */
int cli_choice_index(const struct cli_option *o, const char *arg, const char *cmd);

/*
 * Offset of member @m of CLI_ARGS, which must have type @type: comparing the
 * pointers warns ("distinct pointer types") when it does not.
 */
#define CLI_AT(m, type) (offsetof(CLI_ARGS, m) + 0 * sizeof((type)0 == &((CLI_ARGS *)0)->m))
/* The whole struct, for parsers that need more than one member. */
#define CLI_WHOLE 0

/* An option of parser @fn storing into member @m of type @type. */
#define CLI_OPTION(s, l, a, fn, m, type, h)                                                \
	{ .kind = CLI_OPT_OPTION, .short_name = (s), .long_name = (l), .arg = (a),         \
	  .help = (h), .parse = (fn), .value = CLI_AT(m, type) }
/* The same, also setting bool member @g when the option is given. */
#define CLI_OPTION_GIVEN(s, l, a, fn, m, type, g, h)                                       \
	{ .kind = CLI_OPT_OPTION, .short_name = (s), .long_name = (l), .arg = (a),         \
	  .help = (h), .parse = (fn), .value = CLI_AT(m, type), .given = 1 + CLI_AT(g, bool *) }
/* A parser of the command's own that gets the whole struct. */
#define CLI_CALLBACK(s, l, a, fn, h)                                                       \
	{ .kind = CLI_OPT_OPTION, .short_name = (s), .long_name = (l), .arg = (a),         \
	  .help = (h), .parse = (fn), .value = CLI_WHOLE }

#define CLI_FLAG(s, l, m, h) CLI_OPTION(s, l, NULL, cli_opt_true, m, bool *, h)
#define CLI_STRING(s, l, a, m, h) CLI_OPTION(s, l, a, cli_opt_string, m, const char **, h)
#define CLI_ULONG(s, l, a, m, h) CLI_OPTION(s, l, a, cli_opt_ulong, m, unsigned long *, h)
#define CLI_ULONG_GIVEN(s, l, a, m, g, h)                                                  \
	CLI_OPTION_GIVEN(s, l, a, cli_opt_ulong, m, unsigned long *, g, h)
/* A number from @lo to @hi (@hi 0: no upper bound); @msg when outside. */
#define CLI_ULONG_RANGE(s, l, a, m, lo, hi, msg, h)                                        \
	{ .kind = CLI_OPT_OPTION, .short_name = (s), .long_name = (l), .arg = (a),         \
	  .help = (h), .parse = cli_opt_ulong, .value = CLI_AT(m, unsigned long *),          \
	  .min = (lo), .max = (hi), .range_msg = (msg) }
/* One of the comma-separated words @list, stored as its index (an int). */
#define CLI_CHOICE(s, l, a, m, list, what, h)                                              \
	{ .kind = CLI_OPT_OPTION, .short_name = (s), .long_name = (l), .arg = (a),         \
	  .help = (h), .parse = cli_opt_choice, .value = CLI_AT(m, int *),                   \
	  .choices = (list), .noun = (what) }
#define CLI_CHOICE_GIVEN(s, l, a, m, list, what, g, h)                                     \
	{ .kind = CLI_OPT_OPTION, .short_name = (s), .long_name = (l), .arg = (a),         \
	  .help = (h), .parse = cli_opt_choice, .value = CLI_AT(m, int *),                   \
	  .given = 1 + CLI_AT(g, bool *), .choices = (list), .noun = (what) }
/* One of the words @list, stored as the word itself (argv). */
#define CLI_WORD(s, l, a, m, list, what, h)                                                \
	{ .kind = CLI_OPT_OPTION, .short_name = (s), .long_name = (l), .arg = (a),         \
	  .help = (h), .parse = cli_opt_word, .value = CLI_AT(m, const char **),             \
	  .choices = (list), .noun = (what) }
/* -F, --format: one of @list ("text,json"), stored as the word. */
#define CLI_FORMAT(a, m, list, h) CLI_WORD('F', "format", a, m, list, "format", h)

/* Another name of the option before, shown after it ("--reverse, --inverted"). */
#define CLI_ALIAS(l) { .kind = CLI_OPT_ALIAS, .long_name = (l) }
/* Another name of the option before, not shown (--colour). */
#define CLI_HIDDEN_ALIAS(l) { .kind = CLI_OPT_HIDDEN, .long_name = (l) }
#define CLI_SECTION(text) { .kind = CLI_OPT_TEXT, .help = (text) }
#define CLI_NOTE(text) { .kind = CLI_OPT_NOTE, .help = (text) }
#define CLI_OPERAND(text, h) { .kind = CLI_OPT_OPERAND, .arg = (text), .help = (h) }
/* -h, --help, shown here */
#define CLI_HELP_OPTION                                                                    \
	{ .kind = CLI_OPT_HELP, .short_name = 'h', .long_name = "help",                    \
	  .help = "show this help" }
#define CLI_END { .kind = CLI_OPT_END }

/* A command's --help around its table. */
struct cli_command {
	const char *name;	/* "report" */
	const char *usage;	/* the text before the options ("Usage: kmag report ...") */
	const char *footer;	/* the text after them, or NULL */
	bool operands_end;	/* options end at the first operand (record -- COMMAND) */
};

/*
 * Parses @argv (argv[0] is the command) against @opts (ending with CLI_END)
 * into @args (the table's CLI_ARGS): long options only under their whole
 * names, each value through its entry's parser. Operands are left from
 * optind on. Returns 0; -1 after printing --help; or EXIT_USAGE (an unknown
 * option, a missing value) or the parser's exit code, after the message.
 */
int cli_parse(const struct cli_command *cmd, int argc, char **argv,
	      const struct cli_option *opts, void *args);
/* Writes @cmd's --help (usage, the table, footer) to @f. */
void cli_usage(const struct cli_command *cmd, const struct cli_option *opts, FILE *f);

#endif /* KMAG_CLI_OPTIONS_H */
