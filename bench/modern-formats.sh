#!/bin/bash
# SPDX-License-Identifier: MIT
# modern-formats.sh - reading cost of what Linux 6.13+ adds to function_graph
# records: events/s of `kmag report` on a trace.dat whose entries carry call
# sites and six argument registers (fgraph_retaddr_entry with args[], 56-byte
# entries) next to one of plain entries (funcgraph_entry, 24 bytes), both with
# return values, both recorded on Linux 6.19 from the same workload.
#
#   bench/modern-formats.sh [SIZE_MB]
#
# The seeds are tests/fixtures/traces/6.19/fg619-retval (plain) and
# fg619-args (retval + retaddr + args), replicated to SIZE_MB (default 256)
# with bench/gen-big-tracedat. Each command runs 5 times on a warm page
# cache; the median counts. Target (issue 13): within 1.5x in events/s.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZE=${1:-256}
. bench/lib.sh
bench_build

median_run() { # FILE -> "events median_cpu_s median_wall_s"
	local f=$1 i
	local events
	events=$("$KMAG" report --format json --limit 1 "$f" | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])')
	for i in 1 2 3 4 5; do
		/usr/bin/time -o "$WORK/time.txt" -f "%e %U %S" "$KMAG" report "$f" >/dev/null 2>&1
		awk '{ print $1, $2 + $3 }' "$WORK/time.txt"
	done | sort -k2 -n | awk -v e="$events" 'NR == 3 { print e, $2, $1 }'
}

printf '%-34s %12s %9s %9s %14s\n' seed events "cpu (s)" "wall (s)" "M events/s cpu"
declare -A rate
for seed in fg619-retval fg619-args; do
	# gen-big-tracedat replicates an uncompressed v6 file
	trace-cmd convert --file-version 6 --compression none -i "tests/fixtures/traces/6.19/$seed.dat" \
		-o "$WORK/$seed.dat" >/dev/null 2>&1
	big="$WORK/$seed-$SIZE.dat"
	[ -f "$big" ] || "$BUILD/bench/gen-big-tracedat" "$WORK/$seed.dat" "$big" "$SIZE" >/dev/null
	read -r events cpu wall < <(median_run "$big")
	rate[$seed]=$(awk -v e="$events" -v c="$cpu" 'BEGIN { printf "%.2f", e / c / 1e6 }')
	printf '%-34s %12s %9s %9s %14s\n' "$seed ($SIZE MB)" "$events" "$cpu" "$wall" "${rate[$seed]}"
done
awk -v a="${rate[fg619-retval]}" -v b="${rate[fg619-args]}" \
	'BEGIN { printf "plain / with call sites and arguments: %.2fx (target: at most 1.5x)\n", a / b }'
