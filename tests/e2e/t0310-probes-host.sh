#!/bin/bash
# SPDX-License-Identifier: MIT
# t0310-probes-host.sh - dynamic probes, the stack tracer and the duration
# options on the machine running the tests: a uprobe and a uretprobe on a
# small program this test builds (argument and return values known), the
# probes removed afterwards (also after SIGKILL + the next run), and the one
# line errors where the kernel lacks kprobes or the stack tracer. kprobes
# themselves are tested in the VM (tests/vm/probes). Needs root, tracefs and
# a C compiler; skips what the kernel cannot do.
. "$(dirname "$0")/lib.sh"
TR=/sys/kernel/tracing

skip() { echo "1..0 # SKIP $*"; exit 0; }
[ "$(id -u)" = 0 ] || skip "kmag record needs root"
[ -d $TR/events ] || skip "no tracefs at $TR"
CC=${CC:-cc}
command -v "$CC" >/dev/null || skip "no C compiler"

export KMAG_STATE_DIR=$T/state
snap() { sh "$SRCDIR/tests/lib/tracefs-snapshot.sh" >"$T/snap-$1.txt" 2>&1; }
same_as_base() {
	snap "$1"
	if cmp -s "$T/snap-base.txt" "$T/snap-$1.txt" && ! grep -q '^[pr][0-9]*:kmag_' $TR/dynamic_events; then
		t_pass "$1: tracefs is as it was found, no kmag probe left"
	else
		t_fail "$1: tracefs is as it was found, no kmag probe left" \
			"$(diff "$T/snap-base.txt" "$T/snap-$1.txt" | head -n 6)" "$(grep kmag_ $TR/dynamic_events)"
	fi
}
snap base

# the kernel's lacks: one clear line each
if [ ! -e $TR/kprobe_events ]; then
	t_exit "no kprobes: record --kprobe fails with exit 1" 1 "$KMAG" record -o "$T/k.dat" --kprobe 'vfs_write count=%dx:u64' -t 1
	t_grep "no kprobes: the error names CONFIG_KPROBE_EVENTS" \
		'^kmag: this kernel has no kprobe events .*CONFIG_KPROBE_EVENTS' "$T/err"
	t_eq "no kprobes: one line" 1 "$(wc -l <"$T/err")"
fi
if [ ! -e /proc/sys/kernel/stack_tracer_enabled ]; then
	t_exit "no stack tracer: kmag stack fails with exit 1" 1 "$KMAG" stack -t 1
	t_grep "no stack tracer: the error names CONFIG_STACK_TRACER" \
		'^kmag: this kernel has no stack tracer .*CONFIG_STACK_TRACER' "$T/err"
fi
t_exit "--threshold needs function_graph: usage error" 2 "$KMAG" record -p function --threshold 10 -o "$T/x.dat"
t_exit "--uprobe without a function: error" 1 "$KMAG" record -o "$T/x.dat" --uprobe '' -t 1
t_exit "report --min-duration junk: usage error" 2 "$KMAG" report --min-duration 5h "$SRCDIR/tests/fixtures/traces/fg-filtered.dat"

[ -e $TR/uprobe_events ] || { t_done; exit; }

# a program whose probed function is called with known arguments
cat >"$T/prog.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) long kmag_target(long n, long m)
{
	__asm__ volatile("");
	return n * 2 + m;
}
int main(int argc, char **argv)
{
	long s = 0;
	int i, n = argc > 1 ? atoi(argv[1]) : 10;

	for (i = 0; i < n; i++)
		s += kmag_target(i % 4, 1000);
	printf("%ld\n", s);
	return 0;
}
C
"$CC" -O1 -o "$T/prog" "$T/prog.c" || { t_fail "the test program builds"; t_done; exit; }

"$KMAG" record -o "$T/u.dat" --uprobe "$T/prog:kmag_target n=%di:s64 m=%si:u32" \
	--uretprobe "$T/prog:kmag_target ret=\$retval:s64" -- "$T/prog" 400 >"$T/u.out" 2>"$T/u.log"
t_eq "uprobe: kmag record exits 0" 0 $?
t_eq "uprobe: the program ran" 401200 "$(cat "$T/u.out")"
same_as_base uprobe
"$KMAG" report --probes "$T/u.dat" >"$T/p.txt" 2>&1
t_grep "uprobe: 400 hits" '^kmag_[0-9]+:kmag_target  \(uprobe\): 400 hits' "$T/p.txt"
t_grep "uprobe: n takes 0..3, 100 times each" \
	'top values: 0 x100 \(25.0%\), 1 x100 \(25.0%\), 2 x100 \(25.0%\), 3 x100 \(25.0%\)' "$T/p.txt"
t_grep "uprobe: n min 0, max 3, mean 1.5" 'n \(s64\): 400 values, min 0, max 3, mean 1.5, 4 distinct' "$T/p.txt"
t_grep "uprobe: m is always 1000" 'm \(u32\): 400 values, min 1000, max 1000, mean 1000, 1 distinct' "$T/p.txt"
t_grep "uretprobe: 400 hits" 'kmag_target__return  \(uretprobe\): 400 hits' "$T/p.txt"
t_grep "uretprobe: returns 1000..1006" 'ret \(s64\): 400 values, min 1000, max 1006, mean 1003' "$T/p.txt"
"$KMAG" report --probes -F json "$T/u.dat" >"$T/p.json" 2>&1
t_ok "report --probes json parses" python3 -c "
import json, sys
d = json.load(open('$T/p.json'))
p = {x['name']: x for x in d['probes']}
a = p['kmag_target']['args'][0]
assert p['kmag_target']['hits'] == 400 and a['name'] == 'n' and a['min'] == 0 and a['max'] == 3, d
assert sum(b['count'] for b in a['histogram']) == 400
assert p['kmag_target__return']['args'][0]['top'][0]['count'] == 100
"

# a fetch argument the kernel rejects: error_log's text with the caret line
"$KMAG" record -o "$T/bad.dat" --uprobe "$T/prog:kmag_target n=%zz:s64" -- "$T/prog" 1 >/dev/null 2>"$T/bad.log"
t_eq "bad fetch argument: exit 1" 1 $?
t_grep "bad fetch argument: the kernel's reason" '^kmag: the kernel rejects --uprobe .*: Invalid register name' "$T/bad.log"
t_grep "bad fetch argument: the command and the caret" '^ *\^$' "$T/bad.log"
same_as_base bad-fetcharg
t_exit "unknown uprobe symbol: exit 1" 1 "$KMAG" record -o "$T/x.dat" --uprobe "$T/prog:no_such_function" -- true
t_grep "unknown uprobe symbol: named" 'has no function "no_such_function"' "$T/err"

# SIGKILL leaves the probe group; the next run removes it
"$KMAG" record -o "$T/k.dat" --uprobe "$T/prog:kmag_target" -t 0 >/dev/null 2>"$T/kill.log" &
k=$!
for i in $(seq 100); do grep -q 'Ctrl-C' "$T/kill.log" && break; sleep 0.1; done
kill -KILL $k
wait $k 2>/dev/null
t_ok "SIGKILL: the probe group stays behind" grep -q "kmag_$k/" $TR/dynamic_events
"$KMAG" record -o "$T/after.dat" --uprobe "$T/prog:kmag_target" -- "$T/prog" 3 >/dev/null 2>"$T/after.log"
t_eq "after SIGKILL: the next run exits 0" 0 $?
t_grep "after SIGKILL: the next run removes the probe" \
	"removed the probe kmag_$k/kmag_target left by a kmag run that was killed \\(pid $k\\)" "$T/after.log"
same_as_base after-kill
t_done
