#!/bin/bash
# kmag diff on two recordings of one workload, the second with extra tmpfs
# writes (tests/fixtures/traces/README.diff.md): the new write path must be
# flagged as added, the doubled calls as growth; the reverse diff and a
# trace against itself must say the opposite and nothing.
. "$(dirname "$0")/lib.sh"
# the kmag diff fixture pairs (tests/fixtures/traces/diff/, see its README section)
diff_fixture() { mkdir -p "$T/diff" && fixture_trace "diff/$1"; }
A=$(diff_fixture diff-fg-base.dat)
B=$(diff_fixture diff-fg-tmpfs.dat)
FA=$(diff_fixture diff-fn-base.dat)
FB=$(diff_fixture diff-fn-tmpfs.dat)

# status NAME JSON: "status callsA callsB" of function NAME
status() { python3 -c "
import json, sys
d = json.load(open(sys.argv[2]))
f = {x['name']: x for x in d['functions']}[sys.argv[1]]
c = lambda s: s['calls'] if s else '-'
print(f['status'], c(f['a']), c(f['b']))" "$1" "$2"; }

t_ok "text diff" "$KMAG" diff "$A" "$B"
t_grep "names both inputs" '^# A: .*diff-fg-base\.dat \(function_graph' "$T/ok.out"
t_grep "counts the changes" '^# functions: 167 in A, 248 in B: 91 added' "$T/ok.out"
t_grep "lists the new write path under Added" '^ +16 +[0-9.]+ [mu]?s +generic_perform_write$' "$T/ok.out"
t_grep "and the doubled ksys_write under Changed" '^ +17 +34 +\+17 .* ksys_write$' "$T/ok.out"
t_grep "and new call edges" 'added +vfs_write -> generic_file_write_iter' "$T/ok.out"
t_nogrep "no colour codes when not on a terminal" $'\033' "$T/ok.out"
t_ok "json diff" "$KMAG" diff -F json -o "$T/d.json" "$A" "$B"
for f in generic_file_write_iter generic_perform_write shmem_write_begin shmem_write_end; do
	t_eq "$f is added" "added - 16" "$(status $f "$T/d.json")"
done
t_eq "ksys_write grew" "grew 17 34" "$(status ksys_write "$T/d.json")"
t_eq "vfs_write grew" "grew 17 34" "$(status vfs_write "$T/d.json")"
# the second dd reads /dev/zero too: twice the calls, but they took less time
t_eq "read_zero, called twice as often in less time, shrank" "shrank 16 32" \
	"$(status read_zero "$T/d.json")"
t_eq "write_null did not change its calls" "same 17 18" "$(status write_null "$T/d.json")"
t_ok "edges carry their status" python3 -c "
import json; d = json.load(open('$T/d.json'))
e = {(x['caller'], x['callee']): x for x in d['edges']}
assert e[('vfs_write', 'generic_file_write_iter')]['status'] == 'added'
assert e[('ksys_write', 'vfs_write')]['status'] == 'grew'
assert e[('ksys_write', 'vfs_write')]['delta_calls'] == 17"
# a row marked grew (red) never took less time in B, one that shrank never more
t_ok "grew and shrank follow the total time" python3 -c "
import json; d = json.load(open('$T/d.json'))
rows = [f for f in d['functions'] if f['status'] in ('grew', 'shrank') and f['a'] and f['b']]
assert rows
for f in rows:
    a, b = f['a']['total_ns'], f['b']['total_ns']
    assert (b >= a) if f['status'] == 'grew' else (b <= a), (f['name'], f['status'], a, b)"
t_ok "reverse diff" "$KMAG" diff -F json -o "$T/r.json" "$B" "$A"
t_eq "the write path is removed" "removed 16 -" "$(status generic_perform_write "$T/r.json")"
t_eq "ksys_write shrank" "shrank 34 17" "$(status ksys_write "$T/r.json")"
t_ok "a trace against itself" "$KMAG" diff -F json -o "$T/s.json" "$A" "$A"
t_ok "has no changes" python3 -c "
import json; d = json.load(open('$T/s.json'))
assert all(x['status'] == 'same' for x in d['functions'] + d['edges'])
assert d['summary']['functions']['same'] == 167"
t_ok "function tracer pair" "$KMAG" diff -F json -o "$T/f.json" "$FA" "$FB"
t_eq "shmem_write_begin is added" "added - 16" "$(status shmem_write_begin "$T/f.json")"
t_eq "the tmpfs file's creation shows" "added - 1" "$(status shmem_create "$T/f.json")"
t_eq "ksys_write grew" "grew 17 34" "$(status ksys_write "$T/f.json")"
t_ok "colour on request" "$KMAG" diff --color always "$A" "$B"
t_grep "growth in red" $'\033\\[31m +16 .*generic_perform_write' "$T/ok.out"
t_grep "shrinkage in blue" $'\033\\[34m' "$T/ok.out"
if t_has_feature graphviz; then
	t_ok "dot diff" "$KMAG" diff -F dot -o "$T/d.dot" "$A" "$B"
	t_ok "Graphviz reads it" dot -Tsvg -o "$T/d.svg" "$T/d.dot"
	tr -d '\n\t' <"$T/d.dot" >"$T/d1.dot"	# one attribute list per match
	t_grep "added functions are red and bold" 'generic_perform_write[^;]*fillcolor="#f46d5d"[^;]*style="filled,bold"' "$T/d1.dot"
	t_grep "removed edges are dashed" 'kmag_status=removed,[^]]*style=dashed' "$T/d1.dot"
	n_changed=$(grep -c 'class="node"' "$T/d.svg")
	t_ok "dot --all draws every function" sh -c "'$KMAG' diff -F dot --all '$A' '$B' | dot -Tsvg >'$T/all.svg'"
	t_eq "all 258 of them" 258 "$(grep -c 'class="node"' "$T/all.svg")"
	t_ok "without --all, unchanged ones away from changes are left out ($n_changed)" test "$n_changed" -lt 258
else
	t_skip "diff -F dot" "this kmag was built without graphviz"
fi
t_ok "html diff" "$KMAG" diff -F html -o "$T/d.html" "$A" "$B"
t_grep "carries the diff data" '"mode":"diff"' "$T/d.html"
printf 'generic_perform_write|mm/filemap.c\nshmem_write_begin|mm/shmem.c\nksys_write|fs/read_write.c\nvfs_write|fs/read_write.c\n' >"$T/seed.map"
t_ok "diff with a source path filter" "$KMAG" diff -F json -o "$T/p.json" --symbol-file-path "$T/seed.map" --filter-filepath fs/ "$A" "$B"
t_ok "keeps only the functions of those files" python3 -c "
import json; d = json.load(open('$T/p.json'))
assert sorted(f['name'] for f in d['functions']) == ['ksys_write', 'vfs_write'], d['functions']
assert [(e['caller'], e['callee'], e['status']) for e in d['edges']] == [('ksys_write', 'vfs_write', 'grew')], d['edges']
assert d['path_filter'] == 'fs/' and d['summary']['functions']['grew'] == 2"
t_exit "one trace is a usage error" 2 "$KMAG" diff "$A"
t_exit "three traces are a usage error" 2 "$KMAG" diff "$A" "$B" "$A"
t_exit "a missing trace is an error" 1 "$KMAG" diff "$A" "$T/nope.dat"
t_grep "naming it" 'nope\.dat' "$T/err"
t_exit "bad --calls-pct" 2 "$KMAG" diff --calls-pct 300 "$A" "$B"
# latencies: every function's p50/p99 in A and B are trace-cmd's nearest-rank
# percentiles, changed past the time thresholds, listed largest move first
"$KMAG" diff -F json "$A" "$B" >"$T/lat.json"
"$KMAG" diff --limit 0 "$A" "$B" >"$T/lat.txt"
t_ok "p50/p99 of A and B compared (JSON and text)" \
	python3 "$SRCDIR/tests/e2e/helpers/diff-latency.py" "$T/lat.json" "$T/lat.txt" "$A" "$B"
"$KMAG" diff "$A" "$A" >"$T/same.txt"
t_grep "a trace against itself: no latency change" '^Latency changed, nearest-rank p50 or p99 \(0\)' "$T/same.txt"
t_done
