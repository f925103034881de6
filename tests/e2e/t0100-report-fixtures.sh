#!/bin/bash
# kmag report on every real-kernel fixture: per-function call counts,
# caller->callee edge counts, timed calls and their mean (Avg) equal those
# recomputed from trace-cmd's own decoding, interrupts in a call's windows
# placed by the kernel's durations (tests/oracle/tracecmd_counts.py; 6.19's
# fgraph_retaddr_entry records it does not read), and kmag's built-in reader
# agrees with the libtracecmd reference reader on events, calls, edges, times.
. "$(dirname "$0")/lib.sh"
ORACLE="$SRCDIR/tests/oracle"

for name in fn-filtered.dat fn-broad-v6.dat fn-lost-v6.dat fg-filtered.dat fg-filtered-v6.dat \
	fg-depth3-v6.dat fg-all-cpu0-v6.dat fg-lost-v6.dat fg-sched-v6.dat fg-2cpu-v6.dat \
	fg-filtered-6.12-v6.dat 6.19/fg619-retval.dat; do
	f=$(fixture_trace "$name")
	if ! "$KMAG" report --format json "$f" >"$T/k.json" 2>"$T/err"; then
		t_fail "$name: kmag report --format json" "$(cat "$T/err")"
		continue
	fi
	t_ok "$name: counts equal trace-cmd's" python3 "$ORACLE/tracecmd_counts.py" --compare "$T/k.json" "$f"
	if ! t_has_feature libtracecmd; then
		t_skip "$name: built-in reader equals libtracecmd reader" "this kmag was built without libtracecmd"
		continue
	fi
	"$KMAG" report --reader libtracecmd --format json "$f" >"$T/l.json" 2>"$T/err"
	t_ok "$name: built-in reader equals libtracecmd reader" \
		python3 "$ORACLE/compare_reports.py" "$T/k.json" "$T/l.json" "$f"
done

# the text header describes the input
f=$(fixture_trace fg-lost-v6.dat)
"$KMAG" report "$f" >"$T/out" 2>"$T/err"
t_grep "header names format and tracer" '^# input: +trace.dat v6, tracer function_graph' "$T/out"
t_grep "header names the kernel" '^# kernel: .*6\.1\.0-[0-9]+-cloud-amd64' "$T/out"
t_grep "lost events per CPU, with percentage" '^# lost: +CPU0: [0-9,]+ events lost \([0-9.]+%\)' "$T/out"
t_grep "time span" '^# time: +[0-9]+\.[0-9]{6} \.\. [0-9]+\.[0-9]{6} s' "$T/out"
t_grep "incomplete calls are reported" '^# graph: .* [1-9][0-9,]* incomplete calls' "$T/out"
"$KMAG" report --format json "$f" >"$T/lost.json"
t_ok "json lost_events comes from the CPU stats (overrun 4671)" \
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if r["lost_events"]==4671 and sum(c["gaps"] for c in r["cpus"])==28 else 1)' "$T/lost.json"

f=$(fixture_trace fg-filtered.dat)
"$KMAG" report "$f" >"$T/out"
t_grep "v7 files say zstd" '^# input: +trace.dat v7 \(zstd\), tracer function_graph' "$T/out"
f=$(fixture_trace fn-filtered.dat)
"$KMAG" report "$f" >"$T/out"
t_grep "function tracer: no durations" 'function tracer: callers only, no durations' "$T/out"
t_grep "function tracer rows show - for times" '^ +[0-9]+ +- +- +- +- ' "$T/out"
f=$(fixture_trace fg-sched-v6.dat)
"$KMAG" report "$f" >"$T/out"
t_grep "other events are counted by name" '^# other: +sched:sched_switch 179' "$T/out"
t_done
