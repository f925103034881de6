// SPDX-License-Identifier: MIT
/*
 * t-tracedat-write.c - the trace.dat writer, checked by reading its files
 * back with kmag's built-in reader and with libtracecmd (the code behind
 * `trace-cmd report`): same events, names, CPUs, lost-data markers, stats.
 */
#include <fcntl.h>

#include "kmag/trace.h"
#include "test.h"
#include "trace/tracedat-format.h"
#include "trace/tracedat-write.h"

#define PAGE 4096

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

static const char header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n"
	"\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

static const char function_format[] =
	"name: function\n"
	"ID: 1\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long parent_ip;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip\n";

static const char switch_format[] =
	"name: tick\n"
	"ID: 300\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:int value;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"value=%d\", REC->value\n";

static const char kallsyms[] =
	"ffffffff81000000 T vfs_read\n"
	"ffffffff81001000 T ksys_read\n"
	"ffffffff81002000 T do_syscall_64\n";

/* Builds a sub-buffer: @n function events (vfs_read <- ksys_read) plus one tick. */
static void make_page(uint8_t *page, uint64_t ts, int n, int pid, bool missing)
{
	uint64_t commit;
	uint32_t off = 16;
	int i;

	memset(page, 0, PAGE);
	memcpy(page, &ts, 8);
	for (i = 0; i < n; i++) {
		uint32_t hdr = 6u | (10u << 5);	/* type_len 6 (24 bytes), delta 10 */
		uint16_t type = 1;
		uint64_t ip = 0xffffffff81000010ull, parent = 0xffffffff81001020ull;

		memcpy(page + off, &hdr, 4);
		memcpy(page + off + 4, &type, 2);
		memcpy(page + off + 8, &pid, 4);
		memcpy(page + off + 12, &ip, 8);
		memcpy(page + off + 20, &parent, 8);
		off += 28;
	}
	{
		uint32_t hdr = 3u | (5u << 5);	/* type_len 3 (12 bytes) */
		uint16_t type = 300;
		int32_t value = 42;

		memcpy(page + off, &hdr, 4);
		memcpy(page + off + 4, &type, 2);
		memcpy(page + off + 8, &pid, 4);
		memcpy(page + off + 12, &value, 4);
		off += 16;
	}
	commit = off - 16;
	if (missing)
		commit |= RB_MISSING_EVENTS;
	memcpy(page + 8, &commit, 8);
}

static int cpu_file(const char *name, int pages, int events_per_page, int pid, bool missing_second)
{
	char path[512];
	uint8_t page[PAGE];
	int fd, i;

	snprintf(path, sizeof(path), "%s/%s", test_tmpdir(), name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0);
	for (i = 0; i < pages; i++) {
		make_page(page, 1000000 + (uint64_t)i * 100000, events_per_page, pid,
			  missing_second && i == 1);
		CHECK(write(fd, page, PAGE) == PAGE);
	}
	return fd;
}

struct counts {
	uint64_t func, other, lost, per_cpu[3];
	bool names_ok;
	struct kmag_trace *t;
};

static int count_event(const struct kmag_event *ev, void *ctx)
{
	struct counts *c = ctx;

	if (ev->type == KMAG_EV_LOST) {
		c->lost++;
		return 0;
	}
	if (ev->cpu >= 0 && ev->cpu < 3)
		c->per_cpu[ev->cpu]++;
	if (ev->type == KMAG_EV_FUNC) {
		struct kmag_symtab *st = kmag_trace_symtab(c->t);
		const char *f = kmag_symtab_name(st, ev->func), *p = kmag_symtab_name(st, ev->parent);

		c->func++;
		if (!f || !p || strcmp(f, "vfs_read") || strcmp(p, "ksys_read"))
			c->names_ok = false;
	} else if (ev->type == KMAG_EV_OTHER) {
		c->other++;
	}
	return 0;
}

static void check_with_trace_cmd(const char *path, uint64_t want_func, uint64_t want_other);

/* A stand-in for /sys/kernel/btf/vmlinux: BTF magic, then bytes with NULs in them. */
static uint8_t fake_btf[5000];

static void make_fake_btf(void)
{
	size_t i;

	for (i = 0; i < sizeof(fake_btf); i++)
		fake_btf[i] = (uint8_t)(i * 7 % 251);
	memcpy(fake_btf, "\x9f\xeb\x01\x00", 4);
}

/*
 * v7 uncompressed: the BTF lies in the file as is, right after a section
 * header {u16 id 23 (trace-cmd's TRACECMD_OPTION_BTF_FILE), u16 flags 0,
 * u32 name, u64 size} - read by hand, not by kmag's reader.
 */
static void check_btf_layout(const char *path)
{
	uint8_t *file = malloc(1 << 20), *at;
	uint16_t id, flags;
	uint64_t size;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	CHECK(fd >= 0 && file);
	n = read(fd, file, 1 << 20);
	close(fd);
	CHECK(n > 0);
	at = memmem(file, (size_t)n, fake_btf, sizeof(fake_btf));
	CHECK(at && at - file >= 16);
	memcpy(&id, at - 16, 2);
	memcpy(&flags, at - 14, 2);
	memcpy(&size, at - 8, 8);
	CHECK_EQ(id, 23);
	CHECK_EQ(flags, 0);
	CHECK_EQ(size, sizeof(fake_btf));
	free(file);
}

static void write_and_check(int version, bool compress)
{
	static const struct tdw_blob ftrace[] = { { function_format, sizeof(function_format) - 1 } };
	static const struct tdw_blob test_fmts[] = { { switch_format, sizeof(switch_format) - 1 } };
	static const struct tdw_system systems[] = { { "test", test_fmts, 1 } };
	static const char cmdlines[] = "4242 workload\n";
	const char *stats[3] = {
		"CPU: 0\nentries: 0\noverrun: 0\ncommit overrun: 0\nbytes: 0\n",
		"CPU: 1\nentries: 0\noverrun: 0\ncommit overrun: 0\nbytes: 0\n",
		"CPU: 2\nentries: 0\noverrun: 17\ncommit overrun: 0\nbytes: 0\n",
	};
	struct tdw_meta m = {
		.header_page = { header_page, sizeof(header_page) - 1 },
		.header_event = { header_event, sizeof(header_event) - 1 },
		.ftrace_formats = ftrace, .nr_ftrace_formats = 1,
		.systems = systems, .nr_systems = 1,
		.kallsyms = { kallsyms, sizeof(kallsyms) - 1 },
		.printk = { "", 0 },
	};
	struct tdw_cpu cpus[3];
	struct tdw_tail tail = {
		.cmdlines = { cmdlines, sizeof(cmdlines) - 1 },
		.nr_cpus = 3, .cpus = cpus,
		.clock_file = "[local] global counter\n", .clock = "local",
		.uname = "Linux test 6.1.0 x86_64", .version = "kmag test",
		.cpustats = stats, .nr_cpustats = 3,
		.btf = { (const char *)fake_btf, sizeof(fake_btf) },
		.tracer_cost = "ns=312 q1=298 q3=330 rounds=15 reads=400 beneath=17 options=retval,retaddr",
	};
	enum kmag_reader readers[] = { KMAG_READER_BUILTIN, KMAG_READER_LIBTRACECMD };
	struct kmag_err err = { 0 };
	struct tdw w;
	char path[512];
	int fd, r;

	/* CPU 0: 25 pages x 30 events (3 compressed chunks), CPU 1: empty,
	 * CPU 2: 2 pages, the second flagged MISSING_EVENTS */
	make_fake_btf();
	cpus[0] = (struct tdw_cpu){ .fd = cpu_file("c0", 25, 30, 4242, false), .size = 25 * PAGE };
	cpus[1] = (struct tdw_cpu){ .fd = -1 };
	cpus[2] = (struct tdw_cpu){ .fd = cpu_file("c2", 2, 5, 7, true), .size = 2 * PAGE };

	snprintf(path, sizeof(path), "%s/out-v%d%s.dat", test_tmpdir(), version,
		 compress ? "z" : "");
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0);
	CHECK_EQ(kmag__tdw_begin(&w, fd, version, compress, PAGE, &err), 0);
	CHECK_EQ(kmag__tdw_metadata(&w, &m), 0);
	tail.punch_holes = compress;	/* exercise both copy paths */
	r = kmag__tdw_finish(&w, &tail);
	if (r)
		test_fail(__FILE__, __LINE__, "finish: %s", err.msg);
	kmag__tdw_release(&w);
	close(fd);
	close(cpus[0].fd);
	close(cpus[2].fd);

	for (r = 0; r < 2; r++) {
		struct kmag_trace_opts o = { .reader = readers[r] };
		struct counts c = { .names_ok = true };
		const struct kmag_trace_info *info;

		if (readers[r] == KMAG_READER_LIBTRACECMD &&
		    !kmag_has_feature(KMAG_FEATURE_LIBTRACECMD))
			continue;	/* check_with_trace_cmd() still compares with trace-cmd */
		c.t = kmag_trace_open(path, &o, &err);
		if (!c.t)
			test_fail(__FILE__, __LINE__, "open (reader %d): %s", r, err.msg);
		CHECK_EQ(kmag_trace_read(c.t, count_event, &c, &err), 0);
		info = kmag_trace_info(c.t);
		CHECK_EQ(c.func, 25 * 30 + 2 * 5);
		CHECK_EQ(c.other, 25 + 2);
		CHECK_EQ(c.per_cpu[0], 25 * 31);
		CHECK_EQ(c.per_cpu[1], 0);
		CHECK_EQ(c.per_cpu[2], 2 * 6);
		CHECK_EQ(c.lost, 1);
		CHECK(c.names_ok);
		CHECK_STREQ(kmag_trace_comm(c.t, 4242), "workload");
		if (readers[r] == KMAG_READER_BUILTIN) {
			/* the libtracecmd reader does not expose these */
			CHECK_EQ(info->file_version, version);
			CHECK_STREQ(info->compression, compress ? "zstd" : "none");
			CHECK_STREQ(info->clock, "local");
			CHECK_EQ(info->nr_cpus, 3);
			CHECK(info->cpus[2].has_stats);
			CHECK_EQ(info->cpus[2].stat_overrun, 17);
			CHECK_STREQ(info->uname, "Linux test 6.1.0 x86_64");
			/* the tracer's cost, in an option of kmag's own */
			CHECK_EQ(info->cost.ns, 312);
			CHECK_EQ(info->cost.q1_ns, 298);
			CHECK_EQ(info->cost.q3_ns, 330);
			CHECK_EQ(info->cost.rounds, 15);
			CHECK_EQ(info->cost.reads, 400);
			CHECK_EQ(info->cost.beneath, 17);
			CHECK_STREQ(info->cost.options, "retval,retaddr");
		}
		{
			/* v7 stores the BTF as trace-cmd 3.4 does; v6 has no place for it */
			size_t btf_size = 1;
			const void *btf = kmag_trace_btf(c.t, &btf_size);

			if (readers[r] == KMAG_READER_BUILTIN && version == 7) {
				CHECK(btf != NULL);
				CHECK_EQ(btf_size, sizeof(fake_btf));
				CHECK(btf && !memcmp(btf, fake_btf, sizeof(fake_btf)));
			} else {
				CHECK(btf == NULL);
				CHECK_EQ(btf_size, 0);
			}
		}
		kmag_trace_close(c.t);
	}
	if (version == 7 && !compress)
		check_btf_layout(path);
	/* trace-cmd 3.1.6 knows no BTF_FILE option, nor kmag's tracer cost: it must skip them
	   without a word */
	check_with_trace_cmd(path, 25 * 30 + 2 * 5, 25 + 2);
}

/*
 * `trace-cmd report` itself, when installed (scripts/deps.sh --test): it must
 * print every event and warn about nothing.
 */
static void check_with_trace_cmd(const char *path, uint64_t want_func, uint64_t want_other)
{
	char cmd[1024], line[1024];
	uint64_t func = 0, other = 0, warnings = 0;
	FILE *p;

	if (system("command -v trace-cmd >/dev/null 2>&1") != 0) {
		printf("# trace-cmd not installed: `trace-cmd report` check skipped\n");
		return;
	}
	snprintf(cmd, sizeof(cmd), "trace-cmd report %s 2>&1", path);
	p = popen(cmd, "r");
	CHECK(p);
	while (fgets(line, sizeof(line), p)) {
		if (strstr(line, " function: "))
			func++;
		else if (strstr(line, " tick: "))
			other++;
		else if (strstr(line, "arning") || strstr(line, "rror") || strstr(line, "nknown"))
			warnings++;
	}
	CHECK_EQ(pclose(p), 0);
	CHECK_EQ(func, want_func);
	CHECK_EQ(other, want_other);
	CHECK_EQ(warnings, 0);
	snprintf(cmd, sizeof(cmd), "trace-cmd report --stat %s 2>&1 | grep -q 'overrun: 17'", path);
	CHECK_EQ(system(cmd), 0);
}

static void v6_roundtrip(void)
{
	write_and_check(6, false);
}

static void v7_zstd_roundtrip(void)
{
	write_and_check(7, true);
}

static void v7_uncompressed_roundtrip(void)
{
	write_and_check(7, false);
}

static void rejects_partial_pages(void)
{
	struct kmag_err err = { 0 };
	struct tdw_cpu cpu = { .fd = 0, .size = 100 };
	struct tdw_tail tail = { .nr_cpus = 1, .cpus = &cpu };
	struct tdw w;
	int fd = open(write_tmp("x", "", 0), O_RDWR);

	CHECK(fd >= 0);
	CHECK_EQ(kmag__tdw_begin(&w, fd, 7, true, PAGE, &err), 0);
	CHECK(kmag__tdw_finish(&w, &tail) < 0);
	CHECK(strstr(err.msg, "whole") != NULL);
	kmag__tdw_release(&w);
	close(fd);
	kmag_err_clear(&err);
	CHECK(kmag__tdw_begin(&w, -1, 8, false, PAGE, &err) < 0);
	kmag__tdw_release(&w);
}

const struct test_case tracedat_write_tests[] = {
	{ "v6_roundtrip", v6_roundtrip },
	{ "v7_zstd_roundtrip", v7_zstd_roundtrip },
	{ "v7_uncompressed_roundtrip", v7_uncompressed_roundtrip },
	{ "rejects_partial_pages", rejects_partial_pages },
	TEST_LIST_END,
};
