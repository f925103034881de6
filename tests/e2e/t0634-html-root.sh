#!/bin/bash
# SPDX-License-Identifier: MIT
# t0634 - `kmag html --root F` (issue 23): one subtree's explorer. The page's
# table has the calls made under F with their numbers there (as visualize
# --root and flame --root, t0820, t0601), its Calls view samples and counts
# only those calls, its Errors panel only the errors born under F, and F is
# shown first. Checked against trace-cmd's own decoding of the stacks
# (helpers/tc-stacks.py) and the kernel's own text (helpers/fg-errors.py).
. "$(dirname "$0")/lib.sh"
command -v trace-cmd >/dev/null || { echo "1..0 # SKIP trace-cmd is not installed (scripts/deps.sh --test)"; exit 0; }
TS="$SRCDIR/tests/e2e/helpers/tc-stacks.py"
HD="$SRCDIR/tests/e2e/helpers/html-data.py"
page() { python3 -c '
import json, re, sys
d = json.loads(re.search(r"id=\"kmag-data\">(.*?)</script>", open(sys.argv[1]).read(), re.S).group(1))
fn = d["fn"]
if sys.argv[2] == "table":	# "NAME CALLS" per function
    for n, c in sorted(zip(fn["name"], fn["calls"])):
        print(n, c)
elif sys.argv[2] == "sampled":	# "NAME CALLS" as the Calls view counts them
    c = d["calls"]["fn"]
    for n, s in sorted((fn["name"][f], s) for f, s in zip(c["f"], c["seen"])):
        print(n, s)
elif sys.argv[2] == "sites":	# "NAME CALLS" summed over the sites each was called from
    s, n = d["sites"], {}
    for f, c in zip(s["f"], s["n"]):
        n[fn["name"][f]] = n.get(fn["name"][f], 0) + c
    for k in sorted(n):
        print(k, n[k])
elif sys.argv[2] == "total":
    print(fn["total"][fn["name"].index(sys.argv[3])])
else:
    print(d["focus"], "|", d["filters"])' "$@"; }

for f in fg-2cpu-v6 fg-sched-v6; do
	tr=$(fixture_trace $f.dat)
	t_ok "$f: html --root vfs_read" "$KMAG" html --root vfs_read -o "$T/$f.html" "$tr"
	python3 "$TS" "$tr" vfs_read | awk '{ n = split($1, a, ";"); c[a[n]] += $2 }
		END { for (f in c) print f, c[f] }' | sort >"$T/want"
	page "$T/$f.html" table >"$T/got"
	t_ok "$f: the table: the functions called under vfs_read, with their calls there (trace-cmd's)" \
		diff "$T/want" "$T/got"
	page "$T/$f.html" sampled >"$T/sampled"
	t_ok "$f: the Calls view counts the same calls" diff "$T/want" "$T/sampled"
	t_eq "$f: vfs_read's time is its calls' (the kernel's rettime - calltime)" \
		"$(python3 "$TS" "$tr" vfs_read --total-ns)" "$(page "$T/$f.html" total vfs_read)"
	t_eq "$f: vfs_read is shown first, the page says what it shows" "vfs_read | called from vfs_read" \
		"$(page "$T/$f.html" focus)"
done

# errors: only those born under the root; the failed openat's ENOENT is under
# do_sys_openat2, the mkdir, write and ioctl failures are not
D="$TRACES/6.19"
t_ok "fg619-retval: html --root do_sys_openat2" "$KMAG" html --root do_sys_openat2 -o "$T/e.html" "$D/fg619-retval.dat"
t_eq "its Errors panel has the failed system calls' origins under do_sys_openat2 (the kernel's text)" \
	"$(python3 "$SRCDIR/tests/e2e/helpers/fg-errors.py" "$D/fg619-retval.txt" | grep '^__x64_sys_openat ' | sort | tr '\n' ';')" \
	"$(python3 "$HD" "$T/e.html" chains | sort | tr '\n' ';')"

# call sites (funcgraph-retaddr, 6.19): every call under the root has one, so
# a function's sites add up to its calls under the root, not the trace's
t_ok "fg619-retaddr: html --root ksys_write" "$KMAG" html --root ksys_write -o "$T/s.html" "$D/fg619-retaddr.dat"
python3 "$TS" "$D/fg619-retaddr.dat" ksys_write | awk '{ n = split($1, a, ";"); c[a[n]] += $2 }
	END { for (f in c) print f, c[f] }' | sort >"$T/want"
page "$T/s.html" sites >"$T/got"
t_ok "its Called from lists count the calls under ksys_write (trace-cmd's)" diff "$T/want" "$T/got"

t_exit "a function-tracer trace: exit 1, --focus suggested" 1 \
	"$KMAG" html --root vfs_read -o "$T/x.html" "$TRACES/fn-filtered.dat"
t_grep "... in one line" 'needs call stacks.*use --focus vfs_read' "$T/err"
t_exit "a misspelt root: exit 1, a suggestion" 1 "$KMAG" html --root vfs_raed -o "$T/x.html" "$(fixture_trace fg-2cpu-v6.dat)"
t_grep "... naming vfs_read" 'did you mean vfs_read\?' "$T/err"
t_done
