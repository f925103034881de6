#!/bin/bash
# SPDX-License-Identifier: MIT
# t-deb: `dpkg-buildpackage -us -uc -b` on a clean clone of this repository's
# HEAD builds kmag, libkmag0 and libkmag-dev; lintian finds no error; kmag
# holds the binary, the man pages and the completion, libkmag0 the shared
# library, libkmag-dev the headers and kmag.pc; the binary from the package
# runs, and a program built against libkmag-dev alone (its headers and
# kmag.pc, unpacked) links and runs against libkmag0.
# The package build's own unit tests are skipped (DEB_BUILD_OPTIONS=nocheck):
# the unit suite runs on its own in the same CI run.
. "$SRCDIR/tests/e2e/lib.sh"

for tool in dpkg-buildpackage dh lintian git; do
	command -v "$tool" >/dev/null ||
		{ echo "1..0 # SKIP no $tool (apt install dpkg-dev debhelper lintian git)"; exit 0; }
done
git -C "$SRCDIR" rev-parse --git-dir >/dev/null 2>&1 ||
	{ echo "1..0 # SKIP $SRCDIR is no git checkout"; exit 0; }

git clone -q "$SRCDIR" "$T/src/kmag"
t_ok "a clean clone" test -f "$T/src/kmag/debian/control"
(cd "$T/src/kmag" && DEB_BUILD_OPTIONS="nocheck parallel=2" dpkg-buildpackage -us -uc -b) \
	>"$T/build.log" 2>&1
rc=$?
t_eq "dpkg-buildpackage -us -uc -b succeeds" 0 "$rc"
[ "$rc" = 0 ] || tail -30 "$T/build.log" | sed 's/^/# /'
v=$(cd "$T/src/kmag" && dpkg-parsechangelog -S Version)
arch=$(dpkg --print-architecture)
for p in kmag libkmag0 libkmag-dev; do
	t_ok "${p}_${v}_$arch.deb is built" test -f "$T/src/${p}_${v}_$arch.deb"
done
lintian --fail-on error "$T/src/kmag_${v}_$arch.changes" >"$T/lintian" 2>&1
t_eq "lintian finds no error" 0 $?
grep '^E:' "$T/lintian" | sed 's/^/# /'

contents() { dpkg-deb -c "$T/src/${1}_${v}_$arch.deb" | awk '{print $6}' | sed 's|^\./|/|'; }
contents kmag >"$T/kmag.list"
contents libkmag0 >"$T/lib.list"
contents libkmag-dev >"$T/dev.list"
t_grep "kmag: the binary" '^/usr/bin/kmag$' "$T/kmag.list"
t_eq "kmag: a man page per command and kmag(1)" "$(ls "$SRCDIR"/doc/man/*.1.scd | wc -l)" \
	"$(grep -c '^/usr/share/man/man1/kmag.*\.1\.gz$' "$T/kmag.list")"
t_grep "kmag: bash completion" '^/usr/share/bash-completion/completions/kmag$' "$T/kmag.list"
t_grep "kmag: zsh completion" '^/usr/share/zsh/site-functions/_kmag$' "$T/kmag.list"
t_grep "libkmag0: the shared library" '^/usr/lib/[^/]+/libkmag\.so\.0(\.[0-9.]+)?$' "$T/lib.list"
t_nogrep "libkmag0: no headers" 'include' "$T/lib.list"
t_grep "libkmag-dev: the headers" '^/usr/include/kmag/trace\.h$' "$T/dev.list"
t_grep "libkmag-dev: kmag.pc" '^/usr/lib/[^/]+/pkgconfig/kmag\.pc$' "$T/dev.list"
t_grep "libkmag-dev: the link-time libkmag.so" '^/usr/lib/[^/]+/libkmag\.so$' "$T/dev.list"
dpkg-deb -f "$T/src/kmag_${v}_$arch.deb" Depends >"$T/depends"
t_grep "kmag depends on the libraries it links" 'libtracefs1.*zlib1g|zlib1g.*libtracefs1' "$T/depends"

# unpacked, as dpkg would install them (no root needed)
for p in kmag libkmag0 libkmag-dev; do
	dpkg-deb -x "$T/src/${p}_${v}_$arch.deb" "$T/root"
done
t_ok "the packaged kmag runs" "$T/root/usr/bin/kmag" --version
t_grep "... and is this version" "${v%%-*}" "$T/ok.out"
t_ok "its report works" "$T/root/usr/bin/kmag" report --limit 3 "$FIXTURES/traces/fg-filtered.dat"
libdir=$(dirname "$(grep -m1 'pkgconfig/kmag.pc$' "$T/dev.list")")
libdir=$T/root${libdir%/pkgconfig}
pc="PKG_CONFIG_PATH=$libdir/pkgconfig PKG_CONFIG_SYSROOT_DIR=$T/root"
cflags=$(env $pc pkg-config --cflags kmag) libs=$(env $pc pkg-config --libs kmag)
t_ok "a program builds against libkmag-dev ($libs)" \
	sh -c "cc -o '$T/count' '$SRCDIR/tests/e2e/data/libkmag-count.c' $cflags $libs"
t_ok "and runs with libkmag0" env LD_LIBRARY_PATH="$libdir" "$T/count" "$FIXTURES/traces/fg-filtered.dat"
t_done
