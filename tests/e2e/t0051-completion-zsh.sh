#!/bin/bash
# The zsh completion (completion/_kmag), run outside zsh's completion system:
# compadd, compset, _files and _normal are stand-ins that print what they are
# given (compadd filtered by PREFIX, as zsh filters). Commands and every
# command's options must be exactly those of the --help texts (parsed here by
# tests/e2e/helpers/help-options.py); values as in t0050 (bash).
. "$(dirname "$0")/lib.sh"
command -v zsh >/dev/null || { echo "1..0 # SKIP zsh is not installed"; exit 0; }
OPTS="$SRCDIR/tests/e2e/helpers/help-options.py"

cat >"$T/run.zsh" <<'EOS'
compadd() {
	local w
	while [[ $1 != -- ]]; do shift; done
	shift
	for w in "$@"; do [[ $w == ${PREFIX}* ]] && print -r -- "$w"; done
}
compset() { [[ $1 == -P ]] && PREFIX=${PREFIX#*=}; }
_files() { print -r -- "_files $*"; }
_normal() { print -r -- "_normal ${words[*]} $CURRENT"; }
fpath=("$SRCDIR/completion" $fpath)
autoload -Uz _kmag
words=("$KMAG" "$@")
CURRENT=${#words}
PREFIX=${words[-1]}
_kmag
EOS
# comp WORD... : what completing the last WORD offers, sorted, in $T/reply
comp() { SRCDIR=$SRCDIR KMAG=$KMAG zsh -f "$T/run.zsh" "$@" | LC_ALL=C sort >"$T/reply"; }
t_reply() {
	local desc=$1; shift
	printf '%s\n' "$@" | sed '/^$/d' | LC_ALL=C sort >"$T/want"
	if diff "$T/want" "$T/reply" >"$T/d"; then t_pass "$desc"; else
		t_fail "$desc" "< expected, > completed:" "$(head -20 "$T/d")"; fi
}

"$KMAG" --help >"$T/help"
mapfile -t cmds < <(python3 "$OPTS" commands "$T/help")
comp ""
t_reply "kmag <TAB>: the commands of kmag --help (${#cmds[@]}) and help" "${cmds[@]}" help
comp -v rep
t_reply "kmag -v rep<TAB>" report replay
comp help vis
t_reply "kmag help vis<TAB>" visualize
for c in "${cmds[@]}"; do
	"$KMAG" "$c" --help >"$T/h"
	mapfile -t want < <(python3 "$OPTS" help "$T/h")
	comp "$c" -
	t_reply "kmag $c -<TAB>: the ${#want[@]} options of kmag $c --help" "${want[@]}"
done
comp report --reader ""
t_reply "report --reader <TAB>" auto builtin libtracecmd
comp report --reader=li
t_reply "report --reader=li<TAB>" libtracecmd
comp report --limit ""
t_reply "report --limit <TAB>: nothing to offer" ""

fs="$T/tracefs"
mkdir -p "$fs"
echo "blk function_graph function nop" >"$fs/available_tracers"
printf '%s\n' vfs_read vfs_readv 'ext4_read [ext4]' vfs_write vfs_read >"$fs/available_filter_functions"
printf '%s\n' sched:sched_switch sched:sched_wakeup irq:irq_handler_entry >"$fs/available_events"
echo "[local] global counter" >"$fs/trace_clock"
export KMAG_TRACEFS="$fs"
comp record -p ""
t_reply "record -p <TAB>: available_tracers" blk function_graph function nop
comp record -g vfs_rea
t_reply "record -g vfs_rea<TAB>: available_filter_functions, once each" vfs_read vfs_readv
comp record -l ext
t_reply "record -l ext<TAB>: without [module]" ext4_read
comp record -e sched:
t_reply "record -e sched:<TAB>: available_events" sched:sched_switch sched:sched_wakeup
comp record -C ""
t_reply "record -C <TAB>: trace_clock" local global counter
# --errno: the kernel's error names from its UAPI headers (linux-libc-dev)
if [ -r /usr/include/asm-generic/errno-base.h ]; then
	comp report --errno EINV
	t_reply "report --errno EINV<TAB>: the kernel's error names" EINVAL
	comp replay --errno ENOE
	t_reply "replay --errno ENOE<TAB>" ENOENT ENOEXEC
else
	t_skip "report --errno EINV<TAB>" "no /usr/include/asm-generic/errno-base.h"
	t_skip "replay --errno ENOE<TAB>" "no /usr/include/asm-generic/errno-base.h"
fi
export KMAG_TRACEFS="$T/no-tracefs"
comp record -p ""
t_reply "record -p <TAB> without a readable tracefs: the fallback" function_graph function nop
unset KMAG_TRACEFS

comp report ""
t_reply "report <TAB>: trace files" "_files -g *.(dat|txt|json)(-.)"
comp html -o ""
t_reply "html -o <TAB>: any file" "_files "
comp generate-symbol-map -m ""
t_reply "generate-symbol-map -m <TAB>: directories" "_files -/"
comp generate-symbol-map ""
t_reply "generate-symbol-map <TAB>: takes no trace file" ""
comp record -q -- l
t_reply "record -q -- l<TAB>: the command line to run" "_normal l 1"
t_done
