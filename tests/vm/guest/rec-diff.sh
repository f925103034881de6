# tests/vm/guest/rec-diff.sh - the `kmag diff` fixture pairs: the same
# workload recorded twice, once as is ("base") and once with one extra step
# ("tmpfs": the same data also written to a tmpfs file). Self-contained (no
# lib.sh) so it runs from any checkout; see the diff/ section of tests/fixtures/traces/README.md.
# Run on the host:
#   tests/vm/vm-run.sh --kernel 6.1 --bin trace-cmd --timeout 600 \
#       --script tests/vm/guest/rec-diff.sh --out vm-out/diff
# then: xz -9e the four .dat files into tests/fixtures/traces/diff/
set -e
cd "$OUT"
trace-cmd --version 2>&1 | head -n 1 >trace-cmd-version.txt

# The workload: 8 reads of /proc/version and 16 4-KiB copies /dev/zero ->
# /dev/null; with "tmpfs" also 16 4-KiB writes to a tmpfs file.
cat >/tmp/wl-diff.sh <<'WL'
#!/bin/sh
i=0
while [ $i -lt 8 ]; do cat /proc/version >/dev/null; i=$((i + 1)); done
dd if=/dev/zero of=/dev/null bs=4k count=16 2>/dev/null
if [ "$1" = tmpfs ]; then
	dd if=/dev/zero of=/tmp/wl-diff.out bs=4k count=16 2>/dev/null
	rm -f /tmp/wl-diff.out
fi
WL
chmod 755 /tmp/wl-diff.sh
cp /tmp/wl-diff.sh wl-diff.sh

run() { # NAME CMD...
	echo "==> [$1] $*"
	name=$1; shift
	printf '%s\t%s\n' "$name" "$*" >>commands.tsv
	timeout 240 "$@"
}

# -F -c: only the workload's tasks (and their children), so trace-cmd's own
# reads and writes stay out of both recordings.
for v in base tmpfs; do
	run diff-fg-$v.dat trace-cmd record --file-version 6 -p function_graph \
		-g ksys_read -g ksys_write -F -c -o diff-fg-$v.dat /tmp/wl-diff.sh $v
done
for v in base tmpfs; do
	run diff-fn-$v.dat trace-cmd record --file-version 6 -p function \
		-l 'ksys_*' -l 'vfs_*' -l 'shmem_*' -l '*_zero' -l '*_null' \
		-F -c -o diff-fn-$v.dat /tmp/wl-diff.sh $v
done
ls -l
