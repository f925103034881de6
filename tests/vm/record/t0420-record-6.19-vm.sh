#!/bin/bash
# SPDX-License-Identifier: MIT
# t0420-record-6.19-vm.sh - `kmag record` on Linux 6.19 in a QEMU guest: the
# recordings carry return values (funcgraph_exit retval) and call sites
# (fgraph_retaddr_entry), with --args the arguments; trace-cmd reads them with
# kmag's event count; the kernel's BTF is stored (trace.dat v7 BTF_FILE); and
# tracefs, tracer options included, is put back exactly, also after a SIGKILL.
# The guest part is guest-record-6.19.sh. Needs the 6.19 bzImage
# (tests/vm/kernel/build-kernel.sh builds it; see tests/vm/README.md for where
# it is looked for): skipped without it. Output is TAP.
. "$(dirname "$0")/../../e2e/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
. "$SRCDIR/tests/vm/lib-host.sh"
vm_require trace-cmd python3
kernel=$(vm_kernel_619) || skip "no Linux 6.19 kernel: set KMAG_KERNEL_619, or build one with tests/vm/kernel/build-kernel.sh (tests/vm/README.md)"

vm_run_guest "$kernel" 600 "$here/guest-record-6.19.sh" --bin trace-cmd \
	--file "$here/wl.sh:/kmag/wl.sh"

. "$SRCDIR/tests/lib/record-checks.sh"
raw() { trace-cmd report -R "$O/$1.dat" 2>/dev/null; }
# nr NAME EVENT: records of EVENT in NAME.dat
nr() { raw "$1" | grep -c " $2: "; }

for n in fg fg-args fn-args fg-top after-kill; do
	t_eq "$n: kmag record exits 0" 0 "$(cat "$O/$n.rc" 2>/dev/null)"
	check_counts "$n" "$O/$n.dat" "$O/$n.log"
done

# the defaults: call sites and return values, in a private instance
t_grep "fg: records in a private instance, with return values and call sites" \
	'tracefs instance kmag-[0-9]+; with return values, call sites\)' "$O/fg.log"
t_ok "fg: entries are fgraph_retaddr_entry events (call sites)" test "$(nr fg fgraph_retaddr_entry)" -gt 0
t_eq "fg: no plain funcgraph_entry events" 0 "$(nr fg funcgraph_entry)"
t_ok "fg: some funcgraph_exit events carry a non-zero retval" \
	grep -qE ' funcgraph_exit: .* retval=[1-9a-f]' <(raw fg)
t_ok "fg: call sites name their caller" grep -qE ' fgraph_retaddr_entry: .* retaddr=[a-z_]' <(raw fg)

# arguments, counted in the ring-buffer pages (ftrace-records.py: NAME RECORDS WITH_ARGS)
recs() { python3 "$here/ftrace-records.py" "$O/$1.dat" 2>&1 | awk -v e="$2" '$1 == e { print $2, $3 }'; }
read -r n a <<<"$(recs fg-args fgraph_retaddr_entry)"
t_ok "fg-args: --args: every entry carries arguments ($a of $n)" test "${n:-0}" -gt 0 -a "$a" = "$n"
t_grep "fg-args: the start line says so" 'with return values, call sites, arguments\)' "$O/fg-args.log"
read -r n a <<<"$(recs fn-args function)"
t_ok "fn-args: --args with the function tracer (func-args): $a of $n calls with arguments" \
	test "${n:-0}" -gt 0 -a "$a" = "$n"

# --no-retaddr at the top level, over funcgraph-retaddr and funcgraph-args left on
t_grep "fg-top: the top level, with return values only" 'top-level; with return values\)' "$O/fg-top.log"
read -r n a <<<"$(recs fg-top funcgraph_entry)"
t_ok "fg-top: --no-retaddr gives funcgraph_entry records, without arguments (kmag turned them off): $a of $n" \
	test "${n:-0}" -gt 0 -a "$a" = 0
t_eq "fg-top: no fgraph_retaddr_entry" 0 "$(nr fg-top fgraph_retaddr_entry)"
t_grep "after-kill: the top level the killed run changed is restored" \
	'restored the top-level tracefs settings \([0-9]+ files\) left changed by a kmag run that was killed' \
	"$O/after-kill.log"

# BTF: trace-cmd 3.4's BTF_FILE option (id 23), which trace-cmd 3.1.6 skips
t_grep "fg: trace-cmd 3.1.6 (in the guest) skips the BTF_FILE option (23) and reads the rest" \
	'^ *23 8[[:space:]]+\[Unknown option' "$O/fg-dump.txt"
for n in fg fg-args; do
	trace-cmd dump --options "$O/$n.dat" >"$T/opts" 2>&1
	t_eq "$n: trace-cmd dump --options reads the file" 0 $?
	t_grep "$n: one BTF_FILE option" '^ *23 8' "$T/opts"
done
size=$(python3 - "$O/fg-args.dat" <<'PY'
import struct, sys
# uncompressed v7: the BTF (magic 0xeb9f, version 1) right after its section
# header {u16 id 23, u16 flags 0, u32 name, u64 size}
data = open(sys.argv[1], "rb").read()
i = data.find(b"\x9f\xeb\x01\x00")
while i >= 16:
    sid, flags, _, size = struct.unpack_from("<HHIQ", data, i - 16)
    if sid == 23 and flags == 0:
        print(size)
        break
    i = data.find(b"\x9f\xeb\x01\x00", i + 1)
PY
)
t_eq "fg-args: the BTF section holds /sys/kernel/btf/vmlinux (its size)" "$(cat "$O/btf.size")" "$size"
t_done
