#!/bin/bash
# --time reads only the window (issue 25): the trace.dat reader finds the
# window's first page (v6) or zstd chunk (v7) by their start times and stops
# past it, and every view is the same, byte for byte, output and messages
# and exit status, as when it reads every page ($KMAG_SEEK=scan, the
# reference: the same events, the window kept by the reader after reading
# them; tests/unit/t-tracedat-seek.c checks both against a whole read).
# Windows at the start, in the middle, at the end, one instant, past the
# end and before the start, absolute and relative, on traces with lost
# events (v6), interrupts, two CPUs and zstd chunks (v7): report (text and
# JSON), replay, flame, export folded, chrome and csv, html, errors. A window
# that holds nothing says what the whole trace holds, as before.
. "$(dirname "$0")/lib.sh"

# same DESC ARGS... : kmag ARGS... seeking and scanning
same() {
	local desc=$1 m
	shift
	for m in seek scan; do
		(cd "$T" && KMAG_SEEK=$m "$KMAG" "$@" >"$T/stdout.$m" 2>"$T/stderr.$m")
		echo "exit $?" >>"$T/stderr.$m"
	done
	if ! cmp -s "$T/stdout.seek" "$T/stdout.scan"; then
		t_fail "$desc: the output is the same seeking and scanning" \
			"$(diff "$T/stdout.seek" "$T/stdout.scan" | head -c 1500)"
	elif ! cmp -s "$T/stderr.seek" "$T/stderr.scan"; then
		t_fail "$desc: the messages are the same seeking and scanning" \
			"$(diff "$T/stderr.seek" "$T/stderr.scan" | head -c 1500)"
	else
		t_pass "$desc: the same seeking and scanning ($(wc -c <"$T/stdout.seek") bytes, $(tail -1 "$T/stderr.seek"))"
	fi
}

# span FILE: "FIRST LAST" in ns, the trace's first and last event (report -F json)
span() {
	"$KMAG" report -F json --limit 1 "$1" |
		sed -n 's/.*"time_start_ns": *\([0-9]*\).*"time_end_ns": *\([0-9]*\).*/\1 \2/p' | head -1
}

# at FIRST LAST PERMILLE: the time so far into the span, in seconds (as --time takes it)
at() {
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { printf "%.9f", (a + (b - a) * p / 1000) / 1e9 }'
}

# tc_count FILE START END: the records trace-cmd report -R shows in the window
# START,END (seconds; a printed time stands for its microsecond, as --time reads it)
tc_count() {
	trace-cmd report -R -t "$1" 2>/dev/null |
		awk -v a="$2" -v b="$3" '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
			t = substr($i, 1, length($i) - 1) * 1e9
			if (t >= a * 1e9 - 500 && t <= b * 1e9 + 499) n++
			break } } END { print n + 0 }'
}

files=(fg-lost-v6.dat fn-lost-v6.dat fg-2cpu-v6.dat fg-all-cpu0-v6.dat 6.19/fg619-args.dat
	6.19/fg619-retval.dat)
for f in "${files[@]}"; do
	p=$(fixture_trace "$f")
	read -r first last <<<"$(span "$p")"
	if [ -z "$first" ] || [ "$first" = "$last" ]; then
		t_fail "$f: report -F json gives the trace's time span" "$(span "$p")"
		continue
	fi
	for w in "start 0 20" "middle 490 510" "end 980 1000" "instant 500 500" \
		"past-the-end 1010 1100" "before-the-start -100 -10"; do
		read -r name a b <<<"$w"
		win="$(at "$first" "$last" "$a"),$(at "$first" "$last" "$b")"
		same "report --time $name $f" report --time "$win" "$p"
		same "replay --time $name $f" replay --time "$win" "$p"
		[ "$name" = middle ] || [ "$name" = start ] || continue
		if command -v trace-cmd >/dev/null; then
			# (none: kmag says so and exits 1)
			n=$("$KMAG" report -F json --limit 1 --time "$win" "$p" 2>/dev/null |
				grep -o '"events": *[0-9]*' | head -1 | grep -o '[0-9]*$')
			t_eq "report --time $name $f: the window's events are trace-cmd's" \
				"$(tc_count "$p" "${win%,*}" "${win#*,}")" "${n:-0}"
		fi
		same "report -F json --limit 0 --time $name $f" report -F json --limit 0 --time "$win" "$p"
		same "flame --time $name $f" flame -o - --time "$win" "$p"
		for fmt in folded chrome csv; do
			same "export -F $fmt --time $name $f" export -F "$fmt" --time "$win" "$p"
		done
		same "html --time $name $f" html -o - --time "$win" "$p"
		case $f in 6.19/*) same "errors --time $name $f" errors --time "$win" "$p" ;; esac
	done
	same "report --time +0.01,+0.02 $f" report --time +0.01,+0.02 "$p"
	same "replay --time +0,+0.005 --cpu 1 $f" replay --time +0,+0.005 --cpu 1 "$p"
done

# a window past the end: the message says what the whole trace holds
p=$(fixture_trace fg-2cpu-v6.dat)
read -r first last <<<"$(span "$p")"
win="$(at "$first" "$last" 1100),$(at "$first" "$last" 1200)"
t_exit "report --time past the end: exit 1" 1 "$KMAG" report --time "$win" "$p"
t_grep "... says what the whole trace holds" \
	"the trace holds $(awk -v a="$first" 'BEGIN { printf "%.6f", a / 1e9 }') \\.\\. $(awk -v a="$last" 'BEGIN { printf "%.6f", a / 1e9 }') s on CPUs 0-1" \
	"$T/err"
t_done
