# SPDX-License-Identifier: MIT
# lib.sh - helpers for end-to-end CLI tests. Each test script sources this,
# runs checks with t_* helpers, and ends with t_done. Output is TAP.
#
# Environment (set by meson): KMAG = the kmag binary, FIXTURES = tests/fixtures,
# SRCDIR = the source tree. Each script gets a private scratch directory $T.
set -u

T_N=0
T_FAILED=0
T=$(mktemp -d "${TMPDIR:-/tmp}/kmag-e2e.XXXXXX")
trap 'rm -rf "$T"' EXIT
: "${KMAG:?KMAG must point at the kmag binary}"
: "${FIXTURES:?FIXTURES must point at tests/fixtures}"
TRACES="$FIXTURES/traces"

# A private HOME, so maps or caches in the user's ~/.cache/kmag do not change
# what the tests see; the VM kernel cache stays shared (it is only a download).
export KMAG_VM_CACHE="${KMAG_VM_CACHE:-${HOME:-/root}/.cache/kmag/vm}"
export HOME="$T/home"
mkdir -p "$HOME"

# Under KMAG_VALGRIND=1 kmag runs go through memcheck: any error or leak makes
# kmag exit 99, which no test expects. A test memchecks its first
# KMAG_VALGRIND_RUNS kmag runs (default 6; 0: all of them) and runs the rest
# natively: most tests then repeat the same code paths over more fixtures, a
# memchecked run costs about a second of start-up alone (the e2e suite makes
# some 1,550 kmag runs; about 340 are memchecked), and the ASan+UBSan stage runs
# every one of them. A test that sets KMAG_VALGRIND_RUNS before it sources
# this file memchecks that many.
if [ -n "${KMAG_VALGRIND:-}" ]; then
	KMAG_REAL=$KMAG
	KMAG="$T/kmag-valgrind"
	: >"$T/valgrind-runs"
	cat >"$KMAG" <<EOS
#!/bin/sh
max=${KMAG_VALGRIND_RUNS:-6}
if [ "\$max" -gt 0 ] && [ "\$(wc -c <"$T/valgrind-runs")" -ge "\$max" ]; then
	exec "$KMAG_REAL" "\$@"
fi
printf . >>"$T/valgrind-runs"
exec valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \\
	--errors-for-leak-kinds=definite,indirect --suppressions="${SRCDIR:-.}/tests/valgrind.supp" \\
	"$KMAG_REAL" "\$@"
EOS
	chmod +x "$KMAG"
fi

# The *-host tests change this machine's tracefs and compare snapshots of it:
# meson runs them one at a time, and this lock keeps them apart from those of
# another build or checkout running at the same time.
case $0 in
*-host.sh)
	exec 8>"${TMPDIR:-/tmp}/kmag-host-tracefs.lock"
	flock 8
	;;
esac

t_pass() { T_N=$((T_N + 1)); echo "ok $T_N - $1"; }
t_fail() {
	T_N=$((T_N + 1)); T_FAILED=$((T_FAILED + 1)); echo "not ok $T_N - $1"
	shift
	[ $# -gt 0 ] && printf '# %s\n' "$@"
	return 0
}

# t_ok DESC CMD... : CMD must exit 0 (its output goes to $T/ok.out and $T/ok.err,
# so CMD may read $T/out from an earlier t_exit)
t_ok() {
	local desc=$1; shift
	if "$@" >"$T/ok.out" 2>"$T/ok.err"; then t_pass "$desc"; else
		t_fail "$desc" "exit $? from: $*" "$(head -c 2000 "$T/ok.err")" "$(head -c 1000 "$T/ok.out")"; fi
}

# t_exit DESC CODE CMD... : CMD must exit with CODE and print exactly one line on stderr
t_exit() {
	local desc=$1 code=$2 rc; shift 2
	"$@" >"$T/out" 2>"$T/err"; rc=$?
	if [ "$rc" != "$code" ]; then
		t_fail "$desc" "expected exit $code, got $rc from: $*" "$(head -c 2000 "$T/err")"
	elif [ "$code" != 0 ] && [ "$(wc -l <"$T/err")" -ne 1 ]; then
		t_fail "$desc" "expected one error line, got:" "$(head -c 2000 "$T/err")"
	else
		t_pass "$desc"
	fi
}

# t_grep DESC PATTERN FILE : FILE must contain the extended regex PATTERN
t_grep() {
	if grep -Eq -- "$2" "$3"; then t_pass "$1"; else
		t_fail "$1" "no match for /$2/ in $3:" "$(head -c 1500 "$3")"; fi
}

# t_nogrep DESC PATTERN FILE
t_nogrep() {
	if grep -Eq -- "$2" "$3"; then t_fail "$1" "unexpected match for /$2/ in $3:" "$(grep -Em3 -- "$2" "$3")"; else
		t_pass "$1"; fi
}

# t_eq DESC EXPECTED ACTUAL
t_eq() {
	if [ "$2" = "$3" ]; then t_pass "$1"; else t_fail "$1" "expected: $2" "actual:   $3"; fi
}

# fixture_trace NAME: path to a fixture trace, decompressing NAME.xz/.zst into $T if needed
# (NAME may name a subfolder of $TRACES: vm-irq/x.dat)
fixture_trace() {
	local f="$TRACES/$1" out="$T/${1##*/}"
	if [ -f "$f" ]; then echo "$f"; return; fi
	if [ -f "$f.xz" ]; then xz -dc "$f.xz" >"$out" && echo "$out"; return; fi
	if [ -f "$f.zst" ]; then zstd -qdc "$f.zst" >"$out" && echo "$out"; return; fi
	echo "$f"
}

# t_has_feature NAME... : true when this kmag has every optional library NAME
# (graphviz, cairo, libtracecmd, libdw), as `kmag --version` lists it ("+NAME")
t_has_feature() {
	local f
	[ -n "${T_FEATURES+set}" ] || T_FEATURES=" $("$KMAG" --version | sed -n 's/^features: //p') "
	for f in "$@"; do
		case "$T_FEATURES" in *" +$f "*) ;; *) return 1 ;; esac
	done
}

# t_need_feature NAME... : skips the whole script (TAP "1..0 # SKIP") when this
# kmag lacks one of them; call it before the first check
t_need_feature() {
	local f
	for f in "$@"; do
		t_has_feature "$f" || { echo "1..0 # SKIP this kmag was built without $f"; exit 0; }
	done
}

# t_skip DESC REASON : one check skipped (TAP "ok N - DESC # SKIP REASON")
# t_pb2 : the formats' own schemas (tests/formats: Perfetto's and pprof's .proto)
# as Python modules in $T/pb2 (protoc --python_out), for helpers run by $PYPB,
# Debian's python3 with python3-protobuf; skips the whole test without them.
PYPB=/usr/bin/python3
t_pb2() {
	if ! command -v protoc >/dev/null || ! "$PYPB" -c 'import google.protobuf' 2>/dev/null; then
		echo "1..0 # SKIP needs protoc and python3-protobuf (apt install protobuf-compiler python3-protobuf)"
		exit 0
	fi
	mkdir -p "$T/pb2" && protoc --python_out="$T/pb2" -I"$SRCDIR/tests/formats" \
		"$SRCDIR/tests/formats/perfetto_trace.proto" "$SRCDIR/tests/formats/profile.proto"
}

t_skip() { T_N=$((T_N + 1)); echo "ok $T_N - $1 # SKIP $2"; }

# t_needs_of KMAG-ARGS... : prints the optional libraries that kmag command line
# needs: DOT output (export/diff -F dot or -o X.dot) and visualize's pictures other than
# .html need graphviz, its chart cairo, --reader libtracecmd libtracecmd,
# generate-symbol-map libdw
t_needs_of() {
	local a prev='' cmd='' img='' chart=1 dot=0 need=()
	for a in "$@"; do
		if [ -z "$cmd" ]; then case $a in -*) ;; *) cmd=$a ;; esac; fi
		case $prev in
		-F | --format) [ "$a" = dot ] && dot=1 ;;
		-o | --output | --image-name) img=$a ;;
		--reader) [ "$a" = libtracecmd ] && need+=(libtracecmd) ;;
		--btf) need+=(btf) ;;
		esac
		case $a in --format=dot | -Fdot) dot=1 ;; --no-chart) chart=0 ;; esac
		prev=$a
	done
	case $cmd in
	export | diff)
		# without -F, the output's name says the format (cli/formats.c)
		case $img in *.dot | *.gv) dot=1 ;; esac
		[ "$dot" = 1 ] && need+=(graphviz)
		;;
	visualize)
		case ${img:-kernel-magnifier.pdf} in *.html) ;; *) need+=(graphviz) ;; esac
		[ "$chart" = 1 ] && need+=(cairo)
		;;
	generate-symbol-map) need+=(libdw) ;;
	esac
	echo "${need[*]}"
}

# t_can_run DESC KMAG-ARGS... : true when this kmag has what the command line
# needs (t_needs_of); otherwise records DESC as skipped and returns false
t_can_run() {
	local desc=$1 need
	shift
	need=$(t_needs_of "$@")
	# shellcheck disable=SC2086 # a list of names
	t_has_feature $need && return 0
	t_skip "$desc" "this kmag was built without one of: $need"
	return 1
}

t_done() {
	echo "1..$T_N"
	[ "$T_FAILED" -eq 0 ]
}
