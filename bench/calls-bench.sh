#!/bin/bash
# SPDX-License-Identifier: MIT
# calls-bench.sh - the explorer's Calls view on a trace of a million calls
# (issue 15): `kmag html` time and peak RSS, the page's size, and in Chromium
# the page load and the time to open a call tree (target: under 100 ms).
#
#   bench/calls-bench.sh [CALLS]
#
# CALLS (default 1000000): function_graph calls in the trace, made by
# repeating the largest fixture (fg-all-cpu0, unfiltered function_graph) with
# gen-big-tracedat. Also measures the largest fixture itself. Page timings
# need node, /usr/bin/chromium and playwright-core (npm ci into $WORK/node).
set -euo pipefail
cd "$(dirname "$0")/.."
CALLS=${1:-1000000}
. bench/lib.sh

bench_build
xz -dc tests/fixtures/traces/fg-all-cpu0-v6.dat.xz >"$WORK/largest.dat"

calls_in() {	# function_graph calls in a trace: the sum of the functions' calls
	"$KMAG" report -F json --limit 0 "$1" |
		python3 -c 'import json,sys; print(sum(f["calls"] for f in json.load(sys.stdin)["functions"]))'
}
# the file's metadata (kallsyms, formats) does not repeat: calls grow with the
# size above the seed's, measured on a 64 MB copy
seed_calls=$(calls_in "$WORK/largest.dat")
seed_mb=$(( $(stat -c %s "$WORK/largest.dat") >> 20 ))
"$BUILD/bench/gen-big-tracedat" "$WORK/largest.dat" "$WORK/calls.dat" 64 >/dev/null
probe_calls=$(calls_in "$WORK/calls.dat")
size_mb=$(( (seed_mb + (CALLS - seed_calls) * (64 - seed_mb) / (probe_calls - seed_calls)) * 103 / 100 + 1 ))
"$BUILD/bench/gen-big-tracedat" "$WORK/largest.dat" "$WORK/calls.dat" "$size_mb" >/dev/null
grep -m1 'model name' /proc/cpuinfo
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"

if [ ! -f "$WORK/node/node_modules/playwright-core/package.json" ] && command -v node >/dev/null; then
	mkdir -p "$WORK/node"
	cp tests/browser/package.json tests/browser/package-lock.json "$WORK/node/"
	(cd "$WORK/node" && npm ci --no-audit --no-fund --loglevel=error) >&2
fi
for input in "$WORK/largest.dat" "$WORK/calls.dat"; do
	echo "== $(basename "$input"): $(stat -c %s "$input") bytes, $(calls_in "$input") calls"
	/usr/bin/time -o "$WORK/time.out" -f "%e %U %S %M" "$KMAG" html -o "$input.html" "$input" 2>/dev/null
	read -r wall user sys rss <"$WORK/time.out"
	printf 'kmag html: %.2f s wall, %.2f s cpu, %d MB peak RSS; page %s bytes\n' "$wall" \
		"$(awk "BEGIN{print $user+$sys}")" "$((rss / 1024))" "$(stat -c %s "$input.html")"
	if command -v node >/dev/null && [ -x /usr/bin/chromium ]; then
		KMAG_NODE_MODULES="$WORK/node/node_modules" node bench/calls-open.js "$input.html"
	fi
done
