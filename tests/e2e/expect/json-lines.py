#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Re-print one JSON document from stdin for golden files: the top-level
members and the members/elements of their values one per line, anything deeper
compact on that line. Key order, strings and integers are kept as written
(no sorting; a float is re-printed in Python's shortest form, 1.50 as 1.5).
Fails on invalid JSON or trailing data."""
import json
import sys


def dump(v):
    return json.dumps(v, ensure_ascii=False)


def emit(v, depth, indent, out):
    if depth < 2 and isinstance(v, dict) and v:
        out.append('{')
        items = list(v.items())
        for i, (k, x) in enumerate(items):
            out.append(indent + ' ' + dump(k) + ': ')
            emit(x, depth + 1, indent + ' ', out)
            if i + 1 < len(items):
                out[-1] += ','
        out.append(indent + '}')
    elif depth < 2 and isinstance(v, list) and v:
        out.append('[')
        for i, x in enumerate(v):
            out.append(indent + ' ')
            emit(x, depth + 1, indent + ' ', out)
            if i + 1 < len(v):
                out[-1] += ','
        out.append(indent + ']')
    else:
        out.append(dump(v))


def main():
    doc = json.loads(sys.stdin.read())  # raises on trailing data or bad JSON
    out = []
    emit(doc, 0, '', out)
    # glue each value to its key / list marker
    lines = []
    for s in out:
        if lines and (lines[-1].endswith(': ') or lines[-1].strip() == ''):
            lines[-1] += s
        else:
            lines.append(s)
    sys.stdout.write('\n'.join(lines) + '\n')


main()
