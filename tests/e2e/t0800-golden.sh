#!/bin/bash
# Golden files: the text, CSV, JSON and DOT outputs of report, visualize and
# diff on the fixtures equal tests/e2e/expect/ byte for byte (JSON one member
# per line). A change of output layout must come with regenerated goldens
# (tests/e2e/expect/regen.sh), so it shows up in review.
. "$(dirname "$0")/lib.sh"
GOLDEN_DIR="$SRCDIR/tests/e2e/expect"
. "$GOLDEN_DIR/golden-lib.sh"

W="$T/golden"
t_ok "fixtures prepared" golden_prepare "$W"
golden_cases >"$T/cases"
n=$(wc -l <"$T/cases")
# a broken cases file (say, all lines commented out) must not pass quietly
t_ok "at least 60 golden cases ($n)" test "$n" -ge 60

while read -r golden args; do
	set -f
	# shellcheck disable=SC2086 # the arguments are blank-separated words
	set -- $args
	set +f
	if [ ! -f "$GOLDEN_DIR/$golden" ]; then
		t_fail "$golden" "no golden file: run tests/e2e/expect/regen.sh"
		continue
	fi
	t_can_run "$golden: kmag $args" "$@" || continue
	if ! golden_run "$W" "$golden" "$@" >"$T/actual"; then
		t_fail "$golden: kmag $args" "exit status not 0" "$(head -c 1500 "$W/stderr")"
		continue
	fi
	if diff -u "$GOLDEN_DIR/$golden" "$T/actual" >"$T/diff"; then
		t_pass "$golden: kmag $args"
	else
		t_fail "$golden: kmag $args" "differs from the golden file (tests/e2e/expect/regen.sh rewrites it):" \
			"$(head -40 "$T/diff")"
	fi
done <"$T/cases"

# every golden file belongs to a case (a removed case takes its file along)
(cd "$GOLDEN_DIR" && find . -mindepth 2 -type f | sed 's|^\./||' | sort) >"$T/files"
cut -f1 -d' ' "$T/cases" | awk '{print $1}' | sort >"$T/listed"
t_eq "no golden file without a case" "" "$(comm -23 "$T/files" "$T/listed" | tr '\n' ' ')"
t_done
