#!/bin/bash
# Hostile function names and command names are escaped in every output:
# JSON, CSV, SVG, DOT, HTML, flame SVG, Chrome JSON, folded stacks.
. "$(dirname "$0")/lib.sh"

EVIL='</script><img_src=x_onerror=alert`1`>'
AMP='a&b"c'"'"'d'
# function_graph text with funcgraph-abstime and -proc: the task column
# carries the comm, the time column lets the Chrome export place the calls
cat >"$T/evil.txt" <<TRACE
# tracer: function_graph
#
#     TIME        CPU  TASK/PID         DURATION                  FUNCTION CALLS
  100.000001 |   0)  ev<il>"-42    |               |  do_thing() {
  100.000002 |   0)  ev<il>"-42    |               |    $EVIL() {
  100.000003 |   0)  ev<il>"-42    |   1.000 us    |      $AMP();
  100.000005 |   0)  ev<il>"-42    |   2.000 us    |      back\\slash\\N();
  100.000008 |   0)  ev<il>"-42    |   5.000 us    |    }
  100.000010 |   0)  ev<il>"-42    |   9.000 us    |  }
TRACE
cp "$T/evil.txt" "$T/evil2.txt"
printf '  100.000020 |   0)  ev<il>"-42    |   3.000 us    |  %s();\n' "$EVIL" >>"$T/evil2.txt"

t_exit "report json" 0 "$KMAG" report --format json "$T/evil.txt"
t_ok "json keeps the names" python3 -c '
import json,sys
r=json.load(open(sys.argv[1])); n={f["name"] for f in r["functions"]}
assert sys.argv[2] in n and sys.argv[3] in n and "back\\slash\\N" in n, n' "$T/out" "$EVIL" "$AMP"
t_nogrep "json: no raw </script> in the output" '</script>' "$T/out"
t_exit "report csv" 0 "$KMAG" report --format csv "$T/evil.txt"
t_ok "csv parses and keeps the names" python3 -c '
import csv,sys
n={r["function"] for r in csv.DictReader(open(sys.argv[1]))}
assert sys.argv[2] in n and sys.argv[3] in n, n' "$T/out" "$EVIL" "$AMP"

if t_has_feature graphviz; then
	t_exit "visualize svg" 0 "$KMAG" visualize --no-chart --image-name "$T/g.svg" "$T/evil.txt"
	t_ok "svg is well-formed XML with the names as text" python3 -c '
import sys, xml.etree.ElementTree as ET
t=ET.parse(sys.argv[1]); text="".join(t.getroot().itertext())
assert sys.argv[2] in text and sys.argv[3] in text' "$T/g.svg" "$EVIL" "$AMP"
	t_nogrep "svg: no raw <img element" '<img' "$T/g.svg"
	t_exit "visualize dot" 0 "$KMAG" visualize --no-chart --image-name "$T/g.dot" "$T/evil.txt"
	t_ok "dot is accepted by Graphviz" dot -Tsvg -o "$T/g2.svg" "$T/g.dot"
	t_ok "the names survive the DOT round trip" python3 -c '
import sys, xml.etree.ElementTree as ET
text="".join(ET.parse(sys.argv[1]).getroot().itertext())
assert sys.argv[2] in text and sys.argv[3] in text' "$T/g2.svg" "$EVIL" "$AMP"
else
	t_skip "visualize svg and dot" "this kmag was built without graphviz"
fi


# page_has PAGE TEXT: the page's embedded data (the kmag-data JSON) holds TEXT,
# so the "never appears unescaped" checks look at a page that has the name
page_has() { python3 -c '
import json, re, sys
page = open(sys.argv[1]).read()
m = re.search(r"<script type=\"application/json\" id=\"kmag-data\">(.*?)</script>", page, re.S)
assert m, "no kmag-data"
assert sys.argv[2] in json.dumps(json.loads(m.group(1)), ensure_ascii=False), "name not in the data"' "$1" "$2"; }
t_exit "html explorer" 0 "$KMAG" html -o "$T/x.html" "$T/evil.txt"
t_ok "html: the page's data holds the hostile name" page_has "$T/x.html" "$EVIL"
t_nogrep "html: the hostile name never appears unescaped" '</script><img' "$T/x.html"
t_nogrep "html: the hostile comm never appears unescaped" 'ev<il>' "$T/x.html"
t_exit "visualize .html" 0 "$KMAG" visualize --no-chart --image-name "$T/v.html" "$T/evil.txt"
t_ok "visualize html: the page's data holds the hostile name" page_has "$T/v.html" "$EVIL"
t_nogrep "visualize html: no raw hostile name" '</script><img' "$T/v.html"

t_exit "flame svg" 0 "$KMAG" flame -o "$T/f.svg" --per comm "$T/evil.txt"
t_ok "flame svg is well-formed XML" python3 -c '
import sys, xml.etree.ElementTree as ET
text="".join(ET.parse(sys.argv[1]).getroot().itertext())
assert sys.argv[2] in text' "$T/f.svg" "$EVIL"
t_nogrep "flame svg: no raw <img" '<img' "$T/f.svg"

t_exit "chrome export" 0 "$KMAG" export -F chrome -o "$T/c.json" "$T/evil.txt"
t_ok "chrome json parses, names and comm kept" python3 -c '
import json,sys
d=json.load(open(sys.argv[1])); ev=d["traceEvents"] if isinstance(d,dict) else d
names={e.get("name") for e in ev}
assert sys.argv[2] in names, names
assert any(e.get("args", {}).get("name", "").startswith("ev<il>\"") for e in ev)' "$T/c.json" "$EVIL"
t_exit "export json" 0 "$KMAG" export -F json -o "$T/e.json" "$T/evil.txt"
t_ok "export json parses" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/e.json"
if t_has_feature graphviz; then
	t_exit "export dot" 0 "$KMAG" export -F dot -o "$T/e.dot" "$T/evil.txt"
	t_ok "export dot is accepted by Graphviz" dot -Tsvg -o "$T/e.svg" "$T/e.dot"
else
	t_skip "export dot" "this kmag was built without graphviz"
fi
t_exit "export folded" 0 "$KMAG" export -F folded -o "$T/f.folded" "$T/evil.txt"
t_ok "folded lines are frames;...;frame weight" python3 -c '
import sys
lines = open(sys.argv[1]).readlines()
assert lines
for l in lines:
    stack, w = l.rstrip("\n").rsplit(" ", 1); assert int(w) >= 0 and stack' "$T/f.folded"

t_exit "diff html" 0 "$KMAG" diff -F html -o "$T/d.html" "$T/evil.txt" "$T/evil2.txt"
t_ok "diff html: the page's data holds the hostile name" page_has "$T/d.html" "$EVIL"
t_nogrep "diff html: no raw hostile name" '</script><img' "$T/d.html"
t_exit "diff json" 0 "$KMAG" diff -F json "$T/evil.txt" "$T/evil2.txt"
t_ok "diff json parses" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/out"
t_done
