#!/bin/bash
# SPDX-License-Identifier: MIT
# flight-vm.sh - does the flight recorder keep up? The same function_graph
# load recorded by plain `kmag record`, by `kmag record --flight` (pages
# copied out, described, zstd-compressed into the rings) and by a flight
# whose trigger watcher decodes and replays every event (two triggers that
# never fire), in one Linux 6.19 VM (tests/vm/vm-run.sh, TCG), with a 1 MiB
# kernel buffer per CPU so that a recorder falling behind loses events.
# Prints events/s and events lost per recording (bench/flight-guest.sh
# describes the loads).
#
#   bench/flight-vm.sh [--dur SEC] [--buf KB] [--loads "r1 r2 rw2"]
set -euo pipefail
cd "$(dirname "$0")/.."
dur=10 buf=1024 loads="r1 r2 rw2"
while [ $# -gt 0 ]; do
	case $1 in
	--dur) dur=$2; shift 2 ;;
	--buf) buf=$2; shift 2 ;;
	--loads) loads=$2; shift 2 ;;
	*) echo "usage: $0 [--dur SEC] [--buf KB] [--loads LIST]" >&2; exit 2 ;;
	esac
done
. bench/lib.sh
bench_build
. tests/vm/lib-host.sh 2>/dev/null || true
kernel=${KMAG_KERNEL_619:-}
if [ -z "$kernel" ]; then
	SRCDIR=$PWD
	kernel=$(vm_kernel_619) || { echo "no Linux 6.19 kernel (tests/vm/README.md)" >&2; exit 1; }
fi
rm -rf "$WORK/flight"
mkdir -p "$WORK/flight"
printf '#!/bin/sh\nBUF=%s DUR=%s LOADS="%s" exec sh /kmag/flight-guest.sh\n' "$buf" "$dur" "$loads" \
	>"$WORK/flight/guest.sh"
tests/vm/vm-run.sh --kernel "$kernel" --cpus 2 --mem 1024 --timeout 3600 \
	--bin "$KMAG" --file bench/flight-guest.sh:/kmag/flight-guest.sh \
	--script "$WORK/flight/guest.sh" --out "$WORK/flight/out" >&2
O=$WORK/flight/out
events() { sed -n 's/^kmag: wrote [^:]*: \([0-9,]*\) events,.*/\1/p; s/^kmag: wrote [^:]*: .*), \([0-9,]*\) events,.*/\1/p' "$1" | tr -d , | head -n 1; }
lost() {
	local l
	l=$(sed -n 's/^kmag: \([0-9,]*\) events were lost.*/\1/p; s/.*, \([0-9,]*\) events lost$/\1/p' "$1" | tr -d , | head -n 1)
	echo "${l:-0}"
}
echo "Linux 6.19 (TCG, 2 vCPUs), -b $buf KiB per CPU, $dur s per recording"
printf '| %-4s | %-22s | %10s | %9s | %8s |\n' load recorder events events/s lost
printf '|%s|\n' "------|------------------------|------------|-----------|----------"
for load in $loads; do
	for mode in plain flight watch; do
		f=$O/$mode-$load.log
		case $mode in
		plain) name="kmag record" ;;
		flight) name="--flight 256M" ;;
		watch) name="--flight + 2 triggers" ;;
		esac
		e=$(events "$f")
		printf '| %-4s | %-22s | %10s | %9.0f | %8s |\n' "$load" "$name" "${e:-?}" \
			"$(awk -v e="${e:-0}" -v d="$dur" 'BEGIN { print e / d }')" "$(lost "$f")"
	done
done
