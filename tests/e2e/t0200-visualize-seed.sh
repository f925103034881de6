#!/bin/bash
# `kmag visualize` as the seed's `kernel-magnifier.py visualize`: default input
# and output names, the parse message, the chart, the seed's options.
. "$(dirname "$0")/lib.sh"
t_need_feature graphviz cairo
. "$(dirname "$0")/vis-lib.sh"

cd "$T" || exit 1
# the seed records trace_pipe text without a header into kernel-magnifier.data
{ net_trace | grep -v '^#'; echo "CPU:0 [LOST 42 EVENTS]"; emit do_syscall_64 ksys_read 2; } \
	>kernel-magnifier.data
t_ok "visualize with no arguments reads ./kernel-magnifier.data" "$KMAG" visualize
t_grep "prints how many events were parsed and lost" '^parsing completed, found 390 events, 42 lost' "$T/ok.out"
t_grep "announces the chart" '^function-calls.png generated$' "$T/ok.out"
t_grep "announces the graph" '^kernel-magnifier.pdf generated$' "$T/ok.out"
t_eq "the graph is a PDF" "%PDF-" "$(head -c 5 kernel-magnifier.pdf)"
t_ok "the PDF is not trivially small" test "$(stat -c %s kernel-magnifier.pdf)" -gt 5000
# 10 called functions (entry_SYSCALL_64 is only a caller), all in the top 30:
# 78 + 10 * 24 + 58 pixels high
t_eq "the chart is a 1200x376 PNG" "1200 376" "$(png_size function-calls.png)"

t_ok "--top 5 draws five bars" "$KMAG" visualize --top 5 --image-name g.dot --chart-name top5.png
t_eq "five bars: 1200x256" "1200 256" "$(png_size top5.png)"

# --filter-execution-no N hides functions called <= N times, and their calls
t_ok "--filter-execution-no 8" "$KMAG" visualize --filter-execution-no 8 --image-name few.svg --no-chart
t_grep "says how many were hidden" 'called <= 8 times' "$T/ok.out"
t_eq "few.svg: 7 functions (20, 12, 12, 12, 12, 300, 10 calls), 6 calls among them" "7 6" \
	"$(svg_check few.svg counts | cut -d' ' -f1-2)"
t_nogrep "vfs_read (8 calls) is gone" '>vfs_read<' few.svg
t_nogrep "no edge lost its ends" 'n[0-9]+ -> n[0-9]+.*n[0-9]+ -> ' few.svg

# the seed's symbol map and path filter
net_map >symbol-filepath.map
t_ok "--filter-filepath uses ./symbol-filepath.map" "$KMAG" visualize --filter-filepath net \
	--image-name net.dot --no-chart
t_grep "reports what the path filter hid" 'outside --filter-filepath' "$T/ok.out"
t_eq "net.dot: the three net functions" 3 "$(grep -cE '^	n[0-9]+	\[' net.dot)"
t_grep "security_socket_sendmsg is bridged" 'label="via 1 hidden"' net.dot
t_grep "the bridge is dashed" 'style=dashed' net.dot
t_grep "labels carry the source file" 'net/ipv4/tcp.c' net.dot
t_ok "--symbol-file-path names the map" "$KMAG" visualize --symbol-file-path symbol-filepath.map \
	--filter-filepath /fs/ --image-name fs.dot --no-chart
t_eq "fs.dot: ksys_read and vfs_read" 2 "$(grep -cE '^	n[0-9]+	\[' fs.dot)"
t_done
