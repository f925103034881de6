#!/bin/bash
# replay --vmlinux: call sites (funcgraph-retaddr, "<-ksys_write+0x71") as the
# source line of the call, from the vmlinux's DWARF line tables. Checked with an
# independent tool: binutils' addr2line on the same vmlinux must put each of
# vfs_write's call sites inside ksys_write, on the line kmag names.
# Needs the Linux 6.19 vmlinux with DWARF (130 MB, not in the repository):
# $KMAG_SHARED_KERNELS, or ../shared/kernels beside the source tree.
. "$(dirname "$0")/lib.sh"

F=$TRACES/6.19
t_need_feature libdw
xzv=""
for d in "${KMAG_SHARED_KERNELS:-}" "$SRCDIR/../shared/kernels" "$SRCDIR/../../shared/kernels"; do
	[ -n "$d" ] && [ -f "$d/vmlinux-6.19.0.xz" ] && { xzv=$d/vmlinux-6.19.0.xz; break; }
done
if [ -z "$xzv" ]; then
	echo "1..0 # SKIP no vmlinux-6.19.0.xz in \$KMAG_SHARED_KERNELS or ../shared/kernels beside the source tree"
	exit 0
fi
command -v addr2line >/dev/null || { echo "1..0 # SKIP addr2line (binutils) missing"; exit 0; }
xz -dc "$xzv" >"$T/vmlinux"

for input in dat txt; do
	t_ok "$input: replay --vmlinux -F json" "$KMAG" replay --vmlinux "$T/vmlinux" -F json \
		-o "$T/$input.json" "$F/fg619-args.$input"
	grep '"function":"vfs_write"' "$T/$input.json" |
		grep -oE '"call_site":"[^"]*","call_site_line":"[^"]*"' | sort | uniq -c >"$T/$input.sites"
	n=$(grep -c '"function":"vfs_write"' "$T/$input.json")
	t_eq "$input: every vfs_write call has a call site line" "$n" \
		"$(awk '{s += $1} END {print s + 0}' "$T/$input.sites")"
done
t_ok "text and trace.dat give the same call site lines" diff "$T/dat.sites" "$T/txt.sites"

# addr2line: the call instruction is the byte before the return address
base=$(nm "$T/vmlinux" | awk '$3 == "ksys_write" {print $1; exit}')
checked=0
while read -r _ site; do
	off=$(sed -E 's/.*"call_site":"ksys_write\+(0x[0-9a-f]+)".*/\1/' <<<"$site")
	line=$(sed -E 's/.*"call_site_line":"([^"]*)".*/\1/' <<<"$site")
	addr=$(printf '%x' $((0x$base + off - 1)))
	mapfile -t a2l < <(addr2line -f -e "$T/vmlinux" "$addr")
	t_eq "ksys_write+$off: addr2line puts it inside ksys_write" ksys_write "${a2l[0]}"
	case "${a2l[1]}" in
	*/"$line" | "$line") t_pass "ksys_write+$off: addr2line says ${a2l[1]##*/linux-new/}, kmag $line" ;;
	*) t_fail "ksys_write+$off: same line as addr2line" "kmag: $line" "addr2line: ${a2l[1]}" ;;
	esac
	checked=$((checked + 1))
done <"$T/dat.sites"
t_ok "at least one call site checked" test "$checked" -gt 0

# report --callers: per caller the distinct call-site lines with their counts;
# the count is the kernel's text's number of vfs_write calls made from ksys_write
a2l_line=$(addr2line -e "$T/vmlinux" "$(printf '%x' $((0x$base + 0x71 - 1)))")
want=${a2l_line##*/linux-new/}
nk=$(grep -cE ' vfs_write\(.*<-ksys_write\+0x71/' "$F/fg619-args.txt")
for input in dat txt; do
	t_ok "$input: report --callers vfs_write --vmlinux" "$KMAG" report --vmlinux "$T/vmlinux" \
		--callers vfs_write "$F/fg619-args.$input"
	t_grep "$input: ksys_write called it from $want x$nk" \
		"^# +called from ${want//./\\.} x$nk$" "$T/ok.out"
	t_ok "$input: report --callers -F json" "$KMAG" report --vmlinux "$T/vmlinux" \
		--callers vfs_write -F json "$F/fg619-args.$input"
	t_grep "$input: JSON edge call_sites" \
		'"caller": "ksys_write", "callee": "vfs_write".*"call_sites": "'"${want//./\\.}"' x'"$nk"'"' "$T/ok.out"
done

t_ok "text: the line after the call site" "$KMAG" replay --vmlinux "$T/vmlinux" "$F/fg619-args.dat"
t_grep "text: <-ksys_write+0x71 (fs/read_write.c:N)" ' vfs_write\(.*<-ksys_write\+0x71 \(fs/read_write\.c:[0-9]+\)' "$T/ok.out"
t_exit "a vmlinux that is no ELF: one line" 1 "$KMAG" replay --vmlinux "$F/fg619-args.txt" "$F/fg619-args.dat"
t_done
