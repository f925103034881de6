#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""diff-renames.py A.dat B.dat KMAG-DIFF.json: checks the functions `kmag diff
-F json A B` pairs as renamed (its "name_b" and "renamed" fields) without
kmag: the calls and call edges of each trace from trace-cmd's own decoding
(tests/oracle/tracecmd_counts.py), each kernel's symbol table from the
trace.dat's kallsyms as `trace-cmd dump --kallsyms` prints it, and the rules
of kmag-diff(1) written out again here:

  only functions not matched by name take part; a rule pairs a key held by
  exactly one such function of A and one of B, neither of whose names is in
  the other kernel's symbol table;
  1. clone: names equal without the suffixes .isra .constprop .part .cold
     .lto_priv .localalias .llvm (each with an optional .N);
  2. noprof: ... and without a trailing _noprof;
  3. prefix: ... and without a leading "__" on exactly one of them, when a
     caller of A's (matched by name or rules 1-2) calls B's in B; for two
     functions without callers, a callee instead.

Checks that kmag's pairs are exactly these, that each name is in its own
kernel's symbol table and not in the other's, that a pair's calls are
trace-cmd's counts of each name, and that no name of a pair is listed as
added or removed. Prints the pairs; exits 1 with the first problem."""
import json
import os
import re
import subprocess
import sys
from collections import defaultdict

ORACLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "oracle")
sys.path.insert(0, ORACLE)
import tracecmd_counts  # noqa: E402

CLONE = re.compile(r"(\.(isra|constprop|part|cold|lto_priv|localalias|llvm)(\.\d+)?)+$")


def kallsyms(path):
    out = subprocess.run(["trace-cmd", "dump", "--kallsyms", path], capture_output=True,
                         text=True, errors="replace", check=True).stdout
    return {p[2] for p in (l.split() for l in out.splitlines()) if len(p) >= 3}


def key12(name):
    base = CLONE.sub("", name)
    noprof = base.endswith("_noprof") and len(base) > len("_noprof")
    return (base[:-len("_noprof")] if noprof else base), noprof


def unique_pairs(a_names, b_names, keyf):
    groups = defaultdict(lambda: ([], []))
    for n in a_names:
        groups[keyf(n)][0].append(n)
    for n in b_names:
        groups[keyf(n)][1].append(n)
    return [(g[0][0], g[1][0]) for g in groups.values() if len(g[0]) == 1 and len(g[1]) == 1]


def main():
    a_dat, b_dat, got_json = sys.argv[1:4]
    ca, cb = tracecmd_counts.counts(a_dat), tracecmd_counts.counts(b_dat)
    ka, kb = kallsyms(a_dat), kallsyms(b_dat)
    fa, fb = set(ca["calls"]), set(cb["calls"])
    callers_a, callers_b, callees_a, callees_b = (defaultdict(set) for _ in range(4))
    for (p, c) in ca["edges"]:
        if p != c:
            callers_a[c].add(p)
            callees_a[p].add(c)
    for (p, c) in cb["edges"]:
        if p != c:
            callers_b[c].add(p)
            callees_b[p].add(c)

    only_a, only_b = fa - fb, fb - fa
    match = {n: n for n in fa & fb}    # A's name -> B's
    want = {}

    def fresh(a, b):
        return a not in kb and b not in ka

    for a, b in unique_pairs(only_a, only_b, lambda n: key12(n)[0]):
        if fresh(a, b):
            want[a] = (b, "noprof" if key12(a)[1] != key12(b)[1] else "clone")
    match.update({a: b for a, (b, _) in want.items()})
    left_a = only_a - set(want)
    left_b = only_b - {b for b, _ in want.values()}

    def key3(n):
        k = key12(n)[0]
        return k[2:] if k.startswith("__") and len(k) > 2 else k

    for a, b in unique_pairs(left_a, left_b, key3):
        if key12(a)[0].startswith("__") == key12(b)[0].startswith("__") or not fresh(a, b):
            continue
        place = any(match.get(p) in callers_b[b] for p in callers_a[a])
        if not callers_a[a] and not callers_b[b]:
            place = any(match.get(c) in callees_b[b] for c in callees_a[a])
        if place:
            want[a] = (b, "prefix")

    doc = json.load(open(got_json))
    got = {f["name"]: (f["name_b"], f["renamed"]) for f in doc["functions"] if "renamed" in f}
    for a, (b, rule) in sorted(want.items()):
        print("%s -> %s (%s)" % (a, b, rule))
    if got != want:
        sys.exit("kmag pairs %s\nthe rules give %s" % (sorted(got.items()), sorted(want.items())))
    listed = {f["name"] for f in doc["functions"] if f["status"] in ("added", "removed")}
    for f in doc["functions"]:
        if "renamed" not in f:
            continue
        a, b = f["name"], f["name_b"]
        if not (a in ka and a not in kb and b in kb and b not in ka):
            sys.exit("%s -> %s: a name is in both kernels' symbol tables, or in neither" % (a, b))
        if f["a"]["calls"] != ca["calls"][a] or f["b"]["calls"] != cb["calls"][b]:
            sys.exit("%s -> %s: calls %d/%d, trace-cmd counts %d/%d" % (
                a, b, f["a"]["calls"], f["b"]["calls"], ca["calls"][a], cb["calls"][b]))
        if a in listed or b in listed:
            sys.exit("%s -> %s is also listed as added or removed" % (a, b))


main()
