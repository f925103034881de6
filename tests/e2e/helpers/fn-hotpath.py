#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fn-hotpath.py COUNTS.json GRAPH.dot: checks kmag's call graph of a
function-tracer trace (`visualize --max-nodes 0 --image-name GRAPH.dot`)
against the call and edge counts trace-cmd gives (tests/oracle/
tracecmd_counts.py FILE.dat > COUNTS.json), never against kmag's numbers:

  - a function trace-cmd shows called is labelled "N calls" with its count;
    one seen only in the parent field (an untraced caller) "not traced";
  - the red hottest path starts at an entry point (no caller drawn) that is
    heaviest as a start: a traced function by its calls, an untraced caller
    by the calls it made (trace-cmd's edge counts); any of several equally
    heavy ones will do;
  - each step follows a heaviest call to a function not yet on the path
    (ties: the callee with the most calls), and the path ends where no such
    call is left.
Prints the path and exits 1 with the first violation."""
import json
import re
import sys
from collections import defaultdict


def main():
    counts = json.load(open(sys.argv[1]))
    calls = counts["functions"]
    edges = {}
    for e in counts["edges"]:
        m = re.match(r"(.*) -> (.*): (\d+)$", e)
        edges[(m.group(1), m.group(2))] = int(m.group(3))
    out = defaultdict(dict)
    for (a, b), n in edges.items():
        out[a][b] = n

    text = open(sys.argv[2], encoding="utf-8").read().replace("\\\n", "")
    name, hot_nodes, hot_edges, label = {}, set(), set(), {}
    stmt = re.compile(r"^\t(n\d+)(?: -> (n\d+))?\t\[(.*?)\];$", re.S | re.M)
    for m in stmt.finditer(text):
        a, b, attrs = m.groups()
        if b is None:
            name[a] = re.search(r'tooltip="([^"\n]*)', attrs).group(1)
            label[a] = re.search(r'POINT-SIZE="10">(?:<I>)?([^<]*)<', attrs).group(1)
            if "penwidth=3" in attrs and "#08306b" in attrs:
                hot_nodes.add(a)
        elif "#cb181d" in attrs:
            hot_edges.add((a, b))
    fail = lambda msg: sys.exit("%s: %s" % (sys.argv[2], msg))

    for n, f in name.items():
        want = "%s call%s" % ("{:,}".format(calls[f]), "" if calls[f] == 1 else "s") \
            if f in calls else "not traced"
        if label[n] != want:
            fail("%s is labelled %r, trace-cmd says %r" % (f, label[n], want))

    drawn = set(name.values())
    callers = defaultdict(set)
    for (a, b) in edges:
        if a in drawn and b in drawn and a != b:
            callers[b].add(a)

    def start_weight(f):
        if f in calls:
            return calls[f]
        return sum(n for g, n in out[f].items() if g != f and g in drawn)

    # the path, from the hot edges: one start, then one hot edge per step
    node_of = {f: n for n, f in name.items()}
    nxt = {name[a]: name[b] for a, b in hot_edges}
    targets = set(nxt.values())
    starts = [name[n] for n in hot_nodes if name[n] not in targets]
    if len(starts) != 1:
        fail("the hot path has %d starts: %s" % (len(starts), starts))
    path = [starts[0]]
    while path[-1] in nxt:
        path.append(nxt[path[-1]])
    if set(path) != {name[n] for n in hot_nodes}:
        fail("the hot nodes are not one path")
    print(" > ".join(path))

    entries = [f for f in drawn if not callers[f]]
    best = max(start_weight(f) for f in entries)
    if path[0] not in entries or start_weight(path[0]) != best:
        heaviest = sorted(f for f in entries if start_weight(f) == best)
        fail("starts at %s (weight %d), the heaviest entry is %s (weight %d)" %
             (path[0], start_weight(path[0]) if path[0] in entries else -1, heaviest, best))
    for i, f in enumerate(path):
        left = {g: n for g, n in out[f].items() if g in drawn and g not in path[:i + 1]}
        if not left:
            if i + 1 != len(path):
                fail("the path goes on after %s, which calls nothing new" % f)
            break
        if i + 1 == len(path):
            fail("the path ends at %s, which still calls %s" % (f, sorted(left)))
        top = max(left.values())
        tied = {g for g, n in left.items() if n == top}
        most = max(calls.get(g, 0) for g in tied)
        if path[i + 1] not in tied or calls.get(path[i + 1], 0) != most:
            fail("%s -> %s (%d calls), but %s -> %s has %d" %
                 (f, path[i + 1], left.get(path[i + 1], 0), f, sorted(tied), top))


main()
