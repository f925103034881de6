#!/bin/bash
# SPDX-License-Identifier: MIT
# t0402-record-harden-vm.sh [6.1|6.12|6.19|KERNEL] - `kmag record` stopped by
# SIGINT/SIGTERM at each step of its set-up, and on a full disk, with the
# function and function_graph tracers, in a QEMU guest (guest-harden.sh; the
# guest compares tracefs snapshots). Here: the exit status is 128 + the
# signal and comes at once, the one line says what happened; the full disk's
# one line names the cause, the place and what to do, and the file written so
# far reads in trace-cmd and kmag with the event count kmag gave. 6.19 is
# the bzImage vm_kernel_619 finds (lib-host.sh); skipped without one.
. "$(dirname "$0")/../../e2e/lib.sh"
kernel=${1:-6.1}
here=$(cd "$(dirname "$0")" && pwd)
. "$SRCDIR/tests/vm/lib-host.sh"
vm_require trace-cmd
if [ "$kernel" = 6.19 ]; then
	kernel=$(vm_kernel_619) || skip "no Linux 6.19 kernel: set KMAG_KERNEL_619, or build one with tests/vm/kernel/build-kernel.sh (tests/vm/README.md)"
fi
vm_run_guest "$kernel" 1500 "$here/guest-harden.sh" --bin trace-cmd
. "$SRCDIR/tests/lib/record-checks.sh"

for f in "$O"/*.sig; do
	n=$(basename "$f" .sig)
	sig=$(cat "$f")
	want=$((128 + $(kill -l "$sig")))
	t_eq "$n: SIG$sig during set-up exits $want" "$want" "$(cat "$O/$n.rc")"
	ms=$(cat "$O/$n.ms")
	if [ "$ms" -lt 5000 ]; then t_pass "$n: ... at once (${ms} ms, emulated)"; else
		t_fail "$n: ... at once" "${ms} ms after the signal"; fi
	t_grep "$n: ... saying so" '^kmag: interrupted (during set-up; tracefs restored|before set-up; tracefs untouched)$' "$O/$n.log"
	t_eq "$n: ... in one line" 1 "$(grep -cv '^kmag: \(using the top-level\|mounted\)' "$O/$n.log")"
done

t_eq "tiny: a 2 MiB file system is refused (exit 1)" 1 "$(cat "$O/tiny.rc")"
t_grep "tiny: ... before anything is touched, saying why" '^kmag: no space left on device in /mnt/tiny \(2048 KiB free; recording needs at least 16 MiB there\): nothing was recorded' "$O/tiny.log"
t_eq "tiny: ... and leaves no file" "" "$(cat "$O/tiny.ls")"

t_eq "full: a full disk stops the recording with exit 1" 1 "$(cat "$O/full.rc")"
t_grep "full: one line naming the cause, the place, what was kept and what to do" \
	'^kmag: no space left on device in /mnt/small after [0-9.]+ s: recording stopped; /mnt/small/full.dat holds what was captured \([0-9]+ events\), [0-9]+ more were not written; free space there or record elsewhere \(-o\)$' "$O/full.log"
t_eq "full: ... only that line" 1 "$(grep -cv '^kmag: \(recording\|using the top-level\)' "$O/full.log")"
t_eq "full: only the trace is left on the full file system" "full.dat" "$(cat "$O/full.ls")"
t_eq "full: trace-cmd report in the guest reads it" 0 "$(cat "$O/full-tc.rc")"
kept=$(sed -n 's/.*what was captured (\([0-9]*\) events).*/\1/p' "$O/full.log")
if [ -n "$kept" ] && [ "$kept" -gt 0 ]; then t_pass "full: $kept events were kept"; else
	t_fail "full: events were kept" "$(cat "$O/full.log")"; fi
t_eq "full: trace-cmd report reads what was kept" "$kept" "$(tc_count "$O/full.dat")"
t_eq "full: kmag report reads what was kept" "$kept" "$(km_count "$O/full.dat")"
t_done
