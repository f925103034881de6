#!/bin/bash
# flame --filter-filepath, as in report/visualize/html/export: only functions
# defined in matching files are drawn; a hidden function's callees sit on its
# nearest shown caller and its time counts there. (issue 18, defect 8)
. "$(dirname "$0")/lib.sh"
FG=$(fixture_trace fg-filtered.dat)
# a map in the seed's name|path format
printf '%s\n' 'vfs_read|fs/read_write.c' 'rw_verify_area|fs/read_write.c' 'vfs_write|fs/read_write.c' \
	'security_file_permission|security/security.c' 'read_zero|drivers/char/mem.c' >"$T/m.map"
M="--symbol-file-path $T/m.map"

# shellcheck disable=SC2086
t_ok "flame --filter-filepath fs/read_write.c" sh -c "'$KMAG' flame --folded '$T/f.folded' $M --filter-filepath fs/read_write.c '$FG'"
t_eq "every frame is a function of fs/read_write.c" "" \
	"$(tr ';' '\n' <"$T/f.folded" | sed 's/ [0-9]*$//' | grep -Ev '^(vfs_read|vfs_write|rw_verify_area)$' | sort -u)"
t_grep "vfs_read calls rw_verify_area directly" '^vfs_read;rw_verify_area [0-9]+$' "$T/f.folded"
total=$("$KMAG" report -F csv "$FG" | awk -F, '$1 == "vfs_read" { print $3 }')
t_eq "vfs_read's frames keep all of its time ($total ns, as report says)" "$total" \
	"$(awk '/^vfs_read[; ]/ { s += $NF } END { print s }' "$T/f.folded")"
edge=$("$KMAG" export -F csv --table edges "$FG" | awk -F, '$1 == "vfs_read" && $2 == "rw_verify_area" { print $4 }')
t_eq "vfs_read;rw_verify_area weighs its edge's time ($edge ns)" "$edge" \
	"$(awk '$1 == "vfs_read;rw_verify_area" { print $2 }' "$T/f.folded")"
# shellcheck disable=SC2086
t_ok "two paths, weighted by calls" sh -c "'$KMAG' flame -w calls --folded '$T/c.folded' $M --filter-filepath fs/read_write.c,drivers/char '$FG'"
t_grep "read_zero (drivers/char) hangs on vfs_read" '^vfs_read;read_zero 6$' "$T/c.folded"
# shellcheck disable=SC2086
t_ok "the SVG too, per task" sh -c "'$KMAG' flame --per comm -o '$T/f.svg' $M --filter-filepath fs/ '$FG'"
t_grep "its subtitle names the path filter" 'path fs/' "$T/f.svg"
t_exit "--filter-filepath without a map" 1 "$KMAG" flame -o "$T/x.svg" --filter-filepath fs/ "$FG"
t_grep "... says a map is needed" 'needs a symbol map' "$T/err"
t_done
