#!/bin/bash
# SPDX-License-Identifier: MIT
# t0302-record-interrupt-host.sh - Ctrl-C or SIGTERM during `kmag record`'s
# checks and set-up stops it at once: one line ("interrupted during set-up;
# tracefs restored"), exit status 128 + the signal (130, 143), tracefs exactly
# as before (snapshots), nothing left in the output directory or the state
# directory, the traced command gone. The set-up is stopped at each named
# step with the test hook KMAG_TEST_SETUP_PAUSE=STEP:FILE (kmag creates FILE
# there and waits for the signal; include/kmag/record.h). Tracepoints, a
# uprobe and a command on this machine; function tracing is tested in the VM
# (tests/vm/record, the same steps and more). Needs root and tracefs.
. "$(dirname "$0")/lib.sh"
TR=/sys/kernel/tracing
skip() { echo "1..0 # SKIP $*"; exit 0; }
[ "$(id -u)" = 0 ] || skip "kmag record needs root"
[ -e $TR/events/sched/sched_switch/enable ] || skip "no tracefs with sched events at $TR"
export KMAG_STATE_DIR=$T/state
# Instances and probe groups are checked per run instead (kmag-PID and
# kmag_PID, this run's only): other kmag runs on this machine may have theirs.
snap() {
	sh "$SRCDIR/tests/lib/tracefs-snapshot.sh" 2>&1 | grep -Ev '^(instances:|events/kmag_[0-9]+/)' \
		>"$T/snap-$1.txt"
}
snap base

# stop NAME SIG STEP ARGS...: kmag record ARGS paused at STEP, then sent SIG
stop() {
	local name=$1 sig=$2 step=$3 pid i t0 t1 rc
	shift 3
	mkdir -p "$T/$name"
	KMAG_TEST_SETUP_PAUSE="$step:$T/$name.paused" "$KMAG" record -t 5 -o "$T/$name/t.dat" "$@" \
		>/dev/null 2>"$T/$name.log" &
	pid=$!
	for i in $(seq 200); do
		[ -e "$T/$name.paused" ] && break
		sleep 0.05
	done
	if [ ! -e "$T/$name.paused" ]; then
		t_fail "$name: kmag reaches step $step" "$(cat "$T/$name.log")"
		kill -KILL $pid 2>/dev/null
		wait $pid
		return
	fi
	t0=$(date +%s%N)
	kill -$sig $pid
	wait $pid
	rc=$?
	t1=$(date +%s%N)
	t_eq "$name: SIG$sig at step $step exits $((128 + $(kill -l $sig)))" $((128 + $(kill -l $sig))) $rc
	t_ok "$name: ... within 3 s" test $(((t1 - t0) / 1000000)) -lt 3000
	t_grep "$name: ... saying so in one line" "^kmag: interrupted (during set-up; tracefs restored|before set-up; tracefs untouched)\$" "$T/$name.log"
	# notes about other runs' leftovers it repaired may come first (other kmag runs here)
	t_eq "$name: ... one line" 1 "$(grep -cvE '^kmag: (removed|restored|cannot remove) .*killed' "$T/$name.log")"
	t_ok "$name: ... its tracefs instance is gone" test ! -e "$TR/instances/kmag-$pid"
	t_nogrep "$name: ... and its probe group" "kmag_$pid/" "$TR/dynamic_events"
	t_eq "$name: ... no file left in the output directory" "" "$(ls -A "$T/$name")"
	t_eq "$name: ... no lock or state file left" "" "$(ls -A "$T/state" 2>/dev/null | grep -v '^top.lock$')"
	snap $name
	if cmp -s "$T/snap-base.txt" "$T/snap-$name.txt"; then
		t_pass "$name: tracefs is as it was found"
	else
		t_fail "$name: tracefs is as it was found" "$(diff "$T/snap-base.txt" "$T/snap-$name.txt" | head -n 6)"
	fi
}

EV="-e sched:sched_switch --filter prev_pid!=0 -e sched:sched_wakeup"
stop checks INT functions $EV
stop checked TERM checked $EV
for step in instance buffers cpumask events tracer output readers tracing-on; do
	stop inst-$step INT $step $EV
done
stop inst-term TERM buffers $EV
for step in save-top buffers events tracing-on; do
	stop top-$step INT $step --top-instance $EV -b 2048
done
stop top-term TERM events --top-instance $EV
stop cmd INT pids $EV -- sleep 31.5
t_eq "cmd: the command is not left running" "" "$(pgrep -f '^sleep 31.5$')"
if [ -e $TR/uprobe_events ]; then
	# (the kmag ELF itself: under KMAG_VALGRIND=1, $KMAG is a wrapper script)
	stop probe INT probes --uprobe "${KMAG_REAL:-$KMAG}:main" $EV
	stop probe-on TERM tracing-on --uprobe "${KMAG_REAL:-$KMAG}:main" $EV
else
	t_skip "interrupted with a uprobe" "no uprobe_events in $TR"
fi
t_done
