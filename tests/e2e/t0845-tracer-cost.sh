#!/bin/bash
# SPDX-License-Identifier: MIT
# t0845-tracer-cost: the tracer's cost per traced call taken off the durations
# (--overhead on a trace that carries none, --raw-times). The counts the
# corrections must match come from trace-cmd report -R (helpers/traced-beneath.py):
# a call's total loses the cost of every traced call beneath it, its self time
# that of the calls it made itself.
. "$(dirname "$0")/lib.sh"
FG=$TRACES/fg-filtered.dat
TB="$SRCDIR/tests/e2e/helpers/traced-beneath.py"

# total_ns and self_ns of function $1 in report JSON $2
ts() { python3 -c "
import json, sys
f = [x for x in json.load(open(sys.argv[2]))['functions'] if x['name'] == sys.argv[1]][0]
print(f['total_ns'], f['self_ns'], f['incomplete'])" "$1" "$2"; }

t_ok "report, the kernel's times" "$KMAG" report "$FG" -F json
cp "$T/ok.out" "$T/raw.json"
t_ok "report --overhead 100" "$KMAG" report "$FG" -F json --overhead 100
cp "$T/ok.out" "$T/cor.json"
t_eq "JSON says the cost taken off" "100 0" \
	"$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['tracer_cost_ns'], json.load(open(sys.argv[2]))['tracer_cost_ns'])" "$T/cor.json" "$T/raw.json")"
if command -v trace-cmd >/dev/null; then
	for f in generic_file_write_iter __generic_file_write_iter; do
		read -r beneath direct _ _ < <(trace-cmd report -R "$FG" 2>/dev/null | python3 "$TB" $f)
		read -r rt rs ri < <(ts $f "$T/raw.json")
		read -r ct cs ci < <(ts $f "$T/cor.json")
		t_eq "$f (complete calls): total less 100 ns x $beneath traced calls beneath, self less 100 ns x $direct calls it made (trace-cmd's counts)" \
			"0 $((rt - 100 * beneath)) $((rs - 100 * direct))" "$ri $ct $cs"
	done
else
	t_skip "totals and self times less the cost of the calls trace-cmd counts" "no trace-cmd"
fi
# 6.19: call sites (fgraph_retaddr_entry), return values
F19=$TRACES/6.19/fg619-retaddr.dat
if command -v trace-cmd >/dev/null; then
	read -r beneath _ calls sum < <(trace-cmd report -R "$F19" 2>/dev/null | python3 "$TB" ksys_read)
	t_eq "6.19 with call sites: ksys_read's total is trace-cmd's durations less 100 ns x $beneath calls beneath" \
		"$calls $((sum - 100 * beneath))" \
		"$("$KMAG" report "$F19" -F json --overhead 100 | python3 -c "
import json, sys
f = [x for x in json.load(sys.stdin)['functions'] if x['name'] == 'ksys_read'][0]
print(f['calls'], f['total_ns'])")"
else
	t_skip "6.19: totals less the cost of the calls trace-cmd counts" "no trace-cmd"
fi
t_ok "report --overhead (text)" "$KMAG" report "$FG" --overhead 250
t_grep "the header says so" "^# times corrected for the tracer's cost: 250 ns per traced call \(given by --overhead\)$" "$T/ok.out"
t_ok "report (text)" "$KMAG" report "$FG"
t_nogrep "no such line without a cost" "times corrected" "$T/ok.out"
cp "$T/ok.out" "$T/plain.txt"
# diff: the correction on a header line of its own, as report's (not under "# filters:")
t_ok "diff --overhead with a filter (text)" "$KMAG" diff "$FG" "$FG" --overhead 250 --cpu 0
t_grep "diff's header says the cost on its own line" \
	"^# times corrected for the tracer's cost: 250 ns per traced call \(given by --overhead\)$" "$T/ok.out"
t_grep "... and the filters on theirs" "^# filters: " "$T/ok.out"
t_nogrep "... which do not hold the cost" "^# filters: .*tracer's cost" "$T/ok.out"
t_ok "diff --overhead with a filter (JSON)" "$KMAG" diff "$FG" "$FG" --overhead 250 --cpu 0 -F json
t_eq "diff's JSON: times apart from the filters" \
	"times corrected for the tracer's cost: 250 ns per traced call (given by --overhead)|False" \
	"$(python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print(d['times'] + '|' + str('cost' in d['filters']))" "$T/ok.out")"
t_ok "report --raw-times" "$KMAG" report "$FG" --raw-times
t_eq "--raw-times on a trace without a cost: the kernel's times" "same" \
	"$(cmp -s "$T/plain.txt" "$T/ok.out" && echo same || echo differ)"

# replay: the lines keep the kernel's durations, JSON adds the corrected ones
t_ok "replay" "$KMAG" replay "$FG"
cp "$T/ok.out" "$T/replay.txt"
t_ok "replay --overhead 100" "$KMAG" replay "$FG" --overhead 100
t_eq "replay's lines keep the kernel's durations" "same" \
	"$(cmp -s "$T/replay.txt" "$T/ok.out" && echo same || echo differ)"
t_ok "replay -F json --overhead 100" "$KMAG" replay "$FG" -F json --overhead 100
t_eq "every timed call: corrected_ns = max(0, duration_ns - 100 x traced_beneath)" "ok" "$(python3 -c "
import json, sys
bad = n = 0
for line in open(sys.argv[1]):
    c = json.loads(line)
    if c.get('duration_ns') is None:
        continue
    n += 1
    if c['corrected_ns'] != max(0, c['duration_ns'] - 100 * c['traced_beneath']):
        bad += 1
print('ok' if n and not bad else '%d of %d differ' % (bad, n))" "$T/ok.out")"

# a profile: its sums had each recording's cost taken off when it was made; read back, the
# header says so, --raw-times cannot undo it, and merge keeps each recording's own
t_ok "a profile made with --overhead 100" "$KMAG" report "$FG" -F json --limit 0 --overhead 100
cp "$T/ok.out" "$T/p100.json"
"$KMAG" report "$FG" -F json --limit 0 --overhead 200 >"$T/p200.json" 2>/dev/null
t_ok "report of the profile" "$KMAG" report "$T/p100.json"
t_grep "its header says the cost its times had taken off" \
	"^# times corrected for the tracer's cost: 100 ns per traced call \(taken off when the profile was made\)$" "$T/ok.out"
t_ok "report -F json of the profile" "$KMAG" report "$T/p100.json" -F json --limit 0
t_eq "its JSON: the same cost, and generic_file_write_iter's total as in the profile (taken off once)" "100 100 True" \
	"$(python3 -c "
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
t = lambda d: [f['total_ns'] for f in d['functions'] if f['name'] == 'generic_file_write_iter'][0]
print(b['tracer_cost_ns'], b['sources'][0]['tracer_cost_ns'], t(a) == t(b))" "$T/p100.json" "$T/ok.out")"
t_grep "and a note: no percentiles in a profile" "^kmag: note: .*p100.json is a profile, which keeps sums and not each call's duration: its p50, p90 and p99 are null" "$T/ok.err"
t_ok "report -F csv of the profile" "$KMAG" report "$T/p100.json" -F csv
t_grep "CSV: the note says they are empty" "its p50, p90 and p99 are empty" "$T/ok.err"
t_exit "--raw-times on a corrected profile is refused" 1 "$KMAG" report "$T/p100.json" --raw-times
t_grep "naming the cost and the way out" "raw-times: .*p100.json is a profile whose times had the tracer's cost taken off when it was made \(100 ns per traced call\); give it the trace" "$T/err"
t_ok "merge of profiles made with 100 and 200 ns" "$KMAG" merge "$T/p100.json" "$T/p200.json"
cp "$T/ok.out" "$T/m.json"
t_eq "merge: each recording keeps its cost; no one cost at the top" "0 [100, 200]" \
	"$(python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print(d['tracer_cost_ns'], [s['tracer_cost_ns'] for s in d['sources']])" "$T/m.json")"
t_ok "report of the merge" "$KMAG" report "$T/m.json"
t_grep "its header: each recording's cost" \
	"^# times corrected for the tracer's cost of each recording: 100 to 200 ns per traced call \(taken off when the profile was made, in 2 of its 2 recordings" "$T/ok.out"
t_ok "merge of two profiles made with 100 ns" "$KMAG" merge "$T/p100.json" "$T/p100.json"
t_eq "the cost they share is at the top" "100" \
	"$(python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['tracer_cost_ns'])" "$T/ok.out")"

# bad values
t_exit "--overhead 0 is refused" 2 "$KMAG" report "$FG" --overhead 0
t_grep "naming --raw-times" "raw-times" "$T/err"
t_exit "--overhead x is refused" 2 "$KMAG" report "$FG" --overhead x
t_exit "--raw-times with --overhead" 2 "$KMAG" report "$FG" --raw-times --overhead 5
t_grep "says they contradict" "contradict" "$T/err"
t_done
