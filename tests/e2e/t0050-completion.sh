#!/bin/bash
# The bash completion (completion/kmag.bash): sources it and calls _kmag with
# COMP_WORDS/COMP_CWORD as bash would, checking COMPREPLY. Commands and every
# command's options must be exactly those of `kmag --help` and `kmag CMD
# --help` (parsed here by tests/e2e/helpers/help-options.py, as the man page
# test does); option values come from a made-up tracefs (KMAG_TRACEFS) or the
# fallback lists; trace files are *.dat, *.txt and *.json.
. "$(dirname "$0")/lib.sh"
OPTS="$SRCDIR/tests/e2e/helpers/help-options.py"
# shellcheck source=../../completion/kmag.bash
. "$SRCDIR/completion/kmag.bash"

# comp WORD... : COMPREPLY for the command line WORD... (the last word is the
# one being completed), sorted, one per line, in $T/reply
comp() {
	COMP_WORDS=("$KMAG" "$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="${COMP_WORDS[*]}"
	COMPREPLY=()
	_kmag
	printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | LC_ALL=C sort >"$T/reply"
}
# t_reply DESC EXPECTED-LINES... : $T/reply holds exactly these (sorted)
t_reply() {
	local desc=$1; shift
	printf '%s\n' "$@" | sed '/^$/d' | LC_ALL=C sort >"$T/want"
	if diff "$T/want" "$T/reply" >"$T/d"; then t_pass "$desc"; else
		t_fail "$desc" "< expected, > completed:" "$(head -20 "$T/d")"; fi
}

t_ok "complete -p kmag names _kmag" sh -c "bash -c '. \"$SRCDIR/completion/kmag.bash\"; complete -p kmag' | grep -q -- '-F _kmag kmag'"

"$KMAG" --help >"$T/help"
mapfile -t cmds < <(python3 "$OPTS" commands "$T/help")
comp ""
t_reply "kmag <TAB>: the commands of kmag --help (${#cmds[@]}) and help" "${cmds[@]}" help
comp re
t_reply "kmag re<TAB>" $(printf '%s\n' "${cmds[@]}" | grep '^re')
comp -v rep
t_reply "kmag -v rep<TAB>: after a global option" report replay
comp --ver
t_reply "kmag --ver<TAB>: the global options" --verbose --version
comp help vis
t_reply "kmag help vis<TAB>" visualize

for c in "${cmds[@]}"; do
	"$KMAG" "$c" --help >"$T/h"
	mapfile -t want < <(python3 "$OPTS" help "$T/h")
	comp "$c" -
	t_reply "kmag $c -<TAB>: the ${#want[@]} options of kmag $c --help" "${want[@]}"
done
comp report --s
t_reply "kmag report --s<TAB>" --slowest --sort --strict --symbol-file-path

# option values
comp report --reader ""
t_reply "report --reader <TAB>: the choices --help shows" auto builtin libtracecmd
comp report --reader = li
t_reply "report --reader=li<TAB> (bash splits at =)" libtracecmd
comp report --reader=b
t_reply "report --reader=b<TAB> (one word)" --reader=builtin
comp replay -F ""
t_reply "replay -F <TAB>" text json
comp flame --weight c
t_reply "flame --weight c<TAB>" calls
comp report --limit ""
t_reply "report --limit <TAB>: a number, nothing to offer" ""

fs="$T/tracefs"
mkdir -p "$fs"
echo "blk function_graph wakeup function nop" >"$fs/available_tracers"
printf '%s\n' vfs_read vfs_readv 'vfs_readlink' 'ext4_read [ext4]' vfs_write vfs_read >"$fs/available_filter_functions"
printf '%s\n' sched:sched_switch sched:sched_wakeup irq:irq_handler_entry >"$fs/available_events"
echo "[local] global counter" >"$fs/trace_clock"
export KMAG_TRACEFS="$fs"
comp record -p ""
t_reply "record -p <TAB>: available_tracers" blk function_graph wakeup function nop
comp record --tracer f
t_reply "record --tracer f<TAB>" function_graph function
comp record -g vfs_rea
t_reply "record -g vfs_rea<TAB>: available_filter_functions, once each" vfs_read vfs_readv vfs_readlink
comp record -l ext
t_reply "record -l ext<TAB>: a module's function without [module]" ext4_read
comp record --notrace vfs_w
t_reply "record --notrace vfs_w<TAB>" vfs_write
comp replay --function vfs_readl
t_reply "replay --function vfs_readl<TAB>" vfs_readlink
comp stack -l vfs_w
t_reply "stack -l vfs_w<TAB>" vfs_write
comp record --kprobe vfs_w
t_reply "record --kprobe vfs_w<TAB>" vfs_write
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
comp record -g vfs
t_reply "record -g vfs<TAB> without a readable tracefs: nothing" ""
unset KMAG_TRACEFS

# files
mkdir -p "$T/w/sub"
touch "$T/w/a.dat" "$T/w/b.txt" "$T/w/c.json" "$T/w/d.svg" "$T/w/e.dat.xz"
cd "$T/w" || exit 1
comp report ""
t_reply "report <TAB>: trace files and directories" a.dat b.txt c.json sub
comp diff a.dat ""
t_reply "diff a.dat <TAB>: the second trace" a.dat b.txt c.json sub
comp report --cpu 0 ""
t_reply "report --cpu 0 <TAB>: after an option's value" a.dat b.txt c.json sub
comp html -o ""
t_reply "html -o <TAB>: any file" a.dat b.txt c.json d.svg e.dat.xz sub
comp generate-symbol-map -m s
t_reply "generate-symbol-map -m s<TAB>: directories" sub
comp generate-symbol-map ""
t_reply "generate-symbol-map <TAB>: takes no trace file" ""
comp record -- ""
t_ok "record -- <TAB>: commands to run" grep -qx ls "$T/reply"
t_done
