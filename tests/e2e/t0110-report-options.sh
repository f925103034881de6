#!/bin/bash
# kmag report options: sorting, limits, callers/callees, filters, formats.
. "$(dirname "$0")/lib.sh"
F=$TRACES/fg-filtered.dat
FN=$TRACES/fn-filtered.dat
py() { python3 -c "$1" "${@:2}"; }

t_exit "json output" 0 "$KMAG" report --format json "$F"
cp "$T/out" "$T/all.json"
t_ok "json is one valid object with the documented fields" py '
import json,sys
r=json.load(open(sys.argv[1]))
assert set(["events","lost_events","functions","edges"]) <= set(r)
f=r["functions"][0]; assert set(["name","calls","total_ns","self_ns"]) <= set(f)
e=r["edges"][0]; assert set(["caller","callee","calls"]) <= set(e)' "$T/all.json"
t_exit "function tracer json" 0 "$KMAG" report --format json "$FN"
t_ok "function tracer times are null" py '
import json,sys
r=json.load(open(sys.argv[1]))
assert r["functions"] and all(f["total_ns"] is None and f["self_ns"] is None for f in r["functions"])' "$T/out"

t_exit "sort by total" 0 "$KMAG" report --format json --sort total "$F"
t_ok "functions come sorted by total time" py '
import json,sys
v=[f["total_ns"] or 0 for f in json.load(open(sys.argv[1]))["functions"]]
assert len(v) > 10 and v[0] > v[-1] and v == sorted(v, reverse=True), v[:20]' "$T/out"
t_exit "sort by self, limit 5" 0 "$KMAG" report --format json --sort self --limit 5 "$F"
t_ok "limit keeps the top 5 by self time" py '
import json,sys
a=json.load(open(sys.argv[1]))["functions"]; b=json.load(open(sys.argv[2]))["functions"]
top=sorted(b, key=lambda f: (-(f["self_ns"] or 0), f["name"]))[:5]
assert [f["name"] for f in a] == [f["name"] for f in top]' "$T/out" "$T/all.json"
t_exit "sort by name" 0 "$KMAG" report --sort name --limit 0 "$F"
t_ok "names are in order" sh -c "grep -v '^#' '$T/out' | awk '{print \$NF}' | LC_ALL=C sort -c"
t_exit "text limit" 0 "$KMAG" report --limit 3 "$F"
t_eq "three rows" 3 "$(grep -vc '^#' "$T/out")"
t_grep "the cut is said" '^# \.\.\. [0-9]+ more functions' "$T/out"

t_exit "callers" 0 "$KMAG" report --callers _raw_spin_lock --format json "$F"
t_ok "callers match the edges into the function" py '
import json,sys
r=json.load(open(sys.argv[1])); full=json.load(open(sys.argv[2]))
want=sorted((e["caller"],e["calls"]) for e in full["edges"] if e["callee"]=="_raw_spin_lock")
got=sorted((e["caller"],e["calls"]) for e in r["edges"])
assert r["focus"]["name"]=="_raw_spin_lock" and want==got and want' "$T/out" "$T/all.json"
t_exit "callees" 0 "$KMAG" report --callees vfs_write "$F"
t_grep "callees table" '^# callees of vfs_write' "$T/out"
t_grep "callees lists a real callee" ' rw_verify_area$' "$T/out"
t_exit "clone names resolve (finish_task_switch -> .isra.0)" 0 "$KMAG" report --callers finish_task_switch "$F"
t_grep "the clone is used" 'callers of finish_task_switch\.isra\.0' "$T/out"
t_exit "callers of a function nobody calls" 0 "$KMAG" report --callers vfs_write "$F"

# filters
pid=$(py 'import json,sys; print(0)' )
t_exit "pid filter" 0 "$KMAG" report --format json --comm 'wl.sh' "$F"
cp "$T/out" "$T/comm.json"
t_ok "comm filter keeps fewer calls" py '
import json,sys
a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]))
assert 0 < sum(f["calls"] for f in a["functions"]) < sum(f["calls"] for f in b["functions"])
assert a["filters"].startswith("comm wl.sh")' "$T/comm.json" "$T/all.json"
t_exit "cpu filter" 0 "$KMAG" report --format json --cpu 1 "$F"
cp "$T/out" "$T/cpu1.json"
t_exit "cpu filter (other CPU)" 0 "$KMAG" report --format json --cpu 0 "$F"
t_ok "the two CPUs add up to all calls" py '
import json,sys
c=[sum(f["calls"] for f in json.load(open(p))["functions"]) for p in sys.argv[1:]]
assert c[0] + c[1] == c[2] and c[0] and c[1]' "$T/cpu1.json" "$T/out" "$T/all.json"
t_exit "time window" 0 "$KMAG" report --format json --time +0.05,+0.1 "$F"
t_ok "the window keeps fewer calls" py '
import json,sys
a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]))
assert 0 < sum(f["calls"] for f in a["functions"]) < sum(f["calls"] for f in b["functions"])' "$T/out" "$T/all.json"
t_exit "absolute time window" 0 "$KMAG" report --format json --time 29.6, "$F"
t_ok "absolute window starts at 29.6 s" py '
import json,sys
a=json.load(open(sys.argv[1]))
assert 0 < sum(f["calls"] for f in a["functions"])' "$T/out"

t_exit "csv" 0 "$KMAG" report --format csv "$F"
t_grep "csv header" '^function,calls,total_ns,self_ns,avg_ns,min_ns,max_ns,p50_ns,p90_ns,p99_ns,incomplete,module$' "$T/out"
t_ok "csv rows parse" py '
import csv,sys
rows=list(csv.DictReader(open(sys.argv[1])))
assert len(rows) > 100 and all(int(r["calls"]) >= 0 for r in rows)' "$T/out"
t_exit "unknown format" 2 "$KMAG" report --format xml "$F"
t_exit "both callers and callees" 2 "$KMAG" report --callers a --callees b "$F"
t_exit "negative limit" 2 "$KMAG" report --limit -1 "$F"
t_exit "two files" 2 "$KMAG" report "$F" "$F"
# the table shows the column it is sorted by: -s min puts Min where Max stands
t_ok "--sort min" sh -c "'$KMAG' report -s min --limit 5 '$F' >'$T/min.txt'"
t_grep "the header has Min" '^# +Calls +Total +Self +Avg +Min +Incmpl +Function$' "$T/min.txt"
t_ok "its Min column is each function's shortest call, largest first" python3 -c "
import json, re, subprocess, sys
js = json.loads(subprocess.run(['$KMAG', 'report', '-F', 'json', '--limit', '0', '$F'],
                               capture_output=True, text=True).stdout)
mins = {f['name']: f['min_ns'] for f in js['functions']}
rows = [l.split() for l in open('$T/min.txt') if not l.startswith('#')]
unit = {'ns': 1, 'us': 1e3, 'ms': 1e6, 's': 1e9}
shown = [(r[-1], float(r[7]) * unit[r[8]]) for r in rows]
assert len(shown) == 5, shown
for name, v in shown:
    assert abs(v - mins[name]) <= max(1, mins[name] * 0.001), (name, v, mins[name])
assert [m for _, m in shown] == sorted([m for _, m in shown], reverse=True), shown
assert shown[0][1] >= max(m for m in mins.values() if m is not None) * 0.999, shown"
t_ok "--sort max keeps Max" "$KMAG" report -s max --limit 5 "$F"
t_grep "the header has Max" '^# +Calls +Total +Self +Avg +Max +Incmpl +Function$' "$T/ok.out"
t_done
