// SPDX-License-Identifier: MIT
/*
 * read-events - the trace reader alone: every event of a trace decoded and
 * handed to a callback that only counts it, N times over, with the CPU time
 * of each pass (getrusage), so a change to the decoder shows apart from the
 * views behind it (bench/decode-speed.sh compares two builds).
 *
 *   read-events TRACE [PASSES] [ordered|unordered]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "kmag/trace.h"

static int count(const struct kmag_event *ev, void *ctx)
{
	(void)ev;
	++*(uint64_t *)ctx;
	return 0;
}

static double cpu_now(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
	       ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) / 1e6;
}

int main(int argc, char **argv)
{
	struct kmag_trace_opts o = { .unordered = argc > 3 && !strcmp(argv[3], "unordered") };
	int passes = argc > 2 ? atoi(argv[2]) : 1, i;

	if (argc < 2) {
		fprintf(stderr, "usage: read-events TRACE [PASSES] [ordered|unordered]\n");
		return 2;
	}
	for (i = 0; i < passes; i++) {
		struct kmag_err err = { 0 };
		struct kmag_trace *t = kmag_trace_open(argv[1], &o, &err);
		uint64_t n = 0;
		double t0;

		if (!t) {
			fprintf(stderr, "read-events: %s\n", err.msg);
			return 1;
		}
		t0 = cpu_now();
		if (kmag_trace_read(t, count, &n, &err) < 0) {
			fprintf(stderr, "read-events: %s\n", err.msg);
			return 1;
		}
		printf("%" PRIu64 " events %.3f s cpu %.1f M events/s\n", n, cpu_now() - t0,
		       (double)n / (cpu_now() - t0) / 1e6);
		kmag_trace_close(t);
	}
	return 0;
}
