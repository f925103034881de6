#!/bin/bash
# SPDX-License-Identifier: MIT
# report-vs.sh - the CPU time of `kmag report` on a large trace.dat, this
# tree's release build against another kmag (an older commit's build), in
# turn A B A B ..., so a comparison holds while the machine's speed drifts.
#
#   bench/report-vs.sh OTHER_KMAG [RUNS] [SEED.dat] [SIZE_MB]
#
# SEED (default: fg-all-cpu0, unfiltered function_graph of a real kernel) is
# replicated into a SIZE_MB (default 256) v6 file with bench/gen-big-tracedat.
# Prints each run's CPU seconds (user+system) and peak RSS, then the medians
# and the median of the per-pair ratios A/B. Both must print the same report.
# An older commit's build: git worktree add /tmp/kmag-old COMMIT &&
# meson setup /tmp/kmag-old/build-rel -Dbuildtype=release && ninja -C ... kmag
set -euo pipefail
cd "$(dirname "$0")/.."
OTHER=${1:?usage: bench/report-vs.sh OTHER_KMAG [RUNS] [SEED.dat] [SIZE_MB]}
RUNS=${2:-9}
SEED=${3:-tests/fixtures/traces/fg-all-cpu0-v6.dat.xz}
SIZE=${4:-256}
. bench/lib.sh
case $SEED in *.xz) xz -dc "$SEED" >"$WORK/report-seed.dat"; SEED="$WORK/report-seed.dat" ;; esac

bench_build
BIG="$WORK/replay-big-$SIZE.dat"
[ -f "$BIG" ] || "$BUILD/bench/gen-big-tracedat" "$SEED" "$BIG" "$SIZE"
cmp -s <("$KMAG" report "$BIG" 2>&1) <("$OTHER" report "$BIG" 2>&1) ||
	echo "note: the two builds print different reports" >&2

run() {	# run KMAG: "CPU_S RSS_KB" of one report
	/usr/bin/time -o "$WORK/time.txt" -f "%U %S %M" "$1" report "$BIG" >/dev/null 2>&1
	awk '{ printf "%.3f %d\n", $1 + $2, $3 }' "$WORK/time.txt"
}
run "$KMAG" >/dev/null; run "$OTHER" >/dev/null	# warm the page cache
: >"$WORK/pairs.txt"
for i in $(seq "$RUNS"); do
	read -r a ma < <(run "$KMAG")
	read -r b mb < <(run "$OTHER")
	printf '%2d  A %s s %6d KiB   B %s s %6d KiB\n' "$i" "$a" "$ma" "$b" "$mb"
	echo "$a $b" >>"$WORK/pairs.txt"
done
python3 - "$WORK/pairs.txt" <<'PY'
import statistics, sys
p = [tuple(map(float, l.split())) for l in open(sys.argv[1])]
a = statistics.median(x for x, _ in p); b = statistics.median(y for _, y in p)
r = sorted(x / y for x, y in p if y > 0)
print("median CPU: A %.3f s, B %.3f s; A/B per pair: median %.3f (min %.3f, max %.3f)"
      % (a, b, statistics.median(r), r[0], r[-1]))
PY
