#!/bin/bash
# SPDX-License-Identifier: MIT
# t0830 - every view of a function_graph trace counts the same calls and the
# same time per function: report (json), flame (folded stacks by time and by
# calls), the Chrome export (slices rebuilt into calls) and report --slowest.
# They all subscribe to the one replay (lib/analysis/replay.c); a view with a
# stack of its own (another task key, another rule for gaps) disagrees here.
# helpers/consistency.py rebuilds each view from its output alone. Interrupts
# that came in a call's entry or return window (fg-2cpu-v6, fg-all-cpu0-v6,
# fg-depth3-v6, fg-filtered*, 6.19/fg619-hex-tail, -latency, -retval) must
# neither split the call nor outlast the calls that hold them: the folded
# stacks holding a function add up to its total. On 6.19 an interrupt also
# lands after a call's rettime (at the depth of the call's own calls) or after
# its exit record (two levels below its caller): vm-irq/fg619-dd-irq.dat.
# Calls in a spot without a duration (in fgraph's return of a call whose exit
# is written: irq_work_queue()'s calls, vm-irq/fg619-dd-irqwork; a timer
# interrupt there, vm-irq/fg619-dd-resched) count in the enclosing call's
# calls, not its self time: its total is still the stacks holding it.
. "$(dirname "$0")/lib.sh"
H=$SRCDIR/tests/e2e/helpers

n=0
for path in "$TRACES"/fg-* "$TRACES"/6.19/fg*.dat "$TRACES"/vm-irq/*.dat "$TRACES"/vm-irq/*.dat.xz; do
	name=$(basename "$path" .xz)
	tr=$path
	case $path in *.xz) rel=${path#"$TRACES"/}; tr=$(fixture_trace "${rel%.xz}") ;; esac
	# text without context flags cannot tell an interrupt from a call (consistency.py)
	ctx=
	case $name in *.txt) grep -q 'irqs-off' "$tr" || ctx=--no-ctx ;; esac
	n=$((n + 1))
	"$KMAG" report --format json --limit 0 "$tr" >"$T/r.json" 2>/dev/null
	"$KMAG" export -F folded -o "$T/time.folded" "$tr" 2>/dev/null
	"$KMAG" flame --weight calls --folded "$T/calls.folded" -o "$T/f.svg" "$tr" 2>/dev/null
	"$KMAG" report --slowest 100000 --format json "$tr" >"$T/s.json" 2>/dev/null
	chrome=$T/c.json
	# text without timestamps has no timeline (export says so and exits 1)
	"$KMAG" export -F chrome -o "$chrome" "$tr" 2>"$T/c.err" ||
		{ grep -q funcgraph-abstime "$T/c.err" && chrome=-; }
	t_ok "$name: report, flame, chrome and slowest agree on every function" \
		python3 "$H/consistency.py" $ctx "$T/r.json" "$T/time.folded" "$T/calls.folded" "$chrome" "$T/s.json"
done
t_ok "the fixtures were found ($n)" test "$n" -ge 13
t_done
