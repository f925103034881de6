#!/bin/bash
# SPDX-License-Identifier: MIT
# Probes recorded next to a function tracer (fn-kprobe.dat, kmag record
# --kprobe 'vfs_write count=%dx:u64' on a real 6.1 kernel): `report --probes`
# shows the argument values, and the probed function is marked in report,
# visualize (SVG) and html; unprobed functions are not.
. "$(dirname "$0")/lib.sh"
f=$TRACES/fn-kprobe.dat

t_ok "report --probes" "$KMAG" report --probes "$f"
t_grep "the probe and its hits" 'kmag_104:vfs_write +\(kprobe on vfs_write\): 30 hits' "$T/ok.out"
t_grep "the write sizes of the workload" 'top values: 4096 x12 .*2 x10 .*31 x6 .*88 x2' "$T/ok.out"

t_ok "report marks the probed function" "$KMAG" report --limit 0 "$f"
t_grep "vfs_write carries its hits" '^ +30 .* vfs_write  \{probe: 30 hits\}$' "$T/ok.out"
t_nogrep "ksys_write is not marked" 'ksys_write .*probe' "$T/ok.out"

if t_has_feature graphviz && t_has_feature cairo; then
	t_ok "visualize" "$KMAG" visualize --image-name "$T/g.svg" --chart-name "$T/c.svg" "$f"
	t_eq "the SVG labels and tooltips mark one function" 2 "$(grep -c 'probe: 30 hits' "$T/g.svg")"
	python3 - "$T/g.svg" >"$T/svg.txt" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
SVG = "{http://www.w3.org/2000/svg}"
for g in root.iter(SVG + "g"):
    if g.get("class") != "node":
        continue
    texts = [t.text or "" for t in g.iter(SVG + "text")]
    borders = len(list(g.iter(SVG + "path"))) + len(list(g.iter(SVG + "polygon")))
    print(texts[0], "probe" if any("probe:" in t for t in texts) else "-", borders)
PY
	t_grep "vfs_write's node shows the hits, with a double border" '^vfs_write probe 2$' "$T/svg.txt"
	t_eq "no other node is marked" 1 "$(grep -c ' probe ' "$T/svg.txt")"
else
	t_skip "visualize marks the probed function" "this kmag was built without graphviz or cairo"
fi

t_ok "html" "$KMAG" html -o "$T/k.html" "$f"
python3 - "$T/k.html" >"$T/html.txt" <<'PY'
import json, re, sys
page = open(sys.argv[1]).read()
m = re.search(r'<script type="application/json" id="kmag-data">(.*?)</script>', page, re.S)
d = json.loads(m.group(1))
for name, hits in zip(d["fn"]["name"], d["fn"].get("probe", [])):
    if hits:
        print(name, hits)
PY
t_eq "the page's data marks vfs_write alone" "vfs_write 30" "$(cat "$T/html.txt")"

t_ok "a trace without probes has no probe column" "$KMAG" html -o "$T/n.html" "$TRACES/fn-filtered.dat"
t_nogrep "no probe data" '"probe":\[' "$T/n.html"
t_done
