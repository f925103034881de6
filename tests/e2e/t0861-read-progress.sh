#!/bin/bash
# The progress line of reading a trace: on a terminal (stderr a tty, here a
# pty from helpers/pty-run.py) every command that reads a trace shows
# "reading FILE: ... events" once reading takes longer than the delay, and
# erases it; with stderr piped, or before the delay, nothing. The delay is 1 s;
# KMAG_PROGRESS_AFTER_MS=0 makes the fixtures' short reads show it.
. "$(dirname "$0")/lib.sh"
PTY="$SRCDIR/tests/e2e/helpers/pty-run.py"
FG="$TRACES/fg-filtered.dat"
FN="$TRACES/fn-filtered.dat"
TXT="$TRACES/fg-text.txt"

# the line as the terminal shows it: the text after the last \r before the erase
line_re='reading [^ ]+: [0-9.]+ s, [0-9.]+ [KMG]?B of [0-9.]+ [KMG]?B, [0-9.]+[kMG]? events'
for cmd in report visualize html flame export replay; do
	case $cmd in
	visualize) args=(visualize --image-name "$T/v.dot" --no-chart) ;;
	html) args=(html -o "$T/p.html") ;;
	flame) args=(flame -o "$T/f.svg") ;;
	export) args=(export -F csv) ;;
	*) args=("$cmd") ;;
	esac
	t_can_run "$cmd on a terminal" "${args[@]}" || continue
	t_ok "$cmd on a terminal" env KMAG_PROGRESS_AFTER_MS=0 python3 "$PTY" "$T/$cmd.tty" "$T/$cmd.out" "$KMAG" "${args[@]}" "$FG"
	t_grep "$cmd: the line on the terminal" "$line_re" "$T/$cmd.tty"
	t_grep "$cmd: erased before the output" $'\r\033\\[K$|\r\033\\[K[^\r]*$' "$T/$cmd.tty"
	t_ok "$cmd with stderr piped" env KMAG_PROGRESS_AFTER_MS=0 "$KMAG" "${args[@]}" "$FG"
	t_nogrep "$cmd: no line in a pipe" 'reading |\033' "$T/ok.err"
done

t_ok "diff on a terminal" env KMAG_PROGRESS_AFTER_MS=0 python3 "$PTY" "$T/diff.tty" "$T/diff.out" "$KMAG" diff "$FG" "$FG"
t_eq "diff: a line for each input" 2 "$(grep -o 'reading [^ ]*fg-filtered.dat:' "$T/diff.tty" | wc -l)"

# the live line never reaches stdout, even when stdout is the file the report goes to
t_nogrep "stdout has no live line" $'reading |\033' "$T/report.out"
t_grep "stdout has the report" '^# kmag report:' "$T/report.out"

# the events count is the trace's own (report's header says it)
t_ok "report header" "$KMAG" report "$FG"
events=$(sed -n 's/^# events: *\([0-9,]*\) .*/\1/p' "$T/ok.out" | tr -d ,)
t_grep "the last count is all events" "[, ]$events events" <(tr '\r' '\n' <"$T/report.tty")

# text input and the function tracer count bytes too; libtracecmd has no byte count
t_ok "text trace" env KMAG_PROGRESS_AFTER_MS=0 python3 "$PTY" "$T/txt.tty" "$T/txt.out" "$KMAG" report "$TXT"
t_grep "text: bytes of the file" "$line_re" "$T/txt.tty"
t_ok "function trace" env KMAG_PROGRESS_AFTER_MS=0 python3 "$PTY" "$T/fn.tty" "$T/fn.out" "$KMAG" report "$FN"
t_grep "function trace: the line" "$line_re" "$T/fn.tty"

# without the knob a read this short (well under 1 s) shows nothing
t_ok "default delay" python3 "$PTY" "$T/quick.tty" "$T/quick.out" "$KMAG" report "$FG"
t_nogrep "a quick read shows no line" 'reading ' "$T/quick.tty"

# a junk knob falls back to the 1 s default
t_ok "junk knob" env KMAG_PROGRESS_AFTER_MS=soon python3 "$PTY" "$T/junk.tty" "$T/junk.out" "$KMAG" report "$FG"
t_nogrep "junk knob: the default delay" 'reading ' "$T/junk.tty"
t_done
