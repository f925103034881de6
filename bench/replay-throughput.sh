#!/bin/bash
# SPDX-License-Identifier: MIT
# replay-throughput.sh - events/s of `kmag replay` (every call as text, and
# as JSON Lines) written to /dev/null, next to `kmag report` reading the same
# file, and the peak memory of each (it must not grow with the trace).
#
#   bench/replay-throughput.sh [SEED.dat] [SIZE_MB]
#
# SEED (default: fg-all-cpu0, unfiltered function_graph of a real kernel) is
# replicated into a SIZE_MB (default 256) v6 file with bench/gen-big-tracedat.
# Each command runs 3 times on a warm page cache; the best run counts.
set -euo pipefail
cd "$(dirname "$0")/.."
SEED=${1:-tests/fixtures/traces/fg-all-cpu0-v6.dat.xz}
SIZE=${2:-256}
. bench/lib.sh
case $SEED in *.xz) xz -dc "$SEED" >"$WORK/replay-seed.dat"; SEED="$WORK/replay-seed.dat" ;; esac

bench_build
BIG="$WORK/replay-big-$SIZE.dat"
[ -f "$BIG" ] || "$BUILD/bench/gen-big-tracedat" "$SEED" "$BIG" "$SIZE"

events=$("$KMAG" report --format json --limit 1 "$BIG" | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])')

measure() {	# measure LABEL CMD... : best wall time of 3, its CPU time and peak RSS
	local label=$1 best="" cpu="" mem=""; shift
	for _ in 1 2 3; do
		/usr/bin/time -o "$WORK/time.txt" -f "%e %U %S %M" "$@" >/dev/null 2>&1
		read -r wall user sys rss <"$WORK/time.txt"
		if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then
			best=$wall; cpu=$(awk "BEGIN{print $user+$sys}"); mem=$rss
		fi
	done
	awk -v l="$label" -v w="$best" -v c="$cpu" -v e="$events" -v m="$mem" 'BEGIN{
		printf "%-36s %7.2f s wall %7.2f s cpu %6.1f M events/s (wall) %6.1f M events/s (cpu) %5.0f MB peak RSS\n",
			l, w, c, e/w/1e6, e/(c>0?c:w)/1e6, m/1024 }'
}

lines=$("$KMAG" replay "$BIG" 2>/dev/null | wc -l)
printf '%s events, %s MB, %s replay lines, seed %s\n' "$events" "$(($(stat -c %s "$BIG") >> 20))" "$lines" "$SEED"
grep -m1 'model name' /proc/cpuinfo
measure "kmag replay > /dev/null" "$KMAG" replay "$BIG"
measure "kmag replay --format json" "$KMAG" replay --format json "$BIG"
measure "kmag replay --min-duration 1ms" "$KMAG" replay --min-duration 1ms "$BIG"
measure "kmag report (reading alone)" "$KMAG" report --limit 1 "$BIG"
