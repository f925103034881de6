#!/bin/bash
# SPDX-License-Identifier: MIT
# record-vs-trace-cmd.sh - kmag record against trace-cmd record: the same
# workload, tracer, filters and per-CPU buffer size, in the same VM (a real
# Debian kernel under QEMU, tests/vm/vm-run.sh). Prints one table row per
# recording: events captured, events lost (the kernel's per-CPU overrun +
# commit overrun + dropped counters, as stored in each file), file size and
# the recorder's CPU time (user + system, threads and children included).
#
#   bench/record-vs-trace-cmd.sh [--kernel 6.1|6.12] [--buf KB] [--dur SEC]
#                                [--runs N] [--scenarios "fn-pid fg-g fn-sys fg-sys"]
#
# Scenarios (workload: a read loop pinned to each of the 2 vCPUs):
#   fn-pid  function tracer, 7 broad -l globs, only the workload (-P -c)
#   fg-g    function_graph below ksys_read/ksys_write/do_sys_openat2 (-g), -P -c
#   fn-sys  function tracer, the same globs, system-wide
#   fg-sys  function_graph limited to the same globs, system-wide
# Defaults: --kernel 6.1 --buf 1408 (the kernel's default size) --dur 4 --runs 1.
set -euo pipefail
cd "$(dirname "$0")/.."
kernel=6.1 buf=1408 dur=4 runs=1 scenarios="fn-pid fg-g fn-sys fg-sys"
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--buf) buf=$2; shift 2 ;;
	--dur) dur=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--scenarios) scenarios=$2; shift 2 ;;
	*) echo "usage: $0 [--kernel K] [--buf KB] [--dur SEC] [--runs N] [--scenarios LIST]" >&2; exit 2 ;;
	esac
done
BUILD=${BUILD:-build-bench}
WORK=${WORK:-/tmp/kmag-bench-record}
if [ ! -f "$BUILD/build.ninja" ]; then
	meson setup "$BUILD" -Dbuildtype=release >/dev/null
fi
ninja -C "$BUILD" >/dev/null
KMAG=$PWD/$BUILD/kmag
rm -rf "$WORK"
mkdir -p "$WORK"
printf '#!/bin/sh\nBUF=%s DUR=%s RUNS=%s SCENARIOS="%s" exec sh /kmag/record-guest.sh\n' \
	"$buf" "$dur" "$runs" "$scenarios" >"$WORK/guest.sh"
tests/vm/vm-run.sh --kernel "$kernel" --cpus 2 --mem 2048 --disk 2048 --timeout 3600 \
	--bin "$KMAG" --bin trace-cmd --file tests/vm/record/wl.sh:/kmag/wl.sh \
	--file bench/record-guest.sh:/kmag/record-guest.sh \
	--script "$WORK/guest.sh" --out "$WORK/out" >&2
O=$WORK/out

captured() { trace-cmd report -R "$1" 2>/dev/null | grep -cE '^ *[^ ].* \[[0-9]+\] +[0-9]+\.[0-9]+: '; }
lost() {
	trace-cmd report --stat "$1" 2>/dev/null |
		awk -F': *' '$1 == "overrun" || $1 == "commit overrun" || $1 == "dropped events" { s += $2 } END { print s + 0 }'
}
cpu() { awk -v k="$2" '$1 == k { printf "%.3f", $2 }' "$1"; }

echo "kernel $(cat "$O/vm-info.txt" | sed -n 's/^kernel_version=//p'), 2 vCPUs (TCG), -b $buf KiB/CPU, $dur s per recording"
printf '| %-7s | %-9s | %3s | %10s | %10s | %7s | %9s | %11s | %9s |\n' scenario recorder run captured lost "lost %" \
	"size MB" "capture CPU" "total CPU"
printf '|%s|\n' "---------|-----------|-----|------------|------------|---------|-----------|-------------|-----------"
for s in $scenarios; do
	for r in $(seq "$runs"); do
		for tool in kmag trace-cmd; do
			f=$O/$s-$tool-$r.dat
			if [ ! -s "$f" ]; then
				printf '| %-7s | %-9s | %3s | %10s |\n' "$s" "$tool" "$r" "no file"
				continue
			fi
			c=$(captured "$f")
			l=$(lost "$f")
			printf '| %-7s | %-9s | %3s | %10s | %10s | %6.2f%% | %9.2f | %9s s | %7s s |\n' "$s" "$tool" "$r" \
				"$c" "$l" "$(awk -v c="$c" -v l="$l" 'BEGIN { print (c + l) ? 100 * l / (c + l) : 0 }')" \
				"$(awk -v b="$(stat -c %s "$f")" 'BEGIN { print b / 1e6 }')" \
				"$(cpu "$O/$s-$tool-$r.time" capture)" "$(cpu "$O/$s-$tool-$r.time" cpu)"
		done
	done
done
