#!/usr/bin/env python3
# pprof-top-check.py TOP.txt REPORT.json time|calls
#
# TOP.txt is `go tool pprof -top -unit=ns -sample_index=time|calls` of a
# kmag pprof export; REPORT.json `kmag report --format json --limit 0` of the
# same trace. Checks that pprof's top functions by flat value are the
# report's top functions by self time (or calls), with the same values:
# pprof's flat values are the highest of the report's (ties may come in any
# order) and each function's flat value is its value in the report.
import json
import re
import sys

top, report, index = sys.argv[1], sys.argv[2], sys.argv[3]
key = "self_ns" if index == "time" else "calls"
want = {f["name"]: f[key] or 0 for f in json.load(open(report))["functions"]}
rows, started = [], False
for line in open(top):
    if re.match(r"^\s+flat\s+flat%", line):
        started = True
        continue
    if started and line.strip():
        cols = line.split()
        rows.append((int(re.sub(r"ns$", "", cols[0])), cols[5]))
if len(rows) < 5:
    sys.exit("pprof-top-check: pprof listed %d functions" % len(rows))
best = sorted(want.values(), reverse=True)[:len(rows)]
if [v for v, _ in rows] != best:
    sys.exit("pprof-top-check: pprof's flat values %s are not the report's highest %s" %
             ([v for v, _ in rows], best))
for v, name in rows:
    if want.get(name) != v:
        sys.exit("pprof-top-check: %s: pprof %d, report %s" % (name, v, want.get(name)))
print("top %d functions agree: %s" % (len(rows), " ".join(n for _, n in rows)))
