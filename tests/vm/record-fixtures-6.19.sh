#!/bin/bash
# record-fixtures-6.19.sh - regenerate tests/fixtures/traces/6.19/: function_graph
# traces with return values, call sites and arguments from Linux 6.19, each as
# ftrace text AND trace.dat of the same buffer (one command, about 5 minutes).
#
# Usage: record-fixtures-6.19.sh [--kernel VMLINUZ]
#
# The kernel is tests/vm/kernel's 6.19 build (default: the first of
# $KMAG_KERNEL_619, ../shared/kernels/vmlinuz-6.19.0 beside the checkout, and
# ${KMAG_VM_CACHE:-~/.cache/kmag/vm}/6.19/vmlinuz). The guest script is
# tests/vm/guest/rec-6.19.sh (workload `wl.sh errors 1`), the recorder Debian's
# trace-cmd, copied from the host. trace-cmd 3.1.6's `extract` writes v7 files
# with zstd-compressed sections (it takes no --file-version); they and the text
# are checked in as written. fixtures.tsv and README.md are rewritten.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
dest="$here/../fixtures/traces/6.19"
kernel=""
while [ $# -gt 0 ]; do
    case "$1" in
        --kernel) kernel=$2; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
        *) echo "record-fixtures-6.19: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
if [ -z "$kernel" ]; then
    for k in "${KMAG_KERNEL_619:-}" "$here/../../../shared/kernels/vmlinuz-6.19.0" \
        "${KMAG_VM_CACHE:-$HOME/.cache/kmag/vm}/6.19/vmlinuz"; do
        [ -n "$k" ] && [ -f "$k" ] && { kernel=$k; break; }
    done
fi
[ -n "$kernel" ] || { echo "record-fixtures-6.19: no 6.19 kernel; build one with tests/vm/kernel/build-kernel.sh or pass --kernel" >&2; exit 1; }
command -v trace-cmd >/dev/null || { echo "record-fixtures-6.19: trace-cmd not found; install the Debian package 'trace-cmd'" >&2; exit 1; }

stage=$(mktemp -d "${TMPDIR:-/tmp}/kmag-fixtures-6.19.XXXXXX")
trap 'rm -rf "$stage"' EXIT
"$here/vm-run.sh" --kernel "$kernel" --cpus 2 --mem 1024 --timeout 1200 \
    --bin /usr/bin/trace-cmd \
    --file "$here/guest/lib.sh:/kmag/lib.sh" --file "$here/guest/wl.sh:/kmag/wl.sh" \
    --script "$here/guest/rec-6.19.sh" --out "$stage/out"

new="$stage/new"
mkdir -p "$new"
release=$(cat "$stage/out/kernel-release.txt")
{
    printf '# file\tformat\tkernel\tevents\tcommand\n'
    while IFS=$'\t' read -r name cmd; do
        src="$stage/out/$name"
        [ -f "$src" ] || { echo "record-fixtures-6.19: the guest did not produce $name" >&2; exit 1; }
        case "$name" in
            *.dat)
                out=$name
                cp "$src" "$new/$out"
                # every record, as trace-cmd counts them (a leaf's entry and exit are two)
                events=$(trace-cmd report -R "$src" 2>/dev/null | grep -cE '\[[0-9]{3}\] +[0-9]+\.[0-9]+: ')
                fmt="trace.dat v$(trace-cmd dump --summary "$src" 2>/dev/null | awk '/\[Version\]/ { print $1; exit }') zstd (trace-cmd extract)"
                ;;
            *.txt)
                out=$name
                cp "$src" "$new/$out"
                # a function_graph leaf line "f(); ..." is an entry and an exit
                events=$(awk '/^#/ || /=>|------/ { next }
                    /\|/ { n++; if ($0 ~ /\);( \/\*.*\*\/)? *$/) n++; next }
                    / <-/ { n++ } END { print n + 0 }' "$src")
                fmt="text: tracefs trace"
                ;;
        esac
        printf '%s\t%s\t%s\t%s\t%s\n' "$out" "$fmt" "$release" "$events" "$cmd"
    done <"$stage/out/commands.tsv"
} >"$new/fixtures.tsv"

{
    cat <<'MD'
# Linux 6.19 fixtures: return values, call sites, arguments

Made by `tests/vm/record-fixtures-6.19.sh` (do not edit by hand): Linux 6.19
(tests/vm/kernel, CONFIG_FUNCTION_GRAPH_RETVAL, _RETADDR, FUNCTION_TRACE_ARGS,
BTF) in QEMU, 2 vCPUs, Debian's trace-cmd in the guest, the workload
`tests/vm/guest/wl.sh errors 1` (open of a missing file, mkdir of an existing
directory, write to a read-only descriptor, an unsupported ioctl, a dd and a
cat) under `set_graph_function` on its system calls.

Each `NAME.txt` / `NAME.dat` pair is ONE ring buffer read twice: tracing
stopped, then `cat trace > NAME.txt` and `trace-cmd extract -o NAME.dat`, so
kmag must find the same calls in both. The `.dat` files are what trace-cmd
3.1.6's extract writes: v7 with zstd-compressed sections (`trace-cmd convert
--file-version 6 --compression none` makes a v6 file of one).

MD
    echo "Kernel: \`$release\`, vmlinuz sha256 \`$(sha256sum "$kernel" | cut -d' ' -f1)\`;"
    echo "guest trace-cmd: $(cat "$stage/out/trace-cmd-version.txt"); recorded $(date -u +%Y-%m-%d)."
    echo
    echo "| file | format | events | options |"
    echo "|---|---|---:|---|"
    awk -F'\t' '!/^#/ { o = $5; gsub(/echo 1 > options\//, "", o); n = split(o, a, "; "); s = "";
        for (i = 1; i <= n; i++) if (a[i] !~ /set_|tracing_on|wl.sh|cat |extract|current_tracer/) s = s (s ? " " : "") a[i];
        printf "| `%s` | %s | %s | %s |\n", $1, $2, $4, s }' "$new/fixtures.tsv"
    echo
    echo "Exact commands (tracefs paths relative to /sys/kernel/tracing, from a reset tracer):"
    echo
    awk -F'\t' '!/^#/ && $1 ~ /txt$/ { printf "- `%s`:\n  `%s`\n", $1, $5 }' "$new/fixtures.tsv"
} >"$new/README.md"

mkdir -p "$dest"
rm -f "$dest"/*
cp "$new"/* "$dest/"
echo "record-fixtures-6.19: wrote $(grep -vc '^#' "$dest/fixtures.tsv") fixtures to $dest" >&2
