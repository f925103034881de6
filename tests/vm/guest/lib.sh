# tests/vm/guest/lib.sh - helpers shared by the fixture-recording guest scripts
# (rec-6.1.sh, text-6.1.sh, rec-6.12.sh). Sourced inside the kmag VM (busybox
# ash) from /kmag/lib.sh; see tests/vm/record-fixtures.sh. Everything written
# to $OUT comes back to the host; the scripts run in $OUT.
# (The VM tests use tests/vm/lib-guest.sh instead.)

T=/sys/kernel/tracing
# Every command that produced a fixture is appended here (NAME<TAB>command).
CMDS=$OUT/commands.tsv
cd "$OUT" || exit 1

# trace-cmd record's options for the two trace.dat versions of the fixtures
V6="--file-version 6"
V7="--file-version 7 --compression zstd"

# q ARGS...: print ARGS shell-quoted (for the provenance log)
q() {
    _out=""
    for _a in "$@"; do
        case $_a in
        '' | *[!A-Za-z0-9_./:=,+@%-]*) _a="'$_a'" ;;
        esac
        _out="$_out${_out:+ }$_a"
    done
    printf '%s' "$_out"
}

# fixture NAME CMD...: log and run a command that produces fixture NAME. A
# failure aborts the guest script (so a fixture is never silently missing).
# External commands (trace-cmd) run under a guest-side `timeout` (FIXTURE_TIMEOUT, default
# 120 s): under TCG a too broad recording can livelock the guest (the host
# has its own overall --timeout too). The workloads are in /kmag/wl.sh.
# Shell functions that drive tracefs directly log each write through tfw();
# those writes are what gets recorded as the fixture's command.
fixture() {
    name=$1; shift
    tf_reset
    TFLOG=""
    echo "==> [$name] $(q "$@")"
    t0=$(date +%s)
    case $(type "$1") in
    *function*) "$@" ;;
    *) timeout "${FIXTURE_TIMEOUT:-120}" "$@" ;;
    esac || { echo "FAILED: [$name] $(q "$@") (status $?)"; exit 1; }
    if [ -n "$TFLOG" ]; then
        printf '%s\t%s\n' "$name" "$TFLOG" >>"$CMDS"
    else
        printf '%s\t%s\n' "$name" "$(q "$@")" >>"$CMDS"
    fi
    echo "<== [$name] done in $(( $(date +%s) - t0 ))s"
}

# tfw FILE VALUE: write VALUE to tracefs FILE (appending when FILE starts
# with '+') and log it for the provenance record.
tfw() {
    case $1 in
    +*) echo "$2" >>"$T/${1#+}"; TFLOG="$TFLOG${TFLOG:+; }echo $(q "$2") >> ${1#+}" ;;
    *) echo "$2" >"$T/$1"; TFLOG="$TFLOG${TFLOG:+; }echo $(q "$2") > $1" ;;
    esac
}

# tflog TEXT: add a non-tracefs step (workload, cat) to the provenance record
tflog() { TFLOG="$TFLOG${TFLOG:+; }$*"; }

# --------------------------------------------------------- raw tracefs helpers
# Default per-CPU buffer size; before first use the kernel shows it as
# "7 (expanded: 1408)".
DEFAULT_BUF_KB=$(sed 's/.*expanded: \([0-9]*\).*/\1/' $T/buffer_size_kb)
# Put the tracer into a known state: nop tracer, no filters, default options,
# default buffer size, empty buffers. fixture() calls it before every fixture
# (trace-cmd record leaves e.g. its -b buffer size behind).
tf_reset() {
    echo 0 >$T/tracing_on
    echo nop >$T/current_tracer
    : >$T/set_ftrace_filter
    : >$T/set_ftrace_notrace
    : >$T/set_graph_function
    : >$T/set_graph_notrace
    : >$T/set_ftrace_pid
    [ -e $T/set_ftrace_notrace_pid ] && : >$T/set_ftrace_notrace_pid
    echo 0 >$T/events/enable
    for opt in record-tgid funcgraph-proc funcgraph-abstime funcgraph-tail \
        funcgraph-retval funcgraph-retval-hex funcgraph-retaddr funcgraph-args func-args \
        latency-format; do
        [ -e $T/options/$opt ] && echo 0 >$T/options/$opt
    done
    for opt in irq-info funcgraph-cpu funcgraph-duration funcgraph-overhead; do
        echo 1 >$T/options/$opt
    done
    echo 0 >$T/max_graph_depth
    echo "$DEFAULT_BUF_KB" >$T/buffer_size_kb
    : >$T/trace
}

# tracecmd_start: for the scripts that record with trace-cmd: its version
# into trace-cmd-version.txt (record-fixtures.sh puts it into the README),
# then a reset tracer
tracecmd_start() {
    trace-cmd --version 2>&1 | grep -m1 version >trace-cmd-version.txt
    tf_reset
}
