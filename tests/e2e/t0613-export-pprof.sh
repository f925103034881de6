#!/bin/bash
# SPDX-License-Identifier: MIT
# kmag export -F pprof, read with pprof's own schema (profile.proto, protoc +
# python3-protobuf; helpers/pprof-check.py) and with Go's pprof, never with
# kmag's encoder: on every fixture each function's calls and self time are
# those of `kmag report`, and `go tool pprof -top` lists the report's top
# functions; from a merged profile the same; source files from the symbol map
# and, with --vmlinux, lines that are addr2line's.
. "$(dirname "$0")/lib.sh"
t_pb2
H=$SRCDIR/tests/e2e/helpers
# the report the exports are compared with: under valgrind (KMAG_VALGRIND) only
# the export runs in memcheck, the report (checked by its own tests) runs as is
REPORT=${KMAG_REAL:-$KMAG}
check() { "$PYPB" "$H/pprof-check.py" "$T/pb2" "$@"; }
GO=$(command -v go)

n=0
for path in "$TRACES"/fg-* "$TRACES"/fn-* "$TRACES"/6.19/f*619-*.dat "$TRACES"/diff/diff-*; do
	name=$(basename "$path" .xz)
	case $name in *.dat | *.txt) ;; *) continue ;; esac
	rel=${path#"$TRACES"/}
	mkdir -p "$T/$(dirname "$rel")"
	tr=$(fixture_trace "${rel%.xz}")
	"$REPORT" report --format json --limit 0 "$tr" >"$T/r.json" 2>/dev/null
	n=$((n + 1))
	t_ok "$name: calls and self time per function are the report's" \
		sh -c "'$KMAG' export -F pprof -o '$T/p.pb.gz' '$tr' 2>/dev/null && \
		       '$PYPB' '$H/pprof-check.py' '$T/pb2' '$T/p.pb.gz' '$T/r.json' >'$T/p.check'"
	case $name in fg-2cpu-v6.dat | fg-sched-v6.dat | fg619-args.dat | fn-filtered.dat) ;; *) continue ;; esac
	if [ -z "$GO" ]; then
		t_skip "$name: go tool pprof -top" "no go (apt install golang-go)"
		continue
	fi
	for idx in time calls; do
		[ "$idx" = time ] && grep -q '^fn .* [1-9][0-9]*$' "$T/p.check" || [ "$idx" = calls ] || continue
		"$GO" tool pprof -top -unit=ns -nodecount=12 -sample_index=$idx "$T/p.pb.gz" >"$T/top" 2>"$T/top.err"
		t_ok "$name: go tool pprof -top ($idx) lists the report's top functions" \
			"$PYPB" "$H/pprof-top-check.py" "$T/top" "$T/r.json" $idx
	done
done
t_ok "the fixtures were found ($n)" test "$n" -ge 20

# what the profile says about itself
FG=$(fixture_trace fg-filtered.dat)
t_ok "fg-filtered.dat" "$KMAG" export -F pprof -o "$T/f.pb.gz" "$FG"
check "$T/f.pb.gz" >"$T/f.check"
t_grep "sample types calls and time" '^types calls/count time/nanoseconds$' "$T/f.check"
t_grep "one sample per stack: deep stacks" '^samples=[0-9]+ stacks_max_depth=([5-9]|[1-9][0-9])' "$T/f.check"
t_grep "the kernel as a comment" '^comment kernel: Linux kmag-vm 6.1.0-56-cloud-amd64 x86_64$' "$T/f.check"
t_grep "the tracer as a comment" '^comment tracer: function_graph$' "$T/f.check"
t_grep "the kernel release as a label" '^label kernel_release=6.1.0-56-cloud-amd64$' "$T/f.check"
t_grep "the tracer as a label" '^label tracer=function_graph$' "$T/f.check"
t_ok "gzip says it is gzip" sh -c "gzip -t '$T/f.pb.gz'"

# source files from the symbol map
MAP=$SRCDIR/tests/fixtures/symbols/6.1.0-56-cloud-amd64.subset.map
t_ok "--symbol-file-path" "$KMAG" export -F pprof --symbol-file-path "$MAP" -o "$T/m.pb.gz" "$FG"
check "$T/m.pb.gz" >"$T/m.check"
t_grep "functions have their files and lines" '^with_file=[1-9][0-9]+ with_line=[1-9][0-9]+$' "$T/m.check"
"$PYPB" - "$T/pb2" "$T/m.pb.gz" "$MAP" >"$T/files" <<'PY'
import gzip, sys
sys.path.insert(0, sys.argv[1])
import profile_pb2 as pb
p = pb.Profile(); p.ParseFromString(gzip.open(sys.argv[2]).read())
s = p.string_table
mp = {}
for l in open(sys.argv[3]):
    if l.startswith("#"):
        continue
    f = l.rstrip("\n").split("\t")
    mp.setdefault(f[0], set()).add((f[1], int(f[2])))
n = bad = 0
for f in p.function:
    if s[f.filename]:
        n += 1
        if (s[f.filename], f.start_line) not in mp.get(s[f.name], set()):
            bad += 1
            print("# %s: %s:%d not in the map" % (s[f.name], s[f.filename], f.start_line))
print("checked=%d wrong=%d" % (n, bad))
PY
t_grep "each file and line is the map's entry" '^checked=[1-9][0-9]+ wrong=0$' "$T/files"

# a merged profile: edges only
A=$(fixture_trace fg-2cpu-v6.dat) B=$(fixture_trace fg-sched-v6.dat)
t_ok "merge" "$KMAG" merge -o "$T/fleet.json" "$A" "$B"
"$REPORT" report --format json --limit 0 "$T/fleet.json" >"$T/fr.json"
t_ok "pprof of the merged profile" "$KMAG" export -F pprof -o "$T/fleet.pb.gz" "$T/fleet.json"
t_ok "... calls and self time per function are the merged report's" \
	sh -c "'$PYPB' '$H/pprof-check.py' '$T/pb2' '$T/fleet.pb.gz' '$T/fr.json' >'$T/fleet.check'"
t_grep "... it says its stacks are one caller deep" '^comment stacks: caller and callee only' "$T/fleet.check"
t_grep "... and lists both recordings" '^comment recording: .*fg-sched-v6.dat' "$T/fleet.check"
t_grep "... stacks of two frames" 'stacks_max_depth=2 ' "$T/fleet.check"
if [ -n "$GO" ]; then
	"$GO" tool pprof -top -unit=ns -nodecount=12 -sample_index=time "$T/fleet.pb.gz" >"$T/top" 2>/dev/null
	t_ok "... go tool pprof -top lists the merged report's top functions" \
		"$PYPB" "$H/pprof-top-check.py" "$T/top" "$T/fr.json" time
fi

# --vmlinux: each function's line is addr2line's for its address
if t_has_feature libdw; then
	t_exit "--vmlinux is for perfetto and pprof" 2 "$KMAG" export -F folded --vmlinux /dev/null "$FG"
fi
xzv=""
for d in "${KMAG_SHARED_KERNELS:-}" "$SRCDIR/../shared/kernels" "$SRCDIR/../../shared/kernels"; do
	[ -n "$d" ] && [ -f "$d/vmlinux-6.19.0.xz" ] && { xzv=$d/vmlinux-6.19.0.xz; break; }
done
if ! t_has_feature libdw || [ -z "$xzv" ] || ! command -v addr2line >/dev/null; then
	t_skip "--vmlinux lines" "no libdw, no vmlinux-6.19.0.xz in \$KMAG_SHARED_KERNELS or ../shared/kernels, or no addr2line"
	t_done
	exit
fi
xz -dc "$xzv" >"$T/vmlinux"
t_ok "fg619-args.dat --vmlinux" "$KMAG" export -F pprof --vmlinux "$T/vmlinux" -o "$T/v.pb.gz" "$TRACES/6.19/fg619-args.dat"
"$PYPB" - "$T/pb2" "$T/v.pb.gz" >"$T/vfuncs" <<'PY'
import gzip, sys
sys.path.insert(0, sys.argv[1])
import profile_pb2 as pb
p = pb.Profile(); p.ParseFromString(gzip.open(sys.argv[2]).read())
s = p.string_table
for f in p.function:
    if s[f.filename]:
        print(s[f.name], "%s:%d" % (s[f.filename], f.start_line))
PY
nm "$T/vmlinux" | awk '$2 ~ /^[tT]$/ {print $3, $1}' | sort -k1,1 >"$T/nm"
# functions nm lists once, with their address, then addr2line's line for it
awk '{c[$1]++; a[$1]=$2} END {for (f in c) if (c[f] == 1) print f, a[f]}' "$T/nm" | sort -k1,1 >"$T/nm1"
sort -k1,1 "$T/vfuncs" | join - "$T/nm1" >"$T/joined"
awk '{print $3}' "$T/joined" | addr2line -e "$T/vmlinux" >"$T/a2l"
paste -d' ' "$T/joined" "$T/a2l" | awk '{a=$4; sub(/ .*/, "", a); n++; if (a != $2 && a !~ ("/" $2 "$")) {bad++; print "# " $0}} END {print "checked=" n+0, "wrong=" bad+0}' >"$T/vcheck"
t_grep "each function's line is addr2line's" '^checked=[1-9][0-9]{2,} wrong=0$' "$T/vcheck"
t_done
