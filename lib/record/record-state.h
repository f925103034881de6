/* SPDX-License-Identifier: MIT */
/*
 * record-state.h - the saved state of every tracefs file kmag changes, so it
 * can be put back exactly; mirrored in a state file for crash recovery.
 * Internal to libkmag.
 */
#ifndef KMAG_RECORD_STATE_H
#define KMAG_RECORD_STATE_H

#include <stdbool.h>
#include <stddef.h>

#include "kmag/kmag.h"
#include "tracefs-io.h"

/* How a file's saved text is written back. */
enum rs_kind {
	RS_VALUE = 1,	/* one value ("1", "nop", "ff"): written back trimmed */
	RS_CLOCK,	/* trace_clock "[local] global ...": the bracketed name */
	RS_BUFSIZE,	/* buffer_size_kb "1408", or "7 (expanded: 1408)" before first use */
	RS_LIST,	/* filter and pid lists: truncate, then one entry per write */
	RS_EVFILTER,	/* events/.../filter: "none" means clear ("0") */
};

struct rs_entry {
	char *rel;		/* path relative to the tracing directory */
	char *saved;		/* the file's text before kmag changed it */
	enum rs_kind kind;
};

struct rec_state {
	char *dir;		/* tracing directory (owned) */
	struct rs_entry *e;	/* in the order saved; restored in reverse */
	size_t n, cap;
	char *path;		/* state file mirroring the entries, or NULL */
};

/* Sets up an empty state for tracing directory @dir. Returns 0 or -ENOMEM. */
int kmag__rs_init(struct rec_state *s, const char *dir);
/* Frees memory; the state file is left alone. */
void kmag__rs_release(struct rec_state *s);

/*
 * Reads tracefs file @rel and remembers its text (once: a second call for
 * the same file keeps the first). A file that does not exist is skipped and
 * returns -ENOENT without setting @err.
 */
int kmag__rs_save(struct rec_state *s, const char *rel, enum rs_kind kind, struct kmag_err *err);

/* Remembers @text as file @rel's content (for texts kmag derives itself). */
int kmag__rs_save_text(struct rec_state *s, const char *rel, enum rs_kind kind, const char *text,
		       struct kmag_err *err);

/* Writes the entries to @path (atomically) so a later run can restore them. */
int kmag__rs_persist(struct rec_state *s, const char *path, struct kmag_err *err);
/* Loads a state file written by kmag__rs_persist() into an empty @s. */
int kmag__rs_load(struct rec_state *s, const char *path, struct kmag_err *err);

/*
 * Writes every saved file back (in reverse order), then re-reads each and
 * compares. Returns 0, or -EIO with @err naming the first file that could
 * not be written or reads back differently. Removes the state file on
 * success. Safe to call repeatedly.
 */
int kmag__rs_restore(struct rec_state *s, struct kmag_err *err);

#endif /* KMAG_RECORD_STATE_H */
