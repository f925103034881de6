#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare two `kmag report --format json` outputs of the same trace (e.g. the
built-in reader against --reader libtracecmd): events, lost events, and per
function calls / total / self time and per edge calls must be equal. Names
that share an address in the trace's kallsyms are compared as one function.

  compare_reports.py A.json B.json [TRACE.dat]
"""
import json
import subprocess
import sys
from collections import Counter


def alias_key(path):
    if not path:
        return lambda n: n
    out = subprocess.run(['trace-cmd', 'dump', '--kallsyms', path], capture_output=True,
                         text=True, errors='replace').stdout
    addr_of = {}
    for line in out.splitlines():
        p = line.split()
        if len(p) >= 3 and len(p[1]) == 1 and p[1] in 'tTwW':
            addr_of.setdefault(p[2], p[0])
    return lambda n: addr_of.get(n, n)


def summary(path, key):
    with open(path) as fp:
        r = json.load(fp)
    funcs = Counter()
    for f in r['functions']:
        k = key(f['name'])
        funcs[(k, 'calls')] += f['calls']
        funcs[(k, 'total_ns')] += f['total_ns'] or 0
        funcs[(k, 'self_ns')] += f['self_ns'] or 0
    edges = Counter()
    for e in r['edges']:
        edges[(key(e['caller']), key(e['callee']))] += e['calls']
    return r, funcs, edges


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    key = alias_key(sys.argv[3] if len(sys.argv) == 4 else None)
    a, fa, ea = summary(sys.argv[1], key)
    b, fb, eb = summary(sys.argv[2], key)
    problems = []
    for field in ('events', 'lost_events'):
        if a[field] != b[field]:
            problems.append('%s: %s vs %s' % (field, a[field], b[field]))
    for k in set(fa) | set(fb):
        if fa[k] != fb[k]:
            problems.append('%s %s: %d vs %d' % (k[0], k[1], fa[k], fb[k]))
    for k in set(ea) | set(eb):
        if ea[k] != eb[k]:
            problems.append('edge %s -> %s: %d vs %d' % (k[0], k[1], ea[k], eb[k]))
    for p in sorted(problems)[:30]:
        print('MISMATCH ' + p)
    print('%d events, %d functions compared' % (a['events'], len(fa) // 3))
    sys.exit(1 if problems else 0)


if __name__ == '__main__':
    main()
