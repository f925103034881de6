#!/bin/bash
# SPDX-License-Identifier: MIT
# decode-speed.sh - the trace.dat reader alone (bench/read-events: every
# event decoded and counted, no view behind it) on a large trace.dat, v6 and
# v7 zstd, in this tree's build and, to compare, in another build.
#
#   bench/decode-speed.sh [OTHER_BUILD_DIR] [SEED.dat] [SIZE_MB]
#
# OTHER_BUILD_DIR is a release build of another checkout (meson setup X
# -Dbuildtype=release; ninja -C X bench/read-events). The files are made as
# callgraph-throughput.sh makes them. Per build and file: CPU time of 7
# passes (min and median; on a shared machine the median moves with the
# load) and, with valgrind, the instructions of one pass (cachegrind), which
# do not.
set -euo pipefail
cd "$(dirname "$0")/.."
OTHER=${1:-}
SEED=${2:-tests/fixtures/traces/fg-all-cpu0-v6.dat.xz}
SIZE=${3:-256}
. bench/lib.sh

case $SEED in *.xz) xz -dc "$SEED" >"$WORK/seed.dat"; SEED="$WORK/seed.dat" ;; esac
bench_build
ninja -C "$BUILD" bench/read-events >/dev/null
trace-cmd convert --file-version 6 --compression none -i "$SEED" -o "$WORK/seed-v6.dat" >/dev/null 2>&1
"$BUILD/bench/gen-big-tracedat" "$WORK/seed-v6.dat" "$WORK/dec-v6.dat" "$SIZE" >/dev/null
trace-cmd convert --file-version 7 --compression zstd -i "$WORK/dec-v6.dat" -o "$WORK/dec-v7.dat" >/dev/null 2>&1

run() {	# run LABEL READ-EVENTS FILE
	local label=$1 bin=$2 f=$3 cpu ir=""
	cpu=$("$bin" "$f" 7 | awk '{ print $3 }' | sort -n |
		awk '{ v[NR] = $1 } END { printf "min %.3f s, median %.3f s", v[1], v[int((NR + 1) / 2)] }')
	if command -v valgrind >/dev/null; then
		ir=$(valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$bin" "$f" 1 2>&1 |
			awk '/I *refs/ { print $NF }')
		ir=", $ir instructions"
	fi
	printf '%-40s %-12s %s%s\n' "$label" "$(basename "$f")" "$cpu" "$ir"
}
for f in "$WORK/dec-v6.dat" "$WORK/dec-v7.dat"; do
	printf '%s: %s events\n' "$(basename "$f")" "$("$BUILD/bench/read-events" "$f" 1 | awk '{ print $1 }')"
	run "this tree ($BUILD)" "$BUILD/bench/read-events" "$f"
	[ -n "$OTHER" ] && run "$OTHER" "$OTHER/bench/read-events" "$f"
done
