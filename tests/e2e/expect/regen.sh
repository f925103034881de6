#!/bin/bash
# SPDX-License-Identifier: MIT
# regen.sh - rewrite the golden files in tests/e2e/expect/ from a built kmag
# and show what changed, so a change of output layout is seen in review.
#
#   tests/e2e/expect/regen.sh [--check] [KMAG]
#
# KMAG defaults to $KMAG, else build/kmag of this checkout. Cases are listed in
# tests/e2e/expect/cases (add a line there, then run this). Goldens no case
# names any more are deleted. Prints `git diff --stat` and the diff of the
# golden directory, new (untracked) goldens included; exits 0.
# --check: write nothing, print the differences, exit 1 if there are any.
set -u
GOLDEN_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$GOLDEN_DIR/../../.." && pwd)
FIXTURES="$ROOT/tests/fixtures"
check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
KMAG=${1:-${KMAG:-$ROOT/build/kmag}}
if [ ! -x "$KMAG" ]; then
	echo "regen.sh: no kmag binary at $KMAG (build first: meson setup build && ninja -C build)" >&2
	exit 1
fi
. "$GOLDEN_DIR/golden-lib.sh"

W=$(mktemp -d "${TMPDIR:-/tmp}/kmag-golden.XXXXXX")
trap 'rm -rf "$W"' EXIT
golden_prepare "$W/fx" || { echo "regen.sh: cannot prepare the fixtures" >&2; exit 1; }
mkdir -p "$W/new"

fail=0
n=0
while read -r golden args; do
	set -f
	# shellcheck disable=SC2086 # the arguments are blank-separated words
	set -- $args
	set +f
	mkdir -p "$W/new/$(dirname "$golden")"
	if ! golden_run "$W/fx" "$golden" "$@" >"$W/new/$golden"; then
		echo "regen.sh: $golden: kmag $args failed:" >&2
		head -5 "$W/fx/stderr" >&2
		fail=1
	fi
	n=$((n + 1))
done < <(golden_cases)
[ "$fail" -eq 0 ] || { echo "regen.sh: nothing written" >&2; exit 1; }

# the goldens are the files in subdirectories (cases and scripts sit on top)
(cd "$GOLDEN_DIR" && find . -mindepth 2 -type f | sed 's|^\./||' | sort) >"$W/old.list"
(cd "$W/new" && find . -mindepth 2 -type f | sed 's|^\./||' | sort) >"$W/new.list"
sort -u "$W/old.list" "$W/new.list" >"$W/all.list"

if [ "$check" -eq 1 ]; then
	changed=0
	while read -r f; do
		a="$GOLDEN_DIR/$f" b="$W/new/$f"
		[ -f "$a" ] || a=/dev/null
		[ -f "$b" ] || b=/dev/null
		diff -u --label "a/$f" --label "b/$f" "$a" "$b" || changed=1
	done <"$W/all.list"
	echo "regen.sh: $n cases, goldens $([ $changed -eq 1 ] && echo differ || echo 'up to date')"
	exit "$changed"
fi

while read -r f; do
	[ -f "$W/new/$f" ] || rm -f "$GOLDEN_DIR/$f"
done <"$W/old.list"
cp -r "$W/new/." "$GOLDEN_DIR/"
find "$GOLDEN_DIR" -mindepth 1 -type d -empty -delete
echo "regen.sh: $n cases written to ${GOLDEN_DIR#"$ROOT"/}/"

cd "$ROOT" || exit 1
git rev-parse --git-dir >/dev/null 2>&1 || exit 0
rel=${GOLDEN_DIR#"$ROOT"/}
# new goldens are not in git diff: list them, then show them against /dev/null
# (not with `git add -N`: a later `git checkout` of the directory would empty them)
git ls-files --others --exclude-standard -- "$rel" >"$W/untracked"
git --no-pager diff --stat -- "$rel"
[ -s "$W/untracked" ] && echo " new, untracked: $(wc -l <"$W/untracked") files"
git --no-pager diff -- "$rel"
while read -r f; do
	git --no-pager diff --no-index -- /dev/null "$f"
done <"$W/untracked"
exit 0
