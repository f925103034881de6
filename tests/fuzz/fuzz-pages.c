// SPDX-License-Identifier: MIT
/*
 * fuzz-pages: the ring-buffer page walker and the event decoder. The input
 * becomes the CPU data of a real v6 trace.dat (the formats, kallsyms and
 * header of a real v6 trace), so every input reaches the page walk with
 * valid formats: page headers, record headers, time extends, padding,
 * missed-events flags and record payloads are all attacker-controlled.
 * The template is corpus/tracedat/fg-sched-v6.dat (a trimmed real trace).
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz-common.h"
#include "kmag/kmag.h"
#include "trace/tracedat.h"

#ifndef FUZZ_TEMPLATE
#define FUZZ_TEMPLATE "template-v6.dat"
#endif

static uint8_t *head;		/* template bytes up to the CPU table */
static size_t head_len;
static uint8_t *tail;		/* bytes after the CPU table (trace clock) */
static size_t tail_len;
static int nr_cpus;
static uint32_t page_size;

static uint8_t *slurp(int fd, uint64_t off, size_t len)
{
	uint8_t *b = malloc(len ? len : 1);

	if (!b || pread(fd, b, len, (off_t)off) != (ssize_t)len)
		abort();
	return b;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *path = getenv("KMAG_FUZZ_TEMPLATE");
	struct kmag_err err = { 0 };
	struct tracedat td;

	(void)argc;
	(void)argv;
	if (!path)
		path = FUZZ_TEMPLATE;
	if (kmag__tracedat_open(&td, path, &err) || td.version != 6) {
		fprintf(stderr, "fuzz-pages: cannot use template %s: %s\n", path, err.msg);
		abort();
	}
	nr_cpus = td.top.nr_cpus;
	page_size = td.top.page_size;
	head_len = td.v6_cpu_table_off;
	head = slurp(td.fd, 0, head_len);
	tail_len = td.v6_header_end - (td.v6_cpu_table_off + 16ull * (uint64_t)nr_cpus);
	tail = slurp(td.fd, td.v6_cpu_table_off + 16ull * (uint64_t)nr_cpus, tail_len);
	kmag__tracedat_close(&td);
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t table = 16u * (size_t)nr_cpus, pre, data_len, total;
	uint64_t off, dsize;
	char path[64];
	uint8_t *buf;
	int fd, cpu;

	if (size > (1u << 20))
		return 0;
	pre = head_len + table + tail_len;
	off = (pre + page_size - 1) / page_size * page_size;
	data_len = (size + page_size - 1) / page_size * page_size;
	total = (size_t)off + data_len;
	buf = calloc(1, total ? total : 1);
	if (!buf)
		return 0;
	memcpy(buf, head, head_len);
	/* CPU 0 gets the input, the others nothing */
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		uint64_t o = cpu ? 0 : off;

		dsize = cpu ? 0 : data_len;
		memcpy(buf + head_len + 16u * (size_t)cpu, &o, 8);
		memcpy(buf + head_len + 16u * (size_t)cpu + 8, &dsize, 8);
	}
	memcpy(buf + head_len + table, tail, tail_len);
	memcpy(buf + off, data, size);
	fd = fuzz_memfile(buf, total, path, sizeof(path));
	free(buf);
	if (fd < 0)
		return 0;
	fuzz_read_trace(path, KMAG_READER_BUILTIN, true);
	close(fd);
	return 0;
}
