#!/bin/bash
# SPDX-License-Identifier: MIT
# t0440-tracer-cost-vm.sh [6.1|6.19] - the tracer's cost per traced call,
# measured by kmag record in a QEMU guest and taken off the times (issue 27):
# `dd if=/dev/zero of=/dev/null bs=64 count=20000` recorded shallow (-g
# ksys_read --max-graph-depth 1: ksys_read alone) and deep (-g ksys_read:
# its whole subtree); the issue asks the deep recording's corrected ksys_read
# to lie within 20% of the shallow one's, where the kernel's (--raw-times) is
# far off. On 6.19 with return values and call sites (the defaults), and with
# --args. Checked: the recordings, the cost each carries, the kernel's deep
# median far off, the corrected median and mean within 20% of the shallow
# ones, and the corrected mean equal to trace-cmd report's durations less
# the cost of the calls it shows beneath ksys_read (each call never below
# zero). The guest (vm-run.sh --icount 0, one vCPU) counts instructions for
# time, 1 ns each: what the host's load does to QEMU's thread is invisible
# to it (with the host's clock, a call in flight while that thread waited
# for a host CPU ran on for 1 to 37 ms, and the deep recording's mean was 5
# to 9 times the shallow one's, corrected). dd runs SCHED_FIFO there, so
# that kmag's readers wait until it is done instead of running inside its
# reads (without it: 15 reads of 4 to 5 ms, the readers' turns, made the
# deep recording's corrected mean 1.7 times the shallow one's): the one
# vCPU is the workload's own, as `taskset` makes a CPU on hardware
# (bench/README.md has the figures). The guest part is guest-cost.sh; the
# figures go to the TAP comments.
. "$(dirname "$0")/../../e2e/lib.sh"
kernel=${1:-6.1}
here=$(cd "$(dirname "$0")" && pwd)
. "$SRCDIR/tests/vm/lib-host.sh"
vm_require trace-cmd python3 chrt
TB="$SRCDIR/tests/e2e/helpers/traced-beneath.py"
if [ "$kernel" = 6.19 ]; then
	kernel=$(vm_kernel_619) || skip "no Linux 6.19 kernel: set KMAG_KERNEL_619, or build one with tests/vm/kernel/build-kernel.sh (tests/vm/README.md)"
	sets="plain args"
	vm_run_guest "$kernel" 900 "$here/guest-cost.sh" --cpus 1 --icount 0 --bin chrt -- 6.19
else
	sets=plain
	vm_run_guest "$kernel" 900 "$here/guest-cost.sh" --cpus 1 --icount 0 --bin chrt -- 6.1
fi

# KMAG_VM_KEEP=DIR keeps the guest's files (the figures of bench/README.md)
[ -n "${KMAG_VM_KEEP:-}" ] && rm -rf "$KMAG_VM_KEEP" && cp -r "$O" "$KMAG_VM_KEEP"
t_eq "calibrate-only: exits 0" 0 "$(cat "$O/cal.rc" 2>/dev/null)"
t_grep "calibrate-only: ns per traced call, with its quartiles" \
	'^function_graph( with [a-z,]+)?: [0-9]+ ns per traced call \(quartiles [0-9]+ to [0-9]+ ns' "$O/cal.txt"
sed 's/^/# /' "$O/cal.txt"
# each set of options the kernel has is measured, the others said and skipped
if [ "$sets" = plain ]; then
	t_eq "calibrate-only on 6.1: one set measured (no call sites, no arguments here)" 1 \
		"$(grep -Ec '^function_graph( with [a-z,]+)?: [0-9]+ ns per traced call' "$O/cal.txt")"
	t_grep "... call sites skipped, saying why" \
		'^function_graph with retaddr: skipped: this kernel has no options/funcgraph-retaddr' "$O/cal.txt"
	t_grep "... arguments skipped, saying why" '^function_graph with args: skipped: .*funcgraph-args' "$O/cal.txt"
else
	t_eq "calibrate-only on 6.19: three sets measured, none skipped" "3 0" \
		"$(grep -Ec '^function_graph( with [a-z,]+)?: [0-9]+ ns per traced call' "$O/cal.txt") $(grep -c 'skipped' "$O/cal.txt")"
fi

# field NAME.dat FIELD [OPTION]: FIELD of ksys_read in report's JSON
field() {
	"$KMAG" report "$O/$1" -F json ${3:-} 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
if sys.argv[1] == "cost":
    print(d["tracer_cost_ns"]); sys.exit()
print([f for f in d["functions"] if f["name"] == "ksys_read"][0][sys.argv[1]])' "$2" 2>/dev/null
}
# within DESC A B: a check that A lies within 20% of B
within() {
	t_ok "$1" python3 -c 'import sys; a, b = map(float, sys.argv[1:]); sys.exit(not abs(a - b) <= 0.2 * b)' "$2" "$3"
}
# median NAME.dat KEY: the median of KEY over the ksys_read calls of replay's JSON
median() {
	"$KMAG" replay "$O/$1" -F json 2>/dev/null | python3 -c '
import json, sys
v = sorted(c[sys.argv[1]] for c in map(json.loads, sys.stdin)
           if c["function"] == "ksys_read" and c.get(sys.argv[1]) is not None)
print(v[len(v) // 2] if v else 0)' "$2" 2>/dev/null
}
for s in $sets; do
	for k in shallow deep; do
		t_eq "$s-$k: kmag record exits 0" 0 "$(cat "$O/$s-$k.rc" 2>/dev/null)"
		t_ok "$s-$k: no event lost (the ring held the recording while dd had the CPU)" \
			bash -c '! grep -q "events lost" "$1"' _ "$O/$s-$k.log"
	done
	t_grep "$s-deep: kmag record says what it measured" \
		"^kmag: the tracer's cost, taken off the times: [0-9]+ ns per traced call" "$O/$s-deep.log"
	cost=$(field $s-deep.dat cost)
	shallow=$(field $s-shallow.dat avg_ns --raw-times)
	raw=$(field $s-deep.dat avg_ns --raw-times)
	cor=$(field $s-deep.dat avg_ns)
	echo "# $s: cost $cost ns per traced call; ksys_read mean: shallow $shallow ns, deep $raw ns, deep corrected $cor ns"
	# medians of the calls: the shallow one's kernel durations, the deep one's kernel and corrected ones
	ms=$(median $s-shallow.dat duration_ns)
	md=$(median $s-deep.dat duration_ns)
	mc=$(median $s-deep.dat corrected_ns)
	echo "# $s: ksys_read median: shallow $ms ns, deep $md ns, deep corrected $mc ns"
	t_ok "$s: the kernel's deep median is far off the shallow one (more than 20%): $md vs $ms ns" \
		python3 -c 'import sys; r, s = map(float, sys.argv[1:]); sys.exit(not r > 1.2 * s)' "$md" "$ms"
	t_ok "$s: the kernel's deep mean is far off the shallow one (more than 20%): $raw vs $shallow ns" \
		python3 -c 'import sys; r, s = map(float, sys.argv[1:]); sys.exit(not r > 1.2 * s)' "$raw" "$shallow"
	within "$s: the corrected deep median lies within 20% of the shallow one: $mc vs $ms ns" "$mc" "$ms"
	within "$s: the corrected deep mean lies within 20% of the shallow one: $cor vs $shallow ns" "$cor" "$shallow"
	t_ok "$s: the deep recording carries a cost" test "${cost:-0}" -gt 0
	# trace-cmd's own reading: (sum of durations - cost x calls beneath) / calls
	read -r beneath _ calls sum corrected < <(trace-cmd report -R "$O/$s-deep.dat" 2>/dev/null |
		python3 "$TB" ksys_read "${cost:-0}")
	want=$(( corrected / calls ))
	echo "# $s: trace-cmd: $calls calls of ksys_read, $beneath traced calls beneath them"
	t_ok "$s: the corrected mean is trace-cmd's durations less the cost of the $beneath calls it shows beneath ($want ns, within 0.5%)" \
		python3 -c 'import sys; w, c = map(float, sys.argv[1:]); sys.exit(not abs(w - c) <= 0.005 * w)' "$want" "$cor"
done
t_done
