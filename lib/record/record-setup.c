// SPDX-License-Identifier: MIT
/*
 * record-setup.c - configure tracefs for a recording and put it back.
 *
 * A private instance "kmag-<pid>" is used whenever the kernel offers there
 * what the recording needs (the tracer, set_graph_function, ...): then the
 * top level is never touched and restoring is removing the instance.
 * Otherwise (e.g. function_graph before Linux 6.12 exists only at the top
 * level) every top-level file kmag changes is saved first, mirrored to a
 * state file, and written back at the end. Lock files in the state directory
 * tell live runs from killed ones, whose leftovers the next run repairs
 * (record-stale.c).
 */
#define PR_DOMAIN "record"
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <tracefs.h>
#include <unistd.h>

#include "record-internal.h"

/* Readers are woken when a CPU buffer is this full (kernel default: 50). */
#define BUFFER_PERCENT "10"
/* Per-CPU buffer of CPUs outside the mask in a private instance. */
#define UNUSED_CPU_BUF_KB "4"

char *kmag__rec_read(const struct kmag_recorder *r, const char *rel)
{
	return kmag__tracefs_read(r->inst_dir ? r->inst_dir : r->dir, rel);
}

static const char *files_dir(const struct kmag_recorder *r)
{
	return r->inst_dir ? r->inst_dir : r->dir;
}

static bool has_file(const struct kmag_recorder *r, const char *rel)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", files_dir(r), rel);
	return !access(path, F_OK);
}

static int set(struct kmag_recorder *r, const char *rel, const char *value, struct kmag_err *err)
{
	struct kmag_err e = { 0 };
	int ret = kmag__tracefs_write(files_dir(r), rel, value, &e);

	if (ret == -EPERM || ret == -EACCES) {
		char what[64 + 512];	/* the callers' paths are at most 511 bytes */

		snprintf(what, sizeof(what), "changing tracefs here (writing %s)", rel);
		return kmag__tracefs_perm_error(err, what);
	}
	if (ret)
		kmag_err_set(err, e.code, "%s", e.msg);
	return ret;
}

/* Writes each entry of a list file separately, after truncating it. */
static int write_list(struct kmag_recorder *r, const char *rel, const char *const *entries,
		      size_t n, bool append, struct kmag_err *err)
{
	char path[4096];
	size_t i;
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", files_dir(r), rel);
	fd = open(path, O_WRONLY | O_CLOEXEC | (append ? O_APPEND : O_TRUNC));
	if (fd < 0)
		return kmag_err_set(err, errno, "cannot open %s: %s", path, strerror(errno));
	for (i = 0; i < n && !ret; i++) {
		/* the kernel joins a token across writes: end each with a blank */
		char *entry = NULL;
		int len = asprintf(&entry, "%s\n", entries[i]);

		if (len < 0)
			ret = kmag_err_set(err, ENOMEM, "out of memory");
		else if (write(fd, entry, (size_t)len) != (ssize_t)len)
			ret = kmag_err_set(err, errno, "cannot write \"%s\" to %s: %s", entries[i],
					   path, strerror(errno));
		free(entry);
	}
	if (close(fd) && !ret)
		ret = kmag_err_set(err, errno, "cannot write %s: %s", path, strerror(errno));
	return ret;
}

/* Replaces the list in tracefs file @rel with @entries. */
static int set_list(struct kmag_recorder *r, const char *rel, char *const *entries, size_t n,
		    struct kmag_err *err)
{
	return write_list(r, rel, (const char *const *)entries, n, false, err);
}

/* Why the private instance cannot do this recording, or NULL if it can. */
static const char *instance_lacks(struct kmag_recorder *r)
{
	const struct kmag_record_opts *o = &r->o;
	bool pids = o->nr_pids || o->command;
	char *avail;
	bool ok;

	if (r->tracer != KMAG_REC_TRACER_NONE) {
		avail = kmag__rec_read(r, "available_tracers");
		ok = avail && kmag__word_in(avail, r->tracer_name);
		free(avail);
		if (!ok)
			return r->tracer == KMAG_REC_TRACER_FUNCTION_GRAPH ?
				       "function_graph is not available in tracefs instances" :
				       "the function tracer is not available in tracefs instances";
		if ((rec_filters_funcs(o) || o->nr_notrace) &&
		    !has_file(r, "set_ftrace_filter"))
			return "instances have no set_ftrace_filter";
		if (r->nr_graph_names && !has_file(r, "set_graph_function"))
			return "instances have no set_graph_function";
		if (o->max_graph_depth && !has_file(r, "max_graph_depth"))
			return "instances have no max_graph_depth";
		if (pids && !has_file(r, "set_ftrace_pid"))
			return "instances have no set_ftrace_pid";
		if (o->threshold_us && !has_file(r, "tracing_thresh"))
			return "tracing_thresh (--threshold) exists only at the top level";
	}
	if (pids && r->nr_events && !has_file(r, "set_event_pid"))
		return "instances have no set_event_pid";
	return r->tracer != KMAG_REC_TRACER_NONE ? kmag__rec_topts_instance_lacks(r) : NULL;
}

/* Returns 0 with the instance ready, 1 if the top level must be used, or -errno. */
static int try_instance(struct kmag_recorder *r, struct kmag_err *err)
{
	char lock[64];
	const char *why;
	int ret;

	snprintf(r->inst_name, sizeof(r->inst_name), "kmag-%d", (int)getpid());
	snprintf(lock, sizeof(lock), "inst-%d.lock", (int)getpid());
	ret = kmag__lock_file(r->state_dir, lock, true, &r->inst_lock_fd);
	if (ret)
		return kmag_err_set(err, -ret, "cannot create a lock file in %s: %s", r->state_dir,
				    strerror(-ret));
	r->inst = tracefs_instance_create(r->inst_name);
	if (!r->inst || !tracefs_instance_is_new(r->inst)) {
		kmag__rec_note(r, "cannot create the tracefs instance %s (%s): using the top-level instance",
			       r->inst_name, r->inst ? "it exists already" : strerror(errno));
		tracefs_instance_free(r->inst);
		r->inst = NULL;
		kmag__unlock_file(r->state_dir, lock, &r->inst_lock_fd);
		return 1;
	}
	r->inst_created = true;
	r->configured = true;
	r->inst_dir = tracefs_instance_get_dir(r->inst);
	if (!r->inst_dir)
		return kmag_err_set(err, ENOMEM, "out of memory");
	/* a new instance starts with tracing on: off before anything else */
	if ((ret = set(r, "tracing_on", "0", err)))
		return ret;
	why = instance_lacks(r);
	if (!why)
		return 0;
	kmag__rec_note(r, "using the top-level tracefs instance: %s on this kernel (its settings are saved and restored)",
		       why);
	ret = kmag__rec_remove_instance(r->inst_name);
	tracefs_instance_free(r->inst);
	r->inst = NULL;
	free(r->inst_dir);
	r->inst_dir = NULL;
	r->inst_created = false;
	kmag__unlock_file(r->state_dir, lock, &r->inst_lock_fd);
	if (ret)
		return kmag_err_set(err, -ret, "cannot remove the tracefs instance %s: %s",
				    r->inst_name, strerror(-ret));
	return 1;
}

/* Top-level files kmag may change, saved before it does; restored in reverse order. */
static const char *const top_common[] = {
	"tracing_on", "current_tracer", "set_event", "set_event_pid", "set_event_notrace_pid",
	"tracing_cpumask", "trace_clock", "buffer_percent", "options/event-fork",
	"options/stacktrace", "options/userstacktrace",
};
static const char *const top_function[] = {
	"set_ftrace_filter", "set_ftrace_notrace", "set_graph_function", "set_graph_notrace",
	"set_ftrace_pid", "set_ftrace_notrace_pid", "max_graph_depth", "tracing_thresh",
	"options/function-fork", "options/func_stack_trace",
	/* record-topts.c */
	"options/funcgraph-retval", "options/funcgraph-retaddr", "options/funcgraph-args",
	"options/func-args",
};

static enum rs_kind kind_of(const char *rel)
{
	if (!strncmp(rel, "set_", 4))
		return RS_LIST;
	if (!strcmp(rel, "trace_clock"))
		return RS_CLOCK;
	return RS_VALUE;
}

/* Saves every top-level file kmag may change, then mirrors it to the state file. */
static int save_top(struct kmag_recorder *r, struct kmag_err *err)
{
	char path[4096], rel[128], *top_kb, *lazy;
	size_t i;
	int ret, c;

	ret = kmag__lock_file(r->state_dir, "top.lock", false, &r->top_lock_fd);
	if (ret == -EWOULDBLOCK)
		return kmag_err_set(err, EBUSY,
				    "another kmag record is using the top-level tracing instance; wait for it to finish");
	if (ret)
		return kmag_err_set(err, -ret, "cannot create a lock file in %s: %s", r->state_dir,
				    strerror(-ret));
	if ((ret = kmag__rs_init(&r->state, r->dir)))
		return kmag_err_set(err, ENOMEM, "out of memory");
	for (i = 0; i < ARRAY_SIZE(top_common); i++) {
		ret = kmag__rs_save(&r->state, top_common[i], kind_of(top_common[i]), err);
		if (ret && ret != -ENOENT)
			return ret;
	}
	for (i = 0; r->tracer != KMAG_REC_TRACER_NONE && i < ARRAY_SIZE(top_function); i++) {
		struct kmag_err e = { 0 };

		ret = kmag__rs_save(&r->state, top_function[i], kind_of(top_function[i]), &e);
		if (ret == -EPERM || ret == -EACCES) {
			char what[128];

			snprintf(what, sizeof(what), "function tracing here (reading %s)",
				 top_function[i]);
			return kmag__tracefs_perm_error(err, what);
		}
		if (ret && ret != -ENOENT)
			return kmag_err_set(err, e.code, "%s", e.msg);
	}
	/*
	 * Before first use the top-level buffer is a few pages per CPU, shown
	 * as "7 (expanded: 1408)"; any tracer allocates the full size then,
	 * for good. Once kmag has used it, the full size is what is restored.
	 */
	top_kb = kmag__tracefs_read(r->dir, "buffer_size_kb");
	lazy = top_kb ? strstr(top_kb, "(expanded:") : NULL;
	for (c = 0; c < r->nr_cpus; c++) {
		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/buffer_size_kb", c);
		if (lazy) {
			char text[64];

			snprintf(text, sizeof(text), "%.*s %s", (int)strcspn(top_kb, " "), top_kb, lazy);
			ret = kmag__rs_save_text(&r->state, rel, RS_BUFSIZE, text, err);
		} else {
			ret = kmag__rs_save(&r->state, rel, RS_BUFSIZE, err);
		}
		if (ret && ret != -ENOENT) {
			free(top_kb);
			return ret;
		}
	}
	free(top_kb);
	for (i = 0; i < r->nr_events; i++) {
		if (!r->events[i].filter)
			continue;
		snprintf(rel, sizeof(rel), "events/%s/%s/filter", r->events[i].system,
			 r->events[i].name);
		ret = kmag__rs_save(&r->state, rel, RS_EVFILTER, err);
		if (ret && ret != -ENOENT)
			return ret;
	}
	snprintf(path, sizeof(path), "%s/top.state", r->state_dir);
	if ((ret = kmag__rs_persist(&r->state, path, err)))
		return ret;
	r->top_saved = true;
	r->configured = true;
	return 0;
}

/* The top level may hold someone else's settings: start from a clean slate. */
static int clear_top(struct kmag_recorder *r, struct kmag_err *err)
{
	static const char *const lists[] = {
		"set_event", "set_event_pid", "set_event_notrace_pid", "set_ftrace_filter",
		"set_ftrace_notrace", "set_graph_function", "set_graph_notrace", "set_ftrace_pid",
		"set_ftrace_notrace_pid",
	};
	static const char *const zero[] = {
		"options/stacktrace", "options/userstacktrace", "max_graph_depth", "tracing_thresh",
		"options/func_stack_trace",
	};
	/* the function tracer's files only matter (and are only saved) with a tracer */
	size_t nl = r->tracer == KMAG_REC_TRACER_NONE ? 3 : ARRAY_SIZE(lists);
	size_t nz = r->tracer == KMAG_REC_TRACER_NONE ? 2 : ARRAY_SIZE(zero);
	size_t i;
	int ret;

	if ((ret = set(r, "current_tracer", "nop", err)))
		return ret;
	for (i = 0; i < nl; i++)
		if (has_file(r, lists[i]) && (ret = set(r, lists[i], "", err)))
			return ret;
	for (i = 0; i < nz; i++)
		if (has_file(r, zero[i]) && (ret = set(r, zero[i], "0", err)))
			return ret;
	return 0;
}

static int set_buffers(struct kmag_recorder *r, struct kmag_err *err)
{
	char rel[128], kb[32];
	int c, ret;

	snprintf(kb, sizeof(kb), "%lu", r->buffer_kb);
	for (c = 0; c < r->nr_cpus; c++) {
		bool want = rec_cpu_wanted(r, c);

		if (!want && !r->inst)
			continue;
		/* allocating a big buffer takes a while: look between CPUs */
		if (rec_interrupted(r))
			return kmag__rec_checkpoint(r, "buffers", err);
		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/buffer_size_kb", c);
		ret = set(r, rel, want ? kb : UNUSED_CPU_BUF_KB, err);
		if (ret == -ENOMEM) {
			kmag_err_clear(err);
			return kmag_err_set(err, ENOMEM,
					    "the kernel cannot allocate a %lu KiB ring buffer for CPU %d; choose a smaller -b",
					    r->buffer_kb, c);
		}
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * --func-list and path-filter functions, as available_filter_functions line
 * numbers (Linux 5.13+), after the -l globs; names for older kernels, which
 * reject the numbers.
 */
static int set_func_index(struct kmag_recorder *r, struct kmag_err *err)
{
	char path[4096], buf[4096];
	size_t i, len = 0;
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/set_ftrace_filter", files_dir(r));
	fd = open(path, O_WRONLY | O_CLOEXEC | (r->o.nr_funcs ? O_APPEND : O_TRUNC));
	if (fd < 0)
		return kmag_err_set(err, errno, "cannot open %s: %s", path, strerror(errno));
	for (i = 0; i <= r->nr_func_index && !ret; i++) {
		/* whole numbers per write: the kernel parses each buffer by itself */
		if (i == r->nr_func_index || len > sizeof(buf) - 16) {
			/* the kernel parses one number per write() and returns a
			 * short count: write the rest until all is taken */
			size_t off = 0;

			while (off < len) {
				ssize_t w = write(fd, buf + off, len - off);

				if (w <= 0) {
					ret = w < 0 ? -errno : -EIO;
					break;
				}
				off += (size_t)w;
			}
			len = 0;
		}
		if (i < r->nr_func_index)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%u ", r->func_index[i]);
	}
	if (close(fd) && !ret)
		ret = -errno;
	if (ret == -EINVAL) {
		/* a kernel without index writes: the names, one per write */
		kmag_err_clear(err);
		return write_list(r, "set_ftrace_filter", r->func_index_names, r->nr_func_index,
				  r->o.nr_funcs != 0, err);
	}
	if (ret)
		return kmag_err_set(err, -ret, "cannot write the functions to trace to %s: %s", path,
				    strerror(-ret));
	return 0;
}

/* -l / -n through libtracefs (it writes function indexes where the kernel takes them). */
static int set_func_filters(struct kmag_recorder *r, bool notrace, struct kmag_err *err)
{
	const struct rec_glob *g = notrace ? r->notrace : r->funcs;
	size_t i, n = notrace ? r->o.nr_notrace : r->o.nr_funcs;

	for (i = 0; i < n; i++) {
		unsigned flags = (i == 0 ? TRACEFS_FL_RESET : 0) | (i + 1 < n ? TRACEFS_FL_CONTINUE : 0);
		int ret = notrace ? tracefs_function_notrace(r->inst, g[i].pattern, g[i].module, flags) :
				    tracefs_function_filter(r->inst, g[i].pattern, g[i].module, flags);

		if (ret) {
			if (i + 1 < n) {
				/* close the file the CONTINUE flag kept open */
				if (notrace)
					tracefs_function_notrace(r->inst, NULL, NULL, 0);
				else
					tracefs_function_filter(r->inst, NULL, NULL, 0);
			}
			return kmag_err_set(err, errno ? errno : EINVAL,
					    "cannot set %s \"%s\" in %s: %s", notrace ? "-n" : "-l",
					    g[i].spec, notrace ? "set_ftrace_notrace" : "set_ftrace_filter",
					    strerror(errno ? errno : EINVAL));
		}
	}
	return 0;
}

static int set_pids(struct kmag_recorder *r, struct kmag_err *err)
{
	size_t n = r->o.command ? 1 : r->o.nr_pids, i;
	bool follow = r->o.command || r->o.follow_forks;
	char **list = calloc(n + 1, sizeof(char *));
	int ret = 0;

	if (!list)
		return kmag_err_set(err, ENOMEM, "out of memory");
	for (i = 0; i < n && !ret; i++)
		if (asprintf(&list[i], "%d", (int)(r->o.command ? r->child : r->o.pids[i])) < 0)
			ret = kmag_err_set(err, ENOMEM, "out of memory");
	if (!ret && r->tracer != KMAG_REC_TRACER_NONE) {
		ret = set_list(r, "set_ftrace_pid", list, n, err);
		if (!ret)
			ret = set(r, "options/function-fork", follow ? "1" : "0", err);
	}
	if (!ret && r->nr_events) {
		ret = set_list(r, "set_event_pid", list, n, err);
		if (!ret && has_file(r, "options/event-fork"))
			ret = set(r, "options/event-fork", follow ? "1" : "0", err);
	}
	for (i = 0; i < n; i++)
		free(list[i]);
	free(list);
	return ret;
}

/* A -g spec the kernel can take as is (its glob syntax), instead of every match. */
static bool kernel_glob(const char *s)
{
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.*") ==
	       strlen(s);
}

static int set_graph(struct kmag_recorder *r, struct kmag_err *err)
{
	const struct kmag_record_opts *o = &r->o;
	size_t i;
	int ret = 0;

	if (r->nr_graph_names) {
		bool plain = true;

		for (i = 0; i < o->nr_graph_funcs; i++)
			plain = plain && kernel_glob(o->graph_funcs[i]);
		ret = plain ? set_list(r, "set_graph_function", (char *const *)o->graph_funcs,
				       o->nr_graph_funcs, err) :
			      set_list(r, "set_graph_function", r->graph_names, r->nr_graph_names,
				       err);
	}
	if (!ret && r->nr_graph_names) {
		/* a rejected entry only fails at close, which reports nothing: check */
		char *now = kmag__rec_read(r, "set_graph_function");

		if (!now || !*now || now[0] == '#')
			ret = kmag_err_set(err, EINVAL,
					   "the kernel did not take the -g functions (set_graph_function is empty)");
		free(now);
	}
	if (!ret && o->threshold_us) {
		char v[32];

		snprintf(v, sizeof(v), "%lu", o->threshold_us);
		ret = set(r, "tracing_thresh", v, err);
	}
	if (!ret && o->max_graph_depth) {
		char v[32];

		snprintf(v, sizeof(v), "%u", o->max_graph_depth);
		ret = set(r, "max_graph_depth", v, err);
	}
	return ret;
}

static int set_events(struct kmag_recorder *r, struct kmag_err *err)
{
	char rel[512];
	size_t i;
	int ret;

	for (i = 0; i < r->nr_events; i++) {
		const struct rec_event *e = &r->events[i];

		if (e->filter) {
			snprintf(rel, sizeof(rel), "events/%s/%s/filter", e->system, e->name);
			if (set(r, rel, e->filter, NULL)) {
				char *why = tracefs_error_last(r->inst), *msg = why;

				/* error_log lines start with a "[ seconds]" time stamp */
				if (msg && *msg == '[' && strchr(msg, ']'))
					msg = strchr(msg, ']') + 1;
				while (msg && *msg == ' ')
					msg++;
				ret = kmag_err_set(err, EINVAL,
						   "the kernel rejects --filter \"%s\" for %s:%s%s%.*s",
						   e->filter, e->system, e->name, msg ? ": " : "",
						   msg ? (int)strcspn(msg, "\n") : 0, msg ? msg : "");
				free(why);
				return ret;
			}
		}
		snprintf(rel, sizeof(rel), "events/%s/%s/enable", e->system, e->name);
		if ((ret = set(r, rel, "1", err)))
			return ret;
	}
	return 0;
}

static int set_tracer(struct kmag_recorder *r, struct kmag_err *err)
{
	struct kmag_err e = { 0 };
	int ret;

	if (r->tracer == KMAG_REC_TRACER_NONE)
		return 0;
	ret = kmag__tracefs_write(files_dir(r), "current_tracer", r->tracer_name, &e);
	if (ret == -EPERM || ret == -EACCES) {
		char what[64];

		snprintf(what, sizeof(what), "the %s tracer here (writing current_tracer)",
			 r->tracer_name);
		return kmag__tracefs_perm_error(err, what);
	}
	if (ret == -EINVAL || ret == -ENODEV)
		return kmag_err_set(err, ENODEV, "the kernel does not accept the %s tracer (%s)",
				    r->tracer_name,
				    r->tracer == KMAG_REC_TRACER_FUNCTION_GRAPH ?
					    "CONFIG_FUNCTION_GRAPH_TRACER" : "CONFIG_FUNCTION_TRACER");
	if (ret)
		return kmag_err_set(err, e.code, "%s", e.msg);
	return 0;
}

/*
 * Each step is preceded by a checkpoint (kmag__rec_checkpoint()): a signal
 * during the set-up stops it there, and the caller restores what was done.
 */
int kmag__rec_configure(struct kmag_recorder *r, struct kmag_err *err)
{
	int ret = 1;

	if ((ret = kmag__rec_checkpoint(r, "instance", err)))
		return ret;
	ret = 1;
	if (!r->o.top_instance && (ret = try_instance(r, err)) < 0)
		return ret;
	r->res.instance = ret == 1 ? "top-level" : r->inst_name;
	if (ret == 1) {
		if ((ret = kmag__rec_checkpoint(r, "save-top", err)) || (ret = save_top(r, err)) ||
		    (ret = set(r, "tracing_on", "0", err)) || (ret = clear_top(r, err)))
			return ret;
	}
	if ((ret = kmag__rec_checkpoint(r, "buffers", err)))
		return ret;
	if (r->o.clock && (ret = set(r, "trace_clock", r->o.clock, err)))
		return ret;
	if ((ret = set_buffers(r, err)) || (ret = kmag__rec_checkpoint(r, "cpumask", err)))
		return ret;
	if (tracefs_instance_set_affinity(r->inst, r->cpulist) < 0)
		return kmag_err_set(err, errno, "cannot set tracing_cpumask to CPUs %s: %s",
				    r->cpulist, strerror(errno));
	if (has_file(r, "buffer_percent") && (ret = set(r, "buffer_percent", BUFFER_PERCENT, err)))
		return ret;
	/* writing a long set_ftrace_filter takes seconds on a big kernel */
	if (r->tracer != KMAG_REC_TRACER_NONE &&
	    ((ret = kmag__rec_checkpoint(r, "function-filter", err)) ||
	     (ret = set_func_filters(r, false, err)) ||
	     (r->nr_func_index && (ret = set_func_index(r, err))) ||
	     (ret = kmag__rec_checkpoint(r, "notrace", err)) ||
	     (ret = set_func_filters(r, true, err)) || (ret = kmag__rec_checkpoint(r, "graph", err)) ||
	     (ret = set_graph(r, err))))
		return ret;
	if ((r->o.nr_pids || r->o.command) &&
	    ((ret = kmag__rec_checkpoint(r, "pids", err)) || (ret = set_pids(r, err))))
		return ret;
	/*
	 * Probes once the instance (or the saved top level) is in place: a
	 * failure then leaves through the normal restore. Their events must
	 * exist before set_events() enables them.
	 */
	if (r->nr_probes &&
	    ((ret = kmag__rec_checkpoint(r, "probes", err)) || (ret = kmag__rec_probes_create(r, err))))
		return ret;
	/* the tracer last: enabling function tracing patches every traced function */
	if ((ret = kmag__rec_checkpoint(r, "events", err)) || (ret = set_events(r, err)) ||
	    (r->tracer != KMAG_REC_TRACER_NONE && (ret = kmag__rec_topts_set(r, err))) ||
	    (ret = kmag__rec_checkpoint(r, "tracer", err)) || (ret = set_tracer(r, err)))
		return ret;
	/* drop whatever the configuration steps left in the buffers */
	return set(r, "trace", "", err);
}

int kmag__rec_set_notrace_pids(struct kmag_recorder *r, struct kmag_err *err)
{
	char **tids;
	int i, n = 0, ret;

	/* with a pid filter the recorder is excluded anyway */
	if (r->tracer == KMAG_REC_TRACER_NONE || r->o.nr_pids || r->o.command ||
	    !has_file(r, "set_ftrace_notrace_pid"))
		return 0;
	tids = calloc((size_t)r->nr_rec + 2, sizeof(char *));
	if (!tids)
		return kmag_err_set(err, ENOMEM, "out of memory");
	if (asprintf(&tids[n++], "%d", (int)gettid()) < 0)
		tids[--n] = NULL;
	for (i = 0; i < r->nr_rec; i++)
		if (asprintf(&tids[n], "%d", (int)atomic_load(&r->cpus[i].tid)) >= 0)
			n++;
	ret = set_list(r, "set_ftrace_notrace_pid", tids, (size_t)n, err);
	for (i = 0; i < n; i++)
		free(tids[i]);
	free(tids);
	return ret;
}

int kmag__rec_tracing_on(struct kmag_recorder *r, bool on, struct kmag_err *err)
{
	return set(r, "tracing_on", on ? "1" : "0", err);
}

int kmag__rec_restore(struct kmag_recorder *r, struct kmag_err *err)
{
	char lock[64];
	int ret = 0, e;

	if (r->restored)
		return 0;
	if (!r->configured) {
		/* nothing was changed; only the locks taken on the way are let go */
		snprintf(lock, sizeof(lock), "inst-%d.lock", (int)getpid());
		kmag__unlock_file(r->state_dir, lock, &r->inst_lock_fd);
		kmag__unlock_file(r->state_dir, "top.lock", &r->top_lock_fd);
		return 0;
	}
	if (r->inst_created) {
		e = kmag__rec_remove_instance(r->inst_name);
		if (e)
			ret = kmag_err_set(err, -e, "cannot remove the tracefs instance %s: %s",
					   r->inst_name, strerror(-e));
		else
			r->inst_created = false;
	}
	if (r->inst) {
		tracefs_instance_free(r->inst);
		r->inst = NULL;
	}
	snprintf(lock, sizeof(lock), "inst-%d.lock", (int)getpid());
	kmag__unlock_file(r->state_dir, lock, &r->inst_lock_fd);
	if (r->top_saved) {
		e = kmag__rs_restore(&r->state, err);
		if (e)
			ret = e;
		else
			r->top_saved = false;
		/* on failure the state file stays, and the next run retries */
		if (!e)
			kmag__unlock_file(r->state_dir, "top.lock", &r->top_lock_fd);
		else if (r->top_lock_fd >= 0) {
			close(r->top_lock_fd);
			r->top_lock_fd = -1;
		}
	}
	/* after the instance is gone and set_event restored: nothing uses them now */
	e = kmag__rec_probes_destroy(r, err);
	if (e)
		ret = e;
	r->restored = !ret;
	return ret;
}
