/* SPDX-License-Identifier: MIT */
/*
 * tracedat-write.h - kmag's trace.dat (v6/v7) writer. Internal.
 *
 * Why our own: libtracecmd (1.3.1 / trace-cmd 3.1.6) has no public writer;
 * its output functions are exported but declared only in a private header
 * that Debian does not ship, with an unversioned ABI, and they copy the
 * metadata from the *live* tracefs at write time rather than from what was
 * captured. This writer follows trace-cmd.dat.v6(5) and trace-cmd.dat.v7(5)
 * and the layout trace-cmd 3.1.6 produces, so both `trace-cmd report` and
 * kmag's reader (tracedat-read.c) read every file it writes.
 *
 * Usage: kmag__tdw_begin() (file header), kmag__tdw_metadata() (header page
 * and event formats, kallsyms, printk formats), kmag__tdw_finish() (saved
 * cmdlines, options, per-CPU ring-buffer data, v7 string table). The
 * metadata can be written before the recording starts; the rest after.
 */
#ifndef KMAG_TRACEDAT_WRITE_H
#define KMAG_TRACEDAT_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmag/kmag.h"

struct tdw_blob {
	const char *data;	/* borrowed */
	size_t size;
};

struct tdw_system {
	const char *name;			/* event system, e.g. "sched" */
	const struct tdw_blob *formats;		/* events/<system>/<event>/format texts */
	size_t nr_formats;
};

/* What trace-cmd writes before the CPU data; all borrowed for the call. */
struct tdw_meta {
	struct tdw_blob header_page;		/* events/header_page */
	struct tdw_blob header_event;		/* events/header_event */
	const struct tdw_blob *ftrace_formats;	/* events/ftrace/<event>/format */
	size_t nr_ftrace_formats;
	const struct tdw_system *systems;	/* formats of the recorded events */
	size_t nr_systems;
	struct tdw_blob kallsyms;		/* /proc/kallsyms */
	struct tdw_blob printk;			/* printk_formats */
};

/* A chunk compressed already (v7 zstd): @csize bytes at @off of its CPU's fd. */
struct tdw_chunk {
	uint64_t off;
	uint32_t csize;
	uint32_t usize;		/* uncompressed: whole pages */
};

/*
 * One CPU's raw ring-buffer sub-buffers, read from @fd at offset 0; or,
 * with @chunks, zstd chunks (a zstd v7 file only) copied as they are, in
 * order (the flight recorder's blocks).
 */
struct tdw_cpu {
	int fd;			/* -1 or size 0: the CPU has no data */
	uint64_t size;		/* bytes, a multiple of the page size (uncompressed) */
	const struct tdw_chunk *chunks;	/* or NULL */
	size_t nr_chunks;
};

struct tdw_tail {
	struct tdw_blob cmdlines;	/* saved_cmdlines ("pid comm" lines) */
	int nr_cpus;			/* CPUs of the machine (entries in @cpus) */
	const struct tdw_cpu *cpus;
	const char *clock_file;		/* the trace_clock file text, "[local] global ..." */
	const char *clock;		/* the selected clock name, "local" */
	const char *uname;		/* "Linux host 6.1.0 x86_64", or NULL */
	const char *version;		/* recorder version string, or NULL */
	const char *const *cpustats;	/* CPUSTAT texts ("CPU: N\n" + per_cpu stats) */
	size_t nr_cpustats;
	/*
	 * v7: the kernel's BTF (/sys/kernel/btf/vmlinux), stored as trace-cmd
	 * 3.4 does: a "BTF" section (compressed with the file) holding the
	 * file as is, found through a BTF_FILE option naming its offset.
	 * Size 0: none. Not written to v6 files (nor by trace-cmd).
	 */
	struct tdw_blob btf;
	/*
	 * v7 and v6: trace-cmd 3.4's LAST_BOOT_INFO option ("INSTANCE:" + the
	 * instance's last_boot_info), or NULL.
	 */
	const char *last_boot_info;
	/* The tracer's cost per traced call (kmag_tracer_cost_format()'s text), or NULL. */
	const char *tracer_cost;
	/*
	 * Release the source blocks once copied (fallocate PUNCH_HOLE), so a
	 * file can be assembled on a full disk from the data that filled it.
	 */
	bool punch_holes;
	/* Called with each run of whole pages as it is copied (may be NULL). */
	void (*on_pages)(void *ctx, int cpu, const uint8_t *pages, size_t len);
	void *on_pages_ctx;
};

struct tdw_opt;

/* Writer state; zero-initialise, then kmag__tdw_begin(). */
struct tdw {
	int fd;			/* output, positioned by the writer */
	uint64_t pos;		/* current end of what was written */
	int version;		/* 6 or 7 */
	bool compress;		/* v7 zstd */
	uint32_t page_size;	/* ring-buffer sub-buffer size */
	void *zc;		/* ZSTD_CCtx */
	char *strings;		/* v7: section descriptions (concatenated, NUL separated) */
	size_t strings_len, strings_cap;
	struct tdw_opt *opts;	/* v7: options not written yet */
	size_t nr_opts, cap_opts;
	uint64_t options_link;	/* v7: offset of the u64 naming the next OPTIONS section */
	uint64_t data_bytes;	/* CPU data bytes written (after compression) */
	struct kmag_err *err;
};

/*
 * Writes the file header to @fd (empty, opened for writing). @version is 6
 * or 7; @compress (v7 only) selects zstd. Returns 0 or -errno with @err set.
 * Release with kmag__tdw_release() in every case.
 */
int kmag__tdw_begin(struct tdw *w, int fd, int version, bool compress, uint32_t page_size,
		    struct kmag_err *err);
/* Writes the metadata (v6: up to the printk formats). */
int kmag__tdw_metadata(struct tdw *w, const struct tdw_meta *m);
/* Writes everything after the metadata and completes the file. */
int kmag__tdw_finish(struct tdw *w, const struct tdw_tail *t);
/* Frees the writer's memory (not the fd). Accepts a writer that failed. */
void kmag__tdw_release(struct tdw *w);

#endif /* KMAG_TRACEDAT_WRITE_H */
