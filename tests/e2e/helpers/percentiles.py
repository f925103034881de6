#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""percentiles.py KMAG.json TRACE.dat [COPIES]

The p50/p90/p99 of every function in `kmag report --format json --limit 0`
against the nearest-rank percentiles of the durations trace-cmd decodes, never
kmag's: every funcgraph_exit record of `trace-cmd report -R` is one timed call
of its func=, lasting rettime - calltime (as tests/oracle/tracecmd_counts.py
counts kmag's timed calls and Avg). Nearest rank: the value of rank
ceil(p/100 x n) in ascending order. Where kmag says its percentiles are
exact they must be equal; where it kept buckets (more calls than it keeps
one by one) within 1/256 of the exact value (include/kmag/dist.h).

With COPIES, KMAG.json is of COPIES copies of the trace (`kmag merge T T`):
each call counts COPIES times.

Names that share an address in the trace's kallsyms are one function (tools
pick different aliases): durations are grouped by address.

Prints what differs and exits 1, or a summary line and exits 0."""
import json
import math
import re
import subprocess
import sys
from collections import defaultdict

EXIT = re.compile(r' funcgraph_exit:\s+func=(\S+)(?: retval=\S+)? depth=\d+ overrun=\d+ '
                  r'calltime=(?:0x)?([0-9a-f]+) rettime=(?:0x)?([0-9a-f]+)')


def tc(*args):
    return subprocess.run(['trace-cmd', *args], capture_output=True, text=True,
                          errors='replace', check=True).stdout


def alias_key(path):
    addr_of = {}
    for line in tc('dump', '--kallsyms', path).splitlines():
        parts = line.split()
        if len(parts) >= 3 and len(parts[1]) == 1 and parts[1] in 'tTwW':
            addr_of.setdefault(parts[2], parts[0])
    return lambda name: addr_of.get(name, name)


RECORD = re.compile(r'^\s*(.*?)\s+\[\d+\]\s+[\d.]+:\s+'
                    r'(funcgraph_entry|fgraph_retaddr_entry|funcgraph_exit):\s+(.*)$')


def outer_calls(lines, func):
    """The outermost calls of FUNC in `trace-cmd report -R`'s LINES whose exit
    the trace has, per task by the records' depths (entries: funcgraph_entry
    or fgraph_retaddr_entry with func= and depth=; exits: funcgraph_exit with
    calltime= and rettime=): yields (DURATION_NS, BENEATH, DIRECT) for each,
    its rettime - calltime, the traced calls beneath it at any level and
    those it made itself. FUNC must not recurse."""
    open_ = {}          # task -> [depth, beneath, direct]
    for line in lines:
        m = RECORD.match(line)
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
            yield int(f['rettime'], 16) - int(f['calltime'], 16), cur[1], cur[2]
            del open_[task]


def nearest_rank(sorted_values, p):
    rank = max(1, math.ceil(p * len(sorted_values) / 100))
    return sorted_values[min(rank, len(sorted_values)) - 1]


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    copies = int(sys.argv[3]) if len(sys.argv) == 4 else 1
    with open(sys.argv[1]) as fp:
        got = json.load(fp)
    key = alias_key(sys.argv[2])
    durations = defaultdict(list)
    for line in tc('report', '-R', sys.argv[2]).splitlines():
        m = EXIT.search(line)
        if m:
            durations[key(m.group(1))] += [int(m.group(3), 16) - int(m.group(2), 16)] * copies
    kfuncs = defaultdict(list)
    for f in got['functions']:
        kfuncs[key(f['name'])].append(f)
    problems, checked, bucketed = [], 0, 0
    for k in sorted(set(durations) | set(kfuncs)):
        ref = sorted(durations.get(k, []))
        fs = kfuncs.get(k, [])
        if len(fs) != 1:
            problems.append('%s: %d functions in kmag\'s report, %d timed calls in trace-cmd\'s' %
                            (k, len(fs), len(ref)))
            continue
        f = fs[0]
        if f['timed'] != len(ref):
            problems.append('%s: kmag %d timed calls, trace-cmd %d' % (f['name'], f['timed'], len(ref)))
            continue
        if not ref:
            if any(f.get(p) is not None for p in ('p50_ns', 'p90_ns', 'p99_ns')):
                problems.append('%s: no timed call, but percentiles %s' % (f['name'], f))
            continue
        exact = f.get('percentiles_exact')
        bucketed += not exact
        for p in (50, 90, 99):
            want, have = nearest_rank(ref, p), f.get('p%d_ns' % p)
            ok = have == want if exact else \
                have is not None and abs(have - want) <= want / 256
            if not ok:
                problems.append('%s: p%d kmag %s, trace-cmd %d (%d calls, %s)' %
                                (f['name'], p, have, want, len(ref),
                                 'exact' if exact else 'bucketed'))
        checked += 1
    for p in problems[:40]:
        print('MISMATCH ' + p)
    print('%s: p50/p90/p99 of %d functions checked (%d bucketed), %d mismatches' %
          (sys.argv[2], checked, bucketed, len(problems)))
    sys.exit(1 if problems or not checked else 0)


if __name__ == '__main__':
    main()
