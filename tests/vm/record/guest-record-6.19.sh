#!/bin/sh
# SPDX-License-Identifier: MIT
# guest-record-6.19.sh - the recordings of the Linux 6.19 VM test, run inside
# the test VM (busybox sh) by tests/vm/record/t0420-record-6.19-vm.sh, which
# checks the files on the host. 6.19 has what older kernels lack: return
# values (funcgraph-retval), call sites (funcgraph-retaddr), arguments
# (funcgraph-args, func-args), tracer options of their own in each instance,
# and BTF. Writes into $OUT:
#   NAME.dat, NAME.log (kmag's stderr), NAME.rc    one recording each
#   btf.size            bytes of /sys/kernel/btf/vmlinux
#   snap-*.txt, results (tracefs snapshots, guest-side checks)
# The helpers (pass, fail, snap, same_as_base, rec, ...) are in
# tests/vm/lib-guest.sh.
. /kmag/lib-guest.sh
wc -c </sys/kernel/btf/vmlinux | tr -d ' ' >btf.size
# allocate the top-level buffer as any use does, so that snapshots compare
# (guest-record.sh checks that first use on its own)
v=$(sed -n 's/.*expanded: \([0-9]*\).*/\1/p' $T/buffer_size_kb)
[ -n "$v" ] && echo "$v" >$T/buffer_size_kb
snap base

# few patched functions keep function_graph fast under emulation
G_LIMIT="-l ksys_* -l vfs_* -l *_read_iter -l *_write_iter -l *fdget* -l *_openat*"
set -f

# the defaults: return values and call sites, in a private instance
rec fg -p function_graph $G_LIMIT -- /kmag/wl.sh basic 1
# arguments on request
rec fg-args -p function_graph $G_LIMIT --args --file-version 7 --compression none -- /kmag/wl.sh basic 1
# the function tracer's arguments
rec fn-args -p function -l 'vfs_*' --args --file-version 7 --compression none -- /kmag/wl.sh basic 1
# opting out, at the top level, over options someone else left on (v6)
echo 1 >$T/options/funcgraph-retaddr
echo 1 >$T/options/funcgraph-args
snap base
rec fg-top --top-instance -p function_graph $G_LIMIT --no-retaddr --file-version 7 --compression none \
	-- /kmag/wl.sh basic 1
# killed at the top level with the options changed: the next run restores them
rec_bg kill-top --top-instance -p function_graph $G_LIMIT --args
kill -9 $k
wait $k
echo $? >kill-top.rc
# (a function-tracer recording without a command, i.e. with
# set_ftrace_notrace_pid, crashes this 6.19 build: NULL call from vfs_read)
rec after-kill -p function_graph $G_LIMIT -- /kmag/wl.sh basic 1
echo 0 >$T/options/funcgraph-retaddr
echo 0 >$T/options/funcgraph-args
snap base
# trace-cmd's reading of kmag's file in the guest (the same 3.1.6 as on the host)
trace-cmd dump --options fg.dat >fg-dump.txt 2>&1
exit 0
