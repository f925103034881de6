// SPDX-License-Identifier: MIT
/*
 * stack.c - the kernel's stack tracer: /proc/sys/kernel/stack_tracer_enabled
 * turns it on, tracefs' stack_max_size and stack_trace hold the deepest
 * stack seen, stack_trace_filter limits the functions it checks. libtracefs
 * 1.6 has no API for it, so the files are read and written directly.
 */
#define PR_DOMAIN "stack"
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <tracefs.h>
#include <unistd.h>

#include "internal.h"
#include "kmag/stack.h"
#include "record-state.h"
#include "util/files.h"

#define SYSCTL_DIR "/proc/sys/kernel"
#define SYSCTL "stack_tracer_enabled"
#define DEFAULT_STATE_DIR "/run/kmag"

struct kmag_stack {
	struct kmag_stack_opts o;
	char *dir;		/* tracing directory */
	char *state_path;	/* <state dir>/stack-<pid>.state */
	char was_enabled[16];
	char *was_filter;	/* stack_trace_filter before, when kmag set it */
	bool started, restored;
};

/* A note to the user (opts.note or the log). */
#define note(o, ...) kmag__tell((o)->note, (o)->note_ctx, KMAG_LOG_INFO, PR_DOMAIN, __VA_ARGS__)

/* Writes the state file: line 1 the enabled value, the rest the filter (or nothing). */
static int save_state(struct kmag_stack *s, struct kmag_err *err)
{
	FILE *f = fopen(s->state_path, "we");
	bool ok;

	if (!f)
		return kmag_err_set(err, errno, "cannot write %s: %s", s->state_path, strerror(errno));
	ok = fprintf(f, "%s\n%s", s->was_enabled, s->was_filter ? s->was_filter : "") >= 0;
	if (fclose(f) || !ok)
		return kmag_err_set(err, errno ? errno : EIO, "cannot write %s", s->state_path);
	return 0;
}

/* Puts @enabled and @filter (NULL: leave alone) back. Returns 0 or -errno. */
static int put_back(const char *dir, const char *enabled, const char *filter,
		    struct kmag_err *err)
{
	int ret = 0;

	if (filter) {
		char *copy = strdup(filter), *line, *p;
		char path[4096];
		int fd;

		snprintf(path, sizeof(path), "%s/stack_trace_filter", dir);
		fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
		for (line = copy ? strtok_r(copy, "\n", &p) : NULL; fd >= 0 && line;
		     line = strtok_r(NULL, "\n", &p)) {
			if (*line == '#')
				continue;	/* "#### all functions enabled ####" */
			if (write(fd, line, strlen(line)) < 0 || write(fd, "\n", 1) < 0)
				ret = -errno;
		}
		if (fd < 0 || close(fd))
			ret = -errno;
		free(copy);
		if (ret)
			kmag_err_set(err, -ret, "cannot restore %s: %s", path, strerror(-ret));
	}
	if (kmag__tracefs_write(SYSCTL_DIR, SYSCTL, enabled, err))
		ret = -EIO;
	return ret;
}

/* Restores what killed kmag stack runs left (their state files name their pid). */
static void repair_stale(const struct kmag_stack_opts *o, const char *state_dir, const char *dir)
{
	char pat[4096];
	glob_t g;
	size_t i;

	snprintf(pat, sizeof(pat), "%s/stack-*.state", state_dir);
	if (glob(pat, GLOB_NOSORT, NULL, &g))
		return;
	for (i = 0; i < g.gl_pathc; i++) {
		const char *p = strrchr(g.gl_pathv[i], '-');
		int pid = p ? atoi(p + 1) : 0;
		char *text, *nl;
		struct kmag_err e = { 0 };

		if (pid <= 0 || pid == getpid() || !(kill(pid, 0) && errno == ESRCH))
			continue;
		text = kmag__tracefs_read(state_dir, strrchr(g.gl_pathv[i], '/') + 1);
		nl = text ? strchr(text, '\n') : NULL;
		if (nl) {
			*nl = '\0';
			if (!put_back(dir, text, nl[1] ? nl + 1 : NULL, &e)) {
				note(o, "restored the stack tracer setting (%s=%s) left changed by a kmag stack run that was killed (pid %d)",
				     SYSCTL, text, pid);
				unlink(g.gl_pathv[i]);
			} else {
				note(o, "cannot restore the stack tracer setting left by a killed kmag run: %s",
				     e.msg);
			}
		}
		free(text);
	}
	globfree(&g);
}

static int set_filter(struct kmag_stack *s, struct kmag_err *err)
{
	char path[4096];
	size_t i;
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/stack_trace_filter", s->dir);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return kmag_err_set(err, errno, "cannot open %s: %s", path, strerror(errno));
	for (i = 0; i < s->o.nr_filter && !ret; i++) {
		/* one glob per write: the kernel rejects a write that matches nothing */
		if (write(fd, s->o.filter[i], strlen(s->o.filter[i])) < 0)
			ret = kmag_err_set(err, errno == EINVAL ? ENOENT : errno,
					   "--filter \"%s\" matches no function the stack tracer can watch",
					   s->o.filter[i]);
		else if (write(fd, "\n", 1) < 0)
			ret = -errno;
	}
	if (close(fd) && !ret)
		ret = kmag_err_set(err, errno, "cannot write %s: %s", path, strerror(errno));
	return ret;
}

struct kmag_stack *kmag_stack_start(const struct kmag_stack_opts *opts, struct kmag_err *err)
{
	struct kmag_stack *s = calloc(1, sizeof(*s));
	const char *sd, *tdir;
	char *was = NULL;
	int ret;

	if (!s) {
		kmag_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	s->o = *opts;
	s->restored = true;
	if (geteuid() != 0) {
		kmag_err_set(err, EACCES, "kmag stack needs root to use the stack tracer (run it with sudo)");
		goto fail;
	}
	if (access(SYSCTL_DIR "/" SYSCTL, F_OK)) {
		kmag_err_set(err, ENODEV,
			     "this kernel has no stack tracer (%s/%s is missing: the kernel was built without CONFIG_STACK_TRACER)",
			     SYSCTL_DIR, SYSCTL);
		goto fail;
	}
	tdir = tracefs_tracing_dir();
	if (!tdir || !(s->dir = strdup(tdir))) {
		kmag_err_set(err, ENOENT,
			     "tracefs is not mounted; mount it with: mount -t tracefs nodev /sys/kernel/tracing");
		goto fail;
	}
	sd = opts->state_dir ? opts->state_dir : getenv("KMAG_STATE_DIR");
	sd = sd && *sd ? sd : DEFAULT_STATE_DIR;
	if (kmag__mkdir_p(sd)) {
		kmag_err_set(err, errno, "cannot create the state directory %s: %s", sd, strerror(errno));
		goto fail;
	}
	repair_stale(opts, sd, s->dir);
	if (asprintf(&s->state_path, "%s/stack-%d.state", sd, (int)getpid()) < 0) {
		s->state_path = NULL;
		kmag_err_set(err, ENOMEM, "out of memory");
		goto fail;
	}
	was = kmag__tracefs_read(SYSCTL_DIR, SYSCTL);
	if (!was) {
		kmag_err_set(err, errno, "cannot read %s/%s: %s", SYSCTL_DIR, SYSCTL, strerror(errno));
		goto fail;
	}
	snprintf(s->was_enabled, sizeof(s->was_enabled), "%.*s", (int)strcspn(was, "\n"), was);
	free(was);
	if (strcmp(s->was_enabled, "0")) {
		kmag_err_set(err, EBUSY,
			     "the stack tracer is already on (%s/%s is %s); someone else uses it: turn it off first",
			     SYSCTL_DIR, SYSCTL, s->was_enabled);
		goto fail;
	}
	if (opts->nr_filter) {
		s->was_filter = kmag__tracefs_read(s->dir, "stack_trace_filter");
		if (!s->was_filter) {
			kmag_err_set(err, errno, "cannot read %s/stack_trace_filter: %s", s->dir,
				     strerror(errno));
			goto fail;
		}
	}
	if (save_state(s, err))
		goto fail;
	s->restored = false;
	if (opts->nr_filter && set_filter(s, err))
		goto fail;
	/* a fresh maximum: what is measured is this run's */
	if ((ret = kmag__tracefs_write(s->dir, "stack_max_size", "0", err)))
		goto fail;
	ret = kmag__tracefs_write(SYSCTL_DIR, SYSCTL, "1", err);
	if (ret) {
		if (ret == -EPERM || ret == -EACCES) {
			kmag_err_clear(err);
			kmag_err_set(err, EPERM,
				     "the kernel does not permit the stack tracer: Operation not permitted (kernel lockdown, or a container without CAP_SYS_ADMIN)");
		}
		goto fail;
	}
	s->started = true;
	return s;
fail:
	kmag_stack_free(s);
	return NULL;
}

static int restore(struct kmag_stack *s, struct kmag_err *err)
{
	int ret;

	if (s->restored)
		return 0;
	ret = put_back(s->dir, s->was_enabled, s->was_filter, err);
	if (!ret) {
		s->restored = true;
		unlink(s->state_path);
	}
	return ret;
}

int kmag_stack_stop(struct kmag_stack *s, struct kmag_stack_result *res, struct kmag_err *err)
{
	char *text, *max;
	int ret;

	memset(res, 0, sizeof(*res));
	/* off first, so the trace is not rewritten while it is read */
	if (kmag__tracefs_write(SYSCTL_DIR, SYSCTL, "0", err))
		return -EIO;
	max = kmag__tracefs_read(s->dir, "stack_max_size");
	text = kmag__tracefs_read(s->dir, "stack_trace");
	if (!max || !text) {
		ret = kmag_err_set(err, errno ? errno : EIO, "cannot read the stack tracer's results in %s: %s",
				   s->dir, strerror(errno ? errno : EIO));
	} else if ((ret = kmag_stack_parse(text, res))) {
		ret = kmag_err_set(err, -ret, "cannot parse %s/stack_trace (unexpected layout)", s->dir);
	} else {
		res->max_size = strtoul(max, NULL, 10);
	}
	free(max);
	free(text);
	if (restore(s, ret ? NULL : err) && !ret)
		ret = -EIO;
	return ret;
}

void kmag_stack_free(struct kmag_stack *s)
{
	struct kmag_err err = { 0 };

	if (!s)
		return;
	if (restore(s, &err))
		pr_warn("%s", err.msg);
	free(s->was_filter);
	free(s->state_path);
	free(s->dir);
	free(s);
}

/*
 *         Depth    Size   Location    (18 entries)
 *         -----    ----   --------
 *   0)     3312      48   blake2s_compress+0x5/0xa0
 */
int kmag_stack_parse(const char *text, struct kmag_stack_result *res)
{
	const char *line = text;
	size_t cap = 0;
	bool header = false;

	memset(res, 0, sizeof(*res));
	while (line && *line) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		unsigned long idx, depth, size;
		char loc[512];
		int n = 0;

		if (len < sizeof(loc) && sscanf(line, " %lu) %lu %lu %511s%n", &idx, &depth, &size, loc, &n) == 4 &&
		    (size_t)n <= len) {
			struct kmag_stack_frame *f;

			if (kmag__grow(&res->frames, &cap, res->nr_frames + 1, sizeof(*res->frames)))
				goto nomem;
			f = &res->frames[res->nr_frames];
			memset(f, 0, sizeof(*f));
			f->depth = depth;
			f->size = size;
			f->location = strdup(loc);
			f->func = strndup(loc, strcspn(loc, "+"));
			res->nr_frames++;
			if (!f->location || !f->func)
				goto nomem;
		} else if (strstr(line, "Depth") && strstr(line, "Location")) {
			header = true;
		}
		line = eol ? eol + 1 : NULL;
	}
	if (!header) {
		kmag_stack_result_release(res);
		return -EINVAL;
	}
	return 0;
nomem:
	kmag_stack_result_release(res);
	return -ENOMEM;
}

void kmag_stack_result_release(struct kmag_stack_result *res)
{
	size_t i;

	for (i = 0; i < res->nr_frames; i++) {
		free(res->frames[i].location);
		free(res->frames[i].func);
	}
	free(res->frames);
	memset(res, 0, sizeof(*res));
}
