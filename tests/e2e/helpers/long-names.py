#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""long-names.py: traces with very long function names, and the checks of the
pictures kmag draws from them (t0702).

  long-names.py trace OUT [2]   a function_graph text trace: outer() calls a
                                function with a 1 MB name, one of 208
                                characters, the longest name of Linux 6.19's
                                System.map (76 characters, drawn whole) and one
                                of 300 two-byte characters; variant 2 calls the
                                first two twice (for diff)
  long-names.py svg FILE        a Graphviz SVG: labels cut, tooltips bounded
  long-names.py flame FILE      a flame SVG: frame titles bounded
  long-names.py dot FILE        DOT from export/diff: labels cut

What a picture must show is spelled out here from the rule (README, "Long
names"), not taken from kmag: a label holds at most 80 characters, a longer
name keeps its first 40 and last 39 around an ellipsis; a tooltip at most
512 (the kernel's KSYM_NAME_LEN), its first 256 and last 255."""
import re
import sys
import xml.etree.ElementTree as ET

HUGE = "g" + "y" * (1 << 20) + "_end_of_huge"
REAL = "__initcall__kmod_trace_events_synth__456_2339_trace_events_synth_init_early1"
WIDE = "\u00e9" * 150 + "_mid_" + "\u00e8" * 150
MID = "m" * 100 + "_middle_" + "m" * 100   # cut in a label, whole in a tooltip
XLINK = "{http://www.w3.org/1999/xlink}"


def cut(name, most):
    if len(name) <= most:
        return name
    head = most // 2
    tail = most - 1 - head
    return name[:head] + "\u2026" + name[len(name) - tail:]


def trace(out, variant):
    lines = ["# tracer: function_graph", "#",
             "#     TIME        CPU  TASK/PID         DURATION                  FUNCTION CALLS"]
    ts = [100000001]

    def line(dur, depth, text):
        t = ts[0]
        ts[0] += 2
        d = ("%s us" % dur).rjust(12) if dur else " " * 12
        lines.append("  %d.%06d |   0)  bash-42    | %s  |  %s%s" % (
            t // 1000000, t % 1000000, d, "  " * depth, text))

    line(None, 0, "outer() {")
    for _ in range(2 if variant == "2" else 1):
        line("1.000", 1, HUGE + "();")
        line("1.000", 1, MID + "();")
    line("1.000", 1, REAL + "();")
    line("1.000", 1, WIDE + "();")
    line("9.000", 0, "}")
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def fail(msg):
    print(msg, file=sys.stderr)
    sys.exit(1)


def need(cond, msg):
    if not cond:
        fail(msg)


def check_svg(path):
    root = ET.parse(path).getroot()
    texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    tips = [a.get(XLINK + "title") for a in root.iter() if a.get(XLINK + "title")]
    need(cut(HUGE, 80) in texts, "no label with the 1 MB name cut to 80 characters")
    need(cut(MID, 80) in texts, "no label with the 208-character name cut to 80")
    need(any(t.split("\n")[0] == MID for t in tips), "the 208-character name's tooltip is not whole")
    need(REAL in texts, "the 76-character name of System.map is not drawn whole")
    need(cut(WIDE, 80) in texts, "the name of two-byte characters is not cut between characters")
    need(all(len(t) <= 80 for t in texts), "a label longer than 80 characters: %r" %
         max(texts, key=len)[:100])
    need(any(t.split("\n")[0] == cut(HUGE, 512) for t in tips),
         "no tooltip with the 1 MB name cut to 512 characters")
    need(any(t.split("\n")[0] == REAL for t in tips), "the real name's tooltip is not whole")


def check_flame(path):
    root = ET.parse(path).getroot()
    titles = ["".join(t.itertext()).split("\n")[0]
              for t in root.iter("{http://www.w3.org/2000/svg}title")]
    need(cut(HUGE, 512) in titles, "no frame title with the 1 MB name cut to 512 characters")
    need(REAL in titles, "the real name's frame title is not whole")
    need(all(len(t) <= 512 for t in titles), "a frame title longer than 512 characters")


def check_dot(path):
    # Graphviz continues long strings on the next line after a backslash
    text = open(path, encoding="utf-8").read().replace("\\\n", "")
    labels = [l for l in re.findall(r'label="((?:[^"\\]|\\.)*)"', text)
              if not l.startswith("kmag ")]   # the graph's title
    firsts = [l.split("\\n")[0] for l in labels]
    need(cut(HUGE, 80) in firsts, "no label with the 1 MB name cut to 80 characters")
    need(all(len(l) <= 80 for l in firsts), "a label longer than 80 characters")
    # (Graphviz writes a string that is an identifier without quotes)
    tips = [(q or w).split("\\n")[0]
            for q, w in re.findall(r'tooltip=(?:"((?:[^"\\]|\\.)*)"|(\w+))', text)]
    need(cut(HUGE, 512) in tips, "no tooltip with the 1 MB name cut to 512 characters")
    need(cut(MID, 80) in firsts, "no label with the 208-character name cut to 80")
    need(MID in tips, "no tooltip with the 208-character name whole")


def main():
    kind, path = sys.argv[1], sys.argv[2]
    if kind == "trace":
        trace(path, sys.argv[3] if len(sys.argv) > 3 else "1")
    else:
        {"svg": check_svg, "flame": check_flame, "dot": check_dot}[kind](path)


main()
