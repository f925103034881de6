#!/bin/bash
# report's p50/p90/p99 per function (JSON and CSV) are the nearest-rank
# percentiles of the durations trace-cmd decodes (funcgraph_exit rettime -
# calltime, helpers/percentiles.py; --raw-times), on 6.1, 6.12 and 6.19
# fixtures, and of the corrected ones with --overhead: equal
# where kmag kept every duration, within 1/256 where it kept buckets
# (fg-all-cpu0 and fg-depth3 have functions of more than 1,024 calls).
. "$(dirname "$0")/lib.sh"
H="$SRCDIR/tests/e2e/helpers"

for name in fg-filtered.dat fg-filtered-v6.dat fg-depth3-v6.dat fg-all-cpu0-v6.dat \
	fg-lost-v6.dat fg-sched-v6.dat fg-2cpu-v6.dat fg-filtered-6.12-v6.dat \
	6.19/fg619-retval.dat 6.19/fg619-args.dat 6.19/fg619-retaddr.dat 6.19/fg619-latency.dat; do
	f=$(fixture_trace "$name")
	if ! "$KMAG" report --format json --limit 0 --raw-times "$f" >"$T/k.json" 2>"$T/err"; then
		t_fail "$name: kmag report --format json" "$(cat "$T/err")"
		continue
	fi
	t_ok "$name: p50/p90/p99 are trace-cmd's nearest-rank percentiles" \
		python3 "$H/percentiles.py" "$T/k.json" "$f"
done

# percentiles follow the tracer-cost correction (--overhead): each call's
# duration less the cost of the traced calls trace-cmd shows beneath it
f=$(fixture_trace fg-2cpu-v6.dat)
"$KMAG" report --format json --limit 0 --overhead 150 "$f" >"$T/ov.json"
for fn in ksys_read ksys_write; do
	t_ok "--overhead 150: $fn's percentiles of its corrected durations" \
		python3 "$H/corrected-percentiles.py" "$fn" 150 "$T/ov.json" "$f"
done
f=$(fixture_trace 6.19/fg619-retval.dat)
"$KMAG" report --format json --limit 0 --overhead 200 "$f" >"$T/ov619.json"
t_ok "--overhead 200 on 6.19: ksys_read's too" \
	python3 "$H/corrected-percentiles.py" ksys_read 200 "$T/ov619.json" "$f"

# a function with more calls than kept one by one is bucketed, and says so
f=$(fixture_trace fg-all-cpu0-v6.dat)
"$KMAG" report --format json --limit 0 "$f" >"$T/all.json"
t_ok "fg-all-cpu0: some functions bucketed (percentiles_exact false), all others exact" \
	python3 -c '
import json, sys
fs = json.load(open(sys.argv[1]))["functions"]
b = [f for f in fs if f.get("percentiles_exact") is False]
sys.exit(0 if b and all(f["timed"] > 1024 for f in b) and
	 all(f["percentiles_exact"] for f in fs if f["timed"] and f["timed"] <= 1024) else 1)' "$T/all.json"

# CSV: the same figures in the p50_ns, p90_ns, p99_ns columns
"$KMAG" report --format csv --limit 0 "$f" >"$T/all.csv"
t_ok "CSV percentiles equal the JSON's" python3 -c '
import csv, json, sys
j = {f["name"]: f for f in json.load(open(sys.argv[1]))["functions"]}
rows = list(csv.DictReader(open(sys.argv[2])))
bad = [r["function"] for r in rows for p in ("p50_ns", "p90_ns", "p99_ns")
       if (r[p] or None) != (None if j[r["function"]][p] is None else str(j[r["function"]][p]))]
sys.exit(1 if bad or not rows else 0)' "$T/all.json" "$T/all.csv"

# merge sums the durations themselves: a trace merged with itself has the
# percentiles of every call counted twice
f=$(fixture_trace fg-2cpu-v6.dat)
"$KMAG" merge "$f" "$f" >"$T/m.json" 2>/dev/null
t_ok "merge T T: percentiles of every call twice" python3 "$H/percentiles.py" "$T/m.json" "$f" 2
# a profile read back holds sums only
"$KMAG" report --format json --limit 0 "$T/m.json" >"$T/p.json"
t_ok "a profile read back: percentiles null" python3 -c '
import json, sys
fs = json.load(open(sys.argv[1]))["functions"]
sys.exit(0 if fs and all(f["p50_ns"] is None for f in fs) else 1)' "$T/p.json"

# the function tracer times nothing: no percentiles
f=$(fixture_trace fn-filtered.dat)
"$KMAG" report --format json --limit 0 "$f" >"$T/fn.json"
t_ok "function tracer: percentiles null" python3 -c '
import json, sys
fs = json.load(open(sys.argv[1]))["functions"]
sys.exit(0 if fs and all(f["p50_ns"] is None and f["p99_ns"] is None for f in fs) else 1)' "$T/fn.json"
t_done
