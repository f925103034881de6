# SPDX-License-Identifier: MIT
# site-lines-lib.sh - sourced by e2e tests (after lib.sh): kmag's source lines
# of call sites against binutils' addr2line on the same vmlinux.
#
# check_site_lines VMLINUX SITES MIN: SITES holds "caller off line" lines
# (off in hex, line "-" where kmag gave none). Writes $T/nm (nm's text symbols,
# "name address"), then checks that at least MIN sites were compared, that
# each has a line and that each is addr2line's line for the call instruction
# (the byte before the return address). Callers whose name nm lists more than
# once (a static function's twins) are left out: their address is ambiguous.
check_site_lines() {
	local vmlinux=$1 sites=$2 min=$3 checked=0 wrong=0 missing=0 caller off line a2l
	nm "$vmlinux" | awk '$2 ~ /^[tT]$/ {print $3, $1}' >"$T/nm"
	python3 - "$T/nm" "$sites" >"$T/addrs" <<'PY'
import sys
base, twin = {}, set()
for l in open(sys.argv[1]):
    name, addr = l.split()
    if name in base:
        twin.add(name)
    base[name] = int(addr, 16)
for l in open(sys.argv[2]):
    caller, off, line = l.split()
    if caller in base and caller not in twin:
        print(caller, off, line, "%x" % (base[caller] + int(off, 16) - 1))
PY
	awk '{print $4}' "$T/addrs" | addr2line -e "$vmlinux" >"$T/a2l"
	while read -r caller off line _ a2l; do
		case $a2l in
		*\?*) continue ;;	# no line for it: nothing to compare
		esac
		checked=$((checked + 1))
		if [ "$line" = - ]; then
			missing=$((missing + 1))
			echo "# $caller+$off: no line, addr2line says $a2l"
		elif [ "${a2l%% *}" != "$line" ] && [[ ${a2l%% *} != */"$line" ]]; then
			wrong=$((wrong + 1))
			echo "# $caller+$off: kmag $line, addr2line $a2l"
		fi
	done < <(paste -d' ' "$T/addrs" "$T/a2l")
	t_ok "call sites compared with addr2line ($checked)" test "$checked" -gt "$min"
	t_eq "each has a line" 0 "$missing"
	t_eq "each is addr2line's line" 0 "$wrong"
}
