#!/bin/sh
# SPDX-License-Identifier: MIT
# guest-probes.sh - the recordings of the probes/durations/stack VM test, run
# inside the test VM (busybox sh) by tests/vm/probes/t0410-probes-vm.sh, which
# checks the results on the host. Writes into $OUT: NAME.dat, NAME.log
# (kmag's stderr), NAME.rc, NAME.out (stdout), dyn-*.txt (dynamic_events
# after a run), results (guest-side checks, TAP lines).
# The helpers (pass, fail, snap, rec, ...) are in tests/vm/lib-guest.sh.
. /kmag/lib-guest.sh

# after every recording: no probe of kmag's is left, and tracefs reads back
# as before
check_clean() {
	if grep -q '^[a-z]:kmag_' $T/dynamic_events; then
		fail "$1: no kmag probe is left in dynamic_events" "$(grep kmag_ $T/dynamic_events | head -2 | tr '\n' ' ')"
	else
		pass "$1: no kmag probe is left in dynamic_events"
	fi
	same_as_base "$1"
}

# the top-level buffer is allocated on first use, for good: use it once first
echo function >$T/current_tracer
echo nop >$T/current_tracer
snap base

# kprobe with arguments on ksys_write, kretprobe on vfs_read, only probes:
# dd writes 50 blocks of 12345 bytes and reads 20 of 4321
rec probes --kprobe 'ksys_write fd=%di:s32 count=%dx:u64' \
	--kretprobe 'vfs_read ret=$retval:s64' \
	-- sh -c 'dd if=/dev/zero of=/dev/null bs=12345 count=50 2>/dev/null;
		dd if=/dev/zero of=/dev/null bs=4321 count=20 2>/dev/null'
kmag report --probes probes.dat >probes.out 2>probes.err
kmag report --probes -F json probes.dat >probes.json 2>>probes.err

# probes together with function_graph: the probed function is annotated
rec probes-fg -p function_graph -g ksys_write --max-graph-depth 3 \
	--kprobe 'vfs_write count=%dx:u64' -- dd if=/dev/zero of=/dev/null bs=777 count=30
kmag report probes-fg.dat >probes-fg.out 2>&1
kmag report -F json probes-fg.dat >probes-fg.json 2>&1

# a fetch argument the kernel rejects: its error_log line with the caret
rec probes-bad --kprobe 'ksys_write size=%zz:u64' -t 1

# SIGINT while recording: the probes go too
rec_bg probes-sigINT --kprobe 'vfs_read' -t 0
rec_stop INT

# SIGKILL leaves the probe group; the next run removes it
rec_bg probes-kill --kprobe 'vfs_read' -t 0
kill -KILL $k
wait $k 2>/dev/null
cat $T/dynamic_events >dyn-killed.txt
rec probes-after-kill --kprobe 'vfs_write' -- true

# --threshold: function_graph keeps only calls of at least 200 us
rec thresh -p function_graph --threshold 200 -- sh -c 'dd if=/dev/zero of=/dev/null bs=1M count=20 2>/dev/null'
kmag report --slowest 5 thresh.dat >thresh-slowest.out 2>&1

# function_graph for the view-side duration filters
rec fg -p function_graph -g ksys_read -g ksys_write -- dd if=/dev/zero of=/dev/null bs=64k count=40
kmag report --slowest 3 fg.dat >fg-slowest.out 2>&1

# the stack tracer, for a command, then for a duration
echo 0 >/proc/sys/kernel/stack_tracer_enabled
cat /proc/sys/kernel/stack_tracer_enabled >stack-before.txt
kmag stack -- sh -c 'ls -lR /sys/kernel/tracing/events >/dev/null' >stack.out 2>stack.log
echo $? >stack.rc
cat /proc/sys/kernel/stack_tracer_enabled >stack-after.txt
kmag stack -t 1 -F json >stack.json 2>stack-json.log
echo $? >stack-json.rc
# the kernel's own text of that run (the tracer is off again: it stays put)
cat /sys/kernel/tracing/stack_trace >stack-kernel.txt
cat /sys/kernel/tracing/stack_max_size >stack-kernel-max.txt
cat /proc/sys/kernel/stack_tracer_enabled >>stack-after.txt
exit 0
