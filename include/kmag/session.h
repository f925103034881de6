/* SPDX-License-Identifier: MIT */
/*
 * session.h - one reading of a trace or a profile, and everything computed
 * from it: how every kmag command reads.
 *
 * A session opens its input (a trace, or a profile of sums), the kernel's
 * BTF (--btf, else the one a trace.dat stores) and DWARF (vmlinux) where
 * asked, the symbol map of the trace's kernel, and builds the shared filters
 * (tasks, command names, CPUs, a time window, a minimum duration, source
 * paths). Reading drives every event through the filters into the one
 * replay (replay.h), which the session owns; the views asked for in
 * kmag_session_opts.views subscribe to it and are owned by the session: the
 * call graph, its calling-context tree, one graph per task, the slowest
 * calls, where errors were born, each function's sampled calls, argument
 * summaries, call sites, probe hits. A consumer that prints while reading
 * (kmag replay, the Chrome export) taps the filtered events instead.
 *
 *	struct kmag_session_opts o = { .path = "trace.dat", .views = { .graph = true } };
 *	struct kmag_session *s = kmag_session_new(&o, &err);
 *	if (!s || kmag_session_open(s, &err) || kmag_session_read(s, &err))
 *		... err.msg says why ...
 *	... kmag_session_graph(s), kmag_session_symtab(s), kmag_session_info(s) ...
 *	kmag_session_free(s);
 *
 * Threads, buffers and their lifetimes belong to the session: opts.threads
 * says how many read (kmag_session_threads()). Every view's result is the
 * same, byte for byte, with any number of them.
 */
#ifndef KMAG_SESSION_H
#define KMAG_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "callgraph.h"
#include "callsample.h"
#include "cgsplit.h"
#include "event.h"
#include "kmag.h"
#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kmag_session;
struct kmag_argstats;
struct kmag_callsites;
struct kmag_errors;
struct kmag_probes;
struct kmag_slowest;
struct kmag_srclines;
struct kmag_srcloc;
struct kmag_pathfilter;

/* What a session computes while it reads; each result has its kmag_session_*() below. */
struct kmag_session_views {
	bool graph;		/* the call graph: kmag_session_graph() */
	bool call_paths;	/* with its calling-context tree (flame graphs, scoped graphs) */
	bool paths_optional;	/* call paths where the input has them: a profile's sums do */
	bool split;		/* one call graph per task or command name: kmag_session_split() */
	enum kmag_split_key split_key;
	bool probes;		/* hits of probe events (trace.dat only): kmag_session_probes() */
	size_t slowest;		/* the N longest calls: kmag_session_slowest(); 0 = none */
	bool errors;		/* where errors were born: kmag_session_errors() */
	bool calls;		/* each function's sampled calls: kmag_session_calls() */
	const struct kmag_callsample_opts *calls_opts;	/* NULL: the defaults */
	const char *const *args;	/* argument summaries, "FUNC:ARG": kmag_session_argstats() */
	size_t nr_args;
	bool callsites;		/* call sites per caller and callee: kmag_session_callsites() */
	bool durations;		/* the graph keeps each function's durations (kmag_cg_node_dist()) */
	/*
	 * The views of single calls (calls, errors, callsites) see only the calls
	 * made under this function (kmag_call_under()); NULL: every call. The
	 * graph is the whole trace's: kmag_cg_new_scoped() scopes it.
	 */
	const char *root;
};

struct kmag_session_opts {
	/*
	 * The trace or profile to read: trace.dat, ftrace text, or a kmag
	 * profile (report --format json, merge); NULL: ./trace.dat, else the
	 * seed's ./kernel-magnifier.data.
	 */
	const char *path;
	const char *name;	/* how messages name the input ("standard input"); NULL: @path */
	const char *what;	/* the reader, as messages name it ("report"); NULL: "kmag" */
	enum kmag_reader reader;
	/* Order across CPUs is not needed (faster; only for sums of a function tracer's calls). */
	bool unordered;
	/* The shared filters, in kmag_filter_add_*()'s syntax; NULL: none. */
	const char *pids, *comms, *cpus, *time;
	uint64_t min_duration_ns;	/* leave out calls shorter than this, with their calls */
	/*
	 * Positive: only the calls that returned -errnum (kmag_errno_parse()):
	 * the call graph counts those calls alone (kmag_cg_opts.errnum), the
	 * errors view only their origins (kmag_errors_set_errno()). Reading
	 * fails (ENODATA) on a trace without return values, and (ENOENT) when
	 * no call returned it, naming the errors its calls did return.
	 */
	int errnum;
	const char *btf_path;		/* the kernel's BTF; NULL: the one a trace.dat stores */
	const char *vmlinux;		/* the kernel's DWARF, for call-site lines; NULL: none */
	/*
	 * Source files: look up a symbol map (@symbol_map, else
	 * kmag_symmap_default_path() of the trace's kernel, else the files a
	 * profile names) for file:line; @filter_filepath (kmag_pathfilter_new()
	 * syntax) keeps only functions defined in matching files and needs a map.
	 */
	bool symbols;
	const char *symbol_map;
	const char *filter_filepath;
	/*
	 * Threads that read: 1, the calling thread alone; 0, the default:
	 * $KMAG_THREADS when set, else the online CPUs. A v7 trace.dat's zstd
	 * chunks are decompressed on them; all else is read by one.
	 */
	unsigned threads;
	/*
	 * The command shows more than function calls (report's summary of the
	 * trace, the Chrome and Perfetto exports' other events, merge's sums):
	 * a trace without any is no error (kmag_session_no_calls() says what it
	 * holds instead). Otherwise kmag_session_read() fails on it, saying so.
	 */
	bool calls_optional;
	/*
	 * Damaged data (kmag_trace_damage()): false: read past it, and warn
	 * after reading with the places and totals; true: stop at the first
	 * place with its error (kmag_trace_set_strict()).
	 */
	bool strict;
	/*
	 * The tracer's cost per traced call (replay.h, kmag_session_times()):
	 * a trace.dat that kmag record calibrated carries it, and every call's
	 * duration is corrected by it. @raw_times: the kernel's durations;
	 * @overhead_ns (0: none) applies this cost instead, to any trace.
	 */
	bool raw_times;
	uint64_t overhead_ns;
	struct kmag_session_views views;
	kmag_warn_fn warn;	/* warnings while opening and reading; NULL: logged */
	void *warn_ctx;
};

/*
 * A session for @o (copied; its strings are borrowed and must outlive the
 * session). Checks the options without opening anything. Returns a session
 * to free with kmag_session_free(), or NULL with @err set: EINVAL for a bad
 * option value (the message names the option), ENOMEM.
 */
struct kmag_session *kmag_session_new(const struct kmag_session_opts *o, struct kmag_err *err);
/* Frees @s, its input, views and results (accepts NULL). */
void kmag_session_free(struct kmag_session *s);

/*
 * Opens the input, the BTF, the vmlinux and the symbol map, and makes the
 * views (they need the input's function names). Returns 0, or -errno with
 * @err set: the input cannot be read, a profile where events are needed,
 * --filter-filepath without a map, ENOMEM.
 */
int kmag_session_open(struct kmag_session *s, struct kmag_err *err);

/*
 * Also hands every event that passes the filters to @fn(@ev, @ctx), in time
 * order per task, before the views see it (set after kmag_session_open(),
 * before kmag_session_read()): for consumers that write while reading. @fn
 * returns 0, a positive value to end the reading early (not an error), or
 * -errno to fail it. At most 4 taps. Returns 0 or -ENOSPC.
 */
int kmag_session_tap(struct kmag_session *s, kmag_event_fn fn, void *ctx);

/*
 * Makes kmag_session_read() call @fn (NULL: no more) every few thousand
 * events, for a progress display (kmag_trace_set_progress()).
 */
void kmag_session_set_progress(struct kmag_session *s, kmag_trace_progress_fn fn, void *ctx);

/*
 * Reads every event into the views (once) and finishes them; warns
 * (opts.warn) with the damaged places read past, if any. Returns 0, or
 * -errno: with @err set when the input or a view failed, or when nothing is
 * left to show, each said with what the trace holds instead: the filters let
 * no event through (ENOENT), --min-duration no call (ENOENT: the longest
 * call is named), --filter-filepath no function of the graph (ENOENT), the
 * trace holds no function calls (ENODATA: its other events are named, and
 * the commands that show them; unless opts.calls_optional), an argument
 * summary's function has no call or no such argument (ENOENT: the names it
 * has, and similar ones); with @err untouched (code 0) when a tap failed,
 * for the caller to explain from the tap. A profile's sums become the graph
 * at once.
 */
int kmag_session_read(struct kmag_session *s, struct kmag_err *err);

/* ---- what was read; all borrowed, valid until kmag_session_free() ---- */

/*
 * The threads opts.threads comes to (0 resolved), or 0 with @err set when
 * $KMAG_THREADS is not a number from 1 to KMAG_MAX_THREADS.
 */
unsigned kmag_session_threads(const struct kmag_session_opts *o, struct kmag_err *err);

/* The input as messages name it ("trace.dat", "standard input"). */
const char *kmag_session_name(const struct kmag_session *s);
/* The open input: a trace, or a profile (format KMAG_INPUT_PROFILE). NULL before open. */
struct kmag_trace *kmag_session_trace(const struct kmag_session *s);
const struct kmag_trace_info *kmag_session_info(const struct kmag_session *s);
/* The input's function names. */
struct kmag_symtab *kmag_session_symtab(const struct kmag_session *s);
/*
 * The filters that applied, for titles: "cpu 1, calls >= 20.000 us (12
 * shorter calls left out)"; "" for none. Complete after kmag_session_read().
 */
const char *kmag_session_filters(const struct kmag_session *s);

/*
 * When the reading passed no function call (after the filters): one line
 * saying what the trace holds instead, its other events by name, and which
 * commands show them, as kmag_session_read() fails with unless
 * opts.calls_optional; NULL when there were calls. Borrowed, valid until
 * kmag_session_free().
 */
const char *kmag_session_no_calls(const struct kmag_session *s);

/*
 * The node of the function a user named @name (to option @opt, "--root") in
 * the call graph, into *@node: the exact name, else its one compiler clone
 * ("name.isra.0"). Returns 0, or -ENOENT with @err saying so and naming the
 * graph's functions that contain @name or look like it ("did you mean").
 */
int kmag_session_find_function(const struct kmag_session *s, const char *opt, const char *name,
			       long *node, struct kmag_err *err);

/*
 * The tracer's cost per traced call taken off the durations (replay.h), in
 * ns, 0 for none; and the header line that says so, "times corrected for
 * the tracer's cost: 312 ns per traced call (measured at record time: 298
 * to 330 ns over 15 rounds)", "" for none. Set by kmag_session_open().
 */
uint64_t kmag_session_tracer_cost(const struct kmag_session *s);
const char *kmag_session_times(const struct kmag_session *s);

/* The views asked for in opts.views (NULL when not asked, or not for this input). */
struct kmag_cg *kmag_session_graph(const struct kmag_session *s);
const struct kmag_cg_split *kmag_session_split(const struct kmag_session *s);
/* NULL also for text traces: only trace.dat files describe probe events. */
struct kmag_probes *kmag_session_probes(const struct kmag_session *s);
struct kmag_slowest *kmag_session_slowest(const struct kmag_session *s);
struct kmag_errors *kmag_session_errors(const struct kmag_session *s);
struct kmag_callsample *kmag_session_calls(const struct kmag_session *s);
struct kmag_argstats *kmag_session_argstats(const struct kmag_session *s);
struct kmag_callsites *kmag_session_callsites(const struct kmag_session *s);

/*
 * Replaces the call graph with @cg (owned by the session from now on; the
 * old one is freed), e.g. with kmag_cg_new_scoped()'s graph of one root.
 */
void kmag_session_set_graph(struct kmag_session *s, struct kmag_cg *cg);

/* Where the return types of the errors view came from ("BTF of FILE"), NULL: none. */
const char *kmag_session_types_from(const struct kmag_session *s);
/* opts.vmlinux's source lines, or NULL. */
struct kmag_srclines *kmag_session_srclines(const struct kmag_session *s);
/* The source files of the input's functions (opts.symbols), or NULL without a map. */
struct kmag_srcloc *kmag_session_srcloc(const struct kmag_session *s);
/* opts.filter_filepath, parsed, or NULL. */
const struct kmag_pathfilter *kmag_session_pathfilter(const struct kmag_session *s);
/* The symbol map in use, as messages name it, or NULL. */
const char *kmag_session_symbol_map(const struct kmag_session *s);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_SESSION_H */
