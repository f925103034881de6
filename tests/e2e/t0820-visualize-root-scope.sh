#!/bin/bash
# SPDX-License-Identifier: MIT
# t0820 - `visualize --root F` on a trace with call stacks draws only the calls
# made under F, with the numbers of those calls (issue 18, defect 2): checked
# against the folded call stacks of the same trace (helpers/root-scope-check.py).
. "$(dirname "$0")/lib.sh"
t_need_feature graphviz
H=$SRCDIR/tests/e2e/helpers

for f in fg-2cpu-v6 fg-sched-v6; do
	tr=$(fixture_trace $f.dat)
	"$KMAG" flame --weight calls --folded "$T/$f.folded" -o "$T/$f.svg" "$tr" 2>/dev/null
	t_ok "$f: visualize --root vfs_read --depth 3" \
		"$KMAG" visualize --root vfs_read --depth 3 --no-chart --image-name "$T/$f.dot" "$tr"
	t_ok "$f: every function drawn ran under vfs_read, with its calls there" \
		python3 "$H/root-scope-check.py" "$T/$f.dot" "$T/$f.folded" vfs_read
	t_ok "$f: without --depth too" \
		sh -c "'$KMAG' visualize --root vfs_read --no-chart --image-name '$T/$f-all.dot' '$tr' >/dev/null &&
		python3 '$H/root-scope-check.py' '$T/$f-all.dot' '$T/$f.folded' vfs_read"
done
# rw_verify_area runs under vfs_read and vfs_write: drawn under vfs_read, it has
# fewer calls than in the whole trace
tr=$(fixture_trace fg-2cpu-v6.dat)
all=$("$KMAG" report -F csv --limit 0 "$tr" 2>/dev/null | awk -F, '$1 == "rw_verify_area" { print $2 }')
drawn=$(grep -o '<B>rw_verify_area</B></TD></TR><TR><TD><FONT POINT-SIZE="10">[0-9,]* calls' \
	"$T/fg-2cpu-v6.dot" | sed 's/.*">//; s/ calls//; s/,//g')
t_ok "rw_verify_area: ${drawn:-none} calls drawn under vfs_read, ${all:-none} in the trace" \
	test "${drawn:-0}" -gt 0 -a "${all:-0}" -gt "${drawn:-0}"
t_done
