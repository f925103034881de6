#!/bin/bash
# SPDX-License-Identifier: MIT
# t0410-probes-vm.sh - kprobes, kretprobes, --threshold, --slowest and
# `kmag stack` on Debian's 6.1 kernel in a QEMU guest (tests/vm/vm-run.sh).
# The guest part (guest-probes.sh) records and compares tracefs snapshots;
# this part checks the reports: a write(2) of 12345 bytes caught at
# ksys_write with count=12345, vfs_read returning 4321, probes removed after
# every run (also SIGINT, and SIGKILL + the next run), the kernel's
# error_log text for a bad fetch argument, and a plausible deepest stack.
# Output is TAP; no VM harness or qemu means a skip. Booting the guest and
# its checks: tests/vm/lib-host.sh.
. "$(dirname "$0")/../../e2e/lib.sh"
kernel=${1:-6.1}
here=$(cd "$(dirname "$0")" && pwd)
. "$SRCDIR/tests/vm/lib-host.sh"
vm_require python3
vm_run_guest "$kernel" 900 "$here/guest-probes.sh"

# kprobe + kretprobe with arguments
t_eq "probes: kmag record exits 0" 0 "$(cat "$O/probes.rc")"
t_grep "probes: the probes are recorded on their own (no function tracer)" \
	'^kmag: recording probe events of sh' "$O/probes.log"
t_ok "probes: report --probes json: ksys_write caught dd's 50 writes of 12345 bytes to fd 1" python3 -c "
import json
d = json.load(open('$O/probes.json'))
p = {x['name']: x for x in d['probes']}
w = p['ksys_write']
assert w['kind'] == 'kprobe' and w['function'] == 'ksys_write', w
a = {x['name']: x for x in w['args']}
top = {t['value']: t['count'] for t in a['count']['top']}
assert top.get(12345, 0) >= 50, top
fds = {t['value']: t['count'] for t in a['fd']['top']}
assert fds.get(1, 0) >= 50, fds
assert a['fd']['type'] == 's32' and a['count']['type'] == 'u64'
"
t_ok "probes: report --probes json: vfs_read returned 4321 for the 20 reads" python3 -c "
import json
d = json.load(open('$O/probes.json'))
p = {x['name']: x for x in d['probes']}
r = p['vfs_read__return']
assert r['kind'] == 'kretprobe' and r['function'] == 'vfs_read', r
top = {t['value']: t['count'] for t in r['args'][0]['top']}
assert top.get(4321, 0) >= 20, top
"
t_grep "probes: text report shows the count argument with 12345 among the top values" \
	'count \(u64\): [0-9,]+ values, min [0-9]+, max [0-9]+, mean .*' "$O/probes.out"
t_grep "probes: 12345 is a top value of count" 'top values: .*12345 x[0-9]+' "$O/probes.out"
t_grep "probes: the histogram has the 8192..16383 bucket" '8192..16383 +[0-9,]+ \|#' "$O/probes.out"

# kprobe next to function_graph: annotated on the probed function
t_eq "probes-fg: kmag record exits 0" 0 "$(cat "$O/probes-fg.rc")"
t_grep "probes-fg: function_graph and probes together" '^kmag: recording function_graph and probes' "$O/probes-fg.log"
t_ok "probes-fg: the report JSON counts the probe hits on vfs_write" python3 -c "
import json
d = json.load(open('$O/probes-fg.json'))
f = {x['name']: x for x in d['functions']}
v = f['vfs_write']
assert v.get('probe_hits', 0) >= 30, v
assert 'probe_hits' not in f['ksys_write'], f['ksys_write']
"

# a rejected fetch argument: the kernel's words and the caret under the position
t_eq "probes-bad: exit 1" 1 "$(cat "$O/probes-bad.rc")"
t_grep "probes-bad: error_log's reason" "^kmag: the kernel rejects --kprobe \"ksys_write size=%zz:u64\": Invalid register name" "$O/probes-bad.log"
t_grep "probes-bad: the command line" '^ +Command: p:kmag_[0-9]+/ksys_write ksys_write size=%zz:u64' "$O/probes-bad.log"
cmdline=$(grep 'Command:' "$O/probes-bad.log")
caret=$(grep '^ *\^$' "$O/probes-bad.log")
pos=$(awk -v s="$cmdline" 'BEGIN { print index(s, "%zz") }')
t_eq "probes-bad: the caret points at %zz" "$pos" "${#caret}"

t_eq "probes-sigINT: SIGINT ends the recording cleanly" 0 "$(cat "$O/probes-sigINT.rc")"
t_ok "probes-kill: SIGKILL left the probe group" grep -q '^p:kmag_[0-9]*/vfs_read ' "$O/dyn-killed.txt"
t_grep "probes-kill: the next run removes it" \
	'removed the probe kmag_[0-9]+/vfs_read left by a kmag run that was killed' "$O/probes-after-kill.log"

# --threshold (tracing_thresh): every call lasted at least 200 us
t_eq "thresh: kmag record exits 0" 0 "$(cat "$O/thresh.rc")"
t_grep "thresh: --slowest lists calls" '^ +1\. ' "$O/thresh-slowest.out"
"$KMAG" report -F json --limit 0 "$O/thresh.dat" >"$T/thresh.json" 2>/dev/null
t_ok "thresh: no timed call is shorter than 200 us" python3 -c "
import json
d = json.load(open('$T/thresh.json'))
mins = [f['min_ns'] for f in d['functions'] if f['min_ns'] is not None]
assert mins and min(mins) >= 200000, sorted(mins)[:5]
"

# view side: --min-duration and --slowest on a normal function_graph recording
t_eq "fg: kmag record exits 0" 0 "$(cat "$O/fg.rc")"
t_grep "fg: --slowest 3 lists 3 calls" '^  3\. ' "$O/fg-slowest.out"
t_grep "fg: the slowest call has its chain, from the -g root" '^ +(ksys_read|ksys_write)( > [a-z_0-9.]+)*$' "$O/fg-slowest.out"
"$KMAG" report -F json --limit 0 --min-duration 20us "$O/fg.dat" >"$T/fg20.json" 2>/dev/null
"$KMAG" report -F json --limit 0 "$O/fg.dat" >"$T/fg.json" 2>/dev/null
t_ok "fg: --min-duration 20us keeps only calls >= 20 us, fewer than all" python3 -c "
import json
a = json.load(open('$T/fg.json'))['functions']
b = json.load(open('$T/fg20.json'))['functions']
assert b and all(f['min_ns'] >= 20000 for f in b if f['min_ns'] is not None), b[:3]
assert sum(f['calls'] for f in b) < sum(f['calls'] for f in a)
"

# the stack tracer
t_eq "stack: kmag stack -- COMMAND exits 0" 0 "$(cat "$O/stack.rc")"
t_grep "stack: the maximum stack use and the frames" '^maximum kernel stack use: [0-9]+ bytes, [0-9]+ frames' "$O/stack.out"
t_eq "stack: the setting is restored (0 after both runs)" "0
0" "$(cat "$O/stack-after.txt")"
t_eq "stack -t 1 -F json: exits 0" 0 "$(cat "$O/stack-json.rc")"
# kmag's frames against the kernel's own stack_trace text of the same run
t_ok "stack -t 1 -F json: the kernel's maximum and frames (its stack_trace), as they are" python3 -c "
import json, re
d = json.load(open('$O/stack.json'))
mine = [(f['depth'], f['size'], f['function']) for f in d['frames']]
kernel = [(int(m[0]), int(m[1]), m[2].split('+')[0]) for m in
          re.findall(r'^ *[0-9]+\\) +([0-9]+) +([0-9]+) +(\\S+)', open('$O/stack-kernel.txt').read(), re.M)]
assert d['max_stack_bytes'] == int(open('$O/stack-kernel-max.txt').read()), d['max_stack_bytes']
assert mine == kernel, (mine, kernel)
"
# the kernel may keep a new maximum without frames (trace_stack.c's
# check_stack() keeps only the return addresses it finds on the stack):
# then there is no chain to check
NFR=$(grep -cE '^ *[0-9]+\) +[0-9]+ +[0-9]+ ' "$O/stack-kernel.txt")
if [ "$NFR" -ge 5 ]; then
	t_ok "stack: a plausible chain (depths add up, bottom is the syscall entry or an interrupt)" python3 -c "
import json
d = json.load(open('$O/stack.json'))
fr = d['frames']
assert len(fr) >= 5 and 1000 < d['max_stack_bytes'] <= 16384, d
assert fr[0]['depth'] == d['max_stack_bytes'] or fr[0]['depth'] <= d['max_stack_bytes']
for a, b in zip(fr, fr[1:]):
    assert a['depth'] - a['size'] == b['depth'], (a, b)
assert all(f['function'] for f in fr)
"
else
	t_skip "stack: a plausible chain" "the kernel kept $NFR frames for its maximum of $(cat "$O/stack-kernel-max.txt") bytes"
fi
t_done
