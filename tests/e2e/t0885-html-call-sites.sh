#!/bin/bash
# html: the functions' "Called from" lists (the page's "sites" data) are the
# kernel's own text of the same ring buffer (fg619-args.txt): per function,
# each "<-caller+off" it was called from with its number of entries. With the
# Linux 6.19 vmlinux (not in the repository; skipped without it) their source
# lines, and those of the Calls view's call sites, are binutils' addr2line's.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/site-lines-lib.sh"

F=$TRACES/6.19
# the page's JSON document, or one member of it
page_data() {
	python3 - "$@" <<'EOF'
import json, re, sys
t = open(sys.argv[1]).read()
m = re.search(r'<script type="application/json" id="kmag-data">(.*?)</script>', t, re.S)
D = json.loads(m.group(1))
what = sys.argv[2]
if what == "has-sites":
    print("yes" if "sites" in D else "no")
elif what == "sites":	# "function site count" per row
    S = D["sites"]
    for k in range(len(S["f"])):
        print(D["fn"]["name"][S["f"][k]], S["s"][k], S["n"][k])
elif what == "callers":	# a caller the page lists is the site's function
    S, bad = D["sites"], 0
    for k in range(len(S["f"])):
        c = S["c"][k]
        if c >= 0 and not S["s"][k].startswith(D["fn"]["name"][c] + "+"):
            bad += 1
    print(bad)
elif what == "lines":	# "caller off line" per distinct site, sites then the Calls view's
    seen = set()
    S = D["sites"]
    for k in range(len(S["f"])):
        seen.add((S["s"][k], S["l"][k] or "-"))
    site = D["calls"]["node"]["site"]
    for k in range(1, len(site), 2):
        m = re.match(r"(\S+) \((\S+)\)$", site[k])
        seen.add((m.group(1), m.group(2)) if m else (site[k], "-"))
    for s, l in sorted(seen):
        caller, off = s.split("+")
        print(caller, off, l)
EOF
}

# the kernel's text: "function site count", one row per function and site
sed -nE 's/^ *[0-9]+\) .*\| +([A-Za-z0-9_.]+)\(.*\)( \{|;) \/\* <-([^/ ]+)\/0x[0-9a-f]+.*/\1 \3/p' \
	"$F/fg619-args.txt" | sort | uniq -c | awk '{print $2, $3, $1}' | sort >"$T/kernel.sites"
t_ok "the kernel's text has call sites" test "$(wc -l <"$T/kernel.sites")" -gt 400
for input in dat txt; do
	t_ok "$input: html" "$KMAG" html -o "$T/$input.html" "$F/fg619-args.$input"
	page_data "$T/$input.html" sites | sort >"$T/$input.sites"
	t_ok "$input: the Called from lists are the kernel's sites with its counts" \
		diff "$T/kernel.sites" "$T/$input.sites"
	t_eq "$input: each listed caller is the site's function" 0 "$(page_data "$T/$input.html" callers)"
done
# most calls first within a function (dput: 7 sites in the kernel's text)
page_data "$T/dat.html" sites >"$T/order"
t_eq "most calls first" "$(grep '^dput ' "$T/kernel.sites" | sort -k3,3nr -k2,2 | head -2)" \
	"$(grep "^dput " "$T/order" | head -2)"
t_eq "... in every function" 0 "$(awk '$1 == f && $3 > n {bad++} {f = $1; n = $3} END {print bad + 0}' "$T/order")"

# no call sites recorded: no lists, no member
t_ok "html of a trace without call sites" "$KMAG" html -o "$T/retval.html" "$F/fg619-retval.dat"
t_eq "... has no sites" no "$(page_data "$T/retval.html" has-sites)"
t_ok "html of a 6.1 trace" "$KMAG" html -o "$T/old.html" "$(fixture_trace fg-filtered.dat)"
t_eq "... has no sites" no "$(page_data "$T/old.html" has-sites)"

t_has_feature libdw || { t_skip "--vmlinux" "no libdw"; t_done; exit; }
t_exit "html --vmlinux of a file that is no ELF: one line" 1 "$KMAG" html -o "$T/x.html" \
	--vmlinux "$F/fg619-args.txt" "$F/fg619-args.dat"
xzv=""
for d in "${KMAG_SHARED_KERNELS:-}" "$SRCDIR/../shared/kernels" "$SRCDIR/../../shared/kernels"; do
	[ -n "$d" ] && [ -f "$d/vmlinux-6.19.0.xz" ] && { xzv=$d/vmlinux-6.19.0.xz; break; }
done
if [ -z "$xzv" ] || ! command -v addr2line >/dev/null; then
	t_skip "--vmlinux source lines" "no vmlinux-6.19.0.xz in \$KMAG_SHARED_KERNELS or ../shared/kernels, or no addr2line"
	t_done
	exit
fi
xz -dc "$xzv" >"$T/vmlinux"
t_ok "html --vmlinux" "$KMAG" html --vmlinux "$T/vmlinux" -o "$T/lines.html" "$F/fg619-args.dat"
page_data "$T/lines.html" sites | sort >"$T/lines.sites"
t_ok "the same sites with a vmlinux" diff "$T/kernel.sites" "$T/lines.sites"
page_data "$T/lines.html" lines >"$T/sites"
t_ok "call sites with lines" test "$(wc -l <"$T/sites")" -gt 400
check_site_lines "$T/vmlinux" "$T/sites" 400
t_done
