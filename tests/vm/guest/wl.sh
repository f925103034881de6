#!/bin/sh
# tests/vm/guest/wl.sh - the traced workloads of the fixture recordings
# (installed as /kmag/wl.sh in the kmag VM).
#   wl.sh basic N   N rounds of small, mostly deterministic file-system work:
#                   ls /, cat two /proc files, dd 4/8/12 KiB from /dev/zero to
#                   files in /tmp/wl.PID (tmpfs), cat two of them back,
#                   sleep 0.1, a 5-iteration shell loop writing a file, rm.
#   wl.sh twocpu N  basic N pinned to CPU 0 and, concurrently, to CPU 1.
#   wl.sh errors N  N rounds of system calls that fail in known places:
#                   open of a missing file (ENOENT), mkdir of an existing
#                   directory (EEXIST), write to a read-only descriptor
#                   (EBADF), an ioctl the file does not support (ENOTTY),
#                   between successful reads and writes (dd 4 KiB).
#   wl.sh errors N BYTES   the same, the dd writing one block of BYTES (the
#                   block size reaches vfs_write's count argument).
#   wl.sh busy N    N rounds of a tight cat /proc/version + ls / loop (used to
#                   overflow small ring buffers).
kind=${1:-basic}
n=${2:-1}
case $kind in
basic)
    d=/tmp/wl.$$
    mkdir -p $d
    r=0
    while [ $r -lt $n ]; do
        ls / >/dev/null
        cat /proc/version /proc/meminfo >/dev/null
        for i in 1 2 3; do
            dd if=/dev/zero of=$d/f$i bs=4k count=$i 2>/dev/null
        done
        cat $d/f1 $d/f2 >/dev/null
        sleep 0.1
        i=0
        while [ $i -lt 5 ]; do echo $i >$d/loop; i=$((i + 1)); done
        rm -f $d/f1 $d/f2 $d/f3 $d/loop
        r=$((r + 1))
    done
    rmdir $d
    ;;
twocpu)
    # basic N on CPU 0 and CPU 1 at the same time
    taskset 1 /kmag/wl.sh basic $n &
    taskset 2 /kmag/wl.sh basic $n &
    wait
    ;;
errors)
    d=/tmp/wl.$$
    mkdir -p $d
    echo data >$d/ro
    r=0
    while [ $r -lt $n ]; do
        cat $d/missing 2>/dev/null
        mkdir $d 2>/dev/null
        (exec 3<$d/ro; echo x >&3) 2>/dev/null
        stty -F $d/ro 2>/dev/null
        dd if=/dev/zero of=$d/f bs=${3:-4k} count=1 2>/dev/null
        cat $d/f >/dev/null
        r=$((r + 1))
    done
    rm -f $d/ro $d/f
    rmdir $d
    ;;
busy)
    i=0
    while [ $i -lt $n ]; do
        cat /proc/version >/dev/null
        ls / >/dev/null
        i=$((i + 1))
    done
    ;;
*) echo "wl.sh: unknown workload $kind" >&2; exit 2 ;;
esac
