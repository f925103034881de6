// SPDX-License-Identifier: MIT
/*
 * record-flight.c - `kmag record --flight`: the wait for triggers, the
 * snapshots and what kmag says about them; and `kmag record --last-boot`.
 * cmd-record.c parses the options and sets the recording up; the flight
 * recorder itself is lib/record's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "kmag/errors.h"
#include "kmag/record.h"
#include "kmag/render/report.h"

bool cli_parse_size(const char *cmd, const char *opt, const char *arg, uint64_t *out)
{
	static const struct {
		const char *unit;
		int shift;
	} units[] = { { "", 0 },    { "B", 0 },	 { "K", 10 },  { "KiB", 10 }, { "M", 20 },
		      { "MiB", 20 }, { "G", 30 }, { "GiB", 30 }, { "T", 40 },  { "TiB", 40 } };
	char *end;
	double v;
	size_t i;

	errno = 0;
	v = strtod(arg, &end);
	if (!errno && end != arg && v > 0 && arg[0] != '-') {
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
			double b = v * (double)(1ull << units[i].shift);

			if (!strcmp(end, units[i].unit) && b >= 1 && b < 9e18) {
				*out = (uint64_t)b;
				return true;
			}
		}
	}
	cli_usage_error(cmd, "%s expects a size like 512K, 2M or 1.5G (bytes without a unit), got \"%s\"",
			opt, arg);
	return false;
}

/* "do_sys_openat2 returned -2 (ENOENT) after 305.578 us in cat (pid 123, CPU 1)" */
static void describe_fire(char *buf, size_t size, const struct kmag_rec_fire *f)
{
	char dur[32], who[96];
	const char *name = f->errnum ? kmag_errno_name(f->errnum) : NULL;
	int n;

	if (f->duration == KMAG_DURATION_NONE)
		snprintf(dur, sizeof(dur), "?");
	else
		kmag_format_duration(dur, sizeof(dur), f->duration);
	if (f->comm)
		snprintf(who, sizeof(who), "%s (pid %d, CPU %d)", f->comm, f->pid, f->cpu);
	else
		snprintf(who, sizeof(who), "pid %d (CPU %d)", f->pid, f->cpu);
	if (f->event)
		n = snprintf(buf, size, "%s in %s", f->event, who);
	else if (f->errnum)
		n = snprintf(buf, size, "%s returned -%d (%s) after %s in %s", f->func, f->errnum,
			     name ? name : "?", dur, who);
	else
		n = snprintf(buf, size, "%s took %s in %s", f->func, dur, who);
	if (f->root && n > 0 && (size_t)n < size && f->event)
		snprintf(buf + n, size - (size_t)n, ", inside %s", f->root);
	else if (f->root && n > 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, ", inside %s (%u call%s open around it)", f->root,
			 f->depth, f->depth == 1 ? "" : "s");
}

/* --flight's size as given: "2 MiB", "96 KiB", "1.5 GiB" */
static void fmt_size(char *buf, size_t size, uint64_t b)
{
	static const char *const units[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)b;
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(buf, size, v == (double)(uint64_t)v ? "%.0f %s" : "%.1f %s", v, units[u]);
}

/* One write: the traced command is already running and prints to the same terminal. */
static void announce_flight(const struct cli_flight *fl)
{
	char size[32], after[32], *line = NULL;
	size_t i, len = 0;
	FILE *m = open_memstream(&line, &len);

	if (!m)
		return;
	fmt_size(size, sizeof(size), fl->o->flight_bytes);
	fprintf(m, "kmag: flight recorder: keeping the newest %s of compressed trace next to %s",
		size, fl->o->output);
	if (!fl->o->nr_triggers) {
		fprintf(m, "; it goes to %s when the recording stops\n", fl->o->output);
	} else {
		kmag_format_duration(after, sizeof(after), fl->o->after_ns ? fl->o->after_ns : 1000000000ull);
		fprintf(m, "; watching ");
		for (i = 0; i < fl->o->nr_triggers; i++)
			fprintf(m, "%s%s", i ? ", " : "", fl->o->triggers[i]);
		fprintf(m, "; a snapshot goes to %s %s after one fires\n", fl->o->output, after);
	}
	if (fclose(m) == 0)
		fputs(line, stderr);
	free(line);
}

static void show_live(struct cli_live *lv, const struct kmag_rec_progress *p)
{
	char kept[32], rate[48] = "", lost[32];

	cli_human_bytes(kept, sizeof(kept), (double)p->kept_bytes);
	if (cli_live_rate(lv, p->elapsed, p->events)) {
		char n[32];

		cli_human_count(n, sizeof(n), lv->rate);
		snprintf(rate, sizeof(rate), ", %s events/s", n);
	}
	cli_human_count(lost, sizeof(lost), (double)p->lost);
	cli_live_show(lv, "flight recording %.1f s, rings hold %s = %.1f s%s, lost %s%s", p->elapsed,
		      kept, p->kept_seconds, rate, lost, p->fires ? ", a trigger fired" : "");
}

static void print_fire(struct kmag_recorder *r, uint64_t seq, const struct cli_flight *fl)
{
	struct kmag_rec_fire f;
	char what[512], after[32];

	if (kmag_recorder_fire(r, seq, &f))
		return;
	describe_fire(what, sizeof(what), &f);
	kmag_format_duration(after, sizeof(after), fl->o->after_ns ? fl->o->after_ns : 1000000000ull);
	fprintf(stderr, "kmag: trigger %s fired at %.6f s: %s; recording %s more\n", f.trigger,
		(double)f.ts / 1e9, what, after);
}

static void print_snapshot(const struct kmag_rec_snapshot *s)
{
	char size[32], ev[32], lost[64] = "no events lost", around[96] = "";

	cli_human_bytes(size, sizeof(size), (double)s->file_size);
	kmag_fmt_count(ev, sizeof(ev), s->events);
	if (s->lost) {
		char l[32];

		kmag_fmt_count(l, sizeof(l), s->lost);
		snprintf(lost, sizeof(lost), "%s events lost", l);
	}
	if (s->first_ts == UINT64_MAX) {
		fprintf(stderr, "kmag: wrote %s: %s, no events\n", s->path, size);
		return;
	}
	/* one write: with --snapshots the traced command goes on printing */
	if (s->triggered && s->fire.ts < s->first_ts)
		snprintf(around, sizeof(around), ": it starts %.1f s after the trigger",
			 (double)(s->first_ts - s->fire.ts) / 1e9);
	else if (s->triggered)
		snprintf(around, sizeof(around), ": %.1f s before the trigger, %.1f s after",
			 s->fire.ts > s->first_ts ? (double)(s->fire.ts - s->first_ts) / 1e9 : 0.0,
			 s->last_ts > s->fire.ts ? (double)(s->last_ts - s->fire.ts) / 1e9 : 0.0);
	fprintf(stderr, "kmag: wrote %s: %s, %.6f .. %.6f s (%.1f s%s), %s events, %s\n", s->path,
		size, (double)s->first_ts / 1e9, (double)s->last_ts / 1e9,
		(double)(s->last_ts - s->first_ts) / 1e9, around, ev, lost);
	if (!s->triggered)
		return;
	if (s->fire.ts < s->first_ts)
		/* the watcher runs behind the recording when the CPUs are busy (flight-watch.c) */
		fprintf(stderr, "kmag:   it does not hold the %s that fired: the rings had dropped it before the trigger watcher, running behind, saw it; give --flight more room or trace less\n",
			s->fire.event ? "event" : "call");
	else if (s->fire.event && !s->fire.root)
		fprintf(stderr, "kmag:   it holds the event (no traced call was open on its task)\n");
	else if (s->chain_whole)
		fprintf(stderr, "kmag:   it holds %s, entry to exit\n",
			s->fire.event ? "the event and the calls open around it" :
			s->fire.root  ? "the call that fired and its callers" :
					"the call that fired (no traced caller was open around it)");
	else
		fprintf(stderr, "kmag:   the calls around it are not whole in it: they began before the rings' oldest data, or had not returned\n");
	if (s->cut_short)
		fprintf(stderr, "kmag:   the window was cut short: the recording stopped or the rings filled with it\n");
	if (s->more)
		fprintf(stderr, "kmag:   %" PRIu64 " more match%s inside the window\n", s->more,
			s->more == 1 ? "" : "es");
}

int cli_record_flight(struct kmag_recorder *r, const struct cli_flight *fl)
{
	unsigned want = fl->o->snapshots ? fl->o->snapshots : 1, written = 0;
	struct kmag_rec_snapshot s;
	struct kmag_rec_progress p;
	struct kmag_err err = { 0 };
	struct cli_live lv = { 0 };
	uint64_t fires = 0;
	int ret = EXIT_OK;

	if (!fl->quiet)
		announce_flight(fl);
	for (;;) {
		struct timespec nap = { 0, 100 * 1000 * 1000 };

		kmag_recorder_progress(r, &p);
		while (fires < p.fires) {
			cli_live_clear(&lv);
			print_fire(r, ++fires, fl);
		}
		if (p.snapshot_due) {
			cli_live_clear(&lv);
			if (kmag_recorder_snapshot(r, &s, &err)) {
				ret = cli_lib_error(&err, "cannot write the snapshot");
				break;
			}
			if (!fl->quiet)
				print_snapshot(&s);
			if (++written == want)
				break;
			continue;
		}
		if (*fl->stop || p.failed || p.command_exited ||
		    (fl->seconds > 0 && p.elapsed >= fl->seconds))
			break;
		if (fl->tty && !fl->quiet)
			show_live(&lv, &p);
		nanosleep(&nap, NULL);
	}
	cli_live_clear(&lv);
	if (kmag_recorder_stop(r, &err))
		return cli_lib_error(&err, "cannot stop recording");
	kmag_recorder_progress(r, &p);
	if (p.unwatched && !fl->quiet) {
		char size[32];

		cli_human_bytes(size, sizeof(size), (double)p.unwatched);
		fprintf(stderr, "kmag: the trigger watcher fell behind: %s of trace went unwatched (the rings kept it, but a trigger in it was missed): trace fewer functions (-g, -l) or CPUs (--cpu)\n",
			size);
	}
	if (p.stored_raw && !fl->quiet) {
		char size[32];

		cli_human_bytes(size, sizeof(size), (double)p.stored_raw);
		fprintf(stderr, "kmag: the recorder fell behind the kernel's buffer: %s of trace stored uncompressed to keep up (the rings hold less time): give a larger buffer (-b) or trace less (-g, -l, --cpu)\n",
			size);
	}
	if (ret)
		return ret;
	/* what is pending: a window cut short, or without any trigger the rings */
	if (written < want) {
		kmag_recorder_progress(r, &p);
		while (fires < p.fires)
			print_fire(r, ++fires, fl);
		int e = kmag_recorder_snapshot(r, &s, &err);

		if (e && e != -ENOENT)
			return cli_lib_error(&err, "cannot write the snapshot");
		if (!e && !fl->quiet) {
			if (!s.triggered && fl->o->nr_triggers)
				fprintf(stderr, "kmag: no trigger fired; %s holds the newest data of the recording\n",
					fl->o->output);
			print_snapshot(&s);
		}
	}
	return ret;
}

int cli_record_last_boot(const char *instance, const char *output, bool quiet)
{
	struct kmag_lastboot_opts o = { instance, output };
	struct kmag_lastboot_result res;
	struct kmag_err err = { 0 };
	char size[32], ev[32];

	if (kmag_record_last_boot(&o, &res, &err))
		return cli_lib_error(&err, "cannot write the previous boot's trace");
	if (quiet)
		return EXIT_OK;
	cli_human_bytes(size, sizeof(size), (double)res.file_size);
	kmag_fmt_count(ev, sizeof(ev), res.events);
	fprintf(stderr, "kmag: wrote %s: the previous boot's trace from tracefs instance %s: %s events on %d CPUs",
		output, res.instance, ev, res.nr_cpus);
	if (res.events)
		fprintf(stderr, ", %.6f .. %.6f s of that boot", (double)res.first_ts / 1e9,
			(double)res.last_ts / 1e9);
	fprintf(stderr, ", %s\n", size);
	fprintf(stderr, "kmag:   its kernel text was at %016" PRIx64 " (this boot's at %016" PRIx64 "): function names are moved by %s0x%" PRIx64 "%s%s; reading emptied the instance\n",
		res.text_then, res.text_now, res.delta < 0 ? "-" : "+",
		(uint64_t)(res.delta < 0 ? -res.delta : res.delta),
		res.modules ? ", and those of the modules it had" : "",
		res.modules ? "" : "");
	return EXIT_OK;
}
