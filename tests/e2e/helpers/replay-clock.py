#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""replay-clock.py - the time column of `kmag replay` against another writer.

    replay-clock.py KIND REFERENCE KMAG_REPLAY_TEXT [-v]
    replay-clock.py json TRACECMD_REPORT_T KMAG_REPLAY_JSON [-v]

KIND says who wrote REFERENCE:
  tracecmd  `trace-cmd report` of a function_graph trace.dat
  kernel    the kernel's tracefs "trace" text with funcgraph-abstime
            ("  21.698717 |   0)  ... | dur | f();")

Prints three figures, one per line (-v: each line counted, on stderr):
  leaves N          kmag's leaf lines ("f();") that have a time
  differ N          of them, those whose (CPU, task, function, time) is not an
                    entry line of REFERENCE ("f();" or "f() {"; each matches
                    once): the time of a leaf line is its call's entry
  backwards N       lines of kmag's output whose time is earlier than the line
                    before it on the same CPU

json: `trace-cmd report -t` (nanoseconds) against `kmag replay --format
json`: "leaves N" and "differ N" for the calls that made no call and have
their entry, whose start_ns must be their entry's time.

Written from the formats' own text, independently of kmag's reader. Times are
compared as printed: microseconds, rounded to the nearest as the kernel and
trace-cmd print them. trace-cmd 3.1.6 prints Linux 6.13+ fgraph_retaddr_entry
records as "--> f (depth) <- caller": an entry line too.
"""
import json
import re
import sys
from collections import Counter

FUNC = r'([A-Za-z0-9_.$\[\]]+)'


def tracecmd_entries(path):
    entries = Counter()
    for line in open(path, errors='replace'):
        m = re.match(r'\s*\S*?-(\d+)\s+\[(\d+)\]\s+(\d+\.\d+): (\w+):\s+(.*)$', line)
        if not m:
            continue
        pid, cpu, ts, kind, rest = int(m[1]), int(m[2]), m[3], m[4], m[5]
        if kind == 'funcgraph_entry':
            b = re.search(r'\|\s+' + FUNC + r'\(\)( \{|;)', rest)
        elif kind == 'fgraph_retaddr_entry':
            b = re.match(r'--> ' + FUNC + r' \(\d+\)', rest)
        else:
            continue
        if b:
            entries[(cpu, pid, b[1], ts)] += 1
    return entries, True


def kernel_entries(path):
    entries = Counter()
    for line in open(path, errors='replace'):
        m = re.match(r'\s*(\d+\.\d+) \|\s+(\d+)\)(.*?)\|(.*?)\|\s+' + FUNC + r'\(.*\)( \{|;)', line)
        if m:
            entries[(int(m[2]), None, m[5], m[1])] += 1
    return entries, False


def json_main(ref, got, verbose):
    want, _ = tracecmd_entries(ref)
    want = Counter({(k[0], k[1], k[2], int(k[3].replace('.', ''))): n for k, n in want.items()})
    calls = [json.loads(line) for line in open(got)]
    parents = {c['parent'] for c in calls}
    n = differ = 0
    for c in calls:
        # (kmag before start_from: a call with its entry)
        src = c.get('start_from', 'exit' if 'no_entry' in c['flags'] else 'entry')
        if c['id'] in parents or src != 'entry' or not c['function']:
            continue
        n += 1
        key = (c['cpu'], c['pid'], c['function'], c['start_ns'])
        if want[key] > 0:
            want[key] -= 1
        else:
            differ += 1
            if verbose:
                print('differs:', c, file=sys.stderr)
    print(f'leaves {n}')
    print(f'differ {differ}')


def main():
    kind, ref, got = sys.argv[1:4]
    verbose = '-v' in sys.argv[4:]
    if kind == 'json':
        return json_main(ref, got, verbose)
    want, by_task = tracecmd_entries(ref) if kind == 'tracecmd' else kernel_entries(ref)
    last = {}
    n = differ = backwards = 0
    for line in open(got, errors='replace'):
        m = re.match(r'\s*(\d+\.\d+) \|\s+(\d+)\)\s+\S*?-(\d+|\?)\s+\|[^|]*\|(.*)$', line)
        if not m:
            continue
        ts, cpu, body = m[1], int(m[2]), m[4]
        t = int(ts.replace('.', ''))
        if cpu in last and t < last[cpu]:
            backwards += 1
            if verbose:
                print('backwards:', line.rstrip(), file=sys.stderr)
        last[cpu] = t
        leaf = re.match(r'\s+' + FUNC + r'\(.*\);', body)
        if not leaf:
            continue
        n += 1
        key = (cpu, int(m[3]) if by_task and m[3] != '?' else None, leaf[1], ts)
        if want[key] > 0:
            want[key] -= 1
        else:
            differ += 1
            if verbose:
                print('differs:', line.rstrip(), file=sys.stderr)
    print(f'leaves {n}')
    print(f'differ {differ}')
    print(f'backwards {backwards}')


if __name__ == '__main__':
    main()
