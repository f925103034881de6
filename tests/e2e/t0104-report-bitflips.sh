#!/bin/bash
# Damaged trace.dat files (issue 23): the issue's flipped bits in
# fg-2cpu-v6.dat. kmag reads past what it cannot read, moves times that
# cannot be, leaves out durations that cannot be, says so on stderr with the
# CPU, file offset, bytes and events, and fails only under --strict, in
# every command that reads a trace; no undamaged fixture is reported
# damaged. Bits flipped all over several fixtures: t0105.
. "$(dirname "$0")/lib.sh"

# flip IN OUT OFFSET:BIT... : a copy of IN with those bits flipped
flip() {
	python3 - "$@" <<'PY'
import sys
src, dst = sys.argv[1:3]
b = bytearray(open(src, 'rb').read())
for spec in sys.argv[3:]:
    off, bit = spec.split(':')
    b[int(off)] ^= 1 << int(bit)
open(dst, 'wb').write(b)
PY
}
# json FILE EXPR : EXPR of the report JSON r in FILE
json() { python3 -c "import json, sys; r = json.load(open(sys.argv[1])); print($2)" "$1"; }
# right DAMAGED : the records trace-cmd reads right from DAMAGED (lines of the undamaged file's)
right() {
	python3 - "$F" "$1" <<'PY'
import collections, re, subprocess, sys
head = re.compile(r'^\s*\S.*\[\d+\]\s+\d+\.\d+:\s+\S+:')
def recs(p):
    out = subprocess.run(['trace-cmd', 'report', '-R', p], capture_output=True, text=True,
                         errors='replace').stdout
    return collections.Counter(l for l in out.splitlines() if head.match(l))
print(sum((recs(sys.argv[1]) & recs(sys.argv[2])).values()))
PY
}

# No false alarm: every fixture reads without a damaged place, with both readers
# (under ASan or valgrind, which are for memory errors, three of them).
set -- "$TRACES"/*.dat "$TRACES"/*.dat.xz "$TRACES"/6.19*/*.dat "$TRACES"/*.txt "$TRACES"/6.19/*.txt
[ -n "${KMAG_VALGRIND:-}${ASAN_OPTIONS:-}" ] &&
	set -- "$TRACES"/fg-lost-v6.dat.xz "$TRACES"/6.19/fg619-retval.dat "$TRACES"/fn-text.txt
for f in "$@"; do
	rel=${f#"$TRACES"/}
	name=$(basename "${rel%.xz}")
	f=$(fixture_trace "${rel%.xz}")
	for reader in builtin libtracecmd; do
		[ "$reader" = libtracecmd ] && { t_has_feature libtracecmd || continue; }
		case $name in *.txt) [ "$reader" = builtin ] || continue ;; esac
		"$KMAG" report --reader "$reader" "$f" >/dev/null 2>"$T/err"
		if grep -q 'damaged' "$T/err"; then
			t_fail "$name ($reader): no damage reported" "$(head -3 "$T/err")"
		fi
	done
done
t_pass "no fixture is reported damaged, by either reader"

# The issue's trace: fg-2cpu-v6.dat (trace-cmd reads 19,355 lines, 27,200 records).
F=$(fixture_trace fg-2cpu-v6.dat)
"$KMAG" report -F json "$F" >"$T/good.json"
t_eq "the undamaged trace: 27200 events" 27200 "$(json "$T/good.json" 'r["events"]')"

# 1. A record header of CPU 0's page at file offset 4632576: type_len 5 -> 7,
#    the record runs into the next one. Old kmag: exit 1, no numbers.
flip "$F" "$T/rec.dat" 4632592:1
t_exit "a damaged record: read past it" 0 "$KMAG" report -F json "$T/rec.dat"
t_grep "... the warning names CPU, file offset, bytes and events" \
	'damaged: CPU 0, file offset 46326[0-9]{2}: .*; skipped [0-9]+ bytes, about [0-9]+ events' "$T/err"
t_grep "... and sums them up" 'read past [0-9]+ damaged places?: [0-9,]+ bytes skipped \(about [0-9,]+ events\)' "$T/err"
events=$(json "$T/out" 'r["events"]')
got=$(right "$T/rec.dat")
t_ok "... kmag reads $events events, trace-cmd $got right" test "$events" -ge "$got"
t_ok "... and loses the rest of one page only" test "$events" -ge $((27200 - 150))
t_exit "a damaged record, --strict: exit 1, one line" 1 "$KMAG" report --strict "$T/rec.dat"
t_grep "... naming the place" '^kmag: damaged trace.dat: CPU 0, file offset [0-9]+: .* \(--strict' "$T/err"
if t_has_feature libtracecmd; then
	t_exit "a damaged record, --reader libtracecmd: read past it" 0 "$KMAG" report --reader libtracecmd "$T/rec.dat"
	t_grep "... with the same warning" 'damaged: CPU 0, file offset [0-9]+: ' "$T/err"
	t_exit "--reader libtracecmd --strict: exit 1" 1 "$KMAG" report --reader libtracecmd --strict "$T/rec.dat"
fi

# 2. Bit 48 of a funcgraph_exit's rettime: old kmag reported a call of
#    281,474.977 s (check_spread.isra.0) in a 405 ms trace.
flip "$F" "$T/ret.dat" 4632658:0
t_exit "an impossible rettime: read" 0 "$KMAG" report -F json "$T/ret.dat"
# (the trace's clock is "global", not the rettimes' trace_clock_local(), so
# the call is measured against the recording's start, not the exit's time)
t_grep "... said with the call it claims" 'the exit of check_spread.isra.0 at 138.191023 s claims a call of 281474.97671[0-9] s \(longer than the recording: its calltime is before the trace began\); its duration is left out' "$T/err"
t_eq "... no call longer than the trace: check_spread.isra.0's longest" "True" \
	"$(json "$T/out" '[f["max_ns"] for f in r["functions"] if f["name"] == "check_spread.isra.0"][0] < 10**6')"
t_eq "... all 27200 events read" 27200 "$(json "$T/out" 'r["events"]')"
t_exit "an impossible rettime, --strict: exit 1" 1 "$KMAG" report --strict "$T/ret.dat"

# 3. Bit 40 of that page's time: its 115 events 1,099.5 s late. Old kmag's
#    time range became 1,099.582 s.
flip "$F" "$T/time.dat" 4632581:0
t_exit "an impossible page time: read" 0 "$KMAG" report "$T/time.dat"
t_grep "... the events moved to the next page's start" \
	"damaged: CPU 0, file offset 4632592: time is past the start of the CPU's next page \(1237.702649 s, bound 138.191213 s\); 115 events moved to 138.191213 s" "$T/err"
t_grep "... the time range stays the trace's" '^# time: +138.120980 .. 138.526094 s \(405.114 ms\)' "$T/out"

# --strict is an option of every command that reads a trace, and means the same
run() {
	local cmd=$1; shift
	case $cmd in
	visualize) "$KMAG" visualize --image-name "$T/v.html" --no-chart "$@" ;;
	flame) "$KMAG" flame -o "$T/f.svg" "$@" ;;
	html) "$KMAG" html -o "$T/h.html" "$@" ;;
	diff) "$KMAG" diff "$F" "$@" ;;
	export) "$KMAG" export -F csv "$@" ;;
	*) "$KMAG" "$cmd" "$@" ;;
	esac
}
cmds="report visualize flame html diff export replay"
[ -n "${KMAG_VALGRIND:-}${ASAN_OPTIONS:-}" ] && cmds="report replay"
for cmd in $cmds; do
	run "$cmd" "$T/rec.dat" >/dev/null 2>"$T/err"
	t_eq "$cmd: damage is read past with a warning" "0 1" "$? $(grep -c 'read past [0-9]* damaged place' "$T/err")"
	t_exit "$cmd --strict: exit 1, one line" 1 run "$cmd" --strict "$T/rec.dat"
	t_grep "$cmd --strict: the place" '^kmag: damaged trace.dat: CPU 0, file offset' "$T/err"
done

t_done
