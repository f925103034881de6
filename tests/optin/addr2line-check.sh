#!/bin/bash
# addr2line-check.sh - opt-in check of `kmag generate-symbol-map` on a real
# kernel: for a random sample of functions, the map's file:line must equal what
# eu-addr2line (or binutils addr2line) prints for the function's address as
# the outermost frame (`-i`, last line). Not part of `meson test`: it needs the
# Debian debug vmlinux (~280 MB download). See tests/optin/README.md.
#
# Usage: tests/optin/addr2line-check.sh [-k VMLINUX] [-n COUNT] [-s SEED] [-m MODULES_DIR]
#   -k VMLINUX   default: $KMAG_VMLINUX, else bench/fetch-dbg-vmlinux.sh's download
#   -n COUNT     sample size (default 500)
#   -s SEED      sample seed (default 1; any text)
#   -m DIR       also check COUNT module functions (*.ko under DIR, by module file)
# Environment: KMAG (default build/kmag), ADDR2LINE (default eu-addr2line).
# Exit status: 0 all equal, 1 mismatches (listed), 77 prerequisites missing.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
KMAG=${KMAG:-$src/build/kmag}
A2L=${ADDR2LINE:-eu-addr2line}
vmlinux=${KMAG_VMLINUX:-}
count=500 seed=1 modules=
while getopts "k:n:s:m:" o; do
	case $o in
	k) vmlinux=$OPTARG ;;
	n) count=$OPTARG ;;
	s) seed=$OPTARG ;;
	m) modules=$OPTARG ;;
	*) sed -n '2,16p' "$0"; exit 2 ;;
	esac
done
command -v "$A2L" >/dev/null || { echo "skip: $A2L not installed (elfutils)"; exit 77; }
[ -x "$KMAG" ] || { echo "skip: no kmag binary at $KMAG (build first)"; exit 77; }
if [ -z "$vmlinux" ]; then
	vmlinux=$("$src/bench/fetch-dbg-vmlinux.sh") || { echo "skip: cannot fetch the debug vmlinux"; exit 77; }
fi
[ -r "$vmlinux" ] || { echo "skip: $vmlinux not readable"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/kmag-a2l.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "# map of $vmlinux${modules:+ and $modules}"
"$KMAG" generate-symbol-map -k "$vmlinux" ${modules:+-m "$modules"} -o "$work/map" || exit 1

# Sample: function entries of vmlinux with an address, seeded. ".cold" pieces
# are left out: they are not entries (GCC moved a function's unlikely code
# there; ftrace never sees them) and eu-addr2line -i misreports their inline
# chain (it takes the .cold symbol for a function of its own).
rand() { openssl enc -aes-256-ctr -pass pass:"$1" -nosalt </dev/zero 2>/dev/null; }
awk -F'\t' '!/^#/ && $6 == "-" && $4 != "0" && $1 !~ /\.cold$/' "$work/map" |
	shuf -n "$count" --random-source=<(rand "$seed") >"$work/sample"
awk -F'\t' '{print "0x" $4}' "$work/sample" | "$A2L" -a -i -e "$vmlinux" >"$work/a2l" 2>&1

# Module sample: kmag's module addresses are in the kernel's module layout;
# addr2line is asked with the symbol's section and section-relative value
# from objdump -t (-j SECTION).
if [ -n "$modules" ]; then
	awk -F'\t' '!/^#/ && $6 != "-" && $4 != "0" && $1 !~ /\.cold$/' "$work/map" |
		shuf -n "$count" --random-source=<(rand "$seed") >"$work/msample"
fi

check() {	# sample-file addr2line-output label
	awk -F'\t' -v label="$3" '
	function clean(p,    n, i, k, c, out, abs) {	# lexical ".", ".." and "//" folding
		abs = substr(p, 1, 1) == "/"
		n = split(p, c, "/"); k = 0
		for (i = 1; i <= n; i++) {
			if (c[i] == "" || c[i] == ".") continue
			if (c[i] == ".." && k > 0 && out[k] != "..") { k--; continue }
			out[++k] = c[i]
		}
		p = abs ? "/" : ""
		for (i = 1; i <= k; i++) p = p (i > 1 ? "/" : "") out[i]
		return p
	}
	NR == FNR { file[NR] = $2; line[NR] = $3; name[NR] = $1; n = NR; next }
	/^0x[0-9a-f]+$/ { i++; next }
	{ last[i] = $0 }
	END {
		bad = 0
		for (k = 1; k <= n; k++) {
			got = last[k]; gl = ""
			sub(/ \(discriminator [0-9]+\)$/, "", got)	# binutils
			gf = got
			# "path:line" or "path:line:column"
			if (match(got, /:[0-9]+:[0-9]+$/)) {
				gf = substr(got, 1, RSTART - 1)
				split(substr(got, RSTART + 1), t, ":"); gl = t[1]
			} else if (match(got, /:[0-9]+$/)) {
				gf = substr(got, 1, RSTART - 1); gl = substr(got, RSTART + 1)
			}
			gf = clean(gf)
			# kmag is tree-relative: the addr2line path, or its suffix at a "/"
			f = file[k]
			ok = gl == line[k] && (gf == f || substr(gf, length(gf) - length(f)) == "/" f)
			ok = ok && f !~ /^\// && f !~ /^debian\//
			if (!ok) {
				bad++
				if (bad <= 20)
					printf "MISMATCH %s: kmag %s:%s, addr2line %s\n", name[k], f, line[k], last[k]
			}
		}
		printf "%s: %d functions checked, %d mismatches\n", label, n, bad
		exit bad > 0
	}' "$1" "$2"
}
rc=0
check "$work/sample" "$work/a2l" "vmlinux" || rc=1

if [ -n "$modules" ]; then
	declare -A ko_of
	while read -r ko; do
		b=${ko##*/}; b=${b%.debug}; b=${b%.ko}
		ko_of[${b//-/_}]=$ko
	done < <(find "$modules" -name '*.ko' -o -name '*.ko.debug')
	: >"$work/ma2l"
	: >"$work/mchecked"
	while IFS=$'\t' read -r name file line addr size mod; do
		ko=${ko_of[$mod]:-}
		# the symbol's section and section-relative value (-j asks addr2line in that
		# section); a name defined twice in one module cannot be told apart here: skipped
		sec= val=
		read -r sec val < <(objdump -t "$ko" 2>/dev/null |
			awk -v s="$name" '$NF == s && $3 == "F" {n++; v = $4 " " $1} END {if (n == 1) print v}')
		[ -n "$sec" ] || continue
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$file" "$line" "$addr" "$size" "$mod" >>"$work/mchecked"
		printf '0x%s\n' "$val" >>"$work/ma2l"
		"$A2L" -i -j "${sec:-.text}" -e "$ko" "0x${val:-0}" 2>/dev/null >>"$work/ma2l" ||
			echo "??:0" >>"$work/ma2l"
	done <"$work/msample"
	check "$work/mchecked" "$work/ma2l" "modules" || rc=1
fi
exit $rc
