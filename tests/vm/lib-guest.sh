# SPDX-License-Identifier: MIT
# tests/vm/lib-guest.sh - guest-side helpers of the VM tests, sourced inside
# the test VM (busybox sh) as /kmag/lib-guest.sh by tests/vm/record/guest-record.sh
# and tests/vm/probes/guest-probes.sh. tests/vm/lib-host.sh ships it, together
# with tests/lib/tracefs-snapshot.sh as /kmag/snap.sh, and reads back what
# these helpers write into $OUT:
#   kernel.txt          `uname -r` of the guest
#   results             the guest-side checks, one "ok - NAME" or
#                       "not ok - NAME # DETAIL" line each
#   snap-NAME.txt       tracefs snapshots (snap-base.txt: the reference)
#   NAME.dat, NAME.log (kmag's stderr), NAME.rc   one recording (rec, rec_bg)
# (The fixture-recording guest scripts use tests/vm/guest/lib.sh instead.)
T=/sys/kernel/tracing # also for the scripts that source this
cd "$OUT" || exit 1
: >results
uname -r >kernel.txt

pass() { echo "ok - $1" >>results; }
fail() { echo "not ok - $1${2:+ # $2}" >>results; }
snap() { sh /kmag/snap.sh >"snap-$1.txt" 2>&1; }

# same_as_base NAME: tracefs must read back exactly as in snap-base.txt
same_as_base() {
	snap "$1"
	if cmp -s snap-base.txt "snap-$1.txt"; then
		pass "$1: tracefs is as it was found"
	else
		fail "$1: tracefs differs" "$(diff snap-base.txt "snap-$1.txt" | grep '^[-+][^-+]' | head -4 | tr '\n' ' ')"
	fi
}

# check_clean NAME: the checks after every recording of rec and rec_stop.
# Here: same_as_base; a guest script may redefine it to check more.
check_clean() { same_as_base "$1"; }

# rec NAME ARGS...: one recording in the foreground, then check_clean NAME
rec() {
	name=$1
	shift
	kmag record -o "$name.dat" "$@" >"$name.log" 2>&1
	echo $? >"$name.rc"
	check_clean "$name"
}

# wait_recording NAME: until kmag says it records (the VM is slow to start it)
wait_recording() {
	i=0
	while ! grep -q '^kmag: recording.*Ctrl-C' "$1.log" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 600 ] && return 1
		sleep 0.1
	done
}

# rec_bg NAME ARGS...: start a recording in the background (NAME in $name,
# kmag's pid in $k) and wait until it records
rec_bg() {
	name=$1
	shift
	kmag record -o "$name.dat" "$@" >"$name.log" 2>&1 &
	k=$!
	wait_recording "$name" || fail "$name: kmag did not start"
}

# rec_stop SIGNAL: end the recording rec_bg started with SIGNAL, then
# NAME.rc and check_clean NAME as rec does
rec_stop() {
	kill -"$1" $k
	wait $k
	echo $? >"$name.rc"
	check_clean "$name"
}
