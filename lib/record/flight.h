/* SPDX-License-Identifier: MIT */
/*
 * flight.h - the flight recorder (`kmag record --flight SIZE`). Internal.
 *
 *   flight-ring.c     the rings: per recorded CPU a file of SIZE/CPUs bytes
 *                     (allocated up front) holding zstd blocks of up to ten
 *                     ring-buffer pages, oldest dropped first; the window a
 *                     snapshot takes, and writing it as a trace.dat
 *   flight-capture.c  the per-CPU readers in flight mode: pages into blocks,
 *                     compressed into the ring (stored as they are while
 *                     the reader is behind the kernel), handed to the watcher
 *   flight-watch.c    the watcher thread: merges the CPUs' pages by time,
 *                     decodes them and feeds the triggers (analysis/trigger.c)
 *   flight.c          the snapshots: when one is due, writing it, the window
 *
 * A block is exactly one chunk of a trace.dat v7 flyrecord section (trace-
 * cmd's 10 pages, compressed on their own), so a snapshot copies blocks
 * into the file as they are. Disk use of the rings never passes SIZE.
 */
#ifndef KMAG_FLIGHT_H
#define KMAG_FLIGHT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "analysis/trigger.h"
#include "kmag/event.h"
#include "kmag/kmag.h"
#include "trace/decode.h"
#include "trace/pagewalk.h"
#include "trace/tracedat-write.h"

#define FL_BLOCK_PAGES 10	/* = TD_PAGES_IN_CHUNK */

/* One block of one CPU's ring. */
struct fl_block {
	uint64_t seq;		/* 0, 1, ... per ring */
	uint64_t off;		/* in the ring file */
	uint32_t csize, usize;	/* compressed, uncompressed (whole pages) */
	uint64_t first_ts, last_ts;	/* of its records; KMAG_TS_NONE: it has none */
	uint32_t events;	/* records */
	uint32_t missing;	/* pages flagged "events lost before" */
	uint64_t lost;		/* the CPU's lost events (kernel stats) when it was closed */
};

struct fl_ring {
	int cpu;
	int fd;
	char *path;
	uint64_t cap;		/* file size */
	uint64_t head;		/* where the next block goes */
	struct fl_block *b;	/* live blocks, oldest first: [first, first + count) mod capb */
	size_t first, count, capb;
	uint64_t next_seq;
	uint64_t dropped_upto;	/* last_ts of the newest block dropped, 0: none dropped */
	uint64_t lost_dropped;	/* the lost count of the newest block dropped */
	uint64_t copy_seq;	/* a snapshot reads blocks from this one on (UINT64_MAX: none) */
};

struct fl_rings {
	struct fl_ring *r;
	int n;
	uint32_t max_block;	/* the most bytes a block can take */
	pthread_mutex_t lock;
	pthread_cond_t cond;	/* a pin or a copy was released */
	uint64_t pin_ts;	/* keep every block with last_ts >= this (UINT64_MAX: none) */
	bool blocked;		/* a reader waits: its ring is full of pinned blocks */
	bool stopping;		/* readers give up waiting */
	bool inited;
};

/* One CPU's part of a window: the blocks to copy, oldest first. */
struct fl_part {
	int cpu;
	struct tdw_chunk *chunks;
	size_t nr;
	uint64_t events, first_ts, last_ts, missing, lost, bytes;
};

/* What a snapshot copies. */
struct fl_window {
	struct fl_part *parts;	/* one per ring */
	int n;
	uint64_t start_ts;	/* the window's start: the newest data any ring dropped (0: none) */
	uint64_t first_ts, last_ts;	/* of the records copied */
	uint64_t events, lost, missing, bytes;
};

/*
 * Stores the @len bytes at @src as a zstd frame of raw (uncompressed)
 * blocks at @dst (room: @cap; a block of FL_BLOCK_PAGES pages always fits
 * kmag__fl_max_block()): a chunk any zstd decoder reads, at the cost of a
 * copy. Returns the frame's size, or 0 when @cap is too small.
 */
size_t kmag__fl_store_raw(void *dst, size_t cap, const void *src, size_t len);

/* The most bytes one block of @page_size pages can take compressed. */
uint32_t kmag__fl_max_block(uint32_t page_size);

/* Is @size enough for one block per CPU of @n? 0, or -EINVAL with @err set. */
int kmag__fl_check_size(uint64_t size, int n, uint32_t page_size, struct kmag_err *err);

/*
 * Creates a ring per CPU in @cpus[0..@n) as "<base>-ring-cpuN", SIZE/@n
 * bytes each, allocated now (a full disk is found here, not later). Returns
 * 0 or -errno with @err set: -EINVAL when a ring cannot hold one block.
 */
int kmag__fl_rings_init(struct fl_rings *fr, const char *base, const int *cpus, int n,
			uint64_t size, uint32_t page_size, struct kmag_err *err);
/* Closes and removes the ring files. Accepts a never-initialized (zeroed) @fr. */
void kmag__fl_rings_release(struct fl_rings *fr);

/*
 * Appends block @z (@meta->csize bytes; the other fields describe it) to
 * ring @i, dropping the oldest blocks for room. While the room holds blocks
 * a pin or a copy keeps, it waits (fr->blocked set) until they are released
 * or fr->stopping. Thread-safe. Returns 0, -EAGAIN when stopped while
 * waiting (the block is not stored), or -errno of the write.
 */
int kmag__fl_append(struct fl_rings *fr, int i, const void *z, const struct fl_block *meta);

/* Keeps every block from @ts on (KMAG_TS_NONE/UINT64_MAX: releases). */
void kmag__fl_pin(struct fl_rings *fr, uint64_t ts);
/* True once a reader waits for room that pinned blocks hold. */
bool kmag__fl_blocked(struct fl_rings *fr);
/* Wakes waiting readers for good (they drop their block). */
void kmag__fl_stop(struct fl_rings *fr);

/*
 * The window a snapshot holds now: on every CPU the blocks newer than the
 * newest data any ring dropped (so all CPUs cover the same time), kept
 * from being overwritten until kmag__fl_window_release(). Returns 0 or
 * -ENOMEM.
 */
int kmag__fl_window(struct fl_rings *fr, struct fl_window *w);
void kmag__fl_window_release(struct fl_rings *fr, struct fl_window *w);

/*
 * Writes the window @w as trace.dat v7 (zstd) to @fd: metadata @m, the tail
 * @t (its cpus are filled here from @w; nr_cpus set by the caller). Returns
 * 0 or -errno with @err set.
 */
int kmag__fl_write(struct fl_rings *fr, const struct fl_window *w, int fd, uint32_t page_size,
		   const struct tdw_meta *m, struct tdw_tail *t, struct kmag_err *err);

/*
 * Describes the @len bytes of whole pages at @pages for a block: records,
 * first and last time, pages flagged with lost events. Returns 0 or -EINVAL
 * for a malformed page.
 */
int kmag__fl_describe(const struct kmag_page_geom *g, const uint8_t *pages, size_t len,
		      struct fl_block *b);

/* ------------------------------------------------ the recording's state */

/*
 * A block's pages on their way to the watcher. The buffers go round: a
 * reader fills one (its own spares first, then those the watcher handed
 * back, else a new one), pushes it on its CPU's incoming stack, the watcher
 * takes the whole stack, watches the blocks in order and pushes each
 * buffer on the CPU's freed stack. Nothing there is locked: a reader never
 * waits for the watcher, which runs below it (see flight-watch.c).
 */
struct fl_qblock {
	struct fl_qblock *next;
	uint32_t len;		/* bytes of whole pages */
	bool gap_before;	/* blocks before it were not watched */
	uint8_t data[];		/* FL_BLOCK_PAGES pages */
};

/* One recorded CPU (the index of r->cpus). */
struct fl_cpu {
	/* its reader's */
	uint8_t *blk;		/* the block being filled: up to FL_BLOCK_PAGES pages */
	uint32_t npages;
	uint8_t *z;		/* compressed */
	void *zc;		/* ZSTD_CCtx */
	uint64_t lost;		/* the CPU's lost events (kernel stats), last read */
	bool behind;		/* this drain stores its blocks uncompressed */
	bool gap;		/* a block was not handed to the watcher */
	struct fl_qblock *spare;	/* buffers to fill */
	/* between the reader and the watcher (atomics, no lock) */
	_Atomic(struct fl_qblock *) incoming;	/* pushed, newest first */
	_Atomic(struct fl_qblock *) freed;	/* watched, for the reader to reuse */
	_Atomic uint64_t hw;	/* every event up to this time was pushed (0: none known) */
	_Atomic size_t queued;	/* buffer bytes pushed, not yet watched */
	/* the watcher's */
	struct fl_qblock *list, *list_tail;	/* taken from incoming, oldest first */
	uint32_t page_off;	/* next page of list */
	bool in_page;
	struct kmag_page_walk walk;
	uint64_t hw_seen;
	bool have;		/* ev is its next event */
	struct kmag_event ev;
};

struct fl_state {
	struct fl_rings rings;
	struct fl_cpu *cpu;	/* r->nr_rec entries */
	int n;
	struct kmag_page_geom geom;
	uint64_t after_ns;
	unsigned max_snapshots, written;
	char *btf;		/* /sys/kernel/btf/vmlinux, for the snapshots and the types */
	size_t btf_size;
	struct kmag__trigger *trig;
	size_t ntrig;
	/* the watcher (flight-watch.c) */
	pthread_t thread;
	bool started;
	int wake_fd;		/* eventfd: blocks were pushed, or stop/rearm (-1: none yet) */
	_Atomic bool sleeping;	/* the watcher waits on wake_fd */
	size_t max_queued;	/* a CPU's queued at most (flight-watch.c) */
	_Atomic uint64_t unwatched;	/* bytes not watched (it fell behind) */
	_Atomic uint64_t stored_raw;	/* bytes the readers stored uncompressed (flight-capture.c) */
	pthread_mutex_t lock;	/* the watcher's state below, with the main thread */
	bool stop;		/* the readers are done: take everything and end */
	bool rearm;		/* the window was taken: open the next one */
	struct tep_handle *tep;
	struct kmag_symtab *st;
	struct kmag_decoder dec;
	bool dec_ok;
	struct kmag_btf *types;
	struct kmag__watch *w;
	/* what the watcher found (lock) */
	uint64_t watermark;	/* every event up to here was watched */
	uint64_t fires;		/* windows opened */
	struct kmag__fire fire;	/* the open window's */
	char fire_func[128], fire_root[128], fire_event[128];
	char fire_comm[32];	/* the task's name when it fired, or "" */
	struct kmag_recorder *r;
	bool window, due, cut;
	int watch_error;
	/* the API's strings */
	char *snap_path;
	char comm[32];
};

/* flight.c: /proc/PID/comm, else the kernel's saved_cmdlines, or "" */
void kmag__fl_comm(struct kmag_recorder *r, int pid, char *buf, size_t size);

/* flight-watch.c */
/* Builds the decoder from the recording's metadata and starts the watcher. */
struct kmag_recorder;
int kmag__fl_watch_start(struct kmag_recorder *r, struct fl_state *fl, struct kmag_err *err);
/* The most buffer bytes a CPU may have queued for the watcher (see flight-watch.c). */
size_t kmag__fl_watch_bound(const struct fl_state *fl);
/* Hands a reader's block of pages to the watcher (reader threads). */
void kmag__fl_watch_push(struct fl_state *fl, int i, const uint8_t *pages, uint32_t len);
/* Every event of reader @i up to @ts is queued (it found its buffer empty). */
void kmag__fl_watch_hw(struct fl_state *fl, int i, uint64_t ts);
/* The readers are done: the watcher takes the rest, then ends (joined here). */
void kmag__fl_watch_stop(struct fl_state *fl);
void kmag__fl_watch_free(struct fl_state *fl);

#endif /* KMAG_FLIGHT_H */
