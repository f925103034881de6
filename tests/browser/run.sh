#!/bin/bash
# Browser tests of the generated pages (tests/browser/pages.test.js): Debian's
# chromium driven by playwright-core, which `npm ci` installs into the build
# directory from tests/browser/package-lock.json on first run. Meson runs this
# as suite "browser"; the environment is that of the e2e tests.
. "$SRCDIR/tests/e2e/lib.sh"
# the kmag diff fixture pairs (tests/fixtures/traces/diff/, see its README section)
diff_fixture() { mkdir -p "$T/diff" && fixture_trace "diff/$1"; }
chromium=${KMAG_CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ] || ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	echo "1..0 # SKIP needs $chromium, node and npm (scripts/deps.sh --test installs them)"
	exit 0
fi
src="$SRCDIR/tests/browser"
deps="$(dirname "$KMAG")/tests/browser-deps"
mkdir -p "$deps"
if ! cmp -s "$src/package-lock.json" "$deps/package-lock.json" ||
   [ ! -f "$deps/node_modules/playwright-core/package.json" ]; then
	cp "$src/package.json" "$src/package-lock.json" "$deps/"
	if ! (cd "$deps" && npm ci --no-audit --no-fund --loglevel=error) >&2; then
		echo "not ok 1 - npm ci in $deps (is the npm registry reachable?)"
		echo "1..1"
		exit 1
	fi
fi
# pages of hostile names (control characters, </script>, bytes that are not UTF-8)
python3 "$SRCDIR/tests/e2e/helpers/hostile-trace.py" "$T/hostile.txt"
python3 "$SRCDIR/tests/e2e/helpers/hostile-tracedat.py" "$(fixture_trace fg-sched-v6.dat)" "$T/hostile.dat" >/dev/null
FIXTURE_HOSTILE_TXT=$T/hostile.txt FIXTURE_HOSTILE_DAT=$T/hostile.dat \
FIXTURE_FG=$(diff_fixture diff-fg-tmpfs.dat) FIXTURE_FG_BASE=$(diff_fixture diff-fg-base.dat) \
FIXTURE_LOST=$(fixture_trace fn-lost-v6.dat) FIXTURE_PROBES=$TRACES/fn-kprobe.dat \
FIXTURE_61=$(fixture_trace fg-filtered-v6.dat) FIXTURE_612=$(fixture_trace fg-filtered-6.12-v6.dat) \
FIXTURE_RETVAL=$TRACES/6.19/fg619-retval.dat FIXTURE_ARGS=$TRACES/6.19/fg619-args.dat \
KMAG_NODE_MODULES="$deps/node_modules" KMAG_SHOTS="$(dirname "$KMAG")/tests/browser-shots" \
KMAG_CHROMIUM="$chromium" node "$src/pages.test.js"
