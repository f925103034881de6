#!/bin/bash
# SPDX-License-Identifier: MIT
# t0205 - `visualize --errors` on a graph pruned to --max-nodes (issue 23,
# defect 6): pruning dropped error paths silently (on fg619-args.dat with the
# 6.19 BTF, 5 of the 9 origins kmag errors lists had no node under the default
# 100). Now the error paths are kept whole before the heaviest functions, and
# when they do not fit the command and the picture say how many were cut.
# Checked against the failed system calls read from the kernel's own text
# (helpers/fg-errors.py, not kmag), and against every group kmag errors lists.
. "$(dirname "$0")/lib.sh"
t_need_feature graphviz
D="$TRACES/6.19"
FGE="$SRCDIR/tests/e2e/helpers/fg-errors.py"
BTF=()
if t_has_feature btf; then
	xz -dc "$FIXTURES/btf/vmlinux-6.19.btf.xz" >"$T/vmlinux.btf"
	BTF=(--btf "$T/vmlinux.btf")
fi
# the functions a visualize DOT draws (first line of each node's tooltip)
drawn() { python3 -c '
import re, sys
t = open(sys.argv[1]).read().replace("\\\n", "")
for m in re.finditer(r"^\tn\d+\t\[(.*?)\];$", t, re.S | re.M):
    print(re.search(r"tooltip=\"([^\"\n]*)", m.group(1)).group(1))' "$1" | sort -u; }
# the groups of kmag errors whose example chain has a function not in $2
cut_chains() { python3 -c '
import json, sys
drawn = set(open(sys.argv[2]).read().split())
groups = json.load(open(sys.argv[1]))["groups"]
print(sum(1 for g in groups if any(l["function"] not in drawn for l in g["example"]["chain"])), len(groups))' "$1" "$2"; }

# kmag errors is the reference here, not under test: outside valgrind (KMAG_REAL)
for f in fg619-args fg619-retval; do
	"${KMAG_REAL:-$KMAG}" errors -F json "${BTF[@]}" "$D/$f.dat" >"$T/$f.json"
	t_ok "$f: visualize --errors (default --max-nodes 100)" \
		"$KMAG" visualize --errors "${BTF[@]}" --no-chart --image-name "$T/$f.dot" "$D/$f.dat"
	cp "$T/ok.out" "$T/$f.out"
	drawn "$T/$f.dot" >"$T/$f.drawn"
	missing=$(python3 "$FGE" "$D/$f.txt" | awk '{ print $3 }' | sort -u | comm -23 - "$T/$f.drawn")
	t_eq "$f: every failed system call's origin (the kernel's text) is drawn" "" "$missing"
	missing=$(python3 "$FGE" --edges "$D/$f.txt" | tr ' ' '\n' | sort -u | comm -23 - "$T/$f.drawn")
	t_eq "$f: ... and every step of their chains" "" "$missing"
	read -r cut all < <(cut_chains "$T/$f.json" "$T/$f.drawn")
	t_eq "$f: every chain kmag errors lists ($all) is drawn whole" 0 "$cut"
	t_grep "$f: the command says so" "; all $all error paths kept" "$T/$f.out"
done

# too few nodes for all of them: what is cut is counted, in the output and the picture
f=fg619-args
for n in 10 20; do
	t_ok "$f --max-nodes $n" "$KMAG" visualize --errors "${BTF[@]}" --max-nodes $n --no-chart \
		--image-name "$T/m$n.dot" "$D/$f.dat"
	cp "$T/ok.out" "$T/m$n.out"
	drawn "$T/m$n.dot" >"$T/m$n.drawn"
	read -r cut all < <(cut_chains "$T/$f.json" "$T/m$n.drawn")
	t_ok "--max-nodes $n: $cut of $all chains cut" test "$cut" -gt 0
	t_grep "... the command says how many" "; $cut of $all error paths not drawn whole, they do not fit in --max-nodes $n \\(0 shows all\\)" "$T/m$n.out"
	t_grep "... and the picture" "error paths: $cut not drawn whole" "$T/m$n.dot"
	t_eq "... and no more functions than asked for" $n "$(wc -l <"$T/m$n.drawn")"
done
t_done
