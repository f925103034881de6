#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tc-stacks.py FILE.dat ROOT [--per comm | --total-ns]: the call stacks of a function_graph
trace under function ROOT, from trace-cmd's own decoding (`trace-cmd report
-R`), never kmag's: folded lines "ROOT;f;g N", N the calls of g with exactly
that stack, each stack cut to start at its outermost call of ROOT (stacks
without ROOT are left out); with --per comm each stack gets the task's
command name as its base frame. Records are replayed per task by their depth
field, as tests/oracle/tracecmd_counts.py does (an exit whose entry is not in
the trace is one call too). Sorted, for comparing with `kmag flame --root ROOT
--weight calls --folded`. With --total-ns: the time of ROOT's outermost calls
instead (the kernel's rettime - calltime of their exit records, summed), what
the time-weighted stacks under ROOT add up to."""
import os
import re
import sys
from collections import Counter, defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "oracle"))
import tracecmd_counts  # noqa: E402


def main():
    path, root = sys.argv[1], sys.argv[2]
    per_comm = sys.argv[3:5] == ["--per", "comm"]
    total_ns = "--total-ns" in sys.argv[3:]
    root_ns = 0
    folded = Counter()
    stacks = defaultdict(dict)     # task -> {depth: function or None}

    def count(comm, st, depth, f):
        chain = [st.get(k) for k in range(depth)] + [f]
        if root not in chain:
            return
        chain = chain[chain.index(root):]
        if None in chain:          # a level the trace does not name
            return
        folded[";".join(([comm] if per_comm else []) + chain)] += 1

    for line in tracecmd_counts.run(["-R", path]):
        m = tracecmd_counts.HEAD.match(line)
        # (with funcgraph-retaddr, Linux 6.13+, entries are fgraph_retaddr_entry records)
        if not m or m.group("event") not in ("funcgraph_entry", "fgraph_retaddr_entry",
                                             "funcgraph_exit"):
            continue
        f = re.search(r"func=(\S+)", m.group("rest")).group(1)
        d = int(re.search(r"depth=(\d+)", m.group("rest")).group(1))
        pid = int(m.group("pid"))
        st = stacks[pid if pid > 0 else ("idle", int(m.group("cpu")))]
        comm = m.group("comm").strip()
        if m.group("event") != "funcgraph_exit":
            for k in [k for k in st if k >= d]:
                del st[k]
            for k in range(d):
                st.setdefault(k, None)
            count(comm, st, d, f)
            st[d] = f
        else:
            for k in [k for k in st if k > d]:
                del st[k]
            if f == root and root not in [st.get(k) for k in range(d)]:
                t = dict(re.findall(r"(calltime|rettime)=([0-9a-f]+)", m.group("rest")))
                root_ns += int(t["rettime"], 16) - int(t["calltime"], 16)
            if st.get(d) == f:
                del st[d]
                continue
            st.pop(d, None)
            for k in range(d):
                st.setdefault(k, None)
            count(comm, st, d, f)
    if total_ns:
        print(root_ns)
        return
    for k in sorted(folded):
        print("%s %d" % (k, folded[k]))


main()
