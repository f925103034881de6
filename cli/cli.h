/* SPDX-License-Identifier: MIT */
/*
 * cli.h - shared pieces of the kmag command-line front end.
 */
#ifndef KMAG_CLI_H
#define KMAG_CLI_H

#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "kmag/callgraph.h"
#include "kmag/kmag.h"
#include "kmag/session.h"
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

/* Parses a non-negative integer option value; returns false (and reports) on junk. */
bool cli_parse_ulong(const char *cmd, const char *opt, const char *arg, unsigned long *out);

/*
 * The options every command that reads a trace shares (cli/shared-opts.c
 * parses them), declared once for every table (cli/options.h).
 */
int cli_opt_pids(const struct cli_option *o, void *value, const char *arg, const char *cmd);
int cli_opt_comms(const struct cli_option *o, void *value, const char *arg, const char *cmd);
int cli_opt_cpus(const struct cli_option *o, void *value, const char *arg, const char *cmd);
int cli_opt_time(const struct cli_option *o, void *value, const char *arg, const char *cmd);
int cli_opt_reader(const struct cli_option *o, void *value, const char *arg, const char *cmd);
int cli_opt_threads(const struct cli_option *o, void *value, const char *arg, const char *cmd);
/* --min-duration DUR into a uint64_t of nanoseconds (above 0) */
int cli_opt_duration(const struct cli_option *o, void *value, const char *arg, const char *cmd);
int cli_opt_overhead(const struct cli_option *o, void *value, const char *arg, const char *cmd);
/* --btf FILE, where this build reads BTF */
int cli_opt_btf(const struct cli_option *o, void *value, const char *arg, const char *cmd);
/* --vmlinux FILE, where this build reads DWARF */
int cli_opt_vmlinux(const struct cli_option *o, void *value, const char *arg, const char *cmd);
/* --errno ERRNO (a name or a number, kmag_errno_parse()) into an int, positive */
int cli_opt_errno(const struct cli_option *o, void *value, const char *arg, const char *cmd);
/* --filter-filepath SPEC, checked now */
int cli_opt_filepath(const struct cli_option *o, void *value, const char *arg, const char *cmd);
/* --color WHEN into an enum cli_color */
int cli_opt_color(const struct cli_option *o, void *value, const char *arg, const char *cmd);

/*
 * @so: the struct kmag_session_opts member of CLI_ARGS (cli/options.h), where
 * the shared options go: the session (include/kmag/session.h) applies them.
 */
#define CLI_INPUT_OPTIONS(so)                                                                  \
	CLI_INPUT_OPTIONS_TITLED(so, "\nInput selection (the trace FILE \"-\" is standard input):\n")
/* The same under another heading (tui: its keys come from standard input, not a trace). */
#define CLI_INPUT_OPTIONS_TITLED(so, title)                                                    \
	CLI_SECTION(title),                                                                    \
	CLI_OPTION(0, "pid", "PID[,PID...]", cli_opt_pids, so.pids, const char **,              \
		   "only these tasks"),                                                        \
	CLI_OPTION(0, "comm", "NAME[,NAME...]", cli_opt_comms, so.comms, const char **,         \
		   "only tasks with these command names (globs)"),                             \
	CLI_OPTION(0, "cpu", "LIST", cli_opt_cpus, so.cpus, const char **,                      \
		   "only these CPUs (e.g. 0-3,8)"),                                            \
	CLI_OPTION(0, "time", "START,END", cli_opt_time, so.time, const char **,                \
		   "only this time window, in seconds as printed by report\n"                  \
		   "(either side may be empty; prefix +: relative to start)"),                 \
	CLI_OPTION(0, "reader", "auto|builtin|libtracecmd", cli_opt_reader, so.reader,          \
		   enum kmag_reader *, "trace.dat decoder (default: kmag's fast built-in one)"),  \
	CLI_FLAG(0, "strict", so.strict,                                                        \
		 "stop at damaged data with an error, instead of\n"                            \
		 "skipping it with a warning and reading on"),                                 \
	CLI_OPTION(0, "threads", "N", cli_opt_threads, so.threads, unsigned *,                   \
		   "threads that read a trace.dat (default: $KMAG_THREADS,\n"                  \
		   "else one per online CPU); the output is the same"),                        \
	CLI_TIMES_OPTIONS(so)
/*
 * --raw-times, --overhead: the tracer's cost per traced call taken off the
 * durations (kmag_session_opts.raw_times, .overhead_ns)
 */
#define CLI_TIMES_OPTIONS(so)                                                                  \
	CLI_FLAG(0, "raw-times", so.raw_times,                                                  \
		 "the kernel's durations, the tracer's own cost included\n"                     \
		 "(default: less the cost kmag record measured, if any)"),                    \
	CLI_OPTION(0, "overhead", "NS", cli_opt_overhead, so.overhead_ns, uint64_t *,           \
		   "take NS ns off a call's duration per traced call\n"                        \
		   "beneath it (a trace that carries no measured cost:\n"                      \
		   "trace-cmd's; or to override it)")

/* --min-duration, for the commands that show one call graph (report, visualize) */
#define CLI_MIN_DURATION_OPTION(so)                                                            \
	CLI_MIN_DURATION_OPTION_HELP(so, "leave out calls shorter than DUR (250us, 1.5ms, 2s;\n"   \
				     "a bare number is microseconds), with their time and\n"   \
				     "the calls they made, as record --threshold does\n"       \
				     "(function_graph traces)")
#define CLI_MIN_DURATION_OPTION_HELP(so, help)                                                 \
	CLI_OPTION(0, "min-duration", "DUR", cli_opt_duration, so.min_duration_ns, uint64_t *, help)
/* --btf FILE: the kernel's BTF, for the commands that show arguments or return types */
#define CLI_BTF_OPTION(so, help)                                                               \
	CLI_OPTION(0, "btf", "FILE", cli_opt_btf, so.btf_path, const char **, help)
/* --vmlinux FILE: the kernel's DWARF, for call sites as source lines (member @m) */
#define CLI_VMLINUX_OPTION(m, help)                                                            \
	CLI_OPTION(0, "vmlinux", "FILE", cli_opt_vmlinux, m, const char **, help)

/* --errno ERRNO: only the calls that returned -ERRNO (member @m, an int): replay, report, errors */
#define CLI_ERRNO_OPTION(m, help)                                                              \
	CLI_OPTION(0, "errno", "ERRNO", cli_opt_errno, m, int *, help)

/*
 * The trace file operand (if any) into *@path, after the options. 0 or a usage
 * exit code.
 */
int cli_input_arg(const char *cmd, int argc, char **argv, const char **path);

/*
 * The path the readers open for input @path: @path itself, or for "-" a
 * readable copy of standard input (cli/stdin.c). Returns 0, or prints and
 * returns EXIT_ERR.
 */
int cli_input_path(const char *path, const char **open_path);

/*
 * A session (cli/session.c) for @so: made and opened, with "-" read from
 * standard input and warnings printed. Returns 0, or the exit code after the
 * message (EXIT_USAGE for a bad option value).
 */
int cli_session_open(const char *cmd, const struct kmag_session_opts *so,
		     struct kmag_session **out);
/*
 * Reads @s, with the progress line on a terminal (cli/progress.c). Returns 0;
 * the exit code after the message; or a tap's -errno, unprinted, for the
 * caller to explain from its tap.
 */
int cli_session_read(struct kmag_session *s);
/*
 * @filters (a title's, e.g. kmag_session_filters()) followed by the line
 * saying the times are corrected for the tracer's cost (kmag_session_times()),
 * "; "-separated, into @buf of @len bytes. Returns @buf, or @filters when
 * there is no such line.
 */
const char *cli_title_times(const struct kmag_session *s, const char *filters, char *buf,
			    size_t len);
/* cli_session_open() and cli_session_read(); on failure *@out is freed and NULL. */
int cli_session_load(const char *cmd, const struct kmag_session_opts *so,
		     struct kmag_session **out);
/*
 * The node of function @name (as given to option @opt) in @s's graph, into
 * *@node. 0, or an exit code after one line naming similar functions (names
 * that contain it, or small typos of it) or the filters to check.
 */
int cli_find_function(const struct kmag_session *s, const char *opt, const char *name,
		      long *node);
/*
 * Describes the path filter @filepath with counts for @s's graph ("path net
 * (12 of 340 functions)"); "" without a filter.
 */
void cli_describe_path(const struct kmag_session *s, const char *filepath, char *buf, size_t len);
/* Warns about names the symbol map of @s could not place (ambiguous, unknown). */
void cli_warn_sources(const struct kmag_session *s);
/* Appends the lost-events warning for the user, if any, to stderr. */
void cli_warn_lost(const struct kmag_trace_info *info);

/* @so: the struct kmag_session_opts member of CLI_ARGS */
#define CLI_SYMMAP_OPTIONS(so)                                                                 \
	CLI_SECTION("\nSource files (needs a symbol map from `kmag generate-symbol-map`):\n"),      \
	CLI_OPTION(0, "filter-filepath", "P[,P...]", cli_opt_filepath, so.filter_filepath,      \
		   const char **,                                                               \
		 "only functions defined in matching files: a substring\n"                      \
		 "(net), a glob (fs/*/inode.c), '/' anchors at the tree\n"                      \
		 "root (/net: not drivers/net)"),                                               \
	CLI_STRING(0, "symbol-file-path", "MAP", so.symbol_map,                                   \
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
 * The progress line "reading NAME: 2.1 s, 40.1 MB of 96.0 MB, 1.20M events,
 * 570k events/s" while @s reads, on a terminal, once reading takes longer
 * than 1 s (KMAG_PROGRESS_AFTER_MS overrides the delay, for tests): called
 * around kmag_session_read() by cli_session_read().
 */
void cli_progress_start(struct kmag_session *s);
void cli_progress_end(struct kmag_session *s);
/* Takes the progress line off the terminal, if shown, for a message (it comes back with the next). */
void cli_progress_clear(void);

/* The one line for errors views on a trace without return values. */
#define CLI_ERRORS_NEED_RETVAL                                                            \
	"errors needs return values: record with funcgraph-retval (Linux 6.5+, "          \
	"CONFIG_FUNCTION_GRAPH_RETVAL)"

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

/* record-flight.c: `kmag record --flight` */
struct kmag_record_opts;
struct kmag_recorder;
/* "512K", "2M", "1.5G" (KiB, MiB, GiB) or bytes into *@out; a usage error (printed) if not. */
bool cli_parse_size(const char *cmd, const char *opt, const char *arg, uint64_t *out);
struct cli_flight {
	const struct kmag_record_opts *o;
	double seconds;			/* -t, 0 = until stopped */
	bool quiet, tty;
	volatile sig_atomic_t *stop;	/* the signal that stops it */
};
/* Waits for triggers, writes the snapshots, stops. Returns the exit code. */
int cli_record_flight(struct kmag_recorder *r, const struct cli_flight *fl);
/* kmag record --last-boot [-B INSTANCE] -o OUTPUT. Returns the exit code. */
int cli_record_last_boot(const char *instance, const char *output, bool quiet);
/* record-calibrate.c: kmag record --calibrate-only (@base: CPUs, buffer, clock, instance). */
struct kmag_tracer_cost;
int cli_record_calibrate_only(const struct kmag_record_opts *base);
/* "PREFIX312 ns per traced call (quartiles ...)\n" to @f. */
void cli_print_tracer_cost(FILE *f, const struct kmag_tracer_cost *c, const char *prefix);
int cmd_merge(struct kmag_cli *cli, int argc, char **argv);
int cmd_errors(struct kmag_cli *cli, int argc, char **argv);

#endif /* KMAG_CLI_H */
