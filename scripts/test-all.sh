#!/bin/bash
# SPDX-License-Identifier: MIT
# test-all.sh - install what is needed, build, and run kmag's full test suite:
#   1. unit, e2e, VM (real kernel in qemu), browser and Debian package tests on
#      a normal build
#   2. unit and e2e tests on a minimal build (no Graphviz, cairo, libtracecmd,
#      libdw): what needs one of them must skip or fail with a clear message
#   3. unit and e2e tests again under AddressSanitizer + UndefinedBehaviorSanitizer
#   4. the parallel trace.dat reader's unit tests under ThreadSanitizer (a
#      minimal build of the unit tests only: about 30 s)
#   5. unit and e2e tests again under valgrind memcheck (errors and leaks fail;
#      each e2e test memchecks its first 6 kmag runs, KMAG_VALGRIND_RUNS=0: all)
#   6. a short run of every fuzz target, two at a time (long runs: tests/fuzz/README.md)
# Ends with the line "N passed, N failed". Exit status 0 only if nothing failed.
#
# Options: --quick   only stage 1 without the VM tests (for a fast local loop)
#          --no-vm   skip the VM tests
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
QUICK=0 NOVM=0
for a in "$@"; do
	case $a in
	--quick) QUICK=1; NOVM=1 ;;
	--no-vm) NOVM=1 ;;
	*) echo "usage: scripts/test-all.sh [--quick] [--no-vm]" >&2; exit 2 ;;
	esac
done

# each stage's heading says how long the run has taken so far (CI's budget: 50 min)
log() { printf '\n=== %s (at %dm%02ds)\n' "$*" $((SECONDS / 60)) $((SECONDS % 60)); }
fail_setup() { echo "test-all: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

log "installing packages"
scripts/deps.sh --test || fail_setup "package installation failed"

# the host recording tests (tests/e2e/*-host.sh) need tracefs, which a fresh
# machine may not have mounted: without it they skip
if [ "$(id -u)" = 0 ] && ! grep -q ' /sys/kernel/tracing tracefs ' /proc/mounts; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
		echo "test-all: cannot mount tracefs at /sys/kernel/tracing: the host recording tests skip" >&2
fi
# the first use of tracing after boot expands the ring buffer for good
# (buffer_size_kb "7 (expanded: 1408)" -> "1410"), which the host tests'
# "tracefs is as it was found" checks would see: set the tracer it has (nop),
# which expands it as any first recording would
tr=/sys/kernel/tracing
if grep -qs expanded $tr/buffer_size_kb && [ "$(cat $tr/current_tracer)" = nop ]; then
	echo nop >$tr/current_tracer
fi

LOGS=()
run_suite() {	# run_suite BUILDDIR NAME [meson test args...]
	local dir=$1 name=$2; shift 2
	log "$name"
	meson test -C "$dir" --print-errorlogs --num-processes 2 "$@"
	local logf="$dir/meson-logs/testlog-$name.json"
	cp "$dir/meson-logs/testlog.json" "$logf" 2>/dev/null && LOGS+=("$logf")
}

log "build (debugoptimized)"
if [ ! -f build-ci/build.ninja ]; then
	meson setup build-ci >/dev/null || fail_setup "meson setup failed"
fi
ninja -C build-ci || fail_setup "build failed"

suites=(--suite unit --suite e2e)
[ -d tests/browser ] && suites+=(--suite browser)
# the Debian package: built once from a clean clone, with lintian (about 2 minutes)
[ -d tests/package ] && suites+=(--suite package)
[ "$NOVM" = 0 ] && suites+=(--suite vm)
run_suite build-ci main "${suites[@]}"

if [ "$QUICK" = 0 ]; then
	log "build (minimal: every optional library disabled)"
	if [ ! -f build-min/build.ninja ]; then
		meson setup build-min -Dgraphviz=disabled -Dcairo=disabled -Dlibtracecmd=disabled \
			-Dlibdw=disabled -Dtui=disabled >/dev/null || fail_setup "meson setup (minimal) failed"
	fi
	if ninja -C build-min; then
		run_suite build-min minimal --suite unit --suite e2e
	else
		fail_setup "build (minimal) failed"
	fi

	log "build (ASan + UBSan)"
	if [ ! -f build-asan/build.ninja ]; then
		meson setup build-asan -Db_sanitize=address,undefined -Db_lundef=false \
			-Dbuildtype=debug >/dev/null || fail_setup "meson setup (asan) failed"
	fi
	if ninja -C build-asan; then
		LSAN_OPTIONS=suppressions=$ROOT/tests/lsan.supp ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
			run_suite build-asan asan --suite unit --suite e2e
	else
		fail_setup "build (asan) failed"
	fi

	log "build (ThreadSanitizer: the unit tests only)"
	if [ ! -f build-tsan/build.ninja ]; then
		meson setup build-tsan -Db_sanitize=thread -Dbuildtype=debug -Dgraphviz=disabled \
			-Dcairo=disabled -Dlibtracecmd=disabled -Dlibdw=disabled -Dtui=disabled \
			>/dev/null || fail_setup "meson setup (tsan) failed"
	fi
	if ninja -C build-tsan tests/unit/kmag-unit; then
		# a data race makes the test's process exit 66
		KMAG_TSAN=1 run_suite build-tsan tsan --no-rebuild --test-args tracedat_par unit
	else
		fail_setup "build (tsan) failed"
	fi

	KMAG_VALGRIND=1 run_suite build-ci valgrind --suite valgrind-unit --suite e2e \
		--timeout-multiplier 10

	if [ -d tests/fuzz ] && [ -f build-ci/tests/fuzz/build.ninja -o -x tests/fuzz/run.sh ]; then
		log "fuzz (short run of every target)"
		tests/fuzz/run.sh --seconds "${KMAG_FUZZ_SECONDS:-60}" --parallel 2 --summary "$ROOT/build-ci/fuzz-summary.json" ||
			true
		[ -f build-ci/fuzz-summary.json ] && LOGS+=("build-ci/fuzz-summary.json")
	fi
fi

log "summary"
python3 scripts/summarize-tests.py "${LOGS[@]}"
