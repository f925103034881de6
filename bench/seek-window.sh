#!/bin/bash
# SPDX-License-Identifier: MIT
# seek-window.sh - what a --time window costs against a full pass (issue 25):
# `kmag report` on the middle 2 % of a large trace.dat's time span against
# the whole trace, v6 (flat page arrays) and v7 zstd (chunk chains).
#
#   bench/seek-window.sh [SIZES_MB...]      (default: 256 4096)
#
# Each size is a v6 trace.dat made by bench/gen-big-tracedat from the real
# fg-2cpu recording (two CPUs), and its v7 zstd twin (trace-cmd convert, as
# bench/decode-speed.sh makes them; trace-cmd converts at most 2 GiB per
# CPU, so the v7 twin of 4096 MB is of 4000 MB). Per file: CPU time (user + sys) and wall
# time of 5 runs each, the medians; the load average before. Needs about
# 1.4x the largest size free under $WORK (default /tmp/kmag-bench); the files
# are removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(256 4096)
RUNS=${RUNS:-5}
command -v /usr/bin/time >/dev/null || { echo "seek-window.sh: needs GNU time (apt-get install time)" >&2; exit 1; }
command -v trace-cmd >/dev/null || { echo "seek-window.sh: needs trace-cmd (v7 files)" >&2; exit 1; }

bench_build
xz -dc tests/fixtures/traces/fg-2cpu-v6.dat.xz >"$WORK/seek-seed.dat"

# median CMD...: "CPU WALL", the medians of $RUNS runs (seconds)
median() {
	local i
	for i in $(seq "$RUNS"); do
		/usr/bin/time -f '%U %S %e' -o "$WORK/time.txt" "$@" >/dev/null 2>"$WORK/err.txt" ||
			{ echo "failed: $* : $(tail -n 1 "$WORK/err.txt")" >&2; return 1; }
		awk '{ printf "%.2f %.2f\n", $1 + $2, $3 }' "$WORK/time.txt"
	done >"$WORK/runs.txt"
	echo "$(sort -n -k1 "$WORK/runs.txt" | awk -v n="$RUNS" 'NR == int((n + 1) / 2) { print $1 }')" \
		"$(sort -n -k2 "$WORK/runs.txt" | awk -v n="$RUNS" 'NR == int((n + 1) / 2) { print $2 }')"
}

echo "$("$KMAG" --version | head -n 1), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| file | size | events | full pass CPU / wall | 2 % window CPU / wall | CPU ratio |"
echo "|---|---:|---:|---:|---:|---:|"
for size in "${SIZES[@]}"; do
	v6=$WORK/seek-$size-v6.dat v7=$WORK/seek-$size-v7.dat
	# trace-cmd 3.1 cannot convert more than 2 GiB of one CPU ("did not match
	# size"): the v7 twin of a larger file is made of 4000 MB (2 x 1.98 GiB)
	if [ "$size" -gt 4000 ]; then
		"$BUILD/bench/gen-big-tracedat" "$WORK/seek-seed.dat" "$v6" 4000 >/dev/null
		trace-cmd convert --file-version 7 --compression zstd -i "$v6" -o "$v7" >/dev/null 2>&1
	fi
	"$BUILD/bench/gen-big-tracedat" "$WORK/seek-seed.dat" "$v6" "$size" >/dev/null
	[ -f "$v7" ] || trace-cmd convert --file-version 7 --compression zstd -i "$v6" -o "$v7" >/dev/null 2>&1
	for f in "$v6" "$v7"; do
		json=$("$KMAG" report -F json --limit 1 "$f")
		first=$(sed -n 's/.*"time_start_ns": *\([0-9]*\).*/\1/p' <<<"$json" | head -1)
		last=$(sed -n 's/.*"time_end_ns": *\([0-9]*\).*/\1/p' <<<"$json" | head -1)
		events=$(grep -o '"events": *[0-9]*' <<<"$json" | head -1 | grep -o '[0-9]*$')
		win=$(awk -v a="$first" -v b="$last" \
			'BEGIN { printf "%.9f,%.9f", (a + (b - a) * 0.49) / 1e9, (a + (b - a) * 0.51) / 1e9 }')
		read -r fc fw <<<"$(median "$KMAG" report --limit 1 "$f")"
		read -r wc ww <<<"$(median "$KMAG" report --limit 1 --time "$win" "$f")"
		printf '| %s | %s MB | %s | %s s / %s s | %s s / %s s | %s %% |\n' "$(basename "$f")" \
			"$(( $(stat -c %s "$f") / 1000000 ))" "$events" "$fc" "$fw" "$wc" "$ww" \
			"$(awk -v a="$wc" -v b="$fc" 'BEGIN { printf "%.1f", (b > 0 ? 100 * a / b : 0) }')"
	done
	rm -f "$v6" "$v7"
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -f "$WORK/seek-seed.dat"
