#!/bin/bash
# SPDX-License-Identifier: MIT
# memory-bounded.sh - peak memory of the analysis commands as the trace grows:
# it must follow the number of distinct functions and call edges, not the
# number of events.
#
#   bench/memory-bounded.sh [SIZES_MB...]     (default: 256 1024 4096)
#
# Each size is a v6 trace.dat made by bench/gen-big-tracedat from the real
# fg-all-cpu0 recording (the same workload repeated, so the functions and
# edges stay the same while the events grow). For every file it runs
# `kmag report`, `kmag flame`, `kmag export -F folded` and `kmag visualize`
# and prints wall time and peak RSS (/usr/bin/time). Needs about 1.1x the
# largest size in free space under $WORK (default /tmp/kmag-bench); the files
# are removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(256 1024 4096)
command -v /usr/bin/time >/dev/null || { echo "memory-bounded.sh: needs GNU time (apt-get install time)" >&2; exit 1; }

bench_build
xz -dc tests/fixtures/traces/fg-all-cpu0-v6.dat.xz >"$WORK/mem-seed.dat"

# measure LABEL CMD...: one line "LABEL  wall  peak RSS"
measure() {
	local label=$1; shift
	/usr/bin/time -f '%e %M' -o "$WORK/time.txt" "$@" >/dev/null 2>"$WORK/err.txt" ||
		{ echo "$label failed: $(tail -n 1 "$WORK/err.txt")" >&2; return 1; }
	read -r wall rss <"$WORK/time.txt"
	printf '| %-22s | %8s s | %7.1f MiB |\n' "$label" "$wall" "$(echo "$rss / 1024" | bc -l)"
}

echo "$("$KMAG" --version | head -n 1), $(nproc) CPUs"
for size in "${SIZES[@]}"; do
	f=$WORK/mem-$size.dat
	"$BUILD/bench/gen-big-tracedat" "$WORK/mem-seed.dat" "$f" "$size" >/dev/null
	head=$("$KMAG" report --limit 1 "$f")
	echo
	echo "== $size MB trace.dat ($(du -m "$f" | cut -f1) MB on disk)"
	echo "$head" | grep -E '^# (events|graph):'
	echo "| command                | wall       | peak RSS    |"
	echo "|------------------------|------------|-------------|"
	measure "report" "$KMAG" report --limit 20 "$f"
	measure "report --format json" "$KMAG" report --format json "$f"
	measure "flame" "$KMAG" flame -o "$WORK/mem.svg" "$f"
	measure "export -F folded" "$KMAG" export -F folded -o "$WORK/mem.folded" "$f"
	measure "visualize" "$KMAG" visualize --image-name "$WORK/mem.svg" --chart-name "$WORK/mem.png" "$f"
	rm -f "$f"
done
rm -f "$WORK/mem-seed.dat" "$WORK/mem.svg" "$WORK/mem.png" "$WORK/mem.folded"
