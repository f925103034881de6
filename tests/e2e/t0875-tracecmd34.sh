#!/bin/bash
# SPDX-License-Identifier: MIT
# t0875-tracecmd34: trace.dat files written by trace-cmd 3.4 on Linux 6.19
# (tests/fixtures/traces/6.19-tc34, see its README): a BTF_FILE section
# (option 23, written when funcgraph-args/func-args is on) and an unknown-to-
# trace-cmd-3.1 option are read without error by both of kmag's readers,
# every record is counted as trace-cmd counts it, and return values, call
# sites and argument registers come through. Expected values come from
# fixtures.tsv (trace-cmd 3.4's counts), from trace-cmd 3.4's raw report
# saved at recording time and from Debian's trace-cmd 3.1.6 on this host,
# never from kmag.
. "$(dirname "$0")/lib.sh"
D="$TRACES/6.19-tc34"

tsv() { # COLUMN of FILE in fixtures.tsv (4 = events, 5 = top instance's, 6 = BTF bytes)
	awk -F'\t' -v f="$1" -v c="$2" '$1 == f { print $c }' "$D/fixtures.tsv"
}
events_of() { # kmag's event count of FILE [READER]
	"$KMAG" report --format json ${2:+--reader "$2"} "$1" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])'
}

for n in tc34-retaddr tc34-args; do
	f="$D/$n.dat"
	t_eq "$n.dat: every record counted, as trace-cmd 3.4 counts them" \
		"$(tsv "$n.dat" 4)" "$(events_of "$f")"
	if t_has_feature libtracecmd; then
		t_eq "$n.dat: the libtracecmd reader (Debian's libtracecmd) counts the same" \
			"$(tsv "$n.dat" 4)" "$(events_of "$f" libtracecmd)"
	else
		t_skip "$n.dat: the libtracecmd reader" "this kmag was built without libtracecmd"
	fi
done

# --- the BTF section is what trace-cmd 3.4 wrote: ---
# `trace-cmd dump --sections` (3.4, saved at recording time) lists it, and its
# size is the guest's /sys/kernel/btf/vmlinux (btf-sysfs.txt, ls -l there).
# (3.4's `dump --options` itself prints option 23 as "Unknown option".)
t_grep "trace-cmd 3.4 wrote a BTF section of the kernel's BTF size" \
	"\"BTF\", flags 0x1, [0-9]+ compressed, $(awk '{ print $5; exit }' "$D/btf-sysfs.txt") uncompressed" \
	"$D/tc34-args.dump-sections.txt"
t_eq "fixtures.tsv's BTF size is that section's" \
	"$(awk '{ print $5; exit }' "$D/btf-sysfs.txt")" "$(tsv tc34-args.dat 6)"
t_nogrep "no BTF without funcgraph-args (trace-cmd 3.4's check_need_btf)" '"BTF"' \
	"$D/tc34-retaddr.dump-sections.txt"

# --- Debian's trace-cmd 3.1.6 reads them too (it skips option 23) ---
if command -v trace-cmd >/dev/null; then
	for n in tc34-retaddr tc34-args; do
		t_ok "trace-cmd $(trace-cmd --version 2>/dev/null | sed -n 's/.*version \([0-9.]*\).*/\1/p') report reads $n.dat" \
			trace-cmd report -R "$D/$n.dat"
		t_eq "$n.dat: trace-cmd on this host counts what 3.4 counted" "$(tsv "$n.dat" 4)" \
			"$(grep -cE '\[[0-9]{3}\][^ ]* +[0-9]+\.[0-9]+: ' "$T/ok.out")"
	done
else
	t_skip "trace-cmd report reads the 3.4 files" "trace-cmd is not installed (scripts/deps.sh --test)"
fi

# --- return values: the workload's failing system calls (wl.sh errors) ---
# trace-cmd's raw funcgraph_exit records print the register in hex ("func=do_mkdirat
# retval=ffffffef" from 3.1.6, 64 bits from 3.4): an error is -4095..-1 in 32 or 64 bits
for n in tc34-retaddr tc34-args; do
	if ! command -v trace-cmd >/dev/null; then
		t_skip "$n.dat: return values" "trace-cmd is not installed"
		continue
	fi
	want=$(trace-cmd report -R "$D/$n.dat" 2>/dev/null | python3 -c 'import re,sys
for line in sys.stdin:
    m = re.search(r"funcgraph_exit: +func=(do_mkdirat|do_sys_openat2|vfs_write|do_vfs_ioctl|__x64_sys_ioctl)( \(0x[0-9a-f]+\))? retval=([0-9a-f]+) ", line)
    if not m:
        continue
    v = int(m.group(3), 16)
    for bits in (32, 64):
        if (1 << bits) - 4095 <= v < (1 << bits):
            print(m.group(1), v - (1 << bits))' | sort -u)
	t_ok "$n.dat: replay --errors" "$KMAG" replay --errors --format json "$D/$n.dat"
	got=$(python3 -c 'import json,sys
for c in map(json.loads, sys.stdin):
    if c.get("function") in ("do_mkdirat", "do_sys_openat2", "vfs_write", "do_vfs_ioctl", "__x64_sys_ioctl") and c["retval"] is not None and c["retval"] < 0:
        print(c["function"], c["retval"])' <"$T/ok.out" | sort -u)
	t_eq "$n.dat: the failing calls' return values are trace-cmd's" "$want" "$got"
	for e in -2 -9 -17 -25; do
		t_grep "$n.dat: trace-cmd has error $e (ENOENT, EBADF, EEXIST, ENOTTY)" " $e\$" <(echo "$want")
	done
done

# --- call sites: trace-cmd 3.4's raw fgraph_retaddr_entry (saved at recording
# time) gives each vfs_write's return address and its symbol; the offset is
# that address minus the symbol's, from the file's kallsyms (trace-cmd dump) ---
for n in tc34-retaddr tc34-args; do
	if ! command -v trace-cmd >/dev/null; then
		t_skip "$n.dat: call sites" "trace-cmd is not installed"
		continue
	fi
	trace-cmd dump --kallsyms "$D/$n.dat" >"$T/kallsyms" 2>/dev/null
	want=$(python3 -c 'import re,sys
syms = {}
for line in open(sys.argv[2]):
    p = line.split()
    if len(p) >= 3 and re.fullmatch(r"[0-9a-f]+", p[0]):
        syms.setdefault(p[2], int(p[0], 16))
out = set()
for line in open(sys.argv[1]):
    m = re.search(r"retaddr=(\S+) \((0x[0-9a-f]+)\)", line)
    out.add("%s+0x%x" % (m.group(1), int(m.group(2), 16) - syms[m.group(1)]))
print("\n".join(sorted(out)))' "$D/$n.vfs_write-raw.txt" "$T/kallsyms")
	"$KMAG" replay --format json --function vfs_write "$D/$n.dat" >"$T/vw.json"
	got=$(python3 -c 'import json,sys
print("\n".join(sorted({c["call_site"] for c in map(json.loads, sys.stdin) if c.get("function") == "vfs_write"})))' <"$T/vw.json")
	t_eq "$n.dat: vfs_write's call sites are trace-cmd 3.4's" "$want" "$got"
	t_eq "$n.dat: as many vfs_write calls as trace-cmd 3.4 has entries" \
		"$(grep -c . "$D/$n.vfs_write-raw.txt")" \
		"$(python3 -c 'import json,sys
print(sum(1 for c in map(json.loads, sys.stdin) if c.get("function") == "vfs_write"))' <"$T/vw.json")"
done

# --- arguments (funcgraph-args): dd bs=4k writes 4096 bytes, so one of the
# workload's vfs_write calls has 0x1000 in its third register, named count
# from the BTF the file stores ---
t_ok "replay of tc34-args.dat" "$KMAG" replay --format json --function vfs_write "$D/tc34-args.dat"
if t_has_feature btf; then
	t_grep "tc34-args.dat: a vfs_write's count is 0x1000 (named from the file's BTF)" \
		'"function":"vfs_write".*"args":"file=0x[0-9a-f]+, buf=0x[0-9a-f]+, count=0x1000,' "$T/ok.out"
else
	t_grep "tc34-args.dat: a vfs_write's third register is 0x1000" \
		'"function":"vfs_write".*"args":"0x[0-9a-f]+, 0x[0-9a-f]+, 0x1000,' "$T/ok.out"
fi
t_ok "replay of tc34-retaddr.dat" "$KMAG" replay --format json --function vfs_write "$D/tc34-retaddr.dat"
t_nogrep "tc34-retaddr.dat (no funcgraph-args): no argument registers" '"args":"0x' "$T/ok.out"
# --- LAST_BOOT_INFO (trace-cmd 3.4 extract of a persistent ring buffer from
# the previous boot, see the README): the option and the BTF section are
# skipped or read, the options after them still apply. kmag reads the top
# instance's buffer only and says so (the boot_mapped instance's 45 events
# are not read: top_events in fixtures.tsv is trace-cmd's count of the top
# instance's). ---
f="$D/tc34-lastboot.dat"
t_eq "trace-cmd 3.4 wrote LAST_BOOT_INFO: the instance and the guest's last_boot_info" \
	"boot_mapped:$(head -n1 "$D/tc34-lastboot.last_boot_info.txt")" \
	"$(sed -n '/Option LAST_BOOT_INFO/{n;p;q}' "$D/tc34-lastboot.dump-options.txt")"
for r in builtin libtracecmd; do
	if [ $r = libtracecmd ] && ! t_has_feature libtracecmd; then
		t_skip "tc34-lastboot.dat: the libtracecmd reader" "this kmag was built without libtracecmd"
		continue
	fi
	t_ok "tc34-lastboot.dat: the $r reader opens it" "$KMAG" report --reader $r "$f"
	t_grep "tc34-lastboot.dat ($r): the top instance's events, on the CPUCOUNT option's 2 CPUs" \
		"^# events: +$(tsv tc34-lastboot.dat 5) on $(sed -n '/Option CPUCOUNT/{n;p;q}' "$D/tc34-lastboot.dump-options.txt") CPUs" "$T/ok.out"
	[ $r = builtin ] && t_grep "tc34-lastboot.dat: kmag says it does not read the instance's buffer" \
		"$(grep -c '^"[^"]\+" \[name\]' "$D/tc34-lastboot.dump-options.txt") tracefs instance buffer\(s\) besides the top one are not read" \
		"$T/ok.err"
	[ $r = builtin ] && t_grep "tc34-lastboot.dat: the UNAME option is read" \
		"^# kernel: +$(sed -n '/Option UNAME/{n;p;q}' "$D/tc34-lastboot.dump-options.txt")\$" "$T/ok.out"
done
if command -v trace-cmd >/dev/null; then
	t_ok "trace-cmd on this host reads tc34-lastboot.dat" trace-cmd report -R "$f"
	t_eq "tc34-lastboot.dat: trace-cmd on this host counts what 3.4 counted" "$(tsv tc34-lastboot.dat 4)" \
		"$(grep -cE '^boot_mapped: .*\[[0-9]{3}\][^ ]* +[0-9]+\.[0-9]+: ' "$T/ok.out")"
else
	t_skip "trace-cmd reads tc34-lastboot.dat" "trace-cmd is not installed (scripts/deps.sh --test)"
fi
t_done
