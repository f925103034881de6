#!/bin/bash
# SPDX-License-Identifier: MIT
# t0880-errors: `kmag errors`, where errors are born, on the Linux 6.19
# fixtures (tests/fixtures/traces/6.19: wl.sh errors, recorded with
# funcgraph-retval). The expected origins come from an independent replay of
# the kernel's own text (helpers/fg-errors.py: depth by indentation, "ret=-N"),
# never from kmag; and each is checked against why the 6.19 source fails there.
. "$(dirname "$0")/lib.sh"
D="$TRACES/6.19"
H="$SRCDIR/tests/e2e/helpers/fg-errors.py"

# kmag's groups whose errno reached the entry point, one line per origin
# occurrence: "ENTRY ERRNO ORIGIN", sorted, as the helper prints them
kmag_chains() {
	python3 -c '
import json, sys
for g in json.load(open(sys.argv[1]))["groups"]:
    for _ in range(g["entry_returned"]):
        print(g["entry"], g["errno"], g["origin"])' "$1" | sort
}

# --- the kernel's answers, from its text -------------------------------------
python3 "$H" "$D/fg619-retval.txt" >"$T/kernel"
want() { grep -c "^$1 $2 $3 $4\$" "$T/kernel"; }
# ENOENT (cat of a missing file): path_openat -> open_last_lookups ->
# step_into() -> step_into_slowpath() -> handle_mounts() -> traverse_mounts()
# (both inlined) finds the dentry negative and returns -ENOENT, so
# step_into_slowpath returns ERR_PTR(-ENOENT) to path_openat's loop
# "while (!(error = link_path_walk(s, nd)) && (s = open_last_lookups(...)))":
# s is that ERR_PTR, and link_path_walk() starts with "if (IS_ERR(name))
# return PTR_ERR(name);". So the innermost function RETURNING -ENOENT up the
# chain is link_path_walk (a leaf: it made no call), and the error was born in
# its caller's earlier callee step_into_slowpath (fs/namei.c, 6.19).
t_eq "kernel text: ENOENT of openat returned up from link_path_walk, after step_into_slowpath" \
	1 "$(want __x64_sys_openat -2 link_path_walk step_into_slowpath)"
# EEXIST (mkdir of an existing directory): filename_create() -> start_dirop()
# -> __start_dirop() -> lookup_one_qstr_excl(), which finds the dentry in the
# dcache positive with LOOKUP_EXCL set: "return ERR_PTR(-EEXIST)". wl.sh's
# own "mkdir -p" meets it once more (for /tmp), and once in filename_create
# itself ("/" has no last component: type != LAST_NORM, dentry stays
# ERR_PTR(-EEXIST), no lookup made).
t_eq "kernel text: EEXIST of mkdir born in lookup_one_qstr_excl (twice)" \
	2 "$(want __x64_sys_mkdir -17 lookup_one_qstr_excl -)"
t_eq "kernel text: EEXIST of mkdir / born in filename_create" \
	1 "$(want __x64_sys_mkdir -17 filename_create -)"
# EBADF (write to a descriptor opened read-only): vfs_write()'s first check,
# "if (!(file->f_mode & FMODE_WRITE)) return -EBADF;" (fs/read_write.c).
t_eq "kernel text: EBADF of write born in vfs_write" 1 "$(want ksys_write -9 vfs_write -)"
# ENOTTY (stty on a tmpfs file): do_vfs_ioctl() knows no TCGETS for a regular
# file (-ENOIOCTLCMD), then vfs_ioctl(): shmem files have no ->unlocked_ioctl,
# "int error = -ENOTTY; if (!filp->f_op->unlocked_ioctl) goto out;" - both
# static and inlined into the system call, whose only traced callee is fdget.
t_eq "kernel text: ENOTTY of ioctl born in __x64_sys_ioctl (vfs_ioctl inlined)" \
	1 "$(want __x64_sys_ioctl -25 __x64_sys_ioctl -)"

# --- kmag finds the same, in every fixture of one buffer read twice ---------
for n in fg619-retval fg619-retaddr fg619-args fg619-latency; do
	python3 "$H" "$D/$n.txt" | cut -d' ' -f1-3 | sort >"$T/want-$n"
	for f in "$D/$n.txt" "$D/$n.dat"; do
		b=$(basename "$f")
		t_ok "$b: errors --format json" "$KMAG" errors --format json "$f"
		cp "$T/ok.out" "$T/json"
		t_ok "$b: the JSON is well-formed" python3 -m json.tool "$T/json"
		kmag_chains "$T/json" >"$T/got"
		t_eq "$b: every failed system call's origin as the kernel's text shows it" \
			"$(tr '\n' ';' <"$T/want-$n")" "$(tr '\n' ';' <"$T/got")"
	done
done

# the example chain of ENOENT: entry to origin, each link with its duration,
# and the earlier callee that handed it on
t_ok "errors --format json fg619-retval.txt" "$KMAG" errors -F json "$D/fg619-retval.txt"
t_eq "ENOENT: the example chain runs from the system call down to the origin" \
	"__x64_sys_openat do_sys_open do_sys_openat2 do_filp_open path_openat link_path_walk after step_into_slowpath" \
	"$(python3 -c '
import json, sys
g = [g for g in json.load(open(sys.argv[1]))["groups"] if g["errname"] == "ENOENT" and g["entry_returned"]][0]
c = g["example"]["chain"]
assert all("duration_ns" in l and l["returned_error"] for l in c)
print(" ".join(l["function"] for l in c), "after", g["example"]["after"])' "$T/ok.out")"
# durations as the kernel printed them on the closing lines
t_eq "ENOENT: the durations of the example chain are the kernel's" \
	"320021 308545 305578 197335 192757 1093" \
	"$(python3 -c '
import json, sys
g = [g for g in json.load(open(sys.argv[1]))["groups"] if g["errname"] == "ENOENT" and g["entry_returned"]][0]
print(" ".join(str(l["duration_ns"]) for l in g["example"]["chain"]))' "$T/ok.out")"
t_grep "the kernel text has those durations" '320\.021 us .*__x64_sys_openat ret=-2' "$D/fg619-retval.txt"

# --- text ---
t_ok "errors (text)" "$KMAG" errors "$D/fg619-retval.txt"
t_grep "text: says the return types are unknown (no BTF)" \
	'^# return types unknown: give --btf or a trace with BTF; void/bool functions may show as errors$' "$T/ok.out"
t_grep "text: a row per group: count, errno, origin, entry point" \
	'^ +2  EEXIST \(-17\) +lookup_one_qstr_excl +__x64_sys_mkdir \(2\)$' "$T/ok.out"
t_grep "text: the example chain below it, the failing calls marked" \
	'^ +__x64_sys_mkdir [0-9.]+ us =-17 > do_mkdirat .* > lookup_one_qstr_excl [0-9.]+ us =-17$' "$T/ok.out"
t_ok "errors --limit 2" "$KMAG" errors --limit 2 "$D/fg619-retval.txt"
t_eq "--limit 2: two groups" 2 "$(grep -c '^ \+[0-9]\+  ' "$T/ok.out")"
t_ok "errors --comm of the workload" "$KMAG" errors --format json --comm 'wl.sh,cat,mkdir,dd,stty' "$D/fg619-args.txt"
t_ok "errors -o FILE.json picks JSON" "$KMAG" errors -o "$T/e.json" "$D/fg619-retval.dat"
t_ok "... well-formed" python3 -m json.tool "$T/e.json"

# --- traces without return values: one clear line, nothing invented ---
msg='errors needs return values: record with funcgraph-retval \(Linux 6\.5\+, CONFIG_FUNCTION_GRAPH_RETVAL\)$'
for f in fg-text-6.12.txt fg-filtered.dat fn-text.txt; do
	p=$(fixture_trace "$f")
	t_exit "$f (no return values): exit 1" 1 "$KMAG" errors "$p"
	t_grep "$f: says errors needs funcgraph-retval" "$msg" "$T/err"
	t_eq "$f: nothing on standard output" 0 "$(wc -c <"$T/out")"
done
# --- return types from BTF (the 6.19 test kernel's, tests/fixtures/btf) ---
origins_of() { python3 -c '
import json, sys
print(" ".join(sorted({g["origin"] for g in json.load(open(sys.argv[1]))["groups"]})))' "$1"; }
if t_has_feature btf; then
	xz -dc "$FIXTURES/btf/vmlinux-6.19.btf.xz" >"$T/vmlinux.btf"
	"$KMAG" errors -F json "$D/fg619-retval.txt" >"$T/untyped.json"
	t_ok "errors --btf" "$KMAG" errors -F json --btf "$T/vmlinux.btf" "$D/fg619-retval.txt"
	cp "$T/ok.out" "$T/typed.json"
	# void in the 6.19 source: rcu_stall_kick_kthreads (kernel/rcu/tree_stall.h),
	# rcu_gpnum_ovf, note_gp_changes (kernel/rcu/tree.c), down_read
	# (kernel/locking/rwsem.c): their rax is whatever was left there
	for f in rcu_stall_kick_kthreads rcu_gpnum_ovf note_gp_changes down_read; do
		case " $(origins_of "$T/untyped.json") " in
		*" $f "*) t_pass "without types, void $f reads as an error origin" ;;
		*) t_fail "without types, void $f reads as an error origin" ;;
		esac
		case " $(origins_of "$T/typed.json") " in
		*" $f "*) t_fail "--btf: void $f is no error origin" ;;
		*) t_pass "--btf: void $f is no error origin" ;;
		esac
	done
	# const struct xattr_handler *xattr_resolve_name(): ERR_PTR(-EOPNOTSUPP) (fs/xattr.c)
	case " $(origins_of "$T/typed.json") " in
	*" xattr_resolve_name "*) t_pass "--btf: a pointer's ERR_PTR(-EOPNOTSUPP) stays an error" ;;
	*) t_fail "--btf: a pointer's ERR_PTR(-EOPNOTSUPP) stays an error" ;;
	esac
	kmag_chains "$T/typed.json" >"$T/got"
	t_eq "--btf: the failed system calls' origins as the kernel's text shows them" \
		"$(tr '\n' ';' <"$T/want-fg619-retval")" "$(tr '\n' ';' <"$T/got")"
	t_ok "errors --btf (text)" "$KMAG" errors --btf "$T/vmlinux.btf" "$D/fg619-retval.dat"
	t_grep "text: says where the return types came from" '^# return types: BTF of .*vmlinux\.btf ' "$T/ok.out"
	t_nogrep "text: no 'types unknown' note with BTF" 'return types unknown' "$T/ok.out"
	t_ok "report --errors --btf" "$KMAG" report --errors -F json --btf "$T/vmlinux.btf" "$D/fg619-retval.txt"
	t_eq "report --errors --btf: the same groups as errors --btf" "$(cat "$T/typed.json")" "$(cat "$T/ok.out")"
	# trace-cmd 3.4 stores the recording kernel's BTF in the trace.dat
	t_ok "errors of a trace.dat with its own BTF" "$KMAG" errors "$TRACES/6.19-tc34/tc34-args.dat"
	t_grep "the trace's own BTF gives the return types" '^# return types: the BTF the trace stores ' "$T/ok.out"
	t_exit "errors --btf of a missing file: exit 1" 1 "$KMAG" errors --btf "$T/none" "$D/fg619-retval.txt"
else
	t_skip "errors --btf" "this kmag was built without btf"
fi

# --- report --errors: the same view, from report's own replay ---
for f in fg619-retval.txt fg619-args.dat; do
	"$KMAG" errors --format json "$D/$f" >"$T/e.json"
	t_ok "report --errors --format json $f" "$KMAG" report --errors --format json "$D/$f"
	t_eq "report --errors $f: the same groups as kmag errors" "$(cat "$T/e.json")" "$(cat "$T/ok.out")"
done
t_exit "report --errors on a trace without return values: exit 1" 1 \
	"$KMAG" report --errors "$(fixture_trace fg-text-6.12.txt)"
t_grep "report --errors: says errors needs funcgraph-retval" "$msg" "$T/err"
t_exit "report --errors has no csv" 2 "$KMAG" report --errors --format csv "$D/fg619-retval.txt"

# --- visualize --errors: the error paths in purple, the kernel's chains ---
if t_has_feature graphviz; then
	t_ok "visualize --errors" "$KMAG" visualize --errors --no-chart --max-nodes 0 -o "$T/e.dot" \
		"$D/fg619-retval.txt"
	cp "$T/ok.out" "$T/e.out"
	t_eq "visualize --errors: the purple edges are the steps of the failed calls' chains" \
		"$(python3 "$H" --edges "$D/fg619-retval.txt" | sort | tr '\n' ';')" \
		"$(grep -o 'tooltip="[^"]*(on an error path)' "$T/e.dot" | sed 's/tooltip="//; s/: .*//; s/ -> / /' |
			sort | tr '\n' ';')"
	t_grep "visualize --errors: the legend says what purple means" \
		'purple arrows</B></FONT>: error paths, from the entry point down to where the error was born' "$T/e.dot"
	t_exit "visualize --errors without return values: exit 1" 1 "$KMAG" visualize --errors --no-chart \
		-o "$T/f.dot" "$(fixture_trace fg-text-6.12.txt)"
	t_grep "visualize --errors: says errors needs funcgraph-retval" "$msg" "$T/err"
	t_ok "visualize without --errors" "$KMAG" visualize --no-chart --max-nodes 0 -o "$T/n.dot" "$D/fg619-retval.txt"
	t_nogrep "no purple without --errors" '7a0177' "$T/n.dot"
	t_grep "visualize --errors without BTF: says the return types are unknown" \
		'^error paths: return types unknown \(give --btf' "$T/e.out"
	t_exit "visualize --btf without --errors: a usage error" 2 "$KMAG" visualize --btf x --no-chart \
		-o "$T/b.dot" "$D/fg619-retval.txt"
	t_grep "... that says --btf is for --errors" 'add --errors' "$T/err"
	if t_has_feature btf; then
		t_ok "visualize --errors --btf" "$KMAG" visualize --errors --btf "$T/vmlinux.btf" --no-chart \
			--max-nodes 0 -o "$T/eb.dot" "$D/fg619-retval.txt"
		t_grep "visualize --errors --btf: says where the return types came from" \
			'^error paths: return types from BTF of .*vmlinux\.btf$' "$T/ok.out"
		# void rcu_gpnum_ovf "returned" -839 under a failed openat: typed, it is no origin
		# and no step of an error path; the failed calls' own chains stay purple
		t_eq "visualize --errors --btf: the purple edges are still the failed calls' chains" \
			"$(python3 "$H" --edges "$D/fg619-retval.txt" | sort | tr '\n' ';')" \
			"$(grep -o 'tooltip="[^"]*(on an error path)' "$T/eb.dot" | sed 's/tooltip="//; s/: .*//; s/ -> / /' |
				sort | tr '\n' ';')"
		t_ok "visualize --errors of a trace.dat with its own BTF" "$KMAG" visualize --errors --no-chart \
			--max-nodes 0 -o "$T/tc.dot" "$TRACES/6.19-tc34/tc34-args.dat"
		t_grep "... takes the return types from it" '^error paths: return types from the BTF the trace stores$' \
			"$T/ok.out"
	fi
else
	t_skip "visualize --errors" "this kmag was built without graphviz"
fi

# --- trace-cmd's view of the same buffer agrees with the kernel's text ---
if command -v trace-cmd >/dev/null; then
	trace-cmd report -R "$D/fg619-retval.dat" >"$T/raw" 2>/dev/null
	t_eq "trace-cmd report -R of fg619-retval.dat: the same origins as the text" \
		"$(python3 "$H" "$D/fg619-retval.txt")" "$(python3 "$H" --raw "$T/raw")"
else
	t_skip "trace-cmd report -R agrees with the text" "trace-cmd is not installed"
fi
t_exit "unknown format" 2 "$KMAG" errors --format csv "$D/fg619-retval.txt"
t_done
