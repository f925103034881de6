// SPDX-License-Identifier: MIT
/*
 * t-record.c - the recorder's pure parts: --cpumask parsing, and the saved
 * tracefs state (what is written back, the crash-recovery state file),
 * exercised on a fake tracing directory of plain files. The kernel-facing
 * behaviour is tested in tests/e2e/t0300-record-host.sh and tests/vm/record.
 */
#include <stdio.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/record-internal.h"
#include "test.h"

static const char *mask_list(const char *spec)
{
	static char buf[256];
	uint64_t mask[REC_MASK_WORDS];

	if (kmag__rec_parse_cpumask(spec, mask))
		return "error";
	kmag__rec_mask_to_list(mask, buf, sizeof(buf));
	return buf;
}

/* The calibration's CPU for recorded CPUs @rec and allowed CPUs @ok (bits of CPUs 0-63). */
static int cal_cpu(uint64_t rec, uint64_t ok)
{
	uint64_t mask[REC_MASK_WORDS] = { rec };
	cpu_set_t allowed;
	int cpu;

	CPU_ZERO(&allowed);
	for (cpu = 0; cpu < 64; cpu++)
		if (ok >> cpu & 1)
			CPU_SET(cpu, &allowed);
	return kmag__rec_calibrate_cpu(mask, 64, &allowed);
}

static void calibration_runs_on_a_recorded_cpu(void)
{
	CHECK_EQ(cal_cpu(0x3, 0x3), 0);	/* the first recorded one kmag may run on */
	CHECK_EQ(cal_cpu(0x3, 0x2), 1);
	CHECK_EQ(cal_cpu(0xc, 0xf), 2);
	/* kmag kept off the workload's CPU: taskset -c 0 kmag record --cpu 1 -- taskset -c 1 CMD */
	CHECK_EQ(cal_cpu(0x2, 0x1), 1);
	CHECK_EQ(cal_cpu(0xc, 0x3), 2);
	CHECK_EQ(cal_cpu(0, 0xf), -1);
}

static void cpumask_forms(void)
{
	/* hex masks, as tracing_cpumask takes them (and as the seed tool did) */
	CHECK_STREQ(mask_list("1"), "0");
	CHECK_STREQ(mask_list("6"), "1-2");
	CHECK_STREQ(mask_list("10"), "4");
	CHECK_STREQ(mask_list("0x6"), "1-2");
	CHECK_STREQ(mask_list("f0"), "4-7");
	CHECK_STREQ(mask_list("1,00000001"), "0,32");
	CHECK_STREQ(mask_list("ff,ffffffff"), "0-39");
	/* CPU lists are --cpu's: a mask that reads "1,3" one way and "0-1" the other is refused */
	CHECK_STREQ(mask_list("0-3,8"), "error");
	CHECK_STREQ(mask_list("1,3"), "error");
	/* junk */
	CHECK_STREQ(mask_list("xyz"), "error");
	CHECK_STREQ(mask_list("3-1"), "error");
	CHECK_STREQ(mask_list(""), "error");
	CHECK_STREQ(mask_list("0x"), "error");
	CHECK_STREQ(mask_list(",1"), "error");
}

/* The CPUs of --cpu / --cpumask as a list, or the error message. */
static const char *cpus_of(const char *cpus, const char *cpumask)
{
	static char buf[256];
	struct kmag_record_opts o = { .cpus = cpus, .cpumask = cpumask, .output = "x.dat" };
	struct kmag_err err = { 0 };
	uint64_t mask[REC_MASK_WORDS];

	if (kmag_record_opts_check(&o, &err))
		return strcpy(buf, err.msg);
	CHECK(!kmag__rec_parse_cpus(&o, mask, &err));
	kmag__rec_mask_to_list(mask, buf, sizeof(buf));
	return buf;
}

static void cpu_means_cpus(void)
{
	/* issue 18: "record --cpu 1" recorded CPU 0 (taken as --cpumask 1) */
	CHECK_STREQ(cpus_of("1", NULL), "1");
	CHECK_STREQ(cpus_of("10", NULL), "10");
	CHECK_STREQ(cpus_of("0-3,8", NULL), "0-3,8");
	CHECK_STREQ(cpus_of(NULL, "10"), "4");
	CHECK_STREQ(cpus_of(NULL, "0x10"), "4");
	/* the same message as the analysis commands' --cpu (lib/filter.c) */
	CHECK_STREQ(cpus_of("3-1", NULL), "invalid CPU list \"3-1\" (expected e.g. 0-3,8)");
	CHECK_STREQ(cpus_of("x", NULL), "invalid CPU list \"x\" (expected e.g. 0-3,8)");
	CHECK(strstr(cpus_of(NULL, "0-3"), "for the CPUs 0-3 use --cpu 0-3"));
	CHECK(strstr(cpus_of(NULL, "0"), "selects no CPU"));
	CHECK(strstr(cpus_of("1", "2"), "not both"));
}

static void nop_needs_something_to_record(void)
{
	struct kmag_rec_event ev = { "sched:sched_switch", NULL };
	struct kmag_record_opts o = { .tracer = KMAG_REC_TRACER_NONE, .output = "x.dat" };
	struct kmag_err err = { 0 };

	/* issue 18: -p nop with no event wrote an empty trace.dat and exited 0 */
	CHECK(kmag_record_opts_check(&o, &err) == -EINVAL);
	CHECK(strstr(err.msg, "add -e SYSTEM:EVENT"));
	o.events = &ev;
	o.nr_events = 1;
	CHECK(kmag_record_opts_check(&o, &err) == 0);
}

static const char *tracer_error(enum kmag_rec_tracer want, const char *avail, bool graph_opt)
{
	static char buf[512];
	const char *g = "vfs_read";
	struct kmag_record_opts o = { .tracer = want, .graph_funcs = &g, .nr_graph_funcs = graph_opt };
	struct kmag_err err = { 0 };
	enum kmag_rec_tracer t;
	const char *note;

	if (!kmag__rec_choose_tracer(&o, avail, &t, &note, &err))
		return kmag_rec_tracer_name(t);
	return strcpy(buf, err.msg);
}

static void tracer_messages_name_what_the_user_gave(void)
{
	const char *both = "blk function_graph wakeup function nop", *fn = "blk function nop";

	CHECK_STREQ(tracer_error(KMAG_REC_TRACER_AUTO, both, true), "function_graph");
	CHECK_STREQ(tracer_error(KMAG_REC_TRACER_AUTO, fn, false), "function");
	/* issue 18: -g without -p on a kernel lacking function_graph said "(not -p function)" */
	CHECK(!strstr(tracer_error(KMAG_REC_TRACER_AUTO, fn, true), "-p function)"));
	CHECK(strstr(tracer_error(KMAG_REC_TRACER_AUTO, fn, true), "which this kernel lacks"));
	CHECK(strstr(tracer_error(KMAG_REC_TRACER_FUNCTION, both, true), "(not -p function)"));
}

static void put(const char *dir, const char *rel, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	CHECK(f);
	fputs(text, f);
	CHECK(fclose(f) == 0);
}

static char *get(const char *dir, const char *rel)
{
	char *t = kmag__tracefs_read(dir, rel);

	CHECK(t);
	return t;
}

/* A fake tracing directory with one file of each kind. */
static const char *fake_tracefs(void)
{
	static char dir[600];

	snprintf(dir, sizeof(dir), "%s/tracing", test_tmpdir());
	CHECK(mkdir(dir, 0700) == 0);
	CHECK(mkdir(strcat(strcpy((char[700]){ 0 }, dir), "/options"), 0700) == 0);
	put(dir, "tracing_on", "1\n");
	put(dir, "trace_clock", "local [global] counter\n");
	put(dir, "buffer_size_kb", "7 (expanded: 1408)\n");
	put(dir, "set_ftrace_filter", "vfs_read\next4_file_read_iter [ext4]\n");
	put(dir, "set_ftrace_pid", "no pid\n");
	put(dir, "filter", "none\n");
	put(dir, "options/function-fork", "0\n");
	return dir;
}

static void state_writes_back_what_was_found(void)
{
	const char *dir = fake_tracefs();
	struct kmag_err err = { 0 };
	struct rec_state s;
	char *t;

	CHECK_EQ(kmag__rs_init(&s, dir), 0);
	CHECK_EQ(kmag__rs_save(&s, "tracing_on", RS_VALUE, &err), 0);
	CHECK_EQ(kmag__rs_save(&s, "trace_clock", RS_CLOCK, &err), 0);
	CHECK_EQ(kmag__rs_save(&s, "buffer_size_kb", RS_BUFSIZE, &err), 0);
	CHECK_EQ(kmag__rs_save(&s, "set_ftrace_filter", RS_LIST, &err), 0);
	CHECK_EQ(kmag__rs_save(&s, "set_ftrace_pid", RS_LIST, &err), 0);
	CHECK_EQ(kmag__rs_save(&s, "filter", RS_EVFILTER, &err), 0);
	CHECK_EQ(kmag__rs_save(&s, "options/function-fork", RS_VALUE, &err), 0);
	/* a second save keeps the first text; a missing file is skipped quietly */
	put(dir, "tracing_on", "0\n");
	CHECK_EQ(kmag__rs_save(&s, "tracing_on", RS_VALUE, &err), 0);
	CHECK_EQ(kmag__rs_save(&s, "set_graph_function", RS_LIST, &err), -ENOENT);
	CHECK_EQ(err.code, 0);
	CHECK_EQ(s.n, 7);

	/* kmag changes everything */
	put(dir, "trace_clock", "global\n");
	put(dir, "buffer_size_kb", "65536\n");
	put(dir, "set_ftrace_filter", "schedule\n");
	put(dir, "set_ftrace_pid", "42\n");
	put(dir, "filter", "prev_pid != 0\n");
	put(dir, "options/function-fork", "1\n");

	/*
	 * Plain files do not echo back as tracefs does (no "[...]" around the
	 * clock, no " [module]"), so the read-back check reports a difference;
	 * what matters here is what was written.
	 */
	CHECK(kmag__rs_restore(&s, &err) < 0);
	t = get(dir, "tracing_on");
	CHECK_STREQ(t, "1");
	free(t);
	t = get(dir, "trace_clock");
	CHECK_STREQ(t, "global");
	free(t);
	t = get(dir, "buffer_size_kb");
	CHECK_STREQ(t, "1408");	/* the lazily allocated size, as it will be used */
	free(t);
	t = get(dir, "set_ftrace_filter");
	CHECK_STREQ(t, "vfs_read\next4_file_read_iter:mod:ext4\n");
	free(t);
	t = get(dir, "set_ftrace_pid");
	CHECK_STREQ(t, "");	/* "no pid" means empty */
	free(t);
	t = get(dir, "filter");
	CHECK_STREQ(t, "0");	/* "none" is cleared by writing 0 */
	free(t);
	t = get(dir, "options/function-fork");
	CHECK_STREQ(t, "0");
	free(t);
	kmag__rs_release(&s);
}

/*
 * The files written in the directory inotify @fd watches, in order, as "name,name,": read
 * from inotify (IN_CLOSE_WRITE), which reports writes in the order they ended.
 */
static void written_files(int fd, char *out, size_t len)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;

	out[0] = '\0';
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;

			if (ev->len && strlen(out) + strlen(ev->name) + 2 <= len) {
				strcat(out, ev->name);
				strcat(out, ",");
			}
			p += sizeof(*ev) + ev->len;
		}
	}
}

/*
 * A file already back at its saved text is not written (a write is not free:
 * tracing_thresh re-registers a running function_graph tracer), and a tracer
 * kmag left running is switched off before the rest is put back.
 */
static void restore_skips_unchanged_files_and_stops_the_tracer(void)
{
	const char *dir = fake_tracefs();
	struct kmag_err err = { 0 };
	struct rec_state s;
	char order[256];
	char *t;
	int fd;

	/* no newlines: a plain file reads back exactly what restore writes */
	put(dir, "current_tracer", "nop");
	put(dir, "tracing_thresh", "0");
	put(dir, "max_graph_depth", "0");
	CHECK_EQ(kmag__rs_init(&s, dir), 0);
	CHECK_EQ(kmag__rs_save(&s, "current_tracer", RS_VALUE, &err), 0);
	CHECK_EQ(kmag__rs_save(&s, "tracing_thresh", RS_VALUE, &err), 0);
	CHECK_EQ(kmag__rs_save(&s, "max_graph_depth", RS_VALUE, &err), 0);
	/* kmag runs function_graph with a depth limit; tracing_thresh stays 0 */
	put(dir, "current_tracer", "function_graph\n");
	put(dir, "max_graph_depth", "5\n");

	fd = inotify_init1(IN_NONBLOCK);
	CHECK(fd >= 0);
	CHECK(inotify_add_watch(fd, dir, IN_CLOSE_WRITE) >= 0);
	CHECK_EQ(kmag__rs_restore(&s, &err), 0);
	written_files(fd, order, sizeof(order));
	close(fd);
	/*
	 * The tracer first (restore otherwise goes in reverse saving order:
	 * max_graph_depth before current_tracer); tracing_thresh never.
	 */
	CHECK_STREQ(order, "current_tracer,max_graph_depth,");
	t = get(dir, "current_tracer");
	CHECK_STREQ(t, "nop");
	free(t);
	t = get(dir, "max_graph_depth");
	CHECK_STREQ(t, "0");
	free(t);
	kmag__rs_release(&s);
}

static void state_file_round_trip(void)
{
	const char *dir = fake_tracefs();
	struct kmag_err err = { 0 };
	struct rec_state s, back;
	char path[700];
	size_t i;

	snprintf(path, sizeof(path), "%s/top.state", test_tmpdir());
	CHECK_EQ(kmag__rs_init(&s, dir), 0);
	CHECK_EQ(kmag__rs_save(&s, "tracing_on", RS_VALUE, &err), 0);
	CHECK_EQ(kmag__rs_save(&s, "set_ftrace_filter", RS_LIST, &err), 0);
	CHECK_EQ(kmag__rs_save(&s, "trace_clock", RS_CLOCK, &err), 0);
	CHECK_EQ(kmag__rs_persist(&s, path, &err), 0);
	CHECK_EQ(kmag__rs_load(&back, path, &err), 0);
	CHECK_STREQ(back.dir, dir);
	CHECK_EQ(back.n, s.n);
	for (i = 0; i < s.n; i++) {
		CHECK_STREQ(back.e[i].rel, s.e[i].rel);
		CHECK_STREQ(back.e[i].saved, s.e[i].saved);
		CHECK_EQ(back.e[i].kind, s.e[i].kind);
	}
	kmag__rs_release(&back);
	kmag__rs_release(&s);

	/* a damaged state file is refused with a message, not half-restored */
	put(test_tmpdir(), "bad.state", "kmag-tracefs-state 1\npid 1\ndir /x\nentry 9 3 a\nabc\n");
	snprintf(path, sizeof(path), "%s/bad.state", test_tmpdir());
	CHECK(kmag__rs_load(&back, path, &err) < 0);
	CHECK(strstr(err.msg, "corrupt entry") != NULL);
	kmag_err_clear(&err);
	put(test_tmpdir(), "short.state", "kmag-tracefs-state 1\npid 1\ndir /x\nentry 1 50 a\nabc\n");
	snprintf(path, sizeof(path), "%s/short.state", test_tmpdir());
	CHECK(kmag__rs_load(&back, path, &err) < 0);
	CHECK(strstr(err.msg, "truncated") != NULL);
	kmag_err_clear(&err);
	put(test_tmpdir(), "other", "hello\n");
	snprintf(path, sizeof(path), "%s/other", test_tmpdir());
	CHECK(kmag__rs_load(&back, path, &err) < 0);
	CHECK(strstr(err.msg, "not a kmag state file") != NULL);
}

/* a link planted at a temporary file's name does not redirect the write */
static void temporary_files_ignore_planted_links(void)
{
	char victim[512], planted[512], buf[16] = "";
	struct stat st;
	FILE *f;
	int fd;

	put(test_tmpdir(), "victim", "precious\n");
	snprintf(victim, sizeof(victim), "%s/victim", test_tmpdir());
	snprintf(planted, sizeof(planted), "%s/trace.dat.kmag-1.tmp", test_tmpdir());
	CHECK_EQ(symlink(victim, planted), 0);
	fd = kmag__create_file(planted, 0600);
	CHECK(fd >= 0);
	CHECK_EQ(write(fd, "x", 1), 1);
	close(fd);
	/* the link is gone, a private regular file took its place */
	CHECK_EQ(lstat(planted, &st), 0);
	CHECK(S_ISREG(st.st_mode));
	CHECK_EQ(st.st_mode & 0777, 0600);
	CHECK_EQ(st.st_size, 1);
	/* and what the link pointed to is untouched */
	f = fopen(victim, "r");
	CHECK(f != NULL);
	if (f) {
		CHECK(fgets(buf, sizeof(buf), f) != NULL);
		fclose(f);
	}
	CHECK_STREQ(buf, "precious\n");
}

/* A tracing directory (and instance) with the tracer options of Linux 6.19. */
static struct kmag_recorder *topts_recorder(const char *name, bool with_files)
{
	static char top[600], inst[700];
	struct kmag_recorder *r = calloc(1, sizeof(*r));
	const char *dirs[] = { top, inst };
	size_t i;

	CHECK(r);
	snprintf(top, sizeof(top), "%s/%s", test_tmpdir(), name);
	snprintf(inst, sizeof(inst), "%s/inst", top);
	CHECK(mkdir(top, 0700) == 0);
	CHECK(mkdir(inst, 0700) == 0);
	for (i = 0; i < 2; i++) {
		char opts[800];

		snprintf(opts, sizeof(opts), "%s/options", dirs[i]);
		CHECK(mkdir(opts, 0700) == 0);
		put(dirs[i], "options/funcgraph-cpu", "1\n");
		if (!with_files)
			continue;
		put(dirs[i], "options/funcgraph-retval", "0\n");
		put(dirs[i], "options/funcgraph-retaddr", "0\n");
		put(dirs[i], "options/funcgraph-args", "0\n");
		put(dirs[i], "options/func-args", "0\n");
	}
	r->dir = top;
	r->inst_dir = inst;
	r->tracer = KMAG_REC_TRACER_FUNCTION_GRAPH;
	return r;
}

/* The option file holds @want ("1\n"; a write leaves no newline: "1"). */
static bool option_is(const char *dir, const char *rel, const char *want)
{
	char *v = get(dir, rel);
	bool same = !strncmp(v, want, strcspn(want, "\n")) && strspn(v + 1, "\n") == strlen(v + 1);

	free(v);
	return same;
}

static void args_need_a_kernel_that_records_them(void)
{
	struct kmag_recorder *r = topts_recorder("old", false);
	struct kmag_err err = { 0 };

	/* a kernel without the options: nothing asked, nothing to check */
	CHECK_EQ(kmag__rec_topts_check(r, &err), 0);
	r->o.args = true;
	CHECK_EQ(kmag__rec_topts_check(r, &err), -ENODEV);
	CHECK(strstr(err.msg, "--args") && strstr(err.msg, "6.15") &&
	      strstr(err.msg, "CONFIG_FUNCTION_TRACE_ARGS") && strstr(err.msg, "options/funcgraph-args"));
	CHECK(!strchr(err.msg, '\n'));
	kmag_err_clear(&err);
	r->tracer = KMAG_REC_TRACER_NONE;
	CHECK_EQ(kmag__rec_topts_check(r, &err), -EINVAL);
	kmag_err_clear(&err);
	/* an older kernel records as before: no option written, none announced */
	r->o.args = false;
	r->tracer = KMAG_REC_TRACER_FUNCTION_GRAPH;
	CHECK(kmag__rec_topts_instance_lacks(r) == NULL);
	CHECK_EQ(kmag__rec_topts_set(r, &err), 0);
	CHECK_STREQ(r->res.recorded, "");
	free(r);

	r = topts_recorder("new", true);
	r->o.args = true;
	CHECK_EQ(kmag__rec_topts_check(r, &err), 0);
	r->tracer = KMAG_REC_TRACER_FUNCTION;
	CHECK_EQ(kmag__rec_topts_check(r, &err), 0);
	free(r);
}

static void tracer_options_are_set_to_what_the_recording_wants(void)
{
	struct kmag_recorder *r = topts_recorder("set", true);
	struct kmag_err err = { 0 };

	/* someone left arguments on in the instance; no --args: off */
	put(r->inst_dir, "options/funcgraph-args", "1\n");
	CHECK_EQ(kmag__rec_topts_set(r, &err), 0);
	CHECK(option_is(r->inst_dir, "options/funcgraph-retval", "1\n"));
	CHECK(option_is(r->inst_dir, "options/funcgraph-retaddr", "1\n"));
	CHECK(option_is(r->inst_dir, "options/funcgraph-args", "0\n"));
	CHECK(option_is(r->inst_dir, "options/func-args", "0\n"));	/* another tracer's */
	CHECK(option_is(r->dir, "options/funcgraph-retaddr", "0\n"));	/* the top level's */
	CHECK_STREQ(r->res.recorded, "return values, call sites");
	r->o.args = true;
	r->o.no_retaddr = true;
	CHECK_EQ(kmag__rec_topts_set(r, &err), 0);
	CHECK(option_is(r->inst_dir, "options/funcgraph-retaddr", "0\n"));
	CHECK(option_is(r->inst_dir, "options/funcgraph-args", "1\n"));
	CHECK_STREQ(r->res.recorded, "return values, arguments");
	/* the function tracer: func-args only */
	r->tracer = KMAG_REC_TRACER_FUNCTION;
	CHECK_EQ(kmag__rec_topts_set(r, &err), 0);
	CHECK(option_is(r->inst_dir, "options/func-args", "1\n"));
	CHECK_STREQ(r->res.recorded, "arguments");
	free(r);
}

/*
 * Before Linux 6.19 an instance's tracer option is the tracer's one global
 * flag: here the instance's file is a link to the top level's. The instance
 * must then give way to the top level, which keeps its value.
 */
static void shared_tracer_options_mean_the_top_level(void)
{
	struct kmag_recorder *r = topts_recorder("shared", true);
	char link[900], target[900];
	const char *why;

	why = kmag__rec_topts_instance_lacks(r);
	CHECK(why == NULL);	/* own files: the instance takes the options */
	CHECK(option_is(r->inst_dir, "options/funcgraph-retaddr", "1\n"));
	CHECK(option_is(r->dir, "options/funcgraph-retaddr", "0\n"));
	free(r);

	r = topts_recorder("shared2", true);
	snprintf(link, sizeof(link), "%s/options/funcgraph-retaddr", r->inst_dir);
	snprintf(target, sizeof(target), "%s/options/funcgraph-retaddr", r->dir);
	CHECK(unlink(link) == 0);
	CHECK(symlink(target, link) == 0);
	why = kmag__rec_topts_instance_lacks(r);
	CHECK(why && strstr(why, "options/funcgraph-retaddr") && strstr(why, "6.19"));
	CHECK(option_is(r->dir, "options/funcgraph-retaddr", "0\n"));
	/* an option the instance lacks but the top level has */
	free(r);
	r = topts_recorder("missing", true);
	snprintf(link, sizeof(link), "%s/options/funcgraph-retaddr", r->inst_dir);
	CHECK(unlink(link) == 0);
	why = kmag__rec_topts_instance_lacks(r);
	CHECK(why && strstr(why, "instances have no options/funcgraph-retaddr"));
	r->o.no_retaddr = true;	/* not wanted: no reason to leave the instance */
	CHECK(kmag__rec_topts_instance_lacks(r) == NULL);
	free(r);
}

const struct test_case record_tests[] = {
	{ "args_need_a_kernel_that_records_them", args_need_a_kernel_that_records_them },
	{ "tracer_options_are_set_to_what_the_recording_wants",
	  tracer_options_are_set_to_what_the_recording_wants },
	{ "shared_tracer_options_mean_the_top_level", shared_tracer_options_mean_the_top_level },
	{ "temporary_files_ignore_planted_links", temporary_files_ignore_planted_links },
	{ "cpumask_forms", cpumask_forms },
	{ "calibration_runs_on_a_recorded_cpu", calibration_runs_on_a_recorded_cpu },
	{ "cpu_means_cpus", cpu_means_cpus },
	{ "nop_needs_something_to_record", nop_needs_something_to_record },
	{ "tracer_messages_name_what_the_user_gave", tracer_messages_name_what_the_user_gave },
	{ "state_writes_back_what_was_found", state_writes_back_what_was_found },
	{ "restore_skips_unchanged_files_and_stops_the_tracer",
	  restore_skips_unchanged_files_and_stops_the_tracer },
	{ "state_file_round_trip", state_file_round_trip },
	TEST_LIST_END,
};
