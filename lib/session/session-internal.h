/* SPDX-License-Identifier: MIT */
/*
 * session-internal.h - struct kmag_session (include/kmag/session.h) and the
 * steps of a session the files of lib/session/ share. Internal.
 */
#ifndef KMAG_SESSION_INTERNAL_H
#define KMAG_SESSION_INTERNAL_H

#include "internal.h"
#include "kmag/replay.h"
#include "kmag/session.h"
#include "kmag/symmap.h"

#define SESSION_MAX_TAPS 4
#define SESSION_EVENT_KINDS 8	/* other events counted by name, for messages */

/* What reached the views and taps, to say what a trace holds when it shows nothing. */
struct session_seen {
	uint64_t calls;		/* function tracer records, function_graph entries and exits */
	uint64_t other;		/* other events (tracepoints, probes) */
	struct {
		const char *system, *name;	/* borrowed from the trace */
		uint64_t count;
	} kinds[SESSION_EVENT_KINDS];
	size_t nr_kinds;
	/* --min-duration */
	bool mindur;
	uint64_t dropped, passed;	/* calls left out, calls kept */
	uint64_t longest_ns;		/* the longest call, kept or not */
	kmag_func_t longest_func;
	/* --errno (opts.errnum) */
	uint64_t retvals;		/* calls that left with a return value */
	uint8_t errnos[4096 / 8];	/* the errors they returned (kmag_call_errno()), a bit each */
};

struct kmag_session {
	struct kmag_session_opts o;
	const char *path;		/* opened (the default when opts.path is NULL) */
	const char *name;		/* for messages */
	const char *what;
	struct kmag_filter *filter;	/* the shared filters (maybe empty) */
	char filters[600];		/* their description, for titles */
	uint64_t cost_ns;		/* the tracer's cost taken off, 0: none */
	char times[300];		/* kmag_session_times() */
	struct kmag_trace *trace;
	struct kmag_btf *btf;		/* --btf or the trace's own; given to @trace */
	char types_from[300];		/* where the errors view's return types came from */
	struct kmag_srclines *lines;	/* opts.vmlinux */
	struct kmag_symmap_choice sym;	/* opts.symbols: the map and the path filter */
	struct kmag_symmap *profile_map;	/* the files a profile names, when it is the map */
	struct kmag_srcloc *loc;	/* the input's functions in the map */
	/* the one replay and the views that subscribe to it */
	struct kmag_replay *replay;
	struct kmag_cg *cg;
	struct kmag_cg_split *split;
	struct kmag_probes *probes;
	struct kmag_slowest *slowest;
	struct kmag_errors *errors;
	struct kmag_callsample *calls;
	struct kmag_argstats *argstats;
	struct kmag_callsites *callsites;
	struct {
		kmag_event_fn fn;
		void *ctx;
	} taps[SESSION_MAX_TAPS];
	size_t nr_taps;
	bool tap_failed;		/* a tap returned -errno: its error is its own */
	bool direct;			/* events go straight to the replay (no taps, no split) */
	bool windowed;			/* the reader read only the --time window */
	struct session_seen seen;
	struct kmag_err no_calls;	/* kmag_session_no_calls(), when code is set */
	kmag_trace_progress_fn progress;
	void *progress_ctx;
	bool opened, read;
};

/* A warning through opts.warn (or the log). */
#define kmag__session_warn(s, ...)                                                          \
	kmag__tell((s)->o.warn, (s)->o.warn_ctx, KMAG_LOG_WARN, "session", __VA_ARGS__)

/* session.c: the shared filters of @o into @f; 0 or -EINVAL with @err naming the bad value. */
int kmag__session_build_filter(struct kmag_filter *f, const struct kmag_session_opts *o,
			       struct kmag_err *err);

/* session-input.c: opens the input, BTF, vmlinux and symbol map. 0 or -errno, @err set. */
int kmag__session_open_input(struct kmag_session *s, struct kmag_err *err);
/* session-input.c: a profile's sums into the graph. 0 or -errno, @err set. */
int kmag__session_load_profile(struct kmag_session *s, struct kmag_err *err);

/* session-views.c: makes the views asked for and subscribes them. 0 or -errno, @err set. */
int kmag__session_make_views(struct kmag_session *s, struct kmag_err *err);
/* session-views.c: finishes the views after the last event. 0 or -errno, @err set. */
int kmag__session_finish_views(struct kmag_session *s, struct kmag_err *err);
/* session-views.c: frees them (with the session). */
void kmag__session_free_views(const struct kmag_session *s);

/*
 * session-damage.c: after reading, warns with the damaged places read past;
 * after a strict stop at one, appends to @err (set) how to read on.
 */
void kmag__session_tell_damage(const struct kmag_session *s, struct kmag_err *err);

/*
 * session-matched.c: when the non-empty filters let no event through, fills
 * @err with what the trace holds instead and returns -ENOENT; else 0.
 */
int kmag__session_check_matched(const struct kmag_session *s, struct kmag_err *err);

/* session-explain.c: counts @ev (which passed the filters) in s->seen. */
void kmag__session_seen(struct kmag_session *s, const struct kmag_event *ev);
/* session-explain.c: the replay's subscriber that counts its other events in s->seen. */
extern const struct kmag_replay_ops kmag__session_seen_ops;
/* session-explain.c: the replay's subscriber that notes return values for opts.errnum. */
extern const struct kmag_replay_ops kmag__session_errno_ops;
/*
 * session-explain.c, after the filters passed something: -ENOENT when
 * --min-duration left no call, -ENODATA when the trace holds no function
 * calls (unless opts.calls_optional; s->no_calls says so either way), @err
 * saying what it holds; else 0.
 */
int kmag__session_check_calls(struct kmag_session *s, struct kmag_err *err);
/*
 * session-explain.c, after the views finished: -ENOENT when
 * --filter-filepath keeps no function of the graph, or an argument summary
 * found no call or no such argument, @err saying what there is; else 0.
 */
int kmag__session_check_views(const struct kmag_session *s, struct kmag_err *err);

#endif /* KMAG_SESSION_INTERNAL_H */
