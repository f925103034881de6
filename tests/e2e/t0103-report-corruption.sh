#!/bin/bash
# trace.dat files cut at every section boundary and absurd names: one error
# line, exit 1, never a crash (the suite also runs under ASan/UBSan and
# valgrind); damaged compressed data and chunk counts are read past with a
# warning, an error only with --strict (issue 23; flipped bits in the pages:
# t0104).
. "$(dirname "$0")/lib.sh"

v7=$TRACES/fg-filtered.dat
v6=$(fixture_trace fg-sched-v6.dat)

# every v7 section start and end, and the start of each CPU's data
python3 - "$v7" >"$T/cuts" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
i = 10 + 2 + 1 + 1 + 4
i = b.index(0, i) + 1
i = b.index(0, i) + 1
i += 8
cuts = set()
while i + 16 <= len(b):
    sid, flags, _, size = struct.unpack_from('<HHIQ', b, i)
    cuts.update((i, i + 1, i + 16, i + 16 + size - 1))
    i += 16 + size
print('\n'.join(str(c) for c in sorted(cuts) if 0 < c < len(b)))
PY
# the cut list must not be empty (the loop below would then pass without a
# single run): trace-cmd's own reading of the file names its 10 sections, and
# each of their starts must be a cut point
trace-cmd dump --sections "$v7" 2>/dev/null |
	sed -n 's/.*\[Section *[0-9]* @ *\([0-9]*\).*/\1/p' >"$T/starts"
t_eq "trace-cmd lists 10 sections in fg-filtered.dat" 10 "$(wc -l <"$T/starts")"
t_eq "every section start is a cut point" "" "$(grep -vxFf "$T/cuts" "$T/starts" | tr '\n' ' ')"
t_eq "4 cut points per section" 40 "$(wc -l <"$T/cuts")"
fails=$T_FAILED
n=0
while read -r cut; do
	head -c "$cut" "$v7" >"$T/cut.dat"
	"$KMAG" report "$T/cut.dat" >/dev/null 2>"$T/err"
	rc=$?
	if [ $rc -ne 1 ] || [ "$(wc -l <"$T/err")" -ne 1 ] || ! grep -q 'trace.dat' "$T/err"; then
		t_fail "v7 cut at section boundary $cut" "exit $rc" "$(head -3 "$T/err")"
	fi
	n=$((n + 1))
done <"$T/cuts"
t_eq "v7 cut at each of $n section boundaries: one error line, exit 1" "$fails" "$T_FAILED"

# v6: the metadata is sequential; cut inside each part (header page, formats,
# kallsyms, printk, cmdlines, options, CPU table, data)
size=$(stat -c %s "$v6")
fails=$T_FAILED
n=0
for cut in 12 30 60 200 600 2000 6000 20000 40000 60000 $((size - 8192)) $((size - 100)); do
	[ "$cut" -lt "$size" ] || continue
	n=$((n + 1))
	head -c "$cut" "$v6" >"$T/cut.dat"
	"$KMAG" report "$T/cut.dat" >/dev/null 2>"$T/err"
	rc=$?
	if [ $rc -ne 1 ] || [ "$(wc -l <"$T/err")" -ne 1 ]; then
		t_fail "v6 cut at $cut" "exit $rc" "$(head -3 "$T/err")"
	fi
done
t_eq "all 12 v6 cut points lie inside the file" 12 "$n"
t_eq "v6 cut inside every part: one error line, exit 1" "$fails" "$T_FAILED"

# a zstd chunk of CPU data that does not decompress: skipped, the rest read
# (issue 23); an error with --strict
python3 "$SRCDIR/tests/e2e/helpers/v7-damage.py" "$v7" "$T/badchunk.dat" chunk
"$KMAG" report -F json "$v7" >"$T/good.json"
t_exit "damaged zstd chunk: read past it" 0 "$KMAG" report -F json "$T/badchunk.dat"
t_grep "the warning names the chunk" 'damaged: CPU 0, file offset [0-9]+: zstd chunk does not decompress; skipped [0-9]+ bytes, about [0-9]+ events' "$T/err"
t_ok "the other chunks are read: fewer events, but most" python3 -c '
import json, sys
good, bad = (json.load(open(p))["events"] for p in sys.argv[1:])
assert good / 2 < bad < good, (good, bad)' "$T/good.json" "$T/out"
t_exit "damaged zstd chunk, --strict: exit 1, one line" 1 "$KMAG" report --strict "$T/badchunk.dat"
t_grep "the error names the chunk" 'damaged trace.dat: CPU 0, file offset [0-9]+: zstd chunk does not decompress \(--strict' "$T/err"

# a chunk count claiming far more chunks than the file holds: the CPU's data ends first
python3 "$SRCDIR/tests/e2e/helpers/v7-damage.py" "$v7" "$T/chunks.dat" count
t_exit "absurd chunk count: read past it" 0 "$KMAG" report -F json "$T/chunks.dat"
t_grep "the warning says the count is wrong" 'chunk count promises more chunks than its data holds; nothing skipped' "$T/err"
t_ok "... and nothing is lost" python3 -c '
import json, sys
good, bad = (json.load(open(p)) for p in sys.argv[1:])
assert good["events"] == bad["events"] and good["functions"] == bad["functions"]' "$T/good.json" "$T/out"
t_exit "absurd chunk count, --strict: exit 1, one line" 1 "$KMAG" report --strict "$T/chunks.dat"

# a 1 MB function name in text input is handled (not a crash, not truncated)
python3 -c '
import sys
name = "f" * (1 << 20)
sys.stdout.write("# tracer: function\n")
sys.stdout.write("  ls-97 [000] ..... 1.000000: %s <-ksys_read\n" % name)
sys.stdout.write("  ls-97 [000] ..... 1.000001: vfs_read <-ksys_read\n")' >"$T/longname.txt"
t_exit "a 1 MB function name" 0 "$KMAG" report --format json "$T/longname.txt"
t_ok "the long name is kept whole" python3 -c '
import json,sys
r=json.load(open(sys.argv[1]))
assert max(len(f["name"]) for f in r["functions"]) == 1 << 20' "$T/out"
python3 -c 'import sys; sys.stdout.write("# tracer: function\n" + "x" * (20 << 20) + "\n")' >"$T/hugeline.txt"
t_exit "a 20 MB line: exit 1, one line" 1 "$KMAG" report "$T/hugeline.txt"
t_grep "the error says the line is too long" 'longer than 16 MB' "$T/err"

# hostile names are escaped in JSON and CSV
printf '# tracer: function\n  ls-97 [000] ..... 1.0: "a,b"\\x01<c> <-=cmd|calc\n' >"$T/hostile.txt"
printf '# tracer: function\n  ls-97 [000] ..... 1.0: a"b,c <-=cmd\n' >"$T/hostile.txt"
t_exit "hostile names (json)" 0 "$KMAG" report --format json "$T/hostile.txt"
t_ok "json parses and keeps the names" python3 -c '
import json,sys
r=json.load(open(sys.argv[1]))
names={f["name"] for f in r["functions"]}
assert "a\"b,c" in names and "=cmd" in names, names' "$T/out"
t_exit "hostile names (csv)" 0 "$KMAG" report --format csv "$T/hostile.txt"
t_ok "csv parses, formula prefix neutralised" python3 -c '
import csv,sys
rows={r["function"] for r in csv.DictReader(open(sys.argv[1]))}
assert "a\"b,c" in rows and "'"'"'=cmd" in rows, rows' "$T/out"
t_done
