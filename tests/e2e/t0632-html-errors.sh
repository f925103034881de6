#!/bin/bash
# SPDX-License-Identifier: MIT
# t0632-html-errors: `kmag html` embeds where a trace's errors were born (the
# Errors panel) and the error paths the graph marks, on the Linux 6.19
# fixtures (tests/fixtures/traces/6.19: wl.sh errors, recorded with
# funcgraph-retval). Checked three ways: against `kmag errors --format json`
# (the same analysis must reach the page unchanged), against an independent
# replay of the kernel's own text (helpers/fg-errors.py, never kmag), and
# against the workload's known failures (see t0880 for why the 6.19 source
# fails in these functions). A trace without return values gets no errors,
# and hostile names stay inside the page's JSON. (The panel in a browser:
# tests/browser/errors.test.js.)
. "$(dirname "$0")/lib.sh"
D="$TRACES/6.19"
FGE="$SRCDIR/tests/e2e/helpers/fg-errors.py"
HD="$SRCDIR/tests/e2e/helpers/html-data.py"

# kmag errors' groups in the shape html-data.py prints the page's
errors_groups() { python3 -c '
import json, sys
for g in json.load(open(sys.argv[1]))["groups"]:
    out = {"count": g["count"], "errno": g["errno"], "errname": g["errname"],
           "origin": g["origin"], "entry": g["entry"], "entry_returned": g["entry_returned"],
           "chain": [l["function"] for l in g["example"]["chain"]],
           "durations": [l.get("duration_ns", -1) for l in g["example"]["chain"]],
           "returned_error": [l["returned_error"] for l in g["example"]["chain"]]}
    if "after" in g["example"]:
        out["after"] = g["example"]["after"]
    print(json.dumps(out, sort_keys=True))' "$1"; }

for f in fg619-retval.txt fg619-retval.dat fg619-args.dat; do
	t_ok "$f: html" "$KMAG" html -o "$T/$f.html" "$D/$f"
	t_eq "$f: the page has errors" yes "$(python3 "$HD" "$T/$f.html" has-errors)"
	"$KMAG" errors --format json "$D/$f" >"$T/e.json"
	t_eq "$f: the page's groups are kmag errors' (origin, errno, entry point, counts, example chain)" \
		"$(errors_groups "$T/e.json")" "$(python3 "$HD" "$T/$f.html" groups)"
	t_eq "$f: without BTF the page says the return types are unknown" unknown \
		"$(python3 "$HD" "$T/$f.html" types)"
	n=${f%.*}
	t_eq "$f: every failed system call's origin as the kernel's text shows it" \
		"$(python3 "$FGE" "$D/$n.txt" | sort | tr '\n' ';')" \
		"$(python3 "$HD" "$T/$f.html" chains | sort | tr '\n' ';')"
	t_eq "$f: the marked error paths are the steps of the kernel's failed chains" \
		"$(python3 "$FGE" --edges "$D/$n.txt" | sort | tr '\n' ';')" \
		"$(python3 "$HD" "$T/$f.html" path-edges | sort | tr '\n' ';')"
done

# the workload's known failures (wl.sh errors; the kernel source's reasons in t0880)
P="$T/fg619-retval.dat.html"
python3 "$HD" "$P" chains >"$T/chains"
t_grep "cat of a missing file: ENOENT of openat, returned up from link_path_walk after step_into_slowpath" \
	'^__x64_sys_openat -2 link_path_walk step_into_slowpath$' "$T/chains"
t_eq "mkdir of an existing directory: EEXIST born in lookup_one_qstr_excl, twice" \
	2 "$(grep -c '^__x64_sys_mkdir -17 lookup_one_qstr_excl -$' "$T/chains")"
t_grep "write to a read-only descriptor: EBADF born in vfs_write" '^ksys_write -9 vfs_write -$' "$T/chains"
t_grep "stty on a tmpfs file: ENOTTY born in the ioctl system call (vfs_ioctl inlined)" \
	'^__x64_sys_ioctl -25 __x64_sys_ioctl -$' "$T/chains"
t_eq "the marked origins: the functions where those errors were born" \
	"__x64_sys_ioctl filename_create link_path_walk lookup_one_qstr_excl vfs_write" \
	"$(python3 "$HD" "$P" path-origins | sort | tr '\n' ' ' | sed 's/ $//')"
t_ok "the ENOENT group names its errno, count and the chain from the system call down" python3 -c "
import json, sys
gs = [json.loads(l) for l in open('/dev/stdin')]
g = [g for g in gs if g['errname'] == 'ENOENT' and g['entry_returned']][0]
assert g['count'] == 1 and g['errno'] == -2, g
assert g['chain'] == ['__x64_sys_openat', 'do_sys_open', 'do_sys_openat2', 'do_filp_open',
                      'path_openat', 'link_path_walk'], g['chain']
# the durations the kernel printed on the closing lines (fg619-retval.txt)
assert g['durations'] == [320021, 308545, 305578, 197335, 192757, 1093], g['durations']
" < <(python3 "$HD" "$P" groups)

# --- return types from BTF: void functions are no errors ---
if t_has_feature btf; then
	xz -dc "$FIXTURES/btf/vmlinux-6.19.btf.xz" >"$T/vmlinux.btf"
	t_ok "html --btf" "$KMAG" html --btf "$T/vmlinux.btf" -o "$T/btf.html" "$D/fg619-retval.txt"
	python3 "$HD" "$T/btf.html" types >"$T/types"
	t_grep "the page says where the return types came from" 'BTF of .*vmlinux\.btf' "$T/types"
	"$KMAG" errors --format json --btf "$T/vmlinux.btf" "$D/fg619-retval.txt" >"$T/eb.json"
	t_eq "html --btf: the groups of errors --btf" "$(errors_groups "$T/eb.json")" \
		"$(python3 "$HD" "$T/btf.html" groups)"
	# void in the 6.19 source (kernel/rcu/tree_stall.h, kernel/rcu/tree.c)
	python3 "$HD" "$T/btf.html" groups >"$T/btf-groups"
	t_nogrep "--btf: void rcu_stall_kick_kthreads is no error origin" '"origin": "rcu_stall_kick_kthreads"' \
		"$T/btf-groups"
	python3 "$HD" "$P" groups >"$T/groups"
	t_grep "without --btf its register reads as one" '"origin": "rcu_stall_kick_kthreads"' "$T/groups"
	t_ok "the trace's own BTF (trace-cmd 3.4) without --btf" "$KMAG" html -o "$T/tc34.html" \
		"$TRACES/6.19-tc34/tc34-args.dat"
	t_eq "... gives the return types" "the BTF the trace stores" "$(python3 "$HD" "$T/tc34.html" types)"
	t_exit "html --btf of a missing file: exit 1" 1 "$KMAG" html --btf "$T/none" -o "$T/n.html" \
		"$D/fg619-retval.txt"
	t_grep "... naming it" 'none' "$T/err"
else
	t_skip "html --btf" "this kmag was built without btf"
fi

# --- a path filter leaves functions out of the page, not out of the errors ---
printf '%s\n' "__x64_sys_openat|fs/open.c" "do_sys_open|fs/open.c" "do_sys_openat2|fs/open.c" \
	"do_filp_open|fs/namei.c" "path_openat|fs/namei.c" "link_path_walk|fs/namei.c" >"$T/open.map"
t_ok "html --filter-filepath fs/open.c" "$KMAG" html --symbol-file-path "$T/open.map" --filter-filepath fs/open.c \
	-o "$T/filtered.html" "$D/fg619-retval.dat"
"$KMAG" errors --format json "$D/fg619-retval.dat" >"$T/e.json"
t_eq "the page's groups are still all of kmag errors' (functions it leaves out by name)" \
	"$(errors_groups "$T/e.json")" "$(python3 "$HD" "$T/filtered.html" groups)"
t_eq "the marked error paths are the kernel's steps between the functions it shows" \
	"$(python3 "$FGE" --edges "$D/fg619-retval.txt" |
		grep -E '^(__x64_sys_openat|do_sys_open|do_sys_openat2) (__x64_sys_openat|do_sys_open|do_sys_openat2)$' |
		sort | tr '\n' ';')" \
	"$(python3 "$HD" "$T/filtered.html" path-edges | sort | tr '\n' ';')"
t_eq "no origin it shows" "" "$(python3 "$HD" "$T/filtered.html" path-origins)"

# --- visualize --errors -o PAGE.html: the same page with the same errors ---
t_ok "visualize --errors -o x.html" "$KMAG" visualize --errors --no-chart -o "$T/vis.html" "$D/fg619-retval.dat"
t_eq "its Errors panel has html's groups" "$(python3 "$HD" "$P" groups)" "$(python3 "$HD" "$T/vis.html" groups)"
t_eq "and the kernel's failed chains" "$(python3 "$FGE" "$D/fg619-retval.txt" | sort | tr '\n' ';')" \
	"$(python3 "$HD" "$T/vis.html" chains | sort | tr '\n' ';')"
t_ok "visualize -o x.html without --errors" "$KMAG" visualize --no-chart -o "$T/vis2.html" "$D/fg619-retval.dat"
t_eq "has no errors (visualize marks them on request only)" no "$(python3 "$HD" "$T/vis2.html" has-errors)"
if t_has_feature btf; then
	t_ok "visualize --errors --btf -o x.html" "$KMAG" visualize --errors --btf "$T/vmlinux.btf" --no-chart \
		-o "$T/vis3.html" "$D/fg619-retval.txt"
	t_eq "the page says where the return types came from" "BTF of $T/vmlinux.btf" \
		"$(python3 "$HD" "$T/vis3.html" types)"
	t_eq "and has the groups of html --btf" "$(python3 "$HD" "$T/btf.html" groups)" \
		"$(python3 "$HD" "$T/vis3.html" groups)"
fi

# --- traces without return values: no errors, nothing invented ---
for f in fg-2cpu-v6.dat fg-text-6.12.txt fn-text.txt; do
	p=$(fixture_trace "$f")
	t_ok "$f (no return values): html" "$KMAG" html -o "$T/none.html" "$p"
	t_eq "$f: the page has no errors" no "$(python3 "$HD" "$T/none.html" has-errors)"
	t_nogrep "$f: and says nothing about them" 'error|retval' "$T/ok.err"
done
if t_has_feature btf; then
	t_ok "--btf on a trace without return values" "$KMAG" html --btf "$T/vmlinux.btf" -o "$T/none.html" \
		"$(fixture_trace fg-text-6.12.txt)"
	t_grep "... says the page shows no errors, and why" 'has no return values \(funcgraph-retval, Linux 6\.5\+\): the page shows no errors' "$T/ok.err"
fi
t_ok "a diff page" "$KMAG" diff -F html -o "$T/diff.html" "$D/fg619-retval.txt" "$D/fg619-args.txt"
t_nogrep "has no errors (a diff has no single calls)" '"errors":' "$T/diff.html"

# --- hostile names: escaped like every other name of the page ---
python3 - "$T/hostile.txt" <<'PY'
import sys
names = [b"</script><b>x</b>", b"q\"u'o`te&amp", b"ctl\x01\x1b[31m\x7f", b"utf8_\xe2\x80\xa6"]
lines = [b"# tracer: function_graph", b"#"]
ts = 100.0
for n in names:
    ts += 0.00001
    lines.append(b"  %.6f |   0)   bash-1    |               |  ksys_write() {" % ts)
    ts += 0.00001
    lines.append(b"  %.6f |   0)   bash-1    |   1.000 us    |    " % ts + n + b"(); /* ret=-2 */")
    ts += 0.00001
    lines.append(b"  %.6f |   0)   bash-1    |   3.000 us    |  } /* ksys_write ret=-2 */" % ts)
open(sys.argv[1], "wb").write(b"\n".join(lines) + b"\n")
PY
t_ok "html of a trace whose failing functions have hostile names" "$KMAG" html -o "$T/h.html" "$T/hostile.txt"
t_eq "the page has exactly its two script elements' ends (no name ends one)" 2 \
	"$(grep -o '</script>' "$T/h.html" | wc -l)"
t_eq "its data has the four origins, under ksys_write" 4 \
	"$(python3 "$HD" "$T/h.html" chains | grep -c '^ksys_write -2 ')"
python3 "$HD" "$T/h.html" chains >"$T/h-chains"
t_grep "a name with markup is an origin, as it is" '^ksys_write -2 </script><b>x</b> -$' "$T/h-chains"
t_grep "a name with quotes too" "^ksys_write -2 q\"u'o\`te&amp -\$" "$T/h-chains"
t_grep "and one with control bytes" $'^ksys_write -2 ctl\x01\x1b\\[31m\x7f -$' "$T/h-chains"
t_nogrep "no raw control byte reaches the page" $'[\x01\x1b\x7f]' "$T/h.html"

# --- the options ---
t_ok "html --help" "$KMAG" html --help
t_grep "--help documents --btf" '^      --btf FILE ' "$T/ok.out"
t_grep "--help says what the Errors panel shows" 'Errors panel' "$T/ok.out"
t_done
