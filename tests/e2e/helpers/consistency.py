#!/usr/bin/env python3
# consistency.py [--no-ctx] REPORT.json FOLDED_TIME FOLDED_CALLS CHROME.json|- SLOWEST.json
#
# Checks that four views of one function_graph trace count the same calls
# and the same time for every function. Each view is rebuilt here from its
# own output only, with the documented meaning of that output:
#   report --format json    calls, total_ns, self_ns per function
#   folded stacks (time)    a line's weight is the self time of that call path:
#                           per function, the lines ending in it sum to its self time
#   folded stacks (calls)   the same with call counts: they sum to its calls
#   folded stacks (time)    the lines holding a function (once a line: a recursion's
#                           outermost call) sum to its total time, when none of its
#                           calls is incomplete: every call's time is its self time
#                           and its calls' (the kernel's durations, one clock).
#                           --no-ctx: not compared. The input has no context flags
#                           (text without the latency-format column), so an
#                           interrupt in a call's entry or return window cannot be
#                           nested into the call (include/kmag/replay.h): it splits
#                           the call, whose calls may then outlast it
#   export -F chrome        one "X" slice per call on its task's track; a slice
#                           marked "exit not in the trace" has no duration, and
#                           its calls' time is its caller's calls' time (they ran
#                           inside the caller's duration: not its self time);
#                           nesting gives each call its caller; total time counts
#                           the outermost activation of a recursive function only
#   report --slowest N      every timed call (N is larger than the calls), with
#                           its chain of open callers
# Prints one line per view compared and exits 1 listing the first functions
# where two views disagree.
import json
import sys
from collections import defaultdict


def load_report(path):
    doc = json.load(open(path))
    # a function with no timed call has no times (null)
    return {f["name"]: (f["calls"], f["total_ns"] or 0, f["self_ns"] or 0)
            for f in doc["functions"]}


def load_folded(path, inclusive=False):
    per_func = defaultdict(int)
    for line in open(path):
        line = line.rstrip("\n")
        if not line:
            continue
        stack, weight = line.rsplit(" ", 1)
        for name in set(stack.split(";")) if inclusive else [stack.split(";")[-1]]:
            per_func[name] += int(weight)
    return per_func


def ns(us):
    return round(us * 1000)


def load_chrome(path):
    """calls, total, self per function, from the slices and their nesting.

    kmag writes a call's slice when the call ends, so on each track a call's
    children are written before it: the slices just before it that lie
    inside its interval and have no parent yet. (Timestamps alone cannot
    nest calls that the ring buffer stamped with the same time.)
    """
    doc = json.load(open(path))
    tracks = defaultdict(list)
    for e in doc["traceEvents"]:
        if e.get("ph") != "X":
            continue
        args = e.get("args", {})
        start = ns(e["ts"])
        tracks[(e["pid"], e["tid"])].append({
            "start": start, "end": start + ns(e["dur"]), "name": e["name"],
            "timed": args.get("incomplete") != "exit not in the trace",
            "dur": args.get("duration_ns", ns(e["dur"])), "children": []})
    calls = defaultdict(int)
    total = defaultdict(int)
    self_ = defaultdict(int)

    def calls_time(s):
        """the time of the calls made in slice s (through slices without a duration)"""
        if "calls_time" not in s:
            s["calls_time"] = sum(c["dur"] if c["timed"] else calls_time(c)
                                  for c in s["children"])
        return s["calls_time"]

    def walk(s, ancestors):
        name = s["name"]
        calls[name] += 1
        if s["timed"]:
            child = calls_time(s)
            self_[name] += max(s["dur"] - child, 0)
            if name not in ancestors:
                total[name] += s["dur"]
        ancestors.append(name)
        for c in s["children"]:
            walk(c, ancestors)
        ancestors.pop()

    for slices in tracks.values():
        roots = []
        for s in slices:
            while roots and roots[-1]["start"] >= s["start"] and roots[-1]["end"] <= s["end"]:
                s["children"].append(roots.pop())
            roots.append(s)
        for r in roots:
            walk(r, [])
    return calls, total, self_


def load_slowest(path):
    doc = json.load(open(path))
    total = defaultdict(int)
    for c in doc["slowest"]:
        name = c["function"]
        if name not in c["chain"][:-1]:     # outermost activation only
            total[name] += c["duration_ns"]
    return total


def compare(what, a, b, names, errors):
    bad = [n for n in sorted(names) if (a.get(n) or 0) != (b.get(n) or 0)]
    print(f"{what}: {len(names) - len(bad)} of {len(names)} functions agree")
    for n in bad[:5]:
        errors.append(f"{what}: {n}: {a.get(n, 0)} != {b.get(n, 0)}")


def main(report_p, ftime_p, fcalls_p, chrome_p, slowest_p, no_ctx=False):
    rep = load_report(report_p)
    names = set(rep)
    r_calls = {n: v[0] for n, v in rep.items()}
    r_total = {n: v[1] for n, v in rep.items()}
    r_self = {n: v[2] for n, v in rep.items()}
    errors = []
    compare("flame self time vs report", load_folded(ftime_p), r_self, names, errors)
    complete = set() if no_ctx else \
        {f["name"] for f in json.load(open(report_p))["functions"] if not f["incomplete"]}
    compare("flame total time (the stacks holding a function) vs report",
            load_folded(ftime_p, inclusive=True), r_total, complete, errors)
    compare("flame calls vs report", load_folded(fcalls_p), r_calls, names, errors)
    if chrome_p != "-":     # "-": the trace has no timestamps, so no timeline
        c_calls, c_total, c_self = load_chrome(chrome_p)
        # "[unknown]": a call whose entry and exit are both missing (report has no row)
        compare("chrome calls vs report", c_calls, r_calls,
                names | (set(c_calls) - {"[unknown]"}), errors)
        compare("chrome total time vs report", c_total, r_total, names, errors)
        compare("chrome self time vs report", c_self, r_self, names, errors)
    s_total = load_slowest(slowest_p)
    compare("slowest total time vs report", s_total, r_total, names, errors)
    if errors:
        print("\n".join(errors), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    no_ctx = sys.argv[1:2] == ["--no-ctx"]
    args = sys.argv[1 + no_ctx:]
    if len(args) != 5:
        sys.exit(__doc__)
    main(*args, no_ctx=no_ctx)
