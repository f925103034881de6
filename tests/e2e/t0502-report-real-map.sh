#!/bin/bash
# kmag report on the real 6.1 fixtures with the real kernel's symbol map
# (tests/fixtures/symbols): file:line, same-named statics decided by address,
# --filter-filepath, the default map found by the trace's kernel release.
. "$(dirname "$0")/lib.sh"
export HOME="$T/home"
unset KMAG_SYMBOL_MAP
mkdir -p "$HOME"
MAP="$FIXTURES/symbols/6.1.0-56-cloud-amd64.subset.map"
ALL=$(fixture_trace fg-all-cpu0-v6.dat)
FG=$(fixture_trace fg-filtered.dat)
R="$KMAG report --limit 0 --symbol-file-path $MAP"

t_exit "report of a real trace with the real map" 0 $R "$ALL"
t_grep "file:line of a real function" '  load_elf_binary  \[fs/binfmt_elf\.c:851\]$' "$T/out"
t_grep "and of the scheduler tick" '  scheduler_tick  \[kernel/sched/core\.c:5512\]$' "$T/out"
# same-named functions, told apart by the trace's kallsyms addresses
t_grep "release_thread: the x86 one ran, not the weak default" \
	'  release_thread  \[arch/x86/kernel/process_64\.c:145\]$' "$T/out"
t_grep "copy_from_kernel_nofault_allowed: the x86 one" \
	'  copy_from_kernel_nofault_allowed  \[arch/x86/mm/maccess\.c:10\]$' "$T/out"
t_grep "prepend: fs/d_path.c, not apparmor's" '  prepend  \[fs/d_path\.c:57\]$' "$T/out"
t_nogrep "nothing is ambiguous with addresses" '\(\+[0-9]+ more\)' "$T/out"
t_nogrep "and no warning" 'several source files' "$T/err"

t_exit "--filter-filepath /fs/ on a real trace" 0 $R --filter-filepath /fs/ "$FG"
t_grep "the header counts the functions kept" '^# filters: path /fs/ \([0-9]+ of [0-9]+ functions\)$' "$T/out"
t_grep "vfs_write is kept" '  vfs_write  \[fs/read_write\.c:[0-9]+\]$' "$T/out"
rows=$(grep -Ec '^ +[0-9]+ ' "$T/out")
fsrows=$(grep -Ec '^ +[0-9]+ .*  \[fs/[^]]+\]$' "$T/out")
t_eq "every row is an fs/ function" "$rows" "$fsrows"
kept=$(sed -nE 's/^# filters: path \/fs\/ \(([0-9]+) of.*/\1/p' "$T/out")
t_eq "as many rows as the header says" "$kept" "$rows"

t_exit "net,kernel/sched/fair.c (the seed's example)" 0 $R --filter-filepath net,kernel/sched/fair.c "$ALL"
t_nogrep "no fs function passes" '  \[fs/' "$T/out"
t_grep "scheduler functions pass" '  \[kernel/sched/fair\.c:[0-9]+\]$' "$T/out"

t_exit "a text trace: no addresses" 0 $R "$(fixture_trace fn-text-overrun.txt)"
t_grep "a same-named static is ambiguous" '  release_thread  \[[a-z0-9_/]+\.c:[0-9]+ \(\+1 more\)\]$' "$T/out"
t_grep "with a warning" 'several source files' "$T/err"

mkdir -p "$HOME/.cache/kmag"
cp "$MAP" "$HOME/.cache/kmag/symbols-6.1.0-56-cloud-amd64.map"
t_exit "the map is found by the trace's kernel release" 0 "$KMAG" report --limit 5 "$ALL"
t_grep "file:line without options" '  \[[a-z0-9_/]+\.[chS]:[0-9]+\]$' "$T/out"
t_exit "--filter-filepath with the default map" 0 "$KMAG" report --limit 5 --filter-filepath /mm/ "$ALL"
t_grep "filters" '^# filters: path /mm/ ' "$T/out"
rm "$HOME/.cache/kmag/symbols-6.1.0-56-cloud-amd64.map"

sed 's/^# release: .*/# release: 6.1.0-99-cloud-amd64/' "$MAP" >"$T/other.map"
t_exit "a map of another kernel works, with a warning" 0 \
	"$KMAG" report --limit 5 --symbol-file-path "$T/other.map" "$ALL"
t_grep "the warning names both kernels and the fix" \
	'for kernel 6\.1\.0-99-cloud-amd64 but the trace was recorded on 6\.1\.0-56-cloud-amd64.*generate-symbol-map -r 6\.1\.0-56-cloud-amd64' "$T/err"
t_exit "no map for the trace's kernel: --filter-filepath says how to get one" 1 \
	"$KMAG" report --filter-filepath net "$ALL"
t_grep "names the release" 'kernel 6\.1\.0-56-cloud-amd64.*generate-symbol-map -r 6\.1\.0-56-cloud-amd64' "$T/err"
t_done
