#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""corrected-percentiles.py FUNC COST KMAG.json TRACE.dat

Percentiles follow the tracer-cost correction (--overhead COST): FUNC's
p50/p90/p99 in KMAG.json (`kmag report -F json --overhead COST`) are the
nearest-rank percentiles of its calls' durations as trace-cmd decodes them
(rettime - calltime), each less COST per traced call trace-cmd shows beneath
it, never below zero. FUNC must not recurse; its calls are counted per task
by the records' depths (percentiles.py's outer_calls()).

Prints what differs and exits 1, or exits 0."""
import json
import subprocess
import sys

from percentiles import nearest_rank, outer_calls

func, cost = sys.argv[1], int(sys.argv[2])
got = {f['name']: f for f in json.load(open(sys.argv[3]))['functions']}[func]
out = subprocess.run(['trace-cmd', 'report', '-R', sys.argv[4]], capture_output=True, text=True,
                     errors='replace', check=True).stdout
durs = [max(0, dur - cost * below) for dur, below, _ in outer_calls(out.splitlines(), func)]
durs.sort()
want = {'p%d_ns' % p: nearest_rank(durs, p) for p in (50, 90, 99)}
have = {k: got.get(k) for k in want}
print('%s, %d ns per traced call: %d calls, kmag %s, trace-cmd %s' % (func, cost, len(durs), have, want))
sys.exit(0 if durs and have == want and got['timed'] == len(durs) else 1)
