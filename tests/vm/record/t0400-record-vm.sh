#!/bin/bash
# SPDX-License-Identifier: MIT
# t0400-record-vm.sh [6.1|6.12] - `kmag record` on a real Debian kernel in a
# QEMU guest (tests/vm/vm-run.sh): function and function_graph recordings
# with -l/-n/-g/--max-graph-depth/-P/-- COMMAND/-e/--filter/--cpumask, v6 and
# v7 files, lost events, SIGINT/SIGTERM/SIGKILL. The guest part
# (guest-record.sh) records and compares tracefs snapshots; this part checks
# every file on the host: `trace-cmd report` and `kmag report` count the same
# events kmag reported, and the events respect the filters.
# Output is TAP; no VM harness or qemu means a skip. Booting the guest and
# its checks: tests/vm/lib-host.sh.
. "$(dirname "$0")/../../e2e/lib.sh"
shopt -s extglob
kernel=${1:-6.1}
here=$(cd "$(dirname "$0")" && pwd)
. "$SRCDIR/tests/vm/lib-host.sh"
vm_require trace-cmd

mode=full
[ "$kernel" = 6.12 ] && mode=short
vm_run_guest "$kernel" 1500 "$here/guest-record.sh" --bin trace-cmd \
	--file "$here/wl.sh:/kmag/wl.sh" \
	--file "$FIXTURES/symbols/6.1.0-56-cloud-amd64.subset.map:/kmag/subset.map" -- $mode

. "$SRCDIR/tests/lib/record-checks.sh"
raw() { trace-cmd report -R "$O/$1.dat" 2>/dev/null; }

# check_file NAME: exit 0, and the same event count from kmag record, trace-cmd and kmag report
check_file() {
	t_eq "$1: kmag record exits 0" 0 "$(cat "$O/$1.rc" 2>/dev/null)"
	check_counts "$1" "$O/$1.dat" "$O/$1.log"
}

# funcs_match NAME PATTERN ANTIPATTERN: function names (function tracer) match the globs
funcs_match() {
	trace-cmd report "$O/$1.dat" 2>/dev/null | awk '/ function: / { for (i = 1; i < NF; i++) if ($i == "function:") print $(i + 1) }' |
		sort -u >"$T/funcs"
	local f bad=""
	while read -r f; do
		# shellcheck disable=SC2254
		case $f in
		$3) bad="$bad $f" ;;
		$2) ;;
		*) bad="$bad $f" ;;
		esac
	done <"$T/funcs"
	[ -s "$T/funcs" ] && [ -z "$bad" ] || { echo "unexpected:$bad" >"$T/badfuncs"; return 1; }
}

cmd_pid() { sed -n 's/^kmag: recording.*(pid \([0-9]*\)).*/\1/p' "$O/$1.log"; }

for n in fresh fg-cmd fg-cpu0 fg-events fg-sigINT after-kill-fg no-mount fn-names; do check_file $n; done
if funcs_match fn-names '@(vfs_read|vfs_write)' '@()'; then t_pass "fn-names: only the --func-list functions"; else
	t_fail "fn-names: only the --func-list functions" "$(cat "$T/badfuncs")"; fi
t_grep "fn-names: the untraceable name is left out, with a note" \
	'1 of 3 functions to trace cannot be traced' "$O/fn-names.log"
t_grep "no-mount: kmag mounts tracefs when it is not mounted, and says so" \
	'mounted tracefs at /sys/kernel/tracing \(unmounted again at the end\)' "$O/no-mount.log"
if [ $mode = full ]; then
	for n in fn-cmd fn-pid fn-v6 fn-v7none fn-lost fn-sigTERM after-kill-fn fn-path; do check_file $n; done
	# --filter-filepath fs/read_write.c: only functions the map places in that file
	rw="@($(awk -F'\t' '$2 == "fs/read_write.c" { printf "%s%s", sep, $1; sep = "|" }' \
		"$FIXTURES/symbols/6.1.0-56-cloud-amd64.subset.map"))"
	if funcs_match fn-path "$rw" '@()'; then t_pass "fn-path: only functions defined in fs/read_write.c"; else
		t_fail "fn-path: only functions defined in fs/read_write.c" "$(cat "$T/badfuncs")"; fi
	t_grep "fn-path: the start line counts the functions of the path filter" \
		'recording function of [0-9]+ functions in fs/read_write.c in /kmag/wl.sh' "$O/fn-path.log"
	t_grep "fn-path: vfs_read and vfs_write are among them" 'vfs_read' "$T/funcs"
fi

# -g roots and --max-graph-depth; only the command's tasks
raw fg-cmd | grep 'funcgraph_entry:' | grep ' depth=0$' | grep -v 'func=ksys_read \|func=ksys_write ' >"$T/roots"
t_eq "fg-cmd: every outermost call is a -g function" 0 "$(wc -l <"$T/roots")"
maxd=$(raw fg-cmd | grep -o ' depth=[0-9]*' | cut -d= -f2 | sort -n | tail -n 1)
t_eq "fg-cmd: --max-graph-depth 5 keeps depths 0..4" 4 "$maxd"
if pids_in_tree "$O/fg-cmd.dat" "$(cmd_pid fg-cmd)"; then t_pass "fg-cmd: only the command and its children"; else
	t_fail "fg-cmd: only the command and its children" "$(cat "$T/badpids")"; fi
if [ $kernel = 6.12 ]; then
	# 6.12 has function_graph in instances, but set_graph_function only at the top
	t_grep "6.12: function_graph records in a private instance" 'tracefs instance kmag-' "$O/fg-cpu0.log"
	t_grep "6.12: -g needs the top level (no set_graph_function in instances)" \
		'top-level tracefs instance: instances have no set_graph_function' "$O/fg-cmd.log"
else
	t_grep "6.1: function_graph falls back to the top level" \
		'top-level tracefs instance: function_graph is not available in tracefs instances' "$O/fg-cmd.log"
fi

# --cpumask 1: CPU 0 only, and it did record
cpus=$(raw fg-cpu0 | grep -oE '^ *[^ ].* \[[0-9]+\]' | grep -oE '\[[0-9]+\]$' | sort -u | tr -d '\n')
t_eq "fg-cpu0: --cpumask 1 records CPU 0 only" "[000]" "$cpus"

# -e next to function_graph, with --filter
t_ok "fg-events: sched_switch events were recorded" grep -q 'sched_switch:' <(raw fg-events)
t_eq "fg-events: --filter 'prev_pid != 0' holds" 0 "$(raw fg-events | grep -c 'sched_switch:.* prev_pid=0 ')"
t_ok "fg-events: sched_process_exec events were recorded" grep -q 'sched_process_exec:' <(raw fg-events)
t_ok "fg-events: funcgraph events were recorded" grep -q 'funcgraph_entry:' <(raw fg-events)

if grep -q 'top-level)' "$O/kill-fg.log"; then
	t_grep "kill-fg: the next run restores the top level" 'restored the top-level tracefs settings' "$O/after-kill-fg.log"
else
	t_grep "kill-fg: the next run removes the instance" 'removed the tracefs instance kmag-' "$O/after-kill-fg.log"
fi
t_grep "kill-fg: the next run removes the killed run's files" 'removed /out/kill-fg.dat.kmag-' "$O/after-kill-fg.log"

if [ $mode = full ]; then
	if funcs_match fn-cmd '@(vfs_*|*_openat*)' 'vfs_getattr*'; then
		t_pass "fn-cmd: only -l functions, none of -n"
	else
		t_fail "fn-cmd: only -l functions, none of -n" "$(cat "$T/badfuncs")"
	fi
	if pids_in_tree "$O/fn-cmd.dat" "$(cmd_pid fn-cmd)"; then t_pass "fn-cmd: only the command and its children"; else
		t_fail "fn-cmd: only the command and its children" "$(cat "$T/badpids")"; fi
	if funcs_match fn-pid '@(vfs_read|ksys_read)' '@()'; then t_pass "fn-pid: only the -l functions"; else
		t_fail "fn-pid: only the -l functions" "$(cat "$T/badfuncs")"; fi
	# a record's task is the loop, a task forked from it (the file's
	# sched_process_fork events), or named wl.sh or dd: children forked
	# between the pid filter's setup and tracing on have no fork event in the
	# file, and a task the kernel's saved_cmdlines no longer names (128 of
	# them; the loop forks hundreds of dd) is "<...>" to trace-cmd
	raw fn-pid | awk -v root="$(cat "$O/fn-pid.pid")" '
		BEGIN { ok[root] = 1 }
		match($0, /^ *.*-[0-9]+ +\[[0-9]+\]/) {
			head = substr($0, RSTART, RLENGTH)
			sub(/ +\[[0-9]+\]$/, "", head)
			sub(/^ +/, "", head)
			n = split(head, a, "-")
			pid = a[n]
			comm = substr(head, 1, length(head) - length(pid) - 1)
			if (!(pid in ok) && comm != "wl.sh" && comm != "dd")
				print
			if ($0 ~ /sched_process_fork:/ && match($0, /child_pid=[0-9]+/))
				ok[substr($0, RSTART + 10, RLENGTH - 10)] = 1
		}' >"$T/others"
	mapfile -t others < <(head -n 5 "$T/others")
	if [ ! -s "$T/others" ]; then t_pass "fn-pid: only -P and its children (-c)"; else
		t_fail "fn-pid: only -P and its children (-c)" "$(wc -l <"$T/others") records of other tasks:" \
			"${others[@]}"; fi
	t_ok "fn-pid: the children were traced (-c)" grep -q 'dd-[0-9]* .*function:' <(raw fn-pid)
	t_eq "fn-v6: --compression none writes trace.dat v6" "6" "$(head -c 11 "$O/fn-v6.dat" | tail -c 1)"
	t_eq "fn-v7none: --file-version 7 --compression none" "7none" \
		"$(head -c 11 "$O/fn-v7none.dat" | tail -c 1)$(dd if="$O/fn-v7none.dat" bs=1 skip=18 count=4 2>/dev/null)"
	t_grep "fn-lost: kmag record reports the lost events per CPU" 'CPU[0-9]: [0-9,]+ events, [0-9,]+ events lost \(' "$O/fn-lost.log"
	"$KMAG" report "$O/fn-lost.dat" >"$T/lost.txt" 2>&1
	t_grep "fn-lost: kmag report shows the loss and the gaps (MISSING_EVENTS)" '^# lost: +CPU[0-9]: .* gaps? in the data' "$T/lost.txt"
	trace-cmd report --stat "$O/fn-lost.dat" >"$T/stat.txt" 2>&1
	t_grep "fn-lost: trace-cmd report --stat shows kmag's overruns" '^overrun: [1-9]' "$T/stat.txt"
	t_grep "kill-fn: the next run removes the killed run's instance" 'removed the tracefs instance kmag-[0-9]+ left by a kmag run that was killed' "$O/after-kill-fn.log"
fi
t_done
