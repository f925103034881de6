# SPDX-License-Identifier: MIT
# record-checks.sh - helpers shared by the `kmag record` tests (host e2e and
# VM), sourced after tests/e2e/lib.sh. They read files kmag recorded:
#   tc_count FILE         records `trace-cmd report -R` prints (one per record)
#   km_count FILE         events `kmag report -F json` counts
#   log_count LOG         events kmag record said it wrote
#   check_counts NAME DAT LOG   all three agree (a TAP line)
#   pids_in_tree DAT ROOT every record's task is ROOT or forked from it
#                         (sched_process_fork events); offenders in $T/badpids

tc_count() { trace-cmd report -R "$1" 2>/dev/null | grep -cE '^ *[^ ].* \[[0-9]+\] +[0-9]+\.[0-9]+: '; }
km_count() { "$KMAG" report -F json "$1" 2>/dev/null | grep -o '"events": [0-9]*' | head -n 1 | grep -o '[0-9]*$'; }
log_count() { sed -n 's/^kmag: wrote [^:]*: \([0-9,]*\) events.*/\1/p' "$1" | tr -d ,; }

check_counts() {
	local tc km lg
	tc=$(tc_count "$2")
	km=$(km_count "$2")
	lg=$(log_count "$3")
	if [ -n "$lg" ] && [ "$lg" -gt 0 ] && [ "$tc" = "$lg" ] && [ "$km" = "$lg" ]; then
		t_pass "$1: trace-cmd report and kmag report read the $lg events kmag recorded"
	else
		t_fail "$1: event counts agree" "kmag record: ${lg:-none}, trace-cmd report: $tc, kmag report: $km"
	fi
}

pids_in_tree() {
	trace-cmd report -R "$1" 2>/dev/null | awk -v root="$2" '
		BEGIN { ok[root] = 1 }
		match($0, /^ *.*-[0-9]+ +\[[0-9]+\]/) {
			head = substr($0, RSTART, RLENGTH)
			sub(/ +\[[0-9]+\]$/, "", head)
			n = split(head, a, "-")
			pid = a[n]
			if (!(pid in ok)) {
				bad++
				if (bad < 4)
					print "pid " pid ": " $0
			}
			if ($0 ~ /sched_process_fork:/ && match($0, /child_pid=[0-9]+/))
				ok[substr($0, RSTART + 10, RLENGTH - 10)] = 1
		}
		END { exit bad > 0 }' >"$T/badpids"
}
