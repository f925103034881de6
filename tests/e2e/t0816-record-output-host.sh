#!/bin/bash
# SPDX-License-Identifier: MIT
# t0816-record-output-host.sh - `kmag record -o` obeys the output rules of
# every command (doc/output-files.md): a symlink is replaced, its target never
# written; a file it replaces keeps its mode; a device is refused before
# anything is recorded (trace.dat is renamed into place: renaming over
# /dev/null would replace the device). Tracepoint recordings: root and tracefs,
# skips otherwise. (issue 18, defect 1)
. "$(dirname "$0")/lib.sh"
TR=/sys/kernel/tracing
skip() { echo "1..0 # SKIP $*"; exit 0; }
[ "$(id -u)" = 0 ] || skip "kmag record needs root"
[ -e $TR/events/sched/sched_switch/enable ] || skip "no tracefs with sched events at $TR"
export KMAG_STATE_DIR=$T/state
D="$T/files"
mkdir -p "$D"
rec() { "$KMAG" record -o "$1" -t 0.2 -e sched:sched_switch; }

if mknod "$D/null" c 1 3 2>/dev/null; then
	ln -s null "$D/null.dat"
	t_exit "record into a device node is refused" 1 rec "$D/null"
	t_grep "... saying why" 'is a device; record into a regular file' "$T/err"
	t_exit "record into a symlink to a device is refused" 1 rec "$D/null.dat"
	t_ok "... the device node is still there" test -c "$D/null"
	t_ok "... and the symlink" test -L "$D/null.dat"
	rm -f "$D/null" "$D/null.dat"
else
	t_pass "# SKIP mknod not permitted"
fi

echo precious >"$D/target"
ln -s target "$D/link.dat"
t_ok "record into a symlink" rec "$D/link.dat"
t_ok "... replaces the symlink by the trace" sh -c "test -f '$D/link.dat' && test ! -L '$D/link.dat'"
t_eq "... and never writes its target" precious "$(cat "$D/target")"
t_ok "... the trace reads" "$KMAG" report "$D/link.dat"
chmod 600 "$D/link.dat"
t_ok "record over an existing trace" rec "$D/link.dat"
t_eq "... keeps its mode" 600 "$(stat -c %a "$D/link.dat")"
t_eq "no temporary file is left" "link.dat target" "$(cd "$D" && ls -A | sort | tr '\n' ' ' | sed 's/ $//')"
t_done
