#!/bin/bash
# SPDX-License-Identifier: MIT
# t0870-kernel-6.19: what Linux 6.19 writes into function_graph and function
# traces - return values (funcgraph-retval, -retval-hex), call sites
# (funcgraph-retaddr: fgraph_retaddr_entry records, "<-caller+0x1f/0x80" in
# text), arguments (funcgraph-args, func-args), with -tail/-proc/-abstime
# and the latency format - read from the text dump and the trace.dat of the
# SAME ring buffer (tests/fixtures/traces/6.19, recorded by
# tests/vm/record-fixtures-6.19.sh). Expected values come from the kernel's
# own text and from trace-cmd's event counts in fixtures.tsv, never from kmag.
. "$(dirname "$0")/lib.sh"
D="$TRACES/6.19"
H="$SRCDIR/tests/e2e/helpers/same-buffer.py"

events_of() { # kmag's event count of FILE
	"$KMAG" report --format json "$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])'
}
tsv_events() { # trace-cmd's (or the text's) event count in fixtures.tsv
	awk -F'\t' -v f="$1" '$1 == f { print $4 }' "$D/fixtures.tsv"
}

for txt in "$D"/*.txt; do
	n=$(basename "$txt" .txt)
	t_eq "$n.dat: every record counted, as trace-cmd counts them" \
		"$(tsv_events "$n.dat")" "$(events_of "$D/$n.dat")"
	t_eq "$n.txt: every line's events counted (a leaf line is an entry and an exit)" \
		"$(tsv_events "$n.txt")" "$(events_of "$txt")"
	# a text without the latency-format flags cannot show interrupts in a call's window
	ctx=--no-ctx
	grep -q '^#.*irqs-off' "$txt" && ctx=
	t_ok "$n: the text and the trace.dat of one buffer give the same calls${ctx:+ (no context flags)}" \
		python3 "$H" $ctx "$KMAG" "$txt" "$D/$n.dat"
	tail -n1 "$T/ok.out" | sed 's/^/# /'
done

# --- incomplete calls: only what the buffer explains ---
# Tracing stops inside the shell's `echo 0 > tracing_on`: its ksys_write and
# vfs_write never return in the buffer. And a timer interrupt's entry
# function (sysvec_apic_timer_interrupt) is noinstr: the kernel counts its
# level in the depth but writes no record of it, so it has neither entry nor
# exit; its children's call sites (funcgraph-retaddr) name it. Nothing else
# may be incomplete, and nothing may stay unnamed.
for f in fg619-retaddr.txt fg619-args.txt fg619-args.dat fg619-hex-tail.dat; do
	"$KMAG" replay --format json "$D/$f" >"$T/calls.json"
	t_eq "$f: the incomplete calls are the write that stopped tracing and untraced interrupt entries" \
		"ksys_write no_exit,vfs_write no_exit" \
		"$(python3 -c 'import json,sys
bad = set()
for c in map(json.loads, sys.stdin):
    fl = set(c["flags"]) & {"no_entry", "no_exit", "lost"}
    if not fl:
        continue
    if fl == {"no_entry", "no_exit"} and (c["function"] or "").startswith("sysvec_"):
        continue
    bad.add(str(c["function"]) + " " + "+".join(sorted(fl)))
print(",".join(sorted(bad)))' <"$T/calls.json")"
done

# --- return values: the workload's failing system calls (tests/vm/guest/wl.sh errors) ---
# The kernel's text says "} /* do_mkdirat ret=-17 */"; the trace.dat's records must say the same.
# (a leaf says "vfs_write(); /* ret=-9 */")
want=$(sed -nE -e 's/.*\} \/\* (do_mkdirat|do_sys_openat2|vfs_write|do_vfs_ioctl|__x64_sys_ioctl) ret=(-[0-9]+) \*\/.*/\1 \2/p' \
	-e 's/.* (do_mkdirat|do_sys_openat2|vfs_write|do_vfs_ioctl|__x64_sys_ioctl)\(\); \/\* ret=(-[0-9]+) \*\/.*/\1 \2/p' \
	"$D/fg619-retval.txt" | sort -u)
t_ok "replay --errors of the trace.dat" "$KMAG" replay --errors --format json "$D/fg619-retval.dat"
got=$(python3 -c 'import json,sys
for c in map(json.loads, sys.stdin):
    if c.get("function") in ("do_mkdirat", "do_sys_openat2", "vfs_write", "do_vfs_ioctl", "__x64_sys_ioctl") and c["retval"] is not None and c["retval"] < 0:
        print(c["function"], c["retval"])' <"$T/ok.out" | sort -u)
t_eq "errors: EEXIST, ENOENT, EBADF, ENOTTY where the kernel's text has them" "$want" "$got"
t_grep "the text has all four errors" '-17' <(echo "$want")
for e in -2 -9 -25; do t_grep "the kernel's text has error $e" " $e\$" <(echo "$want"); done
t_ok "retval-hex text: errors read from the register" "$KMAG" replay --errors "$D/fg619-hex-tail.txt"
t_grep "an error in hex text is still an error (do_mkdirat = -17 EEXIST)" 'do_mkdirat = -17 EEXIST' "$T/ok.out"

# --- call sites: as the kernel's text prints them ---
want=$(grep -oE ' vfs_write\(\) \{ /\* <-[a-z_]+\+0x[0-9a-f]+' "$D/fg619-retaddr.txt" | sed 's/.*<-//' | sort -u)
"$KMAG" replay --format json --function vfs_write "$D/fg619-retaddr.dat" >"$T/vw.json"
got=$(python3 -c 'import json,sys
print("\n".join(sorted({c["call_site"] for c in map(json.loads, sys.stdin) if c.get("function") == "vfs_write"})))' <"$T/vw.json")
t_eq "vfs_write's call sites from fgraph_retaddr_entry records" "$want" "$got"
t_ok "replay shows the call site" "$KMAG" replay --function vfs_write "$D/fg619-retaddr.dat"
t_grep "vfs_write() { /* <-ksys_write+0x.. */" 'vfs_write\(\) \{ /\* <-ksys_write\+0x[0-9a-f]+ \*/' "$T/ok.out"

# --- arguments: dd bs=4k writes 4096 bytes, so vfs_write's count is 0x1000 ---
t_grep "the kernel's text: vfs_write(..., count=0x1000, ...)" 'vfs_write\(file=0x[0-9a-f]+, buf=0x[0-9a-f]+, count=0x1000,' "$D/fg619-args.txt"
t_ok "replay of the text names the arguments" "$KMAG" replay --function vfs_write "$D/fg619-args.txt"
t_grep "vfs_write(file=..., buf=..., count=0x1000, pos=...)" 'vfs_write\(file=0x[0-9a-f]+, buf=0x[0-9a-f]+, count=0x1000, pos=0x[0-9a-f]+\) \{' "$T/ok.out"
t_ok "replay of the trace.dat" "$KMAG" replay --format json --function vfs_write "$D/fg619-args.dat"
t_grep "the trace.dat's third register of a vfs_write is 0x1000" '"function":"vfs_write".*"args":"0x[0-9a-f]+, 0x[0-9a-f]+, 0x1000,' "$T/ok.out"
# the function tracer's func-args, text and trace.dat
t_ok "function tracer with func-args (text)" "$KMAG" replay "$D/fn619-args.txt"
t_grep "ksys_read(fd=.., buf=.., count=..) <- do_syscall_64" 'ksys_read\(fd=0x[0-9a-f]+, buf=0x[0-9a-f]+, count=0x[0-9a-f]+\) <- do_syscall_64' "$T/ok.out"
t_ok "function tracer with func-args (trace.dat)" "$KMAG" replay "$D/fn619-args.dat"
t_grep "the same call from the trace.dat's registers" 'ksys_read\(0x[0-9a-f]+, 0x[0-9a-f]+, 0x[0-9a-f]+, 0x0, 0x0, 0x0\) <- do_syscall_64' "$T/ok.out"
t_done
