#!/bin/bash
# vm-run.sh - run a shell script inside a throw-away QEMU guest booted from a
# stock Debian kernel and an initramfs built on the fly, and collect its results.
#
# Why: the host kernel of the kmag CI/dev machines cannot run the function
# tracer (EPERM, no function_graph), so everything that needs real ftrace
# (recording fixture traces, recorder tests running the kmag binary) runs here.
#
# Usage:
#   vm-run.sh [--kernel 6.1|6.12|PKGNAME|/path/to/bzImage] [--bin PATH[:DEST]]...
#             [--file SRC:DEST]... [--cpus N] [--mem MB] [--timeout SEC]
#             [--disk MB] [--append "KERNEL ARGS"] [--icount SHIFT] [--reboot]
#             [--verbose] [--keep] --script GUEST.sh --out DIR
#
#   --kernel K      6.1  (default) -> Debian meta-package linux-image-cloud-amd64
#                   6.12           -> Debian meta-package linux-image-6.12-cloud-amd64
#                   PKGNAME        -> that Debian package (a meta-package is resolved
#                                     through its linux-image-* dependency)
#                   FILE           -> an existing bzImage/vmlinuz, used as is
#                   Meta-packages are resolved with `apt-cache depends` on every run,
#                   so an ABI bump in Debian is picked up automatically; the
#                   resolved package is downloaded once (`apt-get download`) and
#                   cached in ${KMAG_VM_CACHE:-$HOME/.cache/kmag/vm}/PKG_VERSION/.
#                   If apt cannot resolve the name (e.g. offline without lists), the
#                   most recently cached kernel for that name is used.
#   --bin PATH[:DEST]  copy an executable into the guest (default DEST:
#                   /usr/local/bin/BASENAME; a bare name is looked up in $PATH),
#                   together with every shared library `ldd` lists (copied with
#                   cp -L to the same absolute paths). Repeatable.
#   --file SRC:DEST copy a file or directory (dereferenced) to DEST in the guest.
#   --cpus N        vCPUs (default 2)         --mem MB    guest RAM (default 1024)
#   --timeout SEC   host-side limit for the whole boot+run (default 120)
#   --disk MB       size of the (sparse) result disk (default 512)
#   --append ARGS   extra kernel command line arguments
#   --icount SHIFT  guest time counts instructions, not the host's clock:
#                   QEMU `-icount shift=SHIFT,sleep=off` (0-10: 2^SHIFT ns per
#                   instruction; idle time is skipped, not waited for), on
#                   single-threaded TCG. Durations measured in the guest then
#                   do not depend on the host's load (QEMU's thread waiting
#                   for a host CPU is invisible to the guest). Meant for
#                   --cpus 1: the one virtual clock advances with every
#                   vCPU's instructions, so with two a call on one vCPU also
#                   lasts while the other runs.
#   --reboot        let the guest reboot once: `vm-reboot` (in the guest's PATH)
#                   keeps /out on the result disk and warm-resets the machine
#                   (QEMU's reset keeps RAM: a persistent ring buffer survives);
#                   the same kernel, command line and guest script run again with
#                   KMAG_VM_BOOT=2 (1 in the first boot) and /out as it was. A
#                   third boot (a panic, a second reboot) powers off at once.
#   --script FILE   guest script, run by /bin/sh (busybox ash) as root in /out
#   --out DIR       where the results go. Must be empty or not exist, or be the
#                   output of a previous vm-run.sh run (then it is wiped first).
#   --verbose       also stream the guest console to stderr while running
#   --keep          keep the temporary work directory (path printed on stderr)
#
# Inside the guest:
#   * busybox (static) provides the userland; proc, sysfs, devtmpfs, tracefs
#     (/sys/kernel/tracing), debugfs and a tmpfs /tmp are mounted.
#   * The script runs with cwd=/out and env OUT=/out KMAG_VM=1; everything it
#     writes below /out ends up in the host --out DIR. Its stdout+stderr are
#     shown on the console and saved as guest.log. Background jobs must be
#     `wait`ed for (or have their output redirected), or the run hangs until
#     the timeout.
#   * No network, no modules; root filesystem is the initramfs (tmpfs).
#   * Results travel back as a tar archive written to the raw NVMe disk
#     /dev/nvme0n1 (no guest filesystem drivers needed).
#
# Files the harness adds to --out:
#   console.log     guest serial console (kernel messages + script output)
#   guest.log       stdout+stderr of the guest script only
#   exit-status     exit status of the guest script (written in the guest)
#   dmesg-tail.txt  last 200 lines of the guest kernel log after the script
#   vm-info.txt     kernel package+version, vmlinuz sha256, qemu command line
#                   (temporary directory shown as WORK, kernel cache as
#                   $KMAG_VM_CACHE)
#
# Exit status: 0 if the guest script exited 0; otherwise non-zero with a one
# line "vm-run: ..." message on stderr (timeout, panic, missing status, script
# failure, missing host tool).
#
# Notes:
#   * Always uses TCG (`-accel tcg,thread=single`; override with
#     KMAG_VM_ACCEL): multi-threaded TCG can crash the guest when ftrace
#     patches kernel text (QEMU 7.2: a 6.19 guest, an int3 Oops in
#     raw_spin_rq_unlock, in one of two runs; 6.1 guests ran). Under
#     emulation unfiltered function_graph on all CPUs can livelock the guest
#     within seconds: keep traced workloads small/filtered.
#   * The kernel command line contains `nokaslr` so kernel addresses are stable
#     between runs of the same kernel package.
#   * KMAG_VM_QEMU_ARGS: extra qemu arguments (word-split).
set -euo pipefail

prog=vm-run
die() { echo "$prog: $*" >&2; exit 1; }
note() { echo "$prog: $*" >&2; }

usage() {
    sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
    exit "${1:-2}"
}

kernel=6.1
cpus=2
mem=1024
timeout_s=120
disk_mb=512
append=""
icount=""
script=""
out=""
verbose=0
keep=0
reboot=0
bins=()
files=()

need_arg() { [ $# -ge 2 ] && [ -n "$2" ] || die "option $1 needs an argument"; }
while [ $# -gt 0 ]; do
    case "$1" in
        --kernel) need_arg "$@"; kernel=$2; shift 2 ;;
        --bin) need_arg "$@"; bins+=("$2"); shift 2 ;;
        --file) need_arg "$@"; files+=("$2"); shift 2 ;;
        --cpus) need_arg "$@"; cpus=$2; shift 2 ;;
        --mem) need_arg "$@"; mem=$2; shift 2 ;;
        --timeout) need_arg "$@"; timeout_s=$2; shift 2 ;;
        --disk) need_arg "$@"; disk_mb=$2; shift 2 ;;
        --append) need_arg "$@"; append=$2; shift 2 ;;
        --icount) need_arg "$@"; icount=$2; shift 2 ;;
        --reboot) reboot=1; shift ;;
        --script) need_arg "$@"; script=$2; shift 2 ;;
        --out) need_arg "$@"; out=$2; shift 2 ;;
        --verbose|-v) verbose=1; shift ;;
        --keep) keep=1; shift ;;
        -h|--help) usage 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done

[ -n "$script" ] || die "missing --script GUEST.sh (see --help)"
[ -n "$out" ] || die "missing --out DIR (see --help)"
[ -f "$script" ] || die "guest script '$script' not found"
for v in cpus mem timeout_s disk_mb; do
    [[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "--${v%_*} must be a positive integer (got '${!v}')"
done
[ -z "$icount" ] || [[ $icount =~ ^([0-9]|10)$ ]] ||
    die "--icount must be a shift from 0 to 10 (2^SHIFT ns per instruction; got '$icount')"

# ---------------------------------------------------------------- host tools
need_tool() { command -v "$1" >/dev/null 2>&1 || die "'$1' not found; install the Debian package '$2' (apt-get install $2)"; }
need_tool qemu-system-x86_64 qemu-system-x86
need_tool cpio cpio
need_tool timeout coreutils
need_tool tar tar
need_tool ldd libc-bin
busybox=${KMAG_VM_BUSYBOX:-/bin/busybox}
[ -x "$busybox" ] || die "static busybox not found at $busybox; install the Debian package 'busybox-static' (apt-get install busybox-static)"
if ldd "$busybox" >/dev/null 2>&1; then
    die "$busybox is dynamically linked; install the Debian package 'busybox-static' (apt-get install busybox-static)"
fi

# --------------------------------------------------------------- work dirs
out_abs=$(mkdir -p "$out" && cd "$out" && pwd) || die "cannot create --out '$out'"
if [ -n "$(ls -A "$out_abs")" ]; then
    if [ -f "$out_abs/.kmag-vm-out" ]; then
        find "$out_abs" -mindepth 1 -delete
    else
        die "--out '$out' is not empty and was not created by vm-run.sh; refusing to overwrite"
    fi
fi
touch "$out_abs/.kmag-vm-out"

work=$(mktemp -d "${TMPDIR:-/tmp}/kmag-vm.XXXXXX")
qemu_pid=""
cleanup() {
    local rc=$?
    if [ -n "$qemu_pid" ] && kill -0 "$qemu_pid" 2>/dev/null; then
        kill "$qemu_pid" 2>/dev/null || true
    fi
    if [ "$keep" = 1 ]; then
        note "kept work directory $work"
    else
        rm -rf "$work"
    fi
    exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------- kernel
cache=${KMAG_VM_CACHE:-$HOME/.cache/kmag/vm}
mkdir -p "$cache"

kernel_pkg="" kernel_ver="" vmlinuz=""
if [ -f "$kernel" ]; then
    vmlinuz=$(cd "$(dirname "$kernel")" && pwd)/$(basename "$kernel")
    kernel_pkg="(file $vmlinuz)"
    kernel_ver="n/a"
else
    case "$kernel" in
        6.1) meta=linux-image-cloud-amd64 ;;
        6.12) meta=linux-image-6.12-cloud-amd64 ;;
        linux-image-*) meta=$kernel ;;
        *) die "--kernel '$kernel' is neither 6.1, 6.12, a linux-image-* package nor an existing file" ;;
    esac
    alias_file="$cache/alias-$meta"
    pkg=""
    if command -v apt-cache >/dev/null 2>&1; then
        # A meta-package depends on exactly one versioned linux-image-X.Y... package.
        pkg=$(apt-cache depends "$meta" 2>/dev/null |
              awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ { print $2; exit }') || true
        [ -n "$pkg" ] || pkg=$meta
        ver=$(apt-cache policy "$pkg" 2>/dev/null | awk '$1 == "Candidate:" { print $2; exit }') || true
        if [ -z "$ver" ] || [ "$ver" = "(none)" ]; then
            pkg=""
        fi
    fi
    if [ -n "$pkg" ]; then
        kdir="$cache/${pkg}_${ver}"
        if [ ! -f "$kdir/vmlinuz" ]; then
            need_tool apt-get apt
            need_tool dpkg-deb dpkg
            note "downloading kernel package $pkg=$ver into $cache"
            dl="$work/kernel-dl"
            mkdir -p "$dl"
            (cd "$dl" && apt-get download -q "$pkg=$ver" >"$dl/apt.log" 2>&1) ||
                die "apt-get download $pkg=$ver failed (see below; try apt-get update)$(echo; tail -n 3 "$dl/apt.log")"
            debs=("$dl"/*.deb)
            [ -f "${debs[0]}" ] || die "apt-get download $pkg=$ver produced no .deb"
            dpkg-deb -x "${debs[0]}" "$dl/x"
            tmpk=$(mktemp -d "$cache/.incoming.XXXXXX")
            cp "$dl"/x/boot/vmlinuz-* "$tmpk/vmlinuz" || die "no boot/vmlinuz-* in ${debs[0]##*/}"
            cp "$dl"/x/boot/config-* "$tmpk/config" 2>/dev/null || true
            cp "$dl"/x/boot/System.map-* "$tmpk/System.map" 2>/dev/null || true
            {
                echo "package=$pkg"
                echo "version=$ver"
                echo "meta=$meta"
                echo "deb=${debs[0]##*/}"
                echo "deb_sha256=$(sha256sum "${debs[0]}" | cut -d' ' -f1)"
                echo "kernel_release=$(basename "$dl"/x/boot/vmlinuz-* | sed 's/^vmlinuz-//')"
                echo "downloaded=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
            } >"$tmpk/pkg-info"
            rm -rf "$kdir"
            mv "$tmpk" "$kdir"
            rm -rf "$dl"
        fi
        echo "${pkg}_${ver}" >"$alias_file"
    else
        [ -f "$alias_file" ] && [ -f "$cache/$(cat "$alias_file")/vmlinuz" ] ||
            die "cannot resolve kernel package '$meta' with apt-cache and nothing cached (run apt-get update?)"
        kdir="$cache/$(cat "$alias_file")"
        note "apt could not resolve '$meta'; using cached $(basename "$kdir")"
    fi
    vmlinuz="$kdir/vmlinuz"
    kernel_pkg=$(sed -n 's/^package=//p' "$kdir/pkg-info")
    kernel_ver=$(sed -n 's/^version=//p' "$kdir/pkg-info")
fi

# ------------------------------------------------------------- initramfs
root="$work/root"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,usr/local/bin,proc,sys,dev,tmp,out,etc,root,mnt}
cp "$busybox" "$root/bin/busybox"
# Only /bin/sh is linked here; /init runs `busybox --install -s`, which links
# every other applet at its usual path without replacing existing files (so
# --bin/--file entries win over applets of the same name).
ln -s busybox "$root/bin/sh"
mknod -m 600 "$root/dev/console" c 5 1
mknod -m 666 "$root/dev/null" c 1 3
echo "root:x:0:0:root:/root:/bin/sh" >"$root/etc/passwd"
echo "root:x:0:" >"$root/etc/group"

# copy FILE to DEST inside the guest root, dereferencing symlinks
put() {
    local src=$1 dest=$2
    case "$dest" in /*) ;; *) die "guest destination '$dest' must be an absolute path" ;; esac
    mkdir -p "$root$(dirname "$dest")"
    rm -rf "${root:?}$dest"
    cp -RL "$src" "$root$dest"
}

for spec in "${bins[@]}"; do
    src=${spec%%:*}
    dest=""
    [ "$src" != "$spec" ] && dest=${spec#*:}
    if [[ $src != */* ]]; then
        src=$(command -v "$src") || die "--bin '$spec': '${spec%%:*}' not found in PATH"
    fi
    [ -f "$src" ] && [ -x "$src" ] || die "--bin '$spec': '$src' is not an executable file"
    [ -n "$dest" ] || dest=/usr/local/bin/$(basename "$src")
    put "$src" "$dest"
    # ldd: "libx.so => /path (0x..)" or "/lib64/ld-linux-x86-64.so.2 (0x..)";
    # static binaries make ldd fail ("not a dynamic executable").
    libs=$(ldd "$src" 2>/dev/null | awk '
        $2 == "=>" && $3 ~ /^\// { print $3; next }
        $1 ~ /^\// { print $1 }') || true
    for lib in $libs; do
        [ -e "$root$lib" ] || put "$lib" "$lib"
    done
done

for spec in "${files[@]}"; do
    [[ $spec == *:* ]] || die "--file '$spec' must be SRC:DEST"
    src=${spec%%:*}
    dest=${spec#*:}
    [ -e "$src" ] || die "--file '$spec': '$src' does not exist"
    put "$src" "$dest"
done

cp "$script" "$root/guest.sh"
if [ "$reboot" = 1 ]; then
    cat >"$root/bin/vm-reboot" <<VMREBOOT
#!/bin/sh
# vm-reboot (vm-run.sh --reboot): keep /out, mark the disk, warm-reset
tar cf /tmp/vm-out.tar -C /out .
dd if=/tmp/vm-out.tar of=/dev/nvme0n1 bs=1M seek=$((disk_mb / 2)) conv=notrunc 2>/dev/null
mb=\$(( (\$(wc -c </tmp/vm-out.tar) + 1048575) / 1048576 ))
rm -f /tmp/vm-out.tar
printf 'kmag-boot-2 %s ' "\$mb" | dd of=/dev/nvme0n1 bs=1M seek=$((disk_mb - 1)) conv=notrunc 2>/dev/null
sync
echo "kmag-vm: rebooting"
reboot -f
sleep 60
VMREBOOT
    chmod 755 "$root/bin/vm-reboot"
fi

cat >"$root/init" <<'EOF'
#!/bin/sh
# generic kmag-vm init (generated by tests/vm/vm-run.sh)
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=dumb OUT=/out KMAG_VM=1 KMAG_VM_BOOT=1
/bin/busybox mount -t proc proc /proc
/bin/busybox --install -s
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /tmp
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
if [ -x /bin/vm-reboot ]; then
	# --reboot: the last MiB of the result disk says which boot this is;
	# /out of the first boot waits in its second half
	mark=$(dd if=/dev/nvme0n1 bs=1M skip=$((REBOOT_DISK_MB - 1)) count=1 2>/dev/null | head -c 32)
	case $mark in
	kmag-boot-2*)
		export KMAG_VM_BOOT=2
		set -- $mark
		printf 'kmag-boot-3 ' | dd of=/dev/nvme0n1 bs=1M seek=$((REBOOT_DISK_MB - 1)) conv=notrunc 2>/dev/null
		dd if=/dev/nvme0n1 bs=1M skip=$((REBOOT_DISK_MB / 2)) count="$2" 2>/dev/null | tar xf - -C /out
		;;
	kmag-boot-3*)
		echo "kmag-vm: unexpected third boot (a panic or a second reboot): powering off"
		poweroff -f
		;;
	esac
fi
hostname kmag-vm
ip link set lo up 2>/dev/null
echo "kmag-vm: guest up: kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) cpus, $(sed -n 's/MemTotal: *//p' /proc/meminfo)"
cd /out
echo "kmag-vm: running guest script"
{ /bin/sh /guest.sh </dev/null; echo $? >/out/exit-status; } 2>&1 | tee -a /out/guest.log
echo "kmag-vm: guest script exit status $(cat /out/exit-status)"
dmesg | tail -n 200 >/out/dmesg-tail.txt
cd /
if tar cf /dev/nvme0n1 -C /out . && sync; then
    echo "kmag-vm: results written"
else
    echo "kmag-vm: RESULT TAR FAILED"
fi
poweroff -f
EOF
sed -i "s/REBOOT_DISK_MB/$disk_mb/g" "$root/init"
chmod 755 "$root/init" "$root/guest.sh"

(cd "$root" && find . -mindepth 1 -print0 | LC_ALL=C sort -z |
    cpio --null -o -H newc --owner=0:0 --quiet) >"$work/initrd.cpio"

# ------------------------------------------------------------------- boot
disk="$work/disk.img"
truncate -s "${disk_mb}M" "$disk"
console="$work/console.raw"
: >"$console"

cmdline="console=ttyS0 quiet panic=-1 nokaslr rdinit=/init${append:+ $append}"
accel=${KMAG_VM_ACCEL:-tcg,thread=single}
# -icount needs single-threaded TCG whatever KMAG_VM_ACCEL says
[ -z "$icount" ] || accel=tcg,thread=single
# shellcheck disable=SC2054 # commas are part of qemu option values
qemu=(qemu-system-x86_64 -accel "$accel" -m "$mem" -smp "$cpus"
      -kernel "$vmlinuz" -initrd "$work/initrd.cpio" -append "$cmdline"
      -display none -monitor none -nodefaults -no-user-config
      -serial "file:$console"
      -drive "file=$disk,if=none,id=d,format=raw" -device nvme,serial=kmag,drive=d)
[ "$reboot" = 1 ] || qemu+=(-no-reboot)
[ -z "$icount" ] || qemu+=(-icount "shift=$icount,sleep=off")
# shellcheck disable=SC2206
[ -n "${KMAG_VM_QEMU_ARGS:-}" ] && qemu+=($KMAG_VM_QEMU_ARGS)

tail_pid=""
if [ "$verbose" = 1 ]; then
    tail -n +1 -F "$console" >&2 2>/dev/null &
    tail_pid=$!
fi
start=$(date +%s)
set +e
timeout -k 5 "$timeout_s" "${qemu[@]}" </dev/null >"$work/qemu.log" 2>&1 &
qemu_pid=$!
wait "$qemu_pid"
qrc=$?
set -e
qemu_pid=""
elapsed=$(( $(date +%s) - start ))
if [ -n "$tail_pid" ]; then
    sleep 0.3
    kill "$tail_pid" 2>/dev/null || true
    wait "$tail_pid" 2>/dev/null || true
fi

# ----------------------------------------------------------------- results
tr -d '\r' <"$console" >"$out_abs/console.log"
tar xf "$disk" -C "$out_abs" 2>/dev/null || true
{
    echo "kernel_package=$kernel_pkg"
    echo "kernel_version=$kernel_ver"
    echo "vmlinuz_sha256=$(sha256sum "$vmlinuz" | cut -d' ' -f1)"
    echo "qemu_version=$(qemu-system-x86_64 --version | head -n 1)"
    printf 'qemu_cmdline='
    for a in "${qemu[@]}"; do
        a=${a//$work/WORK}
        a=${a//$cache/\$KMAG_VM_CACHE}
        if [[ $a =~ [^A-Za-z0-9_./:=,+-] ]]; then printf "'%s' " "$a"; else printf '%s ' "$a"; fi
    done
    echo
    echo "elapsed_s=$elapsed"
    echo "qemu_exit=$qrc"
} >"$out_abs/vm-info.txt"

hint="see $out_abs/console.log"
if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
    die "guest timed out after ${timeout_s}s ($hint)"
fi
if panic=$(grep -m1 -E 'Kernel panic|end Kernel panic' "$out_abs/console.log"); then
    die "guest kernel panicked: ${panic#*] } ($hint)"
fi
if [ "$qrc" != 0 ]; then
    die "qemu exited with status $qrc: $(tail -n 1 "$work/qemu.log")"
fi
if grep -q 'kmag-vm: RESULT TAR FAILED' "$out_abs/console.log"; then
    die "guest could not write its results (bigger than --disk ${disk_mb} MB?) ($hint)"
fi
if [ ! -f "$out_abs/exit-status" ]; then
    die "guest powered off without reporting a status ($hint)"
fi
if grep -q 'cut here' "$out_abs/dmesg-tail.txt" 2>/dev/null; then
    note "warning: guest kernel logged a WARNING/BUG (see $out_abs/dmesg-tail.txt)"
fi
status=$(cat "$out_abs/exit-status")
if [ "$status" != 0 ]; then
    die "guest script failed with exit status $status (see $out_abs/guest.log)"
fi
note "ok: guest script succeeded in ${elapsed}s ($kernel_pkg $kernel_ver); results in $out_abs"
