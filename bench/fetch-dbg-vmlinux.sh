#!/bin/bash
# fetch-dbg-vmlinux.sh [PACKAGE] - downloads Debian's debug kernel package
# (default: the one the linux-image-cloud-amd64-dbg meta-package points at,
# e.g. linux-image-6.1.0-56-cloud-amd64-dbg, ~280 MB) with apt-get download
# into ${KMAG_DBG_CACHE:-~/.cache/kmag/dbg}, unpacks it there once, and prints
# the path of its vmlinux. The module debug files are unpacked too (under
# .../usr/lib/debug/lib/modules/<release>/). Needs apt access; not run by meson.
set -euo pipefail
cache=${KMAG_DBG_CACHE:-$HOME/.cache/kmag/dbg}
pkg=${1:-}
if [ -z "$pkg" ]; then
	pkg=$(apt-cache depends linux-image-cloud-amd64-dbg 2>/dev/null |
		awk '/Depends: linux-image-.*-dbg/ {print $2; exit}')
	[ -n "$pkg" ] || { echo "fetch-dbg-vmlinux: cannot resolve linux-image-cloud-amd64-dbg (apt-get update?)" >&2; exit 1; }
fi
mkdir -p "$cache"
cd "$cache"
deb=$(ls "$pkg"_*.deb 2>/dev/null | head -1 || true)
if [ -z "$deb" ]; then
	apt-get download "$pkg" >&2
	deb=$(ls "$pkg"_*.deb | head -1)
fi
root="$cache/root-${deb%.deb}"
if [ ! -d "$root" ]; then
	mkdir -p "$root.tmp"
	dpkg-deb -x "$deb" "$root.tmp"
	mv "$root.tmp" "$root"
fi
ls "$root"/usr/lib/debug/boot/vmlinux-* | head -1
