#!/bin/bash
# SPDX-License-Identifier: MIT
# kmag export -F perfetto, read with Perfetto's own schema (perfetto_trace.proto,
# protoc + python3-protobuf; helpers/perfetto-check.py), never with kmag's
# encoder: on every function_graph fixture the trace is well formed (one
# sequence, incremental state and interning as Perfetto documents them, tracks
# described before use, slices nested and in time order on each track) and has
# one slice per call of `kmag report`; on the Linux 6.19 fixtures the
# arguments, call sites and error returns are those of the kernel's own text
# of the same buffer.
. "$(dirname "$0")/lib.sh"
t_pb2
H=$SRCDIR/tests/e2e/helpers
# the report the exports are compared with: under valgrind (KMAG_VALGRIND) only
# the export runs in memcheck, the report (checked by its own tests) runs as is
REPORT=${KMAG_REAL:-$KMAG}
check() { "$PYPB" "$H/perfetto-check.py" "$T/pb2" "$@"; }

n=0
for path in "$TRACES"/fg-* "$TRACES"/6.19/fg619-* "$TRACES"/diff/diff-fg-*; do
	name=$(basename "$path" .xz)
	case $name in *.dat | *.txt) ;; *) continue ;; esac
	rel=${path#"$TRACES"/}
	mkdir -p "$T/$(dirname "$rel")"
	tr=$(fixture_trace "${rel%.xz}")
	"$REPORT" report --format json --limit 0 "$tr" >"$T/r.json" 2>/dev/null
	if ! "$KMAG" export -F perfetto -o "$T/t.pftrace" "$tr" 2>"$T/e"; then
		# text without timestamps has no timeline: export says so
		t_grep "$name: refused with the reason" 'funcgraph-abstime' "$T/e"
		continue
	fi
	n=$((n + 1))
	t_ok "$name: well formed, one slice per call of the report" \
		check "$T/t.pftrace" "$T/r.json"
done
t_ok "the fixtures were found ($n)" test "$n" -ge 15

# what the slices carry, against the kernel's own text of the same ring buffer
F=$TRACES/6.19
"$PYPB" "$H/fg-text-details.py" "$F/fg619-args.txt" | sort >"$T/kernel"
if t_has_feature btf; then
	xz -dc "$SRCDIR/tests/fixtures/btf/vmlinux-6.19.btf.xz" >"$T/v.btf"
	t_ok "fg619-args.dat --btf" "$KMAG" export -F perfetto --btf "$T/v.btf" -o "$T/a.pftrace" "$F/fg619-args.dat"
	check "$T/a.pftrace" | grep '^arg ' | sort >"$T/args"
	t_ok "every argument named and valued as the kernel printed it ($(wc -l <"$T/args"))" \
		diff <(grep '^arg ' "$T/kernel") "$T/args"
	t_ok "... thousands of them" test "$(wc -l <"$T/args")" -gt 4000
else
	t_skip "arguments named from BTF" "this kmag was built without btf"
fi
t_ok "fg619-args.dat" "$KMAG" export -F perfetto -o "$T/b.pftrace" "$F/fg619-args.dat"
check "$T/b.pftrace" >"$T/b.check"
grep '^site ' "$T/b.check" | sort >"$T/sites"
t_ok "every call site as the kernel printed it ($(wc -l <"$T/sites"))" diff <(grep '^site ' "$T/kernel") "$T/sites"
t_ok "... hundreds of them" test "$(wc -l <"$T/sites")" -gt 400
grep '^ret ' "$T/b.check" | awk '{print $1, $2, $3}' | sort >"$T/rets"
t_ok "every error return as the kernel printed it ($(wc -l <"$T/rets"))" diff <(grep '^ret ' "$T/kernel") "$T/rets"
t_grep "errors carry their name" '^ret __x64_sys_mkdir -17 EEXIST$' "$T/b.check"
t_grep "every slice has its CPU" "^ann cpu $(sed -n 's/^slices=\([0-9]*\) .*/\1/p' "$T/b.check")\$" "$T/b.check"
t_grep "return values" '^ann retval [0-9]{3,}$' "$T/b.check"
t_grep "incomplete calls are marked" '^slices=[0-9]+ tracks=[0-9]+ incomplete=[1-9]' "$T/b.check"
t_grep "arguments without BTF: the registers" '^ann args\.arg0 [0-9]+' "$T/b.check"

# interrupts, lost events, other events, idle tasks
tr=$(fixture_trace fg-lost-v6.dat)
t_ok "fg-lost-v6" "$KMAG" export -F perfetto -o "$T/l.pftrace" "$tr"
check "$T/l.pftrace" >"$T/l.check"
t_grep "every gap in the events is marked" '^slices=[0-9]+ tracks=[0-9]+ incomplete=[0-9]+ lost=28 ' "$T/l.check"
tr=$(fixture_trace fg-sched-v6.dat)
t_ok "fg-sched-v6" "$KMAG" export -F perfetto -o "$T/s.pftrace" "$tr"
check "$T/s.pftrace" >"$T/s.check"
t_grep "the sched_switch events are instants" ' instants=179$' "$T/s.check"
t_grep "interrupts are marked" '^ann context [1-9]' "$T/s.check"
protoc --decode=perfetto.protos.Trace -I"$SRCDIR/tests/formats" "$SRCDIR/tests/formats/perfetto_trace.proto" \
	<"$T/s.pftrace" >"$T/s.txt"
t_grep "protoc decodes it too; idle tasks get one thread per CPU" 'thread_name: "swapper/1"' "$T/s.txt"
t_grep "tasks are named" 'process_name: "' "$T/s.txt"
t_grep "the kernel release is recorded" 'release: "6.1.0-56-cloud-amd64"' "$T/s.txt"

# a trace without task ids: the replay keeps one stack per CPU, so does the export
cat >"$T/nopid.txt" <<'TXT'
# tracer: function_graph
#
# TIME        CPU  DURATION                  FUNCTION CALLS
# |          |     |   |                     |   |   |   |
  100.000000 |   0)               |  vfs_read() {
  100.000001 |   1)               |  vfs_write() {
  100.000002 |   0)   1.000 us    |    rw_verify_area();
  100.000003 |   1)   1.000 us    |    rw_verify_area();
  100.000004 |   0)   5.000 us    |  }
  100.000006 |   1)   6.000 us    |  }
TXT
"$REPORT" report --format json --limit 0 "$T/nopid.txt" >"$T/nopid.json"
t_ok "no task ids, two CPUs" "$KMAG" export -F perfetto -o "$T/nopid.pftrace" "$T/nopid.txt"
t_ok "... one track per CPU, the slices nest" check "$T/nopid.pftrace" "$T/nopid.json"
t_grep "... four calls on two tracks" '^slices=4 tracks=2 ' "$T/ok.out"

# the same to standard output; refusals leave no file
t_ok "to standard output" sh -c "'$KMAG' export -F perfetto '$tr' >'$T/o.pftrace'"
t_ok "... the same bytes" cmp "$T/s.pftrace" "$T/o.pftrace"
t_ok "a .pftrace name picks the format" "$KMAG" export -o "$T/n.pftrace" "$tr"
t_ok "... the same bytes" cmp "$T/s.pftrace" "$T/n.pftrace"
t_exit "function tracer data cannot become a timeline" 1 \
	"$KMAG" export -F perfetto -o "$T/fn.pftrace" "$TRACES/fn-filtered.dat"
t_grep "kmag says why" 'function tracer.*function_graph' "$T/err"
t_ok "and leaves no file" test ! -e "$T/fn.pftrace"
t_exit "--split-size is chrome's" 2 "$KMAG" export -F perfetto --split-size 1M -o "$T/x.pftrace" "$tr"
t_exit "--btf is perfetto's" 2 "$KMAG" export -F chrome --btf /dev/null -o "$T/x.json" "$tr"
t_done
