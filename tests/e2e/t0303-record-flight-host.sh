#!/bin/bash
# SPDX-License-Identifier: MIT
# t0303-record-flight-host.sh - the flight recorder (kmag record --flight) on
# the machine running the tests, with tracepoints (its function tracer is not
# permitted here; function_graph triggers are tested in the VM, t0430): the
# rings stay within their size and wrap (raw_syscalls of a dd), an event= trigger (with a filter)
# writes a snapshot around the one event that matched, --snapshots N, a SIZE
# smaller than one block per CPU is refused, a full disk during a flight,
# and SIGINT/SIGKILL at every stage of a flight (recording, an open window,
# writing the snapshot, between snapshots): tracefs restored (snapshots), the
# rings removed, never half a file under the output name; a reader behind
# the kernel's buffer stores its pages uncompressed and says so. Files are read by
# trace-cmd, the independent reader. Needs root and tracefs; skips otherwise.
. "$(dirname "$0")/lib.sh"
TR=/sys/kernel/tracing

skip() { echo "1..0 # SKIP $*"; exit 0; }
[ "$(id -u)" = 0 ] || skip "kmag record needs root"
[ -e $TR/events/sched/sched_switch/enable ] || skip "no tracefs with sched events at $TR"
command -v trace-cmd >/dev/null || skip "trace-cmd is not installed (scripts/deps.sh --test)"

export KMAG_STATE_DIR=$T/state
# instances and probe groups are compared per run (others' kmag runs may have theirs)
snap() {
	sh "$SRCDIR/tests/lib/tracefs-snapshot.sh" 2>&1 | grep -Ev '^(instances:|events/kmag_[0-9]+/)' \
		>"$T/snap-$1.txt"
}
same_as_base() {
	snap "$1"
	if cmp -s "$T/snap-base.txt" "$T/snap-$1.txt"; then
		t_pass "$1: tracefs is as it was found"
	else
		t_fail "$1: tracefs is as it was found" "$(diff "$T/snap-base.txt" "$T/snap-$1.txt" | head -n 6)"
	fi
}
raw() { trace-cmd report -R "$1" 2>/dev/null; }
records() { raw "$1" | grep -cE '^ *[^ ].* \[[0-9]+\] +[0-9]+\.[0-9]+: '; }
events_of() { sed -n "s|^kmag: wrote $1: .*), \([0-9,]*\) events,.*|\1|p" "$2" | tr -d , | head -n 1; }
# wait_for PATTERN LOG: until kmag's LOG has a line matching PATTERN (10 minutes
# at most: under valgrind (KMAG_VALGRIND=1) the set-up alone takes a minute)
wait_for() {
	local i
	for i in $(seq 6000); do
		grep -qE "$1" "$2" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
# a task whose switch-outs the triggers match on: a copy of sleep under a name of its own
cp "$(command -v sleep)" "$T/kmagflt"
TRIG='event=sched:sched_switch/prev_comm == "kmagflt"'
snap base

# --- no trigger: the newest data, within its size ------------------------------
# 40,000 reads and writes of one byte: ~80,000 raw_syscalls records, far
# more than 96K of rings keep (about 22,000). On CPU 0 only (kmag and so dd):
# the rings are per CPU, and a dd that execs on one CPU and then runs on the
# other (a loaded machine) leaves its exec in a ring that never wraps
mkdir -p "$T/a"
taskset -c 0 "$KMAG" record --flight 96K -e raw_syscalls:sys_enter -o "$T/a/ring.dat" \
	-- dd if=/dev/zero of=/dev/null bs=1 count=40000 status=none >"$T/ring.out" 2>"$T/ring.log" &
k=$!
max=0
while kill -0 $k 2>/dev/null; do
	# the larger of their sizes and the disk space allocated to them
	s=$(stat -c '%s %b %B' "$T/a/ring.dat.kmag-$k-ring-cpu"* 2>/dev/null |
		awk '{ t += $1; a += $2 * $3 } END { print (a > t ? a : t) + 0 }')
	[ "$s" -gt "$max" ] && max=$s
	sleep 0.1
done
wait $k
rc=$?
t_eq "ring: --flight 96K -- dd ... exits 0" 0 $rc
t_grep "ring: it says it keeps the newest 96 KiB" '^kmag: flight recorder: keeping the newest 96 KiB of compressed trace next to .*; it goes to .* when the recording stops$' "$T/ring.log"
t_ok "ring: the rings' files never took more than 96 KiB of disk ($max bytes)" test "$max" -gt 0 -a "$max" -le 98304
n=$(events_of "$T/a/ring.dat" "$T/ring.log")
t_eq "ring: trace-cmd report reads the $n events kmag wrote" "$n" "$(records "$T/a/ring.dat")"
t_ok "ring: fewer than dd's 80,000 system calls: the rings wrapped ($n)" test "${n:-0}" -gt 0 -a "${n:-0}" -lt 40000
# the first system calls, exec (NR 59, from where kmag releases the command),
# are the oldest data: dropped; a short dd, all kept, has them (at the end)
t_eq "ring: none of dd's first system calls (execve, NR 59) is left" 0 \
	"$(trace-cmd report "$T/a/ring.dat" 2>/dev/null | grep -c 'NR 59 ')"
t_ok "ring: its reads and writes are (NR 0, NR 1)" grep -q 'NR [01] ' <(trace-cmd report "$T/a/ring.dat" 2>/dev/null)
t_eq "ring: only the file is left" "ring.dat" "$(ls -A "$T/a")"
same_as_base ring

# --- an event trigger with a filter ---------------------------------------------
mkdir -p "$T/e"
"$KMAG" record --flight 1M --trigger "$TRIG" --after 300ms -t 30 -o "$T/e/ev.dat" \
	>"$T/ev.out" 2>"$T/ev.log" &
k=$!
wait_for '^kmag: flight recorder' "$T/ev.log"
sleep 0.5
"$T/kmagflt" 0.2
wait $k
rc=$?
t_eq "ev: an event trigger ends the flight with exit 0 (one snapshot)" 0 $rc
t_grep "ev: the recording is of tracepoint events, the trigger's own" '^kmag: recording tracepoint events on ' "$T/ev.log"
t_grep "ev: it says which trigger fired, when and on what" \
	"^kmag: trigger $TRIG fired at [0-9.]+ s: sched:sched_switch in (kmagflt \\(pid [0-9]+, CPU [0-9]+\\)|pid [0-9]+ \\(CPU [0-9]+\\)); recording 300\\.000 ms more\$" "$T/ev.log"
at=$(sed -n 's/.* fired at \([0-9.]*\) s:.*/\1/p' "$T/ev.log")
t_grep "ev: trace-cmd finds that switch of kmagflt at that time" "\\] +$at: sched_switch: +kmagflt:" <(trace-cmd report "$T/e/ev.dat" 2>/dev/null)
t_grep "ev: the snapshot says what it holds" "^kmag: wrote $T/e/ev.dat: [0-9.]+ [KM]B, [0-9.]+ \\.\\. [0-9.]+ s \\([0-9.]+ s: [0-9.]+ s before the trigger, [0-9.]+ s after\\), [0-9,]+ events, no events lost\$" "$T/ev.log"
after=$(sed -n 's/.* s before the trigger, \([0-9.]*\) s after.*/\1/p' "$T/ev.log")
t_ok "ev: it recorded the 300 ms after ($after s)" awk -v a="${after:-0}" 'BEGIN { exit !(a >= 0.3) }'
n=$(events_of "$T/e/ev.dat" "$T/ev.log")
t_eq "ev: trace-cmd report reads the $n events" "$n" "$(records "$T/e/ev.dat")"
t_eq "ev: only the file is left" "ev.dat" "$(ls -A "$T/e")"
same_as_base ev

# --- --snapshots 2 --------------------------------------------------------------
# under strace where it is installed: the traced command shares the terminal,
# so each of kmag's lines must reach it in one write, never in pieces
# (16M: room for seconds of this busy machine's scheduling, so that the trigger
# watcher, which runs behind the recording while the CPUs are busy, still finds
# the second trigger's moment in the rings when it sees it)
ST=()
# (LeakSanitizer cannot run under ptrace: in an ASan build this run checks no leaks)
command -v strace >/dev/null && ST=(strace -f -qq --seccomp-bpf -s 4096 -e trace=write -o "$T/s.strace"
	env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0")
mkdir -p "$T/s"
"${ST[@]}" "$KMAG" record --flight 16M --trigger "$TRIG" --after 200ms --snapshots 2 -t 40 -o "$T/s/s.dat" \
	>"$T/s.out" 2>"$T/s.log" &
k=$!
wait_for '^kmag: flight recorder' "$T/s.log"
"$T/kmagflt" 0.1
wait_for '^kmag: wrote .*/s.dat:' "$T/s.log"
sleep 0.3
"$T/kmagflt" 0.1
wait $k
t_eq "snapshots: two windows, then exit 0" 0 $?
t_eq "snapshots: two triggers fired" 2 "$(grep -c '^kmag: trigger .* fired' "$T/s.log")"
t_eq "snapshots: s.dat, then s.dat.1" "s.dat s.dat.1" "$(ls "$T/s" | tr '\n' ' ' | sed 's/ $//')"
for f in s.dat s.dat.1; do
	at=$(grep "^kmag: trigger" "$T/s.log" | sed -n "$([ $f = s.dat ] && echo 1 || echo 2)s/.* fired at \([0-9.]*\) s:.*/\1/p")
	t_grep "snapshots: $f holds its own trigger's switch ($at s)" "\\] +$at: sched_switch: +kmagflt:" <(trace-cmd report "$T/s/$f" 2>/dev/null)
done
if [ ${#ST[@]} -gt 0 ]; then
	t_eq "snapshots: the announcement is one write" 1 \
		"$(grep -cE 'write\(2, "kmag: flight recorder: keeping .*; watching .*after one fires\\n", ' "$T/s.strace")"
	t_eq "snapshots: each snapshot's line is one write" 2 \
		"$(grep -cE 'write\(2, "kmag: wrote [^"]*/s.dat(.1)?: [^"]* events, [^"]*\\n", ' "$T/s.strace")"
else
	t_skip "snapshots: lines in one write each" "strace is not installed"
fi
same_as_base snapshots

# --- refused ---------------------------------------------------------------------
ncpu=$(grep -c ^processor /proc/cpuinfo)
"$KMAG" record --flight 40K -e sched:sched_switch -t 1 -o "$T/small.dat" >/dev/null 2>"$T/small.log"
t_eq "small: a SIZE below one block per CPU is refused (exit 1)" 1 $?
t_grep "small: ... saying the least it takes" "^kmag: --flight 40K is smaller than one block per CPU \\($ncpu CPUs x 41 KiB: a block is 10 pages, compressed\\): give at least --flight [0-9]+K\$" "$T/small.log"
t_ok "small: ... and no file is written" test ! -e "$T/small.dat"
same_as_base small
for bad in "--trigger $TRIG" "--flight 0" "--flight 2Q" "--flight 1M --compression none" \
	"--flight 1M --trigger oops" "--flight 1M --after 0" "--flight 1M --snapshots 0"; do
	# shellcheck disable=SC2086
	"$KMAG" record $bad -e sched:sched_switch -o "$T/bad.dat" >/dev/null 2>"$T/bad.log"
	t_eq "usage: $bad is a usage error (exit 2)" 2 $?
done
t_grep "usage: a trigger needs --flight" 'work with the flight recorder: add --flight SIZE' <("$KMAG" record --trigger "$TRIG" -e sched:sched_switch 2>&1)
"$KMAG" record --flight 1M --trigger 'event=sched:sched_switch/no_field == 1' -o "$T/bad.dat" 2>"$T/bad.log"
t_eq "usage: a filter on a field the event lacks is refused (exit 1)" 1 $?
t_grep "usage: ... naming the field" 'sched:sched_switch has no field "no_field"' "$T/bad.log"
"$KMAG" record --flight 1M --trigger 'error=ENOENT' -p nop -e sched:sched_switch -o "$T/bad.dat" 2>"$T/bad.log"
t_eq "usage: an error trigger without function_graph is refused" 1 $?
t_grep "usage: ... saying it follows calls" 'follows calls: it needs the function_graph tracer' "$T/bad.log"
same_as_base refused

# --- signals at each stage of a flight ------------------------------------------
# sig NAME SIGNAL: after kmag's log shows $stage_re, send SIGNAL
stage() {
	local name=$1 sig=$2 re=$3
	shift 3
	mkdir -p "$T/$name"
	"$@" -o "$T/$name/f.dat" >"$T/$name.out" 2>"$T/$name.log" &
	k=$!
	wait_for '^kmag: flight recorder' "$T/$name.log"
	[ -n "${before_sig:-}" ] && eval "$before_sig"
	if [ -n "$re" ] && ! wait_for "$re" "$T/$name.log"; then
		t_fail "$name: kmag reaches the stage" "$(cat "$T/$name.log")"
	fi
	[ -n "${pause_file:-}" ] && for _ in $(seq 200); do [ -e "$pause_file" ] && break; sleep 0.1; done
	kill -"$sig" $k
	wait $k
	rc=$?
}
FL=("$KMAG" record --flight 1M --trigger "$TRIG" -t 60)

before_sig="" pause_file=""
stage recording INT "" "${FL[@]}" --after 300ms
t_eq "recording: Ctrl-C before a trigger fired exits 0" 0 $rc
t_grep "recording: ... and writes what the rings held" "^kmag: no trigger fired; $T/recording/f.dat holds the newest data of the recording\$" "$T/recording.log"
t_ok "recording: trace-cmd report reads it" trace-cmd report "$T/recording/f.dat"
t_eq "recording: only the file is left" "f.dat" "$(ls -A "$T/recording")"
same_as_base recording

before_sig='"$T/kmagflt" 0.1'
stage window INT '^kmag: trigger .* fired' "${FL[@]}" --after 60s
t_eq "window: Ctrl-C while a window is open exits 0" 0 $rc
t_grep "window: ... writes the window, cut short" '^kmag:   the window was cut short: the recording stopped or the rings filled with it$' "$T/window.log"
at=$(sed -n 's/.* fired at \([0-9.]*\) s:.*/\1/p' "$T/window.log")
t_grep "window: ... with the switch that fired ($at s)" "\\] +$at: sched_switch: +kmagflt:" <(trace-cmd report "$T/window/f.dat" 2>/dev/null)
t_eq "window: only the file is left" "f.dat" "$(ls -A "$T/window")"
same_as_base window

export KMAG_TEST_SETUP_PAUSE="snapshot:$T/paused"
pause_file=$T/paused
stage writing INT "" "${FL[@]}" --after 200ms
t_eq "writing: Ctrl-C while the snapshot is written exits 0" 0 $rc
t_ok "writing: the file is whole (trace-cmd report reads it)" trace-cmd report "$T/writing/f.dat"
t_eq "writing: only the file is left" "f.dat" "$(ls -A "$T/writing")"
same_as_base writing

rm -f "$T/paused"
stage killed KILL "" "${FL[@]}" --after 200ms
t_eq "killed: SIGKILL while the snapshot is written" 137 $rc
t_ok "killed: no half file under the output name" test ! -e "$T/killed/f.dat"
unset KMAG_TEST_SETUP_PAUSE
pause_file=""
"$KMAG" record -e sched:sched_switch -t 0.5 -o "$T/after-kill.dat" >/dev/null 2>"$T/after-kill.log"
t_grep "killed: the next run removes its rings" "^kmag: removed $T/killed/f.dat.kmag-$k-ring-cpu0, left by a kmag run that was killed \\(pid $k\\)\$" "$T/after-kill.log"
t_grep "killed: ... and its snapshot in the making" "^kmag: removed $T/killed/f.dat.kmag-$k.snap.tmp, left by a kmag run that was killed" "$T/after-kill.log"
t_eq "killed: nothing is left" "" "$(ls -A "$T/killed")"
same_as_base killed

before_sig='"$T/kmagflt" 0.1'
stage between INT '^kmag: wrote .*/between/f.dat:' "${FL[@]}" --after 200ms --snapshots 3
t_eq "between: Ctrl-C between two snapshots exits 0" 0 $rc
t_eq "between: the written snapshot stays, no other" "f.dat" "$(ls -A "$T/between")"
t_ok "between: trace-cmd report reads it" trace-cmd report "$T/between/f.dat"
same_as_base between
before_sig=""

# --- Ctrl-C during the set-up: at "readers" (the room for a snapshot reserved,
# no ring yet) and at "tracing-on" (the rings allocated, the watcher running)
for step in readers tracing-on; do
	d=$T/setup-$step
	mkdir -p "$d"
	KMAG_TEST_SETUP_PAUSE="$step:$d.paused" "${FL[@]}" --after 200ms -o "$d/f.dat" \
		>/dev/null 2>"$d.log" &
	k=$!
	for _ in $(seq 6000); do [ -e "$d.paused" ] && break; sleep 0.1; done
	t_ok "setup-$step: kmag reaches step $step" test -e "$d.paused"
	if [ $step = tracing-on ]; then
		t_ok "setup-$step: ... its rings allocated" test -s "$d/f.dat.kmag-$k-ring-cpu0"
	fi
	kill -INT $k
	wait $k
	t_eq "setup-$step: Ctrl-C there exits 130" 130 $?
	t_grep "setup-$step: ... saying so" '^kmag: interrupted during set-up; tracefs restored$' "$d.log"
	t_eq "setup-$step: ... leaving nothing (rings, reserve, file)" "" "$(ls -A "$d")"
	same_as_base "setup-$step"
done

# --- the trigger watcher falling behind (a queue of 0 bytes: it watches nothing)
mkdir -p "$T/behind"
KMAG_TEST_WATCH_QUEUE=0 "${FL[@]}" --after 200ms -t 3 -o "$T/behind/f.dat" >/dev/null 2>"$T/behind.log" &
k=$!
wait_for '^kmag: flight recorder' "$T/behind.log"
"$T/kmagflt" 0.1
wait $k
t_eq "behind: a watcher that fell behind still exits 0" 0 $?
t_grep "behind: it says how much it did not watch" '^kmag: the trigger watcher fell behind: [0-9.]+ [KM]?B of trace went unwatched \(the rings kept it, but a trigger in it was missed\)' "$T/behind.log"
t_nogrep "behind: ... and the trigger it missed did not fire" '^kmag: trigger ' "$T/behind.log"
t_grep "behind: ... the rings kept that switch (trace-cmd)" 'sched_switch: +kmagflt:' <(trace-cmd report "$T/behind/f.dat" 2>/dev/null)
same_as_base behind

# --- a full disk during a flight -------------------------------------------------
if mkdir -p "$T/small" && mount -t tmpfs -o size=24m tmpfs "$T/small" 2>/dev/null; then
	"$KMAG" record --flight 1M --trigger "$TRIG" --after 300ms -t 60 -o "$T/small/full.dat" \
		>/dev/null 2>"$T/full.log" &
	k=$!
	wait_for '^kmag: flight recorder' "$T/full.log"
	dd if=/dev/zero of="$T/small/filler" bs=64k 2>/dev/null
	t_ok "full: the file system is full" test "$(df --output=avail "$T/small" | tail -n 1)" -lt 64
	"$T/kmagflt" 0.1
	wait $k
	t_eq "full: a snapshot on a full disk exits 0" 0 $?
	t_grep "full: it was written" "^kmag: wrote $T/small/full.dat: " "$T/full.log"
	t_ok "full: trace-cmd report reads it" trace-cmd report "$T/small/full.dat"
	t_eq "full: the filler and the file are all that is left" "filler full.dat" \
		"$(ls "$T/small" | tr '\n' ' ' | sed 's/ $//')"
	"$KMAG" record --flight 1M --trigger "$TRIG" -t 60 -o "$T/small/none.dat" >/dev/null 2>"$T/none.log"
	t_eq "full: a flight on a disk already full is refused (exit 1)" 1 $?
	t_grep "full: ... saying how much room it needs" '^kmag: no space left on device in .*/small \([0-9]+ KiB free; recording needs at least [0-9]+ MiB there: the rings, and room for a snapshot as big\)' "$T/none.log"
	t_eq "full: ... leaving nothing" "filler full.dat" "$(ls "$T/small" | tr '\n' ' ' | sed 's/ $//')"
	umount "$T/small"
	same_as_base full
else
	echo "ok $((T_N + 1)) - full disk # SKIP no tmpfs mount"
	T_N=$((T_N + 1))
fi
# --- a reader behind the kernel's buffer stores pages uncompressed ---------------
# an 8 KiB buffer per CPU: every drain moves half of it, so the reader stores
# its blocks as they are (a zstd frame of raw blocks) and says so; trace-cmd
# reads the file it made. With the default buffer the same dd compresses.
mkdir -p "$T/raw"
taskset -c 0 "$KMAG" record --flight 4M -b 8 -e raw_syscalls:sys_enter -o "$T/raw/raw.dat" \
	-- dd if=/dev/zero of=/dev/null bs=1 count=20000 status=none 2>"$T/raw.log"
t_eq "behind the kernel: a flight with -b 8 exits 0" 0 $?
t_grep "behind the kernel: ... says it stored pages uncompressed" '^kmag: the recorder fell behind the kernel.s buffer: [0-9.]+ [KM]?B of trace stored uncompressed to keep up \(the rings hold less time\): give a larger buffer \(-b\) or trace less' "$T/raw.log"
n=$(events_of "$T/raw/raw.dat" "$T/raw.log")
t_eq "behind the kernel: ... trace-cmd reads every event it wrote ($n)" "$n" "$(records "$T/raw/raw.dat")"
taskset -c 0 "$KMAG" record --flight 4M -e raw_syscalls:sys_enter -o "$T/raw/zstd.dat" \
	-- dd if=/dev/zero of=/dev/null bs=1 count=20000 status=none 2>"$T/zstd.log"
t_nogrep "behind the kernel: with the default buffer it compresses all" 'stored uncompressed' "$T/zstd.log"
t_ok "behind the kernel: ... and the rings are smaller than the raw ones" \
	test "$(stat -c %s "$T/raw/zstd.dat")" -lt "$(stat -c %s "$T/raw/raw.dat")"

# the contrast to the ring's: a short dd in 8M of rings keeps its first system
# calls (last here: the valgrind stage memchecks a test's first 10 kmag runs,
# and this one's path is the ring's)
mkdir -p "$T/short"
"$KMAG" record -q --flight 8M -e raw_syscalls:sys_enter -o "$T/short/short.dat" \
	-- dd if=/dev/zero of=/dev/null bs=1 count=300 2>/dev/null
t_ok "ring: (a short dd in 8M of rings keeps execve)" grep -q 'NR 59 ' <(trace-cmd report "$T/short/short.dat" 2>/dev/null)
t_done
