#!/bin/sh
# SPDX-License-Identifier: MIT
# record-guest.sh - the guest half of bench/record-vs-trace-cmd.sh: the same
# workload recorded by kmag and by trace-cmd, same tracer, filters and
# per-CPU buffer size, one after the other in the same VM. Each recorder
# traces DUR seconds counted from the moment tracing is switched on, then
# gets SIGINT. Two CPU times (user + system, threads and children included):
# "capture", over those DUR seconds (from /proc/PID/task/*/schedstat), and
# "cpu", the whole run with set-up and writing the file (the shell's `times`). Environment: BUF (KiB per CPU), DUR (seconds), RUNS (repeats),
# SCENARIOS (names below). Writes NAME-TOOL-RUN.{dat,log,time} into $OUT.
T=/sys/kernel/tracing
BUF=${BUF:-1408}
DUR=${DUR:-4}
RUNS=${RUNS:-1}
SCENARIOS=${SCENARIOS:-fn-pid fg-g fn-sys fg-sys}
cd "$OUT" || exit 1
set -f	# the globs below are for the recorders
BROAD="-l vfs_* -l *lock* -l do_* -l *alloc* -l *fs* -l *read* -l *write*"
GROOTS="-g ksys_read -g ksys_write -g do_sys_openat2"

start_load() {
	taskset 1 /kmag/wl.sh loop &
	W0=$!
	taskset 2 /kmag/wl.sh loop &
	W1=$!
	sleep 0.3
}
stop_load() {
	kill $W0 $W1
	wait $W0 $W1 2>/dev/null
}

# The options of scenario $1 (common to both tools).
args_of() {
	case $1 in
	fn-pid) echo "-p function $BROAD -P $W0 -P $W1 -c" ;;
	fg-g) echo "-p function_graph $GROOTS -P $W0 -P $W1 -c" ;;
	fn-sys) echo "-p function $BROAD" ;;
	fg-sys) echo "-p function_graph $BROAD" ;;
	esac
}

# cpu_ns PID...: nanoseconds on CPU of these processes and all their threads,
# from schedstat (sched_clock, so not rounded to the 10 ms tick: a recorder
# that sleeps in splice() uses well under a tick per second); clock ticks from
# stat when the kernel has no schedstat (CONFIG_SCHED_INFO=n). The globs need
# `set +f`: the script turns globbing off for the recorders' arguments.
cpu_ns() {
	if [ -r /proc/self/schedstat ]; then
		(set +f; for p in "$@"; do cat /proc/$p/task/*/schedstat; done) 2>/dev/null | awk '{ t += $1 } END { printf "%.0f\n", t }'
	else
		hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
		(set +f; for p in "$@"; do cat /proc/$p/task/*/stat; done) 2>/dev/null | awk -v hz="$hz" '{ sub(/^.*\) /, ""); t += $12 + $13 } END { printf "%.0f\n", t * 1e9 / hz }'
	fi
}

# recorder_tasks PID: PID and its children (trace-cmd's per-CPU recorder processes)
recorder_tasks() {
	echo "$1"
	(set +f; cat /proc/[0-9]*/stat) 2>/dev/null | awk -v p="$1" '{ pid = $1; sub(/^.*\) /, "") } $2 == p { print pid }'
}

# capture RECORDER_PID STARTED_CHECK: once STARTED_CHECK succeeds, count the
# recorder's CPU time over DUR seconds of tracing, then stop it with SIGINT
capture() {
	until eval "$2"; do
		kill -0 "$1" 2>/dev/null || return
		sleep 0.05
	done
	tasks=$(recorder_tasks "$1")
	# shellcheck disable=SC2086
	t0=$(cpu_ns $tasks)
	sleep "$DUR"
	# shellcheck disable=SC2086
	t1=$(cpu_ns $tasks)
	kill -INT "$1"
	echo "capture $(awk -v a="$t1" -v b="$t0" 'BEGIN { printf "%.4f", (a - b) / 1e9 }')" >>"$out.time"
}

# CPU seconds (user + system) of this shell's reaped children in FILE, as
# written by `times` (run in this shell: $(...) would ask a subshell); the
# recorder is reaped right after it ends, the workload only later
cpu_of() {
	tail -n 1 "$1" | awk '{
		for (i = 1; i <= 2; i++) { split($i, ms, "m"); sub("s", "", ms[2]); t += ms[1] * 60 + ms[2] }
		printf "%.3f", t }'
}

# measure NAME-TOOL-RUN STARTED_CHECK CMD...: run CMD in the background, stop
# it after DUR s of tracing, write its capture and total CPU time
measure() {
	out=$1
	check=$2
	shift 2
	: >"$out.time"
	times >"$OUT/.t0"
	"$@" >$out.log 2>&1 &
	rec=$!
	capture $rec "$check"
	wait $rec
	times >"$OUT/.t1"
	awk -v a="$(cpu_of "$OUT/.t1")" -v b="$(cpu_of "$OUT/.t0")" \
		'BEGIN { printf "cpu %.3f\n", a - b }' >>$out.time
}

run=1
while [ $run -le "$RUNS" ]; do
	for s in $SCENARIOS; do
		start_load
		# kmag says "... Ctrl-C stops" once tracing is on
		# shellcheck disable=SC2046
		measure $s-kmag-$run "grep -q Ctrl-C $s-kmag-$run.log" \
			kmag record $(args_of $s) -b "$BUF" -t 0 -o $s-kmag-$run.dat
		stop_load

		start_load
		# trace-cmd records in the top-level instance and switches tracing_on
		# there on when it starts
		echo 0 >$T/tracing_on
		# shellcheck disable=SC2046
		measure $s-trace-cmd-$run "[ \"\$(cat $T/tracing_on)\" = 1 ]" \
			trace-cmd record $(args_of $s) -b "$BUF" -o $s-trace-cmd-$run.dat
		stop_load
	done
	run=$((run + 1))
done
ls -l
