// SPDX-License-Identifier: MIT
/*
 * trace.c - open any supported trace, detect its format from content, and
 * stream its events (the per-CPU bookkeeping the inputs share is in
 * trace-common.c).
 */
#define PR_DOMAIN "trace"
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "trace-internal.h"
#include "tracedat.h"

/* Recognises compressed or foreign files so the error can say what to do. */
static const char *foreign_format(const unsigned char *b, size_t n)
{
	if (n >= 4 && !memcmp(b, "\x28\xb5\x2f\xfd", 4))
		return "zstd-compressed data; decompress it first (zstd -d)";
	if (n >= 6 && !memcmp(b, "\xfd" "7zXZ", 6))
		return "xz-compressed data; decompress it first (xz -d)";
	if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b)
		return "gzip-compressed data; decompress it first (gunzip)";
	if (n >= 8 && !memcmp(b, "PERFILE2", 8))
		return "a perf.data file; kmag reads trace-cmd's trace.dat and ftrace text (use `perf script` or `trace-cmd record`)";
	if (n >= 4 && !memcmp(b, "\x7f" "ELF", 4))
		return "an ELF binary, not a trace";
	return NULL;
}

struct kmag_trace *kmag_trace_open(const char *path, const struct kmag_trace_opts *opts,
				   struct kmag_err *err)
{
	unsigned char head[64];
	struct kmag_trace *t;
	struct stat st;
	const char *foreign;
	ssize_t n;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		kmag_err_set(err, errno, "cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || S_ISDIR(st.st_mode)) {
		kmag_err_set(err, S_ISDIR(st.st_mode) ? EISDIR : errno, "%s: %s", path,
			     S_ISDIR(st.st_mode) ? "is a directory, not a trace file" :
						   strerror(errno));
		close(fd);
		return NULL;
	}
	n = read(fd, head, sizeof(head));
	close(fd);
	if (n < 0) {
		kmag_err_set(err, errno, "cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	if (n == 0) {
		kmag_err_set(err, ENODATA, "%s is empty: no trace to read", path);
		return NULL;
	}
	foreign = foreign_format(head, (size_t)n);
	if (foreign) {
		kmag_err_set(err, EINVAL, "%s is %s", path, foreign);
		return NULL;
	}

	t = calloc(1, sizeof(*t));
	if (!t || !(t->path = strdup(path)) || !(t->st = kmag_symtab_new())) {
		if (t) {
			free(t->path);
			free(t);
		}
		kmag_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	if (opts)
		t->opts = *opts;
	t->file_size = (uint64_t)st.st_size;
	u64map_init(&t->comms.map);
	u64map_init(&t->arg_names.map);
	u64map_init(&t->btf_ix);
	t->info.first_ts = KMAG_TS_NONE;
	t->info.last_ts = KMAG_TS_NONE;

	if (kmag__tracedat_magic(head, (size_t)n)) {
		t->info.format = KMAG_INPUT_TRACEDAT;
		if (t->opts.reader == KMAG_READER_LIBTRACECMD)
#if KMAG_HAVE_LIBTRACECMD
			ret = kmag__tracecmd_input_open(t, err);
#else
			ret = kmag_need_feature(KMAG_FEATURE_LIBTRACECMD, "--reader libtracecmd", err);
#endif
		else
			ret = kmag__tracedat_input_open(t, err);
	} else if (kmag__profile_magic(head, (size_t)n)) {
		ret = kmag__profile_input_open(t, err);
	} else {
		if (t->opts.reader == KMAG_READER_LIBTRACECMD || t->opts.reader == KMAG_READER_BUILTIN)
			pr_info("%s is text; the --reader choice applies to trace.dat only", path);
		ret = kmag__text_input_open(t, err);
	}
	if (ret) {
		kmag_trace_close(t);	/* each input's close copes with a half-open state */
		return NULL;
	}
	return t;
}

int kmag_trace_read(struct kmag_trace *t, kmag_event_fn fn, void *ctx, struct kmag_err *err)
{
	int ret, i;

	if (t->read_started)
		return kmag_err_set(err, EALREADY, "the trace was already read; open it again");
	t->read_started = true;
	t->fn = fn;
	t->fn_ctx = ctx;
	ret = t->ops->read(t, err);
	if (t->progress)
		kmag__trace_progress(t);

	/* totals over CPUs */
	t->info.lost = t->info.lost_unattributed;
	t->info.lost_unknown = false;
	for (i = 0; i < t->info.nr_cpus; i++) {
		struct kmag_cpu_info *ci = &t->cpus[i];
		uint64_t stat_lost = ci->stat_overrun + ci->stat_commit_overrun + ci->stat_dropped;

		/* the recorder's counters are exact; data markers may lack counts */
		if (ci->has_stats && stat_lost >= ci->lost) {
			t->info.lost += stat_lost;
		} else {
			t->info.lost += ci->lost;
			if (ci->lost_unknown && !ci->has_stats)
				t->info.lost_unknown = true;
		}
		if (ci->first_ts != KMAG_TS_NONE &&
		    (t->info.first_ts == KMAG_TS_NONE || ci->first_ts < t->info.first_ts))
			t->info.first_ts = ci->first_ts;
		if (ci->last_ts != KMAG_TS_NONE &&
		    (t->info.last_ts == KMAG_TS_NONE || ci->last_ts > t->info.last_ts))
			t->info.last_ts = ci->last_ts;
	}
	return ret;
}

bool kmag_trace_set_window(struct kmag_trace *t, kmag_trace_window_fn fn, void *ctx)
{
	/* only the built-in trace.dat reader seeks */
	if (t->ops != &kmag__input_tracedat)
		return false;
	t->window_fn = fn;
	t->window_ctx = ctx;
	return true;
}

void kmag_trace_set_progress(struct kmag_trace *t, kmag_trace_progress_fn fn, void *ctx)
{
	t->progress = fn;
	t->progress_ctx = ctx;
}

const struct kmag_trace_info *kmag_trace_info(const struct kmag_trace *t)
{
	return &t->info;
}

size_t kmag_trace_sources_cost(const struct kmag_trace_info *info, uint64_t *lo, uint64_t *hi)
{
	size_t i, n = 0;

	*lo = *hi = 0;
	for (i = 0; i < info->nr_sources; i++) {
		uint64_t c = info->sources[i].tracer_cost_ns;

		if (!c)
			continue;
		if (!n++ || c < *lo)
			*lo = c;
		if (c > *hi)
			*hi = c;
	}
	return n;
}

struct kmag_symtab *kmag_trace_symtab(struct kmag_trace *t)
{
	return t->st;
}

const void *kmag_trace_btf(const struct kmag_trace *t, size_t *size)
{
	*size = t->btf ? t->btf_size : 0;
	return t->btf;
}

const char *kmag_trace_comm(const struct kmag_trace *t, int pid)
{
	if (pid == 0)
		return "<idle>";
	return kmag__keyed_get(&t->comms, (uint64_t)(uint32_t)pid);
}

void kmag_trace_close(struct kmag_trace *t)
{
	if (!t)
		return;
	if (t->ops && t->ops->close)
		t->ops->close(t);
	kmag__keyed_release(&t->comms);
	kmag__keyed_release(&t->arg_names);
	kmag__trace_btf_release(t);
	kmag_symtab_free(t->st);
	free(t->cpus);
	free(t->path);
	free(t);
}

struct tep_event *kmag__trace_event_format(struct kmag_trace *t, int id)
{
	return t && t->ops && t->ops->event_format ? t->ops->event_format(t, id) : NULL;
}
