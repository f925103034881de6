// SPDX-License-Identifier: MIT
/*
 * record-stale.c - lock files, and repairing what a killed kmag run left:
 * its tracefs instance, the top-level settings it saved, its temporary
 * files. Every run holds a lock on <state dir>/inst-<pid>.lock (and
 * top.lock while it owns the top level); the kernel drops a lock when its
 * holder dies, even by SIGKILL, which is how the next run tells a killed
 * run from a live one.
 */
#define PR_DOMAIN "record"
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <tracefs.h>
#include <unistd.h>

#include "record-internal.h"

int kmag__rec_remove_instance(const char *name)
{
	struct tracefs_instance *inst = tracefs_instance_alloc(NULL, name);
	int ret;

	if (!inst)
		return -errno;
	tracefs_trace_off(inst);
	tracefs_tracer_clear(inst);
	ret = tracefs_instance_destroy(inst) ? -errno : 0;
	tracefs_instance_free(inst);
	return ret;
}

/*
 * A run names its output in <state dir>/out-<pid> before creating its
 * temporary files (<output>.kmag-<pid>*); the next run removes them if that
 * run was killed.
 */
static void cleanup_outputs(struct kmag_recorder *r)
{
	char *pat = NULL, *output;
	glob_t g, files;
	size_t i, k;

	if (asprintf(&pat, "%s/out-*", r->state_dir) < 0)
		return;
	if (glob(pat, GLOB_NOSORT, NULL, &g)) {
		free(pat);
		return;
	}
	free(pat);
	for (i = 0; i < g.gl_pathc; i++) {
		const char *p = strrchr(g.gl_pathv[i], '-');
		int pid = p ? atoi(p + 1) : 0;

		if (pid <= 0 || pid == getpid() || !(kill(pid, 0) && errno == ESRCH))
			continue;
		output = kmag__tracefs_read(r->state_dir, strrchr(g.gl_pathv[i], '/') + 1);
		if (output && *output && asprintf(&pat, "%s.kmag-%d[.-]*", output, pid) >= 0) {
			if (!glob(pat, GLOB_NOSORT, NULL, &files)) {
				for (k = 0; k < files.gl_pathc; k++)
					if (!unlink(files.gl_pathv[k]))
						kmag__rec_note(r, "removed %s, left by a kmag run that was killed (pid %d)",
							       files.gl_pathv[k], pid);
				globfree(&files);
			}
			free(pat);
		}
		free(output);
		unlink(g.gl_pathv[i]);
	}
	globfree(&g);
}

int kmag__rec_track_output(struct kmag_recorder *r, bool on, struct kmag_err *err)
{
	char name[64], path[4096];
	char *abs = NULL;
	int ret = 0;

	snprintf(name, sizeof(name), "out-%d", (int)getpid());
	snprintf(path, sizeof(path), "%s/%s", r->state_dir, name);
	if (!on) {
		unlink(path);
		return 0;
	}
	/* an absolute path: the next run may work elsewhere */
	abs = r->o.output[0] == '/' ? strdup(r->o.output) : NULL;
	if (!abs) {
		char cwd[4096];

		if (getcwd(cwd, sizeof(cwd)) && asprintf(&abs, "%s/%s", cwd, r->o.output) < 0)
			abs = NULL;
	}
	if (abs) {
		FILE *f = fopen(path, "we");
		bool ok = f && fputs(abs, f) >= 0;

		if (f && fclose(f))
			ok = false;
		if (!ok)
			ret = kmag_err_set(err, errno, "cannot write %s: %s", path, strerror(errno));
	} else {
		ret = kmag_err_set(err, ENOMEM, "out of memory");
	}
	free(abs);
	return ret;
}

int kmag__rec_cleanup_stale(struct kmag_recorder *r, struct kmag_err *err)
{
	char **names, path[4096];
	int i, fd = -1;

	if (kmag__mkdir_p(r->state_dir))
		return kmag_err_set(err, errno, "cannot create the state directory %s: %s",
				    r->state_dir, strerror(errno));
	/* all names: tracefs_instances() in 1.6.4 leaks its compiled regex */
	names = tracefs_instances(NULL);
	for (i = 0; names && names[i]; i++) {
		const char *digits = names[i] + 5;
		int pid, ret;

		if (strncmp(names[i], "kmag-", 5) || !*digits ||
		    strspn(digits, "0123456789") != strlen(digits))
			continue;
		pid = atoi(digits);
		if (pid == getpid() || !kmag__rec_owner_gone(r->state_dir, pid))
			continue;
		ret = kmag__rec_remove_instance(names[i]);
		if (ret)
			kmag__rec_note(r, "cannot remove the tracefs instance %s left by a killed kmag run (pid %d): %s",
				       names[i], pid, strerror(-ret));
		else
			kmag__rec_note(r, "removed the tracefs instance %s left by a kmag run that was killed (pid %d)",
				       names[i], pid);
	}
	tracefs_list_free(names);

	snprintf(path, sizeof(path), "%s/top.state", r->state_dir);
	if (!access(path, F_OK) && !kmag__lock_file(r->state_dir, "top.lock", false, &fd)) {
		struct rec_state s;
		struct kmag_err e = { 0 };

		if (kmag__rs_load(&s, path, &e) || kmag__rs_restore(&s, &e)) {
			kmag__rs_release(&s);
			kmag__unlock_file(r->state_dir, "top.lock", &fd);
			return kmag_err_set(err, EIO,
					    "cannot restore the tracefs settings a killed kmag run saved in %s: %s",
					    path, e.msg);
		}
		kmag__rec_note(r, "restored the top-level tracefs settings (%zu files) left changed by a kmag run that was killed",
			       s.n);
		kmag__rs_release(&s);
		kmag__unlock_file(r->state_dir, "top.lock", &fd);
	}
	kmag__rec_probes_cleanup_stale(r);
	cleanup_outputs(r);
	return 0;
}

