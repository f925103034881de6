#!/bin/bash
# kmag report with a symbol map: file:line column, --filter-filepath, default map lookup.
. "$(dirname "$0")/lib.sh"
t_need_feature libdw
export HOME="$T/home"
unset KMAG_SYMBOL_MAP
mkdir -p "$HOME"
bash "$SRCDIR/tests/e2e/data/mini-kernel.sh" "$T" || { t_fail "building the mini kernel"; t_done; exit 1; }
"$KMAG" generate-symbol-map -q -k "$T/src/vmlinux" -m "$T/src/mods" -o "$T/k.map" ||
	t_fail "generating the map"
# function tracer text (no addresses: same-named statics cannot be told apart)
cat >"$T/fn.txt" <<'TXT'
# tracer: function
#
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
              sh-103     [000] .....     1.000001: pick_next <-do_work
              sh-103     [000] .....     1.000002: helper <-pick_next
              sh-103     [000] .....     1.000003: tcp_like_send <-pick_next
              sh-103     [000] .....     1.000004: helper <-tcp_like_send
              sh-103     [000] .....     1.000005: minimod_work <-pick_next
              sh-103     [000] .....     1.000006: tcp_like_send <-pick_next
TXT
R="$KMAG report --limit 0 --symbol-file-path $T/k.map"

t_exit "report with a map" 0 $R "$T/fn.txt"
t_grep "rows show file:line" 'tcp_like_send  \[net/ipv4/tcpish\.c:7\]$' "$T/out"
t_grep "module functions too" 'minimod_work  \[kernel/minimod\.c:4\]$' "$T/out"
t_grep "an ambiguous static says so" 'helper  \[[a-z0-9/]+ish\.c:3 \(\+1 more\)\]$' "$T/out"
t_grep "and warns once" 'warning: 1 function name is in several source files' "$T/err"
t_grep "unknown functions have no location" '  do_work$' "$T/out"

t_exit "--filter-filepath net" 0 $R --filter-filepath net "$T/fn.txt"
t_grep "keeps net functions" ' tcp_like_send  ' "$T/out"
t_grep "keeps an ambiguous name with a matching file" ' helper  ' "$T/out"
t_nogrep "drops the others" ' (pick_next|do_work|minimod_work)( |$)' "$T/out"
t_grep "the header tells the filter and its count" '^# filters: path net \(2 of 5 functions\)$' "$T/out"

t_exit "anchored and several patterns" 0 $R --filter-filepath /kernel/sched,kernel/minimod.c "$T/fn.txt"
t_grep "keeps kernel/sched" ' pick_next  ' "$T/out"
t_grep "keeps the module file" ' minimod_work  ' "$T/out"
t_nogrep "drops net" ' tcp_like_send ' "$T/out"

t_exit "a glob" 0 $R --filter-filepath 'net/*/tcpish.c' "$T/fn.txt"
t_grep "matches by glob" ' tcp_like_send  ' "$T/out"
t_nogrep "and nothing else unambiguous" ' (pick_next|minimod_work) ' "$T/out"

# issue 23: it printed an empty table and exited 0; now it says so, as visualize does
t_exit "a filter matching nothing: exit 1" 1 $R --filter-filepath sound/ "$T/fn.txt"
t_grep "... says it matches none of the 5 functions" \
	'^kmag: --filter-filepath "sound/" matches none of the 5 functions \(4 of them have a source file in .*k\.map\)' "$T/err"
t_eq "... and prints no table" "" "$(cat "$T/out")"

t_exit "callers with a filter" 0 $R --filter-filepath net --callers helper "$T/fn.txt"
t_grep "lists the matching caller" ' tcp_like_send  ' "$T/out"
t_nogrep "not the others" ' pick_next ' "$T/out"

t_exit "json has the source" 0 $R -F json --filter-filepath net "$T/fn.txt"
t_grep "source field" '"name": "tcp_like_send".*"source": "net/ipv4/tcpish\.c:7"' "$T/out"
t_nogrep "filtered rows are not in json" '"name": "pick_next"' "$T/out"
t_exit "csv has the source" 0 $R -F csv "$T/fn.txt"
t_grep "source column" '^function,calls,.*,module,source$' "$T/out"
t_grep "source cell" '^tcp_like_send,2,.*,net/ipv4/tcpish\.c:7$' "$T/out"

"$KMAG" generate-symbol-map -q --format km -k "$T/src/vmlinux" -o "$T/seed.map"
t_exit "the seed's name|path map works" 0 "$KMAG" report --symbol-file-path "$T/seed.map" --filter-filepath net "$T/fn.txt"
t_grep "seed maps give the file" 'tcp_like_send  \[net/ipv4/tcpish\.c\]$' "$T/out"

mkdir -p "$HOME/.cache/kmag"
cp "$T/k.map" "$HOME/.cache/kmag/symbols-$(uname -r).map"
t_exit "the default map of the kernel is found" 0 "$KMAG" report "$T/fn.txt"
t_grep "without options" 'tcp_like_send  \[net/ipv4/tcpish\.c:7\]$' "$T/out"
rm "$HOME/.cache/kmag/symbols-$(uname -r).map"
t_exit "KMAG_SYMBOL_MAP names a map" 0 env KMAG_SYMBOL_MAP="$T/k.map" "$KMAG" report --filter-filepath net "$T/fn.txt"
t_grep "it is used" 'tcp_like_send  \[net/ipv4/tcpish\.c:7\]$' "$T/out"
t_exit "no map, no filter: plain report" 0 "$KMAG" report "$T/fn.txt"
t_nogrep "no locations" '\[' "$T/out"

t_exit "--filter-filepath without a map: one error line" 1 "$KMAG" report --filter-filepath net "$T/fn.txt"
t_grep "it says how to make one" 'generate-symbol-map.*--symbol-file-path' "$T/err"
t_exit "a missing map file" 1 "$KMAG" report --symbol-file-path "$T/nope.map" "$T/fn.txt"
t_grep "names the file" 'nope\.map' "$T/err"
printf 'a|b|c\n' >"$T/bad.map"
t_exit "a malformed map" 1 "$KMAG" report --symbol-file-path "$T/bad.map" "$T/fn.txt"
t_grep "names the line" 'bad\.map:1:' "$T/err"
t_exit "an empty filter is a usage error" 2 "$KMAG" report --filter-filepath ',,' "$T/fn.txt"
t_exit "--filter-filepath needs a value" 2 "$KMAG" report --filter-filepath
t_done
