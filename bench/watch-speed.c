// SPDX-License-Identifier: MIT
/*
 * watch-speed - the flight recorder's trigger watcher alone, on the host:
 * a recorded trace.dat's ring-buffer pages handed, block by block and CPU
 * by CPU, to the watcher thread of lib/record/flight-watch.c exactly as the
 * flight readers hand them (kmag__fl_watch_push, then kmag__fl_watch_hw
 * with the block's last time), with the triggers given; it decodes, merges
 * by time and replays them into the triggers as in a recording. No tracefs,
 * no rings: what it measures is the watcher's cost per event
 * (bench/watch-speed.sh runs it under cachegrind on two sizes of file).
 *
 *   watch-speed TRACE.dat [--btf] [TRIGGER...]
 *
 * TRACE.dat: an uncompressed v6 file in the host's byte order
 * (bench/gen-big-tracedat makes a large one). Blocks go in time order, as
 * the readers would hand them over. --btf: the watcher reads return types
 * from this machine's /sys/kernel/btf/vmlinux, as a flight recording does
 * from its kernel's (the names mostly agree; the cost is what counts here).
 * Prints the events handed over, the fires, the bytes left unwatched and
 * the CPU time of the run.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "record/flight.h"
#include "record/record-internal.h"
#include "trace/tracedat.h"

#define MAX_AHEAD (16u << 20)	/* bytes queued before the feeder waits for the watcher */

static void die(const char *msg)
{
	fprintf(stderr, "watch-speed: %s\n", msg);
	exit(1);
}

static double cpu_now(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
	       ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) / 1e6;
}

/* The recording's metadata as the recorder keeps it (struct rec_meta), borrowed from @td. */
static void fill_meta(struct rec_meta *m, const struct tracedat *td)
{
	size_t i, k, nf = 0;

	m->header_page = td->header_page.data;
	m->kallsyms = td->kallsyms.data ? td->kallsyms.data : "";
	m->ftrace = calloc(td->nr_formats + 1, sizeof(*m->ftrace));
	m->systems = calloc(td->nr_formats + 1, sizeof(*m->systems));
	if (!m->header_page || !m->ftrace || !m->systems)
		die("the trace has no header page, or out of memory");
	for (i = 0; i < td->nr_formats; i++) {
		const struct td_format *f = &td->formats[i];
		struct tdw_blob b = { f->text.data, f->text.size };
		struct tdw_system *s = NULL;

		if (!strcmp(f->system, "ftrace")) {
			m->ftrace[nf++] = b;
			continue;
		}
		for (k = 0; k < m->m.nr_systems; k++)
			if (!strcmp(m->systems[k].name, f->system))
				s = &m->systems[k];
		if (!s) {
			s = &m->systems[m->m.nr_systems++];
			s->name = f->system;
			s->formats = calloc(td->nr_formats + 1, sizeof(struct tdw_blob));
			if (!s->formats)
				die("out of memory");
		}
		((struct tdw_blob *)s->formats)[s->nr_formats++] = b;
	}
	m->m.nr_ftrace_formats = nf;
}

/* Waits until the watcher has at most @max bytes queued. */
static void wait_queue(struct fl_state *fl, size_t max)
{
	const struct timespec nap = { 0, 200 * 1000 };

	for (;;) {
		size_t q = 0;
		int i;

		for (i = 0; i < fl->n; i++)
			q += atomic_load(&fl->cpu[i].queued);
		if (q <= max)
			return;
		nanosleep(&nap, NULL);
	}
}

/*
 * The block of CPU @i's data at @off into @b (usize 0: none left; then its
 * reader would find the buffer empty from now on, which the watcher is told).
 */
static void next_block(struct fl_state *fl, const struct tracedat *td, int i, const uint8_t *data,
		       uint64_t off, size_t bsize, struct fl_block *b)
{
	uint64_t left = td->top.cpus[i].size - off;
	size_t len = left < bsize ? (size_t)left : bsize;

	memset(b, 0, sizeof(*b));
	len -= len % fl->geom.page_size;
	if (len && kmag__fl_describe(&fl->geom, data + off, len, b))
		die("a malformed page");
	b->usize = (uint32_t)len;
	if (b->first_ts == KMAG_TS_NONE)
		b->first_ts = 0;	/* no records: hand it over first */
	if (!len)
		kmag__fl_watch_hw(fl, i, UINT64_MAX - 1);
}

int main(int argc, char **argv)
{
	struct kmag_recorder r = { 0 };
	struct fl_state fl = { 0 };
	struct kmag_err err = { 0 };
	struct tracedat td;
	uint8_t **data;
	uint64_t *off, events = 0;
	struct fl_block *nb;
	bool btf = false;
	size_t bsize;
	double t0;
	int i, a = 2;

	if (argc < 2)
		die("usage: watch-speed TRACE.dat [--btf] [TRIGGER...]");
	if (argc > 2 && !strcmp(argv[2], "--btf")) {
		btf = true;
		a = 3;
	}
	if (kmag__tracedat_open(&td, argv[1], &err))
		die(err.msg);
	if (td.top.compressed || td.swap || td.long_size != 8)
		die("TRACE must be an uncompressed v6 trace.dat of a 64-bit machine of this byte order");
	r.page_size = td.top.page_size;
	r.nr_rec = td.top.nr_cpus;
	r.dir = (char *)"/nonexistent";
	r.cpus = calloc((size_t)r.nr_rec + 1, sizeof(*r.cpus));
	data = calloc((size_t)r.nr_rec + 1, sizeof(*data));
	off = calloc((size_t)r.nr_rec + 1, sizeof(*off));
	nb = calloc((size_t)r.nr_rec + 1, sizeof(*nb));
	if (!r.cpus || !data || !off || !nb)
		die("out of memory");
	fill_meta(&r.meta, &td);
	r.fl = &fl;
	fl.r = &r;
	fl.n = r.nr_rec;
	fl.geom = (struct kmag_page_geom){ r.page_size, 16, 8, false, false };
	fl.cpu = calloc((size_t)fl.n + 1, sizeof(*fl.cpu));
	fl.trig = calloc((size_t)argc, sizeof(*fl.trig));
	if (!fl.cpu || !fl.trig)
		die("out of memory");
	pthread_mutex_init(&fl.lock, NULL);
	fl.wake_fd = -1;
	for (; a < argc; a++)
		if (kmag__trigger_parse(argv[a], &fl.trig[fl.ntrig++], &err))
			die(err.msg);
	if (btf && !(fl.btf = kmag__rec_read_btf(&fl.btf_size)))
		die("cannot read /sys/kernel/btf/vmlinux");
	for (i = 0; i < r.nr_rec; i++) {
		const struct td_cpu_data *d = &td.top.cpus[i];

		r.cpus[i].cpu = d->cpu;
		data[i] = malloc(d->size + 1);
		if (!data[i] || pread(td.fd, data[i], d->size, (off_t)d->offset) != (ssize_t)d->size)
			die("cannot read the CPU data");
	}
	t0 = cpu_now();
	if (kmag__fl_watch_start(&r, &fl, &err))
		die(err.msg);
	bsize = (size_t)r.page_size * FL_BLOCK_PAGES;
	for (i = 0; i < r.nr_rec; i++)
		next_block(&fl, &td, i, data[i], off[i], bsize, &nb[i]);
	for (;;) {
		int best = -1;

		/* the CPU whose next block starts first */
		for (i = 0; i < r.nr_rec; i++)
			if (nb[i].usize && (best < 0 || nb[i].first_ts < nb[best].first_ts))
				best = i;
		if (best < 0)
			break;
		wait_queue(&fl, MAX_AHEAD);
		kmag__fl_watch_push(&fl, best, data[best] + off[best], nb[best].usize);
		events += nb[best].events;
		off[best] += nb[best].usize;
		if (nb[best].last_ts != KMAG_TS_NONE)
			kmag__fl_watch_hw(&fl, best, nb[best].last_ts);
		next_block(&fl, &td, best, data[best], off[best], bsize, &nb[best]);
	}
	kmag__fl_watch_stop(&fl);
	printf("%" PRIu64 " events, %" PRIu64 " fires, %" PRIu64 " bytes unwatched, %.3f s CPU%s\n",
	       events, fl.fires, fl.unwatched, cpu_now() - t0,
	       fl.watch_error ? " (the watcher stopped on an error)" : "");
	kmag__fl_watch_free(&fl);
	for (i = 0; i < (int)fl.ntrig; i++)
		kmag__trigger_release(&fl.trig[i]);
	for (i = 0; i < r.nr_rec; i++)
		free(data[i]);
	for (i = 0; i < (int)r.meta.m.nr_systems; i++)
		free((void *)r.meta.systems[i].formats);
	free(r.meta.systems);
	free(r.meta.ftrace);
	free(fl.btf);
	free(fl.trig);
	free(fl.cpu);
	free(r.cpus);
	free(data);
	free(off);
	free(nb);
	kmag__tracedat_close(&td);
	return fl.watch_error ? 1 : 0;
}
