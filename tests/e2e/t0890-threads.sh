#!/bin/bash
# --threads: every command's output, messages and exit status are the same
# byte for byte with one reader thread and with several (3: more than the
# CI machine's CPUs; KMAG_THREADS too), on every trace.dat fixture for the
# event stream as a whole (replay -F json, report -F json --limit 0) and on
# the fixtures that have lost events, interrupts, other events, arguments,
# call sites and zstd chunks for every view (report, replay, errors, flame,
# export in each format, visualize, html, diff). The reference is --threads
# 1, today's reader; tests/unit/t-tracedat-par.c compares the events
# themselves. The TUI reads through the same session and is left out (it
# needs a terminal; t0900). A bad --threads or $KMAG_THREADS is refused.
. "$(dirname "$0")/lib.sh"

# same DESC ARGS... : kmag ARGS... (an @OUT@ word: a file) with --threads 1 and 3
same() {
	local desc=$1 a t args
	shift
	for t in 1 3; do
		args=()
		for a in "$@"; do
			[ "$a" = @OUT@ ] && a="$T/out.$t"
			args+=("$a")
		done
		rm -f "$T/out.$t"
		(cd "$T" && "$KMAG" "${args[@]}" --threads "$t" >"$T/stdout.$t" 2>"$T/stderr.$t")
		echo "exit $?" >>"$T/stderr.$t"
		[ -f "$T/out.$t" ] && cat "$T/out.$t" >>"$T/stdout.$t"
	done
	if ! cmp -s "$T/stdout.1" "$T/stdout.3"; then
		t_fail "$desc: the output is the same on 1 and 3 threads" \
			"$(diff "$T/stdout.1" "$T/stdout.3" | head -c 1500)"
	elif ! cmp -s "$T/stderr.1" "$T/stderr.3"; then
		t_fail "$desc: the messages are the same on 1 and 3 threads" \
			"$(diff "$T/stderr.1" "$T/stderr.3" | head -c 1500)"
	elif [ "$(wc -c <"$T/stdout.1")" -lt 100 ]; then
		t_fail "$desc: an output to compare" "$(head -c 500 "$T/stderr.1")"
	else
		t_pass "$desc: the same on 1 and 3 threads ($(wc -c <"$T/stdout.1") bytes)"
	fi
}

mkdir -p "$T/diff"
all=(fn-filtered.dat fg-filtered.dat fn-kprobe.dat fg-lost-v6.dat fn-lost-v6.dat
	fg-sched-v6.dat fg-all-cpu0-v6.dat fg-2cpu-v6.dat fn-broad-v6.dat fg-depth3-v6.dat
	fg-filtered-6.12-v6.dat 6.19/fg619-args.dat 6.19/fg619-hex-tail.dat
	6.19/fg619-latency.dat 6.19/fg619-retaddr.dat 6.19/fg619-retval.dat
	6.19/fn619-args.dat 6.19-tc34/tc34-args.dat 6.19-tc34/tc34-retaddr.dat
	diff/diff-fg-base.dat diff/diff-fn-base.dat)
for f in "${all[@]}"; do
	p=$(fixture_trace "$f")
	same "replay -F json $f" replay -F json "$p"
	same "report -F json --limit 0 $f" report -F json --limit 0 "$p"
done

# every view, on lost events (v6), interrupts (all of CPU 0), sched_switch
# records (formats parsed on first use), zstd chunks with arguments, return
# values and call sites (6.19, v7)
views=(fg-lost-v6.dat fg-all-cpu0-v6.dat fg-sched-v6.dat 6.19/fg619-args.dat)
for f in "${views[@]}"; do
	p=$(fixture_trace "$f")
	same "report $f" report "$p"
	same "report --time +0.05,+0.2 --comm '*' $f" report --time +0.05,+0.2 --comm '*' "$p"
	same "replay $f" replay "$p"
	case $f in 6.19/*) same "errors $f" errors "$p" ;; esac	# (return values)
	same "flame $f" flame -o - "$p"
	for fmt in folded chrome perfetto pprof csv json dot; do
		# (-F dot needs Graphviz: the minimal build refuses it)
		[ "$fmt" = dot ] && ! t_has_feature graphviz && continue
		same "export -F $fmt $f" export -F "$fmt" "$p"
	done
	same "html $f" html -o - "$p"
	if t_has_feature graphviz; then
		same "visualize $f" visualize -o @OUT@.dot "$p"
	fi
done
a=$(fixture_trace diff/diff-fg-base.dat)
b=$(fixture_trace diff/diff-fg-tmpfs.dat)
same "diff" diff "$a" "$b"
same "diff -F json" diff -F json "$a" "$b"

# KMAG_THREADS is the default; --threads overrides it
p=$(fixture_trace fg-lost-v6.dat)
KMAG_THREADS=1 "$KMAG" replay -F json "$p" >"$T/env1" 2>&1
KMAG_THREADS=4 "$KMAG" replay -F json "$p" >"$T/env4" 2>&1
t_ok "KMAG_THREADS=1 and =4: the same replay" cmp "$T/env1" "$T/env4"
t_exit "--threads 0 is refused" 2 "$KMAG" report --threads 0 "$p"
t_grep "... naming the range" "threads from 1 to 256" "$T/err"
t_exit "--threads 257 is refused" 2 "$KMAG" report --threads 257 "$p"
t_exit "KMAG_THREADS=x is refused" 2 env KMAG_THREADS=x "$KMAG" report "$p"
t_grep "... naming the variable and the fix" 'KMAG_THREADS="x" is not a number of threads from 1 to 256 \(unset it' "$T/err"
t_ok "... unless --threads is given" env KMAG_THREADS=x "$KMAG" report --threads 2 "$p"
t_done
