#!/bin/sh
# SPDX-License-Identifier: MIT
# guest-record.sh - the recordings of the `kmag record` VM test, run inside the
# test VM (busybox sh) by tests/vm/record/t0400-record-vm.sh, which checks the
# results on the host. Writes into $OUT:
#   NAME.dat, NAME.log (kmag's stderr), NAME.rc, fn-pid.pid (the -P task),
#   snap-*.txt (tracefs snapshots), results (guest-side checks, TAP lines).
# The helpers (pass, fail, snap, same_as_base, rec, ...) are in
# tests/vm/lib-guest.sh.
# Usage: guest-record.sh [full|short]   (short: the 6.12 run, fewer cases)
mode=${1:-full}
. /kmag/lib-guest.sh
cat $T/available_tracers >tracers.txt

# A freshly booted kernel allocates the top-level buffer lazily, on first
# use ("7 (expanded: 1408)"); once a tracer has run there it stays allocated,
# and nothing can undo that. So a top-level recording on a fresh system
# leaves exactly that difference, and nothing else.
snap fresh
kmag record -o fresh.dat --top-instance -p function -l vfs_read -- /kmag/wl.sh basic 1 >fresh.log 2>&1
echo $? >fresh.rc
snap after-fresh
want=$(sed -n 's/^buffer_size_kb: .*expanded: \([0-9]*\).*/\1/p' snap-fresh.txt)
grep -v 'buffer_size_kb:' snap-fresh.txt >snap-fresh-rest.txt
grep -v 'buffer_size_kb:' snap-after-fresh.txt >snap-after-fresh-rest.txt
sizes=$(sed -n 's/^.*buffer_size_kb: \([0-9]*\)|$/\1/p' snap-after-fresh.txt | sort -u | tr '\n' ' ')
if [ -z "$want" ]; then
	fail "fresh: the kernel booted with its top-level buffer already allocated"
elif ! cmp -s snap-fresh-rest.txt snap-after-fresh-rest.txt; then
	fail "fresh: tracefs differs beyond the buffer allocation" \
		"$(diff snap-fresh-rest.txt snap-after-fresh-rest.txt | grep '^[-+][^-+]' | head -4 | tr '\n' ' ')"
elif [ "$(echo $sizes | wc -w)" != 1 ] || [ "${sizes% }" -lt "$want" ] || [ "${sizes% }" -gt $((want + 64)) ]; then
	fail "fresh: the top-level buffer is left at its default size ($want KiB)" "sizes now: $sizes"
else
	pass "fresh: a top-level recording on a fresh kernel only leaves the buffer allocated at its default size ($want KiB)"
fi
# from here on the snapshots compare with the buffer allocated
v=$(sed -n 's/.*expanded: \([0-9]*\).*/\1/p' $T/buffer_size_kb)
[ -n "$v" ] && echo "$v" >$T/buffer_size_kb
snap base

# Limiting the patched functions with -l keeps function_graph fast enough
# under emulation; fg-cmd runs without, as users mostly will.
G_LIMIT="-l ksys_* -l vfs_* -l *_read_iter -l *_write_iter -l *fdget*"

# function tracer, globs, -n, only the command and its children
rec fn-cmd -p function -l 'vfs_*' -l '*_openat*' -n 'vfs_getattr*' \
	-e sched:sched_process_fork -- /kmag/wl.sh basic 2

# function_graph below two roots, depth-limited, only the command
rec fg-cmd -p function_graph -g ksys_read -g ksys_write --max-graph-depth 5 \
	-e sched:sched_process_fork -- /kmag/wl.sh basic 2

# function_graph on CPU 0 only (mask 1) while both CPUs work
taskset 1 /kmag/wl.sh loop &
wl0=$!
taskset 2 /kmag/wl.sh loop &
wl1=$!
set -f
rec fg-cpu0 -p function_graph $G_LIMIT --cpumask 1 -t 3
set +f
kill $wl0 $wl1
wait $wl0 $wl1 2>/dev/null

# tracepoints next to function_graph, with a kernel filter
set -f
rec fg-events -p function_graph -g ksys_write $G_LIMIT -e sched:sched_switch \
	--filter 'prev_pid != 0' -e sched:sched_process_exec -- /kmag/wl.sh basic 1
set +f

# SIGINT in the middle of a recording (function_graph)
set -f
rec_bg fg-sigINT -p function_graph $G_LIMIT -t 0
set +f
/kmag/wl.sh basic 2
rec_stop INT

# SIGKILL, then the next run repairs what was left (killed_then_repaired:
# for the recording rec_bg started, $name and $k)
killed_then_repaired() {
	/kmag/wl.sh basic 1
	kill -KILL $k
	wait $k 2>/dev/null
	snap $name-killed
	if cmp -s snap-base.txt snap-$name-killed.txt; then
		fail "$name: SIGKILL left tracefs unchanged (the test proves nothing)"
	else
		pass "$name: SIGKILL leaves tracefs changed"
	fi
	rec after-$name -p function -l 'vfs_*' -- /kmag/wl.sh basic 1
}
set -f
rec_bg kill-fg -p function_graph $G_LIMIT -t 0
set +f
killed_then_repaired

# --func-list: exact names (one the kernel cannot trace is left out, with a note)
printf 'vfs_read\n# a comment\nvfs_write\nno_such_function_kmag\n' >names.txt
rec fn-names -p function --func-list names.txt -- /kmag/wl.sh basic 1

# --filter-filepath: every traceable function defined in fs/read_write.c,
# found through the fixture symbol map of the 6.1 kernel
if [ "$mode" = full ]; then
	rec fn-path -p function --filter-filepath fs/read_write.c \
		--symbol-file-path /kmag/subset.map -- /kmag/wl.sh basic 1
fi

# tracefs not mounted: kmag mounts it for the recording, and unmounts it again
if umount $T && ! grep -q " $T tracefs" /proc/mounts; then
	kmag record -o no-mount.dat -e sched:sched_switch -t 0.5 >no-mount.log 2>&1
	echo $? >no-mount.rc
	if grep -q " $T tracefs" /proc/mounts; then
		fail "no-mount: tracefs is unmounted again afterwards"
		umount $T
	else
		pass "no-mount: tracefs is unmounted again afterwards"
	fi
	mount -t tracefs tracefs $T
else
	fail "no-mount: cannot unmount tracefs for the test"
fi

# --trigger error= needs return values (Linux 6.5+): on a kernel whose
# funcgraph_exit has none (6.1) it is refused before anything is touched
if ! grep -q ' retval;' $T/events/ftrace/funcgraph_exit/format; then
	kmag record -p function_graph -g do_sys_openat2 --flight 1M \
		--trigger error=ENOENT@do_sys_openat2 -o noretval.dat -- true >noretval.log 2>&1
	rc=$?
	if [ $rc = 1 ] && [ ! -e noretval.dat ] &&
		grep -q 'kmag: .*--trigger "error=ENOENT@do_sys_openat2" needs return values, which this kernel does not record (Linux 6.5+' noretval.log; then
		pass "noretval: a flight's error trigger is refused on a kernel without return values (exit 1, saying so)"
	else
		fail "noretval: a flight's error trigger is refused on a kernel without return values" \
			"exit $rc: $(head -c 300 noretval.log)"
	fi
	same_as_base noretval
fi

[ "$mode" = short ] && exit 0

# one running task and the children it forks (-P -c)
/kmag/wl.sh loop &
loop=$!
echo $loop >fn-pid.pid
sleep 0.5
rec fn-pid -p function -l vfs_read -l ksys_read -P $loop -c -e sched:sched_process_fork -t 3
kill $loop
wait $loop 2>/dev/null

# file versions: v6 (--compression none) and v7 uncompressed
rec fn-v6 -p function -l 'vfs_*' --compression none -- /kmag/wl.sh basic 1
rec fn-v7none -p function -l 'vfs_*' --file-version 7 --compression none -- /kmag/wl.sh basic 1

# lost events: a 4 KiB buffer per CPU cannot keep up with a busy workload
rec fn-lost -p function -l 'vfs_*' -l '*lock*' -l 'do_*' -b 4 -- /kmag/wl.sh busy 40

# SIGTERM, and SIGKILL of a run in a private instance
rec_bg fn-sigTERM -p function -l 'vfs_*' -t 0
/kmag/wl.sh basic 2
rec_stop TERM

rec_bg kill-fn -p function -l 'vfs_*' -t 0
killed_then_repaired
exit 0
