# pane-lib.sh - sourced by the e2e tests that drive `kmag tui` in a tmux pane
# (after lib.sh): a tmux server of the test's own (tm), kept alive by a
# session that outlives the others; screen (the pane's text into $T/screen,
# with capture-pane's $SCREEN_OPT: -p, or -ep for colours); wait_for REGEX
# (until the pane shows it, $PANE_WAIT tenths of a second at most, 50 unless
# set); see DESC REGEX (a check that waits for it); keys (send-keys to the
# "tui" session). Skips the test where tmux is not installed.
command -v tmux >/dev/null || { echo "1..0 # SKIP tmux is not installed (apt install tmux)"; exit 0; }
SOCK="kmag-$(basename "$0" .sh)-$$"
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
trap 'tm kill-server 2>/dev/null; rm -rf "$T"' EXIT
tm new-session -d -s keep "sleep 600"

SCREEN_OPT=-p
screen() { tm capture-pane $SCREEN_OPT -t tui >"$T/screen"; }
wait_for() {
	local i
	for i in $(seq "${PANE_WAIT:-50}"); do
		screen
		grep -Eq -- "$1" "$T/screen" && return 0
		sleep 0.1
	done
	return 1
}
see() {
	if wait_for "$2"; then t_pass "$1"; else
		t_fail "$1" "no /$2/ on the screen:" "$(cat "$T/screen")"; fi
}
keys() { tm send-keys -t tui "$@"; }
