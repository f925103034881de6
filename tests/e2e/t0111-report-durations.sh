#!/bin/bash
# SPDX-License-Identifier: MIT
# t0111 - report's views built on call durations refuse a function-tracer
# trace (it records no durations) with one line and exit 1, as visualize
# --heat total does (issue 18, defect 7: --sort total sorted by nothing and
# --slowest printed its message on stdout with exit 0). Calls, incomplete and
# name sorting work on every trace. Also: --callers -n N says what it cut, and
# a recursive function's Avg is the mean of its calls.
. "$(dirname "$0")/lib.sh"
FN=$TRACES/fn-filtered.dat
FG=$TRACES/fg-filtered.dat

for key in total self avg max min; do
	t_exit "function tracer: --sort $key is refused" 1 "$KMAG" report --sort "$key" "$FN"
	t_grep "function tracer: --sort $key says why" "--sort $key needs call durations" "$T/err"
	t_eq "function tracer: --sort $key prints no table" 0 "$(wc -c <"$T/out")"
	t_exit "function_graph: --sort $key works" 0 "$KMAG" report --sort "$key" "$FG"
done
for key in calls incomplete name; do
	t_exit "function tracer: --sort $key works" 0 "$KMAG" report --sort "$key" "$FN"
done
t_exit "function tracer text: --sort total is refused" 1 "$KMAG" report --sort total "$TRACES/fn-text.txt"
t_exit "function tracer: --slowest is refused" 1 "$KMAG" report --slowest 3 "$FN"
t_grep "--slowest says why, on stderr" '--slowest needs call durations' "$T/err"
t_eq "--slowest writes nothing to stdout" 0 "$(wc -c <"$T/out")"
t_exit "function_graph: --slowest works" 0 "$KMAG" report --slowest 3 "$FG"

# --callers/--callees -n N says what it cut, as the functions table does
t_exit "--callers --limit 2" 0 "$KMAG" report --callers _raw_spin_lock --limit 2 "$FG"
t_eq "two caller rows" 2 "$(grep -vc '^#' "$T/out")"
all=$("$KMAG" report --callers _raw_spin_lock --limit 0 "$FG" | grep -vc '^#')
t_grep "the cut is said" "^# \.\.\. $((all - 2)) more callers \(use --limit 0 to see all\)" "$T/out"
t_exit "--callees --limit 0 shows all" 0 "$KMAG" report --callees vfs_write --limit 0 "$FG"
t_nogrep "no cut, no footer" 'more callees' "$T/out"

# Avg is the mean of all calls, Total the outermost call of a recursion (issue 23):
# f 10 us calling f 4 us is 2 calls, Total 10 us, Avg 7 us (not 10 / 2)
printf '# tracer: function_graph\n#\n%s\n%s\n%s\n' \
	' 0)    cat-7    |               |  f() {' \
	' 0)    cat-7    |   4.000 us    |    f();' \
	' 0)    cat-7    | + 10.000 us   |  }' >"$T/rec.txt"
t_exit "recursion: report" 0 "$KMAG" report "$T/rec.txt"
t_grep "text: Total 10 us, Avg 7 us" '^ +2 +10\.000 us +10\.000 us +7\.000 us +10\.000 us +0  f$' "$T/out"
t_exit "recursion: csv" 0 "$KMAG" report -F csv "$T/rec.txt"
# p50 of its calls (4 us, 10 us) is the shorter, p90 and p99 the longer (nearest rank)
t_grep "csv: total_ns 10000, avg_ns 7000, p50 4000, p90 and p99 10000" '^f,2,10000,10000,7000,4000,10000,4000,10000,10000,0,$' "$T/out"
t_exit "recursion: json" 0 "$KMAG" report -F json "$T/rec.txt"
t_eq "json: total_ns 10000, avg_ns 7000, sum_ns 14000" "10000 7000 14000" \
	"$(python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["functions"][0]; print(f["total_ns"], f["avg_ns"], f["sum_ns"])' "$T/out")"
t_exit "recursion: --sort avg" 0 "$KMAG" report --sort avg "$T/rec.txt"
t_done
