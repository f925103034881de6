#!/bin/bash
# `kmag visualize` on real kernel traces (tests/fixtures/traces, recorded on
# Debian's 6.1 cloud kernel): function and function_graph, trace.dat and text.
. "$(dirname "$0")/lib.sh"
t_need_feature graphviz cairo
. "$(dirname "$0")/vis-lib.sh"

cd "$T" || exit 1
fg=$(fixture_trace fg-filtered.dat)	# function_graph of ksys_read/ksys_write, v7 zstd
fn=$(fixture_trace fn-filtered.dat)	# function tracer, v7 zstd
lost=$(fixture_trace fn-lost-v6.dat)	# function tracer, tiny buffers: many events lost
fgtext=$(fixture_trace fg-text.txt)	# function_graph, tracefs text

t_ok "function tracer trace.dat, seed defaults" "$KMAG" visualize "$fn"
t_grep "all 3071 events parsed" '^parsing completed, found 3071 events$' "$T/ok.out"
t_grep "all 49 functions fit" '^graph: 49 of 49 functions shown$' "$T/ok.out"
t_eq "the chart has 30 bars" "1200 856" "$(png_size function-calls.png)"
t_eq "the graph is a PDF" "%PDF-" "$(head -c 5 kernel-magnifier.pdf)"

t_ok "lost events are reported" "$KMAG" visualize --no-chart --image-name l.dot "$lost"
t_grep "... with their count" '^parsing completed, found 45993 events, 58870 lost \(56\.14%\)' "$T/ok.out"

t_ok "function_graph trace.dat by total time" "$KMAG" visualize --heat total \
	--image-name fg.svg --chart-name fgc.svg "$fg"
t_grep "pruned to the default 100 of 285" '^graph: 100 of 285 functions shown, 185 lighter ones pruned' "$T/ok.out"
t_eq "100 functions drawn" 100 "$(svg_check fg.svg counts | cut -d' ' -f1)"
svg_check fg.svg heat-total >heat.txt
t_eq "colours never get lighter as total time grows" ok "$(head -1 heat.txt)"
t_grep "labels show total and self time" 'total 5\.713 ms &#183; self 239\.498 us|total 5\.713 ms · self 239\.498 us' fg.svg
t_ok "interrupts taken inside a call are blue" test "$(svg_check fg.svg irq)" -gt 0
t_grep "the legend explains blue" 'blue arrows' fg.svg
t_ok "the chart is well-formed SVG" python3 -c "import xml.etree.ElementTree as E; E.parse('fgc.svg')"

# the hottest path by total time: the write path down into the page cache
t_ok "DOT of the same view" "$KMAG" visualize --heat total --image-name fg.dot --no-chart "$fg"
hot=$(python3 -c "
import re
s = open('fg.dot').read()
print(' '.join(re.search(r'<B>([^<]*)</B>', a).group(1)
	       for n, a in re.findall(r'\t(n\d+)\t\[([^\]]*)\]', s) if 'penwidth=3' in a))")
for f in ksys_write vfs_write generic_perform_write shmem_write_begin shmem_get_folio_gfp; do
	t_grep "$f is on the hottest path" " $f |^$f | $f$" <(echo "$hot")
done
t_nogrep "ksys_read is not" "(^| )ksys_read( |$)" <(echo "$hot")

# a path filter on a real chain: vfs_write -> generic_file_write_iter ->
# __generic_file_write_iter -> generic_perform_write, the middle two unmapped
cat >fx.map <<'EOM'
ksys_write|fs/read_write.c
vfs_write|fs/read_write.c
ksys_read|fs/read_write.c
vfs_read|fs/read_write.c
generic_perform_write|mm/filemap.c
shmem_write_begin|mm/shmem.c
shmem_get_folio_gfp|mm/shmem.c
shmem_file_read_iter|mm/shmem.c
EOM
t_ok "path filter on a real trace" "$KMAG" visualize --symbol-file-path fx.map \
	--filter-filepath fs/read_write.c,mm/ --image-name pf.svg --no-chart "$fg"
t_eq "8 functions, 7 edges, 1 dashed" "8 7 1" "$(svg_check pf.svg counts | cut -d' ' -f1-3)"
t_grep "the bridge stands for the two write_iter functions" \
	'via generic_file_write_iter (-|&#45;)&gt; __generic_file_write_iter' pf.svg
t_grep "... and says how many" '>via 2 hidden<' pf.svg

t_ok "function_graph text, --root and --depth" "$KMAG" visualize --root ksys_read --depth 1 \
	--image-name r.dot --no-chart "$fgtext"
t_grep "the focus is marked" 'peripheries=2' r.dot
t_grep "vfs_read is one call away" '<B>vfs_read</B>' r.dot
t_nogrep "shmem_file_read_iter is two calls away" '<B>shmem_file_read_iter</B>' r.dot
t_done
