#!/bin/bash
# SPDX-License-Identifier: MIT
# t0817-record-output-refused-host.sh - `kmag record -o` into a directory it
# cannot write (a read-only mount, an immutable directory) or onto a FIFO,
# or on a file system without the space it keeps for a full disk,
# fails at once, in one line naming the cause, before anything is traced:
# tracefs is left exactly as it was, no file is left behind, and a FIFO's
# reader is never kept waiting. Tracepoint recordings: root and tracefs,
# skips otherwise. (issue 16)
. "$(dirname "$0")/lib.sh"
TR=/sys/kernel/tracing
skip() { echo "1..0 # SKIP $*"; exit 0; }
[ "$(id -u)" = 0 ] || skip "kmag record needs root"
[ -e $TR/events/sched/sched_switch/enable ] || skip "no tracefs with sched events at $TR"
export KMAG_STATE_DIR=$T/state
# Without the list of instances: a refused run creates none (it stops before
# tracefs is touched), and other kmag runs on this machine may add theirs.
snap() { sh "$SRCDIR/tests/lib/tracefs-snapshot.sh" 2>&1 | grep -v '^instances:' >"$T/snap-$1.txt"; }
same_as_base() {
	snap "$1"
	if cmp -s "$T/snap-base.txt" "$T/snap-$1.txt"; then
		t_pass "$1: tracefs is as it was found"
	else
		t_fail "$1: tracefs is as it was found" "$(diff "$T/snap-base.txt" "$T/snap-$1.txt" | head -n 6)"
	fi
}
REC="record -t 5 -e sched:sched_switch"
snap base

# a read-only file system, mounted in a private mount namespace
if unshare -m true 2>/dev/null; then
	mkdir -p "$T/ro"
	t_exit "record into a read-only file system fails" 1 timeout 20 unshare -m sh -c \
		'mount -t tmpfs -o ro,size=1m tmpfs "$1" && exec "$2" $3 -o "$1/trace.dat"' sh \
		"$T/ro" "$KMAG" "$REC"
	t_grep "... naming the directory, the cause and what to do" \
		"^kmag: cannot write into $T/ro \(for -o $T/ro/trace.dat\): Read-only file system; nothing was recorded" "$T/err"
	t_nogrep "... before tracing started" 'recording' "$T/err"
	same_as_base ro
	# too small for the space kept to finish the file on a full disk (16 MiB)
	mkdir -p "$T/small"
	t_exit "record into a 2 MiB file system fails" 1 timeout 20 unshare -m sh -c \
		'mount -t tmpfs -o size=2m tmpfs "$1" && "$2" $3 -o "$1/trace.dat"; rc=$?; ls -A "$1" >&2; exit $rc' sh \
		"$T/small" "$KMAG" "$REC"
	t_grep "... before tracing, saying how much is free and needed" \
		"^kmag: no space left on device in $T/small \(2048 KiB free; recording needs at least 16 MiB there\): nothing was recorded; free space there or record elsewhere \(-o\)\$" "$T/err"
	same_as_base small
else
	t_skip "record into a read-only file system" "unshare -m is not permitted"
fi

# an immutable directory (chattr +i): root may not create files in it either
mkdir -p "$T/immutable"
if chattr +i "$T/immutable" 2>/dev/null; then
	t_exit "record into an immutable directory fails" 1 timeout 20 "$KMAG" $REC -o "$T/immutable/t.dat"
	t_grep "... saying why" "^kmag: cannot write into $T/immutable \(for -o $T/immutable/t.dat\): Operation not permitted" "$T/err"
	chattr -i "$T/immutable"
	t_eq "... and leaves nothing there" "" "$(ls -A "$T/immutable")"
	same_as_base immutable
else
	t_skip "record into an immutable directory" "chattr +i is not supported on $T"
fi

# a FIFO: refused without opening it (a reader would wait through the recording)
mkfifo "$T/fifo"
t_exit "record onto a FIFO fails" 1 timeout 20 "$KMAG" $REC -o "$T/fifo"
t_grep "... saying it is a FIFO and what to do" "^kmag: -o $T/fifo is a FIFO; record into a regular file" "$T/err"
t_ok "... the FIFO is still a FIFO" test -p "$T/fifo"
same_as_base fifo

# the directory probe leaves nothing behind when it succeeds
mkdir -p "$T/ok"
t_ok "record into a writable directory" "$KMAG" record -t 0.2 -e sched:sched_switch -o "$T/ok/t.dat"
t_eq "... leaves only the trace there" "t.dat" "$(ls -A "$T/ok")"
same_as_base ok
t_done
