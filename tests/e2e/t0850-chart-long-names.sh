#!/bin/bash
# SPDX-License-Identifier: MIT
# t0850 - the chart's labels: names just too long for the label area (the cut
# replaces one or two bytes with a 3-byte ellipsis: it wrote past the name),
# and a name of 1 MB (shortening measured the text once per removed byte).
# Run under ASan/valgrind by the suite, an overflow fails here. (cairo draws
# text as glyph outlines, so the labels themselves are not in the SVG.)
. "$(dirname "$0")/lib.sh"
t_need_feature graphviz cairo
cd "$T" || exit 1

# function tracer lines, names of 40..160 bytes: some are cut by 1 or 2
python3 - >near.txt <<'PY'
print("# tracer: function")
for n in range(40, 161):
    name = "f" + "x" * (n - 2) + "%d" % (n % 10)
    for i in range(200 - n):
        print(" bash-1 [000] d..1. %d.%06d: %s <-caller" % (1, n * 1000 + i, name))
PY
t_ok "chart of names that are cut by a few bytes (PNG)" \
	"$KMAG" visualize --top 121 --image-name g.dot --chart-name c.png near.txt
t_ok "... as SVG" "$KMAG" visualize --top 121 --image-name g.dot --chart-name c.svg near.txt
t_ok "the SVG chart is well-formed" python3 -c "import xml.etree.ElementTree as E; E.parse('c.svg')"

python3 - >huge.txt <<'PY'
print("# tracer: function")
print(" bash-1 [000] d..1. 1.000001: g%s <-caller" % ("y" * (1 << 20)))
print(" bash-1 [000] d..1. 1.000002: short <-caller")
PY
t_ok "a 1 MB name is cut for the chart" \
	"$KMAG" visualize --image-name g2.html --chart-name c2.svg huge.txt
t_ok "... in a chart as tall as one with a short name" python3 -c "
import xml.etree.ElementTree as E
h = float(E.parse('c2.svg').getroot().get('height').rstrip('pt'))
assert h < 400, h"
t_done
