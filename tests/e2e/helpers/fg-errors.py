#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fg-errors.py - where the errors of a function_graph trace were born, read
independently of kmag from the text the kernel (tracefs `trace`) or
`trace-cmd report` prints with funcgraph-retval:

    0)               |    do_mkdirat() {
    0)   4.197 us    |    vfs_write(); /* ret=-9 */
    0) + 17.360 us   |    } /* lookup_one_qstr_excl ret=-17 */

(trace-cmd report: "... funcgraph_entry: | f() {", "funcgraph_exit: ... | }
/* f ret=-2 */" or "| }  (ret=-2)"); call sites ("/* <-caller+0x1f/0x80") and
arguments ("f(a=1)") may follow the names. The call depth is the indentation after
the '|' (two spaces a level); stacks are kept per CPU (text) or per task
(trace-cmd report's "comm-pid" column). A return value is an error when the
kernel printed it as a negative decimal (it prints -4095..-1 so).

With --raw, it reads `trace-cmd report -R` instead (trace-cmd 3.1 prints no
return values in its function_graph lines): "comm-pid [cpu] ts:
funcgraph_entry: func=f depth=1" and "funcgraph_exit: func=f retval=ffffffef
depth=1 ...", one stack per task; a return value is an error as the kernel's
print_graph_retval() reads one: a 32-bit negative with the upper half clear is
sign-extended from 32 bits, then -4095..-1 is an error.

For every outermost call (the system call) that returned -E, it follows the
errno down: from a call returning -E to its LAST direct callee returning -E
(the one nearest its return), until a call none of whose callees returned -E:
the innermost function returning that errno in the chain. Prints one line per
such chain: ENTRY ERRNO ORIGIN EARLIER, EARLIER being "-" or the function of
an earlier direct callee of the origin's caller that returned -E too. With
--edges: the caller -> callee steps of those chains instead, "CALLER CALLEE",
each once.
"""
import re
import sys

LINE = re.compile(r'^\s*(\d+)\)(.*)\|( *)(\S.*)$')
TC = re.compile(r'^\s*(\S.*?)-(\d+)\s+\[(\d+)\].*?funcgraph_(entry|exit):(.*?)\|( *)(.*)$')
OPEN = re.compile(r'^([\w.$]+)\(.*\) \{')
LEAF = re.compile(r'^([\w.$]+)\(.*\);')
CLOSE = re.compile(r'^\}')
RET = re.compile(r'ret=(-?\w+)(?: \*/|\))\s*$')


def err_of(ret):
    if ret is None or not ret.startswith('-'):
        return 0
    return int(ret)


class Call:
    def __init__(self, name):
        self.name = name
        self.err = 0
        self.kids = []


def parse(path):
    stacks, roots = {}, []
    for raw in open(path, errors='replace'):
        m = TC.match(raw)
        if m:
            key, indent, body = m.group(2), m.group(6), m.group(7).rstrip()
        else:
            m = LINE.match(raw)
            if not m:
                continue
            key, indent, body = m.group(1), m.group(3), m.group(4).rstrip()
        depth = max(0, (len(indent) - 2) // 2)
        st = stacks.setdefault(key, [])
        o, lf, cl = OPEN.match(body), LEAF.match(body), CLOSE.match(body)
        if o or lf:
            del st[depth:]
            c = Call((o or lf).group(1))
            if lf:
                r = RET.search(body)
                c.err = err_of(r and r.group(1))
            (st[-1].kids if st else roots).append(c)
            if o:
                st.append(c)
        elif cl:
            if len(st) > depth:
                r = RET.search(body)
                st[depth].err = err_of(r and r.group(1))
                del st[depth:]
    return roots


RAW = re.compile(r'^\s*(.*?)-(\d+)\s+\[\d+\].*?funcgraph_(entry|exit):\s+func=(\S+)(.*)$')


def raw_err(hexval):
    v = int(hexval, 16)
    if v & (1 << 31) and v >> 32 == 0:
        v -= 1 << 32
    elif v >= 1 << 63:
        v -= 1 << 64
    return v if -4095 <= v <= -1 else 0


def parse_raw(path):
    stacks, roots = {}, []
    for raw in open(path, errors='replace'):
        m = RAW.match(raw)
        if not m:
            continue
        fields = dict(kv.split('=', 1) for kv in m.group(5).split() if '=' in kv)
        depth = int(fields.get('depth', 0))
        st = stacks.setdefault(m.group(2), [])
        if m.group(3) == 'entry':
            del st[depth:]
            c = Call(m.group(4))
            (st[depth - 1].kids if depth and len(st) >= depth else roots).append(c)
            st.append(c)
        elif len(st) > depth and st[depth].name == m.group(4):
            st[depth].err = raw_err(fields.get('retval', '0'))
            del st[depth:]
    return roots


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    roots = parse_raw(args[0]) if '--raw' in sys.argv else parse(args[0])
    edges = []
    for root in roots:
        if not root.err:
            continue
        e, c, parent = root.err, root, None
        while True:
            same = [k for k in c.kids if k.err == e]
            if not same:
                break
            parent, c = c, same[-1]
            if (parent.name, c.name) not in edges:
                edges.append((parent.name, c.name))
        if '--edges' in sys.argv:
            continue
        earlier = '-'
        if parent:
            prev = [k for k in parent.kids[:parent.kids.index(c)] if k.err == e]
            if prev:
                earlier = prev[-1].name
        print(root.name, e, c.name, earlier)
    if '--edges' in sys.argv:
        for a, b in edges:
            print(a, b)


if __name__ == '__main__':
    main()
