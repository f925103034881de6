#!/bin/bash
# SPDX-License-Identifier: MIT
# visualize.sh - end-to-end time of `kmag visualize` (read + view + chart +
# graph) on synthetic function-tracer text in the seed's format.
#
#   bench/visualize.sh [EVENTS...]      (default: 100000 1000000 2300000)
#
# bench/gen-ftrace writes each trace (~3,500 functions under ~60 entry points,
# a dozen hot lock/RCU helpers, 16 CPUs interleaved, LOST lines now and then)
# and a seed-format symbol map. Every case runs 3 times on a warm page cache
# in a scratch directory; the best wall time counts. The target from issue 4:
# the 2.3 M-event default run (both pictures) under 3 s.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${WORK:-/tmp/kmag-bench-vis}
. bench/lib.sh
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(100000 1000000 2300000)

bench_build
GEN=$BUILD/bench/gen-ftrace

measure() {	# measure LABEL CMD... : best of 3 wall, its cpu and peak RSS
	local label=$1 best="" cpu="" mem="" t wall user sys rss; shift
	for _ in 1 2 3; do
		(cd "$WORK" && /usr/bin/time -o "$WORK/time.txt" -f "%e %U %S %M" "$@" >/dev/null 2>&1)
		read -r wall user sys rss <"$WORK/time.txt"
		if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then
			best=$wall; cpu=$(awk "BEGIN{print $user+$sys}"); mem=$rss
		fi
	done
	printf '%-58s %6.2f s wall %6.2f s cpu %6.0f MB peak RSS\n' "$label" "$best" "$cpu" "$((mem / 1024))"
}

grep -m1 'model name' /proc/cpuinfo || true
echo "cores: $(nproc)"
"$GEN" --events 1 --map "$WORK/synthetic.map" >/dev/null
for n in "${SIZES[@]}"; do
	f=$WORK/fn-$n.txt
	[ -f "$f" ] || "$GEN" --events "$n" >"$f"
	echo "== $n events, $(($(stat -c %s "$f") >> 20)) MB of function-tracer text"
	measure "kmag visualize (defaults: PDF graph + PNG chart)" "$KMAG" visualize "$f"
	measure "kmag report (reading alone, for comparison)" "$KMAG" report "$f"
	measure "kmag visualize --image-name g.png" "$KMAG" visualize --image-name g.png "$f"
	measure "kmag visualize --image-name g.svg --chart-name c.svg" "$KMAG" visualize \
		--image-name g.svg --chart-name c.svg "$f"
	measure "kmag visualize --filter-filepath net" "$KMAG" visualize \
		--symbol-file-path "$WORK/synthetic.map" --filter-filepath net "$f"
	measure "kmag visualize --max-nodes 300" "$KMAG" visualize --max-nodes 300 "$f"
	(cd "$WORK" && "$KMAG" -v visualize "$f" 2>&1 >/dev/null | sed 's/^kmag: /   phases: /')
done
g=$WORK/fg-1000000.txt
[ -f "$g" ] || "$GEN" --events 1000000 --tracer function_graph >"$g"
echo "== 1000000 events of function_graph text, $(($(stat -c %s "$g") >> 20)) MB"
measure "kmag visualize --heat total" "$KMAG" visualize --heat total "$g"
measure "kmag visualize --max-nodes 0 --image-name all.pdf (every function, sfdp)" \
	"$KMAG" visualize --max-nodes 0 --image-name all.pdf --no-chart "$g"
