#!/bin/bash
# SPDX-License-Identifier: MIT
# t0622 - `kmag diff` across kernels (issue 23, defect 7): a 6.1 and a 6.12
# recording of the same workload (fg-filtered-v6.dat, fg-filtered-6.12-v6.dat).
# The text named neither kernel and the page only B's, and renamed functions
# (__fdget_pos / fdget_pos, vma_alloc_folio / vma_alloc_folio_noprof,
# .part.0 clones) came out as one added and one removed. Now both kernels are
# named, a note says they differ, and renamed functions are paired by the
# rules of kmag-diff(1): checked by helpers/diff-renames.py against trace-cmd's
# counts and each trace.dat's own kallsyms (trace-cmd dump), never kmag's.
. "$(dirname "$0")/lib.sh"
command -v trace-cmd >/dev/null || { echo "1..0 # SKIP trace-cmd is not installed (scripts/deps.sh --test)"; exit 0; }
A=$(fixture_trace fg-filtered-v6.dat)
B=$(fixture_trace fg-filtered-6.12-v6.dat)
rel() { trace-cmd report --uname "$1" 2>/dev/null | awk '/^Linux / { print $3 }'; }
RA=$(rel "$A")
RB=$(rel "$B")
t_ok "the fixtures' kernels differ ($RA, $RB)" test -n "$RA" -a -n "$RB" -a "$RA" != "$RB"
ere() { printf '%s' "$1" | sed 's/[][\.*^$+?(){}|]/\\&/g'; }	# as a literal in a regex
EA=$(ere "$RA")
EB=$(ere "$RB")

t_exit "diff text" 0 "$KMAG" diff --limit 0 "$A" "$B"
cp "$T/out" "$T/d.txt"
t_grep "A's line names its kernel" "^# A: .*; kernel $EA\)\$" "$T/d.txt"
t_grep "B's line names its kernel" "^# B: .*; kernel $EB\)\$" "$T/d.txt"
t_grep "the header says the kernels differ" '^# kernels differ: functions are matched by name, and [0-9]+ renamed or cloned ones paired' "$T/d.txt"
t_grep "stderr warns, naming both" "^kmag: warning: A and B come from different kernels \($EA, $EB\)" "$T/err"
t_grep "__fdget_pos is shown as renamed to fdget_pos" '^ +25 +25 .* prefix +__fdget_pos -> fdget_pos$' "$T/d.txt"
t_nogrep "... not as added or removed" '^ +[0-9]+ +[0-9.]+ [mun]?s +(__fdget_pos|fdget_pos|vma_alloc_folio|vma_alloc_folio_noprof)$' "$T/d.txt"

for order in "$A $B" "$B $A"; do
	set -- $order
	"$KMAG" diff -F json "$1" "$2" >"$T/d.json" 2>/dev/null
	t_ok "json ($(basename "$1") vs $(basename "$2")): the renamed pairs are the rules' on trace-cmd's data" \
		python3 "$SRCDIR/tests/e2e/helpers/diff-renames.py" "$1" "$2" "$T/d.json"
done
"$KMAG" diff -F json "$A" "$B" >"$T/d.json" 2>/dev/null
t_eq "json: both kernels, and that they differ" "$RA $RB True" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["a"]["kernel"], d["b"]["kernel"], d["kernels_differ"])' "$T/d.json")"

t_ok "html" "$KMAG" diff -F html -o "$T/d.html" "$A" "$B"
t_eq "html: both kernels and the pairs in the page's data" "$RA $RB 6 __fdget_pos → fdget_pos" \
	"$(python3 -c '
import json, re, sys
d = json.loads(re.search(r"id=\"kmag-data\">(.*?)</script>", open(sys.argv[1]).read(), re.S).group(1))
print(d["a_release"], d["release"], d["renamed"], [n for n in d["fn"]["name"] if "fdget_pos" in n][0])' "$T/d.html")"
if t_has_feature graphviz; then
	t_ok "dot" "$KMAG" diff -F dot -o "$T/d.dot" "$A" "$B"
	t_grep "dot: a renamed function is drawn under both names, with its rule" \
		'label="vma_alloc_folio → vma_alloc_folio_noprof\\n' "$T/d.dot"
	t_eq "dot: 6 nodes carry kmag_renamed" 6 "$(grep -c 'kmag_renamed=' "$T/d.dot")"
	# the title named neither kernel (Graphviz breaks long lines with a backslash: joined)
	sed -e ':a' -e '/\\$/{N;s/\\\n//;ba;}' "$T/d.dot" >"$T/d1.dot"
	t_grep "dot: the title names both kernels" \
		"graph \[label=\"kmag diff: A = [^\"]* \(kernel $EA\), B = [^\"]* \(kernel $EB\);" "$T/d1.dot"
	t_grep "... and says they differ" '\\nkernels differ: 6 renamed or cloned functions paired' "$T/d1.dot"
fi

# one kernel: no note, nothing renamed
mkdir -p "$T/diff"
BASE=$(fixture_trace diff/diff-fg-base.dat)
TMPFS=$(fixture_trace diff/diff-fg-tmpfs.dat)
t_exit "diff of two recordings on one kernel" 0 "$KMAG" diff "$BASE" "$TMPFS"
t_eq "no warning" "" "$(cat "$T/err")"
t_nogrep "no 'kernels differ' line" 'kernels differ|renamed' "$T/out"
if t_has_feature graphviz; then
	t_ok "dot of two recordings on one kernel" "$KMAG" diff -F dot -o "$T/one.dot" "$BASE" "$TMPFS"
	t_nogrep "... no 'kernels differ' in its title" 'kernels differ' "$T/one.dot"
fi

# a kernel not known is not a different one: fg-report.txt is trace-cmd's text
# of fg-filtered.dat (its kernel named nowhere); both kernels differed
t_exit "diff of a trace.dat and a text trace" 0 "$KMAG" diff "$TRACES/fg-filtered.dat" "$TRACES/fg-report.txt"
t_grep "A's kernel named" "^# A: .*; kernel $EA\)\$" "$T/out"
t_grep "B's kernel unknown" '^# B: .*; kernel unknown\)$' "$T/out"
t_eq "... no warning" "" "$(cat "$T/err")"
t_nogrep "... no 'kernels differ' line" 'kernels differ' "$T/out"
t_eq "... json: kernels_differ false" "False" "$("$KMAG" diff -F json "$TRACES/fg-filtered.dat" "$TRACES/fg-report.txt" |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["kernels_differ"])')"
t_done
