#!/bin/bash
# SPDX-License-Identifier: MIT
# t0701-escaping-hostile.sh - every output stays well formed, and no name
# reaches a terminal raw, for traces whose names are hostile
# (helpers/hostile-trace.py: control characters, ESC sequences, C1, quotes,
# </script>, ]]>, &, backslashes, a 5000-byte name, a huge duration;
# helpers/hostile-tracedat.py: bytes that are not UTF-8, from a trace.dat's
# kallsyms). Each output is parsed by a strict parser (helpers/hostile-check.py):
# text is UTF-8 without control characters, JSON/CSV/SVG/HTML parse, DOT is
# taken by Graphviz. (issue 16)
. "$(dirname "$0")/lib.sh"
H="$SRCDIR/tests/e2e/helpers"
check() { python3 "$H/hostile-check.py" "$@"; }
python3 "$H/hostile-trace.py" "$T/h.txt"
python3 "$H/hostile-trace.py" "$T/h2.txt" 2
python3 "$H/hostile-trace.py" "$T/nul.txt" nul
FG=$(fixture_trace fg-sched-v6.dat)
python3 "$H/hostile-tracedat.py" "$FG" "$T/h.dat" >/dev/null
# names as the outputs must show them: text escapes, the others keep (text)
# or replace (bytes that are not UTF-8: U+FFFD) them
ESC_TXT='esc_\x1b[31mred\x1b[0m_\x1b]0:title\x07'
CTL_TXT='ctl_\x01\x02\x08\x0b\x0c\x1f_\x7f_end'
C1_TXT='c1_\xc2\x9b2J_csi'
ESC_STR=$'esc_\e[31mred\e[0m_\e]0:title\a'
SCRIPT='</script><script>alert`1`</script>'
QUOTE="quote_\"'\`_amp_&amp_&_lt_<_gt_>"
CSV_NAME="=cmd|'/C_calc'!A0,\"x\""
BAD_TXT='bad\xff\xc0\xaf\xed\xa0\x80\xe2\x82_\x80x'
BAD_STR=$'bad\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD_\uFFFDx'
ESC2_TXT='esc\x1b[31m</>\x01&"'
CUT_TXT=$'abccut_utf8_\u2026\\xf0\\x9f\\x94'

# --- text: nothing a terminal acts on, the names as \xNN ---------------------
t_exit "report text" 0 "$KMAG" report "$T/h.txt"
t_ok "report text: no raw control character, names escaped" check text "$T/out" "$ESC_TXT" "$CTL_TXT" "$C1_TXT" "$SCRIPT" $'ok_utf8_\u2026_\U0001f525'
t_exit "report --callers text" 0 "$KMAG" report --callers "$ESC_STR" "$T/h.txt"
t_ok "report --callers: the heading escapes the name too" check text "$T/out" "# callers of $ESC_TXT"
t_exit "report text of a trace.dat" 0 "$KMAG" report "$T/h.dat"
t_ok "report text: bytes that are not UTF-8 as \\xNN" check text "$T/out" "$BAD_TXT" "$ESC2_TXT" "$CUT_TXT"
t_exit "replay text" 0 "$KMAG" replay "$T/h.txt"
t_ok "replay text: no raw control character, names and comm escaped" check text "$T/out" "$ESC_TXT() {" "$CTL_TXT" 'ev\x1b[1m<il>"-42'
t_exit "replay text of a trace.dat" 0 "$KMAG" replay "$T/h.dat"
t_ok "replay text (trace.dat): no raw control character" check text "$T/out" "$BAD_TXT" "$ESC2_TXT"
t_exit "diff text" 0 "$KMAG" diff "$T/h.txt" "$T/h2.txt"
t_ok "diff text: no raw control character" check text "$T/out" "$ESC_TXT"
t_exit "report --slowest text" 0 "$KMAG" report --slowest 3 "$T/h.txt"
t_ok "slowest calls: no raw control character in names or comm" check text "$T/out" 'ev\x1b[1m<il>"'

# --- JSON, CSV: strict parsers, names kept ----------------------------------
t_exit "report json" 0 "$KMAG" report -F json "$T/h.txt"
t_ok "report json parses, names kept" check json "$T/out" "$ESC_STR" "$SCRIPT" "$QUOTE" "$CSV_NAME" "$(printf 'L%.0s' $(seq 5000))"
t_nogrep "report json: no raw </script>" '</script>' "$T/out"
t_exit "report json of a trace.dat" 0 "$KMAG" report -F json "$T/h.dat"
t_ok "report json (trace.dat): UTF-8, bytes that are not as U+FFFD" check json "$T/out" "$BAD_STR"
t_exit "replay json of a trace.dat" 0 "$KMAG" replay -F json "$T/h.dat"
t_ok "replay json (trace.dat): each line parses" check jsonl "$T/out" "$BAD_STR"
t_exit "replay json" 0 "$KMAG" replay -F json "$T/h.txt"
t_ok "replay json: each line parses" check jsonl "$T/out" "$ESC_STR" "$SCRIPT"
t_exit "diff json of trace.dats" 0 "$KMAG" diff -F json "$FG" "$T/h.dat"
t_ok "diff json parses" check json "$T/out" "$BAD_STR"
t_exit "report csv" 0 "$KMAG" report -F csv "$T/h.txt"
t_ok "report csv parses, names kept" check csv "$T/out" "$CSV_NAME" "$QUOTE" "$ESC_STR"
t_exit "report csv of a trace.dat" 0 "$KMAG" report -F csv "$T/h.dat"
t_ok "report csv (trace.dat): UTF-8, rows whole" check csv "$T/out" "$BAD_STR"
t_exit "export csv edges of a trace.dat" 0 "$KMAG" export -F csv --table edges "$T/h.dat"
t_ok "export csv edges parses" check csv "$T/out" "$BAD_STR"
t_exit "export json of a trace.dat" 0 "$KMAG" export -F json -o "$T/e.json" "$T/h.dat"
t_ok "export json parses" check json "$T/e.json" "$BAD_STR"
t_exit "export chrome of a trace.dat" 0 "$KMAG" export -F chrome -o "$T/c.json" "$T/h.dat"
t_ok "chrome json parses" check json "$T/c.json" "$BAD_STR"
t_exit "export chrome" 0 "$KMAG" export -F chrome -o "$T/c2.json" "$T/h.txt"
t_ok "chrome json (text) parses, names and comm kept" check json "$T/c2.json" "$ESC_STR" $'ev\e[1m<il>"'

# --- SVG, DOT, HTML ----------------------------------------------------------
t_exit "flame svg of a trace.dat" 0 "$KMAG" flame -o "$T/f.svg" "$T/h.dat"
t_ok "flame svg is UTF-8 XML" check xml "$T/f.svg" "$BAD_STR"
t_exit "flame svg" 0 "$KMAG" flame -o "$T/f2.svg" --per comm "$T/h.txt"
# the hostile calls are too short to be drawn next to a 99999 s one: the comm is
t_ok "flame svg (text) is XML, the comm as text" check xml "$T/f2.svg" 'ev\x1b[1m<il>"' huge_duration
if t_has_feature graphviz; then
	t_exit "visualize svg of a trace.dat" 0 "$KMAG" visualize --no-chart --image-name "$T/g.svg" "$T/h.dat"
	t_ok "visualize svg is UTF-8 XML" check xml "$T/g.svg" "$BAD_STR"
	t_exit "visualize svg" 0 "$KMAG" visualize --no-chart --image-name "$T/g2.svg" "$T/h.txt"
	t_ok "visualize svg (text) is XML, control characters as \\xNN" check xml "$T/g2.svg" "$ESC_TXT" "$SCRIPT"
	t_exit "visualize dot of a trace.dat" 0 "$KMAG" visualize --no-chart --image-name "$T/g.dot" "$T/h.dat"
	t_ok "dot is UTF-8 and taken by Graphviz" dot -Tsvg -o "$T/g3.svg" "$T/g.dot"
	t_ok "... whose SVG is XML" check xml "$T/g3.svg" "$BAD_STR"
	t_exit "export dot" 0 "$KMAG" export -F dot -o "$T/e.dot" "$T/h.txt"
	t_ok "export dot is taken by Graphviz" dot -Tsvg -o "$T/e.svg" "$T/e.dot"
	t_ok "... whose SVG is XML with the names as text" check xml "$T/e.svg" "$ESC_TXT" "back\\slash\\N\\l\\"
	t_exit "diff dot" 0 "$KMAG" diff -F dot -o "$T/d.dot" "$T/h.txt" "$T/h2.txt"
	t_ok "diff dot is taken by Graphviz" dot -Tsvg -o "$T/d.svg" "$T/d.dot"
	t_ok "... whose SVG is XML" check xml "$T/d.svg" "$ESC_TXT"
else
	t_skip "visualize svg and dot" "this kmag was built without graphviz"
fi
t_exit "html of a plain trace" 0 "$KMAG" html -o "$T/plain.html" "$FG"
scripts=$(check html "$T/plain.html")
t_exit "html of a trace.dat" 0 "$KMAG" html -o "$T/x.html" "$T/h.dat"
t_ok "html: UTF-8, no extra <script>, the data parses" env PAGE_SCRIPTS="$scripts" python3 "$H/hostile-check.py" html "$T/x.html" "$BAD_STR"
t_exit "html" 0 "$KMAG" html -o "$T/x2.html" "$T/h.txt"
t_ok "html (text): no extra <script>, names kept" env PAGE_SCRIPTS="$scripts" python3 "$H/hostile-check.py" html "$T/x2.html" "$SCRIPT" "$ESC_STR"
t_exit "diff html" 0 "$KMAG" diff -F html -o "$T/d.html" "$T/h.txt" "$T/h2.txt"
t_ok "diff html: the data parses, names kept" check html "$T/d.html" "$SCRIPT"

# --- a NUL inside a name: the line is skipped and said (issue 23) -----------
t_exit "a NUL in a text trace: its line is skipped" 0 "$KMAG" report "$T/nul.txt"
t_grep "... saying where" 'damaged: line [0-9]+, column [0-9]+: a NUL byte; line skipped' "$T/err"
t_exit "... and refused in one line with --strict" 1 "$KMAG" report --strict "$T/nul.txt"
t_grep "... saying where" 'damaged text: line [0-9]+, column [0-9]+: a NUL byte' "$T/err"
t_done
