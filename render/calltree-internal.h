/* SPDX-License-Identifier: MIT */
/*
 * calltree-internal.h - what the two halves of `kmag replay` share:
 * calltree.c decides which calls are shown (the replay's hooks, --function,
 * --depth, --min-duration, --errors), calltree-lines.c writes their lines
 * (text as the kernel prints function_graph, JSON Lines) into one buffer.
 * Private to render/.
 */
#ifndef KMAG_CALLTREE_INTERNAL_H
#define KMAG_CALLTREE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "kmag/render/calltree.h"
#include "kmag/replay.h"

#define OUTBUF (1 << 16)
#define LINE_MAX_BYTES 4096	/* one line never needs more (names are cut at 1 KiB) */
#define MAX_INDENT 512		/* columns of indentation at most (depth 256) */

/* Per-call state, kept by the replay with each open call. */
struct cdata {
	int32_t root_depth;	/* depth of the outermost --function call above, -1: none */
	uint8_t shown;		/* in scope and within --depth */
	uint8_t emitted;	/* its open line was printed */
	uint8_t needed;		/* json: a qualifying call ran below it */
};

enum match { M_UNKNOWN, M_YES, M_NO };

/*
 * The last call a CPU's task entered whose line waits for the task's next
 * event (a call, or the leaf it turns out to be). Its pointers are the
 * replay's, valid until that task's next hook, which clears or replaces it.
 */
struct pending_open {
	uint64_t id;			/* 0: none */
	uint64_t task;			/* kmag_task_key() */
	const struct kmag_call *call;
	struct cdata *d;
	const struct kmag_call *parent;
};

struct kmag_calltree {
	struct kmag_trace *trace;
	struct kmag_symtab *st;
	struct kmag_replay *replay;
	struct kmag_calltree_opts o;
	bool qualify;			/* --min-duration, --errors or --errno */
	bool retval_checked;
	FILE *out;
	char *buf;
	size_t len;
	uint8_t *match;			/* --function: enum match per function id */
	size_t cap_match;
	int32_t comm_pid;		/* the last task looked up, and its name */
	const char *comm;
	struct kmag_calltree_stats stats;
	char stopped_in[512];		/* --limit: the printed calls open when it stopped */
	struct kmag_err err;
	bool failed;
	uint64_t last_ts;		/* of the latest event: calls still open end there */
	struct pending_open *pend;	/* per CPU (text without --min-duration/--errors) */
	size_t cap_pend;
};


enum line_kind { L_OPEN, L_LEAF, L_CLOSE };

/* Records the first error (@fmt may use one %s, @arg); returns -@code. */
int kmag__ct_fail(struct kmag_calltree *c, int code, const char *fmt, const char *arg);
/* Writes the buffer out; 0 or -errno (recorded). */
int kmag__ct_flush(struct kmag_calltree *c);
/* The error code @call returned (negative; kmag_call_errno()), or 0. */
int64_t kmag__ct_errno(const struct kmag_call *call);
/* Whether @call returned an error code (kmag_call_errno()). */
bool kmag__ct_is_errno(const struct kmag_call *call);
/* One call's text line: its entry "f() {", a leaf "f();" or its exit "}" (@k). */
int kmag__ct_text_line(struct kmag_calltree *c, enum line_kind k, const struct kmag_call *call,
		       const struct cdata *d, const struct kmag_call *parent);
/* One call's JSON Lines object, when it returns. */
int kmag__ct_json_line(struct kmag_calltree *c, const struct kmag_call *call);
/* Whether function @f matches --function (false without it). */
bool kmag__ct_function_matches(struct kmag_calltree *c, kmag_func_t f);
/*
 * Counts a shown call (starting at @start_ns) against --limit;
 * KMAG_CALLTREE_STOP when reached, with @start_ns noted in the stats as where
 * to go on (calltree.c notes the calls open then).
 */
int kmag__ct_count_shown(struct kmag_calltree *c, uint64_t start_ns);
/* The text mark after the last line when --limit stopped the output. */
int kmag__ct_limit_line(struct kmag_calltree *c);
/* A "lost events" line. */
int kmag__ct_lost_line(struct kmag_calltree *c, const struct kmag_event *ev);
/* A function-tracer record's line ("f <- parent"). */
int kmag__ct_func_line(struct kmag_calltree *c, const struct kmag_event *ev);

#endif /* KMAG_CALLTREE_INTERNAL_H */
