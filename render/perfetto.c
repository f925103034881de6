// SPDX-License-Identifier: MIT
/*
 * perfetto.c - function_graph calls as a native Perfetto trace (protobuf
 * TracePackets with TrackEvents), streamed.
 *
 * Format: perfetto.protos.Trace = repeated TracePacket packet = 1, so the
 * file is a run of (tag 0x0a, length, TracePacket) written as calls end:
 * nothing is kept per call but the replay's own frames, nothing per event.
 * The schema is Perfetto's protos/perfetto/trace/perfetto_trace.proto; the
 * rules followed are those of its "Converting arbitrary timestamped data to
 * Perfetto" and "Track events" documents:
 *
 *   - one packet sequence (trusted_packet_sequence_id 1); its first packet
 *     says SEQ_INCREMENTAL_STATE_CLEARED, every packet that uses an interned
 *     name says SEQ_NEEDS_INCREMENTAL_STATE, and a name is defined
 *     (InternedData) in the first packet that uses it;
 *   - a TrackDescriptor for every task before its first event: a process
 *     (pid, name) with one thread (pid = tid, as the Chrome export: a trace
 *     has no thread-group ids), the idle task's per-CPU stacks as threads
 *     "swapper/N" of process 0 with thread ids past PID_MAX_LIMIT, and so
 *     the per-CPU stacks of inputs without task ids ("unknown task on CPUn"),
 *     so that a track is exactly one of the replay's stacks;
 *   - each call a TYPE_SLICE_BEGIN at its start and a TYPE_SLICE_END at its
 *     end on its thread's track, function names interned (event_names);
 *     debug annotations (names interned) carry the CPU, the interrupt
 *     context, the arguments (named as the kernel prints them from BTF),
 *     the call site (with --vmlinux its source line) on the begin, the
 *     return value, its errno name and what the trace lacks on the end;
 *   - lost events are instants on a global "lost events" track, other
 *     events instants on their task's track.
 *
 * Slices on a track must nest and come in time order; the replay
 * (lib/analysis/replay.c) delivers each task's calls in order, a begin when
 * the call opens and an end when it leaves. A call whose entry the trace
 * lacks (a placeholder the replay opens for missing levels) begins just
 * before the first call it made, under the name known then: "[unknown]"
 * when only its exit names it, the name then in its "function" argument.
 * The timeline is the replay's: a begin or end is never put before the
 * previous event of its track (a call's start from one clock and its
 * duration from another can disagree by a few microseconds); where that
 * moves the slice, its "duration_ns" says the kernel's duration.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kmag/btf.h"
#include "kmag/errors.h"
#include "kmag/outfile.h"
#include "kmag/render/callfmt.h"
#include "kmag/render/export.h"
#include "kmag/replay.h"
#include "kmag/srclines.h"
#include "kmag/trace.h"
#include "kmag/version.h"
#include "pbwrite.h"
#include "render-util.h"
#include "u64map.h"

#define PID_MAX_LIMIT 4194304	/* include/linux/threads.h: no pid is this large */
#define UNKNOWN_TID (2 * PID_MAX_LIMIT)	/* events of inputs without task ids */
#define SEQ_ID 1
#define LOST_TRACK_UUID 1
#define PROCESS_UUID(pid) (0x100000000ull | (uint32_t)(pid))
#define THREAD_UUID(tid) (0x200000000ull | (uint32_t)(tid))

/* TracePacket fields */
enum {
	PKT_TIMESTAMP = 8, PKT_SEQ_ID = 10, PKT_TRACK_EVENT = 11, PKT_INTERNED = 12,
	PKT_SEQ_FLAGS = 13, PKT_SYSTEM_INFO = 45, PKT_TRACK_DESCRIPTOR = 60,
};
enum { SEQ_INCREMENTAL_STATE_CLEARED = 1, SEQ_NEEDS_INCREMENTAL_STATE = 2 };
/* TrackEvent fields and types */
enum {
	TE_CATEGORY_IIDS = 3, TE_DEBUG_ANNOTATIONS = 4, TE_TYPE = 9, TE_NAME_IID = 10,
	TE_TRACK_UUID = 11, TE_NAME = 23,
};
enum { TYPE_SLICE_BEGIN = 1, TYPE_SLICE_END = 2, TYPE_INSTANT = 3 };
/* DebugAnnotation fields */
enum {
	DA_NAME_IID = 1, DA_BOOL = 2, DA_UINT = 3, DA_INT = 4, DA_STRING = 6, DA_POINTER = 7,
	DA_DICT_ENTRIES = 11,
};
/* InternedData fields; EventName, EventCategory, DebugAnnotationName are {iid = 1, name = 2} */
enum { ID_EVENT_CATEGORIES = 1, ID_EVENT_NAMES = 2, ID_DEBUG_ANNOTATION_NAMES = 3 };
/* TrackDescriptor, ProcessDescriptor, ThreadDescriptor */
enum { TD_UUID = 1, TD_NAME = 2, TD_PROCESS = 3, TD_THREAD = 4 };
enum { PD_PID = 1, PD_NAME = 6 };
enum { THD_PID = 1, THD_TID = 2, THD_NAME = 5 };

/* The categories, interned once in the first packet. */
enum { CAT_FUNC = 1, CAT_IRQ = 2, CAT_EVENT = 3 };

/* What the export keeps with each open call (kmag_replay_ops.data_size). */
struct call_data {
	uint8_t begun;		/* its begin is written */
	uint8_t unnamed;	/* it began as "[unknown]" */
	uint64_t begin_ts;	/* the begin's timestamp */
};

struct track {
	uint64_t last_ts;	/* of the last begin, end or instant written on it */
};

/* One interning table: a string's hash -> its iid, with the strings to tell collisions. */
struct intern {
	struct u64map map;	/* hash -> index in names (iid = index + 1) */
	char **names;
	size_t nr, cap;
};

static const struct kmag_replay_ops perfetto_ops;

struct kmag_perfetto {
	struct kmag_trace *trace;
	struct kmag_symtab *st;
	struct kmag_replay *replay;
	struct kmag_perfetto_opts o;
	struct kmag_outfile *file;
	FILE *out;
	struct kmag_perfetto_stats stats;
	struct u64map track_index;	/* THREAD_UUID -> index in tracks */
	struct track *tracks;
	size_t nr_tracks, cap_tracks;
	struct u64map func_iid;		/* kmag_func_t + 1 -> event name iid */
	struct intern names;		/* other event names ("[unknown]", "sched_switch") */
	struct intern arg_names;	/* debug annotation names */
	uint64_t next_name_iid;
	struct pb pkt;			/* the packet being written */
	struct pb interned;		/* the InternedData it defines */
	bool started;			/* the first packet is written */
	uint64_t origin;		/* first timestamp seen */
	uint64_t last_ts;
	struct track lost_track;	/* the LOST markers' track (its last_ts only) */
	struct kmag_err err;
	bool failed;
};

static int fail(struct kmag_perfetto *p, int code, const char *what)
{
	if (!p->failed) {
		if (code == ENOMEM)
			kmag_err_set(&p->err, code, "out of memory");
		else
			kmag_err_set(&p->err, code, "cannot write %s: %s",
				     p->o.path ? p->o.path : "standard output", what ? what : strerror(code));
		p->failed = true;
	}
	return -code;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 14695981039346656037ull;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ull;
	return h;
}

/*
 * The iid of @s in @t, 0 when it cannot be interned (out of memory, or a
 * hash collision with another string: the caller then writes the string).
 * *@is_new says the caller must define it in this packet.
 */
static uint64_t intern_str(struct intern *t, const char *s, bool *is_new)
{
	bool inserted;
	uint64_t *slot = u64map_upsert(&t->map, hash_str(s), t->nr, &inserted);

	*is_new = false;
	if (!slot)
		return 0;
	if (!inserted)
		return *slot < t->nr && !strcmp(t->names[*slot], s) ? *slot + 1 : 0;
	if (kmag__grow(&t->names, &t->cap, t->nr + 1, sizeof(*t->names)) ||
	    !(t->names[t->nr] = strdup(s))) {
		*slot = UINT64_MAX;	/* never matches: the string is written in full */
		t->names[t->nr] = NULL;
		return 0;
	}
	t->nr++;
	*is_new = true;
	return *slot + 1;
}

static void intern_release(struct intern *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		free(t->names[i]);
	free(t->names);
	u64map_release(&t->map);
}

/* Defines iid @iid = @name in the packet's InternedData, as @field. */
static void define(struct kmag_perfetto *p, uint32_t field, uint64_t iid, const char *name)
{
	pb_begin(&p->interned, field);
	pb_uint(&p->interned, 1, iid);
	pb_str(&p->interned, 2, name);
	pb_end(&p->interned);
}

/* A TrackEvent's name: interned by string (not a function). */
static void event_name_str(struct kmag_perfetto *p, const char *name)
{
	bool is_new;
	uint64_t iid = intern_str(&p->names, name, &is_new);

	if (!iid) {
		pb_str(&p->pkt, TE_NAME, name);
		return;
	}
	/* iids of names and functions share one space: EventName */
	iid = iid << 1 | 1;
	if (is_new)
		define(p, ID_EVENT_NAMES, iid, name);
	pb_uint(&p->pkt, TE_NAME_IID, iid);
}

/* A TrackEvent's name: function @func. */
static void event_name_func(struct kmag_perfetto *p, kmag_func_t func)
{
	const char *name = func == KMAG_FUNC_NONE ? NULL : kmag_symtab_name(p->st, func);
	bool inserted;
	uint64_t *slot;

	if (!name) {
		event_name_str(p, "[unknown]");
		return;
	}
	slot = u64map_upsert(&p->func_iid, (uint64_t)func + 1, 0, &inserted);
	if (!slot) {
		pb_str(&p->pkt, TE_NAME, name);
		return;
	}
	if (inserted) {
		*slot = ++p->next_name_iid << 1;
		define(p, ID_EVENT_NAMES, *slot, name);
	}
	pb_uint(&p->pkt, TE_NAME_IID, *slot);
}

/* Opens a debug annotation (in the track event, or in a dict when @field is DA_DICT_ENTRIES). */
static void ann_begin(struct kmag_perfetto *p, uint32_t field, const char *name)
{
	bool is_new;
	uint64_t iid = intern_str(&p->arg_names, name, &is_new);

	pb_begin(&p->pkt, field);
	if (!iid) {
		pb_str(&p->pkt, 10, name);	/* DebugAnnotation.name */
		return;
	}
	if (is_new)
		define(p, ID_DEBUG_ANNOTATION_NAMES, iid, name);
	pb_uint(&p->pkt, DA_NAME_IID, iid);
}

static void ann_uint(struct kmag_perfetto *p, uint32_t field, const char *name, uint32_t type,
		     uint64_t v)
{
	ann_begin(p, field, name);
	pb_uint(&p->pkt, type, v);
	pb_end(&p->pkt);
}

static void ann_str(struct kmag_perfetto *p, uint32_t field, const char *name, const char *v)
{
	ann_begin(p, field, name);
	pb_str(&p->pkt, DA_STRING, v);
	pb_end(&p->pkt);
}

/* Starts a packet at @ts (KMAG_TS_NONE: none). */
static void packet_begin(struct kmag_perfetto *p, uint64_t ts)
{
	pb_reset(&p->pkt);
	pb_reset(&p->interned);
	if (ts != KMAG_TS_NONE)
		pb_uint(&p->pkt, PKT_TIMESTAMP, ts);
}

/* Finishes the packet (its interned data, the sequence) and writes it. */
static int packet_write(struct kmag_perfetto *p, bool uses_interning)
{
	uint8_t head[11];
	size_t n = 0;
	uint64_t v;

	pb_uint(&p->pkt, PKT_SEQ_ID, SEQ_ID);
	if (p->interned.len)
		pb_bytes(&p->pkt, PKT_INTERNED, p->interned.b, p->interned.len);
	if (!p->started)
		pb_uint(&p->pkt, PKT_SEQ_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
	else if (uses_interning)
		pb_uint(&p->pkt, PKT_SEQ_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
	if (p->pkt.oom || p->interned.oom)
		return fail(p, ENOMEM, NULL);
	/* Trace.packet (field 1, length-delimited) */
	head[n++] = 0x0a;
	for (v = p->pkt.len; v >= 0x80; v >>= 7)
		head[n++] = (uint8_t)(v | 0x80);
	head[n++] = (uint8_t)v;
	if (fwrite(head, 1, n, p->out) != n || fwrite(p->pkt.b, 1, p->pkt.len, p->out) != p->pkt.len) {
		int e = p->file ? kmag_outfile_error(p->file) : 0;

		return fail(p, e ? e : EIO, NULL);
	}
	p->stats.bytes += n + p->pkt.len;
	p->started = true;
	return 0;
}

/* The first packet: the sequence's start, the categories, the kernel, the lost-events track. */
static int write_header(struct kmag_perfetto *p)
{
	const struct kmag_trace_info *info = kmag_trace_info(p->trace);
	static const char *const cats[] = { NULL, "func", "irq", "event" };
	int i, ret;

	packet_begin(p, KMAG_TS_NONE);
	for (i = CAT_FUNC; i <= CAT_EVENT; i++)
		define(p, ID_EVENT_CATEGORIES, (uint64_t)i, cats[i]);
	ret = packet_write(p, true);
	if (ret)
		return ret;
	if (info->uname) {
		/* SystemInfo.utsname: "Linux host 6.1.0-56-cloud-amd64 ... x86_64" */
		char buf[512], *tok[16], *save = NULL, *s;
		int n = 0;

		snprintf(buf, sizeof(buf), "%s", info->uname);
		for (s = strtok_r(buf, " ", &save); s && n < 16; s = strtok_r(NULL, " ", &save))
			tok[n++] = s;
		if (n >= 3) {
			packet_begin(p, KMAG_TS_NONE);
			pb_begin(&p->pkt, PKT_SYSTEM_INFO);
			pb_begin(&p->pkt, 1);	/* utsname */
			pb_str(&p->pkt, 1, tok[0]);	/* sysname */
			pb_str(&p->pkt, 3, tok[2]);	/* release */
			if (n >= 4)
				pb_str(&p->pkt, 4, tok[n - 1]);	/* machine */
			pb_end(&p->pkt);
			pb_end(&p->pkt);
			if ((ret = packet_write(p, false)))
				return ret;
		}
	}
	packet_begin(p, KMAG_TS_NONE);
	pb_begin(&p->pkt, PKT_TRACK_DESCRIPTOR);
	pb_uint(&p->pkt, TD_UUID, LOST_TRACK_UUID);
	pb_str(&p->pkt, TD_NAME, "lost events");
	pb_end(&p->pkt);
	return packet_write(p, false);
}

/* The thread ids Perfetto sees for task @pid on @cpu (see the top of the file). */
static void track_ids(int32_t pid, int32_t cpu, int32_t *proc, int32_t *tid)
{
	if (pid < 0) {
		/* one stack per CPU in the replay (kmag_task_key()): one track per CPU */
		*proc = 0;
		*tid = UNKNOWN_TID + (cpu >= 0 && cpu < PID_MAX_LIMIT ? cpu : 0);
	} else if (pid == 0) {
		*proc = 0;
		*tid = PID_MAX_LIMIT + (cpu >= 0 && cpu < PID_MAX_LIMIT ? cpu : 0);
	} else {
		*proc = *tid = pid;
	}
}

/* Describes a new track: its process (once) and its thread. */
static int describe_track(struct kmag_perfetto *p, int32_t proc, int32_t tid)
{
	const char *comm = proc > 0 ? kmag_trace_comm(p->trace, proc) : NULL;
	char name[320];
	bool inserted;
	int ret;

	if (!u64map_upsert(&p->track_index, PROCESS_UUID(proc), 0, &inserted))
		return fail(p, ENOMEM, NULL);
	if (inserted) {
		packet_begin(p, KMAG_TS_NONE);
		pb_begin(&p->pkt, PKT_TRACK_DESCRIPTOR);
		pb_uint(&p->pkt, TD_UUID, PROCESS_UUID(proc));
		pb_begin(&p->pkt, TD_PROCESS);
		pb_int(&p->pkt, PD_PID, proc);
		pb_str(&p->pkt, PD_NAME, proc > 0 ? (comm ? comm : "?") : "idle and unknown tasks");
		pb_end(&p->pkt);
		pb_end(&p->pkt);
		if ((ret = packet_write(p, false)))
			return ret;
	}
	if (tid >= UNKNOWN_TID)
		snprintf(name, sizeof(name), "unknown task on CPU%d", tid - UNKNOWN_TID);
	else if (tid >= PID_MAX_LIMIT)
		snprintf(name, sizeof(name), "swapper/%d", tid - PID_MAX_LIMIT);
	else
		snprintf(name, sizeof(name), "%s", comm ? comm : "?");
	packet_begin(p, KMAG_TS_NONE);
	pb_begin(&p->pkt, PKT_TRACK_DESCRIPTOR);
	pb_uint(&p->pkt, TD_UUID, THREAD_UUID(tid));
	pb_begin(&p->pkt, TD_THREAD);
	pb_int(&p->pkt, THD_PID, proc);
	pb_int(&p->pkt, THD_TID, tid);
	pb_str(&p->pkt, THD_NAME, name);
	pb_end(&p->pkt);
	pb_end(&p->pkt);
	p->stats.tracks++;
	return packet_write(p, false);
}

/* The track of task @pid on @cpu, described on first use; NULL on failure. */
static struct track *track_of(struct kmag_perfetto *p, int32_t pid, int32_t cpu, uint64_t *uuid)
{
	int32_t proc, tid;
	bool inserted;
	uint64_t *slot;

	track_ids(pid, cpu, &proc, &tid);
	*uuid = THREAD_UUID(tid);
	slot = u64map_upsert(&p->track_index, *uuid, p->nr_tracks, &inserted);
	if (!slot) {
		fail(p, ENOMEM, NULL);
		return NULL;
	}
	if (inserted) {
		if (kmag__grow(&p->tracks, &p->cap_tracks, p->nr_tracks + 1, sizeof(*p->tracks))) {
			*slot = UINT64_MAX;
			fail(p, ENOMEM, NULL);
			return NULL;
		}
		p->tracks[p->nr_tracks++] = (struct track){ 0 };
		/* (describing may grow the map: @slot is not used after it) */
		if (describe_track(p, proc, tid))
			return NULL;
		return &p->tracks[p->nr_tracks - 1];
	}
	return *slot < p->nr_tracks ? &p->tracks[*slot] : NULL;
}

/* @ts, never before the last event of @tk (see the top of the file). */
static uint64_t track_ts(struct track *tk, uint64_t ts)
{
	if (ts == KMAG_TS_NONE || ts < tk->last_ts)
		ts = tk->last_ts;
	tk->last_ts = ts;
	return ts;
}

/* The arguments of @call as a dict "args": named from BTF, or as the trace names them. */
static void call_args(struct kmag_perfetto *p, const struct kmag_call *call)
{
	const struct kmag_btf_func *proto = kmag_trace_get_btf(p->trace) ?
						    kmag_trace_arg_proto(p->trace, call->func) : NULL;
	const char *names = proto ? NULL : kmag_trace_arg_names(p->trace, call->func);
	char name[64], text[160];
	uint32_t a = 0, i;

	if (!call->nargs || (kmag_trace_get_btf(p->trace) && !proto))
		return;	/* with BTF, as the kernel: nothing for a function it does not describe */
	ann_begin(p, TE_DEBUG_ANNOTATIONS, "args");
	if (proto) {
		for (i = 0; i < proto->nparams && i < KMAG_BTF_MAX_PARAMS && a < call->nargs; i++) {
			const struct kmag_btf_type *t = &proto->params[i].type;
			uint64_t v = call->args[a++];

			snprintf(name, sizeof(name), "%s", proto->params[i].name[0] ? proto->params[i].name : "?");
			if (t->kind == KMAG_BTF_OTHER) {
				size_t len = (size_t)snprintf(text, sizeof(text), "(%s)[0x%" PRIx64, t->kind_name, v);

				for (uint32_t x = 8; x < t->size && len < sizeof(text); x += 8)
					len += (size_t)snprintf(text + len, sizeof(text) - len, ":0x%" PRIx64,
								a < call->nargs ? call->args[a++] : 0);
				if (len < sizeof(text))
					snprintf(text + len, sizeof(text) - len, "]");
				ann_str(p, DA_DICT_ENTRIES, name, text);
			} else if ((t->kind == KMAG_BTF_INT && t->is_signed) || t->kind == KMAG_BTF_ENUM) {
				ann_begin(p, DA_DICT_ENTRIES, name);
				pb_int(&p->pkt, DA_INT, (int64_t)v);
				pb_end(&p->pkt);
			} else {
				ann_uint(p, DA_DICT_ENTRIES, name,
					 t->kind == KMAG_BTF_PTR ? DA_POINTER : DA_UINT, v);
			}
		}
	} else {
		/* "fd,buf,how,,": a struct's further registers have empty names */
		const char *s = names;

		while (a < call->nargs) {
			size_t n = s ? strcspn(s, ",") : 0;
			size_t len;

			if (s && n)
				snprintf(name, sizeof(name), "%.*s", (int)n, s);
			else
				snprintf(name, sizeof(name), "arg%u", a);
			s = s && s[n] ? s + n + 1 : NULL;
			len = (size_t)snprintf(text, sizeof(text), "0x%" PRIx64, call->args[a++]);
			while (s && *s == ',' && a < call->nargs && len < sizeof(text)) {
				len += (size_t)snprintf(text + len, sizeof(text) - len, ":0x%" PRIx64,
							call->args[a++]);
				s++;
			}
			if (strchr(text, ':'))
				ann_str(p, DA_DICT_ENTRIES, name, text);
			else
				ann_uint(p, DA_DICT_ENTRIES, name, DA_UINT, call->args[a - 1]);
		}
	}
	pb_end(&p->pkt);
}

/* Writes the begin of @call at @ts. */
static int write_begin(struct kmag_perfetto *p, const struct kmag_call *call, struct call_data *d,
		       uint64_t ts)
{
	uint8_t irq = call->ctx & (KMAG_CTX_HARDIRQ | KMAG_CTX_SOFTIRQ | KMAG_CTX_NMI);
	struct track *tk;
	uint64_t uuid;

	if (!(tk = track_of(p, call->pid, call->cpu, &uuid)))
		return -p->err.code;
	d->begin_ts = track_ts(tk, ts);
	d->begun = 1;
	d->unnamed = call->func == KMAG_FUNC_NONE;
	packet_begin(p, d->begin_ts);
	pb_begin(&p->pkt, PKT_TRACK_EVENT);
	pb_uint(&p->pkt, TE_TYPE, TYPE_SLICE_BEGIN);
	pb_uint(&p->pkt, TE_TRACK_UUID, uuid);
	pb_uint(&p->pkt, TE_CATEGORY_IIDS, irq ? CAT_IRQ : CAT_FUNC);
	event_name_func(p, call->func);
	if (call->cpu >= 0)
		ann_uint(p, TE_DEBUG_ANNOTATIONS, "cpu", DA_UINT, (uint64_t)call->cpu);
	if (irq)
		ann_str(p, TE_DEBUG_ANNOTATIONS, "context",
			irq & KMAG_CTX_NMI ? "nmi" : irq & KMAG_CTX_HARDIRQ ? "hardirq" : "softirq");
	if (call->nargs)
		call_args(p, call);
	if (call->caller != KMAG_FUNC_NONE) {
		const char *caller = kmag_symtab_name(p->st, call->caller);
		char site[320], line[320];

		kmag_fmt_call_site(site, sizeof(site), caller, call->caller_off);
		if (site[0])
			ann_str(p, TE_DEBUG_ANNOTATIONS, "call_site", site);
		if (site[0] && p->o.lines && call->caller_off != KMAG_OFF_NONE &&
		    kmag_srclines_call_site(p->o.lines, caller, call->caller_off, line, sizeof(line)))
			ann_str(p, TE_DEBUG_ANNOTATIONS, "call_site_line", line);
	}
	pb_end(&p->pkt);
	return packet_write(p, true);
}

/*
 * Begins every open call of the current task below @call that has not
 * begun (placeholders), then @call itself, at @ts.
 */
static int begin_open(struct kmag_perfetto *p, const struct kmag_call *call, struct call_data *d,
		      uint64_t ts)
{
	size_t i, n = kmag_replay_nr_open(p->replay);
	int ret;

	for (i = 0; i < n; i++) {
		const struct kmag_call *c = kmag_replay_open(p->replay, i);
		struct call_data *cd = kmag_replay_open_data(p->replay, i, &perfetto_ops);

		if (c == call || c->id == call->id)
			break;
		if (cd && !cd->begun && (ret = write_begin(p, c, cd, ts)))
			return ret;
	}
	return d->begun ? 0 : write_begin(p, call, d, ts);
}

/*
 * Slices begin and end where the replay's timeline has them
 * (kmag_replay_slice(): nested, the kernel's durations where the clocks agree).
 */
static int on_enter(void *ctx, const struct kmag_call *call, void *data,
		    const struct kmag_call *parent, void *parent_data)
{
	struct kmag_perfetto *p = ctx;
	uint64_t start, end;

	(void)parent, (void)parent_data;
	kmag_replay_slice(call, &start, &end);
	/* a placeholder begins with the first call it makes, or when it ends */
	if (call->func == KMAG_FUNC_NONE || start == KMAG_TS_NONE)
		return 0;
	return begin_open(p, call, data, start);
}

static const char *incomplete_reason(uint8_t flags)
{
	return flags & KMAG_CALL_NO_EXIT ? "exit not in the trace" :
	       flags & KMAG_CALL_NO_ENTRY ? "entry not in the trace" :
					    "events were lost during the call";
}

/* The return value: as an integer, and its errno name where it is an error. */
static void call_retval(struct kmag_perfetto *p, const struct kmag_call *call)
{
	const struct kmag_btf_func *proto = kmag_trace_get_btf(p->trace) ?
						    kmag_trace_arg_proto(p->trace, call->func) : NULL;
	int64_t e = 0;
	int errnum = 0;
	char buf[64];

	if (proto && proto->ret.kind == KMAG_BTF_VOID)
		return;	/* a void function's register is no value */
	ann_begin(p, TE_DEBUG_ANNOTATIONS, "retval");
	pb_int(&p->pkt, DA_INT, call->retval);
	pb_end(&p->pkt);
	if (proto)
		e = kmag_btf_ret_is_error(&proto->ret, (uint64_t)call->retval, &errnum) ? -errnum : 0;
	else
		e = kmag_call_errno(call->retval);
	if (e) {
		const char *name = kmag_errno_name((int)-e);

		snprintf(buf, sizeof(buf), "%s (%" PRId64 ")", name ? name : "?", e);
		ann_str(p, TE_DEBUG_ANNOTATIONS, "errno", buf);
	}
}

static int on_leave(void *ctx, const struct kmag_call *call, void *data,
		    const struct kmag_call *parent, void *parent_data)
{
	struct kmag_perfetto *p = ctx;
	struct call_data *d = data;
	uint64_t start, end, uuid;
	struct track *tk;
	int ret;

	(void)parent, (void)parent_data;
	kmag_replay_slice(call, &start, &end);
	if (!d->begun && (ret = begin_open(p, call, d, start != KMAG_TS_NONE ? start : end)))
		return ret;
	if (end == KMAG_TS_NONE && call->duration != KMAG_DURATION_NONE)
		end = d->begin_ts + call->duration;
	if (!(tk = track_of(p, call->pid, call->cpu, &uuid)))
		return -p->err.code;
	end = track_ts(tk, end);
	packet_begin(p, end);
	pb_begin(&p->pkt, PKT_TRACK_EVENT);
	pb_uint(&p->pkt, TE_TYPE, TYPE_SLICE_END);
	pb_uint(&p->pkt, TE_TRACK_UUID, uuid);
	if (call->has_retval)
		call_retval(p, call);
	if (call->flags & KMAG_CALL_INCOMPLETE)
		ann_str(p, TE_DEBUG_ANNOTATIONS, "incomplete", incomplete_reason(call->flags));
	if (d->unnamed && call->func != KMAG_FUNC_NONE)
		ann_str(p, TE_DEBUG_ANNOTATIONS, "function", kmag_symtab_name(p->st, call->func));
	if (call->duration != KMAG_DURATION_NONE && end - d->begin_ts != call->duration)
		ann_uint(p, TE_DEBUG_ANNOTATIONS, "duration_ns", DA_UINT, call->duration);
	pb_end(&p->pkt);
	p->stats.calls++;
	if (call->flags & KMAG_CALL_INCOMPLETE)
		p->stats.incomplete++;
	return packet_write(p, true);
}

static int instant(struct kmag_perfetto *p, const struct kmag_event *ev)
{
	char name[96];

	if (ev->type == KMAG_EV_LOST) {
		if (ev->lost == KMAG_LOST_UNKNOWN)
			snprintf(name, sizeof(name), "events lost on CPU%d", ev->cpu);
		else
			snprintf(name, sizeof(name), "%" PRIu64 " events lost on CPU%d", ev->lost, ev->cpu);
		/* (readers that keep a time running backwards pass it on) */
		packet_begin(p, track_ts(&p->lost_track, ev->ts));
		pb_begin(&p->pkt, PKT_TRACK_EVENT);
		pb_uint(&p->pkt, TE_TYPE, TYPE_INSTANT);
		pb_uint(&p->pkt, TE_TRACK_UUID, LOST_TRACK_UUID);
		pb_str(&p->pkt, TE_NAME, name);
		if (ev->cpu >= 0)
			ann_uint(p, TE_DEBUG_ANNOTATIONS, "cpu", DA_UINT, (uint64_t)ev->cpu);
		if (ev->lost != KMAG_LOST_UNKNOWN)
			ann_uint(p, TE_DEBUG_ANNOTATIONS, "lost", DA_UINT, ev->lost);
		pb_end(&p->pkt);
		p->stats.lost_markers++;
	} else {
		uint64_t uuid;
		struct track *tk = track_of(p, ev->pid, ev->cpu, &uuid);

		if (!tk)
			return -p->err.code;
		packet_begin(p, track_ts(tk, ev->ts));
		pb_begin(&p->pkt, PKT_TRACK_EVENT);
		pb_uint(&p->pkt, TE_TYPE, TYPE_INSTANT);
		pb_uint(&p->pkt, TE_TRACK_UUID, uuid);
		pb_uint(&p->pkt, TE_CATEGORY_IIDS, CAT_EVENT);
		event_name_str(p, ev->event_name ? ev->event_name : "event");
		if (ev->event_system)
			ann_str(p, TE_DEBUG_ANNOTATIONS, "system", ev->event_system);
		if (ev->cpu >= 0)
			ann_uint(p, TE_DEBUG_ANNOTATIONS, "cpu", DA_UINT, (uint64_t)ev->cpu);
		pb_end(&p->pkt);
	}
	p->stats.instants++;
	return packet_write(p, true);
}

static const struct kmag_replay_ops perfetto_ops = {
	.data_size = sizeof(struct call_data),
	.enter = on_enter,
	.leave = on_leave,
};

struct kmag_perfetto *kmag_perfetto_new(struct kmag_trace *t, const struct kmag_perfetto_opts *o,
					struct kmag_err *err)
{
	struct kmag_perfetto *p = calloc(1, sizeof(*p));

	if (!p) {
		kmag_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	p->trace = t;
	p->st = kmag_trace_symtab(t);
	p->o = *o;
	p->origin = KMAG_TS_NONE;
	u64map_init(&p->track_index);
	u64map_init(&p->func_iid);
	u64map_init(&p->names.map);
	u64map_init(&p->arg_names.map);
	p->replay = kmag_replay_new();
	if (!p->replay || kmag_replay_subscribe(p->replay, &perfetto_ops, p) ||
	    (!o->path && !o->stream)) {
		kmag_err_set(err, p->replay ? EINVAL : ENOMEM,
			     p->replay ? "no output given for the Perfetto export" : "out of memory");
		kmag_perfetto_free(p);
		return NULL;
	}
	if (o->path) {
		p->file = kmag_outfile_open(o->path, err);
		if (!p->file) {
			kmag_perfetto_free(p);
			return NULL;
		}
		p->out = kmag_outfile_stream(p->file);
	} else {
		p->out = o->stream;
	}
	return p;
}

int kmag_perfetto_event_fn(const struct kmag_event *ev, void *ctx)
{
	struct kmag_perfetto *p = ctx;
	int ret;

	if (p->failed)
		return -p->err.code;
	if (ev->type == KMAG_EV_FUNC) {
		kmag_err_set(&p->err, ENODATA,
			     "%s was recorded with the function tracer, which records no call durations; the Perfetto export needs function_graph data (trace-cmd record -p function_graph)",
			     p->o.source ? p->o.source : "the trace");
		p->failed = true;
		return -ENODATA;
	}
	if (ev->ts == KMAG_TS_NONE) {
		if (ev->type != KMAG_EV_GRAPH_ENTRY && ev->type != KMAG_EV_GRAPH_EXIT)
			return 0;
		kmag_err_set(&p->err, ENODATA,
			     "%s has no timestamps on its function_graph lines; record it with the funcgraph-abstime option, or as trace.dat",
			     p->o.source ? p->o.source : "the trace");
		p->failed = true;
		return -ENODATA;
	}
	/* the output starts at the first event: an export refused before has written nothing */
	if (!p->started && (ret = write_header(p)))
		return ret;
	if (p->origin == KMAG_TS_NONE)
		p->origin = ev->ts;
	if (ev->ts > p->last_ts)
		p->last_ts = ev->ts;
	if (ev->type == KMAG_EV_LOST || ev->type == KMAG_EV_OTHER)
		return instant(p, ev);
	ret = kmag_replay_add(p->replay, ev);
	if (ret && !p->failed)
		fail(p, -ret, NULL);
	return ret;
}

int kmag_perfetto_finish(struct kmag_perfetto *p, struct kmag_err *err)
{
	int ret = p->failed ? -p->err.code : 0;

	if (!ret && !p->started)
		ret = write_header(p);	/* a trace without events: a valid, empty trace */
	if (!ret)
		ret = kmag_replay_finish(p->replay,
					 p->origin == KMAG_TS_NONE ? KMAG_TS_NONE : p->last_ts);
	if (ret && !p->failed)
		fail(p, -ret, NULL);
	if (p->file) {
		if (!ret)
			ret = kmag_outfile_commit(p->file, &p->err);
		else
			kmag_outfile_abort(p->file);
		p->file = NULL;
		if (ret)
			p->failed = true;
	} else if (!ret && fflush(p->out)) {
		ret = fail(p, EIO, NULL);
	}
	if (ret)
		kmag_err_set(err, p->err.code ? p->err.code : -ret, "%s",
			     p->err.msg[0] ? p->err.msg : strerror(-ret));
	return ret;
}

const struct kmag_err *kmag_perfetto_error(const struct kmag_perfetto *p)
{
	return &p->err;
}

const struct kmag_perfetto_stats *kmag_perfetto_stats(const struct kmag_perfetto *p)
{
	return &p->stats;
}

void kmag_perfetto_free(struct kmag_perfetto *p)
{
	if (!p)
		return;
	kmag_outfile_abort(p->file);	/* what finish did not put in place */
	kmag_replay_free(p->replay);
	u64map_release(&p->track_index);
	u64map_release(&p->func_iid);
	intern_release(&p->names);
	intern_release(&p->arg_names);
	free(p->tracks);
	free(p->pkt.b);
	free(p->interned.b);
	free(p);
}
