#!/bin/bash
# SPDX-License-Identifier: MIT
# watch-speed.sh - what the flight recorder's trigger watcher costs per
# event, on the host (no VM, no tracefs): bench/watch-speed hands a Linux
# 6.19 function_graph recording with return values and call sites, as kmag
# record makes them there (fg619-retaddr.dat; made SIZE_MB and
# SIZE_MB/2 large by gen-big-tracedat from SEED) to the watcher thread of
# lib/record/flight-watch.c as the flight readers do, with the triggers of
# bench/flight-vm.sh (error=EBADF@ksys_read, slow=ksys_read>10s: they never
# fire, so every event is decoded, merged and replayed for nothing) and with
# an error trigger on every function (error=EXDEV, with this machine's BTF
# for the return types as a recording has its kernel's). Per set: the
# instructions per event (cachegrind, the difference of the two files over
# the difference of their events, so the start-up is left out; noise-free)
# and the CPU time per event (min of 3 runs on the larger file).
#
#   bench/watch-speed.sh [SEED.dat] [SIZE_MB]
set -euo pipefail
cd "$(dirname "$0")/.."
SEED=${1:-tests/fixtures/traces/6.19/fg619-retaddr.dat}
SIZE=${2:-64}
. bench/lib.sh
bench_build
command -v valgrind >/dev/null || { echo "watch-speed.sh: needs valgrind" >&2; exit 1; }

case $SEED in *.xz) xz -dc "$SEED" >"$WORK/wseed.dat"; SEED="$WORK/wseed.dat" ;; esac
trace-cmd convert --file-version 6 --compression none -i "$SEED" -o "$WORK/wseed-v6.dat" >/dev/null 2>&1
"$BUILD/bench/gen-big-tracedat" "$WORK/wseed-v6.dat" "$WORK/watch-a.dat" $((SIZE / 2)) >/dev/null
"$BUILD/bench/gen-big-tracedat" "$WORK/wseed-v6.dat" "$WORK/watch-b.dat" "$SIZE" >/dev/null

ws=$BUILD/bench/watch-speed
instr() {	# instr FILE ARGS...: instructions of one run
	valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$ws" "$@" 2>&1 |
		awk '/I *refs/ { gsub(",", "", $NF); print $NF }'
}
events() { "$ws" "$@" | awk '{ print $1 }'; }

printf '| %-44s | %12s | %10s |\n' triggers "instr/event" "ns/event"
printf '|%s|\n' "----------------------------------------------|--------------|------------"
while IFS= read -r set; do
	# shellcheck disable=SC2086
	{
		ea=$(events "$WORK/watch-a.dat" $set) eb=$(events "$WORK/watch-b.dat" $set)
		ia=$(instr "$WORK/watch-a.dat" $set) ib=$(instr "$WORK/watch-b.dat" $set)
		cpu=$(for i in 1 2 3; do "$ws" "$WORK/watch-b.dat" $set; done |
			awk '{ print $(NF - 2) }' | sort -n | head -n 1)
	}
	printf '| %-44s | %12.0f | %10.0f |\n' "${set:-(none)}" \
		"$(awk -v a="$ia" -v b="$ib" -v x="$ea" -v y="$eb" 'BEGIN { print (b - a) / (y - x) }')" \
		"$(awk -v c="$cpu" -v e="$eb" 'BEGIN { print c * 1e9 / e }')"
done <<'EOF'
error=EBADF@ksys_read slow=ksys_read>10s
--btf error=EBADF@ksys_read slow=ksys_read>10s
--btf error=EXDEV
EOF
