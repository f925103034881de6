#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""same-buffer.py - the text dump and the trace.dat of ONE ring buffer must
give the same calls (tests/fixtures/traces/6.19, tests/e2e/t0870).

Usage: same-buffer.py [--no-ctx] KMAG TEXT DAT

Compares, between the two inputs:
  - kmag report --format json: event count, incomplete calls, and per
    function calls, total and self time, per edge calls and total time;
  - kmag replay --format json: the multiset of calls as (function, depth,
    duration, return value, call site, arguments). The text prints at most
    7 digits of a duration (trace_print_graph_duration()), so durations
    compare as the text shows them. The text shows the
    arguments the kernel names from BTF (fewer than the six saved registers
    a trace.dat holds), so the text's values must be the first values of the
    trace.dat's.
--no-ctx: the text has no context flags (no latency-format column), so kmag
cannot tell an interrupt that came in a call's entry or return window from a
call (include/kmag/replay.h); the trace.dat's records have the flags and the
interrupt is nested into the call. Then only what does not depend on that is
compared: events, calls and times per function, and the calls that have a
duration, without their depth.
Prints one line per difference (at most 10 per kind) and exits 1 on any.
"""
import collections
import json
import re
import subprocess
import sys


def text_precision(ns):
    """The kernel prints a duration with at most 7 digits
    (trace_print_graph_duration()): "15757.34 us" for 15757347 ns."""
    us = ns // 1000
    digits = len(str(us))
    return 1 if digits <= 4 else 10 ** (digits - 4) if digits < 7 else 1000


def as_text(ns):
    """@ns as the text shows it: truncated to its printed precision."""
    if ns is None:
        return None
    p = text_precision(ns)
    return ns - ns % p


def run(kmag, *args):
    out = subprocess.run([kmag, *args], check=True, capture_output=True, text=True)
    return out.stdout


def arg_values(s):
    # "fd=0x3, how=0x1:0x2" or "0x3, 0x0" -> [3, 1, 2]
    return [int(v, 16) for v in re.findall(r"0x[0-9a-f]+", s or "")]


def calls(kmag, path, no_ctx):
    bag = collections.Counter()
    args = collections.defaultdict(list)
    for line in run(kmag, "replay", "--format", "json", path).splitlines():
        c = json.loads(line)
        if "function" not in c or "depth" not in c:
            continue
        if no_ctx and c["duration_ns"] is None:
            continue
        key = (c["function"], None if no_ctx else c["depth"], as_text(c["duration_ns"]),
               c["retval"], c.get("call_site"))
        bag[key] += 1
        args[key].append(arg_values(c.get("args")))
    return bag, args


def main():
    no_ctx = sys.argv[1] == "--no-ctx"
    kmag, text, dat = sys.argv[1 + no_ctx:4 + no_ctx]
    bad = []
    rt = json.loads(run(kmag, "report", "--format", "json", text))
    rd = json.loads(run(kmag, "report", "--format", "json", dat))
    for k in ("events",) if no_ctx else ("events", "incomplete_calls", "unmatched_exits"):
        if rt[k] != rd[k]:
            bad.append(f"{k}: text {rt[k]}, trace.dat {rd[k]}")
    # calls exactly; times as exactly as the text has them: a call of 10 ms
    # or more loses digits there, at most 1 us per call below 1 s
    def close(a, b):
        if a is None or b is None or a[0] != b[0]:
            return a == b
        return all(x == y if x is None or y is None else abs(x - y) < 1000 * a[0]
                   for x, y in zip(a[1:], b[1:]))
    # (without context flags, the call an interrupt came in does not hold it: self time differs)
    ft = {f["name"]: (f["calls"], f["total_ns"], None if no_ctx else f["self_ns"])
          for f in rt["functions"] if not no_ctx or not f["name"].startswith("sysvec_")}
    fd = {f["name"]: (f["calls"], f["total_ns"], None if no_ctx else f["self_ns"])
          for f in rd["functions"] if not no_ctx or not f["name"].startswith("sysvec_")}
    for n in sorted(set(ft) | set(fd)):
        if not close(ft.get(n), fd.get(n)):
            bad.append(f"function {n}: text {ft.get(n)}, trace.dat {fd.get(n)}")
    et = {(e["caller"], e["callee"]): (e["calls"], e["total_ns"]) for e in rt["edges"]}
    ed = {(e["caller"], e["callee"]): (e["calls"], e["total_ns"]) for e in rd["edges"]}
    for k in sorted(set(et) | set(ed)) if not no_ctx else ():
        if not close(et.get(k), ed.get(k)):
            bad.append(f"edge {k[0]} -> {k[1]}: text {et.get(k)}, trace.dat {ed.get(k)}")
    bt, at = calls(kmag, text, no_ctx)
    bd, ad = calls(kmag, dat, no_ctx)
    for k in sorted(set(bt) | set(bd), key=str):
        if bt[k] != bd[k]:
            bad.append(f"calls {k}: text {bt[k]}, trace.dat {bd[k]}")
            continue
        # the same calls: their argument lists must agree too (a function's
        # text shows the same number of arguments in every call)
        n = len(at[k][0])
        tv = sorted(at[k])
        dv = sorted(v[:n] for v in ad[k])
        if tv != dv:
            bad.append(f"arguments of {k}: text {tv[:2]}, trace.dat {dv[:2]}")
    n_calls = sum(bt.values())
    with_args = sum(1 for k in at for v in at[k] if v)
    with_site = sum(n for k, n in bt.items() if k[4])
    with_ret = sum(n for k, n in bt.items() if k[3] is not None)
    for line in bad[:30]:
        print(line)
    print(f"{len(bad)} differences; {n_calls} calls, {with_ret} with return values, "
          f"{with_site} with call sites, {with_args} with arguments")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
