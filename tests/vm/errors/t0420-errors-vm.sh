#!/bin/bash
# SPDX-License-Identifier: MIT
# t0420-errors-vm.sh - `kmag errors` on Linux 6.19 in a QEMU guest: a workload
# with known failures (tests/vm/guest/wl.sh errors: ENOENT, EEXIST, EBADF,
# ENOTTY) recorded by Debian's trace-cmd with function_graph and
# funcgraph-retval; kmag's origins are checked against an independent replay
# of `trace-cmd report -R` (tests/e2e/helpers/fg-errors.py --raw), and each
# against the 6.19 source (why the kernel fails there: see
# tests/e2e/t0880-errors.sh, which checks the same four on the fixtures).
# The kernel: $KMAG_KERNEL_619, else ../shared/kernels/vmlinuz-6.19.0 beside
# the source tree, else the VM cache's 6.19/vmlinuz; skipped without one.
. "$(dirname "$0")/../../e2e/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
. "$SRCDIR/tests/vm/lib-host.sh"
vm_require trace-cmd
kernel=""
for k in "${KMAG_KERNEL_619:-}" "$SRCDIR/../shared/kernels/vmlinuz-6.19.0" \
	"${KMAG_VM_CACHE:-$HOME/.cache/kmag/vm}/6.19/vmlinuz"; do
	[ -n "$k" ] && [ -f "$k" ] && { kernel=$k; break; }
done
[ -n "$kernel" ] || skip "no Linux 6.19 kernel (set KMAG_KERNEL_619 or build one with tests/vm/kernel)"
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
t_done
