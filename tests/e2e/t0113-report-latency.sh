#!/bin/bash
# report --latency FUNC: FUNC's log2 histogram exactly as bcc's funclatency
# prints it, from the durations trace-cmd decodes (helpers/latency.py writes
# the expected lines with bcc's print_log2_hist() rules), in nsecs or, past 1 ms
# with every duration kept, usecs; avg, total, count and nearest-rank p50/p90/p99; the JSON the
# same. Bad uses are refused in one line.
. "$(dirname "$0")/lib.sh"
H="$SRCDIR/tests/e2e/helpers"

check() {	# FIXTURE FUNC WHAT
	local f
	f=$(fixture_trace "$1")
	if ! "$KMAG" report --latency "$2" "$f" >"$T/l.txt" 2>"$T/err" ||
		! "$KMAG" report --latency "$2" -F json "$f" >"$T/l.json" 2>>"$T/err"; then
		t_fail "$1 $2: kmag report --latency" "$(cat "$T/err")"
		return
	fi
	t_ok "$1 $2 ($3): funclatency's table of trace-cmd's durations" \
		python3 "$H/latency.py" "$2" "$T/l.txt" "$T/l.json" "$f"
}
check fg-filtered.dat ksys_read "usecs"
check fg-2cpu-v6.dat __rcu_read_lock "nsecs, many calls"
check fg-2cpu-v6.dat vfs_read "nsecs"
check fg-all-cpu0-v6.dat folio_memcg_unlock "past 1 ms but bucketed: nsecs"
check fg-all-cpu0-v6.dat __rcu_read_lock "nsecs, bucketed"
check fg-depth3-v6.dat handle_mm_fault "usecs"
check 6.19/fg619-retval.dat _raw_spin_lock_irqsave "6.19"

f=$(fixture_trace fg-2cpu-v6.dat)
"$KMAG" report --latency __rcu_read_lock "$f" >"$T/out"
t_grep "header as funclatency's" '^     nsecs               : count     distribution$' "$T/out"
t_grep "avg, total, count" '^avg = [0-9]+ nsecs, total: [0-9]+ nsecs, count: [0-9]+$' "$T/out"

t_exit "unknown function: exit 1" 1 "$KMAG" report --latency no_such_function "$f"
t_grep "... names the cause" 'function "no_such_function" is not in the trace' "$T/err"
t_exit "csv: usage error" 2 "$KMAG" report --latency ksys_read -F csv "$f"
t_grep "... says which formats" '--latency works with the text or json formats' "$T/err"
t_exit "with --callers: usage error" 2 "$KMAG" report --latency ksys_read --callers ksys_read "$f"
t_exit "with --limit: usage error" 2 "$KMAG" report --latency ksys_read --limit 3 "$f"
t_exit "function tracer: exit 1" 1 "$KMAG" report --latency vfs_read "$(fixture_trace fn-filtered.dat)"
t_grep "... needs durations" '--latency needs call durations' "$T/err"
"$KMAG" report -F json "$f" >"$T/prof.json"
t_exit "a profile: exit 1" 1 "$KMAG" report --latency ksys_read "$T/prof.json"
t_grep "... needs a trace's calls" "is a profile .*--latency needs a trace's calls" "$T/err"
t_done
