#!/bin/bash
# The call graph's structure: node and edge counts, heat colours that follow
# the counts, escaping, bridges, focus, pruning, and picture sizes.
. "$(dirname "$0")/lib.sh"
t_need_feature graphviz
. "$(dirname "$0")/vis-lib.sh"

cd "$T" || exit 1
net_trace >t.txt
net_map >m.map

t_ok "SVG graph" "$KMAG" visualize --image-name g.svg --no-chart t.txt
t_eq "11 functions, 10 calls, no bridges, a hot path of 6 calls" "11 10 0 6" "$(svg_check g.svg counts)"
svg_check g.svg heat >heat.txt
t_eq "colours never get lighter as calls grow" ok "$(head -1 heat.txt)"
t_eq "the most called function is darkest red, the never-called entry lightest" \
	"#800026 #ffffcc" "$(tail -1 heat.txt)"
t_grep "odd names are escaped for SVG" '>we&lt;i&gt;rd&amp;&quot;fn\\<' g.svg
t_ok "the SVG is well-formed XML" python3 -c "import xml.etree.ElementTree as E; E.parse('g.svg')"
t_grep "the legend names the input" 't\.txt</text>' g.svg
t_grep "the legend has the heat scale" 'heat: calls \(log scale\)' g.svg

t_ok "DOT text" "$KMAG" visualize --image-name g.dot --no-chart t.txt
t_eq "DOT: 11 nodes" 11 "$(grep -cE '^	n[0-9]+	\[' g.dot)"
t_eq "DOT: 10 edges" 10 "$(grep -cE '^	n[0-9]+ -> n[0-9]+' g.dot)"
t_grep "odd names are escaped in HTML labels (backslash doubled)" '<B>we&lt;i&gt;rd&amp;&quot;fn\\\\</B>' g.dot
t_grep "... and in tooltips" 'tooltip="we<i>rd&\\"fn\\\\' g.dot
t_grep "edges carry call counts" 'label=300' g.dot

# Graphviz expands \N, \G, ... inside labels: backslashes must come out as typed
printf '# tracer: function\n bash-1 [000] d..1. 1.000001: a\\b\\ <-x\\N\n' >bs.txt
t_ok "names with backslashes" "$KMAG" visualize --image-name bs.svg --no-chart bs.txt
t_grep "a trailing backslash survives" '>a\\b\\</text>' bs.svg
t_grep "\\N is not replaced by the node id" '>x\\N</text>' bs.svg

t_ok "PNG graph" "$KMAG" visualize --image-name g.png --no-chart t.txt
read -r sw sh < <(svg_check g.svg size)
read -r pw ph < <(png_size g.png)
t_ok "the PNG has the SVG's size at 96 dpi ($pw x $ph vs $sw x $sh pt)" \
	test $((pw - sw * 4 / 3)) -ge -2 -a $((pw - sw * 4 / 3)) -le 2 -a $((ph - sh * 4 / 3)) -ge -2 -a $((ph - sh * 4 / 3)) -le 2

# path filter: hidden functions disappear with their edges; cut chains become dashed bridges
t_ok "path filter" "$KMAG" visualize --symbol-file-path m.map --filter-filepath net,/fs \
	--image-name net.svg --no-chart t.txt
t_eq "5 functions, 2 calls + 1 dashed bridge, 2 of them hot" "5 3 1 2" "$(svg_check net.svg counts)"
t_grep "the bridge says what it stands for" '>via 1 hidden<' net.svg
t_grep "its tooltip names the hidden function" 'via security_socket_sendmsg' net.svg
t_nogrep "hidden functions are not drawn" '>security_socket_sendmsg<|>do_syscall_64<' net.svg

# focus
t_ok "--root" "$KMAG" visualize --root sock_sendmsg --image-name root.svg --no-chart t.txt
t_eq "--root sock_sendmsg: itself and 3 callees" "4 3" "$(svg_check root.svg counts | cut -d' ' -f1-2)"
t_ok "--root --depth 1" "$KMAG" visualize --root sock_sendmsg --depth 1 --image-name d1.svg --no-chart t.txt
t_eq "--depth 1: itself and one callee" "2 1" "$(svg_check d1.svg counts | cut -d' ' -f1-2)"
t_ok "--callers" "$KMAG" visualize --callers vfs_read --image-name callers.svg --no-chart t.txt
t_eq "--callers vfs_read: the chain from the entry point" "4 3" "$(svg_check callers.svg counts | cut -d' ' -f1-2)"
t_grep "the focus function has a double border" 'peripheries=2|stroke' callers.svg

# pruning keeps the heaviest functions and the paths to them, and says so
t_ok "--max-nodes 4" "$KMAG" visualize --max-nodes 4 --image-name p.svg --no-chart t.txt
t_grep "the hottest function survived" '>_raw_spin_lock<' p.svg
t_eq "4 functions, 3 edges, one of them a dashed bridge" "4 3 1" "$(svg_check p.svg counts | cut -d' ' -f1-3)"
t_grep "the bridge stands for the pruned chain" 'via 3 hidden' p.svg
t_grep "stdout tells what was pruned" '7 lighter ones pruned \(--max-nodes 4; 0 shows all\)' "$T/ok.out"
t_grep "the legend tells too" 'pruned: 7 lighter functions' p.svg
t_ok "--max-nodes 7" "$KMAG" visualize --max-nodes 7 --image-name p7.svg --no-chart t.txt
t_eq "7: the whole chain to the hottest function fits, no bridge" "7 6 0" \
	"$(svg_check p7.svg counts | cut -d' ' -f1-3)"
t_done
