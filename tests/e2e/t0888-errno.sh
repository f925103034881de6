#!/bin/bash
# SPDX-License-Identifier: MIT
# t0888-errno: --errno E on replay, report and errors: only the calls that
# returned -E. The expected counts come from readers other than kmag: the
# kernel's own text (ret=-N) and trace-cmd's raw records (retval=HEX read as
# the kernel's print_graph_retval() does), helpers/errno-counts.py.
. "$(dirname "$0")/lib.sh"
D="$TRACES/6.19"
H="$SRCDIR/tests/e2e/helpers/errno-counts.py"

# kmag report --errno E -F csv as "ERRNO COUNT FUNCTION" lines, sorted as the helper
report_counts() {
	"$KMAG" report --errno "$1" -F csv "$2" |
		awk -F, -v e="$1" 'NR > 1 { print e, $2, $1 }' | LC_ALL=C sort
}
# kmag replay --errno E -F json: the printed calls that returned -E (their callers are printed too)
replay_counts() {
	"$KMAG" replay --errno "$1" -F json "$2" | python3 -c '
import collections, json, sys
c = collections.Counter(j["function"] for j in map(json.loads, sys.stdin) if j.get("retval") == -int(sys.argv[1]))
for f, n in c.items(): print(sys.argv[1], n, f)' "$1" | LC_ALL=C sort
}

# --- the kernel's text and trace-cmd agree with each other (one buffer read twice) ---
for n in fg619-retval fg619-retaddr fg619-args; do
	t_ok "$n.txt: the kernel's text read" python3 "$H" --text "$D/$n.txt"
	LC_ALL=C sort "$T/ok.out" >"$T/$n.text"
	t_ok "$n.dat: trace-cmd report -R read" python3 "$H" --tracecmd "$D/$n.dat"
	LC_ALL=C sort "$T/ok.out" >"$T/$n.tc"
	t_eq "$n: the kernel's text and trace-cmd count the same errors" \
		"$(cat "$T/$n.text")" "$(cat "$T/$n.tc")"
done
for n in fg619-latency fg619-hex-tail; do
	python3 "$H" --tracecmd "$D/$n.dat" | LC_ALL=C sort >"$T/$n.tc"
done
t_eq "fg619-retval: EINVAL-free, ENOENT once per function of the open's chain" \
	"2 1 __x64_sys_openat;2 1 do_filp_open;2 1 do_sys_open;2 1 do_sys_openat2;2 1 link_path_walk;2 1 path_openat;2 1 step_into_slowpath;" \
	"$(awk '$1 == 2' "$T/fg619-retval.tc" | tr '\n' ';')"

# --- report and replay count, per function, what trace-cmd counts ---
for n in fg619-retval fg619-retaddr fg619-args fg619-latency fg619-hex-tail; do
	files="$D/$n.dat"
	case $n in fg619-retval | fg619-retaddr | fg619-args) files="$files $D/$n.txt" ;; esac
	for e in $(cut -d' ' -f1 "$T/$n.tc" | sort -un); do
		want=$(awk -v e="$e" '$1 == e' "$T/$n.tc" | LC_ALL=C sort)
		for f in $files; do
			b=$(basename "$f")
			t_eq "$b: report --errno $e counts trace-cmd's calls returning -$e" \
				"$want" "$(report_counts "$e" "$f")"
			t_eq "$b: replay --errno $e prints trace-cmd's calls returning -$e" \
				"$want" "$(replay_counts "$e" "$f")"
		done
	done
done

# --- names and numbers, in any case ---
R="$D/fg619-retval.dat"
report_counts 17 "$R" >"$T/by-number"
for e in EEXIST eexist -17 -EEXIST; do
	t_eq "report --errno $e: the same as --errno 17" "$(cat "$T/by-number")" \
		"$("$KMAG" report --errno "$e" -F csv "$R" | awk -F, -v e=17 'NR > 1 { print e, $2, $1 }' | LC_ALL=C sort)"
done
t_ok "report --errno ENOENT (text)" "$KMAG" report --errno ENOENT "$R"
t_grep "report: the header names the filter" '^# filters: +calls returning -2 ENOENT$' "$T/ok.out"
t_grep "report: a row per function that returned it" '^ +1 .* step_into_slowpath$' "$T/ok.out"
t_nogrep "report: no function that did not return it" ' (lookup_one_qstr_excl|vfs_write|__x64_sys_mkdir)$' "$T/ok.out"
# the times are the calls' own: openat's -ENOENT call lasted 320.021 us in the kernel's text
t_grep "the kernel text: the failed openat lasted 320.021 us" '320\.021 us .*__x64_sys_openat ret=-2' "$D/fg619-retval.txt"
t_grep "report: its total is that call's" '^ +1 +320\.021 us .* __x64_sys_openat$' "$T/ok.out"
# the edges: only where the caller passed the error up (callers of link_path_walk's -ENOENT)
t_ok "report --errno ENOENT --callers link_path_walk" "$KMAG" report --errno ENOENT --callers link_path_walk "$R"
t_grep "--callers: path_openat, which returned it too" 'path_openat' "$T/ok.out"

# --- errors --errno: only the origins of E ---
t_ok "errors --errno EEXIST -F json" "$KMAG" errors --errno EEXIST -F json "$R"
t_eq "errors: only EEXIST's origins" "EEXIST filename_create;EEXIST lookup_one_qstr_excl;" \
	"$(python3 -c '
import json, sys
for g in sorted(json.load(open(sys.argv[1]))["groups"], key=lambda g: g["origin"]):
    print(g["errname"], g["origin"])' "$T/ok.out" | tr '\n' ';')"
t_ok "errors --errno EEXIST (text)" "$KMAG" errors --errno EEXIST "$R"
t_grep "errors: the header says whose origins it lists" '^# [0-9]+ calls returned an error; 3 of them where -17 EEXIST was born$' "$T/ok.out"
t_ok "errors (all)" "$KMAG" errors -F json "$R"
t_eq "errors without --errno: more errnos than one" yes "$(python3 -c '
import json, sys
print("yes" if len({g["errname"] for g in json.load(open(sys.argv[1]))["groups"]}) > 1 else "no")' "$T/ok.out")"
t_ok "report --errors --errno EEXIST" "$KMAG" report --errors --errno EEXIST -F json "$R"
t_eq "report --errors --errno: the same groups as errors --errno" \
	"$("$KMAG" errors --errno EEXIST -F json "$R")" "$(cat "$T/ok.out")"

# --- replay: the chains to each call that returned it, as --errors prints them ---
t_ok "replay --errno ENOTTY" "$KMAG" replay --errno ENOTTY "$R"
t_grep "replay: the failed ioctl" '__x64_sys_ioctl\(\); /\* = -25 ENOTTY \*/' "$T/ok.out"
t_eq "replay: that one call alone (its callee fdget returned no error)" 1 "$(wc -l <"$T/ok.out")"
t_ok "replay --errno EEXIST" "$KMAG" replay --errno EEXIST "$R"
t_grep "replay: the error's chain, callers first" '^.*__x64_sys_mkdir\(\) \{$' "$T/ok.out"
t_nogrep "replay: no call that returned another errno" '= -(2|9|25|95) ' "$T/ok.out"

# --- bad input: one line naming the cause ---
t_exit "--errno EINVL: exit 2" 2 "$KMAG" report --errno EINVL "$R"
t_grep "--errno EINVL: did you mean EINVAL?" '--errno: "EINVL" is no errno name; did you mean EINVAL' "$T/err"
t_exit "replay --errno enoent2: exit 2" 2 "$KMAG" replay --errno enoentt "$R"
t_grep "replay --errno enoentt: did you mean ENOENT?" 'did you mean ENOENT' "$T/err"
t_exit "errors --errno 0: exit 2" 2 "$KMAG" errors --errno 0 "$R"
t_grep "--errno 0: says what it takes" '"0" is no error number: give 1 to 4095' "$T/err"
t_exit "report --errno 99999: exit 2" 2 "$KMAG" report --errno 99999 "$R"
t_exit "report --errno EINVAL where none returned it: exit 1" 1 "$KMAG" report --errno EINVAL "$R"
t_grep "... names the errors it has" 'no call in .* returned -22 EINVAL \(--errno\); its calls returned ENOENT, EBADF, .*EEXIST' "$T/err"
t_exit "errors --errno EINVAL where none returned it: exit 1" 1 "$KMAG" errors --errno EINVAL "$R"
t_exit "replay --errno EINVAL where none returned it: exit 1" 1 "$KMAG" replay --errno EINVAL "$R"
t_grep "... replay says so" 'no call in .* returned -22 EINVAL \(--errno\)' "$T/err"
# traces without return values (6.1, 6.12, the function tracer)
for f in fg-text-6.12.txt fg-filtered.dat fn-text.txt; do
	p=$(fixture_trace "$f")
	for c in report errors replay; do
		t_exit "$c --errno EINVAL on $f (no return values): exit 1" 1 "$KMAG" "$c" --errno EINVAL "$p"
		t_grep "$c, $f: says it needs funcgraph-retval, Linux 6.5+" \
			'(no return values|records no return values).*funcgraph-retval.*Linux 6\.5\+' "$T/err"
	done
done
"$KMAG" report -F json "$R" >"$T/profile.json"
t_exit "report --errno on a profile (sums, no calls): exit 1" 1 "$KMAG" report --errno ENOENT "$T/profile.json"
t_grep "... says it needs a trace's calls" 'is a profile .*--errno needs a trace' "$T/err"
t_done
