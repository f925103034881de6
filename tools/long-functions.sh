#!/bin/sh
# tools/long-functions.sh - the functions longer than a limit (default 100
# lines, from the line of the name to the closing brace), longest first, as
# "LINES FILE:LINE NAME", then their count. CODING_STYLE.md: no function over
# ~100 lines without reason. Reads the C sources of the production folders
# (default cli lib render tui) with Universal Ctags.
#   tools/long-functions.sh [-n LINES] [DIR...]
set -eu
max=100
if [ "${1:-}" = "-n" ]; then
	max=$2
	shift 2
fi
[ $# -gt 0 ] || set -- cli lib render tui
command -v ctags >/dev/null || { echo "long-functions.sh: needs Universal Ctags (apt install universal-ctags)" >&2; exit 1; }
find "$@" -name '*.[ch]' | sort |
	ctags -L - --output-format=json --fields=+ne --c-kinds=f -o - |
	python3 -c '
import json, sys
limit = int(sys.argv[1])
rows = []
for line in sys.stdin:
    t = json.loads(line)
    if t.get("kind") != "function" or "end" not in t:
        continue
    n = t["end"] - t["line"] + 1
    if n > limit:
        rows.append((n, "%s:%d" % (t["path"], t["line"]), t["name"]))
for n, where, name in sorted(rows, key=lambda r: (-r[0], r[1])):
    print("%5d %s %s" % (n, where, name))
print("%d functions over %d lines" % (len(rows), limit))
' "$max"
