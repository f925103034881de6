#!/bin/bash
# SPDX-License-Identifier: MIT
# callgraph-throughput.sh - events/s of building the call graph from a large
# trace.dat, next to trace-cmd report on the same file.
#
#   bench/callgraph-throughput.sh [SEED.dat] [SIZE_MB]
#
# SEED (default: fg-all-cpu0, unfiltered function_graph of a real kernel) is a real recording; it is
# replicated into a SIZE_MB (default 256) v6 file with bench/gen-big-tracedat
# and converted to v7+zstd with trace-cmd. Each tool runs 3 times on a warm
# page cache; the best run counts. CPU time is user+system of the process.
set -euo pipefail
cd "$(dirname "$0")/.."
SEED=${1:-}
SIZE=${2:-256}
. bench/lib.sh

if [ -z "$SEED" ]; then
	for c in tests/fixtures/traces/fg-all-cpu0-v6.dat.xz tests/fixtures/traces/fg-*.dat; do
		[ -f "$c" ] && { SEED=$c; break; }
	done
fi
[ -n "$SEED" ] || { echo "no seed trace found; pass one" >&2; exit 1; }
case $SEED in *.xz) xz -dc "$SEED" >"$WORK/seed.dat"; SEED="$WORK/seed.dat" ;; esac

bench_build

trace-cmd convert --file-version 6 --compression none -i "$SEED" -o "$WORK/seed-v6.dat" >/dev/null 2>&1
"$BUILD/bench/gen-big-tracedat" "$WORK/seed-v6.dat" "$WORK/big-v6.dat" "$SIZE"
if [ ! -f "$WORK/big-v7.dat" ] || [ "$WORK/big-v7.dat" -ot "$WORK/big-v6.dat" ]; then
	trace-cmd convert --file-version 7 --compression zstd -i "$WORK/big-v6.dat" -o "$WORK/big-v7.dat" >/dev/null 2>&1
fi

events=$("$KMAG" report --format json --limit 1 "$WORK/big-v6.dat" | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])')

measure() {	# measure LABEL CMD... -> best wall, its cpu time
	local label=$1 best="" cpu=""; shift
	for _ in 1 2 3; do
		local t
		/usr/bin/time -o "$WORK/time.txt" -f "%e %U %S %M" "$@" >/dev/null 2>&1
		read -r wall user sys rss <"$WORK/time.txt"
		if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then
			best=$wall; cpu=$(awk "BEGIN{print $user+$sys}"); mem=$rss
		fi
	done
	awk -v l="$label" -v w="$best" -v c="$cpu" -v e="$events" -v m="$mem" 'BEGIN{
		printf "%-44s %8.2f s wall %8.2f s cpu %9.1f M events/s (cpu) %7.0f MB peak RSS\n", l, w, c, e/(c>0?c:w)/1e6, m/1024 }'
}

printf '%s events, v6 %s MB, v7 %s MB, seed %s\n' "$events" \
	"$(($(stat -c %s "$WORK/big-v6.dat") >> 20))" "$(($(stat -c %s "$WORK/big-v7.dat") >> 20))" "$SEED"
cat /proc/cpuinfo | grep -m1 'model name'
measure "kmag report (built-in reader, v6)" "$KMAG" report --limit 1 "$WORK/big-v6.dat"
measure "kmag report (built-in reader, v7 zstd)" "$KMAG" report --limit 1 "$WORK/big-v7.dat"
measure "kmag report --reader libtracecmd (v6)" "$KMAG" report --reader libtracecmd --limit 1 "$WORK/big-v6.dat"
measure "trace-cmd report (v6)" trace-cmd report "$WORK/big-v6.dat"
measure "trace-cmd report (v7 zstd)" trace-cmd report "$WORK/big-v7.dat"
