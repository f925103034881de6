#!/bin/bash
# SPDX-License-Identifier: MIT
# t0840-replay: `kmag replay`, the calls in time order. The expected call
# lines come from other writers of the same traces: `trace-cmd report` of
# fg-filtered.dat (fg-report.txt) and the kernel's own text (fg-text.txt),
# compared per task/CPU by helpers/replay-tokens.py; the --errors answers
# from the return values written in data/fg-retval.txt.
. "$(dirname "$0")/lib.sh"
H="$SRCDIR/tests/e2e/helpers/replay-tokens.py"
RETVAL="$SRCDIR/tests/e2e/data/fg-retval.txt"
FG=$TRACES/fg-filtered.dat

# --- the call tree, line for line as trace-cmd and the kernel print it ---
t_ok "replay fg-filtered.dat" "$KMAG" replay "$FG"
cp "$T/ok.out" "$T/fg.txt"
# per task (by pid: report -l shortens the names), in the order of each task
by_pid() { sed 's/^[^ ]*-\([0-9]*\) /\1 /' | sort -s -k1,1; }
if command -v trace-cmd >/dev/null; then
	# with the context flags, an interrupt in a call's entry window goes inside the call
	trace-cmd report -l "$FG" 2>/dev/null | python3 "$H" tracecmd /dev/stdin | by_pid >"$T/want"
	# kmag's one addition: the caller of an interrupt's entry, which no trace names
	python3 "$H" kmag "$T/fg.txt" | grep -v '\[unknown\]() {' | by_pid >"$T/got"
	t_eq "every call line (name, leaf or not, duration) as trace-cmd report -l prints it, per task" \
		"$(wc -l <"$T/want") lines, same" \
		"$(wc -l <"$T/got") lines, $(cmp -s "$T/want" "$T/got" && echo same || echo differ)"
else
	t_skip "every call line as trace-cmd report -l prints it, per task" "no trace-cmd"
fi
t_ok "replay of the kernel's text" "$KMAG" replay "$TRACES/fg-text.txt"
cp "$T/ok.out" "$T/text.txt"
python3 "$H" kernel "$TRACES/fg-text.txt" >"$T/want"
python3 "$H" kmag "$T/text.txt" --by-cpu | grep -v '\[unknown\]() {' >"$T/got"
t_eq "every call line as the kernel printed it, per CPU" \
	"$(wc -l <"$T/want") lines, same" "$(wc -l <"$T/got") lines, $(cmp -s "$T/want" "$T/got" && echo same || echo differ)"
t_grep "closing lines name their function" '\| +\+ +13\.927 us \|    \} /\* __fdget_pos \*/$' "$T/fg.txt"
# a leaf's time is its entry's, as trace-cmd report prints it (fg-report.txt line 8)
t_grep "time, task and CPU columns" '^ +29\.572807 \|   0\)  wl\.sh-198 +\| +2\.625 us \|      __fget_light\(\);$' "$T/fg.txt"
t_grep "a call whose exit the trace lacks is marked, not closed" '/\* \} ksys_write: exit not in the trace \*/' "$T/fg.txt"
t_grep "interrupt entries are marked" '__sysvec_apic_timer_interrupt\(\) \{ /\* hardirq \*/' "$T/fg.txt"
t_nogrep "no colour into a file" $'\033' "$T/fg.txt"

# --- filters ---
want=$(grep -cE 'funcgraph_entry: .*\|  +vfs_read\(\)' "$TRACES/fg-report.txt")
t_ok "--function vfs_read" "$KMAG" replay --function vfs_read "$FG"
t_eq "--function: as many vfs_read calls as trace-cmd shows" "$want" \
	"$(grep -cE '\|  vfs_read\(\)' "$T/ok.out")"
t_nogrep "--function: nothing outside vfs_read" 'ksys_read|ksys_write|mutex_unlock' "$T/ok.out"
t_ok "--function vfs_read --depth 2" "$KMAG" replay --function vfs_read --depth 2 "$FG"
sed 's/.* | //' "$T/ok.out" >"$T/calls"
t_nogrep "--depth 2: no line deeper than vfs_read's callees" '^     ' "$T/calls"
t_grep "--depth 2: a callee whose calls are hidden is a leaf with its duration" \
	'\| \+ +22\.232 us \|    rw_verify_area\(\);$' "$T/ok.out"
# trace-cmd's lines of calls of 1 ms or more (leaves and closing lines)
want=$(grep -cE 'funcgraph_(entry|exit): +[#*@$] ' "$TRACES/fg-report.txt")
t_ok "--min-duration 1ms" "$KMAG" replay --min-duration 1ms "$FG"
t_eq "--min-duration 1ms: the calls of at least 1 ms that trace-cmd shows" "$want" \
	"$(grep -cE '\| [#*@$] +[0-9.]+ us \|' "$T/ok.out")"
t_nogrep "--min-duration 1ms: no shorter call" '\| [ +!] +[0-9.]+ us \|' "$T/ok.out"
t_grep "--min-duration keeps the callers' lines" '\|  ksys_read\(\) \{$' "$T/ok.out"
t_ok "--limit 5" "$KMAG" replay --limit 5 "$FG"
t_eq "--limit 5: five calls" 5 "$(grep -cE '\(\)( \{|;)' "$T/ok.out")"
t_ok "--pid 203" "$KMAG" replay --pid 203 "$FG"
t_eq "--pid: only that task's lines" "$(python3 "$H" tracecmd "$TRACES/fg-report.txt" | grep -c '^dd-203 ')" \
	"$(python3 "$H" kmag "$T/ok.out" | grep -v '\[unknown\]() {' | grep -c '^dd-203 ')"

# --- return values: only where recorded ---
t_ok "--errors on funcgraph-retval text" "$KMAG" replay --errors "$RETVAL"
t_eq "--errors: the failing calls and their callers, nothing else" \
	"do_sys_openat2 do_filp_open path_openat link_path_walk path_openat do_filp_open do_sys_openat2 ksys_read rw_verify_area ksys_read" \
	"$(sed -E 's/.*\|  +(\} \/\* )?([a-z_0-9]+).*/\2/' "$T/ok.out" | tr '\n' ' ' | sed 's/ $//')"
t_grep "--errors: errno values by number and name" 'link_path_walk\(\); /\* = -2 ENOENT \*/' "$T/ok.out"
t_ok "return values on every line" "$KMAG" replay "$RETVAL"
t_grep "a pointer-like value in hex" 'kmem_cache_alloc\(\); /\* = 0x1000 \*/' "$T/ok.out"
t_grep "a closing line carries its return value" '\} /\* getname = 0x1000 \*/' "$T/ok.out"
t_ok "--errors --format json" "$KMAG" replay --errors --format json "$RETVAL"
t_eq "--errors json: the failing calls' retvals" "-2 -2 -2 -2 -13 -13" \
	"$(python3 -c 'import json,sys; print(" ".join(str(json.loads(l)["retval"]) for l in open(sys.argv[1])))' "$T/ok.out")"
t_exit "--errors on a trace without return values" 1 "$KMAG" replay --errors "$FG"
t_grep "... says what it needs" 'funcgraph-retval.*6\.5' "$T/err"

# --- JSON Lines: every call, durations adding up to report's totals ---
for fx in fg-filtered.dat fg-all-cpu0-v6.dat fg-lost-v6.dat; do
	f=$(fixture_trace "$fx")
	"$KMAG" replay --format json "$f" >"$T/calls.jsonl" 2>/dev/null
	"$KMAG" report --format json --limit 0 "$f" >"$T/report.json" 2>/dev/null
	t_eq "$fx: json durations summed per function = report's totals and calls" "same" "$(python3 - "$T/calls.jsonl" "$T/report.json" <<'PY'
import json, sys
tot, calls = {}, {}   # report's total is null for a function without a timed call
for line in open(sys.argv[1]):
    c = json.loads(line)
    for k in ("id", "parent", "function", "task", "pid", "cpu", "depth", "start_ns",
              "duration_ns", "self_ns", "flags", "retval"):
        assert k in c, k
    if c["function"] is None:
        continue
    calls[c["function"]] = calls.get(c["function"], 0) + 1
    # an inner call of a recursion is inside the outer one's time
    if c["duration_ns"] is not None and "recursive" not in c["flags"]:
        tot[c["function"]] = (tot.get(c["function"]) or 0) + c["duration_ns"]
bad = [f["name"] for f in json.load(open(sys.argv[2]))["functions"]
       if f["total_ns"] != tot.get(f["name"]) or f["calls"] != calls.get(f["name"], 0)]
print("same" if not bad else "differ: " + " ".join(bad[:5]))
PY
)"
done

# --- function tracer: the calls with their callers ---
t_ok "replay of a function-tracer trace" "$KMAG" replay "$TRACES/fn-filtered.dat"
t_eq "one line per function record (trace-cmd report's count)" \
	"$(grep -c ' function: ' "$TRACES/fn-report.txt")" "$(wc -l <"$T/ok.out")"
t_grep "func <- caller" '\| vfs_read <- ksys_read$' "$T/ok.out"
t_exit "--errors on a function-tracer trace" 1 "$KMAG" replay --errors "$TRACES/fn-filtered.dat"
t_grep "... says why" 'function tracer.*return values' "$T/err"
t_exit "--min-duration on a function-tracer trace" 1 "$KMAG" replay --min-duration 1ms "$TRACES/fn-text.txt"

# --- colour ---
t_ok "--color always" "$KMAG" replay --color always --min-duration 1ms "$FG"
t_grep "--color always: long calls in red" $'\033\\[1;31m#' "$T/ok.out"
NO_COLOR=1 t_ok "NO_COLOR with --color always still colours" "$KMAG" replay --color always --limit 3 "$FG"
t_grep "... (the option wins over the environment)" $'\033' "$T/ok.out"

# --- bad input ---
t_exit "missing file" 1 "$KMAG" replay "$T/nope.dat"
t_exit "--depth 0" 2 "$KMAG" replay --depth 0 "$FG"
t_exit "--depth junk" 2 "$KMAG" replay --depth x "$FG"
t_exit "--format csv" 2 "$KMAG" replay --format csv "$FG"
t_exit "--color sometimes" 2 "$KMAG" replay --color sometimes "$FG"
t_exit "--function of no call" 1 "$KMAG" replay --function no_such_function "$FG"
t_exit "filters matching nothing" 1 "$KMAG" replay --pid 99999 "$FG"
t_done
