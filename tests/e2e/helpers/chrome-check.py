#!/usr/bin/env python3
# chrome-check.py FILE... - checks kmag's Chrome trace-event export: every
# file parses as JSON, has a traceEvents array, and on every thread the "X"
# events nest properly (a call starting inside another ends inside it).
# Prints "calls=N threads=N incomplete=N names=a,b,... unknown=N" (the 20 most
# frequent call names; unknown: slices of calls no exit named) and exits 1 with a message on the first violation.
import json
import sys
from collections import Counter, defaultdict


def ns(us):
    return round(us * 1000)


def main(paths):
    calls = 0
    incomplete = 0
    names = Counter()
    threads = defaultdict(list)
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        events = doc["traceEvents"]
        if not isinstance(events, list):
            sys.exit(f"{path}: traceEvents is not an array")
        for e in events:
            if e.get("ph") != "X":
                continue
            for key in ("name", "ts", "dur", "pid", "tid"):
                if key not in e:
                    sys.exit(f"{path}: X event without {key}: {e}")
            if e["dur"] < 0:
                sys.exit(f"{path}: negative duration: {e}")
            # "[unknown]": a call whose entry and exit are both missing, drawn because
            # it holds calls; not a call of any function
            if e["name"] != "[unknown]":
                calls += 1
            names[e["name"]] += 1
            if "incomplete" in e.get("args", {}):
                incomplete += 1
            threads[(e["pid"], e["tid"])].append((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), e["name"]))
    if calls == 0:
        sys.exit("no call (\"X\") events: nothing nests or overlaps in an empty timeline")
    for key, evs in threads.items():
        # outer calls first when they start together
        evs.sort(key=lambda x: (x[0], -(x[1] - x[0])))
        stack = []
        for start, end, name in evs:
            while stack and start >= stack[-1][1]:
                stack.pop()
            if stack and end > stack[-1][1]:
                sys.exit(f"thread {key}: {name} [{start},{end}] overlaps the end of "
                         f"{stack[-1][2]} [{stack[-1][0]},{stack[-1][1]}]")
            stack.append((start, end, name))
    top = ",".join(n for n, _ in names.most_common(20))
    print(f"calls={calls} threads={len(threads)} incomplete={incomplete} names={top} "
          f"unknown={names['[unknown]']}")


if __name__ == "__main__":
    main(sys.argv[1:])
