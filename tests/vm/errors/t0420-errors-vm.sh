#!/bin/bash
# SPDX-License-Identifier: MIT
# t0420-errors-vm.sh - `kmag errors` on Linux 6.19 in a QEMU guest: a workload
# with known failures (tests/vm/guest/wl.sh errors: ENOENT, EEXIST, EBADF,
# ENOTTY) recorded by Debian's trace-cmd with function_graph and
# funcgraph-retval; kmag's origins are checked against an independent replay
# of `trace-cmd report -R` (tests/e2e/helpers/fg-errors.py --raw), and each
# against the 6.19 source (why the kernel fails there: see
# tests/e2e/t0880-errors.sh, which checks the same four on the fixtures).
# Then kmag's own recording with arguments and call sites (one round, dd
# bs=12345): vfs_write's count is the workload's block size, named from the
# BTF kmag stored; ksys_write's call sites of vfs_write are lines inside
# ksys_write by binutils' addr2line on the kernel's vmlinux (with DWARF:
# ../shared/kernels/vmlinux-6.19.0.xz or $KMAG_SHARED_KERNELS; those checks
# are skipped without it).
# The kernel: what vm_kernel_619 finds (lib-host.sh); skipped without one.
. "$(dirname "$0")/../../e2e/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
. "$SRCDIR/tests/vm/lib-host.sh"
vm_require trace-cmd
kernel=$(vm_kernel_619) || skip "no Linux 6.19 kernel: set KMAG_KERNEL_619, or build one with tests/vm/kernel/build-kernel.sh (tests/vm/README.md)"
H="$SRCDIR/tests/e2e/helpers/fg-errors.py"

vm_run_guest "$kernel" 1200 "$here/guest-errors.sh" --bin /usr/bin/trace-cmd \
	--file "$SRCDIR/tests/vm/guest/wl.sh:/kmag/wl.sh"
t_eq "trace-cmd record of the failing workload exits 0" 0 "$(cat "$O/errors.rc")"
t_grep "the guest runs Linux 6.19" '^6\.19' "$O/kernel.txt"

trace-cmd report -R "$O/errors.dat" >"$T/raw" 2>/dev/null
python3 "$H" --raw "$T/raw" >"$T/kernel"
sed 's/^/# trace-cmd: /' "$T/kernel"
t_ok "kmag errors --format json" "$KMAG" errors --format json "$O/errors.dat"
cp "$T/ok.out" "$T/json"
t_ok "the JSON is well-formed" python3 -m json.tool "$T/json"
nosrc() { sed 1s'/"source":"[^"]*",//' "$1"; }
t_eq "kmag in the guest gives the same answer (but for the file's path)" "$(nosrc "$T/json")" \
	"$(nosrc "$O/errors-guest.json")"

# per (entry, errno): the origins of the failed system calls, as trace-cmd's
# events show them and as kmag names them
origins() { grep "^$1 $2 " "$T/kernel" | cut -d' ' -f3 | sort | uniq -c | tr -s ' ' | tr '\n' ';'; }
kmag_origins() {
	python3 -c '
import json, sys
for g in json.load(open(sys.argv[1]))["groups"]:
    if g["entry"] == sys.argv[2] and g["errno"] == int(sys.argv[3]):
        for _ in range(g["entry_returned"]):
            print(g["origin"])' "$T/json" "$1" "$2" | sort | uniq -c | tr -s ' ' | tr '\n' ';'
}
check() { # ENTRY ERRNO ORIGIN WHY
	local want got
	want=$(origins "$1" "$2")
	got=$(kmag_origins "$1" "$2")
	t_eq "$1 $2: kmag names the origins trace-cmd's events show" "$want" "$got"
	case $want in
	*" $3;"*) t_pass "$1 $2: born in $3 ($4)" ;;
	*) t_fail "$1 $2: born in $3 ($4)" "trace-cmd's events show: $want" ;;
	esac
}
# two rounds: each failure at least twice
check __x64_sys_openat -2 link_path_walk \
	"step_into_slowpath's traverse_mounts() found the dentry negative, ERR_PTR(-ENOENT) went to path_openat, whose next link_path_walk(ERR_PTR) returns PTR_ERR(name)"
check __x64_sys_mkdir -17 lookup_one_qstr_excl "the dentry is positive and LOOKUP_EXCL set: ERR_PTR(-EEXIST)"
check ksys_write -9 vfs_write "vfs_write: !(file->f_mode & FMODE_WRITE) -> -EBADF"
check __x64_sys_ioctl -25 __x64_sys_ioctl "vfs_ioctl (inlined): a shmem file has no ->unlocked_ioctl -> -ENOTTY"
# with the guest kernel's own BTF: void and bool functions' registers no
# longer read as errors, the failed system calls keep their origins
if t_has_feature btf && [ -s "$O/vmlinux.btf" ]; then
	t_ok "kmag errors --btf (the guest's /sys/kernel/btf/vmlinux)" \
		"$KMAG" errors --format json --btf "$O/vmlinux.btf" "$O/errors.dat"
	cp "$T/ok.out" "$T/json"
	for p in '__x64_sys_openat -2' '__x64_sys_mkdir -17' 'ksys_write -9' '__x64_sys_ioctl -25'; do
		# shellcheck disable=SC2086
		t_eq "--btf: $p: the same origins as trace-cmd's events show" "$(origins $p)" "$(kmag_origins $p)"
	done
	# void in the 6.19 source (kernel/rcu/tree_stall.h, kernel/rcu/tree.c,
	# kernel/locking/rwsem.c): never an origin once the types are known
	t_eq "--btf: no void function (rcu_stall_kick_kthreads, rcu_gpnum_ovf, note_gp_changes, down_read) is an origin" \
		"" "$(python3 -c '
import json, sys
void = {"rcu_stall_kick_kthreads", "rcu_gpnum_ovf", "note_gp_changes", "down_read"}
print(" ".join(sorted({g["origin"] for g in json.load(open(sys.argv[1]))["groups"]} & void)))' "$T/json")"
else
	t_skip "kmag errors --btf in the VM" "no btf feature or no BTF in the guest"
fi
for p in '__x64_sys_openat -2' '__x64_sys_mkdir -17' 'ksys_write -9' '__x64_sys_ioctl -25'; do
	n=$(grep -c "^$p " "$T/kernel")
	if [ "$n" -ge 2 ]; then t_pass "$p: the workload's two rounds failed ($n times)"; else
		t_fail "$p: the workload's two rounds failed" "$n times in trace-cmd's events"; fi
done
# --- kmag record --args: arguments named from the stored BTF, call sites as lines ---
t_eq "kmag record --args of one round (dd bs=12345) exits 0" 0 "$(cat "$O/args.rc")"
if t_has_feature btf; then
	t_ok "report --comm dd --arg vfs_write:count" "$KMAG" report --comm dd --arg vfs_write:count \
		-F json "$O/args.dat"
	t_eq "dd's block size reaches vfs_write's count, named from the trace's BTF" "true 12345" \
		"$(python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))["args"][0]
print(str(a["named"]).lower(), " ".join(str(t["value"]) for t in a["top"] if t["value"] == 12345))' "$T/ok.out")"
else
	t_skip "vfs_write's count named" "this kmag was built without btf"
fi
xzv=""
for d in "${KMAG_SHARED_KERNELS:-}" "$SRCDIR/../shared/kernels" "$SRCDIR/../../shared/kernels"; do
	[ -n "$d" ] && [ -f "$d/vmlinux-6.19.0.xz" ] && { xzv=$d/vmlinux-6.19.0.xz; break; }
done
if [ -n "$xzv" ] && t_has_feature libdw && command -v addr2line >/dev/null; then
	xz -dc "$xzv" >"$T/vmlinux"
	t_ok "replay --vmlinux -F json" "$KMAG" replay --vmlinux "$T/vmlinux" -F json -o "$T/r.json" "$O/args.dat"
	grep '"function":"vfs_write"' "$T/r.json" | grep -oE '"call_site":"ksys_write[^"]*","call_site_line":"[^"]*"' |
		sort -u >"$T/sites"
	base=$(nm "$T/vmlinux" | awk '$3 == "ksys_write" {print $1; exit}')
	checked=0
	while read -r site; do
		off=$(sed -E 's/.*"call_site":"ksys_write\+(0x[0-9a-f]+)".*/\1/' <<<"$site")
		line=$(sed -E 's/.*"call_site_line":"([^"]*)".*/\1/' <<<"$site")
		# the call instruction is the byte before the return address
		mapfile -t a2l < <(addr2line -f -e "$T/vmlinux" "$(printf '%x' $((0x$base + off - 1)))")
		t_eq "ksys_write+$off: a line inside ksys_write (addr2line)" ksys_write "${a2l[0]}"
		case "${a2l[1]}" in
		*/"$line") t_pass "ksys_write+$off: kmag's line $line is addr2line's" ;;
		*) t_fail "ksys_write+$off: kmag's line is addr2line's" "kmag: $line" "addr2line: ${a2l[1]}" ;;
		esac
		checked=$((checked + 1))
	done <"$T/sites"
	t_ok "vfs_write's call sites in ksys_write found and checked" test "$checked" -gt 0
else
	t_skip "call site lines" "no vmlinux-6.19.0.xz, libdw or addr2line"
fi
t_done
