#!/bin/bash
# `meson install` (into a DESTDIR in $T): the binary, the man pages, the bash
# and zsh completion, libkmag.so with its headers and kmag.pc. A small program
# (tests/e2e/data/libkmag-count.c) builds against the installed library with
# `pkg-config --cflags --libs kmag` alone, reads a fixture through the public
# API and must count the functions, calls and edges `kmag report --format json`
# shows for it. The library exports only its public API: kmag_* symbols
# declared in include/kmag/*.h, no kmag__ helper, nothing of lib/util.
. "$(dirname "$0")/lib.sh"
: "${BUILDDIR:?BUILDDIR must point at the meson build directory}"
CC=${CC:-cc}
for tool in meson pkg-config "$CC" nm; do
	command -v "$tool" >/dev/null || { echo "1..0 # SKIP $tool is not installed"; exit 0; }
done
meson introspect --buildoptions "$BUILDDIR" | python3 -c 'import json, sys
for o in json.load(sys.stdin):
	print("%s=%s" % (o["name"], ",".join(o["value"]) if isinstance(o["value"], list) else o["value"]))' >"$T/options"
if grep -qx 'fuzzing=True' "$T/options"; then
	echo "1..0 # SKIP a fuzzing build installs no library"; exit 0
fi
# a sanitizer build's library needs the program built with the same sanitizers
sanitize=$(sed -n 's/^b_sanitize=//p' "$T/options")
san_flags=()
[ -n "$sanitize" ] && [ "$sanitize" != none ] && san_flags=(-fsanitize="$sanitize")

DEST="$T/dest"
t_ok "meson install --destdir exits 0" meson install -C "$BUILDDIR" --destdir "$DEST" --no-rebuild --quiet
pc=$(find "$DEST" -name kmag.pc -path '*/pkgconfig/*' | head -1)
t_ok "kmag.pc is installed ($pc)" test -f "$pc"
prefix=$(sed -n 's/^prefix=//p' "$pc")
root="$DEST$prefix"
t_ok "the kmag binary is installed" test -x "$root/bin/kmag"
for p in kmag kmag-report kmag-record; do
	if command -v scdoc >/dev/null; then
		t_ok "man page $p.1 is installed" test -s "$root/share/man/man1/$p.1"
	else
		t_skip "man page $p.1 is installed" "scdoc is not installed"
	fi
done
t_ok "the bash completion is installed" test -s "$root/share/bash-completion/completions/kmag"
t_ok "the zsh completion is installed" test -s "$root/share/zsh/site-functions/_kmag"
t_ok "the public headers are installed, with the generated version.h" \
	test -f "$root/include/kmag/trace.h" -a -f "$root/include/kmag/version.h"
t_ok "no renderer header is installed (libkmag-render is internal)" test ! -e "$root/include/kmag/render"

# the library, found through pkg-config relocated into DESTDIR
export PKG_CONFIG_PATH
PKG_CONFIG_PATH=$(dirname "$pc")
pcflags=(--define-variable=prefix="$root")
cflags=$(pkg-config "${pcflags[@]}" --cflags kmag) libs=$(pkg-config "${pcflags[@]}" --libs kmag)
t_grep "pkg-config --libs kmag names -lkmag" '-lkmag' <(echo "$libs")
libdir=$(pkg-config "${pcflags[@]}" --variable=libdir kmag)
so=$(find "$libdir" -name 'libkmag.so.*.*' | head -1)
t_ok "libkmag.so.N.N.N is installed in libdir ($libdir)" test -f "$so"
t_ok "and libkmag.so.0 (the soname) next to it" test -L "$libdir/libkmag.so.0"
t_grep "its soname is libkmag.so.0" 'SONAME +libkmag\.so\.0$' <(objdump -p "$so" 2>/dev/null || echo "no objdump")

# shellcheck disable=SC2086 # word splitting of pkg-config's output is wanted
t_ok "a program builds against it with pkg-config --cflags --libs kmag" \
	"$CC" -std=c11 -Wall -Wextra -Werror "${san_flags[@]}" $cflags -o "$T/count" "$SRCDIR/tests/e2e/data/libkmag-count.c" $libs
t_grep "and links libkmag.so.0 dynamically" 'NEEDED.*libkmag\.so\.0' <(objdump -p "$T/count" 2>/dev/null || echo "no objdump")
for f in fg-filtered.dat fn-filtered.dat; do
	tr=$(fixture_trace "$f")
	want=$("$KMAG" report --format json "$tr" | python3 -c 'import json, sys
d = json.load(sys.stdin)
print("functions %d calls %d edges %d" % (len(d["functions"]), sum(f["calls"] for f in d["functions"]), len(d["edges"])))')
	LD_LIBRARY_PATH="$libdir" "$T/count" "$tr" >"$T/got" 2>"$T/err"
	t_eq "$f: the program counts what kmag report --format json shows" "$want" "$(sed 's/^libkmag [^:]*: //' "$T/got")"
done
t_grep "it runs the installed library (version $("$KMAG" --version | head -1))" \
	"^libkmag $("$KMAG" --version | sed -n '1s/^kmag //p'): " "$T/got"

# only the public API is exported
nm -D --defined-only "$so" | awk '$2 ~ /^[TDBRVW]$/ { sub(/@.*/, "", $3); print $3 }' | sort -u >"$T/exports"
t_ok "libkmag.so exports functions ($(wc -l <"$T/exports"))" test "$(wc -l <"$T/exports")" -ge 100
grep -v '^kmag_' "$T/exports" >"$T/other"
t_ok "every export is kmag_-prefixed" test ! -s "$T/other"
[ -s "$T/other" ] && sed 's/^/# exported: /' "$T/other" | head
t_nogrep "no kmag__ library-private helper is exported" '^kmag__' "$T/exports"
grep -ohE '\bkmag_[a-z0-9_]+\b' "$SRCDIR"/include/kmag/*.h | sort -u >"$T/declared"
comm -23 "$T/exports" "$T/declared" >"$T/undeclared"
t_ok "every export is declared in include/kmag/*.h" test ! -s "$T/undeclared"
[ -s "$T/undeclared" ] && sed 's/^/# not in a public header: /' "$T/undeclared" | head
# global in lib/ (other files call them), yet internal
for internal in u64map_upsert srcpath_clean srcroots_init; do
	t_nogrep "$internal (lib/ internal) is not exported" "^$internal\$" "$T/exports"
done
t_done
