#!/bin/bash
# kmag export: Chrome trace events that parse and nest per thread (also when
# split into parts), folded stacks, CSV, JSON and DOT of the graph.
. "$(dirname "$0")/lib.sh"
# the kmag diff fixture pairs (tests/fixtures/traces/diff/, see its README section)
diff_fixture() { mkdir -p "$T/diff" && fixture_trace "diff/$1"; }
H="$SRCDIR/tests/e2e/helpers"
FG=$(diff_fixture diff-fg-tmpfs.dat)
FN=$(diff_fixture diff-fn-base.dat)

calls=$("$KMAG" report -F csv --limit 0 "$FG" | awk -F, 'NR > 1 { s += $2 } END { print s }')
t_ok "chrome export to a file" "$KMAG" export -F chrome -o "$T/c.json" "$FG"
t_ok "it parses and every thread's calls nest" sh -c "python3 '$H/chrome-check.py' '$T/c.json' >'$T/check'"
t_grep "one X event per call of the report ($calls)" "^calls=$calls threads=[0-9]+ incomplete=0 " "$T/check"
t_grep "tracks are named after the tasks" '"thread_name","pid":[0-9]+,"tid":[0-9]+,"args":\{"name":"dd-[0-9]+"\}' "$T/c.json"
t_grep "the time origin is recorded" '"time_origin_ns":[0-9]+' "$T/c.json"
t_ok "chrome export split into 64 KiB parts" "$KMAG" export -F chrome --split-size 64K -o "$T/s.json" "$FG"
t_grep "lists the parts" 'wrote [0-9]+ files .*s\.json .*s\.1\.json' "$T/ok.err"
parts=$(ls "$T"/s*.json | wc -l)
t_ok "there are several ($parts)" test "$parts" -gt 2
t_ok "every part parses, together they nest" sh -c "python3 '$H/chrome-check.py' '$T'/s*.json >'$T/check2'"
t_grep "and hold every call" "^calls=$calls " "$T/check2"
largest=$(stat -c %s "$T"/s*.json | sort -n | tail -1)
t_ok "no part is much past the split size ($largest bytes)" test "$largest" -lt 70000
t_ok "chrome export to stdout" sh -c "'$KMAG' export -F chrome '$FG' >'$T/o.json'"
t_ok "parses too" python3 "$H/chrome-check.py" "$T/o.json"
t_exit "function tracer data cannot become a timeline" 1 "$KMAG" export -F chrome -o "$T/fn.json" "$FN"
t_grep "kmag says why" 'function tracer.*function_graph' "$T/err"
t_ok "and leaves no half-written file" test ! -e "$T/fn.json"

# real traces from the VM fixture set
for f in fg-lost-v6 fg-2cpu-v6 fg-sched-v6; do
	tr=$(fixture_trace $f.dat)
	n=$("$KMAG" report -F csv --limit 0 "$tr" 2>/dev/null | awk -F, 'NR > 1 { s += $2 } END { print s }')
	t_ok "$f: exported calls nest on every thread" \
		sh -c "'$KMAG' export -F chrome -o '$T/$f.json' '$tr' 2>/dev/null && python3 '$H/chrome-check.py' '$T/$f.json' >'$T/$f.check'"
	t_grep "$f: one event per call ($n)" "^calls=$n " "$T/$f.check"
done
t_eq "fg-lost-v6: every gap is marked" 28 "$(grep -c '"cat":"lost"' "$T/fg-lost-v6.json")"
t_grep "fg-lost-v6: with its count" '"name":"[0-9]+ events lost on CPU[01]"' "$T/fg-lost-v6.json"
t_eq "fg-sched-v6: the sched_switch events are instants" 179 "$(grep -c '"name":"sched_switch","cat":"sched"' "$T/fg-sched-v6.json")"
t_grep "fg-sched-v6: idle tasks get one track per CPU" '"thread_name","pid":0,"tid":4194305,"args":\{"name":"idle \(swapper/1\)"' "$T/fg-sched-v6.json"

# incomplete calls: the trace starts inside a call and ends inside another
cat >"$T/cut.txt" <<'TXT'
# tracer: function_graph
#
  100.000000 |   0)   bash-123    |   0.500 us    |    fdget_pos();
  100.000002 |   0)   bash-123    |   4.000 us    |  } /* ksys_read */
  100.000003 |   0)   bash-123    |               |  ksys_write() {
  100.000004 |   0)   bash-123    |               |    vfs_write() {
  100.000006 |   0)   bash-123    |   1.000 us    |      write_null();
TXT
t_ok "a trace cut inside calls" sh -c "'$KMAG' export -F chrome '$T/cut.txt' >'$T/cut.json'"
t_ok "still nests" sh -c "python3 '$H/chrome-check.py' '$T/cut.json' >'$T/check3'"
t_grep "the calls cut off are marked incomplete" '^calls=5 threads=1 incomplete=3 ' "$T/check3"
t_grep "ksys_read, begun before the trace, is cut at its start" '"name":"ksys_read","cat":"func","ts":0\.000,"dur":2\.000' "$T/cut.json"
printf '# tracer: function_graph\n#\n 0)   0.500 us    |  fdget_pos();\n' >"$T/nots.txt"
t_exit "lines without timestamps" 1 "$KMAG" export -F chrome "$T/nots.txt"
t_grep "name the missing option" 'funcgraph-abstime' "$T/err"

t_ok "folded export" "$KMAG" export -F folded -o "$T/e.folded" "$FG"
"$KMAG" flame --folded "$T/f.folded" "$FG" 2>/dev/null
t_ok "equals kmag flame --folded" cmp "$T/e.folded" "$T/f.folded"
t_ok "csv of functions" "$KMAG" export -F csv -o "$T/f.csv" "$FG"
t_grep "has the report's header" '^function,calls,total_ns,self_ns,avg_ns,min_ns,max_ns,p50_ns,p90_ns,p99_ns,incomplete,module$' "$T/f.csv"
t_ok "csv of edges" "$KMAG" export -F csv --table edges -o "$T/e.csv" "$FG"
t_grep "with caller and callee" '^ksys_write,vfs_write,34,[0-9]+,' "$T/e.csv"
t_ok "json" "$KMAG" export -F json -o "$T/g.json" "$FG"
t_ok "has every function and edge" python3 -c "
import json; d = json.load(open('$T/g.json'))
assert len(d['functions']) == $(($(wc -l <"$T/f.csv") - 1)), len(d['functions'])
assert len(d['edges']) == $(($(wc -l <"$T/e.csv") - 1)), len(d['edges'])"
if t_has_feature graphviz; then
	t_ok "dot" "$KMAG" export -F dot -o "$T/g.dot" "$FG"
	t_ok "Graphviz reads it" dot -Tsvg -o "$T/g.svg" "$T/g.dot"
	t_grep "edges carry their calls" 'ksys_write -> vfs_write' "$T/g.dot"
else
	t_skip "export -F dot" "this kmag was built without graphviz"
fi
t_exit "no --format is a usage error" 2 "$KMAG" export "$FG"
t_exit "unknown format" 2 "$KMAG" export -F xml "$FG"
t_exit "bad --split-size" 2 "$KMAG" export -F chrome --split-size lots -o "$T/z.json" "$FG"
t_exit "unknown --table" 2 "$KMAG" export -F csv --table nodes "$FG"
t_done
