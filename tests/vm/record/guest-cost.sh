#!/bin/sh
# SPDX-License-Identifier: MIT
# guest-cost.sh [6.1|6.19] - the recordings of the tracer's-cost VM test, run
# inside the test VM (busybox sh) by tests/vm/record/t0440-tracer-cost-vm.sh,
# which checks them on the host: kmag record --calibrate-only, then the same
# dd recorded shallow (ksys_read alone) and deep (its whole subtree), for each
# set of tracer options (6.19: the defaults, return values and call sites;
# and --args). Writes into $OUT: cal.txt, cal.log, cal.rc, SET-shallow.dat,
# SET-deep.dat with their .log and .rc, snap-*.txt, results. On 6.19 the
# functions traced are limited as in guest-record-6.19.sh (every function of
# that kernel patched takes the emulated guest minutes to switch on and off,
# for each recording and each set of options); the calibration keeps the
# recording's filter, so the calls it counts beneath ksys_read are the same.
. /kmag/lib-guest.sh
# allocate the top-level buffer as any use does, so that snapshots compare
v=$(sed -n 's/.*expanded: \([0-9]*\).*/\1/p' $T/buffer_size_kb)
[ -n "$v" ] && echo "$v" >$T/buffer_size_kb
snap base

sets=plain
limit=
if [ "${1:-6.1}" = 6.19 ]; then
	sets="plain args"
	limit="-l ksys_* -l vfs_* -l *_read_iter -l *fdget* -l *_openat*"
fi
set -f
# dd runs SCHED_FIFO, so that kmag's readers, woken as the ring fills, wait
# until it is done instead of running inside its reads: the one vCPU (see
# t0440) is the workload's own, as `taskset` makes a CPU on hardware (README
# "The tracer's own cost"). RT throttling off: dd may have the CPU for more
# than 0.95 s in a second. kmag's ring (1/16 of the free memory: 50 MiB per
# CPU here) holds a whole recording; t0440 checks that no event was lost.
echo -1 >/proc/sys/kernel/sched_rt_runtime_us
kmag record --calibrate-only $limit >cal.txt 2>cal.log
echo $? >cal.rc
check_clean cal
for s in $sets; do
	extra=
	[ $s = args ] && extra=--args
	rec $s-shallow -g ksys_read --max-graph-depth 1 $limit $extra -- chrt -f 1 dd if=/dev/zero of=/dev/null bs=64 count=20000
	rec $s-deep -g ksys_read $limit $extra -- chrt -f 1 dd if=/dev/zero of=/dev/null bs=64 count=20000
done
exit 0
