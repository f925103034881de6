#!/bin/sh
# SPDX-License-Identifier: MIT
# guest-harden.sh - `kmag record` under a signal during its set-up and on a
# full disk, inside the test VM (busybox sh), for
# tests/vm/record/t0402-record-harden-vm.sh, which checks the files on the host.
#   Signals: kmag stops at a named set-up step (KMAG_TEST_SETUP_PAUSE=STEP:FILE,
#   include/kmag/record.h), gets SIGINT or SIGTERM there, and must exit at
#   once with 128 + the signal, say so in one line, and leave tracefs exactly
#   as it was (snapshots) with no instance, probe group or file of its own.
#   Full disk: a 24 MiB tmpfs (kmag keeps 16 MiB to finish the file) fills
#   while function_graph records; full.dat is copied to $OUT for the host.
#   A 2 MiB tmpfs is refused before anything is touched.
# Writes NAME.log, NAME.rc, NAME.sig, NAME.ms (how long kmag took to exit after the
# signal), full.dat and results (guest-side checks) into $OUT.
. /kmag/lib-guest.sh
cat $T/available_tracers >tracers.txt

# the top-level buffer is allocated on first use, for good (guest-record.sh):
# allocate it before the reference snapshot
v=$(sed -n 's/.*expanded: \([0-9]*\).*/\1/p' $T/buffer_size_kb)
[ -n "$v" ] && echo "$v" >$T/buffer_size_kb
# function_graph only at the top level (before Linux 6.12): kmag tries an
# instance first and falls back
mkdir $T/instances/probe-fg
fg_in_instances=no
grep -qw function_graph $T/instances/probe-fg/available_tracers && fg_in_instances=yes
rmdir $T/instances/probe-fg
snap base
export KMAG_STATE_DIR=/tmp/kmag-state

now_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }

# stop NAME SIG STEP ARGS...: kmag record ARGS, paused at STEP, then sent SIG
stop() {
	name=$1 sig=$2 step=$3
	shift 3
	rm -f /tmp/paused
	mkdir -p /tmp/out-$name
	KMAG_TEST_SETUP_PAUSE="$step:/tmp/paused" kmag record -t 30 -o /tmp/out-$name/t.dat "$@" \
		>$name.log 2>&1 &
	k=$!
	i=0
	while [ ! -e /tmp/paused ] && [ $i -lt 1200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if [ ! -e /tmp/paused ]; then
		fail "$name: kmag reaches step $step" "$(head -c 300 $name.log)"
		kill -KILL $k
		wait $k
		return
	fi
	echo $sig >$name.sig
	t0=$(now_ms)
	kill -$sig $k
	wait $k
	echo $? >$name.rc
	echo $(($(now_ms) - t0)) >$name.ms
	if [ -e $T/instances/kmag-$k ] || grep -q "kmag_$k/" $T/dynamic_events 2>/dev/null; then
		fail "$name: its instance or probe group is gone"
	fi
	if [ -n "$(ls -A /tmp/out-$name)" ]; then
		fail "$name: no file is left in the output directory" "$(ls -A /tmp/out-$name)"
	fi
	if [ -n "$(ls -A $KMAG_STATE_DIR 2>/dev/null | grep -v '^top.lock$')" ]; then
		fail "$name: no state file is left" "$(ls -A $KMAG_STATE_DIR)"
	fi
	same_as_base $name
}

set -f
G="-p function_graph -l ksys_* -l vfs_* -n vfs_getattr* -g ksys_read -g ksys_write --max-graph-depth 8 -e sched:sched_switch --filter prev_pid!=0"
stop checks INT functions $G
stop checked TERM checked $G
for step in instance buffers cpumask function-filter notrace graph events tracer output readers tracing-on; do
	stop fg-$step INT $step $G
done
# the saved top level (where function_graph lives before Linux 6.12, and with --top-instance)
stop fg-save-top INT save-top $G --top-instance
if [ "$fg_in_instances" = no ]; then
	# the instance made and given up for the top level, then the signal
	stop fg-fallback INT save-top $G
fi
stop fg-top-tracer TERM tracer $G --top-instance
stop fg-term-filter TERM function-filter $G
stop fg-term-tracer TERM tracer $G
stop fg-cmd INT pids $G -- sleep 31.5
if pgrep -f '^sleep 31.5$' >/dev/null; then fail "fg-cmd: the command is not left running"; else
	pass "fg-cmd: the command is not left running"; fi
stop fn-top INT tracer -p function -l 'vfs_*' --top-instance
stop fg-probe TERM probes $G --kprobe 'vfs_read count=%dx:u64'
set +f

# --- a full disk ---------------------------------------------------------------
mkdir -p /mnt/small /mnt/tiny
mount -t tmpfs -o size=2m tmpfs /mnt/tiny
kmag record -p function_graph -g ksys_read -t 5 -o /mnt/tiny/t.dat >tiny.log 2>&1
echo $? >tiny.rc
ls -A /mnt/tiny >tiny.ls
same_as_base tiny
umount /mnt/tiny

mount -t tmpfs -o size=24m tmpfs /mnt/small
# reads of one byte: each a ksys_read call tree in the graph, a steady stream
(while :; do dd if=/dev/zero of=/dev/null bs=1 count=20000 2>/dev/null; done) &
load=$!
set -f
kmag record -p function_graph -g ksys_read -t 300 -o /mnt/small/full.dat >full.log 2>&1
echo $? >full.rc
set +f
kill $load
wait $load 2>/dev/null
ls -A /mnt/small >full.ls
cp /mnt/small/full.dat full.dat 2>/dev/null
# trace-cmd in the guest reads it too (the host reads the copy)
trace-cmd report full.dat >/dev/null 2>full-tc.err
echo $? >full-tc.rc
same_as_base full
umount /mnt/small
exit 0
