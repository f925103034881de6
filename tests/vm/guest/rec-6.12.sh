# tests/vm/guest/rec-6.12.sh - fixtures from the Debian 6.12 cloud kernel
# (2 vCPUs): trace.dat files recorded with Debian's trace-cmd and a
# function_graph TEXT trace read straight from tracefs. Run by
# tests/vm/record-fixtures.sh through vm-run.sh; writes into $OUT.
. /kmag/lib.sh
tracecmd_start

# funcgraph-retval (kernel >= 6.5 with CONFIG_FUNCTION_GRAPH_RETVAL) adds a
# retval field to funcgraph_exit. Debian's 6.12 kernels are built without it,
# so this is empty there; it is used automatically if a future package has it.
RETVAL=""
if [ -e $T/options/funcgraph-retval ]; then
    RETVAL="-O funcgraph-retval"
    echo "funcgraph-retval: available" >funcgraph-retval.txt
else
    echo "funcgraph-retval: not available (CONFIG_FUNCTION_GRAPH_RETVAL unset)" >funcgraph-retval.txt
fi

# Only v6 files: the 6.12 /proc/kallsyms is ~6.9 MB (it lists a __pfx_*
# padding symbol for every function), so even a tiny v7 zstd file is ~1.4 MB.
fixture fg-filtered-6.12-v6.dat trace-cmd record $V6 -p function_graph $RETVAL -g ksys_read -g ksys_write \
    -o fg-filtered-6.12-v6.dat /kmag/wl.sh basic 1

fg_text() { # OUTFILE [OPTION=VALUE...]
    _o=$1; shift
    for _g in ksys_read ksys_write; do tfw +set_graph_function $_g; done
    for _kv in "$@"; do tfw "options/${_kv%=*}" "${_kv#*=}"; done
    tfw current_tracer function_graph
    tflog "echo 1 > tracing_on; /kmag/wl.sh basic 1; echo 0 > tracing_on"
    echo 1 >$T/tracing_on
    /kmag/wl.sh basic 1
    echo 0 >$T/tracing_on
    tflog "cat trace"
    cat $T/trace >"$_o"
}
if [ -n "$RETVAL" ]; then
    fixture fg-text-6.12.txt fg_text fg-text-6.12.txt funcgraph-retval=1
else
    fixture fg-text-6.12.txt fg_text fg-text-6.12.txt
fi
tf_reset
ls -l
