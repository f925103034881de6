#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""errno-counts.py - how many calls of each function returned each error,
read independently of kmag, one "ERRNO COUNT FUNCTION" line each, sorted:

    errno-counts.py --text FILE.txt   the kernel's own text (tracefs `trace`
        with funcgraph-retval): "f(); /* ret=-22 */" or "} /* f ret=-22 */",
        the function named before "(" on a leaf line, after "/*" on a
        closing line (call sites "<-caller+0x1f/0x80" may stand before ret=);
    errno-counts.py --tracecmd FILE.dat   `trace-cmd report -R`'s raw
        funcgraph_exit records, "func=f retval=ffffffea ...", read as the
        kernel's print_graph_retval() does: a 32-bit negative value with the
        upper half clear is an int's error, sign-extended from 32 bits, else
        the 64-bit value; -4095..-1 is an error.

ERRNO is positive (22 for -22).
"""
import collections
import re
import subprocess
import sys


def from_text(path):
    c = collections.Counter()
    for line in open(path, errors="replace"):
        m = re.search(r"ret=-(\d+)\b", line)
        if not m:
            continue
        body = line.split("|", 1)[1] if "|" in line else line
        leaf = re.match(r"\s*([A-Za-z_][\w.]*)\(", body)
        close = re.search(r"\}\s*/\*\s*([A-Za-z_][\w.]*)\s", body)
        name = close.group(1) if close else leaf.group(1) if leaf else None
        if name is None:
            sys.exit("cannot name the function of: " + line.rstrip())
        c[(int(m.group(1)), name)] += 1
    return c


def from_tracecmd(path):
    out = subprocess.run(["trace-cmd", "report", "-R", path], capture_output=True, text=True,
                         check=True).stdout
    c = collections.Counter()
    for m in re.finditer(r"funcgraph_exit:\s+func=(\S+) retval=([0-9a-f]+)", out):
        v = int(m.group(2), 16)
        if v & 0x80000000 and not v >> 32:
            e = v - (1 << 32)
        else:
            e = v - (1 << 64) if v >> 63 else v
        if -4095 <= e <= -1:
            c[(-e, m.group(1))] += 1
    return c


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("--text", "--tracecmd"):
        sys.exit(__doc__)
    c = from_text(sys.argv[2]) if sys.argv[1] == "--text" else from_tracecmd(sys.argv[2])
    for (e, f), n in sorted(c.items()):
        print(e, n, f)


main()
