#!/bin/bash
# The options several commands share (issue 18), run through every command
# that takes them from one table: the same values are accepted, a bad value
# gets the same message, a filter has the same effect; and no command takes
# an abbreviation of a long option (`record --cpu 1` was read as --cpumask 1).
. "$(dirname "$0")/lib.sh"
F=$TRACES/fg-filtered.dat
py() { python3 -c "$1" "${@:2}"; }

# run CMD OPTION...: kmag CMD with what it needs around OPTION to read $F
run() {
	local cmd=$1; shift
	case $cmd in
	report) "$KMAG" report "$@" "$F" ;;
	# (.html: the option checks must not need Graphviz, see t0002)
	visualize) "$KMAG" visualize --image-name "$T/v.html" --no-chart "$@" "$F" ;;
	flame) "$KMAG" flame -o "$T/f.svg" "$@" "$F" ;;
	html) "$KMAG" html -o "$T/h.html" "$@" "$F" ;;
	diff) "$KMAG" diff "$@" "$F" "$F" ;;
	export) "$KMAG" export -F csv "$@" "$F" ;;
	replay) "$KMAG" replay "$@" "$F" ;;
	record) "$KMAG" record -o "$T/no-such-dir/x.dat" -e sched:sched_switch "$@" ;;
	esac
}

# The table: option, the commands that take it, a bad value and the message for it.
while IFS='|' read -r opt cmds bad msg; do
	[ -n "$opt" ] || continue
	first=""
	for cmd in $cmds; do
		t_exit "$cmd $opt '$bad' is a usage error" 2 run "$cmd" "$opt" "$bad"
		# the message without its "kmag CMD: " and " (see 'kmag CMD --help')" frame
		got=$(sed -e "s/^kmag $cmd: //" -e "s/ (see 'kmag $cmd --help')\$//" "$T/err")
		t_eq "$cmd $opt '$bad': the shared message" "$msg" "$got"
	done
done <<'TABLE'
--cpu|report visualize flame html diff export replay record|3-1|invalid CPU list "3-1" (expected e.g. 0-3,8)
--cpu|report visualize flame html diff export replay record|x|invalid CPU list "x" (expected e.g. 0-3,8)
--pid|report visualize flame html diff export replay record|x|invalid pid list "x" (expected numbers separated by commas, e.g. 123,456)
--comm|report visualize flame html diff export replay||empty command-name list
--time|report visualize flame html diff export replay|x|invalid time range "x" (expected START,END in seconds as printed by report, e.g. 6.30,6.35; prefix both with + to count from the first event: +0.5,+1)
--reader|report visualize flame html diff export replay|x|unknown reader "x" (choose auto, builtin or libtracecmd)
--min-duration|report visualize replay|x|--min-duration expects a duration above 0 like 250us, 1.5ms or 2s, got "x"
--limit|report diff replay|x|--limit expects a non-negative number, got "x"
--color|diff replay|x|unknown --color "x" (choose auto, always or never)
--overhead|report visualize flame html diff export replay|0|--overhead expects ns per traced call from 1 to 1000000, got "0" (--raw-times: the kernel's durations)
TABLE

# The same filter has the same effect in every view of the calls: the calls
# per function in report's json, export's json and the folded stacks.
for filt in "--cpu 1" "--cpu 0" "--comm dd" "--time +0.1,+0.2"; do
	# shellcheck disable=SC2086
	"$KMAG" report -F json $filt "$F" >"$T/r.json" 2>/dev/null
	# shellcheck disable=SC2086
	"$KMAG" export -F json $filt "$F" >"$T/e.json" 2>/dev/null
	# shellcheck disable=SC2086
	"$KMAG" flame --weight calls -f "$T/f.folded" $filt "$F" 2>/dev/null
	t_ok "$filt: report, export and flame count the same calls" py '
import json, sys, collections
def calls(p):
    return {f["name"]: f["calls"] for f in json.load(open(p))["functions"] if f["calls"]}
r, e = calls(sys.argv[1]), calls(sys.argv[2])
assert r and r == e, "report and export differ"
fl = collections.Counter()
for line in open(sys.argv[3]):
    stack, n = line.rsplit(" ", 1)
    fl[stack.split(";")[-1]] += int(n)
full = json.load(open(sys.argv[4]))["functions"]
assert sum(r.values()) < sum(f["calls"] for f in full), "the filter left everything"
# "[unknown]": the callers a time window cut off
bad = {k for k in fl if fl[k] > r.get(k, 0) and not k.startswith("[")}
assert not bad, "flame has more calls than report: %s" % sorted(bad)[:5]' \
		"$T/r.json" "$T/e.json" "$T/f.folded" <("$KMAG" report -F json "$F")
done

# --color in the commands that colour: auto is on for a terminal unless
# NO_COLOR is set (issue 18: diff ignored NO_COLOR); always and never win.
if command -v script >/dev/null; then
	# on_tty ENV... -- ARGS: kmag ARGS on a pseudo-terminal; prints the escape sequences counted
	on_tty() { env "$@" script -qec "$KMAG $(printf '%q ' "${cmd_args[@]}")" /dev/null | grep -c $'\033\['; }
	for cmd in diff replay; do
		case $cmd in
		diff) base=(diff "$F" "$TRACES/fn-filtered.dat") ;;
		replay) base=(replay --min-duration 1ms "$F") ;;
		esac
		cmd_args=("${base[@]}")
		t_eq "$cmd: colours on a terminal" yes "$([ "$(on_tty X=1)" -gt 0 ] && echo yes)"
		t_eq "$cmd: NO_COLOR=1 turns auto off" 0 "$(on_tty NO_COLOR=1)"
		t_eq "$cmd: NO_COLOR= (empty) does not" yes "$([ "$(on_tty NO_COLOR=)" -gt 0 ] && echo yes)"
		cmd_args=("${base[0]}" --color never "${base[@]:1}")
		t_eq "$cmd: --color never" 0 "$(on_tty X=1)"
		cmd_args=("${base[0]}" --color always "${base[@]:1}")
		t_eq "$cmd: --color always beats NO_COLOR" yes "$([ "$(on_tty NO_COLOR=1)" -gt 0 ] && echo yes)"
		t_eq "$cmd: --color always colours a pipe" yes \
			"$([ "$("$KMAG" "${cmd_args[@]}" 2>/dev/null | grep -c $'\033\[')" -gt 0 ] && echo yes)"
	done
fi

# No abbreviations: every long option of every command, cut short by one
# letter, is refused with the full name as the suggestion.
for cmd in report visualize flame html diff export replay record stack generate-symbol-map; do
	"$KMAG" "$cmd" --help >"$T/help" 2>&1
	# the options the help defines (at the start of a line), not those it mentions
	names=$(grep -oE -- '^ +(-[a-zA-Z], )?--[a-z][a-z-]+[a-z]' "$T/help" | grep -oE -- '--[a-z-]+' | sort -u)
	n=0
	for name in $names; do
		short=${name%?}
		[ ${#short} -ge 5 ] || continue
		grep -qx -- "$short" <<<"$names" && continue
		"$KMAG" "$cmd" "$short=x" >"$T/out" 2>"$T/err" </dev/null
		rc=$?
		if [ $rc = 2 ] && grep -qF -- "unknown option \"$short\"; did you mean" "$T/err" &&
			grep -qF -- "$name" "$T/err"; then
			n=$((n + 1))
		else
			t_fail "$cmd $short is not taken for $name" "exit $rc" "$(cat "$T/err")"
		fi
	done
	t_eq "$cmd: every cut-short long option refused" "ok" "$([ $n -gt 0 ] && echo ok)"
done
t_exit "record --cpu 1 is not record --cpumask 1" 2 "$KMAG" record --cpumask=1 --cpu 1 -o "$T/x.dat"
t_grep "both given: one message" 'not both' "$T/err"
t_exit "report --cpum is refused, not read as --cpu" 2 "$KMAG" report --cpum 1 "$F"
t_grep "the suggestion names the real option" 'unknown option "--cpum"; did you mean --cpu\?' "$T/err"
# one spelling, one meaning: -n is record's --notrace only; the others spell --limit
for cmd in report diff replay; do
	t_exit "$cmd -n 3 is refused" 2 run $cmd -n 3
	t_grep "$cmd: it points to --limit" 'use --limit N' "$T/err"
	t_exit "$cmd --limit 3 works" 0 run $cmd --limit 3
done
t_ok "record --help: -n is --notrace" sh -c "'$KMAG' record --help | grep -q -- '-n, --notrace'"
# --time is a window everywhere; how long to watch is --record-time, as in record
t_exit "stack --time is not a duration" 2 "$KMAG" stack --time 1
t_grep "it suggests --record-time" 'record-time' "$T/err"
t_ok "record --help: -t, --record-time" sh -c "'$KMAG' record --help | grep -q -- '-t, --record-time'"
t_ok "stack --help: -t, --record-time" sh -c "'$KMAG' stack --help | grep -q -- '-t, --record-time'"
t_done
