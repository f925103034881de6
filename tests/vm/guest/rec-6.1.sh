# tests/vm/guest/rec-6.1.sh - trace.dat fixtures recorded with Debian's
# trace-cmd on the Debian 6.1 cloud kernel (2 vCPUs). Run by
# tests/vm/record-fixtures.sh through vm-run.sh; writes into $OUT.
. /kmag/lib.sh
tracecmd_start

# The graph roots used by the function_graph recordings.
G="-g do_sys_openat2 -g ksys_read -g ksys_write"

# function tracer, -l filtered, v7 zstd (must stay < 1 MB as recorded)
fixture fn-filtered.dat trace-cmd record $V7 -p function \
    -l 'vfs_*' -l '*open*' -l 'ksys_*' -o fn-filtered.dat /kmag/wl.sh basic 6
# function tracer, broader -l filter, v6
fixture fn-broad-v6.dat trace-cmd record $V6 -p function \
    -l '*fs*' -l '*read*' -l '*write*' -l 'do_*' -l '*alloc*' \
    -o fn-broad-v6.dat /kmag/wl.sh basic 1
# function_graph, -g filtered, v7 zstd and v6 (same command otherwise). Only
# the read/write roots: with do_sys_openat2 the v7 file would exceed 1 MB.
fixture fg-filtered.dat trace-cmd record $V7 -p function_graph -g ksys_read -g ksys_write \
    -o fg-filtered.dat /kmag/wl.sh basic 1
fixture fg-filtered-v6.dat trace-cmd record $V6 -p function_graph -g ksys_read -g ksys_write \
    -o fg-filtered-v6.dat /kmag/wl.sh basic 1
# function_graph, no function filter but --max-graph-depth 3
fixture fg-depth3-v6.dat trace-cmd record $V6 -p function_graph --max-graph-depth 3 \
    -o fg-depth3-v6.dat /kmag/wl.sh basic 1
# function_graph of every function, only CPU 0 (-M 1); trace-cmd itself is
# pinned to CPU 0 so the traced command (`true`, a single exec of busybox)
# runs there; a large buffer (-b 16384 KiB/CPU) so nothing is dropped
fixture fg-all-cpu0-v6.dat taskset 1 trace-cmd record $V6 -p function_graph -M 1 -b 16384 \
    -o fg-all-cpu0-v6.dat true
# lost events: 4 KiB per-CPU buffers and a busy workload
fixture fn-lost-v6.dat trace-cmd record $V6 -p function -b 4 \
    -l '*fs*' -l '*read*' -l '*write*' -l 'do_*' -l '*alloc*' \
    -o fn-lost-v6.dat /kmag/wl.sh busy 10
fixture fg-lost-v6.dat trace-cmd record $V6 -p function_graph -b 4 $G \
    -o fg-lost-v6.dat /kmag/wl.sh busy 10
# function_graph plus the sched:sched_switch tracepoint
fixture fg-sched-v6.dat trace-cmd record $V6 -p function_graph $G -e sched:sched_switch \
    -o fg-sched-v6.dat /kmag/wl.sh basic 2
# function_graph with the workload running on both CPUs at once
fixture fg-2cpu-v6.dat trace-cmd record $V6 -p function_graph $G \
    -o fg-2cpu-v6.dat /kmag/wl.sh twocpu 1
ls -l
