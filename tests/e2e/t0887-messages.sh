#!/bin/bash
# Nothing cut or left empty without a word (issue 23, defect 9): replay
# --limit marks where it stopped and how to see more, errors --limit says how
# many groups it left out, a misspelt function or argument gets "did you
# mean", a path filter, a minimum duration or a trace of other events that
# leave nothing to show say so (exit 1) and what there is instead, and the
# inputs that cannot work are refused. Expected facts come from trace-cmd
# report and the kernel's own text, not from kmag.
. "$(dirname "$0")/lib.sh"
FG=$TRACES/fg-filtered.dat
D=$TRACES/6.19
trace-cmd report "$FG" 2>/dev/null >"$T/tc.txt"

# --- replay --limit: a mark where it stopped, inside which calls, how to go on
t_ok "replay --limit 6" "$KMAG" replay --limit 6 "$FG"
cp "$T/ok.out" "$T/l6"
t_eq "... six calls, then the mark" 6 "$(grep -cE '\(\)( \{|;)' "$T/l6")"
t_grep "... the last line marks where and how to see more" \
	'^# \.\.\. stopped at --limit 6, inside ksys_read; more: --limit 12, all: --limit 0, on from here: --time [0-9]+\.[0-9]{9},$' \
	<(tail -1 "$T/l6")
# trace-cmd: the seventh call is vfs_read, entered inside ksys_read
read -r tc_fn tc_ts < <(awk '/funcgraph_entry/ { n++; if (n == 7) { sub(":", "", $3); f = $0; sub(/^[^|]*\| */, "", f); sub(/\(.*/, "", f); print f, $3; exit } }' "$T/tc.txt")
t_eq "trace-cmd: the seventh call is vfs_read" vfs_read "$tc_fn"
mark_ts=$(tail -1 "$T/l6" | sed -n 's/.*--time \([0-9.]*\),$/\1/p')
t_ok "... the mark's --time is its entry (trace-cmd $tc_ts, mark $mark_ts, within 1 us)" \
	awk -v a="$tc_ts" -v b="$mark_ts" 'BEGIN { d = a - b; exit !(d < 1.5e-6 && d > -1.5e-6) }'
t_ok "replay --time MARK, --limit 3 (go on from the mark)" "$KMAG" replay --time "$mark_ts," --limit 3 "$FG"
t_eq "... goes on with vfs_read" vfs_read \
	"$(grep -m1 -E '^ +[0-9]' "$T/ok.out" | sed -E 's/.*\| +([a-z_]+)\(.*/\1/')"
t_ok "replay --limit 0: no mark" "$KMAG" replay --limit 0 "$FG"
t_nogrep "... when nothing was cut" '^# \.\.\. stopped' "$T/ok.out"
t_ok "replay -F json --limit 4" "$KMAG" replay -F json --limit 4 "$FG"
t_eq "... JSON Lines only on stdout" "$(grep -c '^{' "$T/ok.out")" "$(wc -l <"$T/ok.out")"
t_grep "... the mark on stderr" '^kmag: stopped at --limit 4, inside ksys_read; more: --limit 8, all: --limit 0$' "$T/ok.err"

# --- errors --limit: how many groups it left out
t_ok "errors --limit 0" "$KMAG" errors --limit 0 "$D/fg619-retval.txt"
all=$(grep -cE '^ +[0-9]+  ' "$T/ok.out")
t_ok "errors --limit 3" "$KMAG" errors --limit 3 "$D/fg619-retval.txt"
t_grep "... says how many more ($((all - 3)) of $all) and how to see them" \
	"^# \\.\\.\\. $((all - 3)) more \\(origin, errno, entry point\\) groups \\(use --limit 0 to see all\\)$" "$T/ok.out"
t_ok "errors -F json --limit 3" "$KMAG" errors -F json --limit 3 "$D/fg619-retval.txt"
t_grep "... JSON: groups_left_out" "\"groups_left_out\":$((all - 3)),\"groups\":" "$T/ok.out"

# --- did you mean: functions (replay, report), arguments
t_exit "replay --function vfs_raed: exit 1" 1 "$KMAG" replay --function vfs_raed "$D/fg619-args.dat"
t_grep "... did you mean vfs_read" 'has no call of vfs_raed; did you mean vfs_read\?$' "$T/err"
t_exit "report --callers vfs_raed: exit 1" 1 "$KMAG" report --callers vfs_raed "$D/fg619-args.dat"
t_grep "... did you mean vfs_read" 'function "vfs_raed" is not in the trace; did you mean vfs_read\?$' "$T/err"
t_exit "report --arg vfs_raed:count: exit 1 (it printed '0 calls', exit 0)" 1 \
	"$KMAG" report --arg vfs_raed:count "$D/fg619-args.dat"
t_grep "... did you mean vfs_read" '^kmag: --arg vfs_raed:count: .* has no call of vfs_raed; did you mean vfs_read\?$' "$T/err"
t_eq "... and no summary" "" "$(cat "$T/out")"
# the kernel's own text names vfs_write's arguments (funcgraph-args with BTF)
knames=$(grep -m1 -oE ' vfs_write\([^)]*\)' "$D/fg619-args.txt" | sed -E 's/.*\(//; s/\)//; s/=[^,]*//g')
t_eq "the kernel's text names vfs_write's arguments" "file, buf, count, pos" "$knames"
t_exit "report --arg vfs_write:cnt (text): exit 1" 1 "$KMAG" report --arg vfs_write:cnt "$D/fg619-args.txt"
t_grep "... lists the kernel's names" "^kmag: --arg vfs_write:cnt: vfs_write has no argument named cnt; its arguments are $knames\$" "$T/err"
if t_has_feature btf; then
	xz -dc "$SRCDIR/tests/fixtures/btf/vmlinux-6.19.btf.xz" >"$T/vmlinux.btf"
	t_exit "report --arg vfs_write:cnt --btf: exit 1 (it asked for --btf)" 1 \
		"$KMAG" report --btf "$T/vmlinux.btf" --arg vfs_write:cnt "$D/fg619-args.dat"
	t_grep "... lists the BTF's names, the kernel's" "its arguments are $knames\$" "$T/err"
	t_exit "report --arg vfs_write:coutn --btf" 1 \
		"$KMAG" report --btf "$T/vmlinux.btf" --arg vfs_write:coutn "$D/fg619-args.dat"
	t_grep "... did you mean count" "its arguments are $knames; did you mean count\\?\$" "$T/err"
else
	t_skip "report --arg vfs_write:cnt --btf" "this kmag was built without btf"
fi

# --- a path filter that keeps no function: said, exit 1, as the other filters
M=$FIXTURES/symbols/6.1.0-56-cloud-amd64.subset.map
for cmd in "report" "report -F json" "export -F csv" "html -o $T/p.html" "flame -o $T/f.svg"; do
	# shellcheck disable=SC2086
	t_exit "$cmd --filter-filepath no/such/dir: exit 1" 1 "$KMAG" $cmd --symbol-file-path "$M" \
		--filter-filepath no/such/dir "$FG"
	t_grep "... says it matches none of the functions" \
		'^kmag: --filter-filepath "no/such/dir" matches none of the [0-9]+ functions \([0-9]+ of them have a source file in ' "$T/err"
	t_eq "... and prints nothing" "" "$(cat "$T/out")"
done
t_eq "... and writes no file" "" "$(ls "$T"/p.html "$T"/f.svg 2>/dev/null)"

# --- --min-duration longer than any call: the longest one named (trace-cmd's)
read -r tc_max _ < <(awk '/funcgraph_(entry|exit)/ && / us / {
	for (i = 1; i <= NF; i++) if ($(i + 1) == "us") { d = $i + 0; break }
	if (d > max) { max = d; line = $0 } }
	END { printf "%.3f %s\n", max, line }' "$T/tc.txt" | awk '{ print $1, $NF }')
t_eq "trace-cmd: the longest call lasted 5427.771 us (an exit line: its function is its entry's)" 5427.771 "$tc_max"
for cmd in report "visualize -o $T/g.svg --no-chart" replay; do
	t_can_run "$cmd --min-duration 1s" $cmd "$FG" || continue
	# shellcheck disable=SC2086
	t_exit "$cmd --min-duration 1s: exit 1 (report printed an empty table)" 1 "$KMAG" $cmd --min-duration 1s "$FG"
	t_grep "... names the longest call, flush_tlb_func, 5.428 ms" \
		'^kmag: no call in .*fg-filtered.dat lasted 1.000 s or more \(--min-duration\): the longest, flush_tlb_func, took 5.428 ms; give a shorter duration$' "$T/err"
	t_eq "... prints nothing" "" "$(cat "$T/out")"
done
grep -B3 '# 5427.771 us' "$T/tc.txt" | grep -q 'flush_tlb_func() {' &&
	t_pass "trace-cmd: the 5427.771 us call is flush_tlb_func's" ||
	t_fail "trace-cmd: the 5427.771 us call is flush_tlb_func's"

# --- a trace of other events only (nop tracer, sched_switch): said, with what shows them
{
	printf '# tracer: nop\n#\n'
	grep ' sched_switch: ' <(trace-cmd report "$(fixture_trace fg-sched-v6.dat)" 2>/dev/null) | head -25 |
		sed -E 's/^( *[^ ]+) +\[([0-9]+)\] +([0-9.]+): /\1 [\2] ..... \3: /'
} >"$T/events.txt"
nev=$(grep -c sched_switch "$T/events.txt")
t_eq "the events-only trace holds 25 sched_switch events" 25 "$nev"
holds="holds no function calls, only $nev other events \\(sched_switch $nev\\): \`kmag export -F perfetto\` or \`-F chrome\` shows them on a timeline\$"
for cmd in replay errors "export -F folded" "html -o $T/e.html" "flame -o $T/e.svg" "visualize -o $T/e.svg --no-chart"; do
	t_can_run "$cmd events.txt" $cmd "$T/events.txt" || continue
	# shellcheck disable=SC2086
	t_exit "$cmd of a trace of other events: exit 1" 1 "$KMAG" $cmd "$T/events.txt"
	t_grep "... says what it holds and what shows it" "^kmag: .*events.txt $holds" "$T/err"
	t_eq "... prints nothing" "" "$(cat "$T/out")"
done
t_ok "report of it: the header says what it holds" "$KMAG" report "$T/events.txt"
t_grep "... # other: sched_switch $nev" "^# other: +sched_switch $nev\$" "$T/ok.out"
t_grep "... and stderr why the table is empty, what shows them" "^kmag: warning: .*events.txt $holds" "$T/ok.err"
t_ok "export -F chrome of it: its instants" "$KMAG" export -F chrome "$T/events.txt"
t_eq "... one per event" "$nev" "$(grep -c '"name":"sched_switch"' "$T/ok.out")"

# --- visualize: no "parsing completed, found 0 events" before its error
# (without Graphviz, visualize refuses its picture before it reads anything)
printf '# tracer: function\n#\n' >"$T/empty.txt"
t_exit "visualize of an empty trace: exit 1" 1 "$KMAG" visualize -o "$T/x.svg" --no-chart "$T/empty.txt"
t_eq "... nothing on stdout before the error" "" "$(cat "$T/out")"
if t_has_feature graphviz; then
	t_grep "... the error says it holds no events" 'empty.txt holds no events' "$T/err"
else
	t_grep "... the error names the missing Graphviz" 'needs Graphviz' "$T/err"
fi
t_exit "visualize --heat total of a function-tracer trace: exit 1" 1 \
	"$KMAG" visualize --heat total -o "$T/x.svg" --no-chart "$TRACES/fn-filtered.dat"
t_eq "... nothing on stdout before the error" "" "$(cat "$T/out")"

# --- merge A A: counted twice, with a warning
"$KMAG" report -F json --limit 0 "$FG" >"$T/a.json"
t_ok "merge A A" "$KMAG" merge -o "$T/aa.json" "$FG" "$(dirname "$FG")/./$(basename "$FG")"
t_grep "... warns the file is counted twice" '^kmag: warning: .*fg-filtered.dat and .*fg-filtered.dat are the same file: its calls are counted twice$' "$T/ok.err"
t_ok "merge (A A) A.json" "$KMAG" merge -o "$T/aaa.json" "$T/aa.json" "$T/a.json"
t_grep "... warns a recording is in the inputs twice" 'the recording .*fg-filtered.dat is in the inputs twice' "$T/ok.err"
t_exit "merge - -: usage error" 2 sh -c "'$KMAG' merge - - <'$FG'"
t_grep "... says why" 'standard input \("-"\) is given twice' "$T/err"

# --- diff - -: standard input holds one trace
t_exit "diff - -: usage error (it compared standard input with itself)" 2 sh -c "'$KMAG' diff - - <'$FG'"
t_grep "... says why" 'A and B are both standard input \("-"\), which holds one trace' "$T/err"

# --- tui -: its keys come from standard input
t_exit "tui -: usage error" 2 sh -c "'$KMAG' tui - <'$FG'"
t_grep "... one line saying why" 'the trace cannot come from standard input \("-"\): tui reads its keys there' "$T/err"
"$KMAG" tui --help >"$T/help"
t_nogrep "tui --help no longer offers \"-\"" '"-" is standard input' "$T/help"
t_done
