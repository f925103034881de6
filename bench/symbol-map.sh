#!/bin/bash
# symbol-map.sh - times `kmag generate-symbol-map` on Debian's real debug
# vmlinux (and optionally all its modules), and loading the map in a report.
# Prints wall time, CPU time and peak RSS per run. Not run by meson.
#
# Usage: bench/symbol-map.sh [-k VMLINUX] [-m MODULES_DIR] [-r RUNS] [-t TRACE]
#   -k  default: bench/fetch-dbg-vmlinux.sh (downloads ~280 MB once)
#   -m  also time a run with the modules (default: the dbg package's modules
#       directory next to the fetched vmlinux, if any; "-m none" to skip)
#   -r  runs of the vmlinux-only case (default 3)
#   -t  a trace.dat of that kernel to time `kmag report` with and without the map
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
KMAG=${KMAG:-$here/../build/kmag}
vmlinux= modules= runs=3 trace=
while getopts "k:m:r:t:" o; do
	case $o in
	k) vmlinux=$OPTARG ;;
	m) modules=$OPTARG ;;
	r) runs=$OPTARG ;;
	t) trace=$OPTARG ;;
	*) sed -n '2,13p' "$0"; exit 2 ;;
	esac
done
[ -n "$vmlinux" ] || vmlinux=$("$here/fetch-dbg-vmlinux.sh")
if [ -z "$modules" ]; then
	rel=${vmlinux##*/vmlinux-}
	d="${vmlinux%/boot/*}/lib/modules/$rel"
	[ -d "$d" ] && modules=$d
fi
[ "$modules" = none ] && modules=
work=$(mktemp -d "${TMPDIR:-/tmp}/kmag-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

measure() {	# label cmd...: one line "label: wall s, user s, sys s, peak RSS MiB"
	local label=$1; shift
	/usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" >/dev/null 2>"$work/err" ||
		{ cat "$work/err" >&2; return 1; }
	read -r e u s m <"$work/time"
	printf '%-34s wall %6.2f s  user %6.2f s  sys %5.2f s  peak RSS %5d MiB\n' \
		"$label" "$e" "$u" "$s" $((m / 1024))
}

echo "# kmag generate-symbol-map on $(basename "$vmlinux") ($(du -m "$vmlinux" | cut -f1) MB)"
echo "# $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
cat "$vmlinux" >/dev/null	# page cache warm: measure kmag, not the disk
for i in $(seq "$runs"); do
	measure "vmlinux, run $i" "$KMAG" generate-symbol-map -q -k "$vmlinux" -o "$work/v.map"
done
echo "# $(grep -vc '^#' "$work/v.map") functions in the vmlinux map ($(du -k "$work/v.map" | cut -f1) KiB)"
if [ -n "$modules" ]; then
	measure "vmlinux + modules" "$KMAG" generate-symbol-map -q -k "$vmlinux" -m "$modules" -o "$work/vm.map"
	echo "# $(grep -vc '^#' "$work/vm.map") functions with $(find "$modules" -name '*.ko' | wc -l) modules ($(du -k "$work/vm.map" | cut -f1) KiB)"
fi
if [ -n "$trace" ]; then
	map=$work/v.map
	[ -n "$modules" ] && map=$work/vm.map
	measure "report, no map" "$KMAG" report --limit 20 "$trace"
	measure "report with the map" "$KMAG" report --limit 20 --symbol-file-path "$map" "$trace"
	measure "report --filter-filepath net,fs" "$KMAG" report --limit 20 --symbol-file-path "$map" \
		--filter-filepath net,fs "$trace"
fi
