#!/bin/bash
# SPDX-License-Identifier: MIT
# export-protobuf.sh - the Perfetto and pprof exports on big traces: memory
# must stay flat as the trace grows (the Perfetto trace is written as calls
# end; the pprof profile holds one sample per distinct call stack), and the
# time is compared with reading alone (report) and with the Chrome export.
#
#   bench/export-protobuf.sh [SIZES_MB...]     (default: 1024)
#
# Each size is a v6 trace.dat made by bench/gen-big-tracedat from the real
# fg-all-cpu0 recording (the same workload repeated). Outputs go through a
# pipe to wc -c (their size is printed, nothing is stored), so only the
# trace.dat needs disk space under $WORK (default /tmp/kmag-bench).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(1024)
command -v /usr/bin/time >/dev/null || { echo "export-protobuf.sh: needs GNU time (apt-get install time)" >&2; exit 1; }

bench_build
xz -dc tests/fixtures/traces/fg-all-cpu0-v6.dat.xz >"$WORK/pb-seed.dat"

# measure LABEL ARGS...: kmag ARGS to a pipe;
# "| LABEL | wall | CPU (user + sys, kmag and wc) | peak RSS | output |"
measure() {
	local label=$1 wall user sys rss; shift
	/usr/bin/time -f '%e %U %S %M' -o "$WORK/time.txt" sh -c '"$@" | wc -c >"$0"' \
		"$WORK/bytes.txt" "$KMAG" "$@" 2>"$WORK/err.txt" ||
		{ echo "$label failed: $(tail -n 1 "$WORK/err.txt")" >&2; return 1; }
	read -r wall user sys rss <"$WORK/time.txt"
	printf '| %-26s | %8s s | %8.1f s | %7.1f MiB | %9.1f MB |\n' "$label" "$wall" \
		"$(echo "$user + $sys" | bc -l)" "$(echo "$rss / 1024" | bc -l)" \
		"$(echo "$(cat "$WORK/bytes.txt") / 1000000" | bc -l)"
}

echo "$("$KMAG" --version | head -n 1), $(nproc) CPUs"
for size in "${SIZES[@]}"; do
	f=$WORK/pb-$size.dat
	"$BUILD/bench/gen-big-tracedat" "$WORK/pb-seed.dat" "$f" "$size" >/dev/null
	echo
	echo "== $size MB trace.dat ($(du -m "$f" | cut -f1) MB on disk)"
	"$KMAG" report --limit 1 "$f" | grep -E '^# (events|graph):'
	echo "| command                    | wall       | CPU        | peak RSS    | output       |"
	echo "|----------------------------|------------|------------|-------------|--------------|"
	measure "report" report --limit 20 "$f"
	measure "export -F perfetto" export -F perfetto "$f"
	measure "export -F pprof" export -F pprof "$f"
	measure "export -F chrome (1 file)" export -F chrome "$f"
	rm -f "$f"
done
rm -f "$WORK/pb-seed.dat"
