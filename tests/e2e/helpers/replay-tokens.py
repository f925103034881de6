#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""replay-tokens.py - the call lines of function_graph text, per task or CPU.

    replay-tokens.py KIND FILE > tokens

KIND says who wrote FILE:
  tracecmd  `trace-cmd report` of a function_graph trace.dat
            ("comm-pid [cpu] ts: funcgraph_entry: dur | f();")
  kernel    the kernel's tracefs "trace" text (" 1) dur | f();", no task column)
  kmag      `kmag replay` text ("ts | cpu) comm-pid | dur | f();")

Prints one line per call line, grouped by task (tracecmd, kmag: comm-pid) or
CPU (kernel, and kmag --by-cpu): "KEY f() {", "KEY f(); 1.234", "KEY } 5.678".
Lines of one key stay in their order; keys are sorted. Calls whose exit a
trace lacks have no closing line in either (kmag prints them as comments).
Written from the formats' own text, independently of kmag's reader.
"""
import re
import sys

DUR = r'(?:[+!#*@$] )?\s*([0-9]+\.[0-9]+) us'


def body_tokens(body, dur):
    body = body.strip()
    m = re.match(r'([A-Za-z0-9_.\[\]]+)\(\) \{', body)
    if m:
        return f'{m.group(1)}() {{'
    m = re.match(r'([A-Za-z0-9_.\[\]]+)\(\);', body)
    if m:
        return f'{m.group(1)}(); {dur}'
    if body.startswith('}'):
        return f'}} {dur}'
    return None


def main():
    kind, path = sys.argv[1], sys.argv[2]
    by_cpu = len(sys.argv) > 3 and sys.argv[3] == '--by-cpu'
    out = {}
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if line.startswith('#'):
            continue
        if kind == 'tracecmd':
            m = re.match(r'\s*(\S+)\s+\[(\d+)\]\s+[0-9.]+: funcgraph_(?:entry|exit):\s+(.*?)\|(.*)$', line)
            if not m:
                continue
            key, cols, body = m.group(1), m.group(3), m.group(4)
        elif kind == 'kernel':
            m = re.match(r'\s*(\d+)\)(.*?)\|(.*)$', line)
            if not m:
                continue
            key, cols, body = 'cpu' + m.group(1), m.group(2), m.group(3)
        else:
            m = re.match(r'[ 0-9.]+\|\s+(\d+)\)\s+(\S+)\s+\|(.*?)\|(.*)$', line)
            if not m:
                continue
            key = 'cpu' + m.group(1) if by_cpu else m.group(2)
            cols, body = m.group(3), m.group(4)
        d = re.search(DUR, cols)
        tok = body_tokens(body, d.group(1) if d else '-')
        if tok:
            out.setdefault(key, []).append(tok)
    for key in sorted(out):
        for tok in out[key]:
            print(key, tok)


if __name__ == '__main__':
    main()
