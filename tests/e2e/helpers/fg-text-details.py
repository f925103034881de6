#!/usr/bin/env python3
# fg-text-details.py TRACE.txt
#
# The kernel's own function_graph text (tracefs "trace", funcgraph-args,
# -retaddr, -retval) as the lines perfetto-check.py prints for a Perfetto
# export, so the two can be compared as multisets:
#   arg FUNC NAME=VALUE     each argument the kernel printed ("..." left out)
#   site FUNC CALLER+0xOFF  each call site ("<-caller+0xoff/0xsize")
#   ret FUNC -ERRNO         each error return (the kernel prints errors in
#                           decimal, other values in hex)
import re
import sys

OPEN = re.compile(r"^([A-Za-z_][A-Za-z0-9_.]*)\((.*)\)(?: \{|;)(?: /\* (.*) \*/)?$")
CLOSE = re.compile(r"^\} /\* ([A-Za-z_][A-Za-z0-9_.]*) (.*)\*/$")

for line in open(sys.argv[1], errors="replace"):
    if line.startswith("#") or "|" not in line:
        continue
    body = line.split("|", 1)[1].strip()
    m = OPEN.match(body)
    if m:
        func, args, comment = m.group(1), m.group(2), m.group(3) or ""
        for a in args.split(", ") if args else []:
            if a != "...":
                print("arg %s %s" % (func, a))
    else:
        m = CLOSE.match(body)
        if not m:
            continue
        func, comment = m.group(1), m.group(2)
    for word in comment.split():
        if word.startswith("<-"):
            print("site %s %s" % (func, word[2:].split("/")[0]))
        elif re.match(r"^ret=-[0-9]+$", word):
            print("ret %s %s" % (func, word[4:]))
