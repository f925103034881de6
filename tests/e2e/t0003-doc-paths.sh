#!/bin/bash
# Documents the code and the README point to exist: every doc/*.md named in
# sources, headers, scripts, tests or top-level docs, and the .clang-format
# CODING_STYLE.md cites.
. "$(dirname "$0")/lib.sh"
cd "$SRCDIR" || exit 1

grep -rhoE --include='*.[ch]' --include='*.md' --include='*.sh' --include='*.py' \
	--include='*.js' --include='*.build' 'doc/[A-Za-z0-9_.-]+\.md' \
	README.md CODING_STYLE.md include lib render cli tests scripts bench tools 2>/dev/null |
	sort -u >"$T/refs"
t_ok "the sources name documents in doc/ ($(wc -l <"$T/refs"))" test -s "$T/refs"
while read -r doc; do
	t_ok "$doc exists" test -f "$doc"
done <"$T/refs"
t_ok "doc/trace-dat.md is among them (lib/trace/tracedat-format.h)" grep -qx doc/trace-dat.md "$T/refs"
t_ok ".clang-format exists (CODING_STYLE.md)" test -f .clang-format
if command -v clang-format >/dev/null; then
	t_ok "and clang-format can read it" clang-format --dump-config
else
	echo "# clang-format not installed: not checking that it reads .clang-format"
fi
t_done
