/* SPDX-License-Identifier: MIT */
/*
 * tracedat-format.h - constants of the trace.dat file format (versions 6 and 7),
 * as documented in trace-cmd.dat.v6(5) and trace-cmd.dat.v7(5). Shared by
 * kmag's reader and writer; see doc/trace-dat.md for the layout.
 */
#ifndef KMAG_TRACEDAT_FORMAT_H
#define KMAG_TRACEDAT_FORMAT_H

#define TRACEDAT_MAGIC "\027\010\104tracing"	/* 0x17 0x08 0x44 "tracing" */
#define TRACEDAT_MAGIC_LEN 10

#define TRACEDAT_HEAD_PAGE "header_page"
#define TRACEDAT_HEAD_EVENT "header_event"
#define TRACEDAT_V6_OPTIONS "options  "	/* 10 bytes with the NUL */
#define TRACEDAT_V6_LATENCY "latency  "
#define TRACEDAT_V6_FLYRECORD "flyrecord"

/* Option ids; in v7 the metadata section ids are the same numbers. */
enum tracedat_option {
	TD_OPT_DONE = 0,
	TD_OPT_DATE = 1,
	TD_OPT_CPUSTAT = 2,
	TD_OPT_BUFFER = 3,
	TD_OPT_TRACECLOCK = 4,
	TD_OPT_UNAME = 5,
	TD_OPT_HOOK = 6,
	TD_OPT_OFFSET = 7,
	TD_OPT_CPUCOUNT = 8,
	TD_OPT_VERSION = 9,
	TD_OPT_PROCMAPS = 10,
	TD_OPT_TRACEID = 11,
	TD_OPT_TIME_SHIFT = 12,
	TD_OPT_GUEST = 13,
	TD_OPT_TSC2NSEC = 14,
	TD_OPT_STRINGS = 15,
	TD_OPT_HEADER_INFO = 16,
	TD_OPT_FTRACE_EVENTS = 17,
	TD_OPT_EVENT_FORMATS = 18,
	TD_OPT_KALLSYMS = 19,
	TD_OPT_PRINTK = 20,
	TD_OPT_CMDLINES = 21,
	TD_OPT_BUFFER_TEXT = 22,
	TD_OPT_BTF_FILE = 23,
	TD_OPT_LAST_BOOT_INFO = 24,
	TD_OPT_MODULES_FILE = 25,
};

#define TD_SEC_FL_COMPRESS 1u
#define TD_SECTION_HEADER_SIZE 16	/* u16 id, u16 flags, u32 string id, u64 size */

/* Ring-buffer sub-buffer ("page") header, see events/header_page. */
#define RB_COMMIT_MASK ((1u << 27) - 1)
#define RB_MISSING_EVENTS (1ull << 31)
#define RB_MISSING_STORED (1ull << 30)

/* Record header type_len values, see events/header_event. */
#define RB_TYPE_PADDING 29
#define RB_TYPE_TIME_EXTEND 30
#define RB_TYPE_TIME_STAMP 31
#define RB_TS_SHIFT 27
#define RB_TS_MSB (0xf8ull << 56)

/* trace-cmd compresses flyrecord data in chunks of this many pages. */
#define TD_PAGES_IN_CHUNK 10

#endif /* KMAG_TRACEDAT_FORMAT_H */
