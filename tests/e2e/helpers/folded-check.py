#!/usr/bin/env python3
# folded-check.py FOLDED REPORT_CSV COLUMN [--reverse]
# Checks folded stacks against `kmag report -F csv --limit 0`: the weights of all
# lines sum to the report's total of COLUMN (self_ns or calls), and for every
# function the weights of the lines whose innermost frame is that function
# sum to its own COLUMN value. Functions with incomplete calls are exempt
# there: a call whose entry the trace lacks sits on a path of frames the
# trace does not name ("[unknown]"). Prints "lines=N sum=S".
import csv
import sys
from collections import Counter


def main():
    folded, report, column = sys.argv[1:4]
    reverse = "--reverse" in sys.argv[4:]
    want = {}
    incomplete = set()
    with open(report) as f:
        for row in csv.DictReader(f):
            want[row["function"]] = int(row[column] or 0)
            if int(row["incomplete"]):
                incomplete.add(row["function"])
    got = Counter()
    total = 0
    lines = 0
    with open(folded) as f:
        for line in f:
            stack, _, weight = line.rstrip("\n").rpartition(" ")
            if not stack or not weight.isdigit():
                sys.exit(f"bad folded line: {line!r}")
            frames = stack.split(";")
            leaf = frames[0] if reverse else frames[-1]
            got[leaf] += int(weight)
            total += int(weight)
            lines += 1
    # nothing on either side would make every comparison below hold
    if lines == 0 or not want:
        sys.exit(f"nothing to compare: {lines} folded lines, {len(want)} report rows")
    if total != sum(want.values()):
        sys.exit(f"folded weights sum to {total}, the report's {column} to {sum(want.values())}")
    for name, value in want.items():
        if name in incomplete:
            continue
        if got.get(name, 0) != value:
            sys.exit(f"{name}: folded {got.get(name, 0)} != report {column} {value}")
    print(f"lines={lines} sum={total}")


if __name__ == "__main__":
    main()
