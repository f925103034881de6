#!/bin/sh
# SPDX-License-Identifier: MIT
# record-guest.sh - the guest half of bench/record-vs-trace-cmd.sh: the same
# workload recorded by kmag and by trace-cmd, same tracer, filters and
# per-CPU buffer size, one after the other in the same VM. Each recorder
# traces DUR seconds counted from the moment tracing is switched on; its
# CPU time (user + system, threads and children included) is taken from the
# shell's `times` (reaped children) around it. Environment: BUF (KiB per CPU), DUR (seconds), RUNS (repeats),
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

# stop_after_on FILE PID: SIGINT to PID once tracing_on FILE reads 1 for DUR s
stop_after_on() {
	while [ "$(cat "$1" 2>/dev/null)" != 1 ]; do
		kill -0 "$2" 2>/dev/null || return
		sleep 0.05
	done
	sleep "$DUR"
	kill -INT "$2"
}

# CPU seconds (user + system) of this shell's reaped children in FILE, as
# written by `times` (run in this shell: $(...) would ask a subshell); the
# recorder is reaped right after it ends, the workload only later
cpu_of() {
	tail -n 1 "$1" | awk '{
		for (i = 1; i <= 2; i++) { split($i, ms, "m"); sub("s", "", ms[2]); t += ms[1] * 60 + ms[2] }
		printf "%.3f", t }'
}

# measure NAME-TOOL-RUN CMD...: run CMD in the background, wait, write the CPU time
measure() {
	out=$1
	shift
	times >"$OUT/.t0"
	"$@" >$out.log 2>&1 &
	rec=$!
	case $out in *-trace-cmd-*) sleep 0.2; stop_after_on $T/tracing_on $rec ;; esac
	wait $rec
	times >"$OUT/.t1"
	awk -v a="$(cpu_of "$OUT/.t1")" -v b="$(cpu_of "$OUT/.t0")" \
		'BEGIN { printf "cpu %.3f\n", a - b }' >$out.time
}

run=1
while [ $run -le "$RUNS" ]; do
	for s in $SCENARIOS; do
		start_load
		# shellcheck disable=SC2046
		measure $s-kmag-$run kmag record $(args_of $s) -b "$BUF" -t "$DUR" -o $s-kmag-$run.dat
		stop_load

		start_load
		# trace-cmd records in the top-level instance and switches tracing_on
		# there on when it starts: that is the moment to count from
		echo 0 >$T/tracing_on
		# shellcheck disable=SC2046
		measure $s-trace-cmd-$run trace-cmd record $(args_of $s) -b "$BUF" -o $s-trace-cmd-$run.dat
		stop_load
	done
	run=$((run + 1))
done
ls -l
