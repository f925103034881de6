#!/bin/bash
# Void returns: the kernel records the return register of every function
# (funcgraph-retval prints "ret=0xdead000000000122" for a void
# _raw_spin_unlock_irqrestore). Where the trace's types (--btf, or the BTF a
# trace.dat stores) say a function returns void, no view shows a return value
# for it: one rule for replay (text and JSON), report --slowest, errors and
# the Calls views. Which functions return void is read from the BTF by
# bpftool, not by kmag; the values are the kernel's own text of the same buffer.
. "$(dirname "$0")/lib.sh"

F=$TRACES/6.19
if ! t_has_feature btf; then
	echo "1..0 # SKIP this kmag is built without libbpf"
	exit 0
fi
if ! command -v bpftool >/dev/null; then
	echo "1..0 # SKIP bpftool is not installed (apt install bpftool)"
	exit 0
fi
xz -dc "$SRCDIR/tests/fixtures/btf/vmlinux-6.19.btf.xz" >"$T/vmlinux.btf"

# the functions whose prototype returns void (ret_type_id=0), by bpftool
bpftool btf dump file "$T/vmlinux.btf" format raw | awk '
	/^\[[0-9]+\] FUNC_PROTO / { id = substr($1, 2, length($1) - 2); if ($0 ~ / ret_type_id=0 /) v[id] = 1; next }
	/^\[[0-9]+\] FUNC / { n = $3; gsub("\x27", "", n); split($4, a, "="); f[n] = a[2] }
	END { for (n in f) if (f[n] in v) print n }' | sort -u >"$T/void"
t_ok "bpftool lists void functions" test -s "$T/void"
t_grep "... _raw_spin_unlock_irqrestore among them" '^_raw_spin_unlock_irqrestore$' "$T/void"

# "func ret" of every line with a return value: the kernel's text ...
awk '/ret=/ {
	if (match($0, /\} \/\* [A-Za-z0-9_.]+ ret=/)) { s = substr($0, RSTART + 5, RLENGTH - 10) }
	else if (match($0, /[A-Za-z0-9_.]+\([^)]*\); \/\*/)) { s = substr($0, RSTART); sub(/\(.*/, "", s) }
	else next
	print s }' "$F/fg619-retval.txt" | sort >"$T/kernel-all"
awk 'NR == FNR { v[$1] = 1; next } !($1 in v)' "$T/void" "$T/kernel-all" >"$T/kernel-nonvoid"
nvoid=$(awk 'NR == FNR { v[$1] = 1; next } ($1 in v)' "$T/void" "$T/kernel-all" | wc -l)
t_ok "the kernel's text shows return values of void functions ($nvoid lines)" test "$nvoid" -gt 0

# ... and kmag's replay: "f(...); /* = v */" and "} /* f = v */"
kmag_rets() {
	awk '/ = (0x[0-9a-f]+|-[0-9]+)/ {
		if (match($0, /\} \/\* [A-Za-z0-9_.]+ = /)) { s = substr($0, RSTART + 5, RLENGTH - 8) }
		else if (match($0, /[A-Za-z0-9_.]+\([^)]*\); \/\*/)) { s = substr($0, RSTART); sub(/\(.*/, "", s) }
		else next
		print s }' "$1" | sort
}
t_ok "replay without types" "$KMAG" replay -o "$T/plain" "$F/fg619-retval.dat"
kmag_rets "$T/plain" >"$T/kmag-plain"
t_ok "without types: every return value the kernel printed" diff "$T/kernel-all" "$T/kmag-plain"
t_ok "replay --btf" "$KMAG" replay --btf "$T/vmlinux.btf" -o "$T/btf" "$F/fg619-retval.dat"
kmag_rets "$T/btf" >"$T/kmag-btf"
t_ok "with --btf: the return values of the non-void functions only" \
	diff "$T/kernel-nonvoid" "$T/kmag-btf"
t_ok "replay --btf -F json" "$KMAG" replay --btf "$T/vmlinux.btf" -F json -o "$T/json" \
	"$F/fg619-retval.dat"
t_eq "JSON: no void function has a retval" "" \
	"$(grep -o '"function":"[^"]*"[^}]*"retval":[-0-9"x]' "$T/json" | sed 's/^"function":"\([^"]*\)".*/\1/' |
		sort -u | grep -Fxf "$T/void")"
t_eq "JSON: as many retvals as the kernel's non-void lines" "$(wc -l <"$T/kernel-nonvoid")" \
	"$(grep -c '"retval":[-0-9"]' "$T/json")"
t_done
