#!/bin/bash
# Every output option works in every format of its command or is refused
# with a message (one table, cli/formats.c); an output's name and its format
# agree. (issue 18, defects 4 and 8)
. "$(dirname "$0")/lib.sh"
FG=$(fixture_trace fg-filtered.dat)
mkdir -p "$T/diff"
A=$(fixture_trace diff/diff-fg-base.dat)
B=$(fixture_trace diff/diff-fg-tmpfs.dat)
O="$T/o"
mkdir -p "$O"

# --callers/--callees in csv: the edges to/from the function, as export's edge table has them
"$KMAG" export -F csv --table edges "$FG" >"$T/edges.csv"
for f in _raw_spin_lock vfs_read; do
	t_ok "report --callers $f -F csv" sh -c "'$KMAG' report --callers $f -F csv '$FG' >'$T/callers.csv'"
	t_eq "... lists exactly the edges into $f" \
		"$(awk -F, -v f=$f '$2 == f { print $1 "," $3 }' "$T/edges.csv" | sort)" \
		"$(awk -F, 'NR > 1 { print $1 "," $3 }' "$T/callers.csv" | sort)"
	t_ok "report --callees $f -F csv" sh -c "'$KMAG' report --callees $f -F csv '$FG' >'$T/callees.csv'"
	t_eq "... lists exactly the edges out of $f" \
		"$(awk -F, -v f=$f '$1 == f { print $2 "," $3 }' "$T/edges.csv" | sort)" \
		"$(awk -F, 'NR > 1 { print $2 "," $3 }' "$T/callees.csv" | sort)"
done
t_ok "report --callees vfs_read -F csv --limit 2" sh -c "'$KMAG' report --callees vfs_read -F csv --limit 2 '$FG' >'$T/n2.csv'"
t_eq "... the 2 most called callees" \
	"$(awk -F, '$1 == "vfs_read" { print $3 "," $2 }' "$T/edges.csv" | sort -t, -k1,1nr | head -2 | cut -d, -f2 | sort)" \
	"$(awk -F, 'NR > 1 { print $2 }' "$T/n2.csv" | sort)"

# combinations a format cannot show: refused, exit 2, one line naming the option
while IFS='|' read -r name cmd want; do
	[ -n "$name" ] || continue
	eval "set -- $cmd"
	t_exit "$name: refused" 2 "$KMAG" "$@"
	t_grep "$name: ... saying why" "$want" "$T/err"
done <<CMDS
report --probes csv|report --probes -F csv "$FG"|--probes works with the text or json formats, not csv
report --slowest csv|report --slowest 3 -F csv "$FG"|--slowest works with the text or json formats, not csv
report --probes --callers|report --probes --callers vfs_read "$FG"|separate views
report --slowest --callees|report --slowest 2 --callees vfs_read "$FG"|separate views
export --table json|export -F json --table edges "$FG"|--table works with the csv format, not json
export --table dot|export -F dot --table functions "$FG"|--table works with the csv format, not dot
export --weight csv|export -F csv -w calls "$FG"|--weight works with the folded format, not csv
export --weight chrome|export -F chrome -w calls "$FG"|--weight works with the folded format, not chrome
export --split-size json|export -F json --split-size 1M "$FG"|--split-size works with the chrome format, not json
export --filter-filepath folded|export -F folded --filter-filepath net "$FG"|--filter-filepath works with the csv, json or dot formats, not folded
diff --limit json|diff -F json --limit 3 "$A" "$B"|--limit works with the text format, not json
diff --all text|diff --all "$A" "$B"|--all works with the dot or html formats, not text
diff dot into .svg|diff -F dot -o "$O/d.svg" "$A" "$B"|named .svg but would hold dot; name it .dot
diff into .png|diff -o "$O/d.png" "$A" "$B"|named .png, which kmag diff does not write
export csv into .json|export -F csv -o "$O/e.json" "$FG"|named .json but would hold csv; name it .csv
flame into .png|flame -o "$O/f.png" "$FG"|named .png but would hold svg; name it .svg
flame folded into .svg|flame --folded "$O/f.svg" "$FG"|named .svg but would hold folded
html into .svg|html -o "$O/h.svg" "$FG"|named .svg but would hold html; name it .html
CMDS
t_eq "no refused command wrote a file" "" "$(ls -A "$O")"

# the name picks the format where none is given
if t_can_run "diff -o d.dot writes DOT" diff -o "$O/d.dot" "$A" "$B"; then
	t_ok "diff -o d.dot writes DOT" "$KMAG" diff -o "$O/d.dot" "$A" "$B"
	t_grep "... it is DOT" '^digraph' "$O/d.dot"
fi
t_ok "diff -o d.json writes JSON" "$KMAG" diff -o "$O/d.json" "$A" "$B"
t_ok "... it parses" python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$O/d.json"
t_ok "export -o e.csv writes CSV" "$KMAG" export -o "$O/e.csv" "$FG"
t_grep "... it is the functions table" '^function,calls,' "$O/e.csv"
t_ok "diff -F text -o d.txt (a name kmag does not know: as given)" "$KMAG" diff -F text -o "$O/d.txt" "$A" "$B"
t_done
