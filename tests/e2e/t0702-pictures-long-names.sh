#!/bin/bash
# SPDX-License-Identifier: MIT
# t0702 - a function name of 1 MB (hostile input) in every picture (issue 23,
# defect 5): labels are cut to 80 characters in the middle, tooltips to 512
# (the kernel's KSYM_NAME_LEN), so Graphviz and Pango never get the whole
# name (they failed: "Pango-CRITICAL ... PANGO_IS_LAYOUT", a 3 MB SVG, a
# blank PNG, 6 MB leaked inside the libraries), and the output stays small.
# The longest real name of Linux 6.19 (76 characters) stays whole. What each
# picture must show is computed from the rule by helpers/long-names.py. Run
# under valgrind by the suite (KMAG_VALGRIND), a leak or error fails here:
# every run, as the leaks were in the libraries each picture uses.
KMAG_VALGRIND_RUNS=0
. "$(dirname "$0")/lib.sh"
LN="$SRCDIR/tests/e2e/helpers/long-names.py"
python3 "$LN" trace "$T/a.txt"
python3 "$LN" trace "$T/b.txt" 2
# nothing a library complains about on stderr (Pango, GLib, Graphviz, cairo)
quiet() { t_nogrep "$1: no library complains on stderr" 'CRITICAL|WARNING|Pango|GLib|cairo|[Ee]rror' "$2"; }
size_below() { local s; s=$(stat -c %s "$2"); t_ok "$1: $s bytes, below $3" test "$s" -lt "$3"; }

t_ok "flame" "$KMAG" flame -o "$T/f.svg" "$T/a.txt"
quiet flame "$T/ok.err"
size_below "flame svg" "$T/f.svg" 65536
t_ok "flame: frame titles bounded, real names whole" python3 "$LN" flame "$T/f.svg"

if t_has_feature graphviz; then
	for fmt in svg pdf png; do
		t_ok "visualize $fmt" "$KMAG" visualize --no-chart --image-name "$T/g.$fmt" "$T/a.txt"
		quiet "visualize $fmt" "$T/ok.err"
		size_below "visualize $fmt" "$T/g.$fmt" 131072
	done
	t_ok "visualize svg: labels cut to 80 characters, tooltips to 512" python3 "$LN" svg "$T/g.svg"
	# a PNG scaled down to nothing was the other symptom: the name's width
	t_ok "visualize png: drawn at a readable size (not scaled to fit a 1 MB label)" python3 -c "
import struct, sys
w, h = struct.unpack('>II', open(sys.argv[1], 'rb').read()[16:24])
assert 300 < w < 4000 and 100 < h < 4000, (w, h)" "$T/g.png"
	t_ok "export dot" "$KMAG" export -F dot -o "$T/e.dot" "$T/a.txt"
	t_ok "export dot: labels cut, tooltips bounded" python3 "$LN" dot "$T/e.dot"
	t_ok "... and Graphviz draws it" dot -Tsvg -o "$T/e.svg" "$T/e.dot"
	quiet "dot of the export" "$T/ok.err"
	t_ok "diff dot" "$KMAG" diff -F dot -o "$T/d.dot" "$T/a.txt" "$T/b.txt"
	t_ok "diff dot: labels cut, tooltips bounded" python3 "$LN" dot "$T/d.dot"
	t_ok "... and Graphviz draws it" dot -Tsvg -o "$T/d.svg" "$T/d.dot"
	quiet "dot of the diff" "$T/ok.err"
	if t_has_feature cairo; then
		t_ok "the chart" "$KMAG" visualize --image-name "$T/g.dot" --chart-name "$T/c.svg" "$T/a.txt"
		quiet chart "$T/ok.err"
		size_below "chart svg" "$T/c.svg" 131072
	fi
else
	t_skip "visualize, export and diff pictures" "this kmag was built without graphviz"
fi
t_done
