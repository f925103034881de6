#!/bin/bash
# SPDX-License-Identifier: MIT
# tui-speed.sh - `kmag tui` on a large trace: the time to the first screen and
# the time of each move between screens, in a tmux pane.
#
#   bench/tui-speed.sh [SEED.dat] [SIZE_MB] [RUNS]
#
# SEED (default: fg-all-cpu0, unfiltered function_graph of a real kernel) is
# replicated into a SIZE_MB (default 256) trace.dat with bench/gen-big-tracedat,
# as replay-throughput.sh does. Each run starts kmag tui in a 120x40 tmux pane
# with KMAG_TUI_TRACE set (kmag logs, from the start of the command, the time
# to the first screen drawn, and for each key the time from reading it to the
# screen written), and also measures from outside: from starting the pane until
# capture-pane shows the table. Then it sends a fixed walk through every
# screen (table, callers/callees, calls, tree, fold, sort, search, help) and
# prints, per kind of move, the slowest of all runs. Targets (issue 15): first
# screen within 1 s, moves under 50 ms.
set -euo pipefail
cd "$(dirname "$0")/.."
SEED=${1:-tests/fixtures/traces/fg-all-cpu0-v6.dat.xz}
SIZE=${2:-256}
RUNS=${3:-3}
. bench/lib.sh
command -v tmux >/dev/null || { echo "tui-speed.sh: needs tmux (apt install tmux)" >&2; exit 1; }
case $SEED in *.xz) xz -dc "$SEED" >"$WORK/tui-seed.dat"; SEED="$WORK/tui-seed.dat" ;; esac

bench_build
"$KMAG" --version | grep -q '+tui' || { echo "tui-speed.sh: $KMAG has no tui (ncurses)" >&2; exit 1; }
BIG="$WORK/replay-big-$SIZE.dat"
[ -f "$BIG" ] || "$BUILD/bench/gen-big-tracedat" "$SEED" "$BIG" "$SIZE"

SOCK="kmag-tui-bench-$$"
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
trap 'tm kill-server 2>/dev/null || true' EXIT

now_ms() { date +%s%3N; }
# the walk: each key with a label; 0.3 s apart so every key is drawn before the next
WALK=(
	"Enter:table->callers/callees" "c:->calls" "s:sort calls" "Enter:call->tree"
	"Enter:fold" "Right:unfold" "End:tree end" "q:back" "q:back" "q:back to table"
	"NPage:page down" "NPage:page down" "End:table end" "Home:table start"
	"s:sort table by self" "s:sort table by calls" "s:sort table by total" "/:search" "v:search v" "f:search vf"
	"s:search vfs" "Enter:search end" "n:next match" "n:next match" "?:help" "q:back"
	"c:->calls" "Enter:call->tree" "q:back" "q:back"
)

events=$("$KMAG" report --format json --limit 1 "$BIG" | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])')
printf '%s: %s MB, %s events; %s runs; load average %s\n' "$BIG" "$(($(stat -c %s "$BIG") >> 20))" \
	"$events" "$RUNS" "$(cut -d' ' -f1-3 /proc/loadavg)"
grep -m1 'model name' /proc/cpuinfo
: >"$WORK/tui-keys.txt"
for run in $(seq "$RUNS"); do
	log="$WORK/tui-trace-$run.log"
	rm -f "$log"
	t0=$(now_ms)
	tm new-session -d -s b -x 120 -y 40 "exec env KMAG_TUI_TRACE=$log $KMAG tui $BIG"
	until tm capture-pane -p -t b 2>/dev/null | grep -q 'sorted by total'; do sleep 0.01; done
	t1=$(now_ms)
	pid=$(tm display -p -t b '#{pane_pid}')
	rss=$(awk '/VmHWM/ { print $2 }' "/proc/$pid/status")
	cpu=$(awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$pid/stat")
	for step in "${WALK[@]}"; do
		tm send-keys -t b "${step%%:*}"
		sleep 0.3
	done
	tm send-keys -t b Q
	sleep 0.3
	tm kill-server 2>/dev/null || true
	first=$(awk '/^first-screen/ { print $2 }' "$log")
	printf 'run %d: first screen %s ms (kmag), %d ms (tmux, from starting the pane); CPU to then %s s; peak RSS %d MB\n' \
		"$run" "$first" $((t1 - t0)) "$cpu" $((rss / 1024))
	# the walk's labels next to kmag's times, in order
	grep '^key' "$log" | awk '{ print $(NF - 1) }' | paste -d' ' - <(printf '%s\n' "${WALK[@]#*:}") \
		>>"$WORK/tui-keys.txt"
done
echo "slowest move of each kind over all runs (ms, key read to screen written):"
awk '{ t = $1; $1 = ""; if (!(($0) in m) || t > m[$0]) m[$0] = t; if (!(($0) in o)) o[$0] = n++ }
	END { for (k in m) printf "%3d %8.3f %s\n", o[k], m[k], k }' "$WORK/tui-keys.txt" | sort -n | cut -c5-
awk '{ if ($1 > max) max = $1; s += $1; n++ } END { printf "all %d moves: max %.3f ms, mean %.3f ms\n", n, max, s / n }' \
	"$WORK/tui-keys.txt"
