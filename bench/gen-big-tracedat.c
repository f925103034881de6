// SPDX-License-Identifier: MIT
/*
 * gen-big-tracedat - make a large, valid trace.dat from a real one.
 *
 *   gen-big-tracedat IN.dat OUT.dat SIZE_MB
 *
 * IN must be an uncompressed v6 file (`trace-cmd convert --file-version 6
 * --compression none -i x.dat -o in.dat` makes one from any trace.dat). OUT
 * keeps IN's metadata (formats, kallsyms, cmdlines) and repeats each CPU's
 * ring-buffer pages until the data reaches SIZE_MB, shifting every copy's page
 * timestamps by the source's time span, so the result reads like a recording
 * of the same workload running again and again. trace-cmd and kmag both read it.
 * The kernel's own times move with them, or kmag would read the copies as
 * damaged (issue 23): funcgraph_exit's calltime and rettime, and the end of the
 * recording in the CPU stats ("now ts").
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmag/trace.h"
#include "trace/pagewalk.h"
#include "trace/tracedat.h"

static int nop(const struct kmag_event *ev, void *ctx)
{
	(void)ev;
	(void)ctx;
	return 0;
}

static void die(const char *msg)
{
	fprintf(stderr, "gen-big-tracedat: %s\n", msg);
	exit(1);
}

/* funcgraph_exit's id and the offsets of its calltime and rettime (u64), from its format */
struct exit_fmt {
	int id;			/* -1: no such format */
	unsigned calltime, rettime;
};

static struct exit_fmt exit_format(const struct tracedat *td)
{
	struct exit_fmt f = { .id = -1 };
	size_t i;

	for (i = 0; i < td->nr_formats; i++) {
		const char *t = td->formats[i].text.data, *c, *r, *id;

		if (!t || !strstr(t, "name: funcgraph_exit\n") || !(id = strstr(t, "ID: ")) ||
		    !(c = strstr(t, " calltime;\toffset:")) || !(r = strstr(t, " rettime;\toffset:")))
			continue;
		f.id = atoi(id + 4);
		f.calltime = (unsigned)atoi(c + 18);
		f.rettime = (unsigned)atoi(r + 17);
	}
	return f;
}

/* Moves the kernel's times of the funcgraph_exit records of @page by @shift. */
static void shift_exits(const struct kmag_page_geom *g, const struct exit_fmt *f, uint8_t *page,
			uint64_t shift)
{
	struct kmag_page_walk w;
	const uint8_t *payload;
	const char *why;
	uint32_t plen;

	if (f->id < 0 || kmag__page_load(g, &w, page, NULL, &why))
		return;
	while (kmag__page_next(g, &w, &payload, &plen, &why) > 0) {
		uint8_t *p = (uint8_t *)payload;
		uint16_t type;
		uint64_t v;

		memcpy(&type, p, 2);
		if (type != f->id || plen < f->rettime + 8 || plen < f->calltime + 8)
			continue;
		memcpy(&v, p + f->calltime, 8);
		v += shift;
		memcpy(p + f->calltime, &v, 8);
		memcpy(&v, p + f->rettime, 8);
		v += shift;
		memcpy(p + f->rettime, &v, 8);
	}
}

/* Moves each "now ts:   SSSSS.UUUUUU" of the CPU stats in @buf (@len bytes) by @shift ns. */
static void shift_now(char *buf, size_t len, uint64_t shift)
{
	char *p = buf, *end = buf + len;

	while ((p = memmem(p, (size_t)(end - p), "now ts:", 7))) {
		unsigned long long sec, usec;
		char num[32];
		int n = 0;

		p += 7;
		if (sscanf(p, "%llu.%6llu%n", &sec, &usec, &n) != 2 || p + n > end)
			continue;
		sec = (sec * 1000000000ull + usec * 1000ull + shift) / 1000ull;
		/* the kernel's "%5llu.%06lu" after the spaces: the same width if it fits */
		if (snprintf(num, sizeof(num), "%*llu.%06llu", n - 7, sec / 1000000ull,
			     sec % 1000000ull) == n)
			memcpy(p, num, (size_t)n);
	}
}

static void copy_range(int in, FILE *out, uint64_t off, uint64_t len)
{
	char buf[65536];

	while (len) {
		size_t n = len > sizeof(buf) ? sizeof(buf) : (size_t)len;

		if (pread(in, buf, n, (off_t)off) != (ssize_t)n || fwrite(buf, 1, n, out) != n)
			die("copy failed");
		off += n;
		len -= n;
	}
}

int main(int argc, char **argv)
{
	struct kmag_err err = { 0 };
	struct kmag_trace *t;
	struct tracedat td;
	uint64_t span, target, src_bytes = 0, copies, *new_off, *new_size, pos;
	struct kmag_page_geom geom;
	struct exit_fmt xf;
	FILE *out;
	int i;

	if (argc != 4)
		die("usage: gen-big-tracedat IN.dat OUT.dat SIZE_MB");
	t = kmag_trace_open(argv[1], NULL, &err);
	if (!t || kmag_trace_read(t, nop, NULL, &err))
		die(err.msg);
	span = kmag_trace_info(t)->last_ts - kmag_trace_info(t)->first_ts + 1000000;
	kmag_trace_close(t);
	if (kmag__tracedat_open(&td, argv[1], &err))
		die(err.msg);
	if (td.version != 6 || !td.v6_cpu_table_off || td.swap)
		die("IN must be an uncompressed little-endian v6 trace.dat (use trace-cmd convert)");
	for (i = 0; i < td.top.nr_cpus; i++)
		src_bytes += td.top.cpus[i].size;
	xf = exit_format(&td);
	/* the page header: a u64 timestamp, then the commit's size as header_page says */
	geom = (struct kmag_page_geom){ .page_size = td.top.page_size, .commit_size = 8 };
	{
		const char *c = td.header_page.data ? strstr(td.header_page.data, " commit;") : NULL;

		c = c ? strstr(c, "size:") : NULL;
		if (c && atoi(c + 5) == 4)
			geom.commit_size = 4;
		geom.page_hdr = 8 + (uint32_t)geom.commit_size;
	}
	if (!src_bytes)
		die("IN holds no trace data");
	target = strtoull(argv[3], NULL, 10) << 20;
	copies = (target + src_bytes - 1) / src_bytes;
	if (!copies)
		copies = 1;

	out = fopen(argv[2], "wb");
	if (!out)
		die("cannot create OUT");
	{
		/* the metadata, the CPU stats' end of the recording moved to the last copy's */
		char *head = malloc(td.v6_cpu_table_off);

		if (!head || pread(td.fd, head, td.v6_cpu_table_off, 0) != (ssize_t)td.v6_cpu_table_off)
			die("read failed");
		shift_now(head, td.v6_cpu_table_off, (copies - 1) * span);
		if (fwrite(head, 1, td.v6_cpu_table_off, out) != td.v6_cpu_table_off)
			die("write failed");
		free(head);
	}
	new_off = calloc((size_t)td.top.nr_cpus, sizeof(uint64_t));
	new_size = calloc((size_t)td.top.nr_cpus, sizeof(uint64_t));
	/* table placeholder, then the clock text that follows it in v6 */
	for (i = 0; i < td.top.nr_cpus * 2; i++)
		fwrite(&(uint64_t){ 0 }, 8, 1, out);
	copy_range(td.fd, out, td.v6_cpu_table_off + 16 * (uint64_t)td.top.nr_cpus,
		   td.v6_header_end - (td.v6_cpu_table_off + 16 * (uint64_t)td.top.nr_cpus));
	pos = (uint64_t)ftell(out);
	for (i = 0; i < td.top.nr_cpus; i++) {
		const struct td_cpu_data *d = &td.top.cpus[i];
		uint32_t ps = td.top.page_size;
		uint8_t *page = malloc(ps);
		uint64_t k, p;

		while (pos % ps) {
			fputc(0, out);
			pos++;
		}
		new_off[i] = pos;
		for (k = 0; k < copies && d->size; k++) {
			for (p = 0; p + ps <= d->size; p += ps) {
				uint64_t ts;

				if (pread(td.fd, page, ps, (off_t)(d->offset + p)) != (ssize_t)ps)
					die("read failed");
				memcpy(&ts, page, 8);
				if (ts)
					ts += k * span;
				memcpy(page, &ts, 8);
				if (k)
					shift_exits(&geom, &xf, page, k * span);
				if (fwrite(page, 1, ps, out) != ps)
					die("write failed");
				pos += ps;
			}
		}
		new_size[i] = pos - new_off[i];
		free(page);
	}
	if (fseek(out, (long)td.v6_cpu_table_off, SEEK_SET))
		die("seek failed");
	for (i = 0; i < td.top.nr_cpus; i++) {
		fwrite(&new_off[i], 8, 1, out);
		fwrite(&new_size[i], 8, 1, out);
	}
	if (fclose(out))
		die("write failed");
	printf("%s: %" PRIu64 " copies of %" PRIu64 " bytes of CPU data, %.1f MB\n", argv[2], copies,
	       src_bytes, (double)pos / 1048576.0);
	kmag__tracedat_close(&td);
	free(new_off);
	free(new_size);
	return 0;
}
