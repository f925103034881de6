#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks of `kmag merge` output, from the separate reports, never from merge.

  merge-sums.py sums MERGED.json REPORT.json...
      MERGED must hold exactly the sums of the REPORTs (`kmag report
      --format json --limit 0` of each input): per function and per call edge
      calls, timed calls, total, self, the durations of all timed calls
      (sum_ns) and incomplete summed, min the minimum, max the maximum, avg
      the mean of all timed calls (sum_ns / timed); events, incomplete calls, other events summed; one
      source per report, with its name and kernel.
  merge-sums.py same A.json B.json
      A and B hold the same profile, whatever the order of their lists.
  merge-sums.py same-but-names A.json B.json
      the same, but for the names of the recordings (one trace under two names).

Prints what differs and exits 1, or exits 0."""
import json
import sys

SUMS = ('calls', 'timed', 'total_ns', 'self_ns', 'incomplete')
FN_SUMS = SUMS + ('sum_ns',)     # functions only: edges count every call in total_ns


def add(acc, row, keys=SUMS):
    if acc is None:
        acc = {k: 0 for k in keys}
        acc.update(min_ns=None, max_ns=None, interrupt=False)
    for k in keys:
        acc[k] += row[k] or 0          # null: no timed call
    if row['timed']:
        acc['min_ns'] = row['min_ns'] if acc['min_ns'] is None else min(acc['min_ns'], row['min_ns'])
        acc['max_ns'] = row['max_ns'] if acc['max_ns'] is None else max(acc['max_ns'], row['max_ns'])
    acc['interrupt'] = acc['interrupt'] or row.get('interrupt', False)
    return acc


def view(row, is_edge):
    keys = (SUMS if is_edge else FN_SUMS) + ('min_ns', 'max_ns') + (('interrupt',) if is_edge else ())
    v = {k: row.get(k) for k in keys}
    for k in ('total_ns', 'self_ns') + (() if is_edge else ('sum_ns',)):
        v[k] = v[k] or 0
    if not row['timed']:
        v['min_ns'] = v['max_ns'] = None
    return v


def by_key(d):
    fn = {f['name']: view(f, False) for f in d['functions']}
    ed = {(e['caller'], e['callee']): view(e, True) for e in d['edges']}
    ev = {(e['system'], e['name']): e['count'] for e in d['other_events']}
    return fn, ed, ev


def compare(what, want, got, errors):
    for k in sorted(set(want) | set(got), key=str):
        if want.get(k) != got.get(k):
            errors.append(f'{what} {k}: expected {want.get(k)}, got {got.get(k)}')


def sums(merged, reports):
    fn, ed, ev = {}, {}, {}
    for r in reports:
        assert r['complete'], 'a report with --limit 0 is complete'
        for f in r['functions']:
            fn[f['name']] = add(fn.get(f['name']), f, FN_SUMS)
        for e in r['edges']:
            k = (e['caller'], e['callee'])
            ed[k] = add(ed.get(k), e)
        for e in r['other_events']:
            k = (e['system'], e['name'])
            ev[k] = ev.get(k, 0) + e['count']
    for v in fn.values():
        del v['interrupt']
    errors = []
    got_fn, got_ed, got_ev = by_key(merged)
    compare('function', fn, got_fn, errors)
    compare('edge', ed, got_ed, errors)
    compare('other event', ev, got_ev, errors)
    for k in ('events', 'lost_events', 'incomplete_calls', 'unmatched_exits'):
        want = sum(r[k] for r in reports)
        if merged[k] != want:
            errors.append(f'{k}: expected {want}, got {merged[k]}')
    for f in merged['functions']:
        if f['timed'] and f['avg_ns'] != fn[f['name']]['sum_ns'] // f['timed']:
            errors.append(f"avg of {f['name']}: {f['avg_ns']} is not the mean of its timed calls")
    want_src = sorted((s['name'], s['kernel'], s['calls']) for r in reports for s in r['sources'])
    got_src = sorted((s['name'], s['kernel'], s['calls']) for s in merged['sources'])
    if want_src != got_src:
        errors.append(f'sources: expected {want_src}, got {got_src}')
    return errors


def same(a, b, names=True):
    errors = []
    for what, x, y in zip(('function', 'edge', 'other event'), by_key(a), by_key(b)):
        compare(what, x, y, errors)
    for k in ('events', 'lost_events', 'incomplete_calls', 'unmatched_exits', 'tracer', 'uname',
              'has_time', 'has_stacks'):
        if a.get(k) != b.get(k):
            errors.append(f'{k}: {a.get(k)} != {b.get(k)}')
    key = lambda s: json.dumps({k: v for k, v in s.items() if names or k != 'name'}, sort_keys=True)
    if sorted(map(key, a['sources'])) != sorted(map(key, b['sources'])):
        errors.append('the sources differ')
    return errors


def main():
    load = lambda p: json.load(open(p))
    if sys.argv[1] == 'sums':
        errors = sums(load(sys.argv[2]), [load(p) for p in sys.argv[3:]])
    else:
        errors = same(load(sys.argv[2]), load(sys.argv[3]), sys.argv[1] == 'same')
    for e in errors[:20]:
        print(e)
    if len(errors) > 20:
        print(f'... {len(errors) - 20} more')
    return 1 if errors else 0


sys.exit(main())
