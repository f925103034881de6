#!/bin/bash
# kmag html: one self-contained page, names escaped in the embedded data,
# options checked. (What the page does in a browser: t0650-browser.)
. "$(dirname "$0")/lib.sh"
# the kmag diff fixture pairs (tests/fixtures/traces/diff/, see its README section)
diff_fixture() { mkdir -p "$T/diff" && fixture_trace "diff/$1"; }
FG=$(diff_fixture diff-fg-tmpfs.dat)
FN=$(diff_fixture diff-fn-tmpfs.dat)

t_ok "html page of a function_graph trace" "$KMAG" html -o "$T/p.html" "$FG"
t_grep "it is an HTML document" '^<!DOCTYPE html>' "$T/p.html"
t_nogrep "it loads nothing from elsewhere" '<(link|img|iframe)|(src|href)="|url\([^#]|@import' "$T/p.html"
t_eq "the only web address is the SVG namespace" "http://www.w3.org/2000/svg" \
	"$(grep -oE 'https?://[^" )]+' "$T/p.html" | sort -u | tr '\n' ' ' | sed 's/ $//')"
t_ok "the embedded data is valid JSON with every function" python3 -c "
import json, re
page = open('$T/p.html').read()
m = re.search(r'<script type=\"application/json\" id=\"kmag-data\">(.*?)</script>', page, re.S)
d = json.loads(m.group(1))
assert d['mode'] == 'graph' and d['tracer'] == 'function_graph'
assert len(d['fn']['name']) == 248, len(d['fn']['name'])
assert len(d['edge']['src']) == 354
for k in ('calls', 'total', 'self', 'max', 'timed', 'inc'):
    assert len(d['fn'][k]) == 248, k
assert 'file' not in d['fn'], 'no symbol map, no file column'

i = d['fn']['name'].index('generic_perform_write')
assert d['fn']['calls'][i] == 16"
t_grep "the filters in effect are carried" '"filters":null' "$T/p.html"
t_ok "with filters" "$KMAG" html --comm dd -o "$T/f.html" "$FG"
t_grep "they are named" '"filters":"comm dd"' "$T/f.html"
t_ok "--focus picks the first function" "$KMAG" html --focus generic_perform_write -o "$T/x.html" "$FG"
t_grep "into the data" '"focus":"generic_perform_write"' "$T/x.html"
t_exit "--focus of an unknown function" 1 "$KMAG" html --focus generic_perform -o "$T/y.html" "$FG"
t_grep "suggests close names" 'did you mean .*generic_perform_write' "$T/err"
t_ok "function tracer traces get a page too" "$KMAG" html -o "$T/fn.html" "$FN"
t_grep "marked as having no stacks" '"hasStacks":false' "$T/fn.html"
LOST=$(fixture_trace fn-lost-v6.dat)
t_ok "a trace with lost events" "$KMAG" html -o "$T/l.html" "$LOST"
t_ok "carries the loss per CPU for the banner" python3 -c "
import json, re
page = open('$T/l.html').read()
d = json.loads(re.search(r'id=\"kmag-data\">(.*?)</script>', page, re.S).group(1))
assert [c['cpu'] for c in d['lost']] == [0, 1], d['lost']
assert all(c['lost'] > 0 and c['gaps'] > 0 for c in d['lost']), d['lost']"
t_ok "to stdout" sh -c "'$KMAG' html -o - '$FG' >'$T/s.html'"
t_ok "same page" cmp "$T/s.html" "$T/p.html"

cat >"$T/evil.txt" <<'TXT'
# tracer: function_graph
#
  100.000000 |   0)   bash-123    |               |  ksys_read() {
  100.000003 |   0)   bash-123    |   1.000 us    |    </script><script>x=1</script>&"'();
  100.000009 |   0)   bash-123    |   9.000 us    |  }
TXT
t_ok "a trace with markup in a function name" "$KMAG" html --title '<i>t</i>' -o "$T/e.html" "$T/evil.txt"
t_eq "no script element is closed early" 2 "$(grep -o '</script>' "$T/e.html" | wc -l)"
t_grep "the name is escaped in the data" '\\u003c/script>\\u003cscript>x=1\\u003c/script>&\\"' "$T/e.html"
t_grep "the title is escaped" '<title>&lt;i&gt;t&lt;/i&gt;</title>' "$T/e.html"
printf 'generic_perform_write|mm/filemap.c\nshmem_write_begin|mm/shmem.c\nksys_write|fs/read_write.c\n' >"$T/seed.map"
t_ok "with a symbol map" "$KMAG" html --symbol-file-path "$T/seed.map" -o "$T/m.html" "$FG"
t_ok "functions carry their source file" python3 -c "
import json, re
page = open('$T/m.html').read()
d = json.loads(re.search(r'id=\"kmag-data\">(.*?)</script>', page, re.S).group(1))
fn = d['fn']
src = {fn['name'][i]: d['files'][fn['file'][i]] for i in range(len(fn['name'])) if fn['file'][i] >= 0}
assert src == {'generic_perform_write': 'mm/filemap.c', 'shmem_write_begin': 'mm/shmem.c',
               'ksys_write': 'fs/read_write.c'}, src
assert d['symbolMap'] == 'yes'"
t_ok "--filter-filepath keeps the functions of matching files" \
	"$KMAG" html --symbol-file-path "$T/seed.map" --filter-filepath /mm -o "$T/p2.html" "$FG"
t_ok "only those are in the page, with the calls between them" python3 -c "
import json, re
page = open('$T/p2.html').read()
d = json.loads(re.search(r'id=\"kmag-data\">(.*?)</script>', page, re.S).group(1))
assert sorted(d['fn']['name']) == ['generic_perform_write', 'shmem_write_begin'], d['fn']['name']
pairs = {(d['fn']['name'][s], d['fn']['name'][t]) for s, t in zip(d['edge']['src'], d['edge']['dst'])}
assert pairs == {('generic_perform_write', 'shmem_write_begin')}, pairs
assert d['pathFilter'] == '/mm' and d['allFunctions'] == 248"
t_exit "--filter-filepath without any map" 1 "$KMAG" html --filter-filepath /mm -o "$T/p3.html" "$FG"
t_grep "asks for one" 'needs a symbol map' "$T/err"
t_exit "a missing symbol map is an error" 1 "$KMAG" html --symbol-file-path "$T/none.map" -o "$T/z.html" "$FG"
t_grep "naming it" 'none\.map' "$T/err"
t_ok "kmag visualize --image-name x.html writes the explorer" \
	sh -c "cd '$T' && '$KMAG' visualize --image-name v.html --no-chart --filter-execution-no 20 '$FG'"
t_ok "with the functions the view keeps (not pruned away)" python3 -c "
import json, re
d = json.loads(re.search(r'id=\"kmag-data\">(.*?)</script>', open('$T/v.html').read(), re.S).group(1))
calls = dict(zip(d['fn']['name'], d['fn']['calls']))
assert len(calls) == 31 and min(calls.values()) > 20, calls
assert d['filters'] == 'called > 20 times', d['filters']"
t_exit "an unknown option" 2 "$KMAG" html --frob "$FG"
# the function details' durations: p50/p90/p99 and the log2 histogram of every
# function, from trace-cmd's durations (helpers/html-latency.py)
t_ok "each function's percentiles and histogram are trace-cmd's" \
	python3 "$SRCDIR/tests/e2e/helpers/html-latency.py" "$T/p.html" "$FG"
F0=$(fixture_trace fg-all-cpu0-v6.dat)
"$KMAG" html -o "$T/all.html" "$F0"
t_ok "... also past 1,024 calls (bucketed)" \
	python3 "$SRCDIR/tests/e2e/helpers/html-latency.py" "$T/all.html" "$F0"
t_done
