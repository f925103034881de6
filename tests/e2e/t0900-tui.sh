#!/bin/bash
# kmag tui, driven in a tmux pane (send-keys, capture-pane): what each screen
# shows is checked against `kmag report` of the same trace (the top function
# by total time, its call count, its callees), not against the TUI's own code.
. "$(dirname "$0")/lib.sh"

t_need_feature tui
command -v python3 >/dev/null || { echo "1..0 # SKIP python3 is needed to read report's JSON"; exit 0; }

F=$(fixture_trace fg-filtered.dat)
. "$(dirname "$0")/pane-lib.sh"

# the facts, from report's JSON: the function with the most total time, its calls
"$KMAG" report --format json "$F" >"$T/r.json"
read -r TOP CALLS < <(python3 -c '
import json, sys
f = json.load(open(sys.argv[1]))["functions"]
m = max(f, key=lambda x: x["total_ns"])
print(m["name"], m["calls"])' "$T/r.json")
# its callees as report lists them
"$KMAG" report --callees "$TOP" "$F" | awk '!/^#/ && NF { print $NF }' | sort >"$T/callees"


start() {
	rm -f "$T/rc"
	tm new-session -d -s tui -x 120 -y 40 "$KMAG tui $* ; echo \$? >$T/rc; sleep 30"
}

start "$F"
see "the table's title" "^kmag tui: .*fg-filtered.dat - [0-9]+ functions, sorted by total"
see "column headings" "^ +Calls +Total +Self +Avg +Function"
# the first row: the top function by total, with report's call count
t_grep "first row: $TOP with $CALLS calls" "^ +$CALLS +[0-9.]+ [mun]?s .* $TOP *\$" <(sed -n 3p "$T/screen")

keys Enter
see "Enter: $TOP's callers and callees" "^$TOP: $CALLS calls, total .* callers and callees"
see "... the callees heading" "^Callees \\($(wc -l <"$T/callees")\\)"
sed -n 's/^ .* -> \([^ ]*\).*/\1/p' "$T/screen" | sort >"$T/tui-callees"
t_eq "... the callees are report --callees's" "$(cat "$T/callees")" "$(cat "$T/tui-callees")"

keys c
see "c: its calls, with how many there were" "^$TOP: [0-9]+ of $CALLS calls kept"
see "... the calls' columns" "Start \\(s\\) +Duration +Return +CPU +Task"
keys Enter
see "Enter: the call's tree" "^call of $TOP at [0-9.]+ s"
see "... the call at its top, open" "^ +0 ns +[0-9.]+ [mun]?s +- $TOP\\(\\) \\{"
keys Enter
see "Enter folds it" "\\+ $TOP\\(\\) \\{ \\.\\.\\. \\} \\([0-9]+ calls\\)"
keys Right
see "Right unfolds it" "- $TOP\\(\\) \\{\$"

keys q q q
see "q goes back to the table" "sorted by total"
# l: the top function's latency, the lines of report --latency (t0113 holds
# those to trace-cmd's durations)
keys l
see "l: $TOP's latency" "^$TOP: latency of [0-9]+ timed calls"
see "... funclatency's heading" "^ +(nsecs|usecs) +: count +distribution"
"$KMAG" report --latency "$TOP" "$F" >"$T/lat"
see "... down to the percentiles" "^  p50 = "
t_eq "... report --latency's lines, as they are" "$(sed 's/^/  /; s/ *$//' "$T/lat")" \
	"$(sed -n "3,$(($(wc -l <"$T/lat") + 2))p" "$T/screen" | sed 's/ *$//')"
keys q
see "q goes back to the table" "sorted by total"
CALLEE=$(head -1 "$T/callees")
keys / "$CALLEE" Enter
# the selected row is in reverse video (ESC [7m, with -e) and holds the match
SCREEN_OPT=-ep
see "/ finds $CALLEE and selects it" $'^\e\\[[0-9;]*7[0-9;]*m.* '"$CALLEE"' *'
SCREEN_OPT=-p
keys 3
see "3 sorts by self time" "sorted by self"
keys 1
see "1 sorts by calls" "sorted by calls"

keys '?'
see "? shows the help" "^ +Keys"
see "... with the fold keys" "fold / unfold"
keys q
see "q leaves the help" "sorted by calls"

tm resize-window -t tui -x 70 -y 15
see "after a resize: the title" "^kmag tui: "
screen
t_eq "... the pane is 15 rows" 15 "$(wc -l <"$T/screen")"
t_grep "... the status line is the last row" "^[0-9]+/[0-9]+ +Enter" <(tail -1 "$T/screen")
tm resize-window -t tui -x 120 -y 40
see "... and back" "^ +Calls +Total +Self +Avg +Function"

keys q
for i in $(seq 50); do [ -s "$T/rc" ] && break; sleep 0.1; done
t_eq "q on the table quits, exit status 0" 0 "$(cat "$T/rc" 2>/dev/null)"
tm kill-session -t tui

# the shared filters: the table is that of report --comm dd
"$KMAG" report --comm dd --format json "$F" >"$T/dd.json"
TOPDD=$(python3 -c '
import json, sys
f = json.load(open(sys.argv[1]))["functions"]
print(max(f, key=lambda x: x["total_ns"])["name"])' "$T/dd.json")
start --comm dd "$F"
see "--comm dd: the filter in the title" "^kmag tui: .*comm dd"
t_grep "... the first row is report --comm dd's top function" " $TOPDD *\$" <(sed -n 3p "$T/screen")
keys Q
for i in $(seq 50); do [ -s "$T/rc" ] && break; sleep 0.1; done
t_eq "Q quits from anywhere, exit status 0" 0 "$(cat "$T/rc" 2>/dev/null)"
tm kill-session -t tui

# a function-tracer trace: counts only, and the calls screen says why it is empty
start "$(fixture_trace fn-filtered.dat)"
see "function tracer: calls only" "Function \\(no durations: function tracer\\)"
keys c
see "... c explains there are no single calls" "no individual calls \\(a function-tracer trace has no durations\\)"
keys Q
tm kill-session -t tui

# return values (Linux 6.19, funcgraph-retval): do_mkdirat's calls, the failing ones in red
R=$(fixture_trace 6.19/fg619-retval.dat)
read -r NMK NFAIL < <("$KMAG" replay --format json "$R" | python3 -c '
import json, sys
n = f = 0
for line in sys.stdin:
    o = json.loads(line)
    if o["function"] == "do_mkdirat":
        n += 1
        f += o.get("retval") is not None and -4095 <= o["retval"] < 0
print(n, f)')
start "$R"
see "6.19 trace with return values: the table" "sorted by total"
keys / do_mkdirat Enter c
see "do_mkdirat's calls: all $NMK kept, $NFAIL of $NFAIL failing (replay's count)" \
	"^do_mkdirat: $NMK of $NMK calls kept: .*, $NFAIL of $NFAIL failing,"
tm capture-pane -e -p -t tui >"$T/screen-e"
# each row: whether its text starts in red (ESC [..31m) and its return value column
python3 -c '
import re, sys
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"((?:\x1b\[[0-9;]*m)*) *[0-9]+\.[0-9]{6} ", line)
    if m:
        text = re.sub(r"\x1b\[[0-9;]*m", "", line).split()
        print("red" if re.search(r"\[[0-9;]*31m", m.group(1)) else "plain", text[3])
' "$T/screen-e" >"$T/rows"
t_eq "... the $NFAIL calls returning -17 (EEXIST) in red, the others not" \
	"$(printf 'red -17\n%.0s' $(seq "$NFAIL"))" "$(grep -- ' -17$' "$T/rows")"
t_nogrep "... no call returning 0 in red" "^red 0$" "$T/rows"
keys Enter
see "... Enter: a failing call's tree, its return value on its line" "^ +0 ns +[0-9.]+ [mun]?s +-17 +- do_mkdirat\(\) \{"
keys Q
tm kill-session -t tui

# arguments and call sites (Linux 6.19, funcgraph-args and -retaddr): as replay prints them
A=$(fixture_trace 6.19/fg619-args.dat)
"$KMAG" replay --function __x64_sys_openat --depth 1 --limit 1 "$A" >"$T/first"
CALL=$(sed -n 's/.*| *\(__x64_sys_openat([^)]*)\).*/\1/p' "$T/first")
SITE=$(sed -n 's|.*/\* <-\([^ ]*\).*|\1|p' "$T/first")
start "$A"
see "6.19 trace with arguments: the table" "sorted by total"
keys / __x64_sys_openat Enter c Enter
see "the first __x64_sys_openat's tree: replay's call site in the title" \
	"^call of __x64_sys_openat at .*, from ${SITE//+/\\+}: "
t_grep "... and replay's arguments on its line" "- ${CALL//[()+]/.} \\{" <(sed -n 3p "$T/screen")
keys Q
tm kill-session -t tui

# a resize just before the TUI blocks reading its terminal: ncurses notes the
# SIGWINCH in its handler and then blocks in read(), so a TUI that only waits
# in getch() keeps its old screen until the next key (seen under valgrind in
# CI, where that window is wide). A preloaded read() holds the window open:
# its first read of the terminal waits until the terminal's size has changed
# since kmag started and the signal was handled, then reads.
if command -v cc >/dev/null; then
	cat >"$T/slowread.c" <<'EOC'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}
static struct winsize first;
static int armed;
__attribute__((constructor)) static void arm(void)
{
	armed = ioctl(0, TIOCGWINSZ, &first) == 0;
}
ssize_t read(int fd, void *buf, size_t n)
{
	static ssize_t (*real)(int, void *, size_t);
	struct winsize now;

	if (!real)
		real = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	if (fd == 0 && armed) {
		armed = 0;
		for (int i = 0; i < 200; i++) {
			pause_ms(50);
			if (ioctl(0, TIOCGWINSZ, &now) == 0 && now.ws_row != first.ws_row)
				break;
		}
		pause_ms(200);
	}
	return real(fd, buf, n);
}
EOC
	cc -shared -fPIC -o "$T/slowread.so" "$T/slowread.c" -ldl
	rm -f "$T/rc"
	# natively (valgrind would not take the preload), and ASan lets it go first
	tm new-session -d -s tui -x 120 -y 40 "ASAN_OPTIONS=\$ASAN_OPTIONS:verify_asan_link_order=0 \
		LD_PRELOAD=$T/slowread.so ${KMAG_REAL:-$KMAG} tui $F; echo \$? >$T/rc; sleep 30"
	see "a resize while the TUI goes to read: the table" "^kmag tui: "
	tm resize-window -t tui -x 70 -y 15
	# tmux keeps the bottom rows of a pane it shrinks: the title is gone
	# until kmag draws the screen again
	see "... drawn again without a key: the title" "^kmag tui: "
	t_grep "... the status line is the last row" "^[0-9]+/[0-9]+ +Enter" <(tail -1 "$T/screen")
	keys Q
	for i in $(seq 50); do [ -s "$T/rc" ] && break; sleep 0.1; done
	t_eq "... Q quits, exit status 0" 0 "$(cat "$T/rc" 2>/dev/null)"
	tm kill-session -t tui
else
	t_skip "a resize while the TUI goes to read" "no C compiler (cc)"
fi

t_exit "without a terminal: one line, exit 1" 1 "$KMAG" tui "$F" </dev/null
t_grep "... saying it needs one" "^kmag: tui needs a terminal" "$T/err"
t_exit "--keep-calls 0: usage error" 2 "$KMAG" tui --keep-calls 0 "$F"
start "$T/nosuch.dat"
for i in $(seq 50); do [ -s "$T/rc" ] && break; sleep 0.1; done
t_eq "a missing trace: exit 1" 1 "$(cat "$T/rc" 2>/dev/null)"
see "... saying so in the terminal" "^kmag: .*nosuch.dat"
tm kill-session -t tui
t_done
