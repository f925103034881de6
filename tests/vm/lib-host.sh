# SPDX-License-Identifier: MIT
# tests/vm/lib-host.sh - host side of the VM tests, sourced (bash) by
# tests/vm/record/t0400-record-vm.sh and tests/vm/probes/t0410-probes-vm.sh
# after tests/e2e/lib.sh: vm_require skips a test without the VM tools,
# vm_run_guest boots the guest through tests/vm/vm-run.sh and turns what the
# guest helpers (tests/vm/lib-guest.sh) wrote into TAP lines. The guest's
# output directory is $O.
vmrun=$SRCDIR/tests/vm/vm-run.sh
O=$T/out

skip() { echo "1..0 # SKIP $*"; exit 0; }

# vm_require TOOL...: skip the test unless vm-run.sh, qemu, cpio, a static
# busybox and every TOOL are there
vm_require() {
	local tool
	[ -x "$vmrun" ] || skip "tests/vm/vm-run.sh is not in this tree"
	for tool in qemu-system-x86_64 cpio "$@"; do
		command -v "$tool" >/dev/null || skip "$tool is not installed (scripts/deps.sh --test)"
	done
	[ -x "${KMAG_VM_BUSYBOX:-/bin/busybox}" ] || skip "busybox-static is not installed (scripts/deps.sh --test)"
}

# vm_run_guest KERNEL TIMEOUT GUEST.sh [VM-RUN-OPTION...] [-- GUEST-ARG...]:
# boot the Debian KERNEL (2 vCPUs, 1 GiB, at most TIMEOUT seconds) with kmag,
# lib-guest.sh and the tracefs snapshot script in /kmag, and run
# `sh /kmag/GUEST.sh GUEST-ARG...` there; VM-RUN-OPTIONs add to vm-run.sh's
# options (--bin, --file). One check for the boot, then one for every line
# of the guest's results. If the kernel cannot be had, the test is skipped;
# if the VM fails, the test fails and ends here.
vm_run_guest() {
	local kernel=$1 timeout=$2 guest=$3 opts=() arg
	shift 3
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		opts+=("$1")
		shift
	done
	[ $# -gt 0 ] && shift
	{
		printf '#!/bin/sh\nexec sh /kmag/%s' "${guest##*/}"
		for arg in "$@"; do printf ' %s' "$arg"; done
		printf '\n'
	} >"$T/guest.sh"
	if ! "$vmrun" --kernel "$kernel" --cpus 2 --mem 1024 --timeout "$timeout" \
		--bin "$KMAG" "${opts[@]}" \
		--file "$SRCDIR/tests/lib/tracefs-snapshot.sh:/kmag/snap.sh" \
		--file "$SRCDIR/tests/vm/lib-guest.sh:/kmag/lib-guest.sh" \
		--file "$guest:/kmag/${guest##*/}" \
		--script "$T/guest.sh" --out "$O" >"$T/vm.log" 2>&1; then
		if grep -q "cannot resolve kernel package\|apt-get download.*failed" "$T/vm.log"; then
			skip "the Debian $kernel kernel is neither cached nor downloadable"
		fi
		t_fail "the VM ran the recordings" "$(tail -n 5 "$T/vm.log")" \
			"$(tail -n 20 "$O/guest.log" 2>/dev/null)"
		t_done
		exit 1
	fi
	t_pass "the VM ran the recordings ($(cat "$O/kernel.txt"))"

	# the guest's own checks (tracefs snapshots)
	local line
	while read -r line; do
		case $line in
		"ok - "*) t_pass "${line#ok - }" ;;
		*) t_fail "${line#not ok - }" ;;
		esac
	done <"$O/results"
}

# vm_kernel_619: the path of the Linux 6.19 bzImage of the VM tests, or
# status 1: $KMAG_KERNEL_619, else what tests/vm/kernel/build-kernel.sh
# installs (${KMAG_VM_CACHE:-$HOME/.cache/kmag/vm}/linux-6.19/vmlinuz), else
# ../shared/kernels/vmlinuz-6.19.0 beside the source tree (for a git
# worktree: beside the main checkout)
vm_kernel_619() {
	local k common
	common=$(git -C "$SRCDIR" rev-parse --path-format=absolute --git-common-dir 2>/dev/null)
	for k in "${KMAG_KERNEL_619:-}" "${KMAG_VM_CACHE:-$HOME/.cache/kmag/vm}/linux-6.19/vmlinuz" \
		"$SRCDIR/../shared/kernels/vmlinuz-6.19.0" \
		${common:+"$(dirname "$common")/../shared/kernels/vmlinuz-6.19.0"}; do
		[ -n "$k" ] && [ -f "$k" ] && { echo "$k"; return 0; }
	done
	return 1
}
