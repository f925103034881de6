#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""diff-latency.py DIFF.json DIFF.txt A.dat B.dat

`kmag diff` compares latencies: for every function in both traces, the
JSON's a/b p50_ns and p99_ns are the nearest-rank percentiles of its
durations in each trace as trace-cmd decodes them (helpers/percentiles.py),
delta_p50_ns/delta_p99_ns their differences, latency_changed true exactly
when p50 or p99 moved by at least 1 us and 25 % of the larger (kmag diff's
default time thresholds); the text's "Latency changed" section counts those
functions and lists them, the largest move first.

Prints what differs and exits 1, or exits 0."""
import json
import re
import sys
from collections import defaultdict

from percentiles import alias_key, nearest_rank, EXIT, tc


def durations(path):
    key = alias_key(path)
    d = defaultdict(list)
    for line in tc('report', '-R', path).splitlines():
        m = EXIT.search(line)
        if m:
            d[m.group(1)].append(int(m.group(3), 16) - int(m.group(2), 16))
    return d, key


def moved(a, b):
    d = abs(a - b)
    return d > 0 and d >= 1000 and d * 100 >= 25 * max(a, b)


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    got = json.load(open(sys.argv[1]))
    text = open(sys.argv[2]).read()
    da, _ = durations(sys.argv[3])
    db, _ = durations(sys.argv[4])
    problems, changed, checked = [], [], 0
    for f in got['functions']:
        if f['a'] is None or f['b'] is None or f.get('name_b'):
            continue
        a, b = sorted(da.get(f['name'], [])), sorted(db.get(f['name'], []))
        if not a or not b:
            if 'delta_p50_ns' in f:
                problems.append('%s: percentiles without timed calls in both' % f['name'])
            continue
        if max(len(a), len(b)) > 1024:
            continue        # bucketed: t0112 holds those to their bound
        want = {'p50_a': nearest_rank(a, 50), 'p99_a': nearest_rank(a, 99),
                'p50_b': nearest_rank(b, 50), 'p99_b': nearest_rank(b, 99)}
        have = {'p50_a': f['a'].get('p50_ns'), 'p99_a': f['a'].get('p99_ns'),
                'p50_b': f['b'].get('p50_ns'), 'p99_b': f['b'].get('p99_ns')}
        if want != have:
            problems.append('%s: %s, trace-cmd %s' % (f['name'], have, want))
            continue
        if f.get('delta_p50_ns') != want['p50_b'] - want['p50_a'] or \
                f.get('delta_p99_ns') != want['p99_b'] - want['p99_a']:
            problems.append('%s: deltas %s %s' % (f['name'], f.get('delta_p50_ns'), f.get('delta_p99_ns')))
        ch = moved(want['p50_a'], want['p50_b']) or moved(want['p99_a'], want['p99_b'])
        if f.get('latency_changed') != ch:
            problems.append('%s: latency_changed %s, want %s' % (f['name'], f.get('latency_changed'), ch))
        if ch:
            changed.append((max(abs(want['p50_b'] - want['p50_a']), abs(want['p99_b'] - want['p99_a'])),
                            f['name']))
        checked += 1
    m = re.search(r'^Latency changed, nearest-rank p50 or p99 \((\d+)\), largest change first:\n.*\n((?:.*\n)*?)\n',
                  text + '\n', re.M)
    if not m:
        problems.append('no "Latency changed" section in the text')
    else:
        if int(m.group(1)) != len(changed):
            problems.append('text says %s changed, want %d' % (m.group(1), len(changed)))
        names = [l.split()[-1] for l in m.group(2).splitlines() if not l.strip().startswith('...')]
        order = [n for _, n in sorted(changed, key=lambda c: -c[0])]
        moves = dict((n, by) for by, n in changed)
        # ties may come in either order: compare the moves in listed order
        if [moves.get(n) for n in names] != [moves[n] for n in order[:len(names)]]:
            problems.append('text order %s, want %s' % (names[:8], order[:8]))
    for p in problems[:30]:
        print('MISMATCH ' + p)
    print('%d functions in both compared, %d changed, %d mismatches' % (checked, len(changed), len(problems)))
    sys.exit(1 if problems or not checked else 0)


if __name__ == '__main__':
    main()
