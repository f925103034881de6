/* SPDX-License-Identifier: MIT */
/*
 * trigger.h - the flight recorder's triggers (`kmag record --trigger`):
 * parsing their specs, and watching a stream of events for them while
 * following calls through the one replay (kmag_replay), so that a fire
 * knows the chain of callers around the call that fired. Internal: used by
 * lib/record/flight-watch.c on the live pages and by the unit tests on
 * fixture traces.
 *
 *   error[=ERRNO][@FUNC]    a call (of FUNC, or any) returned -ERRNO (any
 *                           errno without =ERRNO); needs return values
 *   slow=FUNC>DURATION      a call of FUNC lasted longer than DURATION
 *   event=SYSTEM:EVENT[/FILTER]
 *                           the tracepoint fired (and matched FILTER, in the
 *                           kernel's event-filter syntax)
 *
 * A fire opens a window: later matches are counted in it (fire.more) until
 * the owner calls kmag__watch_rearm(). The chain is the outermost call open
 * on the task when the trigger fired (the callers' root); the window follows
 * it to its exit (fire.root_open turns false).
 */
#ifndef KMAG_TRIGGER_H
#define KMAG_TRIGGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmag/event.h"
#include "kmag/kmag.h"
#include "kmag/symtab.h"

struct kmag_btf;
struct tep_event;

enum kmag__trigger_kind {
	KMAG_TRIG_ERROR,
	KMAG_TRIG_SLOW,
	KMAG_TRIG_EVENT,
};

struct kmag__trigger {
	enum kmag__trigger_kind kind;
	const char *spec;	/* as given; borrowed */
	int errnum;		/* ERROR: positive errno, 0 = any */
	char *func;		/* ERROR (NULL = any), SLOW: function name */
	uint64_t min_ns;	/* SLOW: fires for calls lasting longer */
	char *system, *event;	/* EVENT */
	char *filter;		/* EVENT: filter text, or NULL */
};

/*
 * Parses @spec into @t (release with kmag__trigger_release()). Returns 0, or
 * -EINVAL with @err set to one line naming the spec and the fix.
 */
int kmag__trigger_parse(const char *spec, struct kmag__trigger *t, struct kmag_err *err);
void kmag__trigger_release(struct kmag__trigger *t);

/*
 * Checks an EVENT trigger's filter against the event's format @te (parsed
 * by libtraceevent). Returns 0 or -EINVAL with @err set (libtraceevent's
 * message).
 */
int kmag__trigger_check_filter(const struct kmag__trigger *t, struct tep_event *te,
			       struct kmag_err *err);

/* A trigger that fired, and the window it opened. */
struct kmag__fire {
	size_t trigger;		/* index into the watched triggers */
	uint64_t ts;		/* time of the event that fired (an exit, a tracepoint) */
	int32_t pid, cpu;
	/* ERROR, SLOW: the call */
	kmag_func_t func;
	uint64_t start_ns, duration;	/* KMAG_TS_NONE / KMAG_DURATION_NONE if unknown */
	int errnum;		/* ERROR: positive errno */
	int64_t retval;
	/* EVENT: borrowed from the event stream's formats */
	const char *event_system, *event_name;
	/*
	 * The chain's root: the outermost call open on the task, else (ERROR,
	 * SLOW) the call itself; for an EVENT on a task with no open call,
	 * none (root_func KMAG_FUNC_NONE, start and end the event's time).
	 * Times are the events' (trace clock).
	 */
	uint32_t depth;		/* calls open around the call (ERROR, SLOW) */
	kmag_func_t root_func;
	uint64_t root_id;
	uint64_t root_start_ns;	/* its entry's time, KMAG_TS_NONE when before the trace */
	bool root_open;		/* not returned yet */
	uint64_t root_end_ns;	/* its exit's time, once returned */
	uint64_t root_duration;	/* the kernel's, once returned (KMAG_DURATION_NONE if unknown) */
	uint64_t more;		/* later matches inside the window */
};

typedef struct tep_event *(*kmag__event_format_fn)(void *ctx, int id);

struct kmag__watch;

/*
 * Watches for @t[0..@n) (borrowed; must outlive the watch). @st names
 * functions (borrowed). @format (with @format_ctx) gives the format of an
 * event id, for EVENT filters; may be NULL when there are none. @btf
 * (optional, borrowed) gives return types: an ERROR trigger then ignores
 * void, bool and unsigned returns. Returns NULL with @err set.
 */
struct kmag__watch *kmag__watch_new(const struct kmag__trigger *t, size_t n,
				    struct kmag_symtab *st, kmag__event_format_fn format,
				    void *format_ctx, const struct kmag_btf *btf,
				    struct kmag_err *err);
void kmag__watch_free(struct kmag__watch *w);

/*
 * Feeds one event, in time order per task. Returns 1 when a trigger fired
 * and opened a window (kmag__watch_fire() describes it), 0, or -errno.
 */
int kmag__watch_add(struct kmag__watch *w, const struct kmag_event *ev);
/* The open window's fire, or NULL; borrowed until the next call. */
const struct kmag__fire *kmag__watch_fire(const struct kmag__watch *w);
/* Closes the window: the next match fires again. */
void kmag__watch_rearm(struct kmag__watch *w);
/* Fires and matches so far (all windows). */
uint64_t kmag__watch_matches(const struct kmag__watch *w);

#endif /* KMAG_TRIGGER_H */
