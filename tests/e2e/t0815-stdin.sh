#!/bin/bash
# "-" reads the trace from standard input, a pipe or a redirected file, in
# every command that reads a trace, with either reader. (issue 18, defect 10)
. "$(dirname "$0")/lib.sh"
FG=$(fixture_trace fg-filtered.dat)
TXT="$TRACES/fn-text.txt"

"$KMAG" report --limit 0 "$FG" | tail -n +2 >"$T/file.report"
t_ok "report - from a pipe" sh -c "cat '$FG' | '$KMAG' report --limit 0 - >'$T/pipe.report'"
t_grep "... names standard input" '^# kmag report: standard input$' "$T/pipe.report"
t_eq "... the same report as from the file" "$(cat "$T/file.report")" "$(tail -n +2 "$T/pipe.report")"
t_ok "report - from a redirected file" sh -c "'$KMAG' report --limit 0 - <'$FG' >'$T/redir.report'"
t_eq "... the same report" "$(cat "$T/file.report")" "$(tail -n +2 "$T/redir.report")"
if t_can_run "--reader libtracecmd from a pipe" report --reader libtracecmd; then
	t_ok "--reader libtracecmd from a pipe" sh -c "cat '$FG' | '$KMAG' report --reader libtracecmd --limit 0 - >'$T/ltc.report'"
	t_eq "... the same report as libtracecmd gives from the file" \
		"$("$KMAG" report --reader libtracecmd --limit 0 "$FG" | tail -n +2)" "$(tail -n +2 "$T/ltc.report")"
fi
t_ok "ftrace text from a pipe" sh -c "cat '$TXT' | '$KMAG' report -F csv - >'$T/txt.csv'"
t_eq "... as from the file" "$("$KMAG" report -F csv "$TXT")" "$(cat "$T/txt.csv")"
t_ok "export -F chrome - (the streaming reader)" sh -c "cat '$FG' | '$KMAG' export -F chrome - >'$T/c.json'"
t_ok "... parses and nests" python3 "$SRCDIR/tests/e2e/helpers/chrome-check.py" "$T/c.json"
t_ok "flame --folded - -" sh -c "cat '$FG' | '$KMAG' flame --folded - - >'$T/f.folded'"
t_eq "... as from the file" "$("$KMAG" flame --folded - "$FG")" "$(cat "$T/f.folded")"
t_ok "diff - FILE" sh -c "cat '$FG' | '$KMAG' diff - '$FG' >'$T/d.txt'"
t_grep "... finds nothing changed" '0 added, 0 removed, 0 grew, 0 shrank' "$T/d.txt"
t_grep "... and names A standard input" '^# A: standard input ' "$T/d.txt"
t_exit "an empty standard input" 1 sh -c "'$KMAG' report - </dev/null"
t_grep "... says so" 'standard input \("-"\) is empty' "$T/err"
t_done
