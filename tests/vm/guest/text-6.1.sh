# tests/vm/guest/text-6.1.sh - ftrace TEXT fixtures read straight from tracefs
# (no trace-cmd) on the Debian 6.1 cloud kernel (2 vCPUs). Run by
# tests/vm/record-fixtures.sh through vm-run.sh; writes into $OUT.
. /kmag/lib.sh

FN_FILTER="vfs_* ksys_*"
BROAD_FILTER="*fs* *read* *write* do_* *alloc*"
GRAPH_ROOTS="ksys_read ksys_write"

# run the workload with tracing on, then stop tracing
traced() {
    tflog "echo 1 > tracing_on; /kmag/wl.sh $*; echo 0 > tracing_on"
    echo 1 >$T/tracing_on
    /kmag/wl.sh "$@"
    echo 0 >$T/tracing_on
}

set_filter() { # FILE GLOB...
    _f=$1; shift
    for _g in "$@"; do tfw "+$_f" "$_g"; done
}

fn_text() { # OUTFILE [OPTION=VALUE...]
    _o=$1; shift
    set -f; set_filter set_ftrace_filter $FN_FILTER; set +f
    for _kv in "$@"; do
        case $_kv in
        set_event=*) tfw set_event "${_kv#*=}" ;;
        *) tfw "options/${_kv%=*}" "${_kv#*=}" ;;
        esac
    done
    tfw current_tracer function
    traced basic 1
    tflog "cat trace"
    cat $T/trace >"$_o"
}

fg_text() { # OUTFILE [OPTION=VALUE...]
    _o=$1; shift
    set_filter set_graph_function $GRAPH_ROOTS
    for _kv in "$@"; do tfw "options/${_kv%=*}" "${_kv#*=}"; done
    tfw current_tracer function_graph
    traced basic 1
    tflog "cat trace"
    cat $T/trace >"$_o"
}

# consuming read through trace_pipe with a 4 KiB buffer: the kernel reports
# the overwritten events as "CPU:N [LOST M EVENTS]" lines
fn_pipe_lost() { # OUTFILE
    _o=$1
    tfw buffer_size_kb 4
    set -f; set_filter set_ftrace_filter $BROAD_FILTER; set +f
    tfw current_tracer function
    cat $T/trace_pipe >"$_o" &
    _pid=$!
    # do not trace the reader itself
    echo $_pid >$T/set_ftrace_notrace_pid
    tflog "cat trace_pipe > OUT & echo \$! > set_ftrace_notrace_pid"
    traced busy 1
    sleep 2
    kill $_pid
    wait $_pid 2>/dev/null
    tflog "sleep 2; kill the reader"
    return 0
}

# non-consuming read of an overwritten 4 KiB buffer: only the newest events
# survive; the header shows entries-in-buffer < entries-written
fn_overrun() { # OUTFILE
    _o=$1
    tfw buffer_size_kb 4
    set -f; set_filter set_ftrace_filter $BROAD_FILTER; set +f
    tfw current_tracer function
    traced busy 3
    tflog "cat trace"
    cat $T/trace >"$_o"
}

fixture fn-text.txt fn_text fn-text.txt
# record-tgid only fills its pid->tgid map from trace events (for the function
# tracer alone every TGID prints as "(-------)"), so sched_switch is enabled too
fixture fn-text-tgid-noirqinfo.txt fn_text fn-text-tgid-noirqinfo.txt \
    record-tgid=1 irq-info=0 set_event=sched:sched_switch
fixture fn-text-pipe-lost.txt fn_pipe_lost fn-text-pipe-lost.txt
fixture fn-text-overrun.txt fn_overrun fn-text-overrun.txt
fixture fg-text.txt fg_text fg-text.txt
fixture fg-text-proc-abstime-tail.txt fg_text fg-text-proc-abstime-tail.txt \
    funcgraph-proc=1 funcgraph-abstime=1 funcgraph-tail=1
tf_reset
ls -l
