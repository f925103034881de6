#!/bin/bash
# kmag merge: the sum of many recordings' profiles. Expected values come from
# each input's own `report --format json --limit 0`, summed by
# helpers/merge-sums.py, never from merge's output; then order and grouping
# must not matter, the profile must read back wherever a trace is read, kernels
# that differ are named, and bad inputs give one line and exit 1.
. "$(dirname "$0")/lib.sh"
SUMS="$SRCDIR/tests/e2e/helpers/merge-sums.py"
mkdir -p "$T/diff"
A=$(fixture_trace fg-filtered.dat)				# 6.1
B=$(fixture_trace diff/diff-fg-base.dat)			# 6.1, another recording
C=$(fixture_trace fg-filtered-6.12-v6.dat)		# 6.12
FN=$(fixture_trace fn-filtered.dat)			# the function tracer
cd "$T" || exit 1

for x in A B C; do
	t_ok "report --format json of $x" "$KMAG" report --format json --limit 0 "${!x}"
	cp "$T/ok.out" "$T/$x.json"
done

# the sums
t_ok "merge of three traces" "$KMAG" merge -o abc.json "$A" "$B" "$C"
t_ok "are the sums of their reports" python3 "$SUMS" sums abc.json A.json B.json C.json
t_ok "merge of the three reports" "$KMAG" merge -o abc-json.json A.json B.json C.json
t_ok "sums the same" python3 "$SUMS" sums abc-json.json A.json B.json C.json
t_ok "merge of two" "$KMAG" merge -o ab.json "$A" "$B"
t_ok "two: the sums" python3 "$SUMS" sums ab.json A.json B.json
t_grep "two kernels alike: the profile names it" '"uname": "Linux kmag-vm 6\.1\.0-56-cloud-amd64' ab.json

# order and grouping
t_ok "C A B" "$KMAG" merge -o cab.json C.json "$A" B.json
t_ok "C A B == A B C" python3 "$SUMS" same cab.json abc.json
t_ok "merge(merge(A,B),C)" "$KMAG" merge -o ab-c.json ab.json "$C"
t_ok "merge(merge(A,B),C) == merge(A,B,C)" python3 "$SUMS" same ab-c.json abc.json
t_ok "merge(A,merge(C,B)) through a pipe" sh -c '"$1" merge "$2" "$3" 2>/dev/null | "$1" merge -o a-cb.json "$4" -' sh "$KMAG" "$C" "$B" "$A"
t_ok "merge(A,merge(C,B)) == merge(A,B,C)" python3 "$SUMS" same a-cb.json abc.json
t_ok "a merge of one is its report" "$KMAG" merge -o a1.json "$A"
t_ok "merge(A) == report of A" python3 "$SUMS" same a1.json A.json

# kernels that differ
t_ok "different kernels" "$KMAG" merge -o /dev/null "$A" "$C"
t_grep "a note names both kernels" '^kmag: note: .*6\.1\.0-56-cloud-amd64 \(.*fg-filtered\.dat\); 6\.12\.[^ ]* \(.*fg-filtered-6\.12-v6\.dat\)$' ok.err
t_eq "the note is one line" 1 "$(wc -l <ok.err)"
t_ok "kernels of the sources" python3 -c "
import json, sys
d = json.load(open('abc.json'))
k = sorted({s['kernel'] for s in d['sources']})
assert d['uname'] is None, d['uname']
assert len(k) == 2 and k[0] == '6.1.0-56-cloud-amd64' and k[1].startswith('6.12.'), k"
t_ok "same kernel: no note" "$KMAG" merge -o /dev/null "$A" "$B"
t_eq "same kernel: stderr empty" "" "$(cat ok.err)"
# a text trace names no kernel: nothing says it differs, as diff decides (kmag_uname_differ())
TX=$(fixture_trace fg-text.txt)
t_ok "diff of a 6.1 trace and a text trace without a kernel" "$KMAG" diff -F json "$A" "$TX"
t_grep "diff: the kernels do not differ" '"kernels_differ": false' ok.out
t_ok "merge of a text trace (no kernel) and a 6.1 trace" "$KMAG" merge -o tx.json "$TX" "$A"
t_eq "merge: no note either, stderr empty" "" "$(cat ok.err)"
t_grep "merge: the profile names the one kernel named" '"uname": "Linux kmag-vm 6\.1\.0-56-cloud-amd64' tx.json
t_ok "merge of a text trace and two kernels" "$KMAG" merge -o /dev/null "$TX" "$A" "$C"
t_grep "the note names both kernels, and the input that names none" \
	'^kmag: note: .*unknown \(.*fg-text\.txt\); 6\.1\.0-56-cloud-amd64 \(.*fg-filtered\.dat\); 6\.12\.[^ ]* \(.*fg-filtered-6\.12-v6\.dat\)$' ok.err

# the profile reads back wherever a trace is read
t_ok "report of the merge" "$KMAG" report abc.json
t_grep "names the kernels, with how many recordings each" '^# kernels: 6\.1\.0-56-cloud-amd64 \(2 recordings\), 6\.12\.[^ ]* \(1 recording\)$' ok.out
t_grep "names its recordings" '^# events: +[0-9,]+ in 3 recordings: .*fg-filtered\.dat, .*diff-fg-base\.dat, .*fg-filtered-6\.12-v6\.dat$' ok.out
t_ok "report --format json of the merge" "$KMAG" report --format json --limit 0 abc.json
cp ok.out again.json
t_ok "is the merge again" python3 "$SUMS" same again.json abc.json
# A's busiest function, and its calls in A, B and C together (from their reports)
read -r top calls < <(python3 -c "
import json
f = max(json.load(open('A.json'))['functions'], key=lambda f: (f['calls'], f['name']))['name']
print(f, sum(g['calls'] for r in 'ABC' for g in json.load(open(r + '.json'))['functions'] if g['name'] == f))")
t_ok "report --callers" "$KMAG" report --callers "$top" abc.json
if t_can_run "visualize DOT of the merge" visualize --image-name g.dot --no-chart; then
	t_ok "visualize DOT of the merge" "$KMAG" visualize --image-name g.dot --no-chart --max-nodes 0 abc.json
	t_grep "DOT has the busiest function with the calls of all three" "<B>$top</B>.*>$calls calls " g.dot
	t_grep "and functions A lacks" '<B>shmem_file_write_iter</B>' g.dot
fi
t_ok "html of the merge" "$KMAG" html -o page.html abc.json
t_grep "html shows its functions" "$top" page.html
t_ok "diff of a trace and the merge" "$KMAG" diff --limit 0 "$A" abc.json
t_grep "diff: B is the merge" '^# B: abc\.json \(function_graph' ok.out
t_grep "diff: everything of A grew or stayed" '^# functions: [0-9]+ in A, [0-9]+ in B: [0-9]+ added, 0 removed' ok.out
t_ok "export csv of the merge" "$KMAG" export -F csv abc.json

# source files: a report written with a symbol map names them; merge keeps them,
# and report --filter-filepath reads them from the profile, with no map at hand
MAP="$FIXTURES/symbols/6.1.0-56-cloud-amd64.subset.map"
t_ok "report of A with a map" "$KMAG" report --format json --limit 0 --symbol-file-path "$MAP" "$A"
cp ok.out A-src.json
t_ok "merge keeps the files" "$KMAG" merge -o src.json A-src.json "$C"
t_ok "A's functions have A's files" python3 -c "
import json
want = {f['name']: f['source'] for f in json.load(open('A-src.json'))['functions'] if f.get('source')}
got = {f['name']: f.get('source') for f in json.load(open('src.json'))['functions']}
assert len(want) > 100, len(want)
bad = [(n, s, got.get(n)) for n, s in want.items() if got.get(n) != s]
assert not bad, bad[:5]"
t_ok "--filter-filepath on the merge, no map" "$KMAG" report --format json --limit 0 --filter-filepath fs/read_write.c src.json
cp ok.out rw.json
t_ok "lists the functions of that file" python3 -c "
import json
want = sorted(f['name'] for f in json.load(open('A-src.json'))['functions'] if (f.get('source') or '').startswith('fs/read_write.c:'))
got = sorted(f['name'] for f in json.load(open('rw.json'))['functions'])
assert want and want == got, (want, got)"

# detected by content, not by name
cp A.json a-profile.dat
t_ok "a profile named .dat" "$KMAG" merge -o named.json a-profile.dat
t_ok "reads as the profile" python3 "$SUMS" same named.json A.json
cp "$A" a-trace.json
t_ok "a trace named .json" "$KMAG" report --format json --limit 0 a-trace.json
cp ok.out a-trace-report.json
t_ok "reads as the trace" python3 "$SUMS" same-but-names a-trace-report.json A.json

# what a profile cannot do: one line, exit 1
t_exit "replay of a profile" 1 "$KMAG" replay abc.json
t_grep "replay: says why" 'abc\.json is a profile .*replay needs a trace' err
t_exit "flame of a profile" 1 "$KMAG" flame -o f.svg abc.json
t_exit "report --pid of a profile" 1 "$KMAG" report --pid 1 abc.json
t_grep "--pid: says why" '--pid needs a trace' err
t_exit "report --errors of a profile" 1 "$KMAG" report --errors abc.json
t_grep "--errors: says why" 'abc\.json is a profile .*--errors needs a trace' err
t_exit "kmag errors of a profile" 1 "$KMAG" errors abc.json
t_grep "errors: says why" 'abc\.json is a profile .*errors needs a trace' err
t_exit "report --slowest of a profile" 1 "$KMAG" report --slowest 3 abc.json
t_grep "--slowest: says why" 'abc\.json is a profile .*--slowest needs a trace' err

# bad inputs: one line naming the file, exit 1
echo '{"hello": "world"}' >other.json
t_exit "JSON that is not a profile" 1 "$KMAG" merge other.json "$A"
t_grep "says so" 'other\.json is JSON but not a kmag profile' err
head -c 3000 A.json >cut.json
t_exit "truncated JSON" 1 "$KMAG" merge "$A" cut.json
t_grep "says where and that it may be truncated" 'cut\.json is not valid JSON \(line [0-9]+, column [0-9]+: .*\); is it truncated\?' err
t_exit "a file that does not exist" 1 "$KMAG" merge "$A" missing.json
t_grep "names it" 'missing\.json' err
mkdir adir
t_exit "a directory" 1 "$KMAG" merge "$A" adir
t_ok "report with --limit" "$KMAG" report --format json --limit 5 "$A"
cp ok.out part.json
t_exit "a partial report" 1 "$KMAG" merge part.json
t_grep "says to use --limit 0" 'part\.json lists only part of its functions.*--limit 0' err
python3 -c "
import json
d = json.load(open('A.json')); del d['kmag_profile']; json.dump(d, open('old.json', 'w'))"
t_exit "a report of an older kmag" 1 "$KMAG" merge old.json
t_grep "says to write it again" 'old\.json is a report of an older kmag' err
python3 -c "
import json
d = json.load(open('A.json')); d['functions'][3]['calls'] = -4; json.dump(d, open('neg.json', 'w'))"
t_exit "a negative count" 1 "$KMAG" merge neg.json
t_grep "names the function" 'neg\.json: not a valid kmag profile: function 4 ' err
t_exit "function and function_graph" 1 "$KMAG" merge "$A" "$FN"
t_grep "names both tracers" 'fn-filtered\.dat was recorded with the function tracer but .*fg-filtered\.dat with function_graph' err
t_exit "no input" 2 "$KMAG" merge -o x.json
t_ok "no output file after a failed merge" test ! -e x.json

# function tracer recordings merge too
FB=$(fixture_trace diff/diff-fn-base.dat)
t_ok "report of fn B" "$KMAG" report --format json --limit 0 "$FB"
cp ok.out FB.json
t_ok "report of fn A" "$KMAG" report --format json --limit 0 "$FN"
cp ok.out FA.json
t_ok "merge of function traces" "$KMAG" merge -o fn.json "$FN" FB.json
t_ok "function traces: the sums" python3 "$SUMS" sums fn.json FA.json FB.json
t_done
