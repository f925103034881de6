#!/bin/sh
# SPDX-License-Identifier: MIT
# flight-guest.sh - the guest half of bench/flight-vm.sh: the same paced load
# recorded by plain `kmag record`, by `kmag record --flight` and by a flight
# with triggers the watcher must evaluate on every call (none fires), one
# after the other, each for DUR seconds of load with a small kernel buffer
# (BUF KiB per CPU) so that a recorder that falls behind loses events.
# LOADS is a list of RATE:NCPU: flight-load (bench/flight-load.c) doing RATE
# one-byte reads of /dev/zero per second (0: flat out) on each of NCPU CPUs,
# traced with function_graph under ksys_read (-g ksys_read: each read is the
# same handful of calls), as kmag's command (only it and its children).
# Writes MODE-LOAD.log (kmag's stderr and the load's output), MODE-LOAD.cpu
# (the shell's `times` after that recording: children's CPU time so far,
# the load's included) and MODE-LOAD.when (the wall clock, seconds since the
# epoch, before and after it: QEMU starts the guest's clock at the host's, so
# the host can tell its own load then) into $OUT. ALSO is a list of names of
# other kmag builds in the guest (kmag-NAME, bench/flight-vm.sh --also): their
# flights are recorded after kmag's, as modes flight-NAME and watch-NAME.
BUF=${BUF:-1024}
DUR=${DUR:-5}
LOADS=${LOADS:-1000:1 2000:1 4000:1 8000:1 0:1 0:2}
cd "$OUT" || exit 1
export KMAG_STATE_DIR=/tmp/kmag-state
T=/sys/kernel/tracing
# the top-level buffer is allocated on first use, for good (guest-record.sh)
v=$(sed -n 's/.*expanded: \([0-9]*\).*/\1/p' $T/buffer_size_kb)
[ -n "$v" ] && echo "$v" >$T/buffer_size_kb

for load in $LOADS; do
	rate=${load%:*} ncpu=${load#*:}
	name=$(echo "$load" | tr : x)
	modes="plain flight watch"
	for b in $ALSO; do modes="$modes flight-$b watch-$b"; done
	for mode in $modes; do
		bin=kmag
		case $mode in
		*-*) bin=kmag-${mode#*-} ;;
		esac
		case $mode in
		plain) extra="-o /tmp/p.dat" ;;
		flight*) extra="--flight 64M -o /tmp/f.dat" ;;
		watch*) extra="--flight 64M --trigger error=EBADF@ksys_read --trigger slow=ksys_read>10s -o /tmp/w.dat" ;;
		esac
		date +%s >"$mode-$name.when"
		# shellcheck disable=SC2086
		$bin record -p function_graph -g ksys_read -b "$BUF" $extra \
			-- flight-load "$rate" "$DUR" "$ncpu" >"$mode-$name.log" 2>&1
		times >"$mode-$name.cpu"
		date +%s >>"$mode-$name.when"
		rm -f /tmp/p.dat /tmp/f.dat /tmp/w.dat
	done
done
