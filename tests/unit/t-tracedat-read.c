// SPDX-License-Identifier: MIT
/*
 * t-tracedat-read.c - kmag's trace.dat container reader (lib/trace/tracedat-read.c
 * and tracedat-options.c): the header, the sections and options of a real
 * v7 and v6 file, and truncated or damaged files, which must fail with a
 * message naming the part, its offset and what is missing.
 *
 * Expected values come from `trace-cmd dump` (libtracecmd's reading of the
 * same files), quoted next to each check, and from the trace.dat v6/v7
 * layout (trace-cmd.dat.v6(5), trace-cmd.dat.v7(5)); never from kmag.
 */
#include <errno.h>

#include "kmag/trace.h"
#include "test.h"
#include "trace/tracedat.h"

/* tests/fixtures/traces/fg-filtered.dat: v7, zstd, recorded by trace-cmd 3.1.6 */
#define V7 "traces/fg-filtered.dat"
/* tests/fuzz/corpus/tracedat/fg-sched-v6.dat: a real v6 file, trimmed (make-seeds.py) */
#define V6 "../fuzz/corpus/tracedat/fg-sched-v6.dat"

static void open_ok(struct tracedat *td, const char *rel)
{
	struct kmag_err err = { 0 };

	if (kmag__tracedat_open(td, fixture(rel), &err))
		test_fail(__FILE__, __LINE__, "open %s: %s", rel, err.msg);
}

static size_t count_system(const struct tracedat *td, const char *system)
{
	size_t i, n = 0;

	for (i = 0; i < td->nr_formats; i++)
		n += !strcmp(td->formats[i].system, system);
	return n;
}

static void v7_header(void)
{
	struct tracedat td;

	open_ok(&td, V7);
	/* trace-cmd dump: [Initial format] 7, little endian, 8 bytes in a long,
	 * page size 4096, zstd 1.5.4 */
	CHECK_EQ(td.version, 7);
	CHECK(!td.big_endian);
	CHECK_EQ(td.long_size, 8);
	CHECK_EQ(td.page_size, 4096);
	CHECK_STREQ(td.comp_name, "zstd");
	CHECK_STREQ(td.comp_version, "1.5.4");
	CHECK_EQ(td.file_size, 944631);	/* fixtures.tsv: bytes */
	kmag__tracedat_close(&td);
}

static void v7_sections(void)
{
	struct tracedat td;

	open_ok(&td, V7);
	/* trace-cmd dump: [Header page, 205 bytes], [Header event, 205 bytes],
	 * [Ftrace format, 18 events], [Kallsyms, 3634074 bytes],
	 * [Trace printk, 5729 bytes], [Saved command lines, 768 bytes] */
	CHECK_EQ(td.header_page.size, 205);
	CHECK_EQ(td.header_event.size, 205);
	CHECK_EQ(count_system(&td, "ftrace"), 18);
	CHECK_EQ(td.kallsyms.size, 3634074);
	CHECK_EQ(td.printk.size, 5729);
	CHECK_EQ(td.cmdlines.size, 768);
	/* the blobs are NUL-terminated copies of the decompressed text */
	CHECK_EQ(td.kallsyms.data[td.kallsyms.size], '\0');
	CHECK(strstr(td.header_page.data, "field: u64 timestamp;") != NULL);
	CHECK(!strncmp(td.cmdlines.data, "115 trace-cmd\n", 14));	/* dump --cmd-lines */
	kmag__tracedat_close(&td);
}

static void v7_options(void)
{
	struct tracedat td;

	open_ok(&td, V7);
	/* trace-cmd dump --options: UNAME, VERSION, CPUCOUNT 2, two CPUSTATs,
	 * TRACECLOCK "local [global] counter ..." */
	CHECK_STREQ(td.uname, "Linux kmag-vm 6.1.0-56-cloud-amd64 x86_64");
	CHECK_STREQ(td.tracer_version, "3.1.6 not-a-git-repo");
	CHECK_EQ(td.nr_cpus, 2);
	CHECK_STREQ(td.clock, "global");
	CHECK_EQ(td.nr_cpustats, 2);
	CHECK(!strncmp(td.cpustats[0], "CPU: 0\nentries: 960\noverrun: 0\n", 31));
	CHECK(!strncmp(td.cpustats[1], "CPU: 1\nentries: 0\n", 18));
	CHECK(strstr(td.cpustats[1], "read events: 3408") != NULL);
	CHECK_EQ(td.ts_offset, 0);	/* no DATE or OFFSET option */
	CHECK_EQ(td.nr_other_buffers, 0);
	kmag__tracedat_close(&td);
}

static void v7_buffer(void)
{
	struct tracedat td;

	open_ok(&td, V7);
	/* trace-cmd dump --options, BUFFER: "" [name], "global" [clock], 4096
	 * [page size], 2 CPUs: 0 901120 9270, 1 913408 31002; the flyrecord
	 * section (id 3) has flags 0x1: compressed */
	CHECK_STREQ(td.top.name, "");
	CHECK_STREQ(td.top.clock, "global");
	CHECK_EQ(td.top.page_size, 4096);
	CHECK_EQ(td.top.nr_cpus, 2);
	CHECK(td.top.compressed);
	CHECK(!td.top.latency);
	CHECK_EQ(td.top.cpus[0].cpu, 0);
	CHECK_EQ(td.top.cpus[0].offset, 901120);
	CHECK_EQ(td.top.cpus[0].size, 9270);
	CHECK_EQ(td.top.cpus[1].cpu, 1);
	CHECK_EQ(td.top.cpus[1].offset, 913408);
	CHECK_EQ(td.top.cpus[1].size, 31002);
	kmag__tracedat_close(&td);
}

static void v6_file(void)
{
	struct tracedat td;

	open_ok(&td, V6);
	/* trace-cmd dump: version 6, little endian, 8-byte longs, page 4096,
	 * [Header page, 205 bytes], [Ftrace format, 18 events], [Events format,
	 * 1 systems] (sched_switch), [Kallsyms, 22192 bytes], [Trace printk,
	 * 5729 bytes], [Saved command lines, 1662 bytes], 2 CPUs with data at
	 * 45056 and 57344, 12288 bytes each, [Tracing clock] [global] */
	CHECK_EQ(td.version, 6);
	CHECK(!td.big_endian);
	CHECK_EQ(td.long_size, 8);
	CHECK_EQ(td.page_size, 4096);
	CHECK_EQ(td.header_page.size, 205);
	CHECK_EQ(count_system(&td, "ftrace"), 18);
	CHECK_EQ(count_system(&td, "sched"), 1);
	CHECK_EQ(td.nr_formats, 19);
	CHECK_EQ(td.kallsyms.size, 22192);
	CHECK_EQ(td.printk.size, 5729);
	CHECK_EQ(td.cmdlines.size, 1662);
	CHECK_EQ(td.top.nr_cpus, 2);
	CHECK(!td.top.compressed);
	CHECK_EQ(td.top.cpus[0].offset, 45056);
	CHECK_EQ(td.top.cpus[0].size, 12288);
	CHECK_EQ(td.top.cpus[1].offset, 57344);
	CHECK_EQ(td.top.cpus[1].size, 12288);
	CHECK_STREQ(td.clock, "global");
	CHECK_STREQ(td.uname, "Linux kmag-vm 6.1.0-56-cloud-amd64 x86_64");
	CHECK_EQ(td.nr_cpustats, 2);
	kmag__tracedat_close(&td);
}

static void magic(void)
{
	static const char good[] = "\027\010\104tracing6";

	CHECK(kmag__tracedat_magic(good, 10));
	/* the three binary bytes decide, so a file cut inside "tracing" still
	 * counts as trace.dat and gets the "truncated" message, not "unknown format" */
	CHECK(kmag__tracedat_magic(good, 3));
	CHECK(!kmag__tracedat_magic(good, 2));
	CHECK(!kmag__tracedat_magic("\030\010\104tracing6", 10));
	CHECK(!kmag__tracedat_magic("# tracer: function\n", 19));
}

static void clock_option(void)
{
	char *c = kmag__tracedat_parse_clock("local [global] counter uptime\n", 29);

	CHECK_STREQ(c, "global");
	free(c);
	c = kmag__tracedat_parse_clock("[local] global", 14);
	CHECK_STREQ(c, "local");
	free(c);
	CHECK(kmag__tracedat_parse_clock("local global", 12) == NULL);	/* none selected */
	CHECK(kmag__tracedat_parse_clock("[local", 6) == NULL);	/* not closed */
}

/* Reads the first @len bytes of fixture @rel into a new file; returns its path. */
static const char *cut_copy(const char *rel, size_t len)
{
	FILE *f = fopen(fixture(rel), "rb");
	char *buf = malloc(len ? len : 1);
	const char *path;

	CHECK(f && buf);
	CHECK_EQ(fread(buf, 1, len, f), len);
	fclose(f);
	path = write_tmp("cut.dat", buf, len);
	free(buf);
	return path;
}

/* Opening fixture @rel cut after @len bytes fails with exactly @msg. */
static void expect_cut(const char *rel, size_t len, const char *msg)
{
	struct kmag_err err = { 0 };
	struct tracedat td;
	int ret = kmag__tracedat_open(&td, cut_copy(rel, len), &err);

	if (ret >= 0)
		test_fail(__FILE__, __LINE__, "%s cut at %zu opened", rel, len);
	if (strcmp(err.msg, msg))
		test_fail(__FILE__, __LINE__, "%s cut at %zu:\n#   got  \"%s\"\n#   want \"%s\"", rel,
			  len, err.msg, msg);
}

/*
 * v7 layout: magic (10), version "7\0" (2), endian (1), long size (1), page
 * size (4), compression name and version (NUL-terminated: "zstd", "1.5.4"),
 * u64 offset of the first options section (at 29), then sections of a
 * 16-byte header (u16 id, u16 flags, u32 string, u64 size) and their data.
 * Section offsets and sizes from trace-cmd dump --sections: headers @ 37
 * (255 compressed bytes), kallsyms @ 72544 (822494 compressed), buffer
 * flyrecord @ 897414 (46984 bytes), strings @ 944514 (93 compressed); a
 * compressed section's data starts with u32 compressed and uncompressed sizes.
 */
static void v7_truncated(void)
{
	expect_cut(V7, 5, "truncated trace.dat: file header needs 10 bytes at offset 0 but the "
		   "file ends at 5");
	expect_cut(V7, 33, "truncated trace.dat: options offset needs 8 bytes at offset 29 but "
		   "the file ends at 33");
	expect_cut(V7, 37 + 8, "truncated trace.dat: 8 stray bytes at offset 37, too few for a "
		   "section header (file cut short?)");
	expect_cut(V7, 300, "truncated trace.dat: the header info section at offset 37 claims "
		   "263 bytes but the file ends 247 bytes later (file cut short?)");
	expect_cut(V7, 72600, "truncated trace.dat: the kallsyms section at offset 72544 claims "
		   "822502 bytes but the file ends 40 bytes later (file cut short?)");
	expect_cut(V7, 901200, "truncated trace.dat: the flyrecord data section at offset 897414 "
		   "claims 46984 bytes but the file ends 3770 bytes later (file cut short?)");
	expect_cut(V7, 944600, "truncated trace.dat: the strings section at offset 944514 claims "
		   "101 bytes but the file ends 70 bytes later (file cut short?)");
}

/*
 * v6 layout: the header as in v7 up to the page size (18 bytes), then
 * "header_page\0" u64 size + text (205 bytes at 38), header_event, the ftrace
 * formats, the event systems, kallsyms (u32 size 22192 + text at 13771),
 * printk (u32 size 5729 + text at 35967), cmdlines, options, the CPU table
 * and the CPU data (trace-cmd dump --flyrecord: 45056 and 57344, 12288 each).
 */
static void v6_truncated(void)
{
	expect_cut(V6, 30, "truncated trace.dat: header_page needs 8 bytes at offset 30 but the "
		   "file ends at 30");
	expect_cut(V6, 60, "truncated trace.dat: header_page needs 205 bytes at offset 38 but the "
		   "file ends at 60");
	expect_cut(V6, 30000, "truncated trace.dat: kallsyms needs 22192 bytes at offset 13771 but "
		   "the file ends at 30000");
	expect_cut(V6, 40000, "truncated trace.dat: printk formats needs 5729 bytes at offset 35967 "
		   "but the file ends at 40000");
	expect_cut(V6, 45000, "truncated trace.dat: CPU 0 data needs bytes 45056..57344 but the "
		   "file has 45000 (file cut short?)");
	expect_cut(V6, 60000, "truncated trace.dat: CPU 1 data needs bytes 57344..69632 but the "
		   "file has 60000 (file cut short?)");
}

/* A copy of fixture @rel with @len bytes at @off replaced by @bytes. */
static const char *patched(const char *rel, size_t off, const void *bytes, size_t len)
{
	FILE *f = fopen(fixture(rel), "rb");
	char *buf;
	long size;
	const char *path;

	CHECK(f);
	CHECK(fseek(f, 0, SEEK_END) == 0);
	size = ftell(f);
	rewind(f);
	buf = malloc((size_t)size);
	CHECK(buf && fread(buf, 1, (size_t)size, f) == (size_t)size);
	fclose(f);
	memcpy(buf + off, bytes, len);
	path = write_tmp("patched.dat", buf, (size_t)size);
	free(buf);
	return path;
}

static void expect_damaged(const char *path, int want_ret, const char *msg)
{
	struct kmag_err err = { 0 };
	struct tracedat td;
	int ret = kmag__tracedat_open(&td, path, &err);

	size_t n = strlen(err.msg), m = strlen(msg);

	/* some messages start with the file's path */
	if (ret != want_ret || n < m || strcmp(err.msg + n - m, msg))
		test_fail(__FILE__, __LINE__, "got %d \"%s\", want %d \"%s\"", ret, err.msg, want_ret,
			  msg);
}

static void damaged(void)
{
	uint64_t huge = 1ull << 40;

	expect_damaged(patched(V7, 10, "8", 1), -ENOTSUP,
		       "trace.dat version \"8\" is not supported (kmag reads versions 6 and 7)");
	expect_damaged(patched(V7, 18, "lz4", 4), -ENOTSUP,
		       "trace.dat is compressed with \"lz4\"; kmag reads zstd and uncompressed "
		       "files (re-record with --compression zstd)");
	expect_damaged(patched(V7, 13, "\0", 1), -EINVAL,
		       "corrupt trace.dat: endian flag 0 / long size 0 are invalid");
	/* the first section's size field (header at 37, size at +8): 1 TiB */
	expect_damaged(patched(V7, 37 + 8, &huge, 8), -EINVAL,
		       "truncated trace.dat: the header info section at offset 37 claims "
		       "1099511627776 bytes but the file ends 944578 bytes later (file cut short?)");
}

/*
 * trace-cmd 3.4's BTF_FILE section (record on the 6.19 test kernel, with
 * funcgraph-args): kmag_trace_btf() hands out /sys/kernel/btf/vmlinux as
 * it was, by the size and sha256 the fixture's provenance (btf-sysfs.txt,
 * `ls -l` and `sha256sum` in the guest) gives.
 */
static void btf_of_trace_cmd_3_4(void)
{
	struct kmag_err err = { 0 };
	struct kmag_trace *t = kmag_trace_open(fixture("traces/6.19-tc34/tc34-args.dat"), NULL, &err);
	char cmd[1200], line[256] = "";
	const char *path;
	const uint8_t *btf;
	size_t size = 0;
	FILE *f;

	if (!t)
		test_fail(__FILE__, __LINE__, "open: %s", err.msg);
	btf = kmag_trace_btf(t, &size);
	CHECK(btf != NULL);
	CHECK_EQ(size, 2992691);
	CHECK(btf && btf[0] == 0x9f && btf[1] == 0xeb);	/* BTF magic 0xeb9f */
	path = write_tmp("btf", (const char *)btf, size);
	snprintf(cmd, sizeof(cmd), "sha256sum < %s", path);
	f = popen(cmd, "r");
	CHECK(f && fgets(line, sizeof(line), f));
	pclose(f);
	CHECK(!strncmp(line, "c8bb33914f4704a1c4c90b18f5e397e5f98ed14f64358a924e34345d6c0e9961", 64));
	kmag_trace_close(t);

	/* a v7 file without the section (trace-cmd 3.1.6) */
	t = kmag_trace_open(fixture("traces/fg-filtered.dat"), NULL, &err);
	CHECK(t != NULL);
	size = 1;
	CHECK(kmag_trace_btf(t, &size) == NULL);
	CHECK_EQ(size, 0);
	kmag_trace_close(t);
}

/*
 * tests/fixtures/traces/6.19-tc34, beside btf_of_trace_cmd_3_4: trace-cmd
 * 3.4's `dump --sections` lists [Section 23 "BTF", flags 0x1, 985807
 * compressed, 2992691 uncompressed] in tc34-args.dat (record with
 * funcgraph-args) and tc34-lastboot.dat (extract, which always stores it) and
 * none in tc34-retaddr.dat (record without arguments); btf-sysfs.txt: the
 * guest's /sys/kernel/btf/vmlinux has 2992691 bytes.
 */
#define TC34 "traces/6.19-tc34/"
#define TC34_BTF_BYTES 2992691

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void tc34_btf(void)
{
	static const char *const with_btf[] = { TC34 "tc34-args.dat", TC34 "tc34-lastboot.dat" };
	struct kmag_trace_opts o = { .reader = KMAG_READER_BUILTIN };
	struct kmag_err err = { 0 };
	struct kmag_trace *t;
	const uint8_t *btf;
	size_t i, size = 1;

	for (i = 0; i < sizeof(with_btf) / sizeof(with_btf[0]); i++) {
		t = kmag_trace_open(fixture(with_btf[i]), &o, &err);
		if (!t)
			test_fail(__FILE__, __LINE__, "open %s: %s", with_btf[i], err.msg);
		btf = kmag_trace_btf(t, &size);
		CHECK(btf != NULL);
		CHECK_EQ(size, TC34_BTF_BYTES);
		/* struct btf_header (linux/btf.h): magic 0xeB9F, version 1, then
		 * hdr_len, type_off, type_len, str_off, str_len; the string section
		 * ends the blob: the whole of it, not a part, was read */
		CHECK_EQ(btf[0], 0x9f);
		CHECK_EQ(btf[1], 0xeb);
		CHECK_EQ(btf[2], 1);
		CHECK_EQ((size_t)le32(btf + 4) + le32(btf + 16) + le32(btf + 20), TC34_BTF_BYTES);
		kmag_trace_close(t);
	}
	t = kmag_trace_open(fixture(TC34 "tc34-retaddr.dat"), &o, &err);
	if (!t)
		test_fail(__FILE__, __LINE__, "open tc34-retaddr.dat: %s", err.msg);
	CHECK(kmag_trace_btf(t, &size) == NULL);
	CHECK_EQ(size, 0);
	kmag_trace_close(t);
}

/*
 * tc34-lastboot.dat: options LAST_BOOT_INFO (24) and BTF_FILE (23) come
 * before CMDLINES and CPUCOUNT; they are skipped or read and the options
 * after them still apply. trace-cmd 3.4 dump --options: [Option
 * CPUCOUNT] 2, [Option UNAME] "Linux kmag-vm 6.19.0 x86_64", BUFFER "" with
 * 0 CPUs, BUFFER "boot_mapped" with 2; dump --sections: [Section 21
 * "command lines", 8 uncompressed].
 */
static void tc34_last_boot(void)
{
	struct tracedat td;

	open_ok(&td, TC34 "tc34-lastboot.dat");
	CHECK_EQ(td.nr_cpus, 2);
	CHECK_STREQ(td.uname, "Linux kmag-vm 6.19.0 x86_64");
	CHECK_EQ(td.cmdlines.size, 0);	/* the 8 bytes are its u64 size: 0 */
	CHECK_EQ(td.top.nr_cpus, 0);
	CHECK_EQ(td.nr_other_buffers, 1);
	kmag__tracedat_close(&td);
}

const struct test_case tracedat_read_tests[] = {
	{ "btf_of_trace_cmd_3_4", btf_of_trace_cmd_3_4 },
	{ "v7_header", v7_header },
	{ "v7_sections", v7_sections },
	{ "v7_options", v7_options },
	{ "v7_buffer", v7_buffer },
	{ "v6_file", v6_file },
	{ "magic", magic },
	{ "clock_option", clock_option },
	{ "v7_truncated", v7_truncated },
	{ "v6_truncated", v6_truncated },
	{ "damaged", damaged },
	{ "tc34_btf", tc34_btf },
	{ "tc34_last_boot", tc34_last_boot },
	TEST_LIST_END
};
