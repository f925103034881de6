#!/bin/sh
# SPDX-License-Identifier: MIT
# wl.sh KIND [N] - small, mostly deterministic workloads for the recorder
# tests and the benchmark (installed as /kmag/wl.sh in the test VM).
#   basic N    N rounds of file-system work: ls, cat of /proc files, dd of a
#              few KiB to /tmp and back, a short shell loop writing a file
#   twocpu N   basic N pinned to CPU 0 and to CPU 1 at the same time
#   busy N     N rounds of cat /proc/version + ls / (a steady stream of syscalls)
#   loop       busy until killed (for -P tests)
kind=${1:-basic}
n=${2:-1}
case $kind in
basic)
	r=0
	while [ $r -lt "$n" ]; do
		ls / >/dev/null
		cat /proc/version /proc/meminfo >/dev/null
		for i in 1 2 3; do
			dd if=/dev/zero of=/tmp/wl$$-$i bs=4k count=$i 2>/dev/null
		done
		cat /tmp/wl$$-1 /tmp/wl$$-2 >/dev/null
		i=0
		while [ $i -lt 5 ]; do echo $i >/tmp/wl$$-loop; i=$((i + 1)); done
		rm -f /tmp/wl$$-1 /tmp/wl$$-2 /tmp/wl$$-3 /tmp/wl$$-loop
		r=$((r + 1))
	done
	;;
twocpu)
	taskset 1 "$0" basic "$n" &
	taskset 2 "$0" basic "$n" &
	wait
	;;
busy)
	i=0
	while [ $i -lt "$n" ]; do
		cat /proc/version >/dev/null
		ls / >/dev/null
		i=$((i + 1))
	done
	;;
loop)
	# dd, not cat: busybox cat copies with sendfile(2), which skips vfs_read
	while :; do dd if=/proc/version of=/dev/null 2>/dev/null; done
	;;
*)
	echo "wl.sh: unknown workload $kind" >&2
	exit 2
	;;
esac
