# SPDX-License-Identifier: MIT
# tests/vm/errors/guest-errors.sh - guest side of t0420-errors-vm.sh (Linux
# 6.19, busybox sh): the failing workload `wl.sh errors 2` (open of a missing
# file, mkdir of an existing directory, write to a read-only descriptor, an
# ioctl a tmpfs file does not support) under Debian's trace-cmd with
# function_graph and funcgraph-retval on its system calls. Writes errors.dat,
# errors.rc and errors.log into $OUT for the host to check. Then kmag records
# one round with arguments and call sites (funcgraph-args, -retaddr, -retval),
# the dd writing 12345 bytes: args.dat, args.rc.
. /kmag/lib-guest.sh
trace-cmd record -p function_graph -O funcgraph-retval \
	-g __x64_sys_openat -g __x64_sys_mkdir -g __x64_sys_mkdirat -g ksys_write -g __x64_sys_ioctl \
	-o errors.dat sh /kmag/wl.sh errors 2 >errors.log 2>&1
echo $? >errors.rc
# the running kernel's BTF, for the return types
cp /sys/kernel/btf/vmlinux vmlinux.btf 2>>errors.log
# kmag in the guest too: the same answer where the trace was made
kmag errors --format json errors.dat >errors-guest.json 2>>errors.log
echo $? >errors-guest.rc
# one round, dd bs=12345: vfs_write's count; ksys_write's call sites
kmag record -q -p function_graph --args -g ksys_write -o args.dat \
	-- sh /kmag/wl.sh errors 1 12345 >>errors.log 2>&1
echo $? >args.rc
