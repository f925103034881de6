// SPDX-License-Identifier: MIT
/*
 * progress.c - the live line on a terminal (record's "recording 3.1 s, ..."
 * and the analysis commands' "reading trace.dat: ..."), the human-readable
 * numbers it and the summaries use, and that line while a session reads
 * (cli_session_read()).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

void cli_human_bytes(char *buf, size_t size, double b)
{
	static const char *const units[] = { "B", "KB", "MB", "GB", "TB" };
	int u = 0;

	while (b >= 1000 && u < 4) {
		b /= 1000;
		u++;
	}
	snprintf(buf, size, u ? "%.1f %s" : "%.0f %s", b, units[u]);
}

void cli_human_count(char *buf, size_t size, double n)
{
	if (n >= 1e9)
		snprintf(buf, size, "%.2fG", n / 1e9);
	else if (n >= 1e6)
		snprintf(buf, size, "%.2fM", n / 1e6);
	else if (n >= 1e4)
		snprintf(buf, size, "%.1fk", n / 1e3);
	else
		snprintf(buf, size, "%.0f", n);
}

bool cli_live_rate(struct cli_live *lv, double t, uint64_t n)
{
	double dt = t - lv->last_t;

	/* the rate over the last half second or more */
	if (dt >= 0.5) {
		lv->rate = (double)(n - lv->last_n) / dt;
		lv->last_t = t;
		lv->last_n = n;
		lv->have_rate = true;
	}
	return lv->have_rate;
}

void cli_live_show(struct cli_live *lv, const char *fmt, ...)
{
	va_list ap;

	fputs("\r\033[Kkmag: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
	lv->shown = true;
}

void cli_live_clear(struct cli_live *lv)
{
	if (lv->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	lv->shown = false;
}

static bool progress_on;

void cli_progress_init(bool stderr_tty)
{
	progress_on = stderr_tty;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct read_progress {
	const char *name;	/* the input as the user named it */
	double start, after, last_shown;
	struct cli_live lv;
};

/* One read at a time shows its progress. */
static struct read_progress read_progress;

/* Every few thousand events: after the delay, at most ten times a second, the line. */
static void show_read_progress(const struct kmag_trace_progress *p, void *ctx)
{
	struct read_progress *rp = ctx;
	double t = now_s() - rp->start;
	char ev[32], rate[48] = "", bytes[80] = "";

	if (t < rp->after || (rp->lv.shown && t - rp->last_shown < 0.1))
		return;
	rp->last_shown = t;
	if (cli_live_rate(&rp->lv, t, p->events)) {
		char n[32];

		cli_human_count(n, sizeof(n), rp->lv.rate);
		snprintf(rate, sizeof(rate), ", %s events/s", n);
	}
	if (p->bytes) {
		char b[32], s[32];

		cli_human_bytes(b, sizeof(b), (double)p->bytes);
		cli_human_bytes(s, sizeof(s), (double)p->size);
		snprintf(bytes, sizeof(bytes), "%s of %s, ", b, s);
	}
	cli_human_count(ev, sizeof(ev), (double)p->events);
	cli_live_show(&rp->lv, "reading %s: %.1f s, %s%s events%s", rp->name, t, bytes, ev, rate);
}

/*
 * The delay before the line appears: 1 s, or KMAG_PROGRESS_AFTER_MS
 * milliseconds (for tests, which cannot wait for a trace that takes a second).
 */
static double progress_after(void)
{
	const char *env = getenv("KMAG_PROGRESS_AFTER_MS");
	char *end;
	unsigned long ms;

	if (!env || !*env)
		return 1.0;
	ms = strtoul(env, &end, 10);
	return *end ? 1.0 : (double)ms / 1e3;
}

void cli_progress_start(struct kmag_session *s)
{
	struct read_progress *rp = &read_progress;

	if (!progress_on)
		return;
	memset(rp, 0, sizeof(*rp));
	rp->name = kmag_session_name(s);
	rp->start = now_s();
	rp->after = progress_after();
	kmag_session_set_progress(s, show_read_progress, rp);
}

void cli_progress_end(struct kmag_session *s)
{
	kmag_session_set_progress(s, NULL, NULL);
	cli_live_clear(&read_progress.lv);
}

void cli_progress_clear(void)
{
	cli_live_clear(&read_progress.lv);
}
