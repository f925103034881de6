/* SPDX-License-Identifier: MIT */
/*
 * tracedat.h - kmag's own trace.dat (v6/v7) container reader. Internal.
 *
 * Why our own: libtracecmd's public API hands out one malloc'ed tep_record per
 * event through tracecmd_read_data(), which caps decoding far below the tens
 * of millions of events per second kmag needs, and exposes neither the raw
 * sub-buffers nor the CPU stats. This reader validates every size against the
 * file before trusting it, so corrupt files fail with a precise message.
 * Event formats are still parsed by libtraceevent (see decode.c), and the
 * libtracecmd reader remains available as the reference (input-tracecmd.c).
 */
#ifndef KMAG_TRACEDAT_H
#define KMAG_TRACEDAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "kmag/kmag.h"
#include "kmag/trace.h"
#include "tracedat-format.h"
#include "util/endian.h"

struct td_blob {
	char *data;	/* NUL-terminated copy (one extra byte), or NULL */
	size_t size;	/* bytes without the terminator */
};

struct td_format {
	char *system;	/* "ftrace" for the ftrace event formats */
	struct td_blob text;
};

struct td_cpu_data {
	int cpu;		/* CPU id */
	uint64_t offset;	/* file offset of the CPU's data */
	uint64_t size;		/* bytes of data (for compressed data: chunk bytes) */
};

struct td_buffer {
	char *name;		/* "" for the top instance */
	char *clock;		/* trace clock name, or NULL */
	uint32_t page_size;	/* sub-buffer size */
	int nr_cpus;
	struct td_cpu_data *cpus;
	bool compressed;	/* v7: data is in zstd chunks */
	bool latency;		/* text-only latency data */
};

struct tracedat {
	int fd;
	uint64_t file_size;
	uint64_t bytes_read;	/* by kmag__tracedat_pread() (atomically), for the progress hook */
	int version;		/* 6 or 7 */
	bool big_endian;	/* file byte order */
	bool swap;		/* file byte order differs from the host */
	int long_size;		/* 4 or 8 */
	uint32_t page_size;
	char *comp_name;	/* v7: "none", "zstd", ... */
	char *comp_version;

	struct td_blob header_page, header_event, kallsyms, printk, cmdlines;
	struct td_blob btf;	/* v7 BTF_FILE section (trace-cmd 3.4, kmag record), or empty */
	struct td_format *formats;
	size_t nr_formats, cap_formats;

	int nr_cpus;		/* CPUs of the recording machine */
	char **cpustats;	/* CPUSTAT option texts, in file order */
	size_t nr_cpustats, cap_cpustats;
	char *clock;		/* from TRACECLOCK */
	char *uname;
	char *tracer_version;	/* VERSION option */
	struct kmag_tracer_cost cost;	/* KMAG_TRACEDAT_OPT_TRACER_COST option, or zero */
	int64_t ts_offset;	/* DATE/OFFSET corrections, ns */

	struct td_buffer top;	/* the top instance's flyrecord data */
	size_t nr_other_buffers;	/* instance buffers kmag does not read yet */

	void *zctx;		/* ZSTD_DCtx, created on first use */

	/* v6 layout facts, for tools that rewrite a file (bench/gen-big-tracedat) */
	uint64_t v6_cpu_table_off;	/* file offset of the flyrecord CPU table */
	uint64_t v6_header_end;		/* end of the table and the trace clock that follows */
};

/* Opens and validates @path. On failure returns -errno with @err set; td is released. */
int kmag__tracedat_open(struct tracedat *td, const char *path, struct kmag_err *err);
void kmag__tracedat_close(struct tracedat *td);

/* True when @buf (of @len bytes) starts with the trace.dat magic. */
bool kmag__tracedat_magic(const void *buf, size_t len);

/*
 * Decompresses one zstd frame of @csize bytes at @src into @dst (exactly
 * @usize bytes expected). Returns 0 or -EINVAL with @err set naming @what.
 */
int kmag__tracedat_decompress(struct tracedat *td, const void *src, size_t csize, void *dst,
			      size_t usize, const char *what, struct kmag_err *err);
/* The same with the context *@zctx (made on first use: one per thread; kmag__zstd_free()). */
int kmag__zstd_decompress(void **zctx, const void *src, size_t csize, void *dst, size_t usize,
			  const char *what, struct kmag_err *err);
void kmag__zstd_free(void *zctx);
/*
 * For the tests (t-tracedat-par.c), tracedat-prefetch.c's workers pause
 * this many microseconds after claiming each chunk (0: not at all), so
 * that the reading thread finds its chunks still in their hands; it counts
 * the chunks it decompressed meanwhile in kmag__prefetch_test_helped.
 */
extern unsigned kmag__prefetch_test_pause_us;
extern unsigned long kmag__prefetch_test_helped;

/*
 * Reads every zstd chunk of the top instance's CPU data of compressed @td:
 * 0, or -EINVAL with @err naming the first chunk that does not decompress
 * (or whose header cannot be). libtracecmd crashes on such chunks: its
 * reader checks them first.
 */
int kmag__tracedat_check_chunks(struct tracedat *td, struct kmag_err *err);

/* pread() all of @len bytes at @off, or -EIO/-EINVAL with @err set naming @what. */
int kmag__tracedat_pread(struct tracedat *td, void *dst, size_t len, uint64_t off, const char *what,
			 struct kmag_err *err);

/* More CPUs than any trace.dat of a real machine names: larger counts are corrupt. */
#define TD_MAX_CPUS 8192

/* Section offsets named by v7 options, indexed by option id. */
struct td_v7_sections {
	uint64_t off[TD_OPT_MODULES_FILE + 1];
};

/*
 * Applies one option record (@id, @size bytes at @data) to @td; shared by the
 * v6 and v7 readers. v7 section-offset options are stored in @secs (NULL for
 * v6); *@has_clock_opt is set when a TRACECLOCK option is seen. Returns 0 or
 * -errno with @err set.
 */
int kmag__tracedat_option(struct tracedat *td, uint16_t id, const uint8_t *data, uint32_t size,
			  struct td_v7_sections *secs, bool *has_clock_opt, struct kmag_err *err);

/* "[local] global counter" -> "local" (malloc'd, caller frees), or NULL. */
char *kmag__tracedat_parse_clock(const char *text, size_t len);

/* Numbers in the file's byte order (util/endian.h). */
static inline uint16_t td_get16(const struct tracedat *td, const void *p)
{
	return kmag__get16(td->swap, p);
}

static inline uint32_t td_get32(const struct tracedat *td, const void *p)
{
	return kmag__get32(td->swap, p);
}

static inline uint64_t td_get64(const struct tracedat *td, const void *p)
{
	return kmag__get64(td->swap, p);
}

#endif /* KMAG_TRACEDAT_H */
