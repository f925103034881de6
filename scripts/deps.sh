#!/bin/bash
# SPDX-License-Identifier: MIT
# deps.sh - install every Debian/Ubuntu package kmag needs to build, test and
# demo. Safe to run repeatedly; only missing packages are installed.
#   scripts/deps.sh            build + run
#   scripts/deps.sh --test     also what the full test suite needs
set -euo pipefail

build_pkgs=(gcc pkg-config meson ninja-build
	libtracefs-dev libtraceevent-dev libtracecmd-dev libzstd-dev libjansson-dev
	libgraphviz-dev libcairo2-dev libdw-dev libelf-dev scdoc libncurses-dev libbpf-dev
	zlib1g-dev)
test_pkgs=(trace-cmd python3 xz-utils zstd file
	qemu-system-x86 busybox-static cpio
	clang libclang-rt-dev valgrind elfutils binutils zsh)
# BTF read independently of kmag (t0886)
test_pkgs+=(bpftool)
# each of the flight recorder's lines in one write (t0303)
test_pkgs+=(strace)
# explorer/flame/diff tests: Graphviz's dot, and the browser tests (Debian's
# chromium driven by playwright-core, which the test installs with npm ci)
test_pkgs+=(graphviz chromium)
# kmag tui's tests drive it in a tmux pane
test_pkgs+=(tmux)
# the protobuf exports are read with the formats' own schemas (protoc,
# python3-protobuf) and Go's pprof (export -F perfetto/pprof tests)
test_pkgs+=(protobuf-compiler python3-protobuf golang-go)
# the Debian package is built and checked (tests/package/t-deb.sh)
test_pkgs+=(dpkg-dev debhelper lintian fakeroot git)
command -v node >/dev/null || test_pkgs+=(nodejs)
command -v npm >/dev/null || test_pkgs+=(npm)

want=("${build_pkgs[@]}")
if [ "${1:-}" = "--test" ]; then
	want+=("${test_pkgs[@]}")
fi

missing=()
for p in "${want[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || { echo "deps.sh: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
	SUDO=sudo
fi
echo "deps.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
