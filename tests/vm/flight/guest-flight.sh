#!/bin/sh
# SPDX-License-Identifier: MIT
# guest-flight.sh - the flight recorder and --last-boot on Linux 6.19, inside
# the test VM (busybox sh), for tests/vm/flight/t0430-flight-vm.sh, which
# checks the files on the host. The kernel boots with a persistent ring
# buffer (reserve_mem=... trace_instance=boot_map^traceoff@trace) and
# vm-run.sh --reboot.
#   Boot 1 (KMAG_VM_BOOT=1):
#     flight  the run: function_graph under do_sys_openat2, a 2M
#             flight, error=ENOENT@do_sys_openat2, --after 1s, over a
#             workload that opens existing files 25 s (125 paced rounds), a
#             missing one once, then goes on; the rings' size on disk is
#             sampled meanwhile
#     slow    slow=do_filp_open>1ms with --after 60s, and SIGINT while that
#             window is open: the window is written, cut short, tracefs
#             restored at the top level
#     then function_graph (do_sys_openat2 and what it calls, filtered) into
#     the boot-mapped instance while the workload runs, the kernel's own text
#     of that buffer saved (lastboot-text.txt), and a warm reset.
#   Boot 2: kmag record --last-boot, then again (refused: reading reset the
#     instance's last_boot_info to this boot's), and an unknown instance.
# Writes NAME.dat, NAME.log, NAME.rc and results (guest-side checks) into $OUT.
. /kmag/lib-guest.sh
export KMAG_STATE_DIR=/tmp/kmag-state
B=$T/instances/boot_map
# stamp PART: the uptime at the end of PART (t0430 prints them)
stamp() { echo "boot $KMAG_VM_BOOT: $1 done at $(cut -d' ' -f1 /proc/uptime) s" >>stamps.txt; }

if [ "$KMAG_VM_BOOT" = 2 ]; then
	cat $B/last_boot_info >last-boot-info-2.txt
	kmag record --last-boot -o lastboot.dat >lastboot.log 2>&1
	echo $? >lastboot.rc
	cat $B/per_cpu/cpu*/stats >lastboot-after-stats.txt
	kmag record --last-boot -B boot_map -o lastboot2.dat >lastboot2.log 2>&1
	echo $? >lastboot2.rc
	kmag record --last-boot -B nosuch -o lastboot3.dat >lastboot3.log 2>&1
	echo $? >lastboot3.rc
	ls -A >ls-2.txt
	stamp last-boot
	exit 0
fi

cat $B/last_boot_info >last-boot-info-1.txt
# the top-level buffer is allocated on first use, for good (guest-record.sh)
v=$(sed -n 's/.*expanded: \([0-9]*\).*/\1/p' $T/buffer_size_kb)
[ -n "$v" ] && echo "$v" >$T/buffer_size_kb
snap base
stamp set-up

# --- the flight --------------------------------------------------
rm -f /tmp/first-pids /tmp/fail-pid
kmag record -p function_graph -g do_sys_openat2 --flight 2M \
	--trigger error=ENOENT@do_sys_openat2 --after 1s -o flight.dat \
	-- sh /kmag/wl-flight.sh 125 15 >flight.log 2>&1 &
k=$!
# the rings on disk, every half second: their files' total size
max=0
while kill -0 $k 2>/dev/null; do
	s=$(ls -l flight.dat.kmag-$k-ring-cpu* 2>/dev/null | awk '{ t += $5 } END { print t + 0 }')
	[ "$s" -gt "$max" ] && max=$s
	sleep 0.5
done
wait $k
echo $? >flight.rc
stamp flight-kmag
echo $max >flight-ring-max.txt
cp /tmp/first-pids flight-first-pids.txt
cp /tmp/fail-pid flight-fail-pid.txt
# the workload goes on after the snapshot; let it end
while pgrep -f wl-flight.sh >/dev/null; do sleep 0.5; done
ls -A >ls-flight.txt
same_as_base flight
stamp flight

# --- slow=, and Ctrl-C while its window is open ------------------------------
kmag record -p function_graph -g do_sys_openat2 --flight 1M \
	--trigger 'slow=do_filp_open>1ms' --after 60s -o slow.dat \
	-- sh /kmag/wl-flight.sh 10 1000 >slow.log 2>&1 &
k=$!
i=0
while ! grep -q '^kmag: trigger .* fired' slow.log && [ $i -lt 1200 ]; do
	sleep 0.1
	i=$((i + 1))
done
stamp slow-fired
kill -INT $k
wait $k
echo $? >slow.rc
stamp slow-stopped
pkill -f wl-flight.sh
while pgrep -f wl-flight.sh >/dev/null; do sleep 0.5; done
ls -A >ls-slow.txt
same_as_base slow
stamp slow

# --- the boot-mapped instance, then a warm reset ----------------------------
echo do_sys_openat2 >$B/set_ftrace_filter
echo do_filp_open >>$B/set_ftrace_filter
echo path_openat >>$B/set_ftrace_filter
echo link_path_walk >>$B/set_ftrace_filter
echo 1 >$B/options/funcgraph-retval 2>/dev/null
echo function_graph >$B/current_tracer
echo 1 >$B/tracing_on
rm -f /tmp/first-pids /tmp/fail-pid
sh /kmag/wl-flight.sh 10 5
echo 0 >$B/tracing_on
cat $B/trace >lastboot-text.txt
stamp boot_map
cp /tmp/fail-pid lastboot-fail-pid.txt
vm-reboot
