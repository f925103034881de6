#!/bin/bash
# report --arg FUNC:ARG: one argument summarised over a function's calls. The
# expected numbers come from the kernel's own text of the same buffer
# (fg619-args.txt, funcgraph-args), not from kmag: the dd bs=4k of the
# workload reaches vfs_write as count=0x1000.
. "$(dirname "$0")/lib.sh"

F=$TRACES/6.19
t_need_feature btf
xz -dc "$SRCDIR/tests/fixtures/btf/vmlinux-6.19.btf.xz" >"$T/vmlinux.btf"

# the kernel's values of vfs_write's count, in decimal, one per call
grep -oE ' vfs_write\([^)]*\)' "$F/fg619-args.txt" | grep -oE 'count=0x[0-9a-f]+' |
	while IFS== read -r _ v; do printf '%d\n' "$v"; done >"$T/kvals"
n=$(wc -l <"$T/kvals")
min=$(sort -n "$T/kvals" | head -1)
max=$(sort -n "$T/kvals" | tail -1)
t_eq "the kernel's text has vfs_write calls with count=4096 (dd bs=4k)" 1 "$(grep -c '^4096$' "$T/kvals")"

for input in dat txt; do
	btf=()
	[ $input = dat ] && btf=(--btf "$T/vmlinux.btf")
	t_ok "report --arg vfs_write:count fg619-args.$input" \
		"$KMAG" report "${btf[@]}" --arg vfs_write:count "$F/fg619-args.$input"
	cp "$T/ok.out" "$T/$input.txt"
	t_grep "$input: $n calls, each with the value, min $min, max $max" \
		"^vfs_write:count: $n calls, $n with the value \(register 2\), min $min, max $max," "$T/$input.txt"
	# the most frequent values with the kernel's counts
	top=$(sort -n "$T/kvals" | uniq -c | sort -k1,1nr -k2,2n | head -1 | awk '{print $2 " x" $1}')
	t_grep "$input: the most frequent value first ($top)" "^  top values: $top " "$T/$input.txt"
	t_grep "$input: 4096 once" " 4096 x1 " "$T/$input.txt"
	t_grep "$input: the histogram has 4096 in [4096, 8192)" '^    \[4096, 8192\) +1 \|' "$T/$input.txt"
done
t_ok "text and trace.dat give the same summary" diff "$T/dat.txt" "$T/txt.txt"

t_ok "report --arg ... -F json" "$KMAG" report --btf "$T/vmlinux.btf" --arg vfs_write:count \
	--arg do_sys_open:dfd -F json "$F/fg619-args.dat"
t_grep "JSON: count, min, max" '"function":"vfs_write","argument":"count","calls":'"$n"',"named":true,"count":'"$n"',.*"min":'"$min"',"max":'"$max" "$T/ok.out"
t_grep "JSON: the histogram bucket of 4096" '\{"lo":4096,"hi":8191,"count":1\}' "$T/ok.out"
# int dfd is signed by the BTF: AT_FDCWD is -100 (the kernel's text: dfd=4294967196, the register)
nd=$(grep -cE ' do_sys_open\(dfd=4294967196,' "$F/fg619-args.txt")
t_grep "JSON: a signed int is -100 ($nd calls of do_sys_open with AT_FDCWD)" \
	'"function":"do_sys_open","argument":"dfd","calls":'"$nd"',.*"signed":true,.*"top":\[\{"value":-100,"count":'"$nd"'\}' "$T/ok.out"

t_ok "a trace.dat without --btf names no argument" "$KMAG" report --arg vfs_write:count "$F/fg619-args.dat"
t_grep "... and says to give --btf" "no argument named count: .*give --btf" "$T/ok.out"
# a trace.dat that stores the kernel's BTF (trace-cmd 3.4's BTF_FILE) needs no --btf
T34=$TRACES/6.19-tc34/tc34-args.dat
t_ok "tc34-args.dat (BTF inside): report --arg without --btf" "$KMAG" report --arg vfs_write:count -F json "$T34"
t_grep "... names count and sees dd's 4096" '"named":true,.*\{"value":4096,"count":[1-9]' "$T/ok.out"
"$KMAG" replay "$T34" >"$T/own"
"$KMAG" replay --btf "$T/vmlinux.btf" "$T34" >"$T/given"
t_ok "replay: the file's own BTF prints as the same kernel's --btf does" diff "$T/own" "$T/given"
t_grep "... with named arguments" ' vfs_write\(file=0x[0-9a-f]+, buf=0x[0-9a-f]+, count=0x' "$T/own"

t_exit "--arg without a colon: usage error" 2 "$KMAG" report --arg vfs_write "$F/fg619-args.dat"
t_exit "--arg with --slowest: separate views" 2 "$KMAG" report --arg vfs_write:count --slowest 3 "$F/fg619-args.dat"
t_exit "--arg -F csv: not a format of it" 2 "$KMAG" report --arg vfs_write:count -F csv "$F/fg619-args.dat"
t_done
