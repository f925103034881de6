#!/bin/bash
# check-fixtures.sh - host-side sanity check of the trace.dat fixtures (no VM).
#
# Usage: check-fixtures.sh [--dir DIR] [--extract-to DIR] [--tsv] [--no-verify] [FILE...]
#
# For every trace.dat fixture (*.dat, *.dat.xz, *.dat.zst in DIR, default
# tests/fixtures/traces, or the FILEs given) it decompresses compressed ones
# (into a temporary directory, or into --extract-to DIR, e.g. the meson build
# directory, where they are left for the tests), runs `trace-cmd report` on it
# and prints one line per file:
#
#   file  version  compression  cpus  events  dropped  overrun  per-event-type
#
#   events   number of records in `trace-cmd report -R` (raw) output, i.e.
#            lines matching '[CPU] SECS.USECS: '; lost-event markers are not
#            counted. (The default report merges a function_graph entry+exit
#            pair of a leaf function into one line, so -R is used.)
#   dropped  N/M: N "CPU:c [M EVENTS DROPPED]" markers in the report (from the
#            missed-events flag of the ring-buffer pages), M the sum of the counts
#   overrun  sum over CPUs of "overrun:" in `trace-cmd report --stat` (kernel
#            ring-buffer statistics saved at the end of the recording)
#
# It fails (exit 1) if a file cannot be read, has no events, or -- unless
# --no-verify -- if events/dropped differ from DIR/fixtures.tsv (written by
# record-fixtures.sh). --tsv prints tab-separated values without a header
# and the column alignment.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
dir="$here/../fixtures/traces"
extract=""
tsv=0
verify=1
files=()
while [ $# -gt 0 ]; do
    case "$1" in
        --dir) dir=$2; shift 2 ;;
        --extract-to) extract=$2; shift 2 ;;
        --tsv) tsv=1; shift ;;
        --no-verify) verify=0; shift ;;
        -h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
        -*) echo "check-fixtures: unknown option '$1'" >&2; exit 2 ;;
        *) files+=("$1"); shift ;;
    esac
done
command -v trace-cmd >/dev/null || { echo "check-fixtures: trace-cmd not found; install the Debian package 'trace-cmd'" >&2; exit 1; }

if [ ${#files[@]} -eq 0 ]; then
    shopt -s nullglob
    files=("$dir"/*.dat "$dir"/*.dat.xz "$dir"/*.dat.zst)
    shopt -u nullglob
    [ ${#files[@]} -gt 0 ] || { echo "check-fixtures: no trace.dat fixtures in $dir" >&2; exit 1; }
fi
manifest="$dir/fixtures.tsv"
[ -f "$manifest" ] || verify=0

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kmag-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
[ -z "$extract" ] || mkdir -p "$extract"

fail=0
[ "$tsv" = 1 ] || printf '%-28s %3s %-5s %4s %8s %-12s %8s  %s\n' \
    FILE VER COMPR CPUS EVENTS DROPPED OVERRUN TYPES
for f in "${files[@]}"; do
    base=$(basename "$f")
    name=${base%.xz}
    name=${name%.zst}
    dest="${extract:-$tmp}/$name"
    case "$base" in
        *.xz) xz -dc "$f" >"$dest" ;;
        *.zst) zstd -qdc "$f" >"$dest" ;;
        *) dest=$f ;;
    esac
    if ! trace-cmd report -R "$dest" >"$tmp/report" 2>"$tmp/err"; then
        echo "check-fixtures: FAIL $base: trace-cmd report failed: $(tail -n 1 "$tmp/err")" >&2
        fail=1
        continue
    fi
    events=$(grep -cE '\[[0-9]{3}\] +[0-9]+\.[0-9]+: ' "$tmp/report" || true)
    types=$(sed -nE 's/.*\[[0-9]{3}\] +[0-9]+\.[0-9]+: +([A-Za-z0-9_]+):.*/\1/p' "$tmp/report" |
            sort | uniq -c | awk '{printf "%s%s=%s", sep, $2, $1; sep=","}')
    dropped=$(awk '/^CPU:[0-9]+ \[[0-9]* ?EVENTS DROPPED\]/ { n++; if (match($0, /\[[0-9]+/)) s += substr($0, RSTART + 1, RLENGTH - 1) }
                   END { printf "%d/%d", n, s }' "$tmp/report")
    cpus=$(sed -n 's/^cpus=//p' "$tmp/report" | head -n 1)
    overrun=$(trace-cmd report --stat "$dest" 2>/dev/null | awk '/^overrun:/ { s += $2 } END { print s + 0 }')
    trace-cmd dump --summary "$dest" >"$tmp/summary" 2>/dev/null || true
    ver=$(awk '/\[Version\]/ { print $1; exit }' "$tmp/summary")
    compr=$(awk '/\[Compression algorithm\]/ { print $1; exit }' "$tmp/summary")
    compr=${compr:-none}
    if [ "$events" -eq 0 ]; then
        echo "check-fixtures: FAIL $base: no events" >&2
        fail=1
    fi
    if [ "$verify" = 1 ]; then
        exp=$(awk -F'\t' -v f="$base" '$1 == f { print $4 "\t" $5; exit }' "$manifest")
        if [ -z "$exp" ]; then
            echo "check-fixtures: FAIL $base: not listed in $manifest" >&2
            fail=1
        elif [ "$exp" != "$events"$'\t'"$dropped" ]; then
            echo "check-fixtures: FAIL $base: events/dropped $events/$dropped, fixtures.tsv says ${exp//$'\t'//}" >&2
            fail=1
        fi
    fi
    if [ "$tsv" = 1 ]; then
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$base" "$ver" "$compr" "$cpus" "$events" "$dropped" "$overrun" "$types"
    else
        printf '%-28s %3s %-5s %4s %8s %-12s %8s  %s\n' "$base" "$ver" "$compr" "$cpus" "$events" "$dropped" "$overrun" "$types"
    fi
done
if [ "$fail" != 0 ]; then
    echo "check-fixtures: some fixtures FAILED" >&2
    exit 1
fi
