#!/bin/bash
# A filter that matches nothing: every command says so and what the trace
# holds (time range, CPUs, tasks), exits 1 and writes no output. Before,
# report/html/chrome warned with exit 0, csv and diff printed bare headers,
# the chrome file got time_origin_ns 18446744073709551615. (issue 18, defect 5)
. "$(dirname "$0")/lib.sh"
V6=$(fixture_trace fg-2cpu-v6.dat)
mkdir -p "$T/diff"
A=$(fixture_trace diff/diff-fg-base.dat)
B=$(fixture_trace diff/diff-fg-tmpfs.dat)
O="$T/o"
mkdir -p "$O"
holds='no event of [^ ]+ matches the filters \(.+\); the trace holds [0-9.]+ \.\. [0-9.]+ s on CPUs 0-1 from [0-9]+ tasks \([^ ]+-[0-9]+'

for filter in "--cpu 5" "--time 1,2" "--comm no-such-task" "--pid 999999" "--cpu 0 --time 1,2"; do
	while IFS='|' read -r name cmd; do
		[ -n "$name" ] || continue
		eval "set -- $cmd"
		t_can_run "$name $filter" "$@" || continue
		# shellcheck disable=SC2086
		t_exit "$name $filter: exit 1" 1 "$KMAG" "$@" $filter
		t_grep "$name $filter: says what the trace holds" "$holds" "$T/err"
		t_eq "$name $filter: prints nothing on stdout" "" "$(head -c 200 "$T/out")"
	done <<CMDS
report|report "$V6"
report csv|report -F csv "$V6"
report json|report -F json "$V6"
html|html -o "$O/p.html" "$V6"
export chrome|export -F chrome "$V6"
export chrome file|export -F chrome -o "$O/c.json" "$V6"
export csv|export -F csv "$V6"
export json|export -F json "$V6"
export dot|export -F dot "$V6"
export folded|export -F folded "$V6"
visualize|visualize -o "$O/g.svg" --chart-name "$O/c.png" "$V6"
flame|flame -o "$O/f.svg" "$V6"
flame per task|flame --per pid -o "$O/f.svg" "$V6"
diff|diff "$A" "$B"
CMDS
done
t_eq "no output file was made" "" "$(ls -A "$O")"

# a trace with no timed event still gets a valid origin
printf '# tracer: function_graph\n#\n' >"$T/empty.txt"
t_ok "chrome export of an empty trace" sh -c "'$KMAG' export -F chrome '$T/empty.txt' >'$T/empty.json'"
t_grep "... has time origin 0" '"time_origin_ns":0,' "$T/empty.json"
t_done
