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
kmag record --calibrate-only $limit >cal.txt 2>cal.log
echo $? >cal.rc
check_clean cal
for s in $sets; do
	extra=
	[ $s = args ] && extra=--args
	rec $s-shallow -g ksys_read --max-graph-depth 1 $limit $extra -- dd if=/dev/zero of=/dev/null bs=64 count=20000
	rec $s-deep -g ksys_read $limit $extra -- dd if=/dev/zero of=/dev/null bs=64 count=20000
done
exit 0
