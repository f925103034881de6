#!/bin/bash
# SPDX-License-Identifier: MIT
# t0204 - call graphs of function-tracer traces (issue 23, defect 8): the red
# hottest path started at whichever untraced caller came first (all weigh 0:
# bprm_execve instead of the system call path with 134 calls), and untraced
# callers said "0 calls". Now an untraced caller weighs the calls it made and
# says "not traced". Checked on every function-tracer fixture against the
# counts trace-cmd gives (tests/oracle/tracecmd_counts.py, helpers/fn-hotpath.py).
. "$(dirname "$0")/lib.sh"
t_need_feature graphviz
command -v trace-cmd >/dev/null || { echo "1..0 # SKIP trace-cmd is not installed (scripts/deps.sh --test)"; exit 0; }

for f in fn-filtered.dat fn-kprobe.dat fn-broad-v6.dat fn-lost-v6.dat; do
	tr=$(fixture_trace "$f")
	python3 "$SRCDIR/tests/oracle/tracecmd_counts.py" "$tr" >"$T/counts.json"
	t_ok "$f: visualize" "$KMAG" visualize --max-nodes 0 --no-chart --image-name "$T/$f.dot" "$tr"
	t_ok "$f: labels and the hottest path as trace-cmd's counts give them" \
		python3 "$SRCDIR/tests/e2e/helpers/fn-hotpath.py" "$T/counts.json" "$T/$f.dot"
	cp "$T/ok.out" "$T/$f.path"
done
# the example of the issue: the path of the 134 openat calls, from their untraced caller
t_eq "fn-filtered.dat: from do_syscall_64 (284 traced calls made) through __x64_sys_openat (134)" \
	"do_syscall_64 > __x64_sys_openat > do_sys_openat2 > do_filp_open > path_openat" \
	"$(cut -d' ' -f1-9 "$T/fn-filtered.dat.path")"
t_done
