# SPDX-License-Identifier: MIT
# bench/lib.sh - sourced by the bench scripts, from the repository root.
# Sets BUILD (default build-bench: a release build, not the test build) and
# WORK (default /tmp/kmag-bench, created); bench_build brings the build up to
# date and sets KMAG to its kmag, as an absolute path (some scripts cd).
BUILD=${BUILD:-build-bench}
WORK=${WORK:-/tmp/kmag-bench}
mkdir -p "$WORK"

bench_build() {
	if [ ! -f "$BUILD/build.ninja" ]; then
		meson setup "$BUILD" -Dbuildtype=release >/dev/null
	fi
	ninja -C "$BUILD" >/dev/null
	KMAG=$(realpath "$BUILD/kmag")
}
