/* SPDX-License-Identifier: MIT */
/*
 * stack.h - the kernel's stack tracer (CONFIG_STACK_TRACER): the deepest
 * kernel stack seen while it was on, frame by frame with each frame's size.
 *
 *   s = kmag_stack_start(&opts, &err);     saves the setting, resets the maximum, turns it on
 *   ... run a workload ...
 *   kmag_stack_stop(s, &result, &err);     reads the deepest stack, puts the setting back
 *   kmag_stack_free(s);                    puts it back if not done yet
 *
 * The stack tracer is system-wide (not per tracefs instance, not per task).
 * The previous setting is also written to <state dir>/stack-<pid>.state, so
 * that a run killed with SIGKILL is repaired by the next one.
 */
#ifndef KMAG_STACK_H
#define KMAG_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "kmag.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kmag_stack_frame {
	unsigned long depth;	/* stack bytes in use from this frame down to the bottom */
	unsigned long size;	/* this frame's bytes */
	char *location;		/* "vfs_read+0x5/0xa0" */
	char *func;		/* "vfs_read" */
};

struct kmag_stack_result {
	unsigned long max_size;	/* stack_max_size: the deepest stack, bytes */
	size_t nr_frames;
	struct kmag_stack_frame *frames;	/* innermost (deepest) first, as the kernel lists them */
};

struct kmag_stack_opts {
	const char *const *filter;	/* stack_trace_filter globs: watch only these functions */
	size_t nr_filter;
	const char *state_dir;		/* NULL = $KMAG_STATE_DIR or /run/kmag */
	void (*note)(void *ctx, const char *msg);	/* repairs of killed runs; may be NULL */
	void *note_ctx;
};

struct kmag_stack;

/* Starts the stack tracer. Returns a handle to free with kmag_stack_free(), or NULL with @err. */
struct kmag_stack *kmag_stack_start(const struct kmag_stack_opts *opts, struct kmag_err *err);
/* Reads the deepest stack into @res (release with kmag_stack_result_release()) and restores. */
int kmag_stack_stop(struct kmag_stack *s, struct kmag_stack_result *res, struct kmag_err *err);
/* Restores the previous setting if not done yet, frees. Accepts NULL. */
void kmag_stack_free(struct kmag_stack *s);

/* Parses the text of tracefs' stack_trace into @res. Returns 0 or -EINVAL/-ENOMEM. */
int kmag_stack_parse(const char *text, struct kmag_stack_result *res);
void kmag_stack_result_release(struct kmag_stack_result *res);


#ifdef __cplusplus
}
#endif

#endif /* KMAG_STACK_H */
