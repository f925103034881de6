#!/bin/bash
# SPDX-License-Identifier: MIT
# flight-vm.sh - does the flight recorder keep up? The same function_graph
# load recorded by plain `kmag record`, by `kmag record --flight` (pages
# copied out, described, zstd-compressed into the rings) and by a flight
# whose trigger watcher decodes and replays every event (two triggers that
# never fire), in one Linux 6.19 VM (tests/vm/vm-run.sh, TCG), with a small
# kernel buffer per CPU so that a recorder falling behind loses events. The
# load (bench/flight-load.c) makes a set number of one-byte reads per second,
# from a few thousand to flat out on one CPU and on both. Prints, per load
# and recorder, the events recorded per second of the recording, the events
# the kernel lost (its per-CPU counters, as kmag reports them), what the
# watcher left unwatched, what the readers stored uncompressed (behind the
# kernel's buffer), the recorder's CPU time (bench/flight-guest.sh) and
# the host's load then (its 1-minute load average, sampled every 5 s while
# the VM runs: the guest's wall clock is the host's, and on a shared host the
# emulated guest's speed follows it). KMAG_VM_ACCEL picks QEMU's accelerator
# (tests/vm/vm-run.sh; default tcg,thread=single, in which both vCPUs are
# one host thread: tcg,thread=multi gives each its own). --also NAME=KMAG
# (repeatable) records the flights with another kmag build too (say, the
# code before a change: its rows are "NAME: --flight ..."), in the same run:
# emulated time is not real time, so compare rates within one run only.
#
#   bench/flight-vm.sh [--dur SEC] [--buf KB] [--loads "1000:1 2000:1 4000:1 8000:1 0:1 0:2"]
#                      [--also NAME=KMAG]...
set -euo pipefail
cd "$(dirname "$0")/.."
dur=5 buf=1024 loads="1000:1 2000:1 4000:1 8000:1 0:1 0:2" also=() names=""
while [ $# -gt 0 ]; do
	case $1 in
	--also)
		case $2 in
		[a-z]*=?*) ;;
		*) echo "$0: --also NAME=KMAG (NAME in lower case letters)" >&2; exit 2 ;;
		esac
		[ -x "${2#*=}" ] || { echo "$0: --also $2: no such executable" >&2; exit 2; }
		also+=(--bin "$(realpath "${2#*=}"):/usr/local/bin/kmag-${2%%=*}")
		names="$names ${2%%=*}"
		shift 2 ;;
	--dur) dur=$2; shift 2 ;;
	--buf) buf=$2; shift 2 ;;
	--loads) loads=$2; shift 2 ;;
	*) echo "usage: $0 [--dur SEC] [--buf KB] [--loads \"RATE:NCPU ...\"]" >&2; exit 2 ;;
	esac
done
. bench/lib.sh
bench_build
SRCDIR=$PWD T=$WORK
. tests/vm/lib-host.sh
kernel=$(vm_kernel_619) || { echo "no Linux 6.19 kernel (tests/vm/README.md)" >&2; exit 1; }
rm -rf "$WORK/flight"
mkdir -p "$WORK/flight"
printf '#!/bin/sh\nBUF=%s DUR=%s LOADS="%s" ALSO="%s" exec sh /kmag/flight-guest.sh\n' "$buf" "$dur" "$loads" "$names" \
	>"$WORK/flight/guest.sh"
accel=${KMAG_VM_ACCEL:-tcg,thread=single}
# the host's load while the VM runs: "EPOCH LOAD1" every 5 s
(while :; do echo "$(date +%s) $(cut -d' ' -f1 /proc/loadavg)"; sleep 5; done) >"$WORK/flight/load.txt" &
sampler=$!
trap 'kill "$sampler" 2>/dev/null || :' EXIT
up0=$(uptime)
KMAG_VM_ACCEL=$accel tests/vm/vm-run.sh --kernel "$kernel" --cpus 2 --mem 1024 --timeout 3600 \
	--bin "$KMAG" "${also[@]}" --bin "$(realpath "$BUILD/bench/flight-load")" \
	--file bench/flight-guest.sh:/kmag/flight-guest.sh \
	--script "$WORK/flight/guest.sh" --out "$WORK/flight/out" >&2
up1=$(uptime)
kill "$sampler" 2>/dev/null || :
O=$WORK/flight/out

# events LOG: the events kmag wrote; span LOG: the seconds they cover
events() {
	sed -n 's/^kmag: wrote [^:]*: \([0-9,]*\) events,.*/\1/p; s/^kmag: wrote [^:]*: .*), \([0-9,]*\) events,.*/\1/p' "$1" |
		tr -d , | head -n 1
}
span() {
	sed -n 's/^kmag: wrote [^:]*: [0-9,]* events, .*, \([0-9.]*\) s$/\1/p; s/^kmag: wrote [^:]*: .* s (\([0-9.]*\) s).*/\1/p' "$1" |
		head -n 1
}
lost() {
	local l
	l=$(sed -n 's/^kmag: \([0-9,]*\) events were lost.*/\1/p; s/^kmag: wrote .*, \([0-9,]*\) events lost$/\1/p' "$1" |
		tr -d , | head -n 1)
	echo "${l:-0}"
}
unwatched() { sed -n 's/^kmag: the trigger watcher fell behind: \([0-9.]* [KMG]*B\) .*/\1/p' "$1"; }
stored_raw() { sed -n 's/^kmag: the recorder fell behind the kernel.s buffer: \([0-9.]* [KMG]*B\) .*/\1/p' "$1"; }
reads() { awk '/^flight-load:/ { n += $4 } END { print n + 0 }' "$1"; }
load_cpu() { awk '/^flight-load:/ { s += $(NF - 2) } END { print s + 0 }' "$1"; }
# the host's mean 1-minute load while the recording of WHEN ran (its guest
# wall clock, start and end), "?" when no sample falls in it
host_load() {
	awk -v a="$(sed -n 1p "$1")" -v b="$(sed -n 2p "$1")" \
		'$1 >= a && $1 <= b + 5 { s += $2; n++ } END { if (n) printf "%.2f", s / n; else print "?" }' \
		"$WORK/flight/load.txt"
}
# children's user + system seconds in a `times` output
times_s() {
	sed -n 2p "$1" | tr 'ms' '  ' | awk '{ print $1 * 60 + $2 + $3 * 60 + $4 }'
}

echo "Linux 6.19 (QEMU -accel $accel, 2 vCPUs), function_graph -g ksys_read, -b $buf KiB per CPU, $dur s of load per recording"
echo "host before: $up0"
echo "host after:  $up1"
printf '| %-8s | %-22s | %10s | %9s | %9s | %8s | %9s | %10s | %10s | %9s |\n' load recorder reads events events/s lost unwatched "stored raw" "kmag CPU" "host load"
printf '|%s|\n' "----------|------------------------|------------|-----------|-----------|----------|-----------|------------|------------|-----------"
prev=0
for load in $loads; do
	name=$(echo "$load" | tr : x)
	rate=${load%:*} ncpu=${load#*:}
	label="${rate/#0/max}/s x$ncpu"
	modes="plain flight watch"
	for b in $names; do modes="$modes flight-$b watch-$b"; done
	for mode in $modes; do
		f=$O/$mode-$name.log
		case $mode in
		plain) rec="kmag record" ;;
		flight) rec="--flight 64M" ;;
		watch) rec="--flight 64M, 2 triggers" ;;
		flight-*) rec="${mode#*-}: --flight 64M" ;;
		watch-*) rec="${mode#*-}: --flight 64M, 2 trig." ;;
		esac
		e=$(events "$f") s=$(span "$f")
		total=$(times_s "$O/$mode-$name.cpu")
		cpu=$(awk -v t="$total" -v p="$prev" -v l="$(load_cpu "$f")" 'BEGIN { printf "%.2f s", t - p - l }')
		prev=$total
		printf '| %-8s | %-22s | %10s | %9s | %9.0f | %8s | %9s | %10s | %10s | %9s |\n' "$label" "$rec" "$(reads "$f")" \
			"${e:-?}" "$(awk -v e="${e:-0}" -v d="${s:-0}" 'BEGIN { print (d > 0 ? e / d : 0) }')" \
			"$(lost "$f")" "$(u=$(unwatched "$f"); echo "${u:-0}")" "$(u=$(stored_raw "$f"); echo "${u:-0}")" \
			"$cpu" "$(host_load "$O/$mode-$name.when")"
	done
done
