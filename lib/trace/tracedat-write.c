// SPDX-License-Identifier: MIT
/*
 * tracedat-write.c - write trace.dat v6 and v7 files (see tracedat-write.h
 * for why kmag has its own writer).
 *
 * Layout, as trace-cmd 3.1.6 writes it (trace-cmd.dat.v6(5), .v7(5)):
 *
 *   v6: magic "6\0" endian long_size page_size
 *       header_page/header_event, ftrace formats, event formats,
 *       kallsyms (u32 size), printk formats (u32 size), cmdlines (u64 size),
 *       u32 nr_cpus, "options  \0" {u16 id, u32 size, data}* u16 0,
 *       "flyrecord\0" nr_cpus x {u64 offset, u64 size}, u64 len "[clock]",
 *       page-aligned raw sub-buffers per CPU.
 *   v7: magic "7\0" endian long_size page_size "zstd\0" "<version>\0" u64 options offset,
 *       then sections {u16 id, u16 flags, u32 description, u64 size, body}:
 *       HEADER_INFO, FTRACE_EVENTS, EVENT_FORMATS, KALLSYMS, PRINTK, CMDLINES,
 *       OPTIONS (section pointers, CPUCOUNT, clock, uname, version, CPUSTATs),
 *       BUFFER (page-aligned per-CPU data, zstd in 10-page chunks),
 *       OPTIONS (the BUFFER option), STRINGS (section descriptions).
 *   Compressed metadata bodies are {u32 csize, u32 usize, zstd frame}.
 *
 * All integers are written in host byte order, which the header declares.
 */
#define PR_DOMAIN "tracedat"
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <zstd.h>

#include "internal.h"
#include "kmag/trace.h"
#include "tracedat-format.h"
#include "tracedat-write.h"

#define COPY_BUF_BYTES (1u << 20)	/* uncompressed copy unit */
#define PUNCH_EVERY (8ull << 20)	/* release copied source blocks this often */

struct tdw_opt {
	uint16_t id;
	uint32_t size;
	uint8_t *data;
};

/* A growable byte buffer for building section bodies. */
struct membuf {
	uint8_t *p;
	size_t len, cap;
	bool failed;
};

static void mb_put(struct membuf *b, const void *data, size_t n)
{
	if (b->failed)
		return;
	if (kmag__grow(&b->p, &b->cap, b->len + n, 1)) {
		b->failed = true;
		return;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

static void mb_u32(struct membuf *b, uint32_t v)
{
	mb_put(b, &v, 4);
}

static void mb_u64(struct membuf *b, uint64_t v)
{
	mb_put(b, &v, 8);
}

static void mb_str(struct membuf *b, const char *s)
{
	mb_put(b, s, strlen(s) + 1);
}

static int write_at(struct tdw *w, const void *data, size_t n, uint64_t off)
{
	const uint8_t *p = data;

	while (n) {
		ssize_t r = pwrite(w->fd, p, n, (off_t)off);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOSPC || errno == EDQUOT)
				return kmag_err_set(w->err, errno,
						    "disk full while writing the trace file (at %llu bytes)",
						    (unsigned long long)off);
			return kmag_err_set(w->err, errno, "cannot write the trace file: %s",
					    strerror(errno));
		}
		p += r;
		off += (uint64_t)r;
		n -= (size_t)r;
	}
	return 0;
}

/* Appends at the current position. */
static int put(struct tdw *w, const void *data, size_t n)
{
	int ret = write_at(w, data, n, w->pos);

	if (!ret)
		w->pos += n;
	return ret;
}

static int put_u16(struct tdw *w, uint16_t v)
{
	return put(w, &v, 2);
}

static int put_u32(struct tdw *w, uint32_t v)
{
	return put(w, &v, 4);
}

static int put_u64(struct tdw *w, uint64_t v)
{
	return put(w, &v, 8);
}

static int nomem(struct tdw *w)
{
	return kmag_err_set(w->err, ENOMEM, "out of memory writing the trace file");
}

/* Queues an option for the next OPTIONS block (v7) or the options list (v6). */
static int add_option(struct tdw *w, uint16_t id, const void *data, uint32_t size)
{
	struct tdw_opt *o;

	if (kmag__grow(&w->opts, &w->cap_opts, w->nr_opts + 1, sizeof(*w->opts)))
		return nomem(w);
	o = &w->opts[w->nr_opts];
	o->data = malloc(size ? size : 1);
	if (!o->data)
		return nomem(w);
	memcpy(o->data, data, size);
	o->id = id;
	o->size = size;
	w->nr_opts++;
	return 0;
}

static int add_string_option(struct tdw *w, uint16_t id, const char *s)
{
	return add_option(w, id, s, (uint32_t)strlen(s) + 1);
}

/* v7: a section description, as an offset into the STRINGS data. */
static int32_t add_string(struct tdw *w, const char *s)
{
	size_t n = strlen(s) + 1, at = w->strings_len;

	if (kmag__grow(&w->strings, &w->strings_cap, at + n, 1))
		return -1;
	memcpy(w->strings + at, s, n);
	w->strings_len += n;
	return (int32_t)at;
}

/*
 * v7: writes a section header with a size to be filled in by section_end().
 * With @pointer, an option naming the section's offset is queued (how the
 * metadata sections are found).
 */
static int section_begin(struct tdw *w, uint16_t id, const char *desc, bool compress,
			 bool pointer, uint64_t *hdr)
{
	int32_t sid = add_string(w, desc);
	uint64_t off = w->pos;
	int ret;

	if (sid < 0)
		return nomem(w);
	if (pointer && (ret = add_option(w, id, &off, 8)))
		return ret;
	*hdr = off;
	if ((ret = put_u16(w, id)) || (ret = put_u16(w, compress ? TD_SEC_FL_COMPRESS : 0)) ||
	    (ret = put_u32(w, (uint32_t)sid)) || (ret = put_u64(w, 0)))
		return ret;
	return 0;
}

static int section_end(struct tdw *w, uint64_t hdr)
{
	uint64_t size = w->pos - hdr - TD_SECTION_HEADER_SIZE;

	return write_at(w, &size, 8, hdr + 8);
}

static int compress_into(struct tdw *w, const void *src, size_t n, void **out, size_t *outlen)
{
	size_t bound = ZSTD_compressBound(n), got;
	void *dst = malloc(bound ? bound : 1);

	if (!dst)
		return nomem(w);
	got = ZSTD_compress2(w->zc, dst, bound, src, n);
	if (ZSTD_isError(got)) {
		free(dst);
		return kmag_err_set(w->err, EIO, "zstd compression failed: %s",
				    ZSTD_getErrorName(got));
	}
	*out = dst;
	*outlen = got;
	return 0;
}

/* Writes a section body: as is, or as one compressed block {csize, usize, data}. */
static int put_body(struct tdw *w, const struct membuf *b, bool compress)
{
	void *z = NULL;
	size_t zlen = 0;
	int ret;

	if (b->failed)
		return nomem(w);
	if (!compress)
		return put(w, b->p, b->len);
	if (b->len > UINT32_MAX)
		return kmag_err_set(w->err, EFBIG, "a metadata section exceeds 4 GiB");
	ret = compress_into(w, b->p, b->len, &z, &zlen);
	if (ret)
		return ret;
	ret = put_u32(w, (uint32_t)zlen);
	if (!ret)
		ret = put_u32(w, (uint32_t)b->len);
	if (!ret)
		ret = put(w, z, zlen);
	free(z);
	return ret;
}

/* One metadata part: a v7 section, or a plain run of bytes in v6. */
static int put_part(struct tdw *w, uint16_t id, const char *desc, struct membuf *b)
{
	uint64_t hdr;
	int ret;

	if (w->version < 7) {
		ret = put_body(w, b, false);
	} else {
		ret = section_begin(w, id, desc, w->compress, true, &hdr);
		if (!ret)
			ret = put_body(w, b, w->compress);
		if (!ret)
			ret = section_end(w, hdr);
	}
	free(b->p);
	memset(b, 0, sizeof(*b));
	return ret;
}

int kmag__tdw_begin(struct tdw *w, int fd, int version, bool compress, uint32_t page_size,
		    struct kmag_err *err)
{
	char v[4];
	uint8_t b[2];
	int ret;

	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->err = err;
	w->version = version;
	w->compress = version >= 7 && compress;
	w->page_size = page_size;
	if (version != 6 && version != 7)
		return kmag_err_set(err, EINVAL, "trace.dat version %d cannot be written (6 or 7)",
				    version);
	if (page_size < 64 || (page_size & (page_size - 1)))
		return kmag_err_set(err, EINVAL, "invalid ring-buffer page size %u", page_size);
	if (w->compress) {
		w->zc = ZSTD_createCCtx();
		if (!w->zc)
			return nomem(w);
		/* as trace-cmd: no content size in frames, the block header has it */
		ZSTD_CCtx_setParameter(w->zc, ZSTD_c_contentSizeFlag, 0);
	}
	snprintf(v, sizeof(v), "%d", version);
	b[0] = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	b[1] = sizeof(long);
	if ((ret = put(w, TRACEDAT_MAGIC, TRACEDAT_MAGIC_LEN)) || (ret = put(w, v, strlen(v) + 1)) ||
	    (ret = put(w, b, 2)) || (ret = put_u32(w, page_size)))
		return ret;
	if (version < 7)
		return 0;
	if (w->compress) {
		const char *zv = ZSTD_versionString();

		if ((ret = put(w, "zstd", 5)) || (ret = put(w, zv, strlen(zv) + 1)))
			return ret;
	} else if ((ret = put(w, "none", 5)) || (ret = put(w, "", 1))) {
		return ret;
	}
	w->options_link = w->pos;
	return put_u64(w, 0);
}

int kmag__tdw_metadata(struct tdw *w, const struct tdw_meta *m)
{
	struct membuf b = { 0 };
	size_t i, j;
	int ret;

	mb_str(&b, TRACEDAT_HEAD_PAGE);
	mb_u64(&b, m->header_page.size);
	mb_put(&b, m->header_page.data, m->header_page.size);
	mb_str(&b, TRACEDAT_HEAD_EVENT);
	mb_u64(&b, m->header_event.size);
	mb_put(&b, m->header_event.data, m->header_event.size);
	if ((ret = put_part(w, TD_OPT_HEADER_INFO, "headers", &b)))
		return ret;

	mb_u32(&b, (uint32_t)m->nr_ftrace_formats);
	for (i = 0; i < m->nr_ftrace_formats; i++) {
		mb_u64(&b, m->ftrace_formats[i].size);
		mb_put(&b, m->ftrace_formats[i].data, m->ftrace_formats[i].size);
	}
	if ((ret = put_part(w, TD_OPT_FTRACE_EVENTS, "ftrace events", &b)))
		return ret;

	mb_u32(&b, (uint32_t)m->nr_systems);
	for (i = 0; i < m->nr_systems; i++) {
		const struct tdw_system *s = &m->systems[i];

		mb_str(&b, s->name);
		mb_u32(&b, (uint32_t)s->nr_formats);
		for (j = 0; j < s->nr_formats; j++) {
			mb_u64(&b, s->formats[j].size);
			mb_put(&b, s->formats[j].data, s->formats[j].size);
		}
	}
	if ((ret = put_part(w, TD_OPT_EVENT_FORMATS, "events format", &b)))
		return ret;

	if (m->kallsyms.size > UINT32_MAX || m->printk.size > UINT32_MAX)
		return kmag_err_set(w->err, EFBIG, "kallsyms or printk formats exceed 4 GiB");
	mb_u32(&b, (uint32_t)m->kallsyms.size);
	mb_put(&b, m->kallsyms.data, m->kallsyms.size);
	if ((ret = put_part(w, TD_OPT_KALLSYMS, "kallsyms", &b)))
		return ret;

	mb_u32(&b, (uint32_t)m->printk.size);
	mb_put(&b, m->printk.data, m->printk.size);
	return put_part(w, TD_OPT_PRINTK, "printk", &b);
}

/* Reads exactly @n bytes at @off of @fd. */
static int read_src(struct tdw *w, int fd, void *dst, size_t n, uint64_t off, int cpu)
{
	uint8_t *p = dst;

	while (n) {
		ssize_t r = pread(fd, p, n, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return kmag_err_set(w->err, r < 0 ? errno : EIO,
					    "cannot read the captured data of CPU %d: %s", cpu,
					    r < 0 ? strerror(errno) : "file is shorter than recorded");
		p += r;
		off += (uint64_t)r;
		n -= (size_t)r;
	}
	return 0;
}

/* Frees the blocks of [0, @upto) of a captured-data file once it is copied. */
static void punch(int fd, uint64_t upto)
{
	if (upto && fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, (off_t)upto))
		pr_debug("cannot release copied blocks: %s", strerror(errno));
}

/* Copies the CPU's chunks compressed already, as they are (u32 count, {csize, usize, data}*). */
static int copy_chunks(struct tdw *w, const struct tdw_cpu *c, int cpu, uint64_t *stored)
{
	uint8_t *buf = NULL;
	size_t cap = 0, i;
	int ret;

	*stored = 0;
	if (c->nr_chunks > UINT32_MAX)
		return kmag_err_set(w->err, EFBIG, "CPU %d data has too many chunks", cpu);
	ret = put_u32(w, (uint32_t)c->nr_chunks);
	for (i = 0; !ret && i < c->nr_chunks; i++) {
		const struct tdw_chunk *k = &c->chunks[i];

		if (kmag__grow(&buf, &cap, k->csize ? k->csize : 1, 1)) {
			ret = nomem(w);
			break;
		}
		if ((ret = read_src(w, c->fd, buf, k->csize, k->off, cpu)) ||
		    (ret = put_u32(w, k->csize)) || (ret = put_u32(w, k->usize)) ||
		    (ret = put(w, buf, k->csize)))
			break;
		*stored += 8 + k->csize;
	}
	free(buf);
	return ret;
}

/*
 * Copies one CPU's data to the current (page-aligned) position; compressed
 * data becomes u32 chunk count + chunks of TD_PAGES_IN_CHUNK pages.
 * *@stored gets the bytes written (for chunks: without the 4-byte count, as
 * trace-cmd records it).
 */
static int copy_cpu(struct tdw *w, const struct tdw_tail *t, int cpu, uint64_t *stored)
{
	const struct tdw_cpu *c = &t->cpus[cpu];
	size_t unit = w->compress ? (size_t)w->page_size * TD_PAGES_IN_CHUNK : COPY_BUF_BYTES;
	uint64_t done = 0, punched = 0, count_at = w->pos, chunks = 0;
	size_t zcap = ZSTD_compressBound(unit);
	uint8_t *buf = malloc(unit), *z = NULL;
	int ret = 0;

	*stored = 0;
	if (c->chunks) {
		free(buf);
		return copy_chunks(w, c, cpu, stored);
	}
	if (!buf)
		return nomem(w);
	if (w->compress) {
		z = malloc(zcap);
		if (!z) {
			free(buf);
			return nomem(w);
		}
		ret = put_u32(w, 0);
	}
	while (!ret && done < c->size) {
		size_t n = c->size - done < unit ? (size_t)(c->size - done) : unit;

		ret = read_src(w, c->fd, buf, n, done, cpu);
		if (ret)
			break;
		if (t->on_pages)
			t->on_pages(t->on_pages_ctx, cpu, buf, n);
		if (w->compress) {
			size_t zl = ZSTD_compress2(w->zc, z, zcap, buf, n);

			if (ZSTD_isError(zl)) {
				ret = kmag_err_set(w->err, EIO, "zstd compression failed: %s",
						   ZSTD_getErrorName(zl));
				break;
			}
			ret = put_u32(w, (uint32_t)zl);
			if (!ret)
				ret = put_u32(w, (uint32_t)n);
			if (!ret)
				ret = put(w, z, zl);
			*stored += 8 + zl;
			chunks++;
		} else {
			ret = put(w, buf, n);
			*stored += n;
		}
		done += n;
		if (t->punch_holes && done - punched >= PUNCH_EVERY) {
			punch(c->fd, done);
			punched = done;
		}
	}
	if (!ret && w->compress) {
		uint32_t n32 = (uint32_t)chunks;

		if (chunks > UINT32_MAX)
			ret = kmag_err_set(w->err, EFBIG, "CPU %d data has too many chunks", cpu);
		else
			ret = write_at(w, &n32, 4, count_at);
	}
	if (!ret && t->punch_holes)
		punch(c->fd, done);
	free(buf);
	free(z);
	return ret;
}

static uint64_t align_up(uint64_t v, uint32_t a)
{
	return (v + a - 1) & ~(uint64_t)(a - 1);
}

static int check_cpus(struct tdw *w, const struct tdw_tail *t)
{
	int i;

	if (t->nr_cpus <= 0)
		return kmag_err_set(w->err, EINVAL, "no CPUs to write");
	for (i = 0; i < t->nr_cpus; i++) {
		if (t->cpus[i].size % w->page_size)
			return kmag_err_set(w->err, EINVAL,
					    "CPU %d data (%llu bytes) is not made of whole %u-byte pages",
					    i, (unsigned long long)t->cpus[i].size, w->page_size);
		if (t->cpus[i].chunks && !w->compress)
			return kmag_err_set(w->err, EINVAL,
					    "CPU %d data is zstd chunks: they go into a zstd trace.dat v7 only",
					    i);
	}
	return 0;
}

static int add_common_options(struct tdw *w, const struct tdw_tail *t)
{
	size_t i;
	int ret = 0;

	if (t->clock_file)
		ret = add_string_option(w, TD_OPT_TRACECLOCK, t->clock_file);
	if (!ret && t->uname)
		ret = add_string_option(w, TD_OPT_UNAME, t->uname);
	if (!ret && t->version)
		ret = add_string_option(w, TD_OPT_VERSION, t->version);
	for (i = 0; !ret && i < t->nr_cpustats; i++)
		ret = add_string_option(w, TD_OPT_CPUSTAT, t->cpustats[i]);
	if (!ret && t->last_boot_info)
		ret = add_string_option(w, TD_OPT_LAST_BOOT_INFO, t->last_boot_info);
	if (!ret && t->tracer_cost)
		ret = add_string_option(w, KMAG_TRACEDAT_OPT_TRACER_COST, t->tracer_cost);
	return ret;
}

static void drop_options(struct tdw *w)
{
	size_t i;

	for (i = 0; i < w->nr_opts; i++)
		free(w->opts[i].data);
	w->nr_opts = 0;
}

static int put_options_list(struct tdw *w)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < w->nr_opts; i++) {
		ret = put_u16(w, w->opts[i].id);
		if (!ret)
			ret = put_u32(w, w->opts[i].size);
		if (!ret)
			ret = put(w, w->opts[i].data, w->opts[i].size);
	}
	drop_options(w);
	return ret;
}

/* v7: an OPTIONS section with the queued options, chained from the previous one. */
static int put_options_section(struct tdw *w)
{
	uint64_t hdr, here = w->pos, zero = 0;
	int ret;

	ret = write_at(w, &here, 8, w->options_link);
	if (!ret)
		ret = section_begin(w, TD_OPT_DONE, "options", false, false, &hdr);
	if (!ret)
		ret = put_options_list(w);
	if (ret || (ret = put_u16(w, TD_OPT_DONE)) || (ret = put_u32(w, 8)))
		return ret;
	w->options_link = w->pos;
	if ((ret = put_u64(w, zero)))
		return ret;
	return section_end(w, hdr);
}

static int finish_v6(struct tdw *w, const struct tdw_tail *t)
{
	uint64_t off, clock_len;
	char *clock = NULL;
	int i, ret;

	if ((ret = put_u64(w, t->cmdlines.size)) || (ret = put(w, t->cmdlines.data, t->cmdlines.size)) ||
	    (ret = put_u32(w, (uint32_t)t->nr_cpus)) || (ret = put(w, TRACEDAT_V6_OPTIONS, 10)) ||
	    (ret = add_common_options(w, t)) || (ret = put_options_list(w)) ||
	    (ret = put_u16(w, TD_OPT_DONE)) || (ret = put(w, TRACEDAT_V6_FLYRECORD, 10)))
		return ret;
	if (asprintf(&clock, "[%s]", t->clock ? t->clock : "local") < 0)
		return nomem(w);
	clock_len = strlen(clock);
	/* the CPU table can be written up front: uncompressed sizes are known */
	off = w->pos + (uint64_t)t->nr_cpus * 16 + 8 + clock_len;
	for (i = 0; i < t->nr_cpus && !ret; i++) {
		off = align_up(off, w->page_size);
		if (!(ret = put_u64(w, off)))
			ret = put_u64(w, t->cpus[i].size);
		off += t->cpus[i].size;
	}
	if (!ret && !(ret = put_u64(w, clock_len)))
		ret = put(w, clock, clock_len);
	free(clock);
	for (i = 0; i < t->nr_cpus && !ret; i++) {
		uint64_t stored;

		w->pos = align_up(w->pos, w->page_size);
		if (!t->cpus[i].size)
			continue;
		ret = copy_cpu(w, t, i, &stored);
		w->data_bytes += stored;
	}
	/* a trailing empty CPU leaves pos past the end: make the file that long */
	if (!ret && ftruncate(w->fd, (off_t)w->pos))
		ret = kmag_err_set(w->err, errno, "cannot size the trace file: %s", strerror(errno));
	return ret;
}

/* v7: the BTF section, its body the BTF file as is (trace-cmd 3.4's tracecmd_append_btf_file()). */
static int put_btf(struct tdw *w, const struct tdw_blob *btf)
{
	/* borrowed, not copied: put_body() only reads it */
	struct membuf b = { .p = (uint8_t *)(uintptr_t)btf->data, .len = btf->size };
	uint64_t hdr;
	int ret = section_begin(w, TD_OPT_BTF_FILE, "BTF", w->compress, true, &hdr);

	if (!ret)
		ret = put_body(w, &b, w->compress);
	if (!ret)
		ret = section_end(w, hdr);
	return ret;
}

static int finish_v7(struct tdw *w, const struct tdw_tail *t)
{
	struct membuf b = { 0 };
	uint64_t sec, *stored = NULL;
	uint32_t ncpus = (uint32_t)t->nr_cpus, with_data = 0;
	const char *clock = t->clock ? t->clock : "local";
	int i, ret;

	mb_u64(&b, t->cmdlines.size);
	mb_put(&b, t->cmdlines.data, t->cmdlines.size);
	if ((ret = put_part(w, TD_OPT_CMDLINES, "command lines", &b)) ||
	    (t->btf.size && (ret = put_btf(w, &t->btf))) ||
	    (ret = add_option(w, TD_OPT_CPUCOUNT, &ncpus, 4)) || (ret = add_common_options(w, t)) ||
	    (ret = put_options_section(w)))
		return ret;

	stored = calloc((size_t)t->nr_cpus, sizeof(*stored));
	if (!stored)
		return nomem(w);
	ret = section_begin(w, TD_OPT_BUFFER, "buffer flyrecord ", w->compress, false, &sec);
	/* option: section offset, name, clock, page size, CPU count, {cpu, offset, size}* */
	mb_u64(&b, sec);
	mb_str(&b, "");
	mb_str(&b, clock);
	mb_u32(&b, w->page_size);
	mb_u32(&b, 0);	/* patched below */
	for (i = 0; i < t->nr_cpus && !ret; i++) {
		w->pos = align_up(w->pos, w->page_size);
		if (!t->cpus[i].size)
			continue;
		mb_u32(&b, (uint32_t)i);
		mb_u64(&b, w->pos);
		ret = copy_cpu(w, t, i, &stored[i]);
		mb_u64(&b, stored[i]);
		w->data_bytes += stored[i];
		with_data++;
	}
	free(stored);
	if (!ret && b.failed)
		ret = nomem(w);
	if (ret) {
		free(b.p);
		return ret;
	}
	/* the last CPUs may have been empty: the section ends at the last data */
	{
		off_t end = lseek(w->fd, 0, SEEK_END);

		if (end < 0) {
			free(b.p);
			return kmag_err_set(w->err, errno, "cannot seek the trace file: %s",
					    strerror(errno));
		}
		w->pos = (uint64_t)end;
	}
	memcpy(b.p + 8 + 1 + strlen(clock) + 1 + 4, &with_data, 4);
	ret = section_end(w, sec);
	if (!ret)
		ret = add_option(w, TD_OPT_BUFFER, b.p, (uint32_t)b.len);
	free(b.p);
	memset(&b, 0, sizeof(b));
	if (!ret)
		ret = put_options_section(w);
	if (ret)
		return ret;

	/* the STRINGS section names itself too, as trace-cmd's does */
	if (add_string(w, "strings") < 0)
		return nomem(w);
	{
		int32_t sid = (int32_t)(w->strings_len - sizeof("strings"));
		uint64_t hdr = w->pos;

		mb_put(&b, w->strings, w->strings_len);
		if (!(ret = put_u16(w, TD_OPT_STRINGS)) &&
		    !(ret = put_u16(w, w->compress ? TD_SEC_FL_COMPRESS : 0)) &&
		    !(ret = put_u32(w, (uint32_t)sid)) && !(ret = put_u64(w, 0)))
			ret = put_body(w, &b, w->compress);
		if (!ret)
			ret = section_end(w, hdr);
		free(b.p);
	}
	return ret;
}

int kmag__tdw_finish(struct tdw *w, const struct tdw_tail *t)
{
	int ret = check_cpus(w, t);

	if (ret)
		return ret;
	return w->version < 7 ? finish_v6(w, t) : finish_v7(w, t);
}

void kmag__tdw_release(struct tdw *w)
{
	drop_options(w);
	free(w->opts);
	free(w->strings);
	if (w->zc)
		ZSTD_freeCCtx(w->zc);
	memset(w, 0, sizeof(*w));
	w->fd = -1;
}
