/* SPDX-License-Identifier: MIT */
/*
 * fuzz-common.h - helpers shared by the libFuzzer targets: inputs are handed
 * to kmag as files (its readers take paths), kept in memory with memfd.
 */
#ifndef KMAG_FUZZ_COMMON_H
#define KMAG_FUZZ_COMMON_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kmag/callgraph.h"
#include "kmag/kmag.h"
#include "kmag/trace.h"

static inline void fuzz_log_drop(enum kmag_log_level level, const char *domain, const char *msg)
{
	(void)level;
	(void)domain;
	(void)msg;
}

/*
 * Silences kmag's log: warnings about malformed input cost more than the
 * parsing. (kmag_set_log(NULL, KMAG_LOG_WARN - 1) did not: the level enum
 * is unsigned, so -1 let everything through.)
 */
static inline void fuzz_quiet(void)
{
	kmag_set_log(fuzz_log_drop, KMAG_LOG_WARN);
}

/* Writes @data to a new memfd; returns its fd (or -1) and its path in @path. */
static inline int fuzz_memfile(const uint8_t *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("kmag-fuzz", MFD_CLOEXEC);
	size_t off = 0;

	if (fd < 0)
		return -1;
	while (off < size) {
		ssize_t n = write(fd, data + off, size - off);

		if (n <= 0) {
			close(fd);
			return -1;
		}
		off += (size_t)n;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

/* Counts the events a read delivers, then hands them to the call graph. */
struct fuzz_count {
	struct kmag_cg *cg;
	uint64_t events;
};

static inline int fuzz_count_fn(const struct kmag_event *ev, void *ctx)
{
	struct fuzz_count *c = ctx;

	c->events++;
	return c->cg ? kmag_cg_event_fn(ev, c->cg) : 0;
}

/*
 * The damage a read reports (kmag_trace_damage()) holds together: the list
 * is the first places, each of a known kind, describable in one line; the
 * totals cover the list. abort()s otherwise.
 */
static inline void fuzz_check_damage(struct kmag_trace *t)
{
	const struct kmag_damage_summary *d = kmag_trace_damage(t);
	uint64_t bytes = 0, times = 0;
	char line[512];
	size_t i;

	if (d->nr > KMAG_DAMAGE_LIST || d->nr > d->places || (d->nr && !d->list))
		abort();
	for (i = 0; i < d->nr; i++) {
		const struct kmag_damage *p = &d->list[i];

		if (p->kind < KMAG_DAMAGE_SKIPPED || p->kind > KMAG_DAMAGE_DURATION || !p->why)
			abort();
		if (p->kind == KMAG_DAMAGE_SKIPPED && !p->line)
			bytes += p->bytes;
		if (p->kind == KMAG_DAMAGE_TIME)
			times += p->events;
		kmag_damage_describe(t, p, line, sizeof(line));
		if (!memchr(line, 0, sizeof(line)) || memchr(line, '\n', strlen(line)))
			abort();
	}
	if (bytes > d->skipped_bytes || times > d->bad_times)
		abort();
}

/*
 * Opens @path as a trace and reads it all into a call graph, as `kmag report`
 * does, reading past damage; checks what it says of the damage; then reads
 * it again strictly, which must stop at the first damaged place (and only
 * there) having delivered no more events.
 */
static inline void fuzz_read_trace(const char *path, enum kmag_reader reader, bool cct)
{
	struct kmag_trace_opts topts = { .reader = reader };
	struct kmag_cg_opts copts = { .build_cct = cct };
	struct kmag_err err = { 0 };
	struct kmag_trace *t = kmag_trace_open(path, &topts, &err);
	struct fuzz_count all = { 0 }, strict = { 0 };
	uint64_t places;
	int ret;

	if (!t)
		return;
	all.cg = kmag_cg_new(&copts);
	if (!all.cg) {
		kmag_trace_close(t);
		return;
	}
	ret = kmag_trace_read(t, fuzz_count_fn, &all, &err);
	kmag_cg_finish(all.cg);
	kmag_cg_free(all.cg);
	fuzz_check_damage(t);
	places = kmag_trace_damage(t)->places;
	if (kmag_trace_damage(t)->stopped)
		abort();
	kmag_trace_close(t);
	if (ret < 0 && !places)
		return;	/* an error before any damage (out of memory, a broken container) */

	t = kmag_trace_open(path, &topts, &err);
	if (!t)
		abort();	/* it opened a moment ago */
	kmag_trace_set_strict(t, true);
	memset(&err, 0, sizeof(err));
	ret = kmag_trace_read(t, fuzz_count_fn, &strict, &err);
	if (places && (ret != -EILSEQ || !kmag_trace_damage(t)->stopped ||
		       kmag_trace_damage(t)->places != 1 || strict.events > all.events || !err.msg[0]))
		abort();
	if (!places && (ret < 0 || strict.events != all.events))
		abort();
	kmag_trace_close(t);
}

#endif
