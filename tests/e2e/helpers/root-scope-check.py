#!/usr/bin/env python3
# root-scope-check.py GRAPH.dot CALLS.folded ROOT - checks a `visualize --root
# ROOT` picture against the folded call stacks (by calls) of the same trace:
# every function drawn ran under ROOT (some stack has ROOT before it), and its
# "N calls" are the calls it made there: the weights of the stacks that end in
# it with ROOT before it (for ROOT itself: all its calls). Prints the number of
# functions checked; exits 1 naming the first that is wrong.
import html
import re
import sys
from collections import defaultdict


def main(dot_p, folded_p, root):
    under = defaultdict(int)
    for line in open(folded_p):
        stack, n = line.rstrip("\n").rsplit(" ", 1)
        frames = stack.split(";")
        if frames[-1] == root or root in frames[:-1]:
            under[frames[-1]] += int(n)
    nodes = re.findall(r'<TD><B>(.*?)</B></TD></TR><TR><TD><FONT POINT-SIZE="10">([\d,]+) calls',
                       open(dot_p).read())
    if not nodes:
        sys.exit(f"{dot_p}: no function nodes found")
    for name, calls in nodes:
        name = html.unescape(name)
        calls = int(calls.replace(",", ""))
        if name not in under:
            sys.exit(f"{name} is drawn but never ran under {root}")
        if under[name] != calls:
            sys.exit(f"{name}: {calls} calls drawn, {under[name]} made under {root}")
    print(f"{len(nodes)} functions, all under {root}, with their calls there")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
