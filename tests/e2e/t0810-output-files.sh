#!/bin/bash
# Output files, the same rules in every command (include/kmag/outfile.h):
# a failure leaves the path as it was; a regular file is replaced through a
# temporary file and a rename (keeping its mode); a symlink is replaced by a
# regular file, its target never written; a device node or FIFO is written in
# place and never removed. Write errors (also on standard output) are one
# line with the real cause, exit 1. (issue 18, defects 1 and 9)
. "$(dirname "$0")/lib.sh"
FG=$(fixture_trace fg-filtered.dat)
FN=$(fixture_trace fn-filtered.dat)
D="$T/files"
mkdir -p "$D"

# no temporary file or anything else left next to the outputs
only() {
	local want=$1 got
	got=$(cd "$D" && ls -A | sort | tr '\n' ' ')
	t_eq "$2: the directory holds only: $want" "$want" "$got"
}

# -- a failing export (chrome of a function-tracer trace) -------------------
echo precious >"$D/target"
ln -s target "$D/link.json"
t_exit "chrome export of a function-tracer trace into a symlink fails" 1 \
	"$KMAG" export -F chrome -o "$D/link.json" "$FN"
t_grep "... saying why" 'function tracer' "$T/err"
t_eq "... the symlink's target is untouched" precious "$(cat "$D/target")"
t_ok "... the symlink is still there" test -L "$D/link.json"
only "link.json target " "failed export into a symlink"

echo precious >"$D/plain.json"
t_exit "the same into a plain file" 1 "$KMAG" export -F chrome -o "$D/plain.json" "$FN"
t_eq "... the file keeps its contents" precious "$(cat "$D/plain.json")"

# a device node of our own (the rules say: never unlink it)
if mknod "$D/null" c 1 3 2>/dev/null; then
	t_exit "the same into a device node" 1 "$KMAG" export -F chrome -o "$D/null" "$FN"
	t_ok "... the device node is still there" test -c "$D/null"
	t_ok "a successful export into the device node" "$KMAG" export -F chrome -o "$D/null" "$FG"
	t_ok "... writes through it and leaves it a device" test -c "$D/null"
	rm -f "$D/null"
else
	t_pass "# SKIP mknod not permitted"
fi

# -- successful outputs ----------------------------------------------------
t_ok "export into the symlink" "$KMAG" export -F chrome -o "$D/link.json" "$FG"
t_ok "... replaces the symlink by a regular file (as mv, sed -i do)" \
	sh -c "test -f '$D/link.json' && test ! -L '$D/link.json'"
t_eq "... and never writes its target" precious "$(cat "$D/target")"
t_grep "... the file is the export" '"traceEvents"' "$D/link.json"
chmod 640 "$D/plain.json"
t_ok "export -F json replaces a plain file" "$KMAG" export -F json -o "$D/plain.json" "$FG"
t_eq "... keeping its mode" 640 "$(stat -c %a "$D/plain.json")"
t_grep "... with the new contents" '"functions"' "$D/plain.json"
only "link.json plain.json target " "successful exports"
ln -s "$T" "$D/dirlink"
t_exit "a symlink to a directory is refused" 1 "$KMAG" export -F csv -o "$D/dirlink" "$FG"
t_grep "... as a directory" 'is a directory' "$T/err"
rm "$D/dirlink"

# a FIFO is written in place (process substitution, named pipes)
mkfifo "$D/fifo"
cat "$D/fifo" >"$T/fifo.out" &
t_ok "export into a FIFO" "$KMAG" export -F json -o "$D/fifo" "$FG"
wait
t_ok "... the FIFO stays a FIFO" test -p "$D/fifo"
t_grep "... and the reader got the export" '"functions"' "$T/fifo.out"
rm -f "$D/fifo"

# -- every command that writes a file: a write error is one line with its cause,
# the device stays. A device node of our own ("full", as /dev/full): a kmag
# that removes a failed output must not take the machine's /dev/full with it.
A=$(mkdir -p "$T/diff" && fixture_trace diff/diff-fg-base.dat)
B=$(fixture_trace diff/diff-fg-tmpfs.dat)
if mknod "$D/full" c 1 7 2>/dev/null && ! echo x 2>/dev/null >"$D/full"; then
	# (visualize picks the picture type by name: symlinks to the device, written through)
	ln -s full "$D/full.dot"
	ln -s full "$D/full.png"
	F="$D/full"
	while IFS='|' read -r name cmd; do
		[ -n "$name" ] || continue
		eval "set -- $cmd"
		t_can_run "$name into a full device fails" "$@" || continue
		t_exit "$name into a full device fails" 1 "$KMAG" "$@"
		t_grep "... with the real cause" '^kmag: cannot write [^ ]*full[^ ]*: No space left on device$' "$T/err"
	done <<CMDS
export csv|export -F csv -o "$F" "$FG"
export json|export -F json -o "$F" "$FG"
export dot|export -F dot -o "$F" "$FG"
export folded|export -F folded -o "$F" "$FG"
export chrome|export -F chrome -o "$F" "$FG"
flame svg|flame -o "$F" "$FG"
flame folded|flame --folded "$F" "$FG"
html|html -o "$F" "$FG"
diff|diff -o "$F" "$A" "$B"
visualize dot|visualize --no-chart --image-name "$D/full.dot" "$FG"
visualize chart|visualize --chart-name "$D/full.png" --image-name "$D/g.dot" "$FG"
CMDS
	t_ok "the device node is still there" test -c "$D/full"
	t_ok "... and the symlinks to it are still symlinks" sh -c "test -L '$D/full.dot' && test -L '$D/full.png'"
else
	t_pass "# SKIP mknod not permitted"
fi

# -- standard output: one line, the real cause, exit 1 ------------------------
while IFS='|' read -r name cmd; do
	[ -n "$name" ] || continue
	eval "set -- $cmd"
	t_can_run "$name >/dev/full" "$@" || continue
	t_exit "$name >/dev/full" 1 sh -c '"$0" "$@" >/dev/full' "$KMAG" "$@"
	t_grep "... says standard output is full" '^kmag: cannot write to standard output: No space left on device$' "$T/err"
done <<CMDS
--version|--version
--help|--help
report|report "$FG"
report csv|report -F csv "$FG"
report --help|report --help
export csv|export -F csv "$FG"
export chrome|export -F chrome "$FG"
html|html -o - "$FG"
diff|diff "$A" "$B"
visualize|visualize --no-chart --image-name "$T/v.dot" "$FG"
CMDS

# -- visualize checks both pictures' places before drawing either ------------
mkdir -p "$T/vis"
if t_can_run "visualize --image-name in a missing directory" visualize --image-name g.pdf; then
	t_exit "visualize --image-name in a missing directory" 1 \
		sh -c "cd '$T/vis' && '$KMAG' visualize --image-name /nonexistent/g.pdf '$FG'"
	t_grep "... names the path" 'cannot create /nonexistent/g.pdf' "$T/err"
	t_ok "... and wrote no chart" test ! -e "$T/vis/function-calls.png"
fi
if t_can_run "visualize -o / --output" visualize -o x.svg --no-chart; then
	t_ok "visualize -o x.svg (as --image-name)" sh -c "cd '$T/vis' && '$KMAG' visualize -o x.svg --no-chart '$FG'"
	t_grep "... an SVG" '<svg' "$T/vis/x.svg"
	t_ok "visualize --output y.dot" sh -c "cd '$T/vis' && '$KMAG' visualize --output y.dot --no-chart '$FG'"
	t_grep "... DOT" '^digraph' "$T/vis/y.dot"
fi
t_exit "picture and chart under one name" 2 "$KMAG" visualize -o "$T/a.png" --chart-name "$T/a.png" "$FG"

t_done
