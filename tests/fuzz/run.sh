#!/bin/bash
# SPDX-License-Identifier: MIT
# run.sh - build the libFuzzer targets with clang (ASan + UBSan) and run each.
#
#   tests/fuzz/run.sh [--seconds N] [--jobs N] [--parallel N] [--only TARGET]
#                     [--summary FILE.json]
#
# Default 60 s per target (the test suite's short run); for a long run use
# e.g. --seconds 3600. --parallel N runs N targets at once (each gets its
# full time; scripts/test-all.sh runs two, one per core); --jobs N runs N
# libFuzzer workers on each target. Seeds come from tests/fuzz/corpus/<target> (regenerate
# with tests/fuzz/make-seeds.py) and tests/fuzz/regressions/<target>; new
# interesting inputs go to build-fuzz/corpus/<target> (not the repository).
# A crash, leak or timeout is written to build-fuzz/artifacts/ and fails the
# target: minimise it and keep it in tests/fuzz/regressions/<target>/, where
# the normal test suite replays it (suite fuzz-replay).
set -uo pipefail
cd "$(dirname "$0")/../.."
SECONDS_PER=60 JOBS=1 PARALLEL=1 ONLY="" SUMMARY=""
while [ $# -gt 0 ]; do
	case $1 in
	--seconds) SECONDS_PER=$2; shift 2 ;;
	--jobs) JOBS=$2; shift 2 ;;
	--parallel) PARALLEL=$2; shift 2 ;;
	--only) ONLY=$2; shift 2 ;;
	--summary) SUMMARY=$2; shift 2 ;;
	*) echo "usage: tests/fuzz/run.sh [--seconds N] [--jobs N] [--parallel N] [--only TARGET] [--summary FILE]" >&2; exit 2 ;;
	esac
done
B=build-fuzz
command -v clang >/dev/null || { echo "run.sh: clang is missing (apt-get install clang libclang-rt-dev)" >&2; exit 1; }
if [ ! -f $B/build.ninja ]; then
	CC=clang meson setup $B -Dfuzzing=true -Db_sanitize=address,undefined -Db_lundef=false \
		-Dbuildtype=debugoptimized >/dev/null || exit 1
fi
ninja -C $B $(for t in tracedat text symmap pages dwarf select render-text render-tracedat; do echo tests/fuzz/fuzz-$t; done) >/dev/null || exit 1
mkdir -p $B/artifacts
TARGETS=()
for t in tracedat text symmap pages dwarf select render-text render-tracedat; do
	[ -n "$ONLY" ] && [ "$ONLY" != "$t" ] && continue
	TARGETS+=("$t")
done

# run_target T: one target's run; its result (a JSON object) goes to
# $B/result-T.json, read back in the targets' order once all have ended
run_target() {
	local t=$1
	mkdir -p $B/corpus/$t
	local log=$B/fuzz-$t.log
	echo "fuzz-$t: ${SECONDS_PER}s"
	local dict=()	# the render targets get the hostile-name dictionary, text its syntax
	case $t in render-*) dict=(-dict=tests/fuzz/dict/render.dict) ;; text) dict=(-dict=tests/fuzz/dict/text.dict) ;; esac
	LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		$B/tests/fuzz/fuzz-$t -max_total_time="$SECONDS_PER" -timeout=20 -rss_limit_mb=3072 \
		-max_len=262144 "${dict[@]}" $([ "$JOBS" -gt 1 ] && echo "-jobs=$JOBS -workers=$JOBS") -print_final_stats=1 \
		-artifact_prefix=$B/artifacts/$t- \
		$B/corpus/$t tests/fuzz/corpus/$t tests/fuzz/regressions/$t >"$log" 2>&1
	local rc=$?
	local execs
	execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | awk '{s+=$2} END{print s+0}')
	if [ $rc -eq 0 ]; then
		echo "fuzz-$t: ok, $execs runs"
		echo "{\"name\": \"$t\", \"ok\": true, \"execs\": $execs}" >$B/result-$t.json
	else
		local why
		why=$(grep -m1 -E 'ERROR: |SUMMARY: |Test unit written' "$log" | tr '"\\' "''")
		echo "fuzz-$t: FAILED ($why); see $log"
		echo "{\"name\": \"$t\", \"ok\": false, \"execs\": $execs, \"why\": \"$why\"}" >$B/result-$t.json
	fi
}

running=0
for t in "${TARGETS[@]}"; do
	rm -f $B/result-$t.json
	if [ "$running" -ge "$PARALLEL" ]; then
		wait -n
		running=$((running - 1))
	fi
	run_target "$t" &
	running=$((running + 1))
done
wait

results=()
status=0
for t in "${TARGETS[@]}"; do
	if [ -f $B/result-$t.json ]; then
		results+=("$(cat $B/result-$t.json)")
		grep -q '"ok": true' $B/result-$t.json || status=1
	else
		echo "fuzz-$t: FAILED (the run left no result)"
		results+=("{\"name\": \"$t\", \"ok\": false, \"execs\": 0, \"why\": \"no result\"}")
		status=1
	fi
done
if [ -n "$SUMMARY" ]; then
	(IFS=,; echo "{\"targets\": [${results[*]}]}") >"$SUMMARY"
fi
exit $status
