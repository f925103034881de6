#!/bin/bash
# kmag generate-symbol-map on a kernel-like program built here with gcc.
. "$(dirname "$0")/lib.sh"
t_need_feature libdw
export HOME="$T/home"
mkdir -p "$HOME"
bash "$SRCDIR/tests/e2e/data/mini-kernel.sh" "$T" || { t_fail "building the mini kernel"; t_done; exit 1; }
K="$T/src/vmlinux"

t_exit "generate-symbol-map -k writes a map" 0 "$KMAG" generate-symbol-map -k "$K" -o "$T/k.map"
t_grep "the summary tells the count and the peak memory" 'mapped 5 functions .* peak memory' "$T/out"
t_grep "the map is versioned" '^# kmag symbol map v1$' "$T/k.map"
t_grep "the map names the kernel release" '^# release: 0\.0\.2-kmag-e2e$' "$T/k.map"
t_grep "functions map to their definition, tree-relative" \
	$'^tcp_like_send\tnet/ipv4/tcpish\\.c\t7\t[0-9a-f]+\t[0-9]+\t-$' "$T/k.map"
t_grep "same-named statics stay apart (1)" $'^helper\tnet/ipv4/tcpish\\.c\t' "$T/k.map"
t_grep "same-named statics stay apart (2)" $'^helper\tkernel/sched/fairish\\.c\t' "$T/k.map"
t_nogrep "no absolute paths" $'\t/' "$T/k.map"

t_exit "default output: the cache, named by release" 0 "$KMAG" generate-symbol-map -q -k "$K"
t_eq "quiet prints nothing" "" "$(cat "$T/out")"
t_exit "the default map exists" 0 test -s "$HOME/.cache/kmag/symbols-0.0.2-kmag-e2e.map"

t_exit "--format km writes the seed format" 0 "$KMAG" generate-symbol-map -q --format km -k "$K" -o "$T/seed.map"
t_grep "seed lines are name|path" '^pick_next\|kernel/sched/fairish\.c$' "$T/seed.map"
t_nogrep "seed maps have no header" '^#' "$T/seed.map"

t_exit "-m adds modules" 0 "$KMAG" generate-symbol-map -q -k "$K" -m "$T/src/mods" -o "$T/km.map"
t_grep "module functions carry their module" $'^minimod_work\tkernel/minimod\\.c\t4\t1000000\t[0-9]+\tminimod$' "$T/km.map"

t_exit "no debug vmlinux for a release: one error line" 1 \
	"$KMAG" generate-symbol-map -r 0.0.0-kmag-none -o "$T/x.map"
t_grep "the error names the release and the package or -k" '0\.0\.0-kmag-none.*-k VMLINUX' "$T/err"
t_grep "the error names a debug package" 'linux-image-0\.0\.0-kmag-none-dbg|kernel-debuginfo|debug package' "$T/err"
t_exit "a missing vmlinux is one error line" 1 "$KMAG" generate-symbol-map -k "$T/src/missing" -o "$T/x.map"
strip -g -o "$T/nodebug" "$K"
t_exit "a stripped vmlinux is one error line" 1 "$KMAG" generate-symbol-map -k "$T/nodebug" -o "$T/x.map"
t_grep "it says there is no debug info" 'no DWARF debug info' "$T/err"
echo "not elf" >"$T/junk"
t_exit "a non-ELF file is one error line" 1 "$KMAG" generate-symbol-map -k "$T/junk" -o "$T/x.map"
t_exit "an unwritable output is one error line" 1 "$KMAG" generate-symbol-map -k "$K" -o "$T/no/such/dir/x.map"
t_exit "a modules dir without modules is an error" 1 "$KMAG" generate-symbol-map -k "$K" -m "$T/src/include" -o "$T/x.map"
t_exit "unknown --format is a usage error" 2 "$KMAG" generate-symbol-map --format xml -k "$K"
t_exit "-k and -r together is a usage error" 2 "$KMAG" generate-symbol-map -k "$K" -r 1.2.3
t_exit "a stray argument is a usage error" 2 "$KMAG" generate-symbol-map "$K"
t_exit "--help exits 0" 0 "$KMAG" generate-symbol-map --help
t_grep "--help documents -m" '--modules DIR' "$T/out"
t_done
