#!/bin/bash
# `kmag visualize` on empty, fully filtered and one-function input, and wrong
# options: one clear line and the right exit code, never a crash or a
# half-written picture.
. "$(dirname "$0")/lib.sh"
t_need_feature graphviz cairo
. "$(dirname "$0")/vis-lib.sh"

cd "$T" || exit 1
net_trace >t.txt
net_map >m.map

printf '# tracer: function\n#\n' >empty.txt
t_exit "an empty trace is an error" 1 "$KMAG" visualize --image-name e.pdf empty.txt
t_grep "... naming the cause" 'empty.txt holds no events' "$T/err"
t_ok "... and leaves no picture behind" test ! -e e.pdf -a ! -e function-calls.png

printf '# tracer: nop\n#\n bash-1 [000] d..1. 1.000000: sched_switch: prev=a next=b\n' >events.txt
t_exit "a trace of other events only is an error" 1 "$KMAG" visualize --image-name e.pdf events.txt
t_grep "... saying what it holds" 'events.txt holds no function calls, only 1 other event \(sched_switch 1\)' "$T/err"

t_exit "everything filtered by --pid" 1 "$KMAG" visualize --pid 999 --image-name e.pdf t.txt
t_grep "... says which filter" 'matches the filters \(pid 999\); the trace holds' "$T/err"

t_exit "a path filter matching nothing" 1 "$KMAG" visualize --symbol-file-path m.map \
	--filter-filepath drivers/gpu --image-name e.pdf t.txt
t_grep "... explains" 'matches none of the 11 functions \(8 of them have a source file in m.map\)' "$T/err"

t_exit "a call threshold hiding everything" 1 "$KMAG" visualize --filter-execution-no 1000 \
	--image-name e.pdf t.txt
t_grep "... names the busiest count" 'at most 1000 times \(the busiest 300\)' "$T/err"

{ echo "# tracer: function"; emit "" lonely_fn 5 | sed 's/ <-$//'; } >one.txt
t_ok "a single function draws" "$KMAG" visualize --image-name one.svg --chart-name one.png one.txt
t_eq "one node, no edges" "1 0" "$(svg_check one.svg counts | cut -d' ' -f1-2)"
t_eq "a one-bar chart" "1200 160" "$(png_size one.png)"

t_exit "an unknown picture type is a usage error" 2 "$KMAG" visualize --image-name g.jpg t.txt
t_grep "... naming the types" 'name it .pdf, .png, .svg, .dot or .html' "$T/err"
t_exit "an unknown chart type is a usage error" 2 "$KMAG" visualize --chart-name c.gif t.txt
t_exit "--heat total without durations" 1 "$KMAG" visualize --heat total --image-name e.pdf t.txt
t_grep "... says how to get them" 'record with function_graph' "$T/err"
t_exit "an unknown --heat" 2 "$KMAG" visualize --heat hot t.txt
t_exit "--filter-filepath without a symbol map" 1 env -u KMAG_SYMBOL_MAP HOME="$T" \
	"$KMAG" visualize --filter-filepath net --image-name e.pdf t.txt
t_grep "... says how to make one" 'kmag generate-symbol-map' "$T/err"
t_exit "a missing symbol map file" 1 "$KMAG" visualize --symbol-file-path nope.map \
	--image-name e.pdf t.txt
t_grep "... names it" 'nope.map' "$T/err"
printf 'this is not a map\n' >bad.map
t_exit "a broken symbol map" 1 "$KMAG" visualize --symbol-file-path bad.map --image-name e.pdf t.txt
t_exit "--root of an unknown function" 1 "$KMAG" visualize --root sendmsg --image-name e.pdf t.txt
t_grep "... suggests similar names" 'did you mean .*sock_sendmsg' "$T/err"
t_exit "--root with a typo" 1 "$KMAG" visualize --root sock_sendmgs --image-name e.pdf t.txt
t_grep "... suggests the function it resembles" 'did you mean sock_sendmsg\?' "$T/err"
t_exit "report --callers with a typo" 1 "$KMAG" report --callers sock_sendmgs t.txt
t_grep "... the same suggestion" '--callers: function "sock_sendmgs" is not in the trace; did you mean sock_sendmsg\?' "$T/err"
t_exit "an unknown layout" 2 "$KMAG" visualize --layout frob t.txt
t_grep "... lists the known ones" 'knows: .*dot' "$T/err"
t_exit "--top 0" 2 "$KMAG" visualize --top 0 t.txt
t_exit "a non-numeric --max-nodes" 2 "$KMAG" visualize --max-nodes lots t.txt
t_exit "an unwritable picture" 1 "$KMAG" visualize --no-chart --image-name "$T/no/such/dir/g.pdf" t.txt
t_grep "... names the path and the reason" 'cannot create .*g.pdf: No such file' "$T/err"
t_exit "an unwritable chart" 1 "$KMAG" visualize --chart-name "$T/no/such/dir/c.png" t.txt
t_grep "... names the path and the reason, as for the picture" 'cannot create .*c.png: No such file' "$T/err"
t_exit "help" 0 "$KMAG" visualize --help
t_grep "help documents the seed's options" '--filter-execution-no' "$T/out"
t_ok "--layout sfdp works on small graphs too" "$KMAG" visualize --layout sfdp --image-name s.svg \
	--no-chart t.txt
t_eq "sfdp: all 11 functions" 11 "$(svg_check s.svg counts | cut -d' ' -f1)"
t_done
