#!/bin/bash
# SPDX-License-Identifier: MIT
# t0601 - `kmag flame --root F` (issue 23): the flame graph of the calls made
# under F, each stack starting at its outermost call of F, as `visualize
# --root` scopes its graph (t0820). Checked against the stacks trace-cmd's own
# decoding gives (helpers/tc-stacks.py on `trace-cmd report -R`, never kmag):
# the stacks and their calls, per command name, reversed, and the time they
# add up to (the kernel's rettime - calltime of F's outermost calls).
. "$(dirname "$0")/lib.sh"
command -v trace-cmd >/dev/null || { echo "1..0 # SKIP trace-cmd is not installed (scripts/deps.sh --test)"; exit 0; }
TS="$SRCDIR/tests/e2e/helpers/tc-stacks.py"

for f in fg-2cpu-v6 fg-sched-v6; do
	tr=$(fixture_trace $f.dat)
	python3 "$TS" "$tr" vfs_read >"$T/want"
	t_ok "$f: flame --root vfs_read --weight calls --folded" \
		sh -c "'$KMAG' flame --root vfs_read -w calls -f - '$tr' | sort >'$T/got'"
	t_ok "$f: the stacks under vfs_read and their calls are trace-cmd's ($(wc -l <"$T/want") stacks)" \
		diff "$T/want" "$T/got"
	t_eq "$f: the time they add up to is vfs_read's (the kernel's rettime - calltime)" \
		"$(python3 "$TS" "$tr" vfs_read --total-ns)" \
		"$("$KMAG" flame --root vfs_read -f - "$tr" | awk '{ s += $NF } END { print s }')"
	python3 "$TS" "$tr" vfs_read --per comm >"$T/want"
	"$KMAG" flame --per comm --root vfs_read -w calls -f - "$tr" | sort >"$T/got"
	t_ok "$f: --per comm: each command's stacks under vfs_read" diff "$T/want" "$T/got"
	# reversed: the same stacks from the leaf up to vfs_read
	python3 "$TS" "$tr" vfs_read | awk '{ n = split($1, a, ";"); s = a[n];
		for (i = n - 1; i >= 1; i--) s = s ";" a[i]; w[s] += $2 } END { for (s in w) print s, w[s] }' |
		sort >"$T/want"
	"$KMAG" flame --reverse --root vfs_read -w calls -f - "$tr" | sort >"$T/got"
	t_ok "$f: --reverse: from each leaf up to vfs_read" diff "$T/want" "$T/got"
done
tr=$(fixture_trace fg-2cpu-v6.dat)
t_ok "the SVG says what it shows" "$KMAG" flame --root vfs_read -o "$T/f.svg" "$tr"
t_grep "... in its subtitle" 'id="subtitle"[^<]*called from vfs_read' "$T/f.svg"
t_exit "a misspelt --root: exit 1, a suggestion" 1 "$KMAG" flame --root vfs_raed -o "$T/x.svg" "$tr"
t_grep "... naming vfs_read" 'did you mean vfs_read\?' "$T/err"
t_exit "--per with a --root not in the trace: exit 1" 1 "$KMAG" flame --per pid --root nosuch -o "$T/x.svg" "$tr"
t_exit "--root on a function-tracer trace: exit 1 (no stacks)" 1 \
	"$KMAG" flame --root vfs_read -o "$T/x.svg" "$TRACES/fn-filtered.dat"
t_done
