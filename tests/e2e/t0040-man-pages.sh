#!/bin/bash
# The man pages (doc/man/*.1.scd) and the --help texts cannot drift apart: for
# every command `kmag --help` lists, doc/man/kmag-CMD.1.scd exists, documents
# exactly the options `kmag CMD --help` lists (long and short), and has the
# sections a page needs; kmag(1) names every command; no page is left for a
# command that is gone. With scdoc installed, every page converts.
. "$(dirname "$0")/lib.sh"
MAN="$SRCDIR/doc/man"
OPTS="$SRCDIR/tests/e2e/helpers/help-options.py"

"$KMAG" --help >"$T/help" 2>&1
python3 "$OPTS" commands "$T/help" >"$T/commands"
t_ok "kmag --help lists the commands ($(wc -l <"$T/commands"))" test "$(wc -l <"$T/commands")" -ge 10

while read -r cmd; do
	page="$MAN/kmag-$cmd.1.scd"
	if [ ! -f "$page" ]; then
		t_fail "kmag $cmd has a man page" "missing: doc/man/kmag-$cmd.1.scd (write it from 'kmag $cmd --help'; see doc/man/kmag-report.1.scd)"
		continue
	fi
	"$KMAG" "$cmd" --help >"$T/h-$cmd" 2>&1
	python3 "$OPTS" help "$T/h-$cmd" >"$T/help-opts"
	python3 "$OPTS" scd "$page" >"$T/page-opts"
	t_ok "kmag $cmd --help lists options ($(wc -l <"$T/help-opts"))" test -s "$T/help-opts"
	if diff "$T/help-opts" "$T/page-opts" >"$T/d"; then
		t_pass "kmag-$cmd(1) documents exactly the options of kmag $cmd --help"
	else
		t_fail "kmag-$cmd(1) documents exactly the options of kmag $cmd --help" \
			"< only in --help, > only in the page:" "$(grep '^[<>]' "$T/d")"
	fi
	for s in NAME SYNOPSIS DESCRIPTION OPTIONS EXAMPLES 'EXIT STATUS' 'SEE ALSO'; do
		grep -qx "# $s" "$page" || t_fail "kmag-$cmd(1) has a section $s" "no '# $s' line in $page"
	done
	t_grep "kmag(1) lists $cmd under COMMANDS" "^\*$cmd\*\$" "$MAN/kmag.1.scd"
	t_grep "kmag(1) refers to kmag-$cmd(1)" "\*kmag-$cmd\*\(1\)" "$MAN/kmag.1.scd"
done <"$T/commands"

for page in "$MAN"/kmag-*.1.scd; do
	cmd=$(basename "$page" .1.scd); cmd=${cmd#kmag-}
	grep -qx "$cmd" "$T/commands" ||
		t_fail "doc/man/kmag-$cmd.1.scd is the page of a command" "kmag --help lists no command $cmd"
done

# Options are declared once, in each command's table (cli/options.h), which
# writes the --help lines: no string in cli/ spells an option line by hand.
grep -nE '^[[:space:]]*"( {2}-[A-Za-z], | {6}--[a-z])' "$SRCDIR"/cli/*.c "$SRCDIR"/cli/*.h >"$T/handwritten"
t_eq "no hand-written option line in a usage string of cli/" "" "$(head -5 "$T/handwritten")"

if command -v scdoc >/dev/null; then
	for page in "$MAN"/*.1.scd; do
		t_ok "scdoc converts $(basename "$page")" sh -c 'scdoc <"$1" >/dev/null' sh "$page"
	done
else
	echo "# scdoc not installed: not converting the pages"
fi
t_done
