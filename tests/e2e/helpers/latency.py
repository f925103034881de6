#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""latency.py FUNC KMAG.txt KMAG.json TRACE.dat

`kmag report --latency FUNC` (text in KMAG.txt, -F json in KMAG.json) against
FUNC's durations as trace-cmd decodes them (helpers/percentiles.py: every
funcgraph_exit's rettime - calltime): the text must be exactly what bcc's
print_log2_hist() prints for them (written again here from bcc's table.py:
slot i holds 2^(i-1) .. 2^i - 1 units, slot 1 also 0; rows 1 .. highest slot,
40 stars wide, 20 in the wide layout past slot 32), in nsecs, or in usecs (a
duration divided by 1000, rounded down, as funclatency -u) when the longest
call took 1 ms or more and the function has at most 1,024 timed calls; then avg, total and count, and the nearest-rank
p50/p90/p99. The JSON must hold the same rows and figures.

Prints what differs and exits 1, or exits 0."""
import json
import sys

from percentiles import alias_key, nearest_rank, EXIT, tc


def stars(val, val_max, width):
    # bcc's _stars(): one star per width/val_max of the count
    text, i = '', 0
    while not (i > (width * val / val_max) - 1 or i > width - 1):
        text += '*'
        i += 1
    return text


def log2_rows(values):
    vals = [0] * 66
    for v in values:
        vals[max(1, v.bit_length())] += 1       # bpf_log2l(): 0 and 1 in slot 1
    idx_max = max(i for i, v in enumerate(vals) if v) if any(vals) else 1
    return vals, idx_max


def expected_text(func, ns, total, count):
    # usecs past 1 ms while kmag keeps every duration (at most 1,024): bucketed,
    # its exact slots are in ns only (include/kmag/dist.h)
    unit = 1000 if max(ns) >= 1000000 and len(ns) <= 1024 else 1
    name = 'nsecs' if unit == 1 else 'usecs'
    vals, idx_max = log2_rows([v // unit for v in ns])
    val_max = max(vals)
    if idx_max <= 32:
        header, body, width = '     %-19s : count     distribution', '%10d -> %-10d : %-8d |%-*s|', 40
    else:
        header, body, width = '               %-29s : count     distribution', \
            '%20d -> %-20d : %-8d |%-*s|', 20
    out = ['Function = ' + func, header % name]
    rows = []
    for i in range(1, idx_max + 1):
        low, high = (1 << i) >> 1, (1 << i) - 1
        if low == high:
            low -= 1
        out.append(body % (low, high, vals[i], width, stars(vals[i], val_max, width)))
        rows.append((low, high, vals[i]))

    def fmt(v):
        return '%d' % v if unit == 1 else '%d.%03d' % (v // 1000, v % 1000)
    s = sorted(ns)
    out += ['', 'avg = %s %s, total: %s %s, count: %d' % (fmt(total // count), name, fmt(total), name, count)]
    out.append('p50 = %s, p90 = %s, p99 = %s %s (nearest rank, ' %
               (fmt(nearest_rank(s, 50)), fmt(nearest_rank(s, 90)), fmt(nearest_rank(s, 99)), name))
    return out, rows, name


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    func, text, js, trace = sys.argv[1:]
    key = alias_key(trace)
    ns = []
    for line in tc('report', '-R', trace).splitlines():
        m = EXIT.search(line)
        if m and key(m.group(1)) == key(func):
            ns.append(int(m.group(3), 16) - int(m.group(2), 16))
    if not ns:
        sys.exit('%s: no timed call of %s in trace-cmd\'s records' % (trace, func))
    want, rows, unit = expected_text(func, ns, sum(ns), len(ns))
    got = open(text).read().splitlines()
    j = json.load(open(js))
    exact = j.get('percentiles_exact')
    if not exact:       # bucketed (include/kmag/dist.h): the JSON's are held to the bound
        want[-1] = 'p50 = '
    problems = []
    for i, w in enumerate(want):
        g = got[i] if i < len(got) else '(missing)'
        if g != w and not (w.endswith(('(nearest rank, ', 'p50 = ')) and g.startswith(w)):
            problems.append('line %d:\n  want %r\n  have %r' % (i + 1, w, g))
    s = sorted(ns)
    for k, v in (('unit', unit), ('count', len(ns)), ('total_ns', sum(ns)),
                 ('avg_ns', sum(ns) // len(ns)), ('p50_ns', nearest_rank(s, 50)),
                 ('p90_ns', nearest_rank(s, 90)), ('p99_ns', nearest_rank(s, 99))):
        have = j.get(k)
        if have != v and not (not exact and k.startswith('p') and have is not None and
                              abs(have - v) <= v / 256):
            problems.append('json %s: %r, want %r' % (k, have, v))
    jrows = [(r['interval-start'], r['interval-end'], r['count']) for r in j.get('histogram', [])]
    if jrows != rows:
        problems.append('json histogram: %r, want %r' % (jrows, rows))
    for p in problems[:20]:
        print('MISMATCH ' + p)
    print('%s in %s: %d calls, %d rows in %s, %d mismatches' % (func, trace, len(ns), len(rows), unit,
                                                           len(problems)))
    sys.exit(1 if problems else 0)


if __name__ == '__main__':
    main()
