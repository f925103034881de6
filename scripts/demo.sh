#!/bin/bash
# SPDX-License-Identifier: MIT
# demo.sh - the main job end to end: install what is needed, build kmag, record
# what the kernel executes while a small workload runs, and turn it into
# pictures and tables in ./demo-out/.
#
# Recording needs root and a kernel with the function tracers. Where this
# machine cannot record (no root, no CONFIG_FUNCTION_GRAPH_TRACER, a locked
# down or containerised kernel), the demo says why and uses a trace recorded
# on a real Debian 6.1 kernel that ships with kmag (tests/fixtures/traces).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-demo-out}

echo "== installing packages (scripts/deps.sh)"
scripts/deps.sh
echo "== building (build/)"
[ -f build/build.ninja ] || meson setup build >/dev/null
ninja -C build >/dev/null
KMAG=build/kmag
mkdir -p "$OUT"
rm -f "$OUT"/trace.dat

MAP_ARGS=()
BTF_ARGS=()
echo "== recording"
# the workload: list and read files, so the VFS and page cache show up
WORKLOAD=(sh -c 'ls -lR /usr/share/doc >/dev/null 2>&1; cat /etc/os-release /proc/version >/dev/null; dd if=/dev/zero of=/tmp/kmag-demo.$$ bs=64k count=16 2>/dev/null; rm -f /tmp/kmag-demo.$$')
if "$KMAG" record -q -p function_graph -g ksys_read -g ksys_write -g do_sys_openat2 \
	-o "$OUT/trace.dat" -- "${WORKLOAD[@]}" 2>"$OUT/record.err"; then
	echo "recorded $OUT/trace.dat on this machine ($(uname -r))"
	SOURCE="recorded here"
else
	# the error is kmag's last line (notes such as "mounted tracefs at ..." come first)
	echo "this machine cannot record function calls: $(grep -v '^ *$' "$OUT/record.err" | tail -1 | sed 's/^kmag: //')"
	echo "using a real trace instead: tests/fixtures/traces/fg-2cpu-v6.dat.xz"
	echo "(function_graph, Debian kernel 6.1.0-56-cloud-amd64 in QEMU; provenance in tests/fixtures/traces/README.md)"
	xz -dc tests/fixtures/traces/fg-2cpu-v6.dat.xz >"$OUT/trace.dat"
	MAP_ARGS=(--symbol-file-path tests/fixtures/symbols/6.1.0-56-cloud-amd64.subset.map)
	SOURCE="shipped real trace"
fi

echo
echo "== kmag report (the 15 functions with the most time)"
"$KMAG" report "${MAP_ARGS[@]}" --sort total --limit 15 "$OUT/trace.dat"

echo
echo "== kmag visualize (call graph + call-count chart)"
"$KMAG" visualize "${MAP_ARGS[@]}" --heat total --image-name "$OUT/callgraph.pdf" \
	--chart-name "$OUT/function-calls.png" "$OUT/trace.dat"
"$KMAG" visualize "${MAP_ARGS[@]}" --heat total --no-chart --max-nodes 60 \
	--image-name "$OUT/callgraph.png" "$OUT/trace.dat" >/dev/null

echo
echo "== kmag html, flame"
"$KMAG" html "${MAP_ARGS[@]}" -o "$OUT/kmag.html" "$OUT/trace.dat"
"$KMAG" flame -o "$OUT/flame.svg" "$OUT/trace.dat"

echo
echo "== kmag errors (where the failed calls' errors were born; needs return values)"
ERR_TRACE=$OUT/trace.dat
if ! "$KMAG" errors --limit 6 "$ERR_TRACE" >"$OUT/errors.txt" 2>"$OUT/errors.err"; then
	echo "$(tail -1 "$OUT/errors.err" | sed 's/^kmag: //')"
	ERR_TRACE=tests/fixtures/traces/6.19/fg619-args.dat
	echo "using a real Linux 6.19 trace with return values, call sites and arguments: $ERR_TRACE"
	echo "(a workload that fails in four known places; provenance in tests/fixtures/traces/6.19/README.md)"
	# that kernel's BTF: argument names and return types (void is never an error)
	if "$KMAG" --version | grep -q '^features:.* +btf'; then
		xz -dc tests/fixtures/btf/vmlinux-6.19.btf.xz >"$OUT/vmlinux-6.19.btf"
		BTF_ARGS=(--btf "$OUT/vmlinux-6.19.btf")
	fi
	"$KMAG" errors "${BTF_ARGS[@]}" --limit 6 "$ERR_TRACE" >"$OUT/errors.txt"
fi
cat "$OUT/errors.txt"
echo
echo "== kmag replay --errors (the failed calls in time order, as the kernel prints them)"
"$KMAG" replay "${BTF_ARGS[@]}" --errors --limit 12 "$ERR_TRACE"
"$KMAG" html "${BTF_ARGS[@]}" -o "$OUT/errors.html" "$ERR_TRACE" >/dev/null

echo
echo "done ($SOURCE). Open:"
for f in callgraph.pdf callgraph.png function-calls.png kmag.html flame.svg errors.html; do
	printf '  %s\n' "$OUT/$f"
done
