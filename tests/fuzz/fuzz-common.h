/* SPDX-License-Identifier: MIT */
/*
 * fuzz-common.h - helpers shared by the libFuzzer targets: inputs are handed
 * to kmag as files (its readers take paths), kept in memory with memfd.
 */
#ifndef KMAG_FUZZ_COMMON_H
#define KMAG_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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

/* Opens @path as a trace and reads it all into a call graph, as `kmag report` does. */
static inline void fuzz_read_trace(const char *path, enum kmag_reader reader, bool cct)
{
	struct kmag_trace_opts topts = { .reader = reader };
	struct kmag_cg_opts copts = { .build_cct = cct };
	struct kmag_err err = { 0 };
	struct kmag_trace *t = kmag_trace_open(path, &topts, &err);
	struct kmag_cg *cg;

	if (!t)
		return;
	cg = kmag_cg_new(&copts);
	if (cg) {
		kmag_trace_read(t, kmag_cg_event_fn, cg, &err);
		kmag_cg_finish(cg);
	}
	kmag_cg_free(cg);
	kmag_trace_close(t);
}

#endif
