// SPDX-License-Identifier: MIT
/*
 * record.c - `kmag record`'s library side: checking every option against the
 * running kernel before anything is touched, and the recorder's life cycle.
 * See include/kmag/record.h; the parts live in record-*.c.
 */
#define PR_DOMAIN "record"
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <tracefs.h>
#include <unistd.h>

#include "flight.h"
#include "kmag/outfile.h"
#include "record-internal.h"

#define DEFAULT_STATE_DIR "/run/kmag"
#define AUTO_BUF_MIN_KB (4u << 10)	/* per CPU */
#define AUTO_BUF_MAX_KB (64u << 10)
#define EVENTS_ONLY_BUF_KB (4u << 10)

/* Is a tracefs mounted? (tracefs_tracing_dir_is_mounted() in 1.6.4 leaks its answer) */
static bool tracefs_mounted(void)
{
	char *mounts = kmag__tracefs_read("/proc", "mounts");
	bool yes = mounts && strstr(mounts, " tracefs ");

	free(mounts);
	return yes;
}

static int find_tracefs(struct kmag_recorder *r, struct kmag_err *err)
{
	bool was_mounted;
	const char *path;

	if (geteuid() != 0)
		return kmag_err_set(err, EACCES,
				    "kmag record needs root to configure ftrace (run it with sudo)");
	was_mounted = tracefs_mounted();
	/* libtracefs finds it, or mounts it at /sys/kernel/tracing */
	path = tracefs_tracing_dir();
	if (!path || (!was_mounted && !tracefs_mounted()))
		return kmag_err_set(err, ENOENT,
				    "tracefs is not mounted and mounting it failed; mount it with: mount -t tracefs nodev /sys/kernel/tracing");
	if (!was_mounted) {
		r->mounted_tracefs = true;
		kmag__rec_note(r, "mounted tracefs at %s (unmounted again at the end)", path);
	}
	r->dir = strdup(path);
	if (!r->dir)
		return kmag_err_set(err, ENOMEM, "out of memory");
	if (access(r->dir, W_OK))
		return kmag_err_set(err, errno, "cannot write to %s: %s (kmag record needs root)",
				    r->dir, strerror(errno));
	return 0;
}

int kmag__rec_choose_tracer(const struct kmag_record_opts *o, const char *avail,
			    enum kmag_rec_tracer *out, const char **note, struct kmag_err *err)
{
	bool wants_funcs = rec_filters_funcs(o) || o->nr_notrace || o->nr_graph_funcs ||
			   o->max_graph_depth;
	bool has_graph = kmag__word_in(avail, "function_graph");
	enum kmag_rec_tracer t = o->tracer;

	*note = NULL;
	if (t == KMAG_REC_TRACER_AUTO) {
		if ((o->nr_events || o->nr_probes || kmag__rec_event_triggers(o)) && !wants_funcs)
			t = KMAG_REC_TRACER_NONE;
		else if (has_graph)
			t = KMAG_REC_TRACER_FUNCTION_GRAPH;
		else if (kmag__word_in(avail, "function")) {
			/* messages below then name the kernel, not a -p the user never gave */
			t = KMAG_REC_TRACER_FUNCTION;
			*note = "this kernel has no function_graph tracer: CONFIG_FUNCTION_GRAPH_TRACER is not set";
		}
	}
	*out = t;
	if (t == KMAG_REC_TRACER_FUNCTION_GRAPH && !has_graph)
		return kmag_err_set(err, ENODEV,
				    "this kernel has no function_graph tracer (build it with CONFIG_FUNCTION_GRAPH_TRACER=y); -p function or -e SYSTEM:EVENT work without it");
	if ((t == KMAG_REC_TRACER_FUNCTION || t == KMAG_REC_TRACER_AUTO) &&
	    !kmag__word_in(avail, "function"))
		return kmag_err_set(err, ENODEV,
				    "this kernel has no function tracer (build it with CONFIG_FUNCTION_TRACER=y); tracepoint events (-e SYSTEM:EVENT) work without it");
	if (t != KMAG_REC_TRACER_FUNCTION_GRAPH && (o->nr_graph_funcs || o->max_graph_depth)) {
		if (*note)
			return kmag_err_set(err, ENODEV,
					    "-g and --max-graph-depth need the function_graph tracer, which this kernel lacks (CONFIG_FUNCTION_GRAPH_TRACER is not set); record without them, or on a kernel that has it");
		return kmag_err_set(err, EINVAL,
				    "-g and --max-graph-depth need the function_graph tracer (not -p %s)",
				    kmag_rec_tracer_name(t));
	}
	if (t != KMAG_REC_TRACER_FUNCTION_GRAPH && o->threshold_us) {
		if (*note)
			return kmag_err_set(err, ENODEV,
					    "--threshold needs the function_graph tracer, which this kernel lacks (CONFIG_FUNCTION_GRAPH_TRACER is not set)");
		return kmag_err_set(err, EINVAL,
				    "--threshold needs the function_graph tracer (it times calls; not -p %s)",
				    kmag_rec_tracer_name(t));
	}
	if (t == KMAG_REC_TRACER_NONE && (rec_filters_funcs(o) || o->nr_notrace))
		return kmag_err_set(err, EINVAL,
				    "-l, --func-list, --filter-filepath and -n need a function tracer, not -p nop");
	return 0;
}

static int resolve_tracer(struct kmag_recorder *r, struct kmag_err *err)
{
	char *avail = kmag__tracefs_read(r->dir, "available_tracers");
	int ret;

	if (!avail)
		return kmag_err_set(err, errno, "cannot read %s/available_tracers: %s", r->dir,
				    strerror(errno));
	ret = kmag__rec_choose_tracer(&r->o, avail, &r->tracer, &r->res.tracer_note, err);
	r->tracer_name = kmag_rec_tracer_name(r->tracer);
	free(avail);
	return ret;
}

/* Splits "glob:mod:module" and checks it matches at least one traceable function. */
static int parse_glob(struct kmag_recorder *r, const char *spec, const char *opt,
		      struct rec_glob *g, char ***names, struct kmag_err *err)
{
	const char *mod = strstr(spec, ":mod:");
	char **list = NULL;
	int n;

	g->spec = spec;
	if (mod) {
		g->pattern = mod > spec ? strndup(spec, (size_t)(mod - spec)) : NULL;
		g->module = strdup(mod + 5);
		if (!g->module || !*g->module || (mod > spec && !g->pattern))
			return kmag_err_set(err, EINVAL, "%s \"%s\": no module name after :mod:", opt,
					    spec);
	} else {
		g->pattern = strdup(spec);
		if (!g->pattern)
			return kmag_err_set(err, ENOMEM, "out of memory");
	}
	if (g->pattern && (!*g->pattern || strchr(g->pattern, ':') || strpbrk(g->pattern, " \t\n")))
		return kmag_err_set(err, EINVAL,
				    "%s \"%s\" is not a function name or glob (function commands like func:traceoff are not supported)",
				    opt, spec);
	if (tracefs_filter_functions(g->pattern, g->module, &list) < 0)
		return kmag_err_set(err, errno ? errno : EINVAL, "%s \"%s\": cannot match it: %s",
				    opt, spec, strerror(errno ? errno : EINVAL));
	n = tracefs_list_size(list);
	if (n <= 0) {
		tracefs_list_free(list);
		if (g->module)
			return kmag_err_set(err, ENOENT,
					    "%s \"%s\" matches no traceable function (is module %s loaded? see %s/available_filter_functions)",
					    opt, spec, g->module, r->dir);
		return kmag_err_set(err, ENOENT,
				    "%s \"%s\" matches no traceable function (see %s/available_filter_functions)",
				    opt, spec, r->dir);
	}
	if (names)
		*names = list;
	else
		tracefs_list_free(list);
	return 0;
}

static int add_name(struct kmag_recorder *r, const char *name, size_t *cap)
{
	size_t i;

	for (i = 0; i < r->nr_graph_names; i++)
		if (!strcmp(r->graph_names[i], name))
			return 0;
	if (kmag__grow(&r->graph_names, cap, r->nr_graph_names + 1, sizeof(char *)) ||
	    !(r->graph_names[r->nr_graph_names] = strdup(name)))
		return -ENOMEM;
	r->nr_graph_names++;
	return 0;
}

static int cmp_cstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Adds available_filter_functions line @line (function @name, borrowed) to the filter. */
static int add_index(struct kmag_recorder *r, unsigned line, const char *name, size_t *cap)
{
	size_t old = *cap;

	if (kmag__grow(&r->func_index, cap, r->nr_func_index + 1, sizeof(unsigned)))
		return -1;
	if (*cap != old) {
		/* both arrays grow together, to the same capacity */
		const char **v = realloc(r->func_index_names, *cap * sizeof(*v));

		if (!v)
			return -1;
		r->func_index_names = v;
	}
	r->func_index[r->nr_func_index] = line;
	r->func_index_names[r->nr_func_index++] = name;
	return 0;
}

/*
 * opts.func_names -> line numbers of available_filter_functions (@list),
 * which the kernel takes in set_ftrace_filter: one pass with a sorted copy
 * of the names instead of a regex scan per name.
 */
static int index_names(struct kmag_recorder *r, char *list, size_t *cap, struct kmag_err *err)
{
	size_t n = r->o.nr_func_names, found = 0, i;
	const char **sorted = malloc(n * sizeof(*sorted));
	bool *hit = calloc(n, sizeof(*hit));
	unsigned line = 0;
	char *p = list;

	if (!sorted || !hit) {
		free(sorted);
		free(hit);
		return kmag_err_set(err, ENOMEM, "out of memory");
	}
	memcpy(sorted, r->o.func_names, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_cstr);
	while (*p) {
		char *eol = p + strcspn(p, "\n"), *end = p + strcspn(p, " \t\n"), save = *end;
		const char *key = p, **at;

		line++;
		*end = '\0';
		at = bsearch(&key, sorted, n, sizeof(*sorted), cmp_cstr);
		*end = save;
		if (at) {
			hit[at - sorted] = true;
			if (add_index(r, line, *at, cap)) {
				free(sorted);
				free(hit);
				return kmag_err_set(err, ENOMEM, "out of memory");
			}
		}
		p = *eol ? eol + 1 : eol;
	}
	for (i = 0; i < n; i++)
		found += hit[i];
	free(sorted);
	free(hit);
	if (!found)
		return kmag_err_set(err, ENOENT,
				    "none of the %zu functions to trace can be traced (inlined or notrace; see %s/available_filter_functions)",
				    n, r->dir);
	if (found < n)
		kmag__rec_note(r, "%zu of %zu functions to trace cannot be traced (inlined or notrace) and are left out",
			       n - found, n);
	return 0;
}

/* opts.path_filter -> the traceable functions defined in matching files (@list). */
static int index_paths(struct kmag_recorder *r, const char *list, size_t *cap,
		       struct kmag_err *err)
{
	const struct kmag_selection *sel = &r->path_sel;
	int n = kmag_symmap_select(r->o.path_map, r->o.path_filter, list, strlen(list),
				   &r->path_sel, err);
	size_t i;

	if (n < 0)
		return n;
	if (!n)
		return kmag_err_set(err, ENOENT,
				    "no traceable function is defined in the files the path filter matches (%zu functions in %s/available_filter_functions, %zu of them not in the symbol map)",
				    sel->available, r->dir, sel->unmapped);
	for (i = 0; i < sel->nr; i++)
		if (add_index(r, (unsigned)sel->funcs[i].index, sel->funcs[i].name, cap))
			return kmag_err_set(err, ENOMEM, "out of memory");
	r->res.path_functions = sel->nr;
	if (sel->unmapped * 2 > sel->available)
		kmag__rec_note(r, "the symbol map knows only %zu of the kernel's %zu traceable functions: is it for this kernel (and its modules)?",
			       sel->available - sel->unmapped, sel->available);
	return 0;
}

static int resolve_functions(struct kmag_recorder *r, struct kmag_err *err)
{
	const struct kmag_record_opts *o = &r->o;
	size_t i, cap = 0, index_cap = 0;
	char *probe;
	int ret;

	if (!rec_filters_funcs(o) && !o->nr_notrace && !o->nr_graph_funcs)
		return 0;
	/* libtracefs reports an unreadable list as "no match": look first */
	probe = kmag__tracefs_read(r->dir, "available_filter_functions");
	if (!probe) {
		if (errno == EPERM || errno == EACCES)
			return kmag__tracefs_perm_error(err, "function tracing here (reading available_filter_functions)");
		return kmag_err_set(err, errno, "cannot read %s/available_filter_functions: %s",
				    r->dir, strerror(errno));
	}
	/* the path filter first: index_names() cuts the list into names */
	ret = o->path_filter ? index_paths(r, probe, &index_cap, err) : 0;
	if (!ret && o->nr_func_names)
		ret = index_names(r, probe, &index_cap, err);
	free(probe);
	if (ret)
		return ret;
	r->funcs = calloc(o->nr_funcs + 1, sizeof(*r->funcs));
	r->notrace = calloc(o->nr_notrace + 1, sizeof(*r->notrace));
	if (!r->funcs || !r->notrace)
		return kmag_err_set(err, ENOMEM, "out of memory");
	for (i = 0; i < o->nr_funcs; i++)
		if ((ret = parse_glob(r, o->funcs[i], "-l", &r->funcs[i], NULL, err)))
			return ret;
	for (i = 0; i < o->nr_notrace; i++)
		if ((ret = parse_glob(r, o->notrace[i], "-n", &r->notrace[i], NULL, err)))
			return ret;
	for (i = 0; i < o->nr_graph_funcs; i++) {
		struct rec_glob g = { 0 };
		char **names = NULL;
		int k;

		ret = parse_glob(r, o->graph_funcs[i], "-g", &g, &names, err);
		free(g.pattern);
		free(g.module);
		for (k = 0; !ret && names && names[k]; k++)
			if (add_name(r, names[k], &cap))
				ret = kmag_err_set(err, ENOMEM, "out of memory");
		tracefs_list_free(names);
		if (ret)
			return ret;
	}
	return 0;
}

static int add_event(struct kmag_recorder *r, const char *sys, const char *ev, const char *filter,
		     size_t *cap)
{
	size_t i;

	for (i = 0; i < r->nr_events; i++)
		if (!strcmp(r->events[i].system, sys) && !strcmp(r->events[i].name, ev)) {
			if (filter)
				r->events[i].filter = filter;
			return 0;
		}
	if (kmag__grow(&r->events, cap, r->nr_events + 1, sizeof(*r->events)))
		return -ENOMEM;
	r->events[r->nr_events] = (struct rec_event){ strdup(sys), strdup(ev), filter };
	if (!r->events[r->nr_events].system || !r->events[r->nr_events].name)
		return -ENOMEM;
	r->nr_events++;
	return 0;
}

/*
 * "; did you mean sched:sched_switch?" for an unknown -e @spec: the events
 * of tracefs that look like it (as SYSTEM:EVENT, or bare names for a bare
 * name), or "".
 */
static void suggest_event(const char *events_dir, const char *spec, char *buf, size_t size)
{
	bool bare = !strpbrk(spec, ":/");
	char **systems, *word = strdup(spec), list[400];
	const char **names = NULL;
	size_t nsys, s, n = 0, cap = 0;

	buf[0] = '\0';
	if (!word)
		return;
	if (!bare)
		word[strcspn(word, ":/")] = ':';
	systems = kmag__list_dir(events_dir, "*", false, &nsys);
	for (s = 0; s < nsys; s++) {
		char sys_dir[4096 + 512], **evs;
		size_t nev, k;

		if (!strcmp(systems[s], "ftrace"))
			continue;	/* not events -e takes (resolve_event()) */
		snprintf(sys_dir, sizeof(sys_dir), "%s/%s", events_dir, systems[s]);
		evs = kmag__list_dir(sys_dir, "*", true, &nev);
		for (k = 0; k < nev; k++) {
			char *name = NULL;

			if (kmag__grow(&names, &cap, n + 1, sizeof(*names)) ||
			    (bare ? !(name = strdup(evs[k])) :
				    asprintf(&name, "%s:%s", systems[s], evs[k]) < 0))
				break;
			names[n++] = name;
		}
		kmag__free_list(evs, nev);
	}
	if (kmag_suggest(word, names, n, "", list, sizeof(list)))
		snprintf(buf, size, "; did you mean %s?", list);
	kmag__free_list((char **)names, n);
	kmag__free_list(systems, nsys);
	free(word);
}

/* One -e: "sys:event", "sys/event", "sys" or a bare event name; globs allowed. */
static int resolve_event(struct kmag_recorder *r, const struct kmag_rec_event *e, size_t *cap,
			 struct kmag_err *err)
{
	const char *sep = strpbrk(e->spec, ":/");
	char *sys_glob = sep ? strndup(e->spec, (size_t)(sep - e->spec)) : strdup(e->spec);
	const char *ev_glob = sep ? sep + 1 : "*";
	char events_dir[4096], **systems;
	size_t nsys, s, found = 0;
	int ret = 0;

	if (!sys_glob)
		return kmag_err_set(err, ENOMEM, "out of memory");
	snprintf(events_dir, sizeof(events_dir), "%s/events", r->dir);
	systems = kmag__list_dir(events_dir, *sys_glob ? sys_glob : "*", false, &nsys);
	if (!sep && !nsys) {
		/* a bare event name: look for it in every system, as trace-cmd does */
		systems = kmag__list_dir(events_dir, "*", false, &nsys);
		ev_glob = e->spec;
	}
	for (s = 0; s < nsys && !ret; s++) {
		char sys_dir[4096 + 512], **evs;
		size_t nev, k;

		if (!strcmp(systems[s], "ftrace"))
			continue;	/* the tracer's own records, not tracepoints */
		snprintf(sys_dir, sizeof(sys_dir), "%s/%s", events_dir, systems[s]);
		evs = kmag__list_dir(sys_dir, *ev_glob ? ev_glob : "*", true, &nev);
		for (k = 0; k < nev && !ret; k++, found++)
			if (add_event(r, systems[s], evs[k], e->filter, cap))
				ret = kmag_err_set(err, ENOMEM, "out of memory");
		kmag__free_list(evs, nev);
	}
	kmag__free_list(systems, nsys);
	free(sys_glob);
	if (!ret && !found) {
		char similar[450];

		suggest_event(events_dir, e->spec, similar, sizeof(similar));
		if (similar[0])
			ret = kmag_err_set(err, ENOENT, "unknown event \"%s\"%s", e->spec, similar);
		else
			ret = kmag_err_set(err, ENOENT,
					   "unknown event \"%s\" (see %s/available_events; the form is SYSTEM:EVENT, e.g. sched:sched_switch)",
					   e->spec, r->dir);
	}
	return ret;
}

static int resolve_events(struct kmag_recorder *r, struct kmag_err *err)
{
	size_t i, cap = r->nr_events;
	int ret;

	for (i = 0; i < r->o.nr_events; i++)
		if ((ret = resolve_event(r, &r->o.events[i], &cap, err)))
			return ret;
	return 0;
}

/* A flight recording's checks; an event trigger's event is recorded too. */
static int resolve_flight(struct kmag_recorder *r, struct kmag_err *err)
{
	size_t i, cap = r->nr_events;
	int ret, n = 0, c;

	if (!r->o.flight_bytes)
		return 0;
	for (c = 0; c < r->nr_cpus; c++)
		n += rec_cpu_wanted(r, c);
	/* (the ring's blocks are pages of the machine's size: tracefs' default sub-buffer) */
	if ((ret = kmag__fl_check_size(r->o.flight_bytes, n, (uint32_t)getpagesize(), err)) ||
	    (ret = kmag__rec_flight_check(r, err)))
		return ret;
	for (i = 0; i < r->fl->ntrig; i++) {
		const struct kmag__trigger *t = &r->fl->trig[i];

		if (t->kind == KMAG_TRIG_EVENT && add_event(r, t->system, t->event, NULL, &cap))
			return kmag_err_set(err, ENOMEM, "out of memory");
	}
	return 0;
}

void kmag__rec_mask_to_list(const uint64_t *mask, char *buf, size_t size)
{
	size_t len = 0;
	int c = 0;

	buf[0] = '\0';
	while (c < REC_MAX_CPUS) {
		int e;

		if (!((mask[c / 64] >> (c % 64)) & 1)) {
			c++;
			continue;
		}
		for (e = c; e + 1 < REC_MAX_CPUS && ((mask[(e + 1) / 64] >> ((e + 1) % 64)) & 1); e++)
			;
		if (len < size)
			len += (size_t)snprintf(buf + len, size - len, e > c ? "%s%d-%d" : "%s%d",
						len ? "," : "", c, e);
		c = e + 1;
	}
}

static int resolve_cpus(struct kmag_recorder *r, struct kmag_err *err)
{
	uint64_t online[REC_MASK_WORDS];
	char per_cpu[4096], **dirs, *text;
	size_t n, i;
	int c;

	snprintf(per_cpu, sizeof(per_cpu), "%s/per_cpu", r->dir);
	dirs = kmag__list_dir(per_cpu, "cpu*", false, &n);
	for (i = 0; i < n; i++) {
		int id = atoi(dirs[i] + 3);

		if (id >= r->nr_cpus)
			r->nr_cpus = id + 1;
	}
	kmag__free_list(dirs, n);
	if (r->nr_cpus <= 0 || r->nr_cpus > REC_MAX_CPUS)
		return kmag_err_set(err, ENODEV, "cannot find the per-CPU buffers in %s", per_cpu);
	text = kmag__tracefs_read("/sys/devices/system/cpu", "online");
	memset(online, 0, sizeof(online));
	if (text)
		text[strcspn(text, "\n")] = '\0';
	if (!text || kmag__parse_cpulist(text, online, REC_MAX_CPUS)) {
		for (c = 0; c < r->nr_cpus; c++)
			online[c / 64] |= 1ull << (c % 64);
	}
	free(text);
	if (!r->o.cpus && !r->o.cpumask) {
		memcpy(r->mask, online, sizeof(online));
	} else {
		/* the syntax was checked by kmag_record_opts_check() */
		const char *opt = r->o.cpus ? "--cpu" : "--cpumask";
		const char *m = r->o.cpus ? r->o.cpus : r->o.cpumask;
		char avail[256];

		if (kmag__rec_parse_cpus(&r->o, r->mask, err))
			return -EINVAL;
		kmag__rec_mask_to_list(online, avail, sizeof(avail));
		for (c = 0; c < REC_MAX_CPUS; c++)
			if (rec_cpu_wanted(r, c) && !((online[c / 64] >> (c % 64)) & 1))
				return kmag_err_set(err, EINVAL,
						    "%s %s names CPU %d, which %s (online CPUs: %s)",
						    opt, m, c, c < r->nr_cpus ? "is offline" : "does not exist",
						    avail);
	}
	kmag__rec_mask_to_list(r->mask, r->cpulist, sizeof(r->cpulist));
	if (!r->cpulist[0])
		return kmag_err_set(err, EINVAL, "--cpumask %s selects no CPU", r->o.cpumask);
	return 0;
}

static int check_pids_and_command(struct kmag_recorder *r, struct kmag_err *err)
{
	size_t i;

	for (i = 0; i < r->o.nr_pids; i++) {
		pid_t p = r->o.pids[i];

		if (p <= 0 || (kill(p, 0) && errno == ESRCH))
			return kmag_err_set(err, ESRCH, "no process with pid %d (-P)", (int)p);
	}
	if (r->o.command) {
		const char *cmd = r->o.command[0];
		char *path, *save = NULL, *dir;
		bool found = false;

		if (!cmd || !*cmd)
			return kmag_err_set(err, EINVAL, "empty command after --");
		if (strchr(cmd, '/'))
			found = !access(cmd, X_OK);
		else if ((path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin"))) {
			for (dir = strtok_r(path, ":", &save); dir && !found;
			     dir = strtok_r(NULL, ":", &save)) {
				char full[4096];

				snprintf(full, sizeof(full), "%s/%s", *dir ? dir : ".", cmd);
				found = !access(full, X_OK);
			}
			free(path);
		}
		if (!found)
			return kmag_err_set(err, ENOENT, "cannot run \"%s\": %s", cmd,
					    strchr(cmd, '/') ? strerror(errno) : "command not found in PATH");
	}
	return 0;
}

static unsigned long mem_available_kb(void)
{
	char *text = kmag__tracefs_read("/proc", "meminfo"), *p;
	unsigned long kb = 0;

	if (text && (p = strstr(text, "MemAvailable:")))
		kb = strtoul(p + 13, NULL, 10);
	free(text);
	return kb;
}

static int choose_buffer(struct kmag_recorder *r, struct kmag_err *err)
{
	unsigned long avail = mem_available_kb(), ncpus = 0, kb;
	int c;

	for (c = 0; c < r->nr_cpus; c++)
		ncpus += rec_cpu_wanted(r, c);
	if (r->o.buffer_kb) {
		kb = r->o.buffer_kb;
		if (avail && kb > avail / 2 / ncpus)
			return kmag_err_set(err, ENOMEM,
					    "-b %lu KiB per CPU x %lu CPUs is more than half the available memory (%lu MiB); choose a smaller -b",
					    kb, ncpus, avail >> 10);
	} else if (r->tracer == KMAG_REC_TRACER_NONE) {
		kb = EVENTS_ONLY_BUF_KB;
	} else {
		/*
		 * Function tracing produces tens of MB/s per CPU; the kernel
		 * default (about 1.4 MB) overflows within milliseconds of a
		 * reader's delay. Use 1/16 of the available memory, between 4
		 * and 64 MiB per CPU.
		 */
		kb = avail ? avail / 16 / ncpus : AUTO_BUF_MIN_KB;
		if (kb < AUTO_BUF_MIN_KB)
			kb = AUTO_BUF_MIN_KB;
		if (kb > AUTO_BUF_MAX_KB)
			kb = AUTO_BUF_MAX_KB;
	}
	r->buffer_kb = kb;
	return 0;
}

/* The one line for an output directory kmag cannot write into (errno @e). */
static int output_dir_error(const char *output, int e, struct kmag_err *err)
{
	char *copy = strdup(output);
	const char *dir = copy ? dirname(copy) : ".";
	int ret = kmag_err_set(err, e,
			       "cannot write into %s (for -o %s): %s; nothing was recorded: record into a directory you can write",
			       dir, output, strerror(e));

	free(copy);
	return ret;
}

/*
 * Creates and removes a file next to @output: the only sure test that the
 * directory takes the temporary files (access() does not know about a
 * read-only bind mount's peer, quotas, network file systems, LSMs...).
 */
static int probe_output_dir(const char *output, struct kmag_err *err)
{
	char *probe = NULL;
	int fd, e = 0;

	if (asprintf(&probe, "%s.kmag-%d.probe", output, (int)getpid()) < 0)
		return kmag_err_set(err, ENOMEM, "out of memory");
	fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		e = errno;
	else if (close(fd) || unlink(probe))
		e = errno;
	free(probe);
	return e ? output_dir_error(output, e, err) : 0;
}

/* The space the recording reserves (record-output.c) and its rings must be free now. */
static int check_free_space(const struct kmag_record_opts *o, struct kmag_err *err)
{
	const char *output = o->output;
	uint64_t need = kmag__rec_reserve_bytes(o) + o->flight_bytes;
	char *copy = strdup(output);
	const char *dir = copy ? dirname(copy) : NULL;
	struct statvfs fs;
	uint64_t avail;
	int ret = 0;

	if (!dir)
		return kmag_err_set(err, ENOMEM, "out of memory");
	if (!statvfs(dir, &fs)) {
		avail = (uint64_t)fs.f_bavail * fs.f_frsize;
		if (avail < need)
			ret = kmag_err_set(err, ENOSPC,
					   "no space left on device in %s (%llu KiB free; recording needs at least %llu MiB there%s): nothing was recorded; free space there or record elsewhere (-o)",
					   dir, (unsigned long long)(avail >> 10),
					   (unsigned long long)((need + (1 << 20) - 1) >> 20),
					   o->flight_bytes ? ": the rings, and room for a snapshot as big" : "");
	}
	free(copy);
	return ret;
}

static const char *special_kind(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return "not a regular file";
	return S_ISFIFO(st.st_mode) ? "a FIFO" :
	       S_ISSOCK(st.st_mode) ? "a socket" :
	       S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "not a regular file";
}

static int check_output_and_clock(struct kmag_recorder *r, struct kmag_err *err)
{
	enum kmag_outfile_kind kind;
	struct kmag_err e = { 0 };
	char *clocks;
	int ret = 0;

	/* the output rules of every command (include/kmag/outfile.h) */
	if ((ret = kmag_outfile_check(r->o.output, &kind, &e))) {
		if (ret == -EROFS || ret == -EACCES || ret == -EPERM)
			return output_dir_error(r->o.output, -ret, err);
		return kmag_err_set(err, e.code, "%s", e.msg);
	}
	/*
	 * trace.dat is written with seeks and put in place with a rename: a
	 * device or FIFO can take neither, and renaming over /dev/null would
	 * replace the device itself. Said before anything is touched: a reader
	 * on a FIFO would otherwise wait through the whole recording.
	 */
	if (kind == KMAG_OUTFILE_DEVICE)
		return kmag_err_set(err, EINVAL, "-o %s is %s; record into a regular file (trace.dat is written with seeks and renamed into place), then copy it",
				    r->o.output, special_kind(r->o.output));
	if ((ret = probe_output_dir(r->o.output, err)))
		return ret;
	if ((ret = check_free_space(&r->o, err)))
		return ret;
	r->version = r->o.file_version			    ? r->o.file_version :
		     r->o.compression == KMAG_REC_COMPRESS_NONE ? 6 :
								  7;
	r->res.file_version = r->version;
	r->res.compressed = r->version == 7 && r->o.compression != KMAG_REC_COMPRESS_NONE;
	if (r->o.clock) {
		clocks = kmag__tracefs_read(r->dir, "trace_clock");
		if (clocks && !kmag__word_in(clocks, r->o.clock))
			ret = kmag_err_set(err, EINVAL, "unknown trace clock \"%s\" (this kernel has: %s)",
					   r->o.clock, strtok(clocks, "\n"));
		free(clocks);
	}
	return ret;
}

struct kmag_recorder *kmag_recorder_new(const struct kmag_record_opts *opts, struct kmag_err *err)
{
	struct kmag_recorder *r = calloc(1, sizeof(*r));
	const char *sd;
	int ret;

	if (!r) {
		kmag_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	if (kmag_record_opts_check(opts, err)) {
		free(r);
		return NULL;
	}
	r->o = *opts;
	r->inst_lock_fd = r->top_lock_fd = r->stop_efd = r->out_fd = -1;
	r->child_go_fd = r->child_err_fd = -1;
	r->child_status = -1;
	r->res.command_status = -1;
	r->res.recorded = "";
	r->w.fd = -1;
	sd = opts->state_dir ? opts->state_dir : getenv("KMAG_STATE_DIR");
	r->state_dir = strdup(sd && *sd ? sd : DEFAULT_STATE_DIR);
	if (!r->state_dir) {
		kmag_err_set(err, ENOMEM, "out of memory");
		kmag_recorder_free(r);
		return NULL;
	}
	if ((ret = find_tracefs(r, err)) || (ret = kmag__rec_cleanup_stale(r, err)) ||
	    (ret = resolve_tracer(r, err)) || (ret = kmag__rec_topts_check(r, err)) ||
	    (ret = kmag__rec_checkpoint(r, "functions", err)) ||
	    (ret = resolve_functions(r, err)) ||
	    (ret = resolve_events(r, err)) || (ret = kmag__rec_probes_check(r, err)) ||
	    (ret = resolve_cpus(r, err)) || (ret = resolve_flight(r, err)) ||
	    (ret = check_pids_and_command(r, err)) || (ret = choose_buffer(r, err)) ||
	    (ret = check_output_and_clock(r, err)) || (ret = kmag__rec_checkpoint(r, "checked", err))) {
		if (rec_interrupted(r)) {
			/* only stale runs' leftovers were repaired: tracefs is as it was */
			kmag_err_clear(err);
			kmag_err_set(err, EINTR, "interrupted before set-up; tracefs untouched");
		}
		kmag_recorder_free(r);
		return NULL;
	}
	return r;
}

const struct kmag_rec_result *kmag_recorder_result(const struct kmag_recorder *r)
{
	return &r->res;
}

void kmag_recorder_free(struct kmag_recorder *r)
{
	struct kmag_err err = { 0 };
	size_t i;

	if (!r)
		return;
	kmag__rec_cancel_child(r);
	kmag__rec_stop_readers(r);
	kmag__rec_close_readers(r);
	if (kmag__rec_restore(r, &err))
		pr_warn("%s", err.msg);
	kmag__rec_out_discard(r);
	if (r->mounted_tracefs && r->dir && umount2(r->dir, MNT_DETACH))
		pr_warn("cannot unmount tracefs from %s: %s", r->dir, strerror(errno));
	for (i = 0; r->funcs && i < r->o.nr_funcs; i++) {
		free(r->funcs[i].pattern);
		free(r->funcs[i].module);
	}
	for (i = 0; r->notrace && i < r->o.nr_notrace; i++) {
		free(r->notrace[i].pattern);
		free(r->notrace[i].module);
	}
	free(r->funcs);
	free(r->notrace);
	free(r->func_index);
	free(r->func_index_names);
	kmag_selection_release(&r->path_sel);
	kmag__free_list(r->graph_names, r->nr_graph_names);
	for (i = 0; i < r->nr_events; i++) {
		free(r->events[i].system);
		free(r->events[i].name);
	}
	free(r->events);
	kmag__rec_probes_free(r);
	kmag__rs_release(&r->state);
	free(r->inst_dir);
	free(r->res_cpus);
	free(r->clock_file);
	free(r->clock_name);
	free(r->cmdlines);
	free(r->uname);
	free(r->state_dir);
	free(r->dir);
	free(r);
}
