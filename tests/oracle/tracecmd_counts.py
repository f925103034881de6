#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Recompute per-function call counts and caller->callee edge counts of a
trace.dat from trace-cmd's own decoding, independently of kmag.

  tracecmd_counts.py FILE.dat            -> JSON on stdout
  tracecmd_counts.py --compare KMAG.json FILE.dat
                                          -> compares with `kmag report --format json`

Function tracer: `trace-cmd report -O parent=1` prints "function: f <-- p";
every record is one call of f from p.

function_graph: `trace-cmd report -R` prints raw records
("funcgraph_entry: func=f depth=d", "funcgraph_exit: func=f depth=d ...").
Records are replayed per task with the kernel's depth field: an entry at depth
d is called by the open call at depth d-1; an exit at depth d whose entry is
not open is still one call (the trace started or lost records mid-call), and
names the caller of calls entered under it meanwhile; missing levels below an
entry or such an exit become placeholders, named by their own exits. This is the documented
semantics of kmag's model, implemented here separately for cross-checking.
"""
import json
import re
import subprocess
import sys
from collections import Counter, defaultdict

HEAD = re.compile(r'^\s*(?P<comm>.*)-(?P<pid>\d+)\s+(?:\(\s*[-\d]+\)\s+)?\[(?P<cpu>\d+)\]\s+(?:\S+\s+)?(?P<ts>\d+\.\d+):\s+(?P<event>[\w:.-]+):\s*(?P<rest>.*)$')
LOST = re.compile(r'^\s*CPU:\s*(\d+)\s+\[(?:LOST (\d+) EVENTS|(\d+) EVENTS DROPPED|EVENTS DROPPED)\]')


def run(args):
    out = subprocess.run(['trace-cmd', 'report'] + args, check=True, capture_output=True, text=True,
                         errors='replace')
    return out.stdout.splitlines()


class Frame:
    __slots__ = ('func', 'children')

    def __init__(self, func):
        self.func = func          # None: entered before the trace (placeholder)
        self.children = Counter()  # calls recorded under a placeholder


def graph_counts(lines):
    calls, edges = Counter(), Counter()
    stacks = defaultdict(dict)    # task -> {depth: Frame}
    events = 0
    for line in lines:
        m = HEAD.match(line)
        if not m:
            continue
        events += 1
        ev = m.group('event')
        if ev not in ('funcgraph_entry', 'funcgraph_exit'):
            continue
        f = re.search(r'func=(\S+)', m.group('rest')).group(1)
        d = int(re.search(r'depth=(\d+)', m.group('rest')).group(1))
        pid = int(m.group('pid'))
        task = pid if pid > 0 else ('idle', int(m.group('cpu')))
        st = stacks[task]

        def caller_of(depth, callee):
            parent = st.get(depth - 1)
            if parent is None:
                return
            if parent.func is None:
                parent.children[callee] += 1
            else:
                edges[(parent.func, callee)] += 1

        if ev == 'funcgraph_entry':
            for k in [k for k in st if k >= d]:
                del st[k]
            for k in range(d):          # missing levels below become placeholders
                st.setdefault(k, Frame(None))
            calls[f] += 1
            caller_of(d, f)
            st[d] = Frame(f)
        else:
            for k in [k for k in st if k > d]:
                del st[k]
            fr = st.get(d)
            if fr is not None and fr.func == f:
                del st[d]
                continue
            # an exit whose entry is not open: one more call of f
            calls[f] += 1
            if fr is not None and fr.func is None:
                for child, n in fr.children.items():
                    edges[(f, child)] += n
            st.pop(d, None)
            for k in range(d):          # its missing callers become placeholders too
                st.setdefault(k, Frame(None))
            caller_of(d, f)
    return events, calls, edges


def function_counts(lines):
    calls, edges = Counter(), Counter()
    events = 0
    for line in lines:
        m = HEAD.match(line)
        if not m:
            continue
        events += 1
        if m.group('event') != 'function':
            continue
        rest = m.group('rest')
        if '<--' in rest:
            f, p = [s.strip() for s in rest.split('<--', 1)]
        else:
            f, p = rest.strip(), None
        calls[f] += 1
        if p:
            edges[(p, f)] += 1
    return events, calls, edges


def counts(path):
    raw = run(['-R', path])
    tracer = 'function_graph' if any('funcgraph_' in l for l in raw[:5000]) or \
        any(' funcgraph_entry:' in l for l in raw) else 'function'
    if tracer == 'function_graph':
        events, calls, edges = graph_counts(raw)
    else:
        events, calls, edges = function_counts(run(['-O', 'parent=1', path]))
    return {'tracer': tracer, 'events': events, 'calls': calls, 'edges': edges}


def alias_key(path):
    """Names that share an address in the trace's kallsyms are one function;
    tools may pick different aliases (libtraceevent's choice among them is
    arbitrary), so counts are compared per address."""
    out = subprocess.run(['trace-cmd', 'dump', '--kallsyms', path], capture_output=True,
                         text=True, errors='replace').stdout
    addr_of = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] in 'tTwW' and len(parts[1]) == 1:
            addr_of.setdefault(parts[2], parts[0])
    return lambda name: addr_of.get(name, name)


def compare(kmag_json, path):
    ref = counts(path)
    key = alias_key(path)
    with open(kmag_json) as fp:
        got = json.load(fp)
    problems = []
    if got['events'] != ref['events']:
        problems.append('events: kmag %d, trace-cmd %d' % (got['events'], ref['events']))

    def by_key(calls, name_of):
        c = Counter()
        for k, n in calls:
            c[name_of(k)] += n
        return c
    kcalls = by_key(((f['name'], f['calls']) for f in got['functions']), key)
    rcalls = by_key(ref['calls'].items(), key)
    for name in set(kcalls) | set(rcalls):
        a, b = kcalls.get(name, 0), rcalls.get(name, 0)
        if a != b:
            problems.append('calls of %s: kmag %d, trace-cmd %d' % (name, a, b))
    kedges = by_key((((e['caller'], e['callee']), e['calls']) for e in got['edges']),
                    lambda e: (key(e[0]), key(e[1])))
    redges = by_key(ref['edges'].items(), lambda e: (key(e[0]), key(e[1])))
    for k in set(kedges) | set(redges):
        a, b = kedges.get(k, 0), redges.get(k, 0)
        if a != b:
            problems.append('edge %s -> %s: kmag %d, trace-cmd %d' % (k[0], k[1], a, b))
    print('%s: %s, %d events, %d functions, %d edges checked' %
          (path, ref['tracer'], ref['events'], len(ref['calls']), len(ref['edges'])))
    for p in sorted(problems)[:40]:
        print('  MISMATCH ' + p)
    return 1 if problems else 0


def main():
    if len(sys.argv) == 4 and sys.argv[1] == '--compare':
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    r = counts(sys.argv[1])
    json.dump({'tracer': r['tracer'], 'events': r['events'], 'functions': dict(r['calls']),
               'edges': ['%s -> %s: %d' % (a, b, n) for (a, b), n in sorted(r['edges'].items())]},
              sys.stdout, indent=1)


if __name__ == '__main__':
    main()
