#!/bin/bash
# SPDX-License-Identifier: MIT
# explore-bench.sh - speed and memory of kmag html / flame / export / diff on
# the largest fixture and on a generated graph of EDGES call edges, the page
# load of the HTML explorer in Chromium, and the Chrome-trace export of a
# large trace.dat.
#
#   bench/explore-bench.sh [EDGES] [SIZE_MB]
#
# EDGES (default 50000): call edges of the generated graph (gen-wide-graph.py).
# SIZE_MB (default 256): size of the trace.dat made from the largest fixture
# with gen-big-tracedat for the export throughput. Each command runs 3 times;
# the best wall time counts, with its CPU time and peak RSS. Page load needs
# node, /usr/bin/chromium and playwright-core (npm ci into $WORK/node).
set -euo pipefail
cd "$(dirname "$0")/.."
EDGES=${1:-50000}
SIZE=${2:-256}
. bench/lib.sh

bench_build
SEED=tests/fixtures/traces/fg-all-cpu0-v6.dat.xz
xz -dc "$SEED" >"$WORK/largest.dat"
python3 bench/gen-wide-graph.py "$EDGES" "$WORK/wide.txt"

measure() {	# measure LABEL CMD... : best of 3
	local label=$1 best="" cpu="" mem=""; shift
	for _ in 1 2 3; do
		local t wall user sys rss
		/usr/bin/time -o "$WORK/time.out" -f "%e %U %S %M" "$@" >/dev/null 2>&1 ||
			{ echo "$label: failed: $*" >&2; return 1; }
		t=$(tail -1 "$WORK/time.out")
		read -r wall user sys rss <<<"$t"
		if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then
			best=$wall; cpu=$(awk "BEGIN{print $user+$sys}"); mem=$rss
		fi
	done
	printf '%-52s %7.2f s wall %7.2f s cpu %7.0f MB peak RSS\n' "$label" "$best" "$cpu" "$((mem / 1024))"
}

graph_line() { "$KMAG" report "$1" 2>/dev/null | sed -n 's/^# graph: *//p'; }
grep -m1 'model name' /proc/cpuinfo
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
for input in "$WORK/largest.dat" "$WORK/wide.txt"; do
	name=$(basename "$input")
	echo "== $name ($(stat -c %s "$input") bytes): $(graph_line "$input")"
	measure "kmag html" "$KMAG" html -o "$WORK/$name.html" "$input"
	measure "kmag flame (SVG + folded)" "$KMAG" flame -o "$WORK/$name.svg" --folded "$WORK/$name.folded" "$input"
	measure "kmag export -F chrome" "$KMAG" export -F chrome -o "$WORK/$name.json" "$input"
	measure "kmag export -F json" "$KMAG" export -F json -o "$WORK/$name.graph.json" "$input"
	measure "kmag diff (against itself, -F html)" "$KMAG" diff -F html -o "$WORK/$name.diff.html" "$input" "$input"
	echo "   page $(stat -c %s "$WORK/$name.html") bytes, SVG $(stat -c %s "$WORK/$name.svg") bytes, chrome JSON $(stat -c %s "$WORK/$name.json") bytes"
done

if command -v node >/dev/null && [ -x /usr/bin/chromium ]; then
	if [ ! -f "$WORK/node/node_modules/playwright-core/package.json" ]; then
		mkdir -p "$WORK/node"
		cp tests/browser/package.json tests/browser/package-lock.json "$WORK/node/"
		(cd "$WORK/node" && npm ci --no-audit --no-fund --loglevel=error) >&2
	fi
	for page in "$WORK/largest.dat.html" "$WORK/wide.txt.html" "$WORK/wide.txt.diff.html"; do
		printf '%-24s ' "$(basename "$page"):"
		KMAG_NODE_MODULES="$WORK/node/node_modules" node bench/page-load.js "$page"
	done
else
	echo "(page load skipped: needs node and /usr/bin/chromium)"
fi

echo "== Chrome trace export of a ${SIZE} MB trace.dat (gen-big-tracedat from $(basename "$SEED"))"
"$BUILD/bench/gen-big-tracedat" "$WORK/largest.dat" "$WORK/big.dat" "$SIZE" >/dev/null
events=$("$KMAG" report -F json --limit 1 "$WORK/big.dat" | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])')
echo "   $events events"
rm -f "$WORK"/big*.json
measure "kmag export -F chrome (200 MB parts)" "$KMAG" export -F chrome -o "$WORK/big.json" "$WORK/big.dat"
ls "$WORK"/big*.json | while read -r f; do printf '   %s %s bytes\n' "$(basename "$f")" "$(stat -c %s "$f")"; done
measure "kmag flame (SVG + folded)" "$KMAG" flame -o "$WORK/big.svg" --folded "$WORK/big.folded" "$WORK/big.dat"
measure "kmag html" "$KMAG" html -o "$WORK/big.html" "$WORK/big.dat"
measure "kmag report (for comparison)" "$KMAG" report "$WORK/big.dat"
rm -f "$WORK"/big*.json
