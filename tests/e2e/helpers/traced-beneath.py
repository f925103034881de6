#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""traced-beneath.py FUNC [COST] < `trace-cmd report -R TRACE`: for every call of
FUNC (outermost ones), the traced calls made beneath it at any level and the
calls it made itself, read from trace-cmd's raw records per task (entries:
funcgraph_entry or fgraph_retaddr_entry with func= and depth=; exits:
funcgraph_exit with calltime= and rettime=). Prints
"BENEATH DIRECT CALLS SUM_NS": the counts over all its calls whose exit the
trace has, their number and the sum of their durations (rettime - calltime);
with COST (ns per traced call) also the sum of the calls' durations less COST
for each call beneath them, each never below zero.
"""
import re
import sys

func = sys.argv[1]
cost = int(sys.argv[2]) if len(sys.argv) > 2 else None
corrected = 0
rec = re.compile(r'^\s*(.*?)\s+\[\d+\]\s+[\d.]+:\s+(funcgraph_entry|fgraph_retaddr_entry|funcgraph_exit):\s+(.*)$')
open_ = {}          # task -> [depth, beneath, direct]
beneath = direct = calls = total = 0
for line in sys.stdin:
    m = rec.match(line)
    if not m:
        continue
    task, kind, rest = m.groups()
    f = dict(kv.split('=', 1) for kv in rest.split() if '=' in kv)
    depth = int(f.get('depth', '-1'))
    cur = open_.get(task)
    if kind != 'funcgraph_exit':
        if cur:
            if depth > cur[0]:
                cur[1] += 1
                if depth == cur[0] + 1:
                    cur[2] += 1
        elif f.get('func') == func:
            open_[task] = [depth, 0, 0]
    elif cur and f.get('func') == func and depth == cur[0]:
        calls += 1
        beneath += cur[1]
        direct += cur[2]
        dur = int(f['rettime'], 16) - int(f['calltime'], 16)
        total += dur
        if cost is not None:
            corrected += max(0, dur - cost * cur[1])
        del open_[task]
print(beneath, direct, calls, total, *([corrected] if cost is not None else []))
