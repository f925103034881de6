/* SPDX-License-Identifier: MIT */
/*
 * cli.h - shared pieces of the kmag command-line front end.
 */
#ifndef KMAG_CLI_H
#define KMAG_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "kmag/callgraph.h"
#include "kmag/filter.h"
#include "kmag/kmag.h"
#include "kmag/symmap.h"
#include "kmag/trace.h"
#include "options.h"

struct kmag_outfile;

/* Exit codes. */
#define EXIT_OK 0
#define EXIT_ERR 1
#define EXIT_USAGE 2

struct kmag_cli {
	const char *argv0;
	int verbose;		/* -v count */
	bool stdout_tty;
	bool stderr_tty;
};

/* Prints "kmag: <msg>" to stderr; returns EXIT_ERR. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "kmag: warning: <msg>" to stderr. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "kmag <cmd>: <msg>" plus a hint to see --help; returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints an error from the library (err->msg), returns EXIT_ERR. */
int cli_lib_error(const struct kmag_err *err, const char *fallback);
/*
 * False when this build has feature @f; otherwise prints "kmag: <what> needs
 * <library>: ... (apt install <package>, then rebuild)" and returns true.
 */
bool cli_lacks_feature(enum kmag_feature f, const char *what);

/*
 * Up to four of the @n @names similar to @word (a prefix of it, or a small
 * typo), each after @prefix, as "a, b" in @buf. Returns how many.
 */
size_t cli_suggest(const char *word, const char *const *names, size_t n, const char *prefix,
		   char *buf, size_t size);

/* Parses a non-negative integer option value; returns false (and reports) on junk. */
bool cli_parse_ulong(const char *cmd, const char *opt, const char *arg, unsigned long *out);

/* Options shared by every command that reads a trace (CLI_INPUT_OPTIONS). */
struct cli_input {
	const char *path;	/* NULL = default */
	const char *pids, *comms, *cpus, *time;
	enum kmag_reader reader;
	bool unordered;		/* the consumer does not need time order */
	bool build_cct;
	bool cct_optional;	/* build_cct for traces; a profile without call paths is fine */
	/* called once the trace is open, before its events are read; returns 0 or an exit code */
	int (*after_open)(void *ctx, struct kmag_trace *t);
	void *after_open_ctx;
	/* cli_load_graph(): also sees every event that reaches the call graph, before it */
	kmag_event_fn tap;
	void *tap_ctx;
	/* called once the graph exists, before the first event: other views subscribe to its replay */
	int (*with_graph)(void *ctx, struct kmag_cg *cg);
	void *with_graph_ctx;
	uint64_t min_duration_ns;	/* cli_load_graph(): drop calls shorter than this (0 = keep) */
	const char *btf_path;	/* --btf FILE (CLI_BTF_OPTION), or NULL */
};

/*
 * The options every command that reads a trace shares (cli/shared-opts.c
 * parses them), declared once for every table (cli/options.h).
 */
int cli_opt_pids(const struct cli_option *o, void *value, const char *arg, const char *cmd);
int cli_opt_comms(const struct cli_option *o, void *value, const char *arg, const char *cmd);
int cli_opt_cpus(const struct cli_option *o, void *value, const char *arg, const char *cmd);
int cli_opt_time(const struct cli_option *o, void *value, const char *arg, const char *cmd);
int cli_opt_reader(const struct cli_option *o, void *value, const char *arg, const char *cmd);
/* --min-duration DUR into a uint64_t of nanoseconds (above 0) */
int cli_opt_duration(const struct cli_option *o, void *value, const char *arg, const char *cmd);
/* --btf FILE, where this build reads BTF */
int cli_opt_btf(const struct cli_option *o, void *value, const char *arg, const char *cmd);
/* --vmlinux FILE, where this build reads DWARF */
int cli_opt_vmlinux(const struct cli_option *o, void *value, const char *arg, const char *cmd);
/* --filter-filepath SPEC, checked now */
int cli_opt_filepath(const struct cli_option *o, void *value, const char *arg, const char *cmd);
/* --color WHEN into an enum cli_color */
int cli_opt_color(const struct cli_option *o, void *value, const char *arg, const char *cmd);

/* Members of CLI_ARGS (cli/options.h): @in is its struct cli_input */
#define CLI_INPUT_OPTIONS(in)                                                                  \
	CLI_SECTION("\nInput selection (the trace FILE \"-\" is standard input):\n"),            \
	CLI_OPTION(0, "pid", "PID[,PID...]", cli_opt_pids, in.pids, const char **,              \
		   "only these tasks"),                                                        \
	CLI_OPTION(0, "comm", "NAME[,NAME...]", cli_opt_comms, in.comms, const char **,         \
		   "only tasks with these command names (globs)"),                             \
	CLI_OPTION(0, "cpu", "LIST", cli_opt_cpus, in.cpus, const char **,                      \
		   "only these CPUs (e.g. 0-3,8)"),                                            \
	CLI_OPTION(0, "time", "START,END", cli_opt_time, in.time, const char **,                \
		   "only this time window, in seconds as printed by report\n"                  \
		   "(either side may be empty; prefix +: relative to start)"),                 \
	CLI_OPTION(0, "reader", "auto|builtin|libtracecmd", cli_opt_reader, in.reader,          \
		   enum kmag_reader *, "trace.dat decoder (default: kmag's fast built-in one)")

/* --min-duration, for the commands that show one call graph (report, visualize) */
#define CLI_MIN_DURATION_OPTION(in)                                                            \
	CLI_MIN_DURATION_OPTION_HELP(in, "leave out calls shorter than DUR (250us, 1.5ms, 2s;\n"   \
				     "a bare number is microseconds), with their time and\n"   \
				     "the calls they made, as record --threshold does\n"       \
				     "(function_graph traces)")
#define CLI_MIN_DURATION_OPTION_HELP(in, help)                                                 \
	CLI_OPTION(0, "min-duration", "DUR", cli_opt_duration, in.min_duration_ns, uint64_t *, help)
/* --btf FILE: the kernel's BTF, for the commands that show arguments or return types */
#define CLI_BTF_OPTION(in, help)                                                               \
	CLI_OPTION(0, "btf", "FILE", cli_opt_btf, in.btf_path, const char **, help)
/* --vmlinux FILE: the kernel's DWARF, for call sites as source lines (member @m) */
#define CLI_VMLINUX_OPTION(m, help)                                                            \
	CLI_OPTION(0, "vmlinux", "FILE", cli_opt_vmlinux, m, const char **, help)

struct kmag_btf;
/*
 * Once @t is open: loads --btf (without it, nothing) into *@out (free with
 * kmag_btf_free() after closing @t) and gives it to @t (kmag_trace_set_btf()).
 * Returns 0 or an exit code (message printed).
 */
int cli_input_btf(const struct cli_input *in, struct kmag_trace *t, struct kmag_btf **out);

/*
 * The path the readers open for input @path: @path itself, or for "-" a
 * readable copy of standard input (cli/stdin.c). Returns 0, or prints and
 * returns EXIT_ERR.
 */
int cli_input_path(const char *path, const char **open_path);

/* The default input when none is given: ./trace.dat, else the seed's kernel-magnifier.data. */
const char *cli_default_input(void);

/* A trace read into a call graph. */
struct cli_graph {
	struct kmag_trace *trace;
	struct kmag_cg *cg;
	struct kmag_filter *filter;
	const char *path;
	char filters[512];	/* description of the filters applied */
	struct kmag_btf *btf;	/* --btf, or NULL */
};

/*
 * Builds the filter of @in's --pid/--comm/--cpu/--time options into *@out
 * (owned by the caller: kmag_filter_free()). Returns 0, or prints the error
 * and returns EXIT_USAGE (bad syntax) or EXIT_ERR (out of memory).
 */
int cli_input_filter(const char *cmd, const struct cli_input *in, struct kmag_filter **out);

/*
 * Opens @in, reads it through the filters into a finished call graph. On
 * failure prints the error and returns EXIT_ERR (EXIT_USAGE for bad filter
 * syntax); on success 0.
 */
int cli_load_graph(const char *cmd, const struct cli_input *in, struct cli_graph *g);
void cli_graph_release(struct cli_graph *g);
/* After the options: the one trace file argument (if any) into @in. 0 or a usage exit code. */
int cli_input_arg(const char *cmd, int argc, char **argv, struct cli_input *in);
/*
 * The node of function @name (as given to option @opt) in @g's graph, into
 * *@node. 0, or an exit code after one line naming similar functions (names
 * that contain it, or small typos of it) or the filters to check.
 */
int cli_find_function(const struct cli_graph *g, const char *opt, const char *name, long *node);

/*
 * After a trace was read through the non-empty filter @f (described by
 * @desc): 0 when some event matched, else prints that none did and what
 * the trace holds (time range, CPUs, the busiest tasks) and returns EXIT_ERR.
 */
int cli_filter_matched(const char *path, const struct kmag_filter *f, const char *desc,
		       const struct kmag_trace *t);

/* Appends the lost-events warning for the user, if any, to stderr. */
void cli_warn_lost(const struct kmag_trace_info *info);

/*
 * Symbol-map options shared by the commands that show functions:
 * --symbol-file-path MAP (default: kmag_symmap_default_path() for the trace's
 * kernel) and --filter-filepath SPEC. Put CLI_SYMMAP_OPTIONS in the option
 * table and set cli_input.after_open = cli_symmap_after_open with the struct
 * as context.
 */
struct cli_symmap {
	const char *cmd;		/* command name, for messages */
	const char *map_path;		/* --symbol-file-path, NULL = default lookup */
	const char *filepath;		/* --filter-filepath, or NULL */
	struct kmag_pathfilter *filter;	/* parsed --filter-filepath */
	struct kmag_symmap *map;	/* the map in use, or NULL */
	struct kmag_srcloc *loc;	/* the trace's functions in the map, or NULL */
	const char *used;		/* path of the map in use (borrowed or static) */
};

/* @sm: the struct cli_symmap member of CLI_ARGS */
#define CLI_SYMMAP_OPTIONS(sm)                                                                 \
	CLI_SECTION("\nSource files (needs a symbol map from `kmag generate-symbol-map`):\n"),      \
	CLI_OPTION(0, "filter-filepath", "P[,P...]", cli_opt_filepath, sm.filepath,              \
		   const char **,                                                               \
		 "only functions defined in matching files: a substring\n"                      \
		 "(net), a glob (fs/*/inode.c), '/' anchors at the tree\n"                      \
		 "root (/net: not drivers/net)"),                                               \
	CLI_STRING(0, "symbol-file-path", "MAP", sm.map_path,                                   \
		   "the symbol map (kmag or the seed's name|path format;\n"                     \
		   "default: $KMAG_SYMBOL_MAP, ./kernel-magnifier.map,\n"                        \
		   "./symbol-filepath.map or\n"                                                  \
		   "~/.cache/kmag/symbols-<kernel release>.map)")


/* --color=auto|always|never, for every command that colours its output. */
enum cli_color { CLI_COLOR_AUTO = 0, CLI_COLOR_ALWAYS, CLI_COLOR_NEVER };
/* @c: the enum cli_color member of CLI_ARGS */
#define CLI_COLOR_OPTION(c)                                                                    \
	CLI_OPTION(0, "color", "auto|always|never", cli_opt_color, c, enum cli_color *,         \
		 "colour the output (default auto: on a terminal, unless\n"                     \
		 "the NO_COLOR environment variable is set)"),                                   \
	CLI_HIDDEN_ALIAS("colour")
/* Whether to colour output going to a terminal (@tty) or not, honouring NO_COLOR. */
bool cli_color_on(enum cli_color c, bool tty);

/*
 * Parses --filter-filepath and loads the map for kernel @release (NULL:
 * unknown); warns when the map is for another kernel ("the map is for X but
 * @for_what @release"). No map and no filter is fine (s->map stays NULL).
 * Returns 0 or an exit code, the error printed.
 */
int cli_symmap_load(struct cli_symmap *s, const char *release, const char *for_what);
/* cli_input.after_open hook: loads the map for the trace's kernel (@ctx = struct cli_symmap). */
int cli_symmap_after_open(void *ctx, struct kmag_trace *t);
/* Describes the path filter with counts for @g's nodes ("path net (12 of 340 functions)"). */
void cli_symmap_describe(const struct cli_symmap *s, const struct cli_graph *g, char *buf,
			 size_t len);
/* Warns about names the map could not place (ambiguous, unknown). */
void cli_symmap_warn(const struct cli_symmap *s);
void cli_symmap_release(struct cli_symmap *s);

/*
 * Hits of dynamic probes on functions, for the annotations of visualize and
 * html: set cli_input.after_open = cli_probe_hits_after_open (it calls
 * cli_symmap_after_open() on @sm first, if set) and cli_input.tap =
 * cli_probe_hits_tap, both with the struct as context; then pass
 * cli_probe_hits_of as a probe_hits callback.
 */
struct kmag_probes;
struct cli_probe_hits {
	struct cli_symmap *sm;		/* borrowed, or NULL */
	struct kmag_probes *probes;	/* owned; NULL for text traces */
};

int cli_probe_hits_after_open(void *ctx, struct kmag_trace *t);
int cli_probe_hits_tap(const struct kmag_event *ev, void *ctx);
uint64_t cli_probe_hits_of(void *ctx, kmag_func_t func);
/* The trace holds probe events. */
bool cli_probe_hits_any(const struct cli_probe_hits *p);
void cli_probe_hits_release(struct cli_probe_hits *p);

/* A trace opened through the input options, for commands that stream events. */
struct cli_stream {
	struct kmag_trace *trace;
	struct kmag_filter *filter;
	const char *path;
	char filters[512];	/* description of the filters applied, "" for none */
	struct kmag_btf *btf;	/* --btf, or NULL */
};

/*
 * Opens the trace of @in (running in->after_open) and prepares its filters.
 * On failure prints the error and returns EXIT_ERR (EXIT_USAGE for bad filter
 * syntax); else 0.
 */
int cli_stream_open(const char *cmd, const struct cli_input *in, struct cli_stream *s);
/*
 * Streams the events that pass the filters to @fn. Returns 0; EXIT_ERR after
 * printing a reader error; or the callback's own -errno, unprinted, for the
 * caller to explain.
 */
int cli_stream_read(struct cli_stream *s, kmag_event_fn fn, void *ctx);
void cli_stream_close(struct cli_stream *s);

/*
 * Outputs (cli/output.c). Standard output is wrapped at start so a write
 * error keeps its cause; cli_stdout_finish() reports it once at exit.
 */
void cli_stdout_init(void);
/* Flushes standard output; returns @ret, or EXIT_ERR after printing a write error. */
int cli_stdout_finish(int ret);

/* One output of a command: standard output or a file (kmag_outfile rules). */
struct cli_out {
	FILE *f;			/* where to write; NULL once closed */
	const char *name;		/* path, or "standard output" */
	struct kmag_outfile *file;	/* NULL for standard output */
};

/* Opens @path (NULL or "-": standard output). Returns 0, or prints and returns EXIT_ERR. */
int cli_out_open(const char *path, struct cli_out *o);
/* Checks @path could be opened (before work starts); 0, or prints and returns EXIT_ERR. */
int cli_out_check(const char *path);
/*
 * Ends @o with the writer's result @ret: 0 puts the file in place; -errno
 * (unprinted) reports "cannot write NAME: cause" once; a positive exit code
 * (already printed) is returned. A failed file is removed, the path left as
 * it was. Returns the exit code.
 */
int cli_out_close(struct cli_out *o, int ret);
/*
 * Reports a writer's -errno for output @name (NULL: standard output) once,
 * with the cause (a failed standard output is left to cli_stdout_finish()).
 * A positive @ret is returned as is. Returns the exit code.
 */
int cli_write_error(const char *name, int ret);

/*
 * Whether output option @option (as spelled in --help, "--table") of @cmd
 * works with output format @format (cli/formats.c holds the one table).
 * Returns 0, or prints the usage error and returns EXIT_USAGE.
 */
int cli_format_check(const char *cmd, const char *option, const char *format);

/* "text,json" -> "text or json"; "csv,json,dot" -> "csv, json or dot" */
void cli_say_list(const char *list, char *buf, size_t len);

/*
 * The output @path's extension against the format (cli/formats.c has the one
 * extension table): with *@format set, refuses a name that says another
 * format ("-F dot -o d.svg"); with *@format NULL, picks the format the name
 * says among @supported ("text,json"), refusing names of formats @cmd cannot
 * write; unknown extensions change nothing. Returns 0 or EXIT_USAGE (printed).
 */
int cli_output_format(const char *cmd, const char *path, const char *supported,
		      const char **format);

/*
 * The live line on a terminal and its numbers (cli/progress.c), shared by
 * record's line and the progress of reading a trace.
 */
/* 1234567 -> "1.2 MB" (powers of 1000) */
void cli_human_bytes(char *buf, size_t size, double b);
/* 1234567 -> "1.23M" */
void cli_human_count(char *buf, size_t size, double n);
/* 1234567 -> "1,234,567" */
void cli_group_digits(char *buf, size_t size, uint64_t n);

struct cli_live {
	double last_t;		/* time and count of the last rate sample */
	uint64_t last_n;
	double rate;		/* per second, over the last 0.5 s or more */
	bool have_rate;
	bool shown;		/* the line is on the terminal */
};
/* Updates @lv's rate with count @n at time @t (seconds); returns whether a rate is known. */
bool cli_live_rate(struct cli_live *lv, double t, uint64_t n);
/* Replaces the live line on stderr with "kmag: <fmt ...>" (no newline). */
void cli_live_show(struct cli_live *lv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Erases the live line, if shown, so normal output starts on a clean line. */
void cli_live_clear(struct cli_live *lv);

/* Whether reading a trace may show its progress line (stderr is a terminal); set by main(). */
void cli_progress_init(bool stderr_tty);
/*
 * kmag_trace_read() with, on a terminal, a progress line "reading NAME: 2.1 s,
 * 40.1 MB of 96.0 MB, 1.20M events, 570k events/s" once reading takes longer
 * than 1 s (KMAG_PROGRESS_AFTER_MS overrides the delay, for tests), erased
 * before returning. @name is the input as the user named it.
 */
int cli_trace_read(struct kmag_trace *t, const char *name, kmag_event_fn fn, void *ctx,
		   struct kmag_err *err);

/* The one line for errors views on a trace without return values. */
#define CLI_ERRORS_NEED_RETVAL                                                            \
	"errors needs return values: record with funcgraph-retval (Linux 6.5+, "          \
	"CONFIG_FUNCTION_GRAPH_RETVAL)"

/*
 * Return types for an errors view (kmag errors, report --errors): the BTF
 * cli_input_btf() gave @t (--btf @btf_path, else the one the trace.dat
 * stores). ->from says which for the output (NULL: none, types unknown).
 * Returns 0 or an exit code (printed).
 */
struct kmag_errors;
struct cli_errors_types {
	const char *from;
	char buf[300];
};
int cli_errors_use_types(struct cli_errors_types *ty, struct kmag_errors *e,
			 struct kmag_trace *t, const char *btf_path);

/* Commands. */
int cmd_report(struct kmag_cli *cli, int argc, char **argv);
int cmd_visualize(struct kmag_cli *cli, int argc, char **argv);
int cmd_generate_symbol_map(struct kmag_cli *cli, int argc, char **argv);
int cmd_flame(struct kmag_cli *cli, int argc, char **argv);
int cmd_export(struct kmag_cli *cli, int argc, char **argv);
int cmd_html(struct kmag_cli *cli, int argc, char **argv);
int cmd_diff(struct kmag_cli *cli, int argc, char **argv);
int cmd_stack(struct kmag_cli *cli, int argc, char **argv);
int cmd_replay(struct kmag_cli *cli, int argc, char **argv);
int cmd_tui(struct kmag_cli *cli, int argc, char **argv);
int cmd_record(struct kmag_cli *cli, int argc, char **argv);
int cmd_merge(struct kmag_cli *cli, int argc, char **argv);
int cmd_errors(struct kmag_cli *cli, int argc, char **argv);

#endif /* KMAG_CLI_H */
