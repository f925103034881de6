#!/bin/bash
# SPDX-License-Identifier: MIT
# build-kernel.sh - build the Linux 6.19 kernel of the VM tests (t0420) and
# install it where they look for it.
#
# Usage:
#   build-kernel.sh [--src DIR | --tarball FILE] [--workdir DIR] [--dest DIR]
#                   [--jobs N] [--no-vmlinux] [--config-only]
#
#   --src DIR       an unpacked Linux 6.19 tree (a kernel.org tarball or a git
#                   checkout of v6.19); built out of tree, left untouched
#   --tarball FILE  linux-6.19.tar.xz already downloaded
#                   (default: downloaded from cdn.kernel.org and checked
#                   against kernel.org's sha256sums.asc)
#   --workdir DIR   download, unpack and build here (default: a new
#                   directory under ${TMPDIR:-/tmp}; about 3 GB with DWARF)
#   --dest DIR      install here (default: ${KMAG_VM_CACHE:-~/.cache/kmag/vm}/linux-6.19,
#                   where tests/vm/lib-host.sh looks first)
#   --jobs N        make -j (default: nproc)
#   --no-vmlinux    do not install the (xz-compressed, ~30 MB) vmlinux
#   --config-only   stop after making and checking the .config (seconds: a
#                   check of the fragment against a source tree)
#
# The configuration is `make tinyconfig` plus config-6.19.fragment (merged
# with scripts/kconfig/merge_config.sh, then make olddefconfig), and the
# result is checked with check-fragment.sh before building: every option of
# the fragment must hold. Installs vmlinuz (bzImage), config, System.map,
# vmlinux.xz (DWARF 5 + BTF, for symbol maps) and build-info.txt. About 25
# minutes on 2 cores; needs make gcc flex bison bc pahole (dwarves)
# libelf-dev libssl-dev xz-utils, and curl for the download.
set -euo pipefail

VERSION=6.19
URL=https://cdn.kernel.org/pub/linux/kernel/v6.x
here=$(cd "$(dirname "$0")" && pwd)
src= tarball= work= dest= jobs=$(nproc) vmlinux=1 config_only=0

die() { echo "build-kernel: $*" >&2; exit 1; }
usage() { sed -n '/^# Usage:/,/^# libelf/s/^# \{0,1\}//p' "$0"; exit "${1:-0}"; }

while [ $# -gt 0 ]; do
	case $1 in
	--src) src=$2; shift 2 ;;
	--tarball) tarball=$2; shift 2 ;;
	--workdir) work=$2; shift 2 ;;
	--dest) dest=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	--no-vmlinux) vmlinux=0; shift ;;
	--config-only) config_only=1; shift ;;
	-h | --help) usage 0 ;;
	*) echo "build-kernel: unknown option $1" >&2; usage 2 ;;
	esac
done
[ -n "$src" ] && [ -n "$tarball" ] && die "give --src or --tarball, not both"
dest=${dest:-${KMAG_VM_CACHE:-$HOME/.cache/kmag/vm}/linux-$VERSION}

need=(make gcc flex bison bc pahole xz sha256sum)
[ -z "$src" ] && [ -z "$tarball" ] && need+=(curl)
for t in "${need[@]}"; do
	command -v "$t" >/dev/null || die "$t is missing (apt-get install make gcc flex bison bc dwarves libelf-dev libssl-dev xz-utils curl)"
done
[ -e /usr/include/libelf.h ] || die "libelf.h is missing (apt-get install libelf-dev)"

work=${work:-$(mktemp -d "${TMPDIR:-/tmp}/kmag-kernel.XXXXXX")}
mkdir -p "$work"
echo "build-kernel: working in $work"

if [ -z "$src" ]; then
	if [ -z "$tarball" ]; then
		tarball=$work/linux-$VERSION.tar.xz
		if [ ! -s "$tarball" ]; then
			curl -fL --retry 3 -o "$tarball.part" "$URL/linux-$VERSION.tar.xz"
			mv "$tarball.part" "$tarball"
		fi
		curl -fsSL --retry 3 -o "$work/sha256sums.asc" "$URL/sha256sums.asc"
		want=$(awk -v f="linux-$VERSION.tar.xz" '$2 == f { print $1 }' "$work/sha256sums.asc")
		[ -n "$want" ] || die "sha256sums.asc names no linux-$VERSION.tar.xz"
		[ "$(sha256sum <"$tarball" | cut -d' ' -f1)" = "$want" ] ||
			die "$tarball does not match kernel.org's sha256 ($want): delete it and retry"
	fi
	echo "build-kernel: unpacking $tarball"
	tar -C "$work" -xf "$tarball"
	src=$work/linux-$VERSION
fi
[ -f "$src/Makefile" ] && [ -x "$src/scripts/kconfig/merge_config.sh" ] ||
	die "$src is not a Linux source tree"
kv=$(make -s -C "$src" kernelversion)
case $kv in
"$VERSION" | "$VERSION".*) ;;
*) die "$src is Linux $kv, not $VERSION (config-$VERSION.fragment is for $VERSION)" ;;
esac

# ARCH is left to the kernel (x86 on an x86_64 host): its tinyconfig is
# 32-bit and the fragment's CONFIG_64BIT turns it into x86_64, which gives
# exactly the reference .config (../shared/kernels/config-6.19.0, checked:
# the same options line for line)
out=$work/build
mkdir -p "$out"
make -C "$src" O="$out" tinyconfig >/dev/null
(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$out" "$out/.config" "$here/config-$VERSION.fragment") >/dev/null
make -C "$src" O="$out" olddefconfig >/dev/null
"$here/check-fragment.sh" "$here/config-$VERSION.fragment" "$out/.config" ||
	die "the configuration lacks options of the fragment (above): see $out/.config"
if [ $config_only = 1 ]; then
	echo "build-kernel: configured $out/.config (--config-only: not built)"
	exit 0
fi

echo "build-kernel: building Linux $kv with $jobs jobs (about 25 minutes on 2 cores)"
start=$(date +%s)
make -C "$src" O="$out" -j"$jobs" bzImage
secs=$(($(date +%s) - start))

# install next to the final place, then swap it in
tmp=$dest.tmp.$$
rm -rf "$tmp"
mkdir -p "$tmp"
cp "$out/arch/x86/boot/bzImage" "$tmp/vmlinuz"
cp "$out/.config" "$tmp/config"
cp "$out/System.map" "$tmp/System.map"
[ $vmlinux = 1 ] && xz -T0 -c "$out/vmlinux" >"$tmp/vmlinux.xz"
{
	echo "Linux $kv ($(make -s -C "$src" O="$out" kernelrelease))"
	echo "source: $src"
	echo "fragment sha256: $(sha256sum <"$here/config-$VERSION.fragment" | cut -d' ' -f1)"
	echo "compiler: $(gcc --version | head -n 1)"
	echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ) in ${secs}s with -j$jobs"
	echo "vmlinuz sha256: $(sha256sum <"$tmp/vmlinuz" | cut -d' ' -f1)"
} >"$tmp/build-info.txt"
rm -rf "$dest.old"
[ -e "$dest" ] && mv "$dest" "$dest.old"
mv "$tmp" "$dest"
rm -rf "$dest.old"
echo "build-kernel: installed $dest/vmlinuz (build tree kept in $out)"
