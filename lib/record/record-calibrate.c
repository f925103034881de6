/*
 * record-calibrate.c - what one traced call costs function_graph on this
 * machine, with the tracer options of the recording (struct
 * kmag_tracer_cost), measured right after the capture in the recording's
 * own tracefs instance, before it is put back.
 *
 * A run is @reads one-byte read(2)s of /dev/zero on one CPU, traced from
 * ksys_read (set_graph_function, set_ftrace_pid this thread): shallow,
 * max_graph_depth 1 (ksys_read alone), or deep (its whole subtree). Both
 * pass through the same tracer hooks; the deep run also traces the calls
 * beneath ksys_read, two more records each (entry and exit), counted in the
 * CPU's ring-buffer stats. Each run's ksys_read durations are the kernel's
 * (the trace file's depth-0 lines: rettime - calltime, the clock the capture's
 * durations are in), so a pair of runs gives
 *
 *	cost = (median deep ksys_read - median shallow ksys_read) / calls beneath
 *
 * the time one more traced call adds inside the call it runs under, its
 * entry's and its exit's work together: what replay.h takes off. Medians,
 * because what lands in a few calls is not the tracer's per-call work: a
 * timer interrupt, the host scheduling a VM's vCPU out, and, on an emulated
 * machine that runs its vCPUs in turns, the capture's readers running on the
 * other vCPU (milliseconds at a time). The pairs alternate their order, and
 * the median of the pairs is kept with the quartiles as its spread.
 */
#define PR_DOMAIN "record"
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "record-internal.h"

#define CAL_PAIRS 41		/* pairs of runs, at most */
#define CAL_MIN_PAIRS 9		/* ... and at least, whatever they take */
#define CAL_MAX_READS 400	/* reads per run */
#define CAL_MIN_READS 20
/*
 * A deep run lasts about this long: short runs, many pairs. A VM's vCPU
 * shares a host CPU with other work: a long run is more likely to be slowed
 * down whole (all its reads, the median too), and a pair with one slowed run
 * is one pair of many.
 */
#define CAL_RUN_NS 1000000ull
#define CAL_BUDGET_NS 2000000000ull	/* the pairs stop after this long (9 at least) */
#define CAL_ROOT "ksys_read"

struct cal {
	const char *dir;	/* the instance's files */
	int cpu;		/* the CPU the runs are pinned to */
	int zfd;		/* /dev/zero */
	unsigned reads;
};

struct run {
	uint64_t ns;		/* the run's time (CLOCK_MONOTONIC) */
	uint64_t median;	/* of its ksys_read durations (the kernel's) */
	uint64_t records;	/* records the run wrote (in the buffer, read, or overwritten) */
	uint64_t bytes;		/* in the buffer */
	uint64_t overrun;
};


static int put(const struct cal *c, const char *rel, const char *v, struct kmag_err *err)
{
	return kmag__tracefs_write(c->dir, rel, v, err);
}

/*
 * Of per_cpu/cpuN/stats: the records written so far ("entries" in the
 * buffer + "read events" + "overrun"), the overrun, the bytes in the
 * buffer. 0 or -EIO.
 */
static int cpu_stats(const struct cal *c, struct run *out)
{
	char rel[64], *s, *p;

	snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", c->cpu);
	if (!(s = kmag__tracefs_read(c->dir, rel)))
		return -EIO;
	out->records = out->bytes = out->overrun = 0;
	for (p = s; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		unsigned long long v;

		if (sscanf(p, "entries: %llu", &v) == 1 || sscanf(p, "read events: %llu", &v) == 1)
			out->records += v;
		else if (sscanf(p, "overrun: %llu", &v) == 1)
			out->overrun = v, out->records += v;
		else if (sscanf(p, "bytes: %llu", &v) == 1)
			out->bytes = v;
	}
	free(s);
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The duration on a depth-0 line of the function_graph text (the call's
 * closing brace or leaf line, "  0)   5.362 us    |  ksys_read();"), in ns;
 * 0 for any other line (openings, deeper calls, markers).
 */
static uint64_t depth0_ns(const char *line, const char *end)
{
	const char *bar = memchr(line, '|', (size_t)(end - line)), *p;
	unsigned long long us = 0, frac = 0;
	int digits = 0;

	if (!bar || end - bar < 4 || bar[1] != ' ' || bar[2] != ' ' || bar[3] == ' ' ||
	    (end[-1] == '{'))
		return 0;
	/* the duration: the last "N.NNN us" before the bar */
	for (p = bar; p > line && !(p[-1] >= '0' && p[-1] <= '9'); p--)
		;
	while (p > line && ((p[-1] >= '0' && p[-1] <= '9') || p[-1] == '.'))
		p--;
	if (sscanf(p, "%llu.%n", &us, &digits) != 1 || !digits)
		return 0;
	if (sscanf(p + digits, "%3llu", &frac) != 1)
		return 0;
	return us * 1000 + frac;
}

/* The median of the ksys_read durations the trace file shows. 0 when it shows none. */
static uint64_t trace_median(const struct cal *c)
{
	char *text = kmag__tracefs_read(c->dir, "trace"), *p, *nl;
	uint64_t *v = NULL, m = 0, ns;
	size_t n = 0, cap = 0;

	for (p = text; p && *p; p = nl + 1) {
		if (!(nl = strchr(p, '\n')))
			break;
		if (*p == '#' || !(ns = depth0_ns(p, nl)))
			continue;
		if (kmag__grow(&v, &cap, n + 1, sizeof(*v)))
			break;
		v[n++] = ns;
	}
	if (n) {
		qsort(v, n, sizeof(*v), cmp_u64);
		m = v[n / 2];
	}
	free(v);
	free(text);
	return m;
}

/* One run of @n reads, @deep or not, into @out. 0 or -errno with @err set. */
static int run(const struct cal *c, unsigned n, bool deep, struct run *out, struct kmag_err *err)
{
	struct run before;
	uint64_t t0, t1;
	unsigned i;
	char b;
	int ret;

	if ((ret = put(c, "max_graph_depth", deep ? "0" : "1", err)) ||
	    (ret = put(c, "trace", "", err)))
		return ret;
	if (cpu_stats(c, &before))
		return kmag_err_set(err, EIO, "cannot read per_cpu/cpu%d/stats", c->cpu);
	if ((ret = put(c, "tracing_on", "1", err)))
		return ret;
	t0 = now_ns();
	for (i = 0; i < n; i++)
		if (read(c->zfd, &b, 1) != 1)
			break;
	t1 = now_ns();
	if ((ret = put(c, "tracing_on", "0", err)))
		return ret;
	if (i < n)
		return kmag_err_set(err, EIO, "reading /dev/zero failed");
	if (cpu_stats(c, out))
		return kmag_err_set(err, EIO, "cannot read per_cpu/cpu%d/stats", c->cpu);
	out->ns = t1 - t0;
	out->records -= before.records;
	out->overrun -= before.overrun;
	out->median = trace_median(c);
	return 0;
}

/* The q-th quartile (0..4) of the @n sorted values @v (nearest rank). */
static uint64_t quartile(const uint64_t *v, size_t n, unsigned q)
{
	size_t k = (n * q + 3) / 4;

	return v[k ? k - 1 : 0];
}

/*
 * Reads per run: a deep run of about CAL_RUN_NS (fast machines: up to
 * CAL_MAX_READS; emulated ones: CAL_MIN_READS), filling at most a third of
 * the buffer.
 */
static int size_runs(struct cal *c, unsigned long buffer_kb, struct kmag_err *err)
{
	struct run probe;
	uint64_t per_read, n, fit;
	int ret;

	if ((ret = run(c, CAL_MIN_READS, true, &probe, err)))
		return ret;
	if (probe.records <= 2 * CAL_MIN_READS)
		return kmag_err_set(err, ENOENT, "no call beneath " CAL_ROOT " was traced");
	per_read = probe.records * 48 / CAL_MIN_READS + 1;	/* bytes: 48 is a large record */
	fit = (uint64_t)buffer_kb * 1024 / 3 / per_read;
	n = CAL_RUN_NS * CAL_MIN_READS / (probe.ns + 1);
	if (n > fit)
		n = fit;
	c->reads = n < CAL_MIN_READS ? CAL_MIN_READS : n > CAL_MAX_READS ? CAL_MAX_READS : (unsigned)n;
	return 0;
}

/*
 * The pairs of runs into @cost. Each pair's difference of medians is divided
 * by the median over the pairs of the calls beneath a read (in hundredths):
 * an interrupt that came inside a deep run adds its records to that run only.
 * 0 or -errno with @err set.
 */
static int measure(struct cal *c, struct kmag_tracer_cost *cost, struct kmag_err *err)
{
	uint64_t diff[CAL_PAIRS], beneath[CAL_PAIRS], start = now_ns(), b;
	size_t n = 0, i, k;
	int ret;

	for (i = 0; i < CAL_PAIRS && (i < CAL_MIN_PAIRS || now_ns() - start < CAL_BUDGET_NS); i++) {
		struct run s, d;
		bool deep_first = i & 1;

		if ((ret = run(c, c->reads, deep_first, deep_first ? &d : &s, err)) ||
		    (ret = run(c, c->reads, !deep_first, deep_first ? &s : &d, err)))
			return ret;
		/* a run that overflowed the buffer counted no records right */
		if (d.overrun || s.overrun || d.records <= s.records || !s.median ||
		    d.median <= s.median)
			continue;
		pr_debug("calibration pair %zu: %u reads, ksys_read median %" PRIu64 " ns shallow, %" PRIu64
			 " ns deep, %" PRIu64 " records more\n", i, c->reads, s.median, d.median,
			 d.records - s.records);
		diff[n] = d.median - s.median;
		beneath[n++] = (d.records - s.records) * 50 / c->reads;	/* calls x 100 */
	}
	if (n < (i + 1) / 2)
		return kmag_err_set(err, EAGAIN, "only %zu of %zu pairs of runs could be used", n, i);
	qsort(beneath, n, sizeof(*beneath), cmp_u64);
	b = quartile(beneath, n, 2);
	if (!b)
		return kmag_err_set(err, ENOENT, "no call beneath " CAL_ROOT " was traced");
	for (k = 0; k < n; k++)
		diff[k] = diff[k] * 100 / b;
	qsort(diff, n, sizeof(*diff), cmp_u64);
	cost->ns = quartile(diff, n, 2);
	cost->q1_ns = quartile(diff, n, 1);
	cost->q3_ns = quartile(diff, n, 3);
	cost->rounds = (uint32_t)n;
	cost->reads = c->reads;
	cost->beneath = (uint32_t)((b + 50) / 100);
	if (!cost->ns)
		cost->ns = 1;	/* below a nanosecond: 1 says it was measured */
	return 0;
}

/* The funcgraph options on in @dir, "retval,retaddr", into @buf. */
static void options_on(const char *dir, char *buf, size_t size)
{
	static const char *const names[] = { "retval", "retaddr", "args" };
	size_t i, len = 0;

	buf[0] = 0;
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		char rel[64], *v;

		snprintf(rel, sizeof(rel), "options/funcgraph-%s", names[i]);
		v = kmag__tracefs_read(dir, rel);
		if (v && v[0] == '1' && len < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? "," : "",
						names[i]);
		free(v);
	}
}

int kmag__rec_calibrate_cpu(const uint64_t *mask, int nr_cpus, const cpu_set_t *allowed)
{
	int cpu, first = -1;

	for (cpu = 0; cpu < nr_cpus && cpu < CPU_SETSIZE; cpu++) {
		if (!(mask[cpu / 64] >> (cpu % 64) & 1))
			continue;
		if (CPU_ISSET(cpu, allowed))
			return cpu;
		if (first < 0)
			first = cpu;
	}
	return first;
}

/*
 * Traces ksys_read's subtree for this thread alone. The function filter (-l)
 * stays: clearing it would patch every function of the kernel, which an
 * emulated machine takes minutes over; so with one, the calls beneath are
 * the filter's (and none, when it leaves ksys_read out: then no cost), and
 * -n and the graph's notrace list stay too.
 */
static int configure(const struct cal *c, struct kmag_err *err)
{
	/* kmag's own threads are left out of the recording; --threshold hides short calls */
	static const char *const empty[] = { "set_ftrace_notrace_pid", "tracing_thresh" };
	char tid[24], path[4096];
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(empty); i++) {
		snprintf(path, sizeof(path), "%s/%s", c->dir, empty[i]);
		if (!access(path, F_OK) &&
		    (ret = put(c, empty[i], strcmp(empty[i], "tracing_thresh") ? "" : "0", err)))
			return ret;
	}
	snprintf(tid, sizeof(tid), "%d", (int)gettid());
	if ((ret = put(c, "set_ftrace_pid", tid, err)))
		return ret;
	if (put(c, "set_graph_function", CAL_ROOT, NULL))
		return kmag_err_set(err, ENOENT, "the kernel cannot trace " CAL_ROOT);
	return 0;
}

int kmag__rec_calibrate(struct kmag_recorder *r, struct kmag_tracer_cost *cost,
			struct kmag_err *err)
{
	struct cal c = { .dir = r->inst_dir ? r->inst_dir : r->dir, .zfd = -1 };
	cpu_set_t old, one;
	int ret;

	memset(cost, 0, sizeof(*cost));
	if (sched_getaffinity(0, sizeof(old), &old))
		return kmag_err_set(err, errno, "sched_getaffinity: %s", strerror(errno));
	if ((c.cpu = kmag__rec_calibrate_cpu(r->mask, r->nr_cpus, &old)) < 0)
		return kmag_err_set(err, EINVAL, "no recorded CPU to run on");
	CPU_ZERO(&one);
	CPU_SET(c.cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		return kmag_err_set(err, errno, "sched_setaffinity: %s", strerror(errno));
	c.zfd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	if (c.zfd < 0)
		ret = kmag_err_set(err, errno, "cannot open /dev/zero: %s", strerror(errno));
	else if (!(ret = configure(&c, err)) && !(ret = size_runs(&c, r->buffer_kb, err)))
		ret = measure(&c, cost, err);
	if (!ret)
		options_on(c.dir, cost->options, sizeof(cost->options));
	/* what the runs left in the buffer is nobody's */
	put(&c, "tracing_on", "0", NULL);
	put(&c, "trace", "", NULL);
	if (c.zfd >= 0)
		close(c.zfd);
	sched_setaffinity(0, sizeof(old), &old);
	return ret;
}
