#!/bin/bash
# record-fixtures.sh - regenerate every real-kernel trace fixture in
# tests/fixtures/traces/ (one command; 4-5 minutes on 2 cores).
#
# Usage: record-fixtures.sh [--keep-raw DIR]
#
# Boots three throw-away VMs with tests/vm/vm-run.sh (Debian cloud kernels,
# 2 vCPUs, 1 GiB, single-threaded TCG), each running one guest script from
# tests/vm/guest/ with Debian's trace-cmd copied from the host:
#   rec-6.1.sh    trace.dat files (trace-cmd record) on the 6.1 kernel
#   text-6.1.sh   ftrace text output read straight from tracefs on 6.1
#   rec-6.12.sh   a trace.dat file and a text trace on the 6.12 kernel
# The guest workloads are in tests/vm/guest/wl.sh; every command that produced
# a fixture is logged by the guest (tests/vm/guest/lib.sh) and copied into
# the README. Then, on the host:
#   * *-v6.dat (uncompressed trace.dat v6, several MB because trace-cmd stores
#     all of /proc/kallsyms) are checked in as *-v6.dat.xz (xz -9), the trace
#     contents untouched; v7 zstd *.dat files are checked in as recorded.
#   * fn-report.txt / fg-report.txt are `trace-cmd report` of fn-filtered.dat /
#     fg-filtered.dat, run on the HOST (same Debian trace-cmd 3.1.6).
#   * every file must be < 1 MB; fixtures.tsv (the manifest that
#     check-fixtures.sh verifies) and the generated part of README.md are
#     rewritten.
# The fixtures listed in the old fixtures.tsv are removed first; README.md is
# rewritten in place (only its GENERATED section changes).
# --keep-raw DIR keeps the raw VM output directories (console logs etc.).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$here/../fixtures/traces"
dest=$(cd "$here/../fixtures/traces" && pwd)
readme="$dest/README.md"
keep_raw=""
while [ $# -gt 0 ]; do
    case "$1" in
        --keep-raw) keep_raw=$2; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
        *) echo "record-fixtures: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
command -v trace-cmd >/dev/null || { echo "record-fixtures: trace-cmd not found; install the Debian package 'trace-cmd'" >&2; exit 1; }
command -v xz >/dev/null || { echo "record-fixtures: xz not found; install the Debian package 'xz-utils'" >&2; exit 1; }
[ -f "$readme" ] && grep -q '^<!-- BEGIN GENERATED' "$readme" ||
    { echo "record-fixtures: $readme with the GENERATED markers is missing" >&2; exit 1; }

start=$(date +%s)
stage=$(mktemp -d "${TMPDIR:-/tmp}/kmag-fixtures.XXXXXX")
trap 'rm -rf "$stage"' EXIT
max_bytes=1000000

# group -> kernel
groups=(rec-6.1 text-6.1 rec-6.12)
declare -A kernel_of=([rec-6.1]=6.1 [text-6.1]=6.1 [rec-6.12]=6.12)

for g in "${groups[@]}"; do
    echo "record-fixtures: booting $g (kernel ${kernel_of[$g]})" >&2
    "$here/vm-run.sh" --kernel "${kernel_of[$g]}" --cpus 2 --mem 1024 --timeout 900 \
        --bin /usr/bin/trace-cmd \
        --file "$here/guest/lib.sh:/kmag/lib.sh" \
        --file "$here/guest/wl.sh:/kmag/wl.sh" \
        --script "$here/guest/$g.sh" --out "$stage/$g"
done

# --------------------------------------------------------------- collect
new="$stage/new"
mkdir -p "$new"
: >"$stage/files.tsv"          # checked-in name, group, command, origin
for g in "${groups[@]}"; do
    while IFS=$'\t' read -r name cmd; do
        src="$stage/$g/$name"
        [ -f "$src" ] || { echo "record-fixtures: $g did not produce $name" >&2; exit 1; }
        case "$name" in
            *-v6.dat) xz -9 -T1 -c "$src" >"$new/$name.xz"; out=$name.xz ;;
            *) cp "$src" "$new/$name"; out=$name ;;
        esac
        printf '%s\t%s\t%s\t%s\n' "$out" "$g" "$cmd" guest >>"$stage/files.tsv"
    done <"$stage/$g/commands.tsv"
done
# trace-cmd report text, produced on the host from two of the v7 files
for pair in fn-report.txt:fn-filtered.dat fg-report.txt:fg-filtered.dat; do
    out=${pair%%:*} src=${pair#*:}
    (cd "$new" && trace-cmd report "$src" >"$out" 2>/dev/null)
    printf '%s\t%s\t%s\t%s\n' "$out" rec-6.1 "trace-cmd report $src" host >>"$stage/files.tsv"
done

too_big=$(find "$new" -type f -size +$((max_bytes - 1))c -printf '%f (%s bytes)\n')
[ -z "$too_big" ] || { echo "record-fixtures: fixture(s) not < 1 MB: $too_big" >&2; exit 1; }

# --------------------------------------------------------------- manifest
"$here/check-fixtures.sh" --no-verify --tsv --dir "$new" >"$stage/dat.tsv"

# text fixtures: count data lines
text_counts() { # FILE -> "events<TAB>dropped"
    awk '
        /^CPU:[0-9]+ \[LOST/ { n++; if (match($0, /LOST [0-9]+/)) s += substr($0, RSTART + 5, RLENGTH - 5); next }
        /^# tracer: function_graph/ { fg = 1 }
        /^#/ { next }
        fg && /\|/ { c++; next }
        !fg && /\[[0-9][0-9][0-9]\]/ { c++ }
        END { printf "%d\t%d/%d\n", c, n, s }' "$1"
}

kinfo() { # GROUP -> "release (package version)"
    local vi="$stage/$1/vm-info.txt"
    local pkg ver
    pkg=$(sed -n 's/^kernel_package=//p' "$vi")
    ver=$(sed -n 's/^kernel_version=//p' "$vi")
    echo "${pkg#linux-image-} ($ver)"
}

manifest="$new/fixtures.tsv"
{
    printf '# file\tformat\tkernel\tevents\tdropped\toverrun\tevent_types\tbytes\tcommand\n'
    while IFS=$'\t' read -r out g cmd _origin; do
        bytes=$(stat -c %s "$new/$out")
        case "$out" in
            *.dat|*.dat.xz)
                IFS=$'\t' read -r _ ver compr _ events dropped overrun types < <(awk -F'\t' -v f="$out" '$1 == f' "$stage/dat.tsv")
                fmt="trace.dat v$ver"
                [ "$compr" = none ] || fmt="$fmt $compr"
                [[ $out == *.xz ]] && fmt="$fmt, file xz-compressed"
                ;;
            *.txt)
                IFS=$'\t' read -r events dropped < <(text_counts "$new/$out")
                overrun="-"
                types="-"
                case "$out" in
                    *report*) fmt="text: trace-cmd report (host)" ;;
                    *pipe*) fmt="text: tracefs trace_pipe" ;;
                    *) fmt="text: tracefs trace" ;;
                esac
                ;;
        esac
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$out" "$fmt" "$(kinfo "$g")" \
            "$events" "$dropped" "$overrun" "$types" "$bytes" "$cmd"
    done <"$stage/files.tsv"
} >"$manifest"

# lost events exactly where intended
bad=$(awk -F'\t' '!/^#/ {
        lost = ($5 != "0/0" || ($6 != "-" && $6 != "0"))
        if ($1 ~ /lost/ && !lost) print $1 " (no lost events)"
        if ($1 !~ /lost/ && lost) print $1 " (dropped " $5 ", overrun " $6 ")"
    }' "$manifest" | paste -sd, -)
[ -z "$bad" ] || { echo "record-fixtures: unexpected lost-event state: $bad; host overloaded? run again" >&2; exit 1; }

# ------------------------------------------------------------------ README
gen="$stage/generated.md"
{
    echo "<!-- BEGIN GENERATED by tests/vm/record-fixtures.sh; do not edit by hand -->"
    echo
    echo "Last regenerated: $(date -u +%Y-%m-%d) with \`tests/vm/record-fixtures.sh\`"
    echo "(host trace-cmd: $(trace-cmd --version 2>&1 | grep -m1 version))."
    echo
    echo "### Files"
    echo
    echo "| file | bytes | format | kernel | events | dropped (markers/events) | overrun |"
    echo "|---|---:|---|---|---:|---|---:|"
    awk -F'\t' '!/^#/ { printf "| `%s` | %s | %s | %s | %s | %s | %s |\n", $1, $8, $2, $3, $4, $5, $6 }' "$manifest"
    echo
    echo "### Exact commands"
    echo
    echo "trace-cmd commands ran in the guest with cwd=/out; tracefs paths are"
    echo "relative to /sys/kernel/tracing; \`OUT\` is the fixture file."
    echo "Every fixture started from a reset tracer (tf_reset in"
    echo "tests/vm/guest/lib.sh: nop tracer, no filters, default options, default"
    echo "buffer size, empty buffer)."
    echo
    awk -F'\t' '!/^#/ { printf "- `%s`:\n  `%s`\n", $1, $9 }' "$manifest"
    echo
    echo "### VM boots"
    echo
    for g in "${groups[@]}"; do
        vi="$stage/$g/vm-info.txt"
        echo "- \`tests/vm/guest/$g.sh\`: package \`$(sed -n 's/^kernel_package=//p' "$vi")\`"
        echo "  version \`$(sed -n 's/^kernel_version=//p' "$vi")\`, vmlinuz sha256"
        echo "  \`$(sed -n 's/^vmlinuz_sha256=//p' "$vi")\`,"
        echo "  guest trace-cmd: $(grep -m1 version "$stage/$g/trace-cmd-version.txt" 2>/dev/null || echo 'not used'),"
        echo "  $(sed -n 's/^qemu_version=//p' "$vi"), boot+run $(sed -n 's/^elapsed_s=//p' "$vi") s."
        echo "  \`$(sed -n 's/^qemu_cmdline=//p' "$vi" | sed 's/ *$//')\`"
        [ -f "$stage/$g/funcgraph-retval.txt" ] && echo "  $(cat "$stage/$g/funcgraph-retval.txt")."
    done
    echo
    echo "<!-- END GENERATED -->"
} >"$gen"
awk -v gen="$gen" '
    /^<!-- BEGIN GENERATED/ { while ((getline l < gen) > 0) print l; skip = 1; next }
    /^<!-- END GENERATED/ { skip = 0; next }
    !skip' "$readme" >"$new/README.md"

# ------------------------------------------------------------------ install
# remove the fixtures of the previous run (as listed in its manifest) so
# renamed/dropped ones do not linger; other files are left alone
if [ -f "$dest/fixtures.tsv" ]; then
    awk -F'\t' '!/^#/ && $1 !~ /\// && $1 != "" { print $1 }' "$dest/fixtures.tsv" |
        while read -r old; do rm -f "${dest:?}/$old"; done
fi
cp "$new"/* "$dest/"
if [ -n "$keep_raw" ]; then
    mkdir -p "$keep_raw"
    for g in "${groups[@]}"; do rm -rf "${keep_raw:?}/$g"; cp -r "$stage/$g" "$keep_raw/$g"; done
fi
total=$(du -cb "$dest"/* | awk 'END { print $1 }')
nfix=$(grep -vc '^#' "$dest/fixtures.tsv")
echo "record-fixtures: wrote $nfix fixtures ($total bytes incl. README/manifest) to $dest in $(( $(date +%s) - start ))s" >&2
"$here/check-fixtures.sh" --dir "$dest"
