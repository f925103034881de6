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

#include "decode.h"
#include "tracedat.h"
#include "trace-internal.h"

struct tracecmd_state {
	struct tracecmd_input *handle;
	struct kmag_decoder dec;
	struct kmag_trace *t;
	struct kmag_err *err;
	struct u64map seen_pids;
	int ret;
};

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
	struct kmag_event ev;
	int ret;

	(void)handle;
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
	if (rec->size < 0 || kmag__decode(&s->dec, rec->data, (uint32_t)rec->size, &ev)) {
		ret = kmag_err_set(s->err, EINVAL,
				   "corrupt trace.dat: record at offset %llu is shorter than its format",
				   rec->offset);
		goto stop;
	}
	ev.cpu = cpu;
	ev.ts = rec->ts;
	if ((ret = comm_for(s, ev.pid)) || (ret = kmag__trace_deliver(s->t, &ev)))
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
	int ret, ncpus;

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
	if (have_td) {
		t->info.file_version = td.version;
		if ((ret = kmag__tracedat_load_cpustats(t, &td, err)))
			goto out;
	}
	t->info.has_timestamps = true;
	t->info.has_pids = true;
	t->info.has_durations = s->dec.gx_calltime.size && s->dec.gx_rettime.size;
	ret = 0;
out:
	if (have_td)
		kmag__tracedat_close(&td);
	return ret;
}
