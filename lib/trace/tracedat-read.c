// SPDX-License-Identifier: MIT
/*
 * tracedat-read.c - parse and validate the trace.dat container (v6 and v7).
 *
 * Every length read from the file is checked against what the file (or the
 * decompressed section) still holds before memory is allocated for it, so
 * truncated or corrupt files fail with a message naming the broken part.
 */
#define PR_DOMAIN "tracedat"
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "internal.h"
#include "tracedat.h"
#include "tracedat-format.h"

/* Upper bounds that no real trace comes near; they stop absurd headers early. */
#define MAX_FORMATS 100000
#define MAX_OPTIONS_SECTIONS 4096
#define MAX_DECOMPRESSED (1u << 30)

/*
 * A bounded read cursor over either a byte range of the file (read with
 * pread) or a decompressed section held in memory.
 */
struct cur {
	struct tracedat *td;
	const uint8_t *mem;	/* NULL: read from td->fd */
	uint64_t pos, end;	/* file offsets, or offsets into mem */
	const char *what;	/* the part being parsed, for messages */
	struct kmag_err *err;
};

static int cur_short(struct cur *c, uint64_t want)
{
	if (c->mem)
		return kmag_err_set(c->err, EINVAL,
				    "corrupt trace.dat: %s needs %llu more bytes but its section holds %llu",
				    c->what, (unsigned long long)want,
				    (unsigned long long)(c->end - c->pos));
	return kmag_err_set(c->err, EINVAL,
			    "truncated trace.dat: %s needs %llu bytes at offset %llu but the file ends at %llu",
			    c->what, (unsigned long long)want, (unsigned long long)c->pos,
			    (unsigned long long)c->end);
}

static int cur_read(struct cur *c, void *dst, uint64_t n)
{
	if (n > c->end - c->pos)
		return cur_short(c, n);
	if (c->mem) {
		memcpy(dst, c->mem + c->pos, n);
	} else {
		int ret = kmag__tracedat_pread(c->td, dst, n, c->pos, c->what, c->err);

		if (ret)
			return ret;
	}
	c->pos += n;
	return 0;
}

static int cur_u16(struct cur *c, uint16_t *v)
{
	uint8_t b[2];
	int ret = cur_read(c, b, 2);

	if (!ret)
		*v = td_get16(c->td, b);
	return ret;
}

static int cur_u32(struct cur *c, uint32_t *v)
{
	uint8_t b[4];
	int ret = cur_read(c, b, 4);

	if (!ret)
		*v = td_get32(c->td, b);
	return ret;
}

static int cur_u64(struct cur *c, uint64_t *v)
{
	uint8_t b[8];
	int ret = cur_read(c, b, 8);

	if (!ret)
		*v = td_get64(c->td, b);
	return ret;
}

/* Reads a blob of @n bytes into a new NUL-terminated buffer. */
static int cur_blob(struct cur *c, uint64_t n, struct td_blob *b)
{
	int ret;

	if (n > c->end - c->pos)
		return cur_short(c, n);
	b->data = malloc(n + 1);
	if (!b->data)
		return kmag_err_set(c->err, ENOMEM, "out of memory reading %s (%llu bytes)",
				    c->what, (unsigned long long)n);
	ret = cur_read(c, b->data, n);
	if (ret) {
		free(b->data);
		b->data = NULL;
		return ret;
	}
	b->data[n] = '\0';
	b->size = n;
	return 0;
}

/* Reads a NUL-terminated string of at most @max bytes into a new buffer. */
static int cur_string(struct cur *c, size_t max, char **out)
{
	char buf[4096];
	size_t len = 0;

	if (max > sizeof(buf))
		max = sizeof(buf);
	for (;;) {
		if (len == max)
			return kmag_err_set(c->err, EINVAL,
					    "corrupt trace.dat: unterminated string in %s at offset %llu",
					    c->what, (unsigned long long)c->pos);
		if (cur_read(c, &buf[len], 1))
			return -EINVAL;
		if (!buf[len])
			break;
		len++;
	}
	*out = strdup(buf);
	if (!*out)
		return kmag_err_set(c->err, ENOMEM, "out of memory");
	return 0;
}

static int cur_expect(struct cur *c, const char *tag, size_t n)
{
	char buf[16];
	int ret = cur_read(c, buf, n);

	if (ret)
		return ret;
	if (memcmp(buf, tag, n))
		return kmag_err_set(c->err, EINVAL,
				    "corrupt trace.dat: expected \"%s\" at offset %llu (%s)", tag,
				    (unsigned long long)(c->pos - n), c->what);
	return 0;
}

bool kmag__tracedat_magic(const void *buf, size_t len)
{
	return len >= 3 && !memcmp(buf, TRACEDAT_MAGIC, 3);
}

/*
 * Kernel format texts are plain ASCII. libtraceevent 1.7's tokenizer
 * dereferences NULL on other bytes (a byte >= 0x80 in a field declaration
 * crashes tep_parse_event()), so text that is not ASCII is refused here,
 * before any of it reaches the library. A trailing NUL is allowed.
 */
static int check_format_text(const struct td_blob *b, const char *what, struct kmag_err *err)
{
	const unsigned char *p = (const unsigned char *)b->data;
	size_t i, n = b->size;

	while (n && !p[n - 1])
		n--;
	for (i = 0; i < n; i++)
		if ((p[i] < 0x20 && p[i] != '\n' && p[i] != '\t' && p[i] != '\r') || p[i] > 0x7e)
			return kmag_err_set(err, EINVAL,
					    "corrupt trace.dat: %s holds a non-text byte 0x%02x at offset %zu",
					    what, p[i], i);
	return 0;
}

static int add_format(struct tracedat *td, const char *system, struct td_blob *text,
		      struct kmag_err *err)
{
	struct td_format *f;
	char what[96];
	int ret;

	snprintf(what, sizeof(what), "a format of the %.40s events", system);
	if ((ret = check_format_text(text, what, err)))
		return ret;

	if (kmag__grow(&td->formats, &td->cap_formats, td->nr_formats + 1, sizeof(*td->formats)))
		return kmag_err_set(err, ENOMEM, "out of memory");
	f = &td->formats[td->nr_formats];
	f->system = strdup(system);
	if (!f->system)
		return kmag_err_set(err, ENOMEM, "out of memory");
	f->text = *text;
	td->nr_formats++;
	return 0;
}

static int read_header_info(struct cur *c)
{
	struct tracedat *td = c->td;
	uint64_t size;
	int ret;

	c->what = "header_page";
	if ((ret = cur_expect(c, TRACEDAT_HEAD_PAGE, sizeof(TRACEDAT_HEAD_PAGE))) ||
	    (ret = cur_u64(c, &size)) || (ret = cur_blob(c, size, &td->header_page)) ||
	    (ret = check_format_text(&td->header_page, "the header_page format", c->err)))
		return ret;
	c->what = "header_event";
	if ((ret = cur_expect(c, TRACEDAT_HEAD_EVENT, sizeof(TRACEDAT_HEAD_EVENT))) ||
	    (ret = cur_u64(c, &size)) || (ret = cur_blob(c, size, &td->header_event)) ||
	    (ret = check_format_text(&td->header_event, "the header_event format", c->err)))
		return ret;
	return 0;
}

/* u32 count, then count x { u64 size, format text }, all of one @system. */
static int read_format_list(struct cur *c, const char *system)
{
	uint32_t n, i;
	int ret;

	if ((ret = cur_u32(c, &n)))
		return ret;
	if (n > MAX_FORMATS)
		return kmag_err_set(c->err, EINVAL, "corrupt trace.dat: %u %s formats claimed", n,
				    system);
	for (i = 0; i < n; i++) {
		struct td_blob b;
		uint64_t size;

		if ((ret = cur_u64(c, &size)) || (ret = cur_blob(c, size, &b)))
			return ret;
		if ((ret = add_format(c->td, system, &b, c->err))) {
			free(b.data);
			return ret;
		}
	}
	return 0;
}

static int read_ftrace_formats(struct cur *c)
{
	c->what = "ftrace event formats";
	return read_format_list(c, "ftrace");
}

static int read_event_formats(struct cur *c)
{
	uint32_t nsys, s;
	int ret;

	c->what = "event formats";
	if ((ret = cur_u32(c, &nsys)))
		return ret;
	if (nsys > MAX_FORMATS)
		return kmag_err_set(c->err, EINVAL, "corrupt trace.dat: %u event systems claimed",
				    nsys);
	for (s = 0; s < nsys; s++) {
		char *system = NULL;

		if ((ret = cur_string(c, 4096, &system)))
			return ret;
		ret = read_format_list(c, system);
		free(system);
		if (ret)
			return ret;
	}
	return 0;
}

/* An option's body of @size bytes into *@buf (replacing what it held). 0 or -errno. */
static int read_option_body(struct cur *c, uint32_t size, uint8_t **buf, struct kmag_err *err)
{
	if (size > c->end - c->pos)
		return cur_short(c, size);
	free(*buf);
	*buf = malloc(size ? size : 1);
	if (!*buf)
		return kmag_err_set(err, ENOMEM, "out of memory");
	return cur_read(c, *buf, size);
}

/* A blob after its size, a 32- or 64-bit number (@wide) as the section writes it. */
static int read_sized(struct cur *c, const char *what, bool wide, struct td_blob *b)
{
	uint32_t size32 = 0;
	uint64_t size = 0;
	int ret;

	c->what = what;
	if ((ret = wide ? cur_u64(c, &size) : cur_u32(c, &size32)))
		return ret;
	return cur_blob(c, wide ? size : size32, b);
}

/* v7 sections: reads the header at @off and sets up a cursor over the body. */
static int open_section(struct tracedat *td, uint64_t off, uint16_t want_id, const char *what,
			struct cur *c, uint8_t **owned, struct kmag_err *err)
{
	uint8_t hdr[TD_SECTION_HEADER_SIZE];
	uint16_t id, flags;
	uint64_t size;
	int ret;

	*owned = NULL;
	ret = kmag__tracedat_pread(td, hdr, sizeof(hdr), off, what, err);
	if (ret)
		return ret;
	id = td_get16(td, hdr);
	flags = td_get16(td, hdr + 2);
	size = td_get64(td, hdr + 8);
	if (id != want_id)
		return kmag_err_set(err, EINVAL,
				    "corrupt trace.dat: %s at offset %llu has section id %u, expected %u",
				    what, (unsigned long long)off, id, want_id);
	off += sizeof(hdr);
	if (size > td->file_size - off)
		return kmag_err_set(err, EINVAL,
				    "truncated trace.dat: %s claims %llu bytes at offset %llu but the file has %llu",
				    what, (unsigned long long)size, (unsigned long long)off,
				    (unsigned long long)td->file_size);
	*c = (struct cur){ .td = td, .pos = off, .end = off + size, .what = what, .err = err };
	if (flags & TD_SEC_FL_COMPRESS) {
		uint32_t csize, usize;
		uint8_t *src, *dst;

		if ((ret = cur_u32(c, &csize)) || (ret = cur_u32(c, &usize)))
			return ret;
		if (csize > c->end - c->pos)
			return cur_short(c, csize);
		if (usize > MAX_DECOMPRESSED)
			return kmag_err_set(err, EINVAL, "corrupt trace.dat: %s claims %u bytes",
					    what, usize);
		src = malloc(csize ? csize : 1);
		dst = malloc(usize ? usize : 1);
		if (!src || !dst) {
			free(src);
			free(dst);
			return kmag_err_set(err, ENOMEM, "out of memory reading %s", what);
		}
		ret = cur_read(c, src, csize);
		if (!ret)
			ret = kmag__tracedat_decompress(td, src, csize, dst, usize, what, err);
		free(src);
		if (ret) {
			free(dst);
			return ret;
		}
		*owned = dst;
		*c = (struct cur){ .td = td, .mem = dst, .pos = 0, .end = usize, .what = what,
				   .err = err };
	}
	return 0;
}

static int read_v7_options(struct tracedat *td, uint64_t off, struct td_v7_sections *secs,
			   struct kmag_err *err)
{
	bool has_clock = false;
	unsigned chain = 0;
	uint8_t *buf = NULL;
	int ret = 0;

	while (off) {
		struct cur c;
		uint8_t *owned;

		if (++chain > MAX_OPTIONS_SECTIONS) {
			ret = kmag_err_set(err, EINVAL,
					   "corrupt trace.dat: options sections form a loop");
			break;
		}
		ret = open_section(td, off, TD_OPT_DONE, "options section", &c, &owned, err);
		if (ret)
			break;
		off = 0;
		for (;;) {
			uint16_t id;
			uint32_t size;

			if ((ret = cur_u16(&c, &id)) || (ret = cur_u32(&c, &size)))
				break;
			if ((ret = read_option_body(&c, size, &buf, err)))
				break;
			if (id == TD_OPT_DONE) {
				if (size < 8) {
					ret = kmag_err_set(err, EINVAL,
							   "corrupt trace.dat: short DONE option");
					break;
				}
				off = td_get64(td, buf);
				break;
			}
			ret = kmag__tracedat_option(td, id, buf, size, secs, &has_clock, err);
			if (ret)
				break;
		}
		free(owned);
		if (ret)
			break;
	}
	free(buf);
	return ret;
}

static const char *section_name(uint16_t id)
{
	switch (id) {
	case TD_OPT_DONE:
		return "options";
	case TD_OPT_BUFFER:
		return "flyrecord data";
	case TD_OPT_STRINGS:
		return "strings";
	case TD_OPT_HEADER_INFO:
		return "header info";
	case TD_OPT_FTRACE_EVENTS:
		return "ftrace events";
	case TD_OPT_EVENT_FORMATS:
		return "event formats";
	case TD_OPT_KALLSYMS:
		return "kallsyms";
	case TD_OPT_PRINTK:
		return "printk formats";
	case TD_OPT_CMDLINES:
		return "saved cmdlines";
	case TD_OPT_BTF_FILE:
		return "BTF";
	default:
		return "unknown";
	}
}

/*
 * v7 sections are laid end to end from the file header to the end of the
 * file (trace-cmd's reader walks them the same way to collect strings), so
 * walking the chain finds a file cut short even inside a section kmag has no
 * other use for.
 */
static int walk_v7_sections(struct tracedat *td, uint64_t off, struct kmag_err *err)
{
	uint64_t strings = 0, max_string_id = 0;
	unsigned n = 0;

	while (off < td->file_size) {
		uint8_t hdr[TD_SECTION_HEADER_SIZE];
		uint64_t size;
		uint16_t id;
		int ret;

		if (td->file_size - off < sizeof(hdr))
			return kmag_err_set(err, EINVAL,
					    "truncated trace.dat: %llu stray bytes at offset %llu, too few for a section header (file cut short?)",
					    (unsigned long long)(td->file_size - off),
					    (unsigned long long)off);
		ret = kmag__tracedat_pread(td, hdr, sizeof(hdr), off, "section header", err);
		if (ret)
			return ret;
		id = td_get16(td, hdr);
		size = td_get64(td, hdr + 8);
		if (td_get32(td, hdr + 4) > max_string_id)
			max_string_id = td_get32(td, hdr + 4);
		off += sizeof(hdr);
		if (size > td->file_size - off)
			return kmag_err_set(err, EINVAL,
					    "truncated trace.dat: the %s section at offset %llu claims %llu bytes but the file ends %llu bytes later (file cut short?)",
					    section_name(id), (unsigned long long)(off - sizeof(hdr)),
					    (unsigned long long)size,
					    (unsigned long long)(td->file_size - off));
		if (id == TD_OPT_STRINGS) {
			uint8_t usize[4];

			/* a compressed body starts with u32 csize, u32 usize */
			if ((td_get16(td, hdr + 2) & TD_SEC_FL_COMPRESS) && size >= 8) {
				ret = kmag__tracedat_pread(td, usize, 4, off + 4, "strings size", err);
				if (ret)
					return ret;
				strings += td_get32(td, usize);
			} else {
				strings += size;
			}
		}
		off += size;
		if (++n > 1000000)
			return kmag_err_set(err, EINVAL, "corrupt trace.dat: endless section chain");
	}
	/*
	 * Every section names itself by an offset into the strings sections,
	 * which trace-cmd writes last: a file cut just before them is short.
	 */
	if (n && (!strings || max_string_id >= strings))
		return kmag_err_set(err, EINVAL,
				    "truncated trace.dat: the section names (strings section) are missing at the end of the file (file cut short?)");
	return 0;
}

static int read_v7(struct tracedat *td, struct cur *c, struct kmag_err *err)
{
	struct td_v7_sections secs = { 0 };
	uint64_t opt_off;
	struct cur s;
	uint8_t *owned;
	int ret;

	c->what = "compression header";
	if ((ret = cur_string(c, 64, &td->comp_name)) || (ret = cur_string(c, 64, &td->comp_version)))
		return ret;
	if (strcmp(td->comp_name, "none") && strcmp(td->comp_name, "zstd"))
		return kmag_err_set(err, ENOTSUP,
				    "trace.dat is compressed with \"%s\"; kmag reads zstd and uncompressed files (re-record with --compression zstd)",
				    td->comp_name);
	c->what = "options offset";
	if ((ret = cur_u64(c, &opt_off)))
		return ret;
	if ((ret = walk_v7_sections(td, c->pos, err)) ||
	    (ret = read_v7_options(td, opt_off, &secs, err)))
		return ret;

#define SECTION(id, name, body)                                                           \
	do {                                                                              \
		if (!secs.off[id])                                                        \
			return kmag_err_set(err, EINVAL,                                  \
					    "corrupt trace.dat: no " name " section");       \
		ret = open_section(td, secs.off[id], id, name, &s, &owned, err);          \
		if (!ret)                                                                 \
			ret = (body);                                                     \
		free(owned);                                                              \
		if (ret)                                                                  \
			return ret;                                                       \
	} while (0)

	SECTION(TD_OPT_HEADER_INFO, "header info", read_header_info(&s));
	SECTION(TD_OPT_FTRACE_EVENTS, "ftrace events", read_ftrace_formats(&s));
	if (secs.off[TD_OPT_EVENT_FORMATS])
		SECTION(TD_OPT_EVENT_FORMATS, "event formats", read_event_formats(&s));
	if (secs.off[TD_OPT_KALLSYMS])
		SECTION(TD_OPT_KALLSYMS, "kallsyms", read_sized(&s, "kallsyms", false, &td->kallsyms));
	if (secs.off[TD_OPT_PRINTK])
		SECTION(TD_OPT_PRINTK, "printk formats",
			read_sized(&s, "printk formats", false, &td->printk));
	if (secs.off[TD_OPT_CMDLINES])
		SECTION(TD_OPT_CMDLINES, "saved cmdlines",
			read_sized(&s, "saved cmdlines", true, &td->cmdlines));
	if (secs.off[TD_OPT_BTF_FILE])
		SECTION(TD_OPT_BTF_FILE, "BTF", cur_blob(&s, s.end - s.pos, &td->btf));
#undef SECTION
	if (!td->top.name && !td->top.latency)
		return kmag_err_set(err, EINVAL,
				    "corrupt trace.dat: no BUFFER option for the top instance (no trace data)");
	if (!td->top.page_size)
		td->top.page_size = td->page_size;
	return 0;
}

static int read_v6(struct tracedat *td, struct cur *c, struct kmag_err *err)
{
	bool has_clock = false;
	uint32_t ncpus, i;
	char tag[10];
	int ret;

	if ((ret = read_header_info(c)) || (ret = read_ftrace_formats(c)) ||
	    (ret = read_event_formats(c)) || (ret = read_sized(c, "kallsyms", false, &td->kallsyms)) ||
	    (ret = read_sized(c, "printk formats", false, &td->printk)) ||
	    (ret = read_sized(c, "saved cmdlines", true, &td->cmdlines)))
		return ret;
	c->what = "CPU count";
	if ((ret = cur_u32(c, &ncpus)))
		return ret;
	if (ncpus == 0 || ncpus > TD_MAX_CPUS)
		return kmag_err_set(err, EINVAL, "corrupt trace.dat: %u CPUs claimed", ncpus);
	td->nr_cpus = (int)ncpus;

	c->what = "options";
	if ((ret = cur_read(c, tag, 10)))
		return ret;
	if (!memcmp(tag, TRACEDAT_V6_OPTIONS, 10)) {
		uint8_t *buf = NULL;

		for (;;) {
			uint16_t id;
			uint32_t size;

			if ((ret = cur_u16(c, &id)))
				break;
			if (id == TD_OPT_DONE)
				break;
			if ((ret = cur_u32(c, &size)))
				break;
			if ((ret = read_option_body(c, size, &buf, err)) ||
			    (ret = kmag__tracedat_option(td, id, buf, size, NULL, &has_clock, err)))
				break;
		}
		free(buf);
		if (ret)
			return ret;
		if ((ret = cur_read(c, tag, 10)))
			return ret;
	}
	if (!memcmp(tag, TRACEDAT_V6_LATENCY, 10)) {
		td->top.latency = true;
		return 0;
	}
	if (memcmp(tag, TRACEDAT_V6_FLYRECORD, 10))
		return kmag_err_set(err, EINVAL,
				    "corrupt trace.dat: expected \"flyrecord\" at offset %llu",
				    (unsigned long long)(c->pos - 10));
	c->what = "flyrecord CPU table";
	td->top.cpus = calloc(ncpus, sizeof(*td->top.cpus));
	td->top.name = strdup("");
	if (!td->top.cpus || !td->top.name)
		return kmag_err_set(err, ENOMEM, "out of memory");
	td->top.nr_cpus = (int)ncpus;
	td->top.page_size = td->page_size;
	td->v6_cpu_table_off = c->pos;
	for (i = 0; i < ncpus; i++) {
		td->top.cpus[i].cpu = (int)i;
		if ((ret = cur_u64(c, &td->top.cpus[i].offset)) ||
		    (ret = cur_u64(c, &td->top.cpus[i].size)))
			return ret;
	}
	if (has_clock) {
		struct td_blob clk = { 0 };

		/* trace-cmd stores the trace_clock file after the CPU table when
		 * the TRACECLOCK option is present; old files may have it broken,
		 * in which case trace-cmd falls back to "local" as we do */
		if (!read_sized(c, "trace clock", true, &clk)) {
			char *name = kmag__tracedat_parse_clock(clk.data, clk.size);

			if (name) {
				free(td->clock);
				td->clock = name;
			}
			free(clk.data);
		} else {
			kmag_err_clear(err);
		}
	}
	td->v6_header_end = c->pos;
	return 0;
}

static int validate_cpu_data(struct tracedat *td, struct kmag_err *err)
{
	int i;

	if (td->top.latency)
		return kmag_err_set(err, ENOTSUP,
				    "trace.dat holds latency-format text, not ring-buffer records; run `trace-cmd report` on it instead");
	if (td->top.page_size < 64 || td->top.page_size > (1u << 24))
		return kmag_err_set(err, EINVAL, "corrupt trace.dat: page size %u",
				    td->top.page_size);
	for (i = 0; i < td->top.nr_cpus; i++) {
		const struct td_cpu_data *d = &td->top.cpus[i];

		if (d->cpu < 0 || d->cpu >= TD_MAX_CPUS)
			return kmag_err_set(err, EINVAL, "corrupt trace.dat: CPU id %d", d->cpu);
		if (d->size && (d->offset > td->file_size || d->size > td->file_size - d->offset))
			return kmag_err_set(err, EINVAL,
					    "truncated trace.dat: CPU %d data needs bytes %llu..%llu but the file has %llu (file cut short?)",
					    d->cpu, (unsigned long long)d->offset,
					    (unsigned long long)(d->offset + d->size),
					    (unsigned long long)td->file_size);
		if (td->nr_cpus <= d->cpu)
			td->nr_cpus = d->cpu + 1;
	}
	return 0;
}

int kmag__tracedat_open(struct tracedat *td, const char *path, struct kmag_err *err)
{
	uint8_t hdr[TRACEDAT_MAGIC_LEN];
	struct stat st;
	struct cur c;
	char *version = NULL;
	uint8_t b[6];
	char *end;
	long v;
	int ret;

	memset(td, 0, sizeof(*td));
	td->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (td->fd < 0)
		return kmag_err_set(err, errno, "cannot open %s: %s", path, strerror(errno));
	if (fstat(td->fd, &st)) {
		ret = kmag_err_set(err, errno, "cannot stat %s: %s", path, strerror(errno));
		goto fail;
	}
	td->file_size = (uint64_t)st.st_size;
	c = (struct cur){ .td = td, .pos = 0, .end = td->file_size, .what = "file header",
			  .err = err };
	if ((ret = cur_read(&c, hdr, sizeof(hdr))))
		goto fail;
	if (memcmp(hdr, TRACEDAT_MAGIC, TRACEDAT_MAGIC_LEN)) {
		ret = kmag_err_set(err, EINVAL, "%s: not a trace.dat file (bad magic)", path);
		goto fail;
	}
	c.what = "version";
	if ((ret = cur_string(&c, 16, &version)))
		goto fail;
	v = strtol(version, &end, 10);
	if (*end || end == version || v < 6 || v > 7) {
		ret = kmag_err_set(err, ENOTSUP,
				   "%s: trace.dat version \"%.16s\" is not supported (kmag reads versions 6 and 7)",
				   path, version);
		free(version);
		goto fail;
	}
	free(version);
	td->version = (int)v;
	if ((ret = cur_read(&c, b, 6)))
		goto fail;
	if (b[0] > 1 || (b[1] != 4 && b[1] != 8)) {
		ret = kmag_err_set(err, EINVAL,
				   "corrupt trace.dat: endian flag %u / long size %u are invalid", b[0],
				   b[1]);
		goto fail;
	}
	td->big_endian = b[0];
	td->swap = td->big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	td->long_size = b[1];
	td->page_size = td_get32(td, b + 2);
	if (td->page_size < 64 || td->page_size > (1u << 24)) {
		ret = kmag_err_set(err, EINVAL, "corrupt trace.dat: page size %u", td->page_size);
		goto fail;
	}
	ret = td->version >= 7 ? read_v7(td, &c, err) : read_v6(td, &c, err);
	if (!ret)
		ret = validate_cpu_data(td, err);
	if (ret)
		goto fail;
	/* a warning: a file of `trace-cmd extract -B NAME` (a persistent ring
	 * buffer of the previous boot, say) may hold its events only there */
	if (td->nr_other_buffers)
		pr_warn("%s: %zu tracefs instance buffer(s) besides the top one are not read (kmag reads the top instance's)",
			path, td->nr_other_buffers);
	return 0;
fail:
	kmag__tracedat_close(td);
	return ret;
}

void kmag__tracedat_close(struct tracedat *td)
{
	size_t i;

	if (td->fd >= 0)
		close(td->fd);
	free(td->comp_name);
	free(td->comp_version);
	free(td->header_page.data);
	free(td->header_event.data);
	free(td->kallsyms.data);
	free(td->printk.data);
	free(td->cmdlines.data);
	free(td->btf.data);
	for (i = 0; i < td->nr_formats; i++) {
		free(td->formats[i].system);
		free(td->formats[i].text.data);
	}
	free(td->formats);
	for (i = 0; i < td->nr_cpustats; i++)
		free(td->cpustats[i]);
	free(td->cpustats);
	free(td->clock);
	free(td->uname);
	free(td->tracer_version);
	free(td->top.name);
	free(td->top.clock);
	free(td->top.cpus);
	if (td->zctx)
		ZSTD_freeDCtx(td->zctx);
	memset(td, 0, sizeof(*td));
	td->fd = -1;
}
