#!/bin/sh
# SPDX-License-Identifier: MIT
# flight-guest.sh - the guest half of bench/flight-vm.sh: the same load
# recorded by plain `kmag record`, by `kmag record --flight` and by a flight
# with triggers the watcher must evaluate on every call (none fires), one
# after the other, each for DUR seconds with a small kernel buffer (BUF KiB
# per CPU) so that a recorder that falls behind loses events. Loads (LOADS):
#   r1   one dd (1-byte reads from /dev/zero) on CPU 0, -g ksys_read
#   r2   one such dd on each CPU, -g ksys_read
#   rw2  one dd per CPU reading and writing 1-byte blocks, -g ksys_read -g ksys_write
# Writes MODE-LOAD.log (kmag's stderr: events, lost) and MODE-LOAD.stats
# (the kernel's per-CPU stats at the end) into $OUT.
BUF=${BUF:-1024}
DUR=${DUR:-10}
LOADS=${LOADS:-r1 r2 rw2}
cd "$OUT" || exit 1
export KMAG_STATE_DIR=/tmp/kmag-state

load_start() {
	case $1 in
	r1) taskset 1 dd if=/dev/zero of=/dev/null bs=1 count=2000000000 2>/dev/null &
	    L="$!" ;;
	r2|rw2)
	    o=/dev/null
	    taskset 1 dd if=/dev/zero of=$o bs=1 count=2000000000 2>/dev/null &
	    L="$!"
	    taskset 2 dd if=/dev/zero of=$o bs=1 count=2000000000 2>/dev/null &
	    L="$L $!" ;;
	esac
}
graph_of() {
	case $1 in
	rw2) echo "-g ksys_read -g ksys_write" ;;
	*) echo "-g ksys_read" ;;
	esac
}
for load in $LOADS; do
	for mode in plain flight watch; do
		load_start $load
		case $mode in
		plain) extra="-o /tmp/p.dat" ;;
		flight) extra="--flight 256M -o /tmp/f.dat" ;;
		watch) extra="--flight 256M --trigger error=EBADF@ksys_read --trigger slow=ksys_read>10s -o /tmp/w.dat" ;;
		esac
		# shellcheck disable=SC2046,SC2086
		kmag record -p function_graph $(graph_of $load) -P $(echo $L | cut -d' ' -f1) \
			$([ "$load" != r1 ] && echo "-P $(echo $L | cut -d' ' -f2)") \
			-b "$BUF" -t "$DUR" $extra >"$mode-$load.log" 2>&1
		# shellcheck disable=SC2086
		kill $L
		wait 2>/dev/null
		rm -f /tmp/p.dat /tmp/f.dat /tmp/w.dat
	done
done
