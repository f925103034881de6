#!/bin/bash
# --btf: a trace.dat's argument registers named and printed from the kernel's
# BTF as the kernel's print_function_args() does. The check is independent of
# kmag: the Linux 6.19 fixtures hold the kernel's own text of the same buffer
# (fg619-args.txt), so every call's "func(args)" must be the kernel's, byte for
# byte, and there must be as many of them.
. "$(dirname "$0")/lib.sh"

F=$TRACES/6.19
BTF_XZ=$SRCDIR/tests/fixtures/btf/vmlinux-6.19.btf.xz
if ! t_has_feature btf; then
	t_exit "--btf without libbpf: one line naming the package" 2 \
		"$KMAG" replay --btf /dev/null "$F/fg619-args.dat"
	t_grep "... it names libbpf-dev" "libbpf-dev" "$T/err"
	t_done
	exit
fi
xz -dc "$BTF_XZ" >"$T/vmlinux.btf"

calls='[A-Za-z_][A-Za-z0-9_.]*\([^{;]*\)( \{|;)'
grep -oE "$calls" "$F/fg619-args.txt" | sort >"$T/kernel"
t_ok "replay --btf fg619-args.dat" "$KMAG" replay --btf "$T/vmlinux.btf" -o "$T/replay" \
	"$F/fg619-args.dat"
grep -oE "$calls" "$T/replay" | sort >"$T/kmag"
t_eq "as many calls with arguments as the kernel's text" "$(wc -l <"$T/kernel")" "$(wc -l <"$T/kmag")"
t_ok "every call's arguments as the kernel printed them" diff "$T/kernel" "$T/kmag"
# the formats the kernel's text has, so the comparison covers them
t_grep "signed ints in decimal" '^do_sys_open\(dfd=4294967196, filename=0x[0-9a-f]+, flags=[0-9]+, mode=0x0\) \{' "$T/kmag"
t_grep "structs by value as (STRUCT)[...:...]" '=\(STRUCT\)\[0x[0-9a-f]+:0x[0-9a-f]+\]' "$T/kmag"
t_grep "more parameters than registers end in ..." ', \.\.\.\) \{$' "$T/kmag"
t_grep "functions BTF lacks (.isra) print no arguments, as the kernel" '^slab_alloc_node\.isra\.0\(\) \{' "$T/kmag"

# the function tracer's func-args
fcalls='[A-Za-z_][A-Za-z0-9_.]*\([^{;]*\) <-'
grep -oE "$fcalls" "$F/fn619-args.txt" | sort >"$T/fkernel"
"$KMAG" replay --btf "$T/vmlinux.btf" "$F/fn619-args.dat" | grep -oE "$fcalls" | sort >"$T/fkmag"
t_ok "function tracer: every call's arguments as the kernel printed them" diff "$T/fkernel" "$T/fkmag"
t_eq "... all $(wc -l <"$T/fkernel") of them" "$(wc -l <"$T/fkernel")" "$(wc -l <"$T/fkmag")"

# the JSON carries the same text
t_ok "replay --btf -F json" "$KMAG" replay --btf "$T/vmlinux.btf" -F json -o "$T/json" "$F/fg619-args.dat"
t_grep "JSON args named" '"function":"do_sys_open".*"args":"dfd=4294967196, filename=0x' "$T/json"

# without BTF a trace.dat has no names: the registers are shown unnamed
"$KMAG" replay "$F/fg619-args.dat" >"$T/plain"
t_grep "without --btf: unnamed registers" '^.*\| +do_sys_open\(0xffffff9c, 0x' "$T/plain"

t_exit "a file that is no BTF: one line naming it" 1 "$KMAG" replay --btf "$F/fg619-args.txt" "$F/fg619-args.dat"
t_grep "... naming the file" "fg619-args.txt" "$T/err"
t_done
