// SPDX-License-Identifier: MIT
/*
 * input-tracecmd.c - trace.dat events through libtracecmd's public API.
 *
 * This is the reference reader: slower than kmag's own decoder (one
 * tep_record allocation per event), but it is trace-cmd's own code, so the
 * tests use it to check the built-in reader, and users can pick it with
 * --reader=libtracecmd should a file ever confuse the fast path.
 */
#define PR_DOMAIN "libtracecmd"
#include <trace-cmd/trace-cmd.h>

#include "damage.h"
#include "decode.h"
#include "tracedat.h"
#include "trace-internal.h"

/* What was read of one CPU: for the time checks and the skipped records. */
struct tc_cpu {
	struct kmag__tcheck tc;
	bool run;			/* the last record was skipped, at run_place */
	size_t run_place;
	uint64_t last_ts;		/* KMAG_TS_NONE before the first */
};

struct tracecmd_state {
	struct tracecmd_input *handle;
	struct kmag_decoder dec;
	struct kmag_trace *t;
	struct kmag_err *err;
	struct u64map seen_pids;
	struct tc_cpu *cpus;		/* nr_cpus entries */
	int nr_cpus;
	uint64_t end;			/* the end of the recording plus the slack, or UINT64_MAX */
	int64_t ts_offset;		/* the file's, already in rec->ts */
	struct kmag__span span;		/* for the checks of exits' times */
	int ret;
};

static struct tc_cpu *cpu_state(struct tracecmd_state *s, int cpu)
{
	int i, n;

	if (cpu < 0 || cpu >= 65536)
		return NULL;
	if (cpu >= s->nr_cpus) {
		struct tc_cpu *c = realloc(s->cpus, (size_t)(cpu + 1) * sizeof(*c));

		if (!c)
			return NULL;
		s->cpus = c;
		n = cpu + 1;
		for (i = s->nr_cpus; i < n; i++) {
			memset(&c[i], 0, sizeof(c[i]));
			c[i].tc.end = c[i].tc.bound = s->end;
			c[i].tc.keep_backwards = true;	/* no page headers to tell which side is wrong */
			c[i].tc.end_at = s->end == UINT64_MAX ? s->end : s->end - KMAG__CLOCK_SLACK_NS;
			c[i].last_ts = KMAG_TS_NONE;
		}
		s->nr_cpus = n;
	}
	return &s->cpus[cpu];
}

/*
 * A record libtracecmd handed over cannot be read: it alone is skipped, as
 * the built-in reader does (kbuffer found its length; trace-cmd reads on
 * past it); records skipped one after the other on a CPU are one place,
 * with one LOST marker. Returns 0 or -errno.
 */
static int skip_record(struct tracecmd_state *s, struct tc_cpu *c, int cpu,
		       struct tep_record *rec, const char *why)
{
	/* the record: its payload and a 4-byte header at least */
	uint64_t bytes = (uint64_t)(rec->size > 0 ? rec->size : 0) + 4;
	struct kmag_damage d = { .kind = KMAG_DAMAGE_SKIPPED, .cpu = cpu, .offset = rec->offset,
				 .bytes = bytes, .events = 1, .why = why, .ts = c->last_ts,
				 .func = KMAG_FUNC_NONE };
	struct kmag_event ev;
	int ret;

	if (c->run) {
		kmag__damage_grow(s->t, c->run_place, bytes, 1);
		return 0;
	}
	c->run = true;
	if ((ret = kmag__damage(s->t, &d, &c->run_place, s->err)))
		return ret;
	memset(&ev, 0, sizeof(ev));
	ev.type = KMAG_EV_LOST;
	ev.cpu = cpu;
	ev.pid = -1;
	ev.depth = -1;
	ev.ts = c->last_ts != KMAG_TS_NONE ? c->last_ts : rec->ts;
	ev.func = ev.parent = KMAG_FUNC_NONE;
	ev.lost = KMAG_LOST_UNKNOWN;
	ev.damage = true;
	return kmag__trace_deliver(s->t, &ev);
}

/* The time checks of a decoded record (see damage.h); 0 or -errno. */
static int check_times(struct tracecmd_state *s, struct tc_cpu *c, int cpu, struct tep_record *rec,
		       struct kmag_event *ev)
{
	/* compared in the file's clock: libtracecmd added the file's offset */
	uint64_t ts = rec->ts - (uint64_t)s->ts_offset;
	struct kmag__where w = { .cpu = cpu, .offset = rec->offset };
	int ret;

	if ((ret = kmag__tcheck(s->t, &c->tc, &w, &ts, s->err)))
		return ret;
	ev->ts = ts + (uint64_t)s->ts_offset;
	c->last_ts = ev->ts;
	if (ev->type == KMAG_EV_GRAPH_EXIT && ev->calltime != KMAG_TS_NONE &&
	    ev->duration != KMAG_DURATION_NONE) {
		uint64_t ct = ev->calltime, rt = ct + ev->duration;

		if (!ev->duration)
			rt = fd_read(&s->dec.gx_rettime, rec->data, s->dec.swap);
		if (!kmag__exit_times_ok(&s->span, ct, rt, ts))
			return kmag__damage_exit(s->t, &s->span, &w, ev, ct, rt, ts, s->err);
	} else if (ev->type == KMAG_EV_GRAPH_ENTRY && !s->span.seen_entry) {
		s->span.seen_entry = true;
		kmag__span_update(&s->span);
	}
	return 0;
}

static int comm_for(struct tracecmd_state *s, int pid)
{
	bool inserted;
	const char *comm;

	if (pid <= 0 || !u64map_upsert(&s->seen_pids, (uint64_t)pid, 1, &inserted))
		return pid <= 0 ? 0 : -ENOMEM;
	if (!inserted)
		return 0;
	comm = tep_data_comm_from_pid(tracecmd_get_tep(s->handle), pid);
	if (!comm || !strcmp(comm, "<...>"))
		return 0;
	return kmag__trace_set_comm(s->t, pid, comm, strlen(comm));
}

static int on_record(struct tracecmd_input *handle, struct tep_record *rec, int cpu, void *data)
{
	struct tracecmd_state *s = data;
	struct tc_cpu *c = cpu_state(s, cpu);
	struct kmag_event ev;
	int ret;

	(void)handle;
	if (!c) {
		ret = kmag_err_set(s->err, ENOMEM, "out of memory");
		goto stop;
	}
	if (rec->missed_events) {
		memset(&ev, 0, sizeof(ev));
		ev.type = KMAG_EV_LOST;
		ev.cpu = cpu;
		ev.pid = -1;
		ev.depth = -1;
		ev.ts = rec->ts;
		ev.func = ev.parent = KMAG_FUNC_NONE;
		ev.lost = rec->missed_events > 0 ? (uint64_t)rec->missed_events : KMAG_LOST_UNKNOWN;
		if ((ret = kmag__trace_deliver(s->t, &ev)))
			goto stop;
	}
	ret = rec->size < 0 ? -EINVAL : kmag__decode(&s->dec, rec->data, (uint32_t)rec->size, &ev);
	if (ret) {
		ret = skip_record(s, c, cpu, rec,
				ret == -ENOENT ? "record of an event type the file has no format for" :
				ret == -ERANGE ? "record with an impossible call depth" :
						 "record shorter than its event format");
		if (ret)
			goto stop;
		return 0;
	}
	ev.cpu = cpu;
	c->run = false;
	if ((ret = check_times(s, c, cpu, rec, &ev)) || (ret = comm_for(s, ev.pid)) ||
	    (ret = kmag__trace_deliver(s->t, &ev)))
		goto stop;
	return 0;
stop:
	s->ret = ret;
	return 1;
}

static int tracecmd_read(struct kmag_trace *t, struct kmag_err *err)
{
	struct tracecmd_state *s = t->priv;

	s->err = err;
	s->ret = 0;
	if (tracecmd_iterate_events(s->handle, NULL, 0, on_record, s) < 0 && !s->ret)
		s->ret = kmag_err_set(err, EIO, "libtracecmd failed while reading %s", t->path);
	return s->ret;
}

static void tracecmd_close_input(struct kmag_trace *t)
{
	struct tracecmd_state *s = t->priv;

	if (!s)
		return;
	kmag__decoder_release(&s->dec);
	u64map_release(&s->seen_pids);
	free(s->cpus);
	if (s->handle)
		tracecmd_close(s->handle);
	free(s);
	t->priv = NULL;
}

static struct tep_event *tracecmd_event_format(struct kmag_trace *t, int id)
{
	struct tracecmd_state *s = t->priv;

	return s ? kmag__decoder_event(&s->dec, id) : NULL;
}

const struct kmag_input_ops kmag__input_tracecmd = {
	.name = "trace.dat (libtracecmd)",
	.read = tracecmd_read,
	.close = tracecmd_close_input,
	.event_format = tracecmd_event_format,
};

int kmag__tracecmd_input_open(struct kmag_trace *t, struct kmag_err *err)
{
	struct tracecmd_state *s = calloc(1, sizeof(*s));
	struct kmag_err cerr = { 0 };
	struct tep_handle *tep;
	struct tracedat td;
	bool have_td;
	int ret, ncpus, i;

	if (!s)
		return kmag_err_set(err, ENOMEM, "out of memory");
	t->priv = s;
	t->ops = &kmag__input_tracecmd;
	s->t = t;
	u64map_init(&s->seen_pids);
	/*
	 * kmag's container reader checks the file's structure first: a file cut
	 * short gets the same precise message as with the built-in reader, and
	 * never reaches libtracecmd, which crashes on some (in tracecmd_close).
	 * Only what kmag does not support (ENOTSUP) is left to libtracecmd.
	 */
	ret = kmag__tracedat_open(&td, t->path, &cerr);
	if (ret && cerr.code != ENOTSUP)
		return kmag_err_set(err, cerr.code, "%s", cerr.msg);
	have_td = !ret;
	/* damaged zstd data crashes libtracecmd: checked here, refused whole */
	if (have_td && td.top.compressed && (ret = kmag__tracedat_check_chunks(&td, err))) {
		kmag__tracedat_close(&td);
		return ret;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	s->handle = tracecmd_open(t->path, TRACECMD_FL_LOAD_NO_PLUGINS |
					       TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!s->handle) {
		ret = kmag_err_set(err, EINVAL, "libtracecmd cannot open %s (corrupt or unsupported trace.dat)",
				   t->path);
		goto out;
	}
	tep = tracecmd_get_tep(s->handle);
	ret = kmag__decoder_init(&s->dec, tep, t->st, false, err);
	if (ret)
		goto out;
	/* tep_read_number() style swapping is done by libtracecmd for headers only;
	 * record payloads stay in file order, so swap when the file differs */
	s->dec.swap = tep_is_file_bigendian(tep) != tep_is_local_bigendian(tep);
	s->dec.tep_names = true;
	ncpus = tep_get_cpus(tep);
	if (ncpus > 0 && !kmag__trace_cpu(t, ncpus - 1)) {
		ret = kmag_err_set(err, ENOMEM, "out of memory");
		goto out;
	}
	/* libtracecmd's public API has no CPU stats: the container reader's */
	s->end = UINT64_MAX;
	if (have_td) {
		uint64_t now = kmag__stats_now(td.cpustats, td.nr_cpustats);

		t->info.file_version = td.version;
		if ((ret = kmag__tracedat_load_cpustats(t, &td, err)))
			goto out;
		if (now != KMAG_TS_NONE && now <= UINT64_MAX - KMAG__CLOCK_SLACK_NS)
			s->end = now + KMAG__CLOCK_SLACK_NS;
		s->ts_offset = td.ts_offset;
		s->span.rettime_clock = kmag__clock_is_local(td.top.clock ? td.top.clock : td.clock);
		for (i = 0; i < t->info.nr_cpus; i++)
			if (t->cpus[i].stat_overrun)
				s->span.overwrite = true;
	}
	s->span.first = tracecmd_get_first_ts(s->handle) - (uint64_t)s->ts_offset;
	kmag__span_update(&s->span);
	t->info.has_timestamps = true;
	t->info.has_pids = true;
	t->info.has_durations = s->dec.gx_calltime.size && s->dec.gx_rettime.size;
	ret = 0;
out:
	if (have_td)
		kmag__tracedat_close(&td);
	return ret;
}
