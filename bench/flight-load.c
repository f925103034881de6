// SPDX-License-Identifier: MIT
/*
 * flight-load.c - the paced load of bench/flight-vm.sh: RATE one-byte reads
 * of /dev/zero per second (0: as many as it can) for SECONDS, on each of
 * the first NCPU CPUs (one process pinned to each), so that a recorder can
 * be given a known event rate. Reads are paced in 10 ms slices: each slice
 * reads what brings the count to RATE x the time elapsed, then sleeps to the
 * next one. Prints, per process, the reads done, their rate and its CPU time.
 *
 *   flight-load RATE SECONDS [NCPU]
 *
 * (No tool of the guest paces a read loop without forking per batch, which
 * under emulation costs more than the reads.)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* sched_setaffinity */
#endif
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int run(int cpu, double rate, double secs)
{
	double t0, t, next;
	unsigned long long done = 0;
	struct rusage ru;
	cpu_set_t set;
	char c;
	int fd;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("flight-load: sched_setaffinity");
	fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		perror("flight-load: /dev/zero");
		return 1;
	}
	t0 = now();
	next = t0;
	while ((t = now()) - t0 < secs) {
		unsigned long long want = rate > 0 ? (unsigned long long)(rate * (t - t0)) : done + 1000;

		while (done < want) {
			if (read(fd, &c, 1) != 1) {
				perror("flight-load: read");
				return 1;
			}
			done++;
		}
		if (rate > 0) {
			struct timespec nap;
			double left;

			next += 0.01;
			left = next - now();
			if (left > 0) {
				nap.tv_sec = 0;
				nap.tv_nsec = (long)(left * 1e9);
				nanosleep(&nap, NULL);
			}
		}
	}
	t = now() - t0;
	getrusage(RUSAGE_SELF, &ru);
	printf("flight-load: CPU %d: %llu reads in %.2f s = %.0f/s, %.3f s on CPU\n", cpu, done, t,
	       (double)done / t, (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	int ncpu, i, st, ret = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: flight-load RATE SECONDS [NCPU]\n");
		return 2;
	}
	ncpu = argc > 3 ? atoi(argv[3]) : 1;
	for (i = 1; i < ncpu; i++) {
		pid_t p = fork();

		if (p == 0)
			return run(i, atof(argv[1]), atof(argv[2]));
		if (p < 0)
			perror("flight-load: fork");
	}
	ret = run(0, atof(argv[1]), atof(argv[2]));
	while (wait(&st) > 0)
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			ret = 1;
	return ret;
}
