# SPDX-License-Identifier: MIT
# golden-lib.sh - run the golden cases (./cases) and normalise their outputs.
# Sourced by tests/e2e/t0800-golden.sh (compares) and ./regen.sh (rewrites),
# so both produce the outputs in exactly the same way.
#
# Needs: GOLDEN_DIR (this directory), FIXTURES (tests/fixtures) and KMAG (both
# made absolute here: the cases run in another directory).
case $KMAG in /*) ;; */*) KMAG="$PWD/$KMAG" ;; esac
case $FIXTURES in /*) ;; *) FIXTURES="$PWD/$FIXTURES" ;; esac

# What could make an output depend on the machine, and what we do about it:
# - paths: kmag runs inside a directory holding the fixtures under their bare
#   names (golden_prepare), so inputs are named "fg-filtered.dat", never
#   /tmp/kmag-e2e.XXXX/...; @OUT@ files are written there too;
# - the user's symbol maps (~/.cache/kmag, $KMAG_SYMBOL_MAP) would add file:line
#   columns: HOME is a fresh empty directory and KMAG_SYMBOL_MAP is unset;
# - locale: LC_ALL=C, so thousands separators and decimal points are fixed;
# - colour: outputs go to files, never a terminal (diff --color auto is off);
# - time of the run: none of these outputs contain one (times are the trace's);
# - kmag's version: the Chrome trace names its generator ("kmag 0.1.0"); it
#   reads "kmag VERSION" in the golden, so a release does not rewrite it.
# Nothing else is rewritten after the run except JSON's layout (golden_normalize).

# golden_prepare DIR: fill DIR with every fixture under its bare name
golden_prepare() {
	local dir=$1 f name
	mkdir -p "$dir/home"
	for f in "$FIXTURES"/traces/*.dat "$FIXTURES"/traces/*.txt "$FIXTURES"/traces/diff/*.dat \
		"$FIXTURES"/traces/6.19/*.dat "$FIXTURES"/symbols/*.map; do
		[ -f "$f" ] && ln -sf "$f" "$dir/${f##*/}"
	done
	for f in "$FIXTURES"/traces/*.xz "$FIXTURES"/traces/diff/*.xz "$FIXTURES"/btf/*.xz; do
		name=${f##*/}
		name=${name%.xz}
		[ -f "$f" ] && ! [ -s "$dir/$name" ] || continue
		xz -dc "$f" >"$dir/$name" || return 1
	done
}

# golden_cases: print "GOLDEN ARGS..." for every case (comments and blanks dropped)
golden_cases() {
	grep -Ev '^[[:space:]]*(#|$)' "$GOLDEN_DIR/cases"
}

# golden_normalize GOLDEN: stdin -> stdout. JSON is re-printed one member and
# one list element per line (compact below that), so a review diff shows the
# function or edge that changed instead of one changed 100 kB line; the key
# order and the values stay as kmag wrote them. Invalid JSON fails.
golden_normalize() {
	case $1 in
	*.chrome.json) sed 's/"generator":"kmag [^"]*"/"generator":"kmag VERSION"/' |
		python3 "$GOLDEN_DIR/json-lines.py" ;;
	*.json) python3 "$GOLDEN_DIR/json-lines.py" ;;
	*) cat ;;
	esac
}

# golden_run DIR GOLDEN ARGS... : run one case in DIR (from golden_prepare);
# the normalised output goes to stdout, kmag's stderr to DIR/stderr.
# Returns kmag's exit status (or the normaliser's, if kmag succeeded).
golden_run() {
	local dir=$1 golden=$2 out="" a
	shift 2
	local args=()
	for a in "$@"; do
		if [ "$a" = @OUT@ ]; then
			out="$dir/out.${golden##*.}"
			rm -f "$out"
			a=$out
		fi
		args+=("$a")
	done
	if [ -n "$out" ]; then
		(cd "$dir" && env -u KMAG_SYMBOL_MAP HOME="$dir/home" LC_ALL=C \
			"$KMAG" "${args[@]}" >/dev/null 2>"$dir/stderr") || return
		golden_normalize "$golden" <"$out"
	else
		(cd "$dir" && env -u KMAG_SYMBOL_MAP HOME="$dir/home" LC_ALL=C \
			"$KMAG" "${args[@]}" >"$dir/stdout" 2>"$dir/stderr") || return
		golden_normalize "$golden" <"$dir/stdout"
	fi
}
