#!/bin/bash
# kmag flame: folded stacks that add up to the report, the SVG, per-task and
# reversed stacks, and a clear refusal for function-tracer data.
. "$(dirname "$0")/lib.sh"
# the kmag diff fixture pairs (tests/fixtures/traces/diff/, see its README section)
diff_fixture() { mkdir -p "$T/diff" && fixture_trace "diff/$1"; }
H="$SRCDIR/tests/e2e/helpers"
FG=$(diff_fixture diff-fg-tmpfs.dat)
FN=$(diff_fixture diff-fn-base.dat)

"$KMAG" report -F csv --limit 0 "$FG" >"$T/report.csv"
t_ok "flame writes SVG and folded stacks" "$KMAG" flame -o "$T/f.svg" --folded "$T/f.folded" "$FG"
t_grep "folded lines are 'a;b;c weight'" '^ksys_write;vfs_write;generic_file_write_iter;[^ ]+ [0-9]+$' "$T/f.folded"
t_ok "folded self times sum to the report's, per function too" \
	python3 "$H/folded-check.py" "$T/f.folded" "$T/report.csv" self_ns
t_ok "calls-weighted stacks sum to the report's calls" \
	sh -c "'$KMAG' flame -w calls --folded '$T/c.folded' '$FG' && python3 '$H/folded-check.py' '$T/c.folded' '$T/report.csv' calls"
t_ok "reversed stacks start at the function that ran and sum the same" \
	sh -c "'$KMAG' flame --reverse --folded '$T/r.folded' '$FG' && python3 '$H/folded-check.py' '$T/r.folded' '$T/report.csv' self_ns --reverse"
t_ok "the SVG is well-formed XML" python3 -c "import xml.etree.ElementTree as E; E.parse('$T/f.svg')"
n=$(grep -c '<g data-d=' "$T/f.svg")
t_ok "the SVG draws frames ($n)" test "$n" -gt 100
t_grep "hover text gives calls and time" '<title>generic_perform_write' "$T/f.svg"
t_grep "the hover line has the numbers" 'incl\. callees, self [0-9.]+ [mun]?s, 16 calls of this stack' "$T/f.svg"
t_grep "the interaction script is embedded" 'function kfZoom' "$T/f.svg"
t_nogrep "no external references" '(src|href)="https?:' "$T/f.svg"
t_ok "icicle layout" "$KMAG" flame --icicle -o "$T/i.svg" "$FG"
first_y() { python3 -c "
import sys, xml.etree.ElementTree as E
ns = '{http://www.w3.org/2000/svg}'
for g in E.parse(sys.argv[1]).iter(ns + 'g'):
    if g.get('data-d') == '1':
        print(float(g.find(ns + 'rect').get('y'))); break" "$1"; }
t_ok "flame graphs grow upwards, icicles downwards" \
	python3 -c "import sys; sys.exit(not float('$(first_y "$T/f.svg")') > float('$(first_y "$T/i.svg")'))"
t_ok "per comm: one base frame per command" "$KMAG" flame --per comm --folded "$T/p.folded" "$FG"
t_eq "the base frames are the commands" "dd wl-diff.sh" "$(cut -d';' -f1 "$T/p.folded" | sort -u | tr '\n' ' ' | sed 's/ $//')"
t_ok "per pid" "$KMAG" flame --per pid --folded "$T/pp.folded" "$FG"
t_grep "per pid base frames are comm-pid" '^dd-[0-9]+;ksys_' "$T/pp.folded"
t_ok "--pid filters the stacks" "$KMAG" flame --pid "$(grep -o '^dd-[0-9]*' "$T/pp.folded" | head -1 | cut -d- -f2)" --folded "$T/pid.folded" "$FG"
t_grep "that task's stacks are there" '(^|;)ksys_(read|write);' "$T/pid.folded"
t_nogrep "only that task's stacks remain" 'proc_reg_read|seq_read' "$T/pid.folded"
# real traces from the VM fixture set: events lost, two CPUs, every function
for f in fg-lost-v6 fg-2cpu-v6 fg-all-cpu0-v6; do
	tr=$(fixture_trace $f.dat)
	"$KMAG" report -F csv --limit 0 "$tr" >"$T/$f.csv" 2>/dev/null
	t_ok "$f: folded stacks add up to the report" \
		sh -c "'$KMAG' flame --folded '$T/$f.folded' '$tr' 2>'$T/$f.err' && python3 '$H/folded-check.py' '$T/$f.folded' '$T/$f.csv' self_ns"
done
t_grep "fg-lost-v6: the lost events are reported" 'CPU1: 2633 events lost' "$T/fg-lost-v6.err"
t_grep "fg-lost-v6: calls whose frames are lost sit under [unknown]" '\[unknown\]' "$T/fg-lost-v6.folded"
t_exit "function tracer data has no stacks" 1 "$KMAG" flame -o "$T/x.svg" "$FN"
t_grep "and kmag says so" 'function tracer.*function_graph' "$T/err"
t_ok "nothing was written for it" test ! -e "$T/x.svg"
t_exit "a filter that leaves nothing" 1 "$KMAG" flame --pid 999999 -o "$T/y.svg" "$FG"
t_grep "is named as the cause" 'no event of .* matches the filters \(pid 999999\); the trace holds' "$T/err"
t_exit "bad --weight is a usage error" 2 "$KMAG" flame -w bytes "$FG"
t_exit "bad --per is a usage error" 2 "$KMAG" flame --per cpu "$FG"
t_exit "both outputs on stdout is a usage error" 2 "$KMAG" flame -o - --folded - "$FG"

# names that need escaping stay text in the SVG
cat >"$T/evil.txt" <<'TXT'
# tracer: function_graph
#
  100.000000 |   0)   bash-123    |               |  ksys_read() {
  100.000003 |   0)   bash-123    |   1.000 us    |    </text><script>x=1</script>&"'();
  100.000009 |   0)   bash-123    |   9.000 us    |  }
TXT
t_ok "a trace with markup in a name" "$KMAG" flame -o "$T/evil.svg" "$T/evil.txt"
t_ok "still gives well-formed XML" python3 -c "import xml.etree.ElementTree as E; E.parse('$T/evil.svg')"
t_grep "the name is escaped" '<title>&lt;/text&gt;&lt;script&gt;x=1&lt;/script&gt;&amp;&quot;&#39;' "$T/evil.svg"
t_nogrep "and appears nowhere raw" '<script>x=1' "$T/evil.svg"
t_done
