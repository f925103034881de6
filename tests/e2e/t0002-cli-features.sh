#!/bin/bash
# Optional libraries (meson features): `kmag --version` lists them; in a build
# without one, what needs it fails with one line naming the package to install,
# and what does not need it still works.
. "$(dirname "$0")/lib.sh"

t_exit "--version exits 0" 0 "$KMAG" --version
t_grep "--version lists the optional libraries" '^features: [+-]graphviz [+-]cairo [+-]libtracecmd [+-]libdw [+-]tui [+-]btf$' "$T/out"

F=$(fixture_trace fg-filtered.dat)
# missing DESC FEATURE PACKAGE KMAG-ARGS... : checked only where the build lacks FEATURE
missing() {
	local desc=$1 feat=$2 pkg=$3
	shift 3
	if t_has_feature "$feat"; then
		t_skip "$desc" "this kmag has $feat"
		return
	fi
	t_exit "$desc: exit 1 with one line" 1 "$KMAG" "$@"
	t_grep "$desc: names the package" \
		"^kmag: .* needs .*: this kmag was built without it \(apt install $pkg, then rebuild\)$" "$T/err"
}
missing "visualize .svg without Graphviz" graphviz libgraphviz-dev \
	visualize --no-chart --image-name "$T/g.svg" "$F"
t_has_feature graphviz || t_ok "... and leaves no picture" test ! -e "$T/g.svg"
missing "export -F dot without Graphviz" graphviz libgraphviz-dev export -F dot -o "$T/g.dot" "$F"
missing "diff -F dot without Graphviz" graphviz libgraphviz-dev diff -F dot "$F" "$F"
missing "the chart without cairo" cairo libcairo2-dev visualize --image-name "$T/c.html" "$F"
missing "--reader libtracecmd without libtracecmd" libtracecmd libtracecmd-dev \
	report --reader libtracecmd "$F"
missing "generate-symbol-map without libdw" libdw libdw-dev \
	generate-symbol-map -k "$T/vmlinux" -o "$T/k.map"
missing "tui without ncurses" tui libncurses-dev tui "$F"

# what needs none of them works in every build
t_ok "report" "$KMAG" report "$F"
t_ok "export -F csv" "$KMAG" export -F csv -o "$T/f.csv" "$F"
t_ok "export -F chrome" "$KMAG" export -F chrome -o "$T/c.json" "$F"
t_ok "visualize .html without the chart" "$KMAG" visualize --no-chart --image-name "$T/v.html" "$F"
t_done
