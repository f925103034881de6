#!/bin/bash
# Damaged trace.dat files (issue 23): one bit flipped at a time, at many
# places of the CPU data of several fixtures (v6 function_graph, function,
# with sched events, with overwritten events; v7 zstd of Linux 6.19),
# checked against trace-cmd 3.1 on the same files by
# tests/e2e/helpers/bitflips.py: kmag reads at least the records trace-cmd
# gets right, never crashes or hangs, warns with the numbers, and fails only
# under --strict. The totals are printed as comments.
. "$(dirname "$0")/lib.sh"
FLIPS="$SRCDIR/tests/e2e/helpers/bitflips.py"

# Bits flipped all over several fixtures: v6 function_graph (the issue's),
# function, with sched events, with overwritten events, and v7 zstd (6.19).
mkdir -p "$T/flips"
set -- fg-2cpu-v6.dat:10 fn-broad-v6.dat:5 fg-sched-v6.dat:5 fg-lost-v6.dat:5 6.19/fg619-retval.dat:5
# under ASan or valgrind (memory errors on damaged data) a few: each run is 5-20x slower
[ -n "${KMAG_VALGRIND:-}${ASAN_OPTIONS:-}" ] && set -- fg-2cpu-v6.dat:3 6.19/fg619-retval.dat:2
seed=23
for spec in "$@"; do
	name=${spec%:*}
	t_ok "$name: ${spec##*:} flipped bits read as trace-cmd does or better" \
		python3 "$FLIPS" "$KMAG" "$(fixture_trace "$name")" "$T/flips" "${spec##*:}" $((seed++))
	sed 's/^/# /' "$T/ok.out"
done
t_done
