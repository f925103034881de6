// SPDX-License-Identifier: MIT
/*
 * pprof.c - a call graph as a pprof profile (perftools.profiles.Profile,
 * google/pprof's proto/profile.proto), gzipped as `go tool pprof`,
 * Pyroscope and Parca read it.
 *
 * Sample types calls/count and time/nanoseconds; time is self time, so
 * pprof's flat column per function is the report's Calls and Self and its
 * cumulative column the time of the stacks a function is on. One sample per
 * distinct call stack (a node of the calling-context tree), its locations
 * leaf first; one location and one function per kernel function, with its
 * source file and line from the symbol map or the vmlinux where known. The
 * kernel, tracer and input go in the comments and, for stores that index
 * them (Pyroscope, Parca), in labels on every sample.
 *
 * Without a calling-context tree (a profile from report --format json or
 * kmag merge, which keeps caller->callee edges, not stacks) each edge
 * becomes a two-frame sample (callee, caller) with the calls and self time
 * the callee had when called from there, and what no edge holds (calls of
 * functions with no traced caller) a one-frame sample: each function's
 * calls and self time are exact, but stacks are one caller deep.
 *
 * Written in one pass through zlib's gzip stream: the samples first, then
 * the locations, functions and the string table (protobuf fields may come
 * in any order), so only the function table is held in memory.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "kmag/render/export.h"
#include "kmag/srclines.h"
#include "kmag/symmap.h"
#include "kmag/trace.h"
#include "kmag/version.h"
#include "pbwrite.h"
#include "render-util.h"
#include "u64map.h"

/* Profile fields */
enum {
	PF_SAMPLE_TYPE = 1, PF_SAMPLE = 2, PF_MAPPING = 3, PF_LOCATION = 4, PF_FUNCTION = 5,
	PF_STRING_TABLE = 6, PF_DURATION = 10, PF_PERIOD_TYPE = 11, PF_PERIOD = 12,
	PF_COMMENT = 13, PF_DEFAULT_SAMPLE_TYPE = 14,
};

struct writer {
	FILE *out;
	z_stream z;
	uint8_t zbuf[65536];
	struct pb msg;			/* the message being written */
	/* the string table: index by string hash (collisions told apart by strcmp) */
	struct u64map index;
	char **strings;
	size_t nr_strings, cap_strings;
	int err;			/* first error, as -errno */
};

static int zwrite(struct writer *w, const void *data, size_t len, int flush)
{
	if (w->err)
		return w->err;
	w->z.next_in = (Bytef *)(uintptr_t)data;
	w->z.avail_in = (uInt)len;
	do {
		size_t have;
		int zr;

		w->z.next_out = w->zbuf;
		w->z.avail_out = sizeof(w->zbuf);
		zr = deflate(&w->z, flush);
		if (zr == Z_STREAM_ERROR)
			return w->err = -EIO;
		have = sizeof(w->zbuf) - w->z.avail_out;
		if (have && fwrite(w->zbuf, 1, have, w->out) != have)
			return w->err = -EIO;
	} while (w->z.avail_out == 0 || (flush == Z_FINISH && w->z.avail_in));
	return 0;
}

/* Writes the message in w->msg as one @field of the Profile. */
static int emit(struct writer *w, uint32_t field)
{
	uint8_t head[16];
	struct pb h = { 0 };
	int ret;

	if (w->msg.oom)
		return w->err = -ENOMEM;
	/* tag and length, without copying the message */
	h.b = head;
	h.cap = sizeof(head);
	pb_tag(&h, field, PB_LEN);
	pb_raw_varint(&h, w->msg.len);
	ret = zwrite(w, head, h.len, Z_NO_FLUSH);
	if (!ret)
		ret = zwrite(w, w->msg.b, w->msg.len, Z_NO_FLUSH);
	pb_reset(&w->msg);
	return ret;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 14695981039346656037ull;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ull;
	return h;
}

/* The string-table index of @s (added when new); 0 ("") on failure or for NULL. */
static int64_t str_id(struct writer *w, const char *s)
{
	uint64_t h, *slot;
	bool inserted;

	if (!s || !*s)
		return 0;
	/* linear probing on the hash: h, h+1, ... until the string or a free slot */
	for (h = hash_str(s);; h++) {
		slot = u64map_upsert(&w->index, h, w->nr_strings, &inserted);
		if (!slot) {
			w->err = -ENOMEM;
			return 0;
		}
		if (inserted)
			break;
		if (*slot < w->nr_strings && !strcmp(w->strings[*slot], s))
			return (int64_t)*slot;
	}
	if (kmag__grow(&w->strings, &w->cap_strings, w->nr_strings + 1, sizeof(*w->strings)) ||
	    !(w->strings[w->nr_strings] = strdup(s))) {
		*slot = UINT64_MAX;
		w->err = -ENOMEM;
		return 0;
	}
	return (int64_t)w->nr_strings++;
}

/* A ValueType {type, unit} as @field of the Profile. */
static int value_type(struct writer *w, uint32_t field, const char *type, const char *unit)
{
	int64_t t = str_id(w, type), u = str_id(w, unit);

	pb_int(&w->msg, 1, t);
	pb_int(&w->msg, 2, u);
	return emit(w, field);
}

/* The labels every sample carries: what the data is. */
struct labels {
	int64_t key[3], str[3];
	int n;
};

/* One Sample: @locs (leaf first, @n of them), @calls, @self_ns. */
static int sample(struct writer *w, const uint64_t *locs, size_t n, uint64_t calls,
		  uint64_t self_ns, const struct labels *lb)
{
	size_t i;
	int k;

	pb_begin(&w->msg, 1);	/* packed location_id */
	for (i = 0; i < n; i++)
		pb_raw_varint(&w->msg, locs[i]);
	pb_end(&w->msg);
	pb_begin(&w->msg, 2);	/* packed value */
	pb_raw_varint(&w->msg, calls);
	pb_raw_varint(&w->msg, self_ns);
	pb_end(&w->msg);
	for (k = 0; k < lb->n; k++) {
		pb_begin(&w->msg, 3);
		pb_int(&w->msg, 1, lb->key[k]);
		pb_int(&w->msg, 2, lb->str[k]);
		pb_end(&w->msg);
	}
	return emit(w, PF_SAMPLE);
}

/* The location of cg node @node (ids: node index + 1; the extra one past the nodes: unknown). */
static uint64_t loc_of(const struct kmag_cg *cg, kmag_func_t func)
{
	long i = func == KMAG_FUNC_NONE ? -1 : kmag_cg_node_index(cg, func);

	return i < 0 ? kmag_cg_nr_nodes(cg) + 1 : (uint64_t)i + 1;
}

#define MAX_STACK 1024

static int samples_cct(struct writer *w, const struct kmag_cg *cg, const struct labels *lb)
{
	const struct kmag_cct_node *cct = kmag_cg_cct(cg);
	size_t n = kmag_cg_nr_cct(cg), i, depth;
	uint64_t locs[MAX_STACK];
	int ret;

	for (i = 1; i < n; i++) {
		uint32_t at = (uint32_t)i;

		if (!cct[i].st.calls && !cct[i].st.self_ns)
			continue;
		/* leaf first, up to the root (index 0); deeper stacks keep their innermost frames */
		for (depth = 0; at && depth < MAX_STACK; at = cct[at].parent)
			locs[depth++] = loc_of(cg, cct[at].func);
		if ((ret = sample(w, locs, depth, cct[i].st.calls, cct[i].st.self_ns, lb)))
			return ret;
	}
	return 0;
}

/* Without stacks: an edge is (callee, caller); what the edges do not hold, (function). */
static int samples_edges(struct writer *w, const struct kmag_cg *cg, const struct labels *lb)
{
	const struct kmag_cg_node *nodes = kmag_cg_nodes(cg);
	const struct kmag_cg_edge *edges = kmag_cg_edges(cg);
	const uint32_t *in = kmag_cg_in_edges(cg);
	size_t i, nn = kmag_cg_nr_nodes(cg);
	uint64_t locs[2];
	int ret;

	for (i = 0; i < nn; i++) {
		uint64_t calls = nodes[i].st.calls, self = nodes[i].st.self_ns;
		uint32_t k;

		for (k = 0; k < nodes[i].in_count; k++) {
			const struct kmag_cg_edge *e = &edges[in[nodes[i].in_first + k]];

			if (!e->st.calls && !e->st.self_ns)
				continue;
			locs[0] = i + 1;
			locs[1] = (uint64_t)e->caller + 1;
			if ((ret = sample(w, locs, 2, e->st.calls, e->st.self_ns, lb)))
				return ret;
			calls -= calls > e->st.calls ? e->st.calls : calls;
			self -= self > e->st.self_ns ? e->st.self_ns : self;
		}
		if (calls || self) {
			locs[0] = i + 1;
			if ((ret = sample(w, locs, 1, calls, self, lb)))
				return ret;
		}
	}
	return 0;
}

/* Where function @func is defined: from the symbol map, else the vmlinux. */
static const char *func_file(const struct kmag_pprof_opts *o, kmag_func_t func, const char *name,
			     uint32_t *line, uint64_t *addr)
{
	const struct kmag_symmap_entry *e = o->loc ? kmag_srcloc_entry(o->loc, func, NULL) : NULL;
	const char *file = NULL;

	*line = 0;
	*addr = kmag_symtab_addr(o->st, func);
	if (e && e->file) {
		*line = e->line;
		return e->file;
	}
	if (o->lines && name) {
		uint64_t a = kmag_srclines_func_addr(o->lines, name);

		if (a && (file = kmag_srclines_at(o->lines, a, line)) && !*addr)
			*addr = a;
	}
	return file;
}

static int functions_and_locations(struct writer *w, const struct kmag_pprof_opts *o)
{
	const struct kmag_cg_node *nodes = kmag_cg_nodes(o->cg);
	size_t i, nn = kmag_cg_nr_nodes(o->cg);
	int ret;

	for (i = 0; i <= nn; i++) {
		kmag_func_t func = i < nn ? nodes[i].func : KMAG_FUNC_NONE;
		const char *name = i < nn ? kmag_symtab_name(o->st, func) : NULL;
		uint64_t addr = 0;
		uint32_t line = 0;
		const char *file = i < nn ? func_file(o, func, name, &line, &addr) : NULL;
		int64_t name_id = str_id(w, name ? name : "[unknown]");

		pb_uint(&w->msg, 1, i + 1);	/* Function.id */
		pb_int(&w->msg, 2, name_id);	/* name */
		pb_int(&w->msg, 3, name_id);	/* system_name */
		if (file)
			pb_int(&w->msg, 4, str_id(w, file));
		if (line)
			pb_int(&w->msg, 5, line);	/* start_line */
		if ((ret = emit(w, PF_FUNCTION)))
			return ret;
		pb_uint(&w->msg, 1, i + 1);	/* Location.id */
		pb_uint(&w->msg, 2, 1);		/* mapping_id: the kernel */
		if (addr)
			pb_uint(&w->msg, 3, addr);
		pb_begin(&w->msg, 4);		/* Line */
		pb_uint(&w->msg, 1, i + 1);
		if (line)
			pb_int(&w->msg, 2, line);
		pb_end(&w->msg);
		if ((ret = emit(w, PF_LOCATION)))
			return ret;
	}
	return 0;
}

static int comment(struct writer *w, const char *text)
{
	/* comment is a repeated int64 of string indexes, one field each */
	pb_int(&w->msg, PF_COMMENT, str_id(w, text));
	return 0;
}

static int profile_body(struct writer *w, const struct kmag_pprof_opts *o)
{
	const struct kmag_trace_info *info = o->info;
	const char *tracer = kmag_tracer_name(info->tracer);
	struct labels lb = { .n = 0 };
	char buf[512], release[128] = "";
	size_t i;
	int ret;

	if ((ret = value_type(w, PF_SAMPLE_TYPE, "calls", "count")) ||
	    (ret = value_type(w, PF_SAMPLE_TYPE, "time", "nanoseconds")) ||
	    (ret = value_type(w, PF_PERIOD_TYPE, "calls", "count")))
		return ret;
	lb.key[lb.n] = str_id(w, "tracer");
	lb.str[lb.n++] = str_id(w, tracer);
	/* "Linux host 6.1.0-56-cloud-amd64 x86_64": the third word */
	if (info->uname)
		sscanf(info->uname, "%*s %*s %127s", release);
	if (release[0]) {
		lb.key[lb.n] = str_id(w, "kernel_release");
		lb.str[lb.n++] = str_id(w, release);
	}
	if (kmag_cg_nr_cct(o->cg) > 1)
		ret = samples_cct(w, o->cg, &lb);
	else
		ret = samples_edges(w, o->cg, &lb);
	if (ret || (ret = functions_and_locations(w, o)))
		return ret;
	/* one mapping: the kernel, whose functions and lines are already resolved */
	pb_uint(&w->msg, 1, 1);
	pb_int(&w->msg, 5, str_id(w, "[kernel.kallsyms]"));
	pb_uint(&w->msg, 7, 1);	/* has_functions */
	pb_uint(&w->msg, 8, 1);	/* has_filenames */
	pb_uint(&w->msg, 9, 1);	/* has_line_numbers */
	if ((ret = emit(w, PF_MAPPING)))
		return ret;
	/* the scalar fields, straight into the stream */
	snprintf(buf, sizeof(buf), "kmag %s: %s", kmag_version(), o->source ? o->source : "");
	comment(w, buf);
	if (info->uname) {
		snprintf(buf, sizeof(buf), "kernel: %s", info->uname);
		comment(w, buf);
	}
	snprintf(buf, sizeof(buf), "tracer: %s", tracer);
	comment(w, buf);
	if (!kmag_cg_summary(o->cg)->has_stacks || kmag_cg_nr_cct(o->cg) <= 1)
		comment(w, "stacks: caller and callee only (the input keeps call edges, not call stacks)");
	for (i = 0; i < info->nr_sources; i++) {
		snprintf(buf, sizeof(buf), "recording: %s (%s, %s)", info->sources[i].name ? info->sources[i].name : "?",
			 info->sources[i].uname ? info->sources[i].uname : "kernel unknown",
			 info->sources[i].tracer ? info->sources[i].tracer : "?");
		comment(w, buf);
	}
	pb_int(&w->msg, PF_PERIOD, 1);
	pb_int(&w->msg, PF_DEFAULT_SAMPLE_TYPE, str_id(w, "time"));
	if (info->first_ts != KMAG_TS_NONE && info->last_ts != KMAG_TS_NONE &&
	    info->last_ts > info->first_ts)
		pb_int(&w->msg, PF_DURATION, (int64_t)(info->last_ts - info->first_ts));
	if (w->msg.oom)
		return w->err = -ENOMEM;
	if ((ret = zwrite(w, w->msg.b, w->msg.len, Z_NO_FLUSH)))
		return ret;
	pb_reset(&w->msg);
	/* last, the string table: every string the fields above used */
	if (w->err)
		return w->err;
	for (i = 0; i < w->nr_strings; i++) {
		pb_str(&w->msg, PF_STRING_TABLE, w->strings[i]);
		if (w->msg.len > 32768 || i + 1 == w->nr_strings) {
			if (w->msg.oom)
				return w->err = -ENOMEM;
			if ((ret = zwrite(w, w->msg.b, w->msg.len, Z_NO_FLUSH)))
				return ret;
			pb_reset(&w->msg);
		}
	}
	return zwrite(w, NULL, 0, Z_FINISH);
}

int kmag_pprof_write(FILE *out, const struct kmag_pprof_opts *o)
{
	struct writer w = { .out = out };
	size_t i;
	int ret;

	u64map_init(&w.index);
	/* gzip (windowBits 15 + 16), as pprof files are */
	if (deflateInit2(&w.z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	/* string_table[0] must be "" */
	if (kmag__grow(&w.strings, &w.cap_strings, 1, sizeof(*w.strings)) || !(w.strings[0] = strdup("")))
		ret = -ENOMEM;
	else {
		w.nr_strings = 1;
		ret = profile_body(&w, o);
	}
	if (!ret && fflush(out))
		ret = -EIO;
	deflateEnd(&w.z);
	for (i = 0; i < w.nr_strings; i++)
		free(w.strings[i]);
	free(w.strings);
	free(w.msg.b);
	u64map_release(&w.index);
	return ret;
}
