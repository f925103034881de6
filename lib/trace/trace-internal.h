/* SPDX-License-Identifier: MIT */
/*
 * trace-internal.h - the reader object behind struct kmag_trace and the
 * interface each input format implements. Internal.
 */
#ifndef KMAG_TRACE_INTERNAL_H
#define KMAG_TRACE_INTERNAL_H

#include "internal.h"
#include "damage.h"
#include "kmag/trace.h"
#include "util/u64map.h"

struct kmag_trace;

struct kmag_input_ops {
	const char *name;
	/* Streams events through kmag__trace_deliver(). */
	int (*read)(struct kmag_trace *t, struct kmag_err *err);
	void (*close)(struct kmag_trace *t);
	/* The parsed format of event @id, or NULL (optional: text inputs have none). */
	struct tep_event *(*event_format)(struct kmag_trace *t, int id);
	/* Bytes of the file read so far, for the progress hook (optional: 0 when unknown). */
	uint64_t (*bytes_read)(const struct kmag_trace *t);
};

#include "event-format.h"	/* kmag__trace_event_format() */

/*
 * Strings keyed by a number, the latest set winning: task names, argument
 * names. A replaced string stays allocated until the release, because
 * callers hold the pointers they were given (kmag_trace_comm() promises
 * them until kmag_trace_close()) while a task's name changes with exec().
 */
struct keyed_names {
	struct u64map map;		/* key -> index into names */
	char **names;			/* owned */
	size_t nr, cap;
	char **retired;			/* replaced strings; owned */
	size_t nr_retired, cap_retired;
};
/* Sets @key's string to @len bytes of @s (a NUL inside ends it). 0 or -ENOMEM. */
int kmag__keyed_set(struct keyed_names *kn, uint64_t key, const char *s, size_t len);
/* @key's string or NULL; borrowed. */
const char *kmag__keyed_get(const struct keyed_names *kn, uint64_t key);
void kmag__keyed_release(struct keyed_names *kn);

struct kmag_trace {
	const struct kmag_input_ops *ops;
	void *priv;			/* the input's state */
	char *path;
	struct kmag_trace_opts opts;
	struct kmag_trace_info info;
	struct kmag_cpu_info *cpus;	/* info.nr_cpus entries, grown by kmag__trace_cpu() */
	size_t cap_cpus;
	struct kmag_symtab *st;
	struct keyed_names comms;	/* pid -> task name */
	struct keyed_names arg_names;	/* function -> kmag_trace_arg_names() */
	/* kmag_trace_set_btf() (trace-btf.c) */
	const struct kmag_btf *types;	/* borrowed */
	struct u64map btf_ix;		/* function -> 1 + index in btf_funcs, 0: not in the BTF */
	struct kmag_btf_func **btf_funcs;
	size_t nr_btf_funcs, cap_btf_funcs;
	bool read_started;
	const void *btf;		/* the kernel's BTF stored in the file (borrowed from the input) */
	size_t btf_size;

	/* the consumer during kmag_trace_read() */
	kmag_event_fn fn;
	void *fn_ctx;

	/* kmag_trace_damage(), kmag_trace_set_strict() (damage.c) */
	struct kmag__damage_log damage;

	/* kmag_trace_set_window(): the window asked for (the reader resolves and applies it) */
	kmag_trace_window_fn window_fn;
	void *window_ctx;

	/* kmag_trace_set_progress() */
	kmag_trace_progress_fn progress;
	void *progress_ctx;
	uint64_t file_size;
};

/* Events between two calls of the progress hook (a power of two). */
#define KMAG__PROGRESS_EVERY 8192u
/* Calls the progress hook with the counts so far. */
void kmag__trace_progress(struct kmag_trace *t);

/* Makes sure CPU @cpu has an info slot; returns it or NULL on ENOMEM. */
struct kmag_cpu_info *kmag__trace_cpu(struct kmag_trace *t, int cpu);
/* Records @comm for @pid (latest wins). Returns 0 or -ENOMEM. */
int kmag__trace_set_comm(struct kmag_trace *t, int pid, const char *comm, size_t len);
/* Records @func's argument names ("fd,buf,count"; see kmag_trace_arg_names()). 0 or -ENOMEM. */
int kmag__trace_set_arg_names(struct kmag_trace *t, kmag_func_t func, const char *names, size_t len);
/* Frees the BTF prototype cache (trace-btf.c). */
void kmag__trace_btf_release(struct kmag_trace *t);
/* @func's argument names from the attached BTF ("fd,buf,count"), cached; or NULL. */
const char *kmag__trace_btf_arg_names(const struct kmag_trace *t, kmag_func_t func);
/* Loads saved_cmdlines text ("pid comm" lines). */
int kmag__trace_load_cmdlines(struct kmag_trace *t, const char *text, size_t len);
/* Parses a per_cpu/cpuN/stats text into @ci. */
void kmag__parse_cpu_stats(struct kmag_cpu_info *ci, const char *text);

/* Updates counters and hands @ev to the consumer. */
static inline int kmag__trace_deliver(struct kmag_trace *t, const struct kmag_event *ev)
{
	struct kmag_cpu_info *ci = NULL;

	if (ev->cpu >= 0) {
		ci = (size_t)ev->cpu < (size_t)t->info.nr_cpus ? &t->cpus[ev->cpu] :
								 kmag__trace_cpu(t, ev->cpu);
		if (!ci)
			return -ENOMEM;
	}
	if (ev->type == KMAG_EV_LOST) {
		/* a gap the reader made skipping damage is no loss of the recorder's */
		if (ci && !ev->damage) {
			ci->lost_markers++;
			if (ev->lost == KMAG_LOST_UNKNOWN)
				ci->lost_unknown = true;
			else
				ci->lost += ev->lost;
		}
	} else {
		t->info.events++;
		if (t->progress && !(t->info.events & (KMAG__PROGRESS_EVERY - 1)))
			kmag__trace_progress(t);
		if (ci) {
			ci->events++;
			/*
			 * (KMAG_TS_NONE is UINT64_MAX: below it, any time is before
			 * an unset first_ts, and plus one wraps an unset last_ts to 0)
			 */
			if (ev->ts != KMAG_TS_NONE) {
				if (ev->ts < ci->first_ts)
					ci->first_ts = ev->ts;
				if (ev->ts + 1 > ci->last_ts + 1)
					ci->last_ts = ev->ts;
			}
		}
		if (ev->type == KMAG_EV_FUNC && t->info.tracer != KMAG_TRACER_FUNCTION_GRAPH)
			t->info.tracer = KMAG_TRACER_FUNCTION;
		else if ((ev->type == KMAG_EV_GRAPH_ENTRY || ev->type == KMAG_EV_GRAPH_EXIT))
			t->info.tracer = KMAG_TRACER_FUNCTION_GRAPH;
		else if (ev->type == KMAG_EV_OTHER && t->info.tracer == KMAG_TRACER_UNKNOWN)
			t->info.tracer = KMAG_TRACER_EVENTS;
	}
	/*
	 * The kernel records the return register of every function, a void
	 * one's too (funcgraph-retval prints "ret=0xdead000000000122" for
	 * _raw_spin_unlock_irqrestore): where the trace's types say @func
	 * returns void, its exit carries no return value, for every view at
	 * once (replay, report --slowest, errors, the Calls views, exports).
	 */
	if (unlikely(t->types) && ev->type == KMAG_EV_GRAPH_EXIT && ev->has_retval &&
	    kmag_trace_returns_void(t, ev->func)) {
		struct kmag_event e = *ev;

		e.has_retval = false;
		return t->fn(&e, t->fn_ctx);
	}
	return t->fn(ev, t->fn_ctx);
}

extern const struct kmag_input_ops kmag__input_tracedat;
extern const struct kmag_input_ops kmag__input_tracecmd;
extern const struct kmag_input_ops kmag__input_text;
extern const struct kmag_input_ops kmag__input_profile;

struct tracedat;
/* Copies the recorder's per-CPU stats (CPUSTAT options) of @td into t's CPU info. */
int kmag__tracedat_load_cpustats(struct kmag_trace *t, const struct tracedat *td,
				 struct kmag_err *err);

/* Each input's open: fills t->ops, t->priv and the static parts of t->info. */
int kmag__tracedat_input_open(struct kmag_trace *t, struct kmag_err *err);
int kmag__tracecmd_input_open(struct kmag_trace *t, struct kmag_err *err);
int kmag__text_input_open(struct kmag_trace *t, struct kmag_err *err);
int kmag__profile_input_open(struct kmag_trace *t, struct kmag_err *err);
/* The file starts (after blanks) with '{': a kmag profile, the only JSON input. */
bool kmag__profile_magic(const void *buf, size_t len);

#endif /* KMAG_TRACE_INTERNAL_H */
