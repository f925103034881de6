#!/bin/bash
# kmag tui --btf FILE and --vmlinux FILE, as the other commands take them (the
# shared option declarations), driven in a tmux pane: with the 6.19 BTF a
# call tree's arguments are named as the kernel prints them (as replay --btf
# shows them, "regs=0x..." instead of six raw registers); with the 6.19
# vmlinux the call's call site also shows as its source line, the line
# binutils' addr2line gives for the call instruction.
. "$(dirname "$0")/lib.sh"

t_need_feature tui btf

A=$TRACES/6.19/fg619-args.dat
xz -dc "$FIXTURES/btf/vmlinux-6.19.btf.xz" >"$T/vmlinux.btf"
PANE_WAIT=100
. "$(dirname "$0")/pane-lib.sh"
start() { tm new-session -d -s tui -x 160 -y 30 "$KMAG tui $* ; sleep 30"; }

# the first __x64_sys_openat as replay --btf prints it
"$KMAG" replay --btf "$T/vmlinux.btf" --function __x64_sys_openat --depth 1 --limit 1 "$A" >"$T/first"
CALL=$(sed -n 's/.*| *\(__x64_sys_openat([^)]*)\).*/\1/p' "$T/first")
t_grep "replay --btf names its argument" '^__x64_sys_openat\(regs=0x[0-9a-f]+\)$' <(echo "$CALL")
start --btf "$T/vmlinux.btf" "$A"
see "tui --btf: the table" "sorted by total"
keys / __x64_sys_openat Enter c Enter
see "tui --btf: the first __x64_sys_openat's tree, its argument named as replay --btf names it" \
	"- ${CALL//[()+]/.} \\{"
tm kill-session -t tui
start "$A"
see "without --btf: the table" "sorted by total"
keys / __x64_sys_openat Enter c Enter
see "without --btf: the six saved registers, unnamed" "- __x64_sys_openat\\(0x[0-9a-f]+, 0x[0-9a-f]+, "
tm kill-session -t tui
start --btf "$T/none" "$A"
see "tui --btf of a missing file: one line saying so" "^kmag: .*none"
tm kill-session -t tui

# --vmlinux: needs the 6.19 vmlinux with DWARF (not in the repository)
xzv=""
for d in "${KMAG_SHARED_KERNELS:-}" "$SRCDIR/../shared/kernels" "$SRCDIR/../../shared/kernels"; do
	[ -n "$d" ] && [ -f "$d/vmlinux-6.19.0.xz" ] && { xzv=$d/vmlinux-6.19.0.xz; break; }
done
if [ -z "$xzv" ] || ! t_has_feature libdw || ! command -v addr2line >/dev/null; then
	t_skip "tui --vmlinux" "needs libdw, addr2line and vmlinux-6.19.0.xz in \$KMAG_SHARED_KERNELS or ../shared/kernels"
	t_done
	exit
fi
xz -dc "$xzv" >"$T/vmlinux"
SITE=$(sed -n 's|.*/\* <-\([^ ]*\).*|\1|p' "$T/first")
CALLER=${SITE%%+*}
OFF=${SITE#*+}
OFF=${OFF%%/*}
base=$(nm "$T/vmlinux" | awk -v f="$CALLER" '$3 == f {print $1; exit}')
a2l=$(addr2line -e "$T/vmlinux" "$(printf '%x' $((0x$base + OFF - 1)))")
LINE=${a2l##*/linux-new/}
t_grep "addr2line names a line for $SITE" '^[a-z].*\.[ch]:[0-9]+$' <(echo "$LINE")
start --vmlinux "$T/vmlinux" "$A"
see "tui --vmlinux: the table" "sorted by total"
keys / __x64_sys_openat Enter c Enter
see "tui --vmlinux: the call site and addr2line's line in the tree's title" \
	"^call of __x64_sys_openat at .*, from ${SITE//+/\\+} \\(${LINE//./\\.}\\): "
tm kill-session -t tui
t_done
