#!/bin/bash
# SPDX-License-Identifier: MIT
# t0841-replay-clock: one clock for the times of calls. On every function_graph
# fixture, the time column of `kmag replay` never runs backwards on a CPU and
# its leaf lines carry their entry's time as trace-cmd report prints it (and
# `replay --format json` the entry's time to the nanosecond, from report -t);
# on the kernel's own text with funcgraph-abstime, the text's times. A call's
# time printed by `report --slowest`, given back to --time, finds that call.
# The references are trace-cmd (Debian's 3.1.6, when installed) and the
# kernel's text, read by helpers/replay-clock.py.
. "$(dirname "$0")/lib.sh"
H="$SRCDIR/tests/e2e/helpers/replay-clock.py"

figures() { # figures NAME KIND REF GOT: "leaves N differ 0 backwards 0"
	python3 "$H" "$2" "$3" "$4" >"$T/fig" 2>/dev/null || return 1
	tr '\n' ' ' <"$T/fig" | sed 's/ $//'
}

n=0
for path in "$TRACES"/fg-*.dat.xz "$TRACES"/fg-*.dat "$TRACES"/6.19/fg*.dat "$TRACES"/vm-irq/*.dat \
	"$TRACES"/vm-irq/*.dat.xz; do
	case $path in *.xz) rel=${path#"$TRACES"/}; tr=$(fixture_trace "${rel%.xz}") ;; *) tr=$path ;; esac
	name=$(basename "$tr")
	n=$((n + 1))
	"$KMAG" replay "$tr" >"$T/replay.txt" 2>/dev/null
	if ! command -v trace-cmd >/dev/null; then
		t_skip "$name: replay's times are trace-cmd report's" "no trace-cmd"
		continue
	fi
	trace-cmd report "$tr" >"$T/tc.txt" 2>/dev/null
	got=$(figures "$name" tracecmd "$T/tc.txt" "$T/replay.txt")
	t_eq "$name: leaf lines at trace-cmd report's entry times, time column in order per CPU" \
		"${got%% differ*} differ 0 backwards 0" "$got"
	trace-cmd report -t "$tr" >"$T/tc-ns.txt" 2>/dev/null
	"$KMAG" replay --format json "$tr" >"$T/replay.json" 2>/dev/null
	got=$(figures "$name" json "$T/tc-ns.txt" "$T/replay.json")
	t_eq "$name: json start_ns of leaves is their entry's time to the ns" \
		"${got%% differ*} differ 0" "$got"
done
t_ok "the trace.dat fixtures were found ($n)" test "$n" -ge 13

# the kernel's own text with timestamps: its times, as it printed them
for f in "$TRACES"/fg-text-proc-abstime-tail.txt "$TRACES"/6.19/fg619-hex-tail.txt; do
	"$KMAG" replay "$f" >"$T/replay.txt" 2>/dev/null
	got=$(figures "$f" kernel "$f" "$T/replay.txt")
	t_eq "$(basename "$f"): leaf lines at the text's times, in order per CPU" \
		"${got%% differ*} differ 0 backwards 0" "$got"
done

# --- a call's time, given back to --time, finds that call ---
tr=$(fixture_trace fg-all-cpu0-v6.dat)
"$KMAG" report --slowest 12 "$tr" >"$T/slow.txt"
found=0 missed=
while read -r dur unit func pid at; do
	# "1.234 ms  func  (pid 373 dd, ... at 138.262617 s)": its task's first call from then on
	"$KMAG" replay --format json --function "$func" --depth 1 --pid "$pid" --time "$at," "$tr" 2>/dev/null |
		python3 -c 'import json,sys
c = json.loads(sys.stdin.readline())
print("%.3f %s" % (c["duration_ns"] / (1e6 if sys.argv[1] == "ms" else 1e3), ",".join(c["flags"])))' "$unit" \
		>"$T/one" 2>/dev/null
	if [ "$(cat "$T/one")" = "$dur " ]; then
		found=$((found + 1))
	else
		missed="$missed $func@$at($(cat "$T/one"))"
	fi
done < <(sed -nE 's/^ *[0-9]+\. +([0-9.]+) (ms|us)  ([^ ]+)  \(pid ([0-9]+) .* at ([0-9.]+) s\)$/\1 \2 \3 \4 \5/p' "$T/slow.txt")
t_eq "report --slowest's times given to --time find those calls, whole" "12 found" "$found found$missed"
t_done
