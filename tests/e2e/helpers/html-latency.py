#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""html-latency.py PAGE TRACE.dat

The durations a `kmag html` page embeds for its explorer's function details
against trace-cmd's (helpers/percentiles.py: every funcgraph_exit's rettime -
calltime): per function, fn.p50/p90/p99 the nearest-rank percentiles (equal
up to 1,024 calls, within 1/256 beyond: include/kmag/dist.h) and fn.hist its
log2 histogram in ns as funclatency counts it ([first slot, counts...], slot
i holding 2^(i-1) .. 2^i - 1 ns, slot 1 also 0), exactly.

Prints what differs and exits 1, or exits 0."""
import sys
from collections import defaultdict

from percentiles import alias_key, nearest_rank, EXIT, tc
sys.path.insert(0, __file__.rsplit('/', 1)[0])
html_data = __import__('html-data')


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    d = html_data.data(sys.argv[1])
    key = alias_key(sys.argv[2])
    ns = defaultdict(list)
    for line in tc('report', '-R', sys.argv[2]).splitlines():
        m = EXIT.search(line)
        if m:
            ns[key(m.group(1))].append(int(m.group(3), 16) - int(m.group(2), 16))
    fn, problems, checked = d['fn'], [], 0
    for i, name in enumerate(fn['name']):
        v = sorted(ns.get(key(name), []))
        if not v:
            if fn['p50'][i] is not None or fn['hist'][i] is not None:
                problems.append('%s: no timed call, but %s %s' % (name, fn['p50'][i], fn['hist'][i]))
            continue
        for p in (50, 90, 99):
            want, have = nearest_rank(v, p), fn['p%d' % p][i]
            if have is None or (have != want if len(v) <= 1024 else abs(have - want) > want / 256):
                problems.append('%s: p%d %s, trace-cmd %d (%d calls)' % (name, p, have, want, len(v)))
        slots = [0] * 66
        for x in v:
            slots[max(1, x.bit_length())] += 1
        used = [s for s in range(66) if slots[s]]
        want = [used[0]] + slots[used[0]:used[-1] + 1]
        if fn['hist'][i] != want:
            problems.append('%s: hist %s, trace-cmd %s' % (name, fn['hist'][i], want))
        checked += 1
    for p in problems[:30]:
        print('MISMATCH ' + p)
    print('%d functions checked, %d mismatches' % (checked, len(problems)))
    sys.exit(1 if problems or not checked else 0)


if __name__ == '__main__':
    main()
