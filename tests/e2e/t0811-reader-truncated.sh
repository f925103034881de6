#!/bin/bash
# A trace.dat cut short gets the same precise message from both readers:
# --reader libtracecmd crashed in tracecmd_close (exit 139) on some. (issue 18, defect 6)
. "$(dirname "$0")/lib.sh"
V6=$(fixture_trace fg-2cpu-v6.dat)
V7=$(fixture_trace fg-filtered.dat)

cut() {
	local src=$1 name=$2 n=$3
	head -c "$n" "$src" >"$T/$name"
}
s6=$(stat -c %s "$V6")
s7=$(stat -c %s "$V7")
# cut inside the last CPU's data, inside the middle of the file, inside the
# last section (v7 keeps its section names last)
cut "$V6" v6-tail.dat $((s6 - 100))
cut "$V6" v6-cpu.dat $((s6 * 9 / 10))
cut "$V6" v6-half.dat $((s6 / 2))
cut "$V7" v7-tail.dat $((s7 - 100))
cut "$V7" v7-half.dat $((s7 / 2))
for f in v6-tail v6-cpu v6-half v7-tail v7-half; do
	t_exit "$f: the built-in reader refuses it" 1 "$KMAG" report "$T/$f.dat"
	t_grep "$f: ... saying where it is cut" 'truncated trace.dat: .*(file cut short|ends at)' "$T/err"
	cp "$T/err" "$T/builtin.err"
	t_can_run "$f: libtracecmd refuses it too" report --reader libtracecmd || continue
	t_exit "$f: libtracecmd refuses it (no crash)" 1 "$KMAG" report --reader libtracecmd "$T/$f.dat"
	t_eq "$f: ... with the same message" "$(cat "$T/builtin.err")" "$(cat "$T/err")"
done
if t_can_run "a whole file still reads with libtracecmd" report --reader libtracecmd; then
	t_ok "a whole file still reads with libtracecmd" "$KMAG" report --reader libtracecmd "$V6"
	t_grep "... with its CPU statistics" 'CPU0 [0-9,]+' "$T/ok.out"
fi
t_done
