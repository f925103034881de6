#!/bin/bash
# kmag tui in a tmux pane: a call whose tree the sample cut says how many
# calls it made and shows the `kmag replay` command that prints all of them;
# the test runs that command and checks it prints the whole call: its first
# and last lines, and as many calls as trace-cmd's raw records hold for it
# (its task's exits from its entry to its own exit), not kmag's count.
. "$(dirname "$0")/lib.sh"

t_need_feature tui
command -v trace-cmd >/dev/null || { echo "1..0 # SKIP trace-cmd is not installed"; exit 0; }

F=$(fixture_trace fg-all-cpu0-v6.dat)
. "$(dirname "$0")/pane-lib.sh"

# 100 columns: the command (the trace's path is long) is cut into lines at spaces
tm new-session -d -s tui -x 100 -y 30 "$KMAG tui $F; sleep 30"
see "the table" "sorted by total"
# the longest __x64_sys_execve (138 ms, the trace's last exec): over 2000 calls
keys / __x64_sys_execve Enter c s Enter
see "its tree: the title says how many of its calls are shown, and where the rest is" \
	"^call of __x64_sys_execve at [0-9.]+ s, CPU 0, pid 261: 2000 calls of [0-9]+ shown \\(all: the"
N=$(sed -n '1s/.* 2000 calls of \([0-9]*\) shown.*/\1/p' "$T/screen")
keys G
see "End: the note below the tree" "more calls of this tree not kept \\(the sample keeps 2000 per tree\\); all of them:"
# the command: the note's further lines, joined
CMD=$(awk '/; all of them:/ { on = 1; next }
	on && /^    / { sub(/^ +/, ""); sub(/ +$/, ""); printf "%s ", $0; next }
	{ on = 0 }' "$T/screen")
CMD=${CMD% }
t_grep "the command replays pid 261's call from its start, as many calls as it made" \
	"^kmag replay --pid 261 --function __x64_sys_execve --time [0-9]+\\.[0-9]{9}, --limit $N ${F//./\\.}\$" <(echo "$CMD")
keys Q
tm kill-session -t tui

# run it (kmag as this test's)
eval "\"\$KMAG\" ${CMD#kmag }" >"$T/replay" 2>"$T/replay.err"
t_eq "the command exits 0" 0 "$?"
t_grep "its first line opens the call" '^ +74\.643656 \| +0\) +true-261 +\| +\| +__x64_sys_execve\(\) \{$' <(head -1 "$T/replay")
t_grep "its last line closes it after 138 ms" '\| @ 138382\.023 us \|  \} /\* __x64_sys_execve \*/$' <(tail -1 "$T/replay")
# trace-cmd: pid 261's exits from the call's entry (the command's start) to its own exit
START=$(sed 's/.* --time \([0-9.]*\),.*/\1/' <<<"$CMD")
trace-cmd report -t -R "$F" 2>/dev/null | awk -v s="$START" '
	/-261 / && /funcgraph_(entry|exit)/ {
		ts = $3; sub(":", "", ts)
		if (ts + 0 < s + 0) next
		if ($4 == "funcgraph_exit:") n++
		if ($4 == "funcgraph_exit:" && $5 == "func=__x64_sys_execve") { print n; exit }
	}' >"$T/tc"
t_eq "trace-cmd: the call made $N calls, itself included (the TUI's count)" "$N" "$(cat "$T/tc")"
t_eq "the command prints them all (lines other than closing ones)" "$N" \
	"$(grep -vc '^#\|} /\* ' "$T/replay")"
t_nogrep "... and nothing cut" '^# \.\.\. stopped' "$T/replay"
t_done
