# tests/vm/guest/rec-6.19.sh - fixtures from Linux 6.19 (the kernel of
# tests/vm/kernel, 2 vCPUs): for each set of function_graph options that
# current kernels add (funcgraph-retval, -retaddr, -args, ...) ONE buffer is
# read twice: as ftrace text (cat trace) and as a trace.dat (trace-cmd
# extract), so the two fixtures hold the same events. Run by
# tests/vm/record-fixtures-6.19.sh through vm-run.sh; writes into $OUT.
. /kmag/lib.sh
tracecmd_start

# the system calls of `wl.sh errors` (and the reads/writes around them)
GRAPH="__x64_sys_openat __x64_sys_mkdir __x64_sys_mkdirat ksys_read ksys_write __x64_sys_ioctl"

# same_buffer NAME TRACER [OPTION=VALUE...]: trace `wl.sh errors 1` with the
# options, stop, then NAME.txt (tracefs text) and NAME.dat (trace-cmd extract)
# from the same buffer
same_buffer() {
    _n=$1 _tracer=$2; shift 2
    if [ "$_tracer" = function_graph ]; then
        for _g in $GRAPH; do tfw +set_graph_function $_g; done
    else
        for _g in $GRAPH vfs_read vfs_write do_sys_openat2 do_mkdirat vfs_ioctl; do tfw +set_ftrace_filter $_g; done
    fi
    # the tracer first: func-args belongs to the function tracer and can
    # only be set while it is the current tracer (EINVAL otherwise)
    tfw current_tracer "$_tracer"
    for _kv in "$@"; do tfw "options/${_kv%=*}" "${_kv#*=}"; done
    tflog "echo 1 > tracing_on; /kmag/wl.sh errors 1; echo 0 > tracing_on"
    echo 1 >$T/tracing_on
    /kmag/wl.sh errors 1
    echo 0 >$T/tracing_on
    # trace-cmd 3.1.6's extract writes v6 files only (it refuses
    # --file-version)
    tflog "cat trace > $_n.txt; trace-cmd extract -o $_n.dat"
    cat $T/trace >"$_n.txt"
    timeout 120 trace-cmd extract -o "$_n.dat" >/dev/null ||
        { echo "FAILED: trace-cmd extract -o $_n.dat"; exit 1; }
    echo "$_n.txt" >>same-buffer.list
}
# each pair is listed twice in commands.tsv (the .txt and the .dat)
pair() {
    fixture "$1.txt" same_buffer "$@"
    printf '%s\t%s\n' "$1.dat" "$(tail -n1 "$CMDS" | cut -f2-)" >>"$CMDS"
}

pair fg619-retval function_graph funcgraph-retval=1
pair fg619-retaddr function_graph funcgraph-retval=1 funcgraph-retaddr=1
pair fg619-args function_graph funcgraph-retval=1 funcgraph-retaddr=1 funcgraph-args=1
pair fg619-hex-tail function_graph funcgraph-retval=1 funcgraph-retval-hex=1 funcgraph-retaddr=1 \
    funcgraph-args=1 funcgraph-tail=1 funcgraph-proc=1 funcgraph-abstime=1
pair fg619-latency function_graph funcgraph-retval=1 funcgraph-retaddr=1 latency-format=1
pair fn619-args function func-args=1
tf_reset
uname -r >kernel-release.txt
ls -l
