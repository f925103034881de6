#!/bin/bash
# kmag report on the ftrace text fixtures: the tracefs "trace" file of both
# tracers (plain, with record-tgid/no irq-info, funcgraph-proc/abstime/tail,
# a 6.12 kernel, a trace_pipe with lost events) and `trace-cmd report` text.
. "$(dirname "$0")/lib.sh"

json_get() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"; }

for name in fn-text.txt fn-text-tgid-noirqinfo.txt fn-text-pipe-lost.txt fn-text-overrun.txt \
	fg-text.txt fg-text-proc-abstime-tail.txt fg-text-6.12.txt fn-report.txt fg-report.txt; do
	f="$TRACES/$name"
	t_exit "$name: report succeeds" 0 "$KMAG" report --format json "$f"
	cp "$T/out" "$T/$name.json"
	t_eq "$name: has events" yes "$(json_get "$T/$name.json" '"yes" if r["events"] > 0 else "no"')"
done
t_eq "ftrace function text is recognised" "ftrace text function" \
	"$(json_get "$T/fn-text.txt.json" 'r["format"] + " " + r["tracer"]')"
t_eq "ftrace graph text is recognised" "ftrace text function_graph" \
	"$(json_get "$T/fg-text.txt.json" 'r["format"] + " " + r["tracer"]')"
t_eq "report text is recognised" "trace-cmd report text function_graph" \
	"$(json_get "$T/fg-report.txt.json" 'r["format"] + " " + r["tracer"]')"
t_eq "trace_pipe lost-event lines are counted" 10730 "$(json_get "$T/fn-text-pipe-lost.txt.json" 'r["lost_events"]')"
t_eq "overwritten events from the trace header are lost events" 28420 \
	"$(json_get "$T/fn-text-overrun.txt.json" 'r["lost_events"]')"
t_eq "graph text has durations" yes \
	"$(json_get "$T/fg-text.txt.json" '"yes" if any(f["total_ns"] for f in r["functions"]) else "no"')"

# trace-cmd report text of fg-filtered.dat and the file itself give the same graph:
# with the context flags (report -l), whole; without them (fg-report.txt) an
# interrupt in a call's entry window cannot be nested into the call
# (include/kmag/replay.h), so the calls per function only
"$KMAG" report --format json "$TRACES/fg-filtered.dat" >"$T/bin.json"
if command -v trace-cmd >/dev/null; then
	trace-cmd report -l "$TRACES/fg-filtered.dat" >"$T/fg-report-l.txt" 2>/dev/null
	"$KMAG" report --format json "$T/fg-report-l.txt" >"$T/fg-report-l.json"
	t_ok "report -l text and trace.dat give equal calls, edges and times" \
		python3 "$SRCDIR/tests/oracle/compare_reports.py" "$T/fg-report-l.json" "$T/bin.json"
else
	t_skip "report -l text and trace.dat give equal calls, edges and times" "no trace-cmd"
fi
t_ok "report text and trace.dat give equal calls" \
	python3 -c 'import json,sys
a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]))
ca={f["name"]:f["calls"] for f in a["functions"]}
cb={f["name"]:f["calls"] for f in b["functions"]}
sys.exit(0 if ca==cb and a["events"]==b["events"] else 1)' "$T/fg-report.txt.json" "$T/bin.json"
"$KMAG" report --format json "$TRACES/fn-filtered.dat" >"$T/fnbin.json"
t_ok "function report text and trace.dat give equal calls" \
	python3 -c 'import json,sys
a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]))
ca={f["name"]:f["calls"] for f in a["functions"] if f["calls"]}
cb={f["name"]:f["calls"] for f in b["functions"] if f["calls"]}
sys.exit(0 if ca==cb and a["events"]==b["events"] else 1)' "$T/fn-report.txt.json" "$T/fnbin.json"
t_done
