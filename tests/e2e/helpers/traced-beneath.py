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
import sys

from percentiles import outer_calls

func = sys.argv[1]
cost = int(sys.argv[2]) if len(sys.argv) > 2 else None
beneath = direct = calls = total = corrected = 0
for dur, below, own in outer_calls(sys.stdin, func):
    calls += 1
    beneath += below
    direct += own
    total += dur
    if cost is not None:
        corrected += max(0, dur - cost * below)
print(beneath, direct, calls, total, *([corrected] if cost is not None else []))
