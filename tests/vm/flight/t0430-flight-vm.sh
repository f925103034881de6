#!/bin/bash
# SPDX-License-Identifier: MIT
# t0430-flight-vm.sh - the flight recorder (kmag record --flight, --trigger)
# with function_graph and --last-boot, on Linux 6.19 in one QEMU guest that
# reboots once (guest-flight.sh; vm-run.sh --reboot keeps the guest's RAM, so
# the persistent ring buffer survives). What kmag wrote is checked here with
# trace-cmd (the independent reader), against what the workload itself wrote
# down (the failing cat's pid, the first rounds' pids) and, for --last-boot,
# the kernel's own text of the same buffer read before the reboot. Needs the
# 6.19 bzImage (tests/vm/README.md): skipped without it. Output is TAP.
. "$(dirname "$0")/../../e2e/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
. "$SRCDIR/tests/vm/lib-host.sh"
vm_require trace-cmd
kernel=$(vm_kernel_619) || skip "no Linux 6.19 kernel: set KMAG_KERNEL_619, or build one with tests/vm/kernel/build-kernel.sh (tests/vm/README.md)"

vm_run_guest "$kernel" 900 "$here/guest-flight.sh" --reboot \
	--append "reserve_mem=4M:4096:trace trace_instance=boot_map^traceoff@trace" \
	--file "$here/wl-flight.sh:/kmag/wl-flight.sh"
# where the guest's time went (uptime in s at the end of each part), for CI's budget
sed 's/^/# guest time: /' "$O/stamps.txt" 2>/dev/null

# raw NAME: trace-cmd's records of NAME.dat; ts LINE: its time in ns
raw() { trace-cmd report -R "$O/$1.dat" 2>/dev/null; }
first_ts() { raw "$1" | grep -m1 -oE '\] +[0-9]+\.[0-9]+:' | tr -d '] :'; }
# secs A B: B - A in seconds (3 decimals)
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", b - a }'; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }
events_of() { sed -n 's/^kmag: wrote .*), \([0-9,]*\) events,.*/\1/p' "$1" | tr -d ,; }

# --- the issue's flight ------------------------------------------------------
log=$O/flight.log
sed 's/^/# /' "$log"
t_eq "flight: kmag record exits 0" 0 "$(cat "$O/flight.rc")"
fail=$(cat "$O/flight-fail-pid.txt")
t_grep "flight: the trigger fired on the workload's failing cat (pid $fail), and says what happened" \
	"^kmag: trigger error=ENOENT@do_sys_openat2 fired at [0-9.]+ s: do_sys_openat2 returned -2 \(ENOENT\) after [0-9.]+ [nmu]?s in cat \(pid $fail, CPU [0-9]\); recording 1\.000 s more\$" "$log"
t_grep "flight: it says what the file holds (time span, before and after, events, lost)" \
	'^kmag: wrote flight.dat: [0-9.]+ [KM]B, [0-9.]+ \.\. [0-9.]+ s \([0-9.]+ s: [0-9.]+ s before the trigger, [0-9.]+ s after\), [0-9,]+ events, no events lost$' "$log"
t_grep "flight: ... and that the failing call is in it, entry to exit" \
	'^kmag:   it holds the call that fired \(no traced caller was open around it\), entry to exit$' "$log"
size=$(stat -c %s "$O/flight.dat")
t_ok "flight: flight.dat is at most 3 MiB ($size bytes)" test "$size" -le 3145728
ring=$(cat "$O/flight-ring-max.txt")
t_ok "flight: the rings never took more than the 2 MiB given ($ring bytes)" test "$ring" -gt 0 -a "$ring" -le 2097152
t_ok "flight: trace-cmd report reads it" trace-cmd report "$O/flight.dat"
n=$(events_of "$log")
t_eq "flight: trace-cmd report reads the $n events kmag wrote" "$n" "$(raw flight | grep -cE '^ *[^ ].* \[[0-9]+\] +[0-9]+\.[0-9]+: ')"
# the failing call, entry to exit: the cat's depth-0 do_sys_openat2 (its exit carries -2)
raw flight | grep -E "^ *cat-$fail +\[" >"$T/fail.txt"
t_grep "flight: the failing cat's open is in it: its entry" 'fgraph_retaddr_entry:.*depth=0' "$T/fail.txt"
t_grep "flight: ... and its exit, returning -2" 'funcgraph_exit: +func=do_sys_openat2 retval=(0x)?f+e depth=0 ' "$T/fail.txt"
t_ok "flight: kmag errors finds ENOENT through do_sys_openat2" \
	grep -qE '^ +[0-9]+ +ENOENT \(-2\) +[a-z_]+ +do_sys_openat2 \([1-9]' <("$KMAG" errors "$O/flight.dat" 2>&1)
exit_ts=$(grep -m1 -E 'funcgraph_exit:.*retval=' "$T/fail.txt" | grep -oE '\] +[0-9]+\.[0-9]+:' | tr -d '] :')
before=$(secs "$(first_ts flight)" "$exit_ts")
t_ok "flight: it holds at least 2 s before the failure ($before s)" ge "$before" 2
seen=0
for p in $(cat "$O/flight-first-pids.txt"); do
	raw flight | grep -qE "^ *cat-$p +\[" && seen=$((seen + 1))
done
t_eq "flight: nothing of the run's first 5 rounds (the rings wrapped)" 0 "$seen"
t_ok "flight: kmag report: no lost events" grep -q '^# lost: *none' <("$KMAG" report "$O/flight.dat")
t_nogrep "flight: trace-cmd: no dropped events" 'EVENTS DROPPED' <(trace-cmd report "$O/flight.dat" 2>&1)
t_nogrep "flight: no file of kmag's is left" '\.kmag-' "$O/ls-flight.txt"

# --- slow=, and Ctrl-C while its window is open --------------------------------
t_eq "slow: Ctrl-C while the window is open exits 0" 0 "$(cat "$O/slow.rc")"
line=$(grep -m1 '^kmag: trigger slow=do_filp_open>1ms fired' "$O/slow.log")
sed 's/^/# /' "$O/slow.log"
t_ok "slow: it fired on a do_filp_open of the workload, called from do_sys_openat2" \
	grep -qE '^kmag: trigger slow=do_filp_open>1ms fired at [0-9.]+ s: do_filp_open took [0-9.]+ ms in [a-z]+ \(pid [0-9]+, CPU [0-9]\), inside do_sys_openat2 \(1 call open around it\); recording 60\.000 s more$' <<<"$line"
at=$(sed -n 's/.* fired at \([0-9.]*\) s:.*/\1/p' <<<"$line")
took=$(sed -n 's/.* took \([0-9.]*\) ms.*/\1/p' <<<"$line")
# that exit in trace-cmd's reading: its kernel times say the same duration
rec=$(raw slow | grep -E "\] +$at: funcgraph_exit:" | head -n 1)
ct=$(grep -oE 'calltime=(0x)?[0-9a-f]+' <<<"$rec" | cut -d= -f2)
rt=$(grep -oE 'rettime=(0x)?[0-9a-f]+' <<<"$rec" | cut -d= -f2)
t_ok "slow: trace-cmd shows the exit at $at s ($rec)" test -n "$ct" -a -n "$rt"
dur=$(( ${rt:-0} - ${ct:-0} ))
t_eq "slow: ... lasting what kmag said ($took ms) and over 1 ms" "$took" \
	"$(awk -v d="$dur" 'BEGIN { d /= 1e6; if (d > 1) printf "%.3f\n", d; else print "short" }')"
t_grep "slow: the open window is written, saying it was cut short" \
	'^kmag:   the window was cut short: the recording stopped or the rings filled with it$' "$O/slow.log"
t_ok "slow: trace-cmd report reads it" trace-cmd report "$O/slow.dat"
t_ok "slow: kmag replay shows that call of do_filp_open, of the duration trace-cmd gives ($dur ns)" \
	grep -qE '"function":"do_filp_open",.*"duration_ns":'"$dur"',' <("$KMAG" replay -F json -f do_filp_open "$O/slow.dat" 2>/dev/null)
t_nogrep "slow: no file of kmag's is left" '\.kmag-' "$O/ls-slow.txt"

# --- the previous boot's trace (boot 2) ----------------------------------------
sed 's/^/# /' "$O/lastboot.log"
t_eq "last-boot: the first boot's instance was this boot's" "0	[kernel]" "$(cat "$O/last-boot-info-1.txt")"
t_eq "last-boot: after the warm reset it names the previous boot's text" \
	"ffffffff81000000	[kernel]" "$(cat "$O/last-boot-info-2.txt")"
t_eq "last-boot: kmag record --last-boot exits 0" 0 "$(cat "$O/lastboot.rc")"
t_grep "last-boot: it says where from and what" \
	"^kmag: wrote lastboot.dat: the previous boot's trace from tracefs instance boot_map: [0-9,]+ events on 2 CPUs, [0-9.]+ \.\. [0-9.]+ s of that boot, [0-9.]+ [KM]B\$" "$O/lastboot.log"
t_grep "last-boot: ... and how names are found" \
	'^kmag:   its kernel text was at ffffffff81000000 \(this boot.s at ffffffff81000000\): function names are moved by \+0x0; reading emptied the instance$' "$O/lastboot.log"
n=$(sed -n "s/.*boot_map: \([0-9,]*\) events.*/\1/p" "$O/lastboot.log" | tr -d ,)
t_eq "last-boot: trace-cmd report reads its $n events" "$n" \
	"$(raw lastboot | grep -cE '^ *[^ ].* \[[0-9]+\] +[0-9]+\.[0-9]+: ')"
# the calls, as the kernel printed the same buffer before the reboot
for f in do_sys_openat2 do_filp_open path_openat; do
	want=$(grep -cE "\| +$f\(\) \{|\| +$f\(\);" "$O/lastboot-text.txt")
	got=$("$KMAG" report -F csv --limit 0 "$O/lastboot.dat" 2>/dev/null | awk -F, -v f="$f" '$1 == f { print $2; exit }')
	t_eq "last-boot: $f called $want times, as the kernel's text of that buffer says" "$want" "$got"
done
t_ok "last-boot: kmag errors finds the workload's ENOENT through do_sys_openat2" \
	grep -qE 'ENOENT \(-2\) +[a-z_]+ +do_sys_openat2' <("$KMAG" errors "$O/lastboot.dat" 2>&1)
t_eq "last-boot: read again, the emptied instance is this boot's (the kernel reset its last_boot_info): refused" 1 "$(cat "$O/lastboot2.rc")"
t_grep "last-boot: ... saying so" "^kmag: -B boot_map: the instance holds this boot's trace, not the previous boot's" "$O/lastboot2.log"
t_eq "last-boot: an instance that does not exist is one error" 1 "$(cat "$O/lastboot3.rc")"
t_grep "last-boot: ... naming it" '^kmag: -B nosuch: no tracefs instance nosuch with a last_boot_info' "$O/lastboot3.log"
t_done
