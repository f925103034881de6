/* SPDX-License-Identifier: MIT */
/*
 * t-pages-formats.h - the header page, record header and event format texts
 * t-pages.c wraps its hand-built pages in: those of the 6.1 fixtures, plus a
 * 32-bit variant. Included by t-pages.c only.
 */
#ifndef KMAG_T_PAGES_FORMATS_H
#define KMAG_T_PAGES_FORMATS_H

/* events/header_page and events/header_event of the 6.1 fixtures (x86-64) */
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

/* `trace-cmd dump --ftrace-events` of tests/fixtures/traces/fg-sched-v6.dat (6.1) */
static const char fmt_function[] =
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

static const char fmt_exit[] =
	"name: funcgraph_exit\n"
	"ID: 10\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int overrun;\toffset:20;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long long calltime;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long long rettime;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"<-- %ps (%d) (start: %llx  end: %llx) over: %d\", (void *)REC->func, "
	"REC->depth, REC->calltime, REC->rettime, REC->depth\n";

static const char fmt_entry[] =
	"name: funcgraph_entry\n"
	"ID: 11\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"--> %ps (%d)\", (void *)REC->func, REC->depth\n";

static const char fmt_repeats[] =
	"name: func_repeats\n"
	"ID: 19\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long parent_ip;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:u16 count;\toffset:24;\tsize:2;\tsigned:0;\n"
	"\tfield:u16 top_delta_ts;\toffset:26;\tsize:2;\tsigned:0;\n"
	"\tfield:u32 bottom_delta_ts;\toffset:28;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \" %ps <-%ps\\t(repeats:%u  delta: -%llu)\", (void *)REC->ip, "
	"(void *)REC->parent_ip, REC->count, (((u64)(REC)->top_delta_ts << 32) | "
	"(REC)->bottom_delta_ts)\n";

/* a tracepoint of our own, for records that are neither function nor graph */
static const char fmt_tick[] =
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

/*
 * The same three events with 4-byte longs, as a 32-bit kernel declares
 * them (u64 fields 4-aligned): a layout the decoder's fixed-size fast path
 * does not take, so the generic, format-driven path decodes it.
 */
static const char fmt32_function[] =
	"name: function\n"
	"ID: 1\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:unsigned long ip;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long parent_ip;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip\n";

static const char fmt32_entry[] =
	"name: funcgraph_entry\n"
	"ID: 11\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:unsigned long func;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:int depth;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"--> %ps (%d)\", (void *)REC->func, REC->depth\n";

static const char fmt32_exit[] =
	"name: funcgraph_exit\n"
	"ID: 10\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:unsigned long func;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:int depth;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int overrun;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long long calltime;\toffset:20;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long long rettime;\toffset:28;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"<-- %ps (%d) (start: %llx  end: %llx) over: %d\", (void *)REC->func, "
	"REC->depth, REC->calltime, REC->rettime, REC->depth\n";

static const char kallsyms32[] =
	"c1000000 T vfs_read\n"
	"c1001000 T ksys_read\n"
	"c1002000 T do_syscall_64\n"
	"c1003000 T _etext\n";

static const char kallsyms[] =
	"ffffffff81000000 T vfs_read\n"
	"ffffffff81001000 T ksys_read\n"
	"ffffffff81002000 T do_syscall_64\n"
	"ffffffff81003000 T _etext\n";	/* ends do_syscall_64 for libtraceevent */

#endif /* KMAG_T_PAGES_FORMATS_H */
