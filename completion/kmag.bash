# SPDX-License-Identifier: MIT
# bash completion for kmag (installed as share/bash-completion/completions/kmag).
#
# Nothing here is a hand-kept list of commands or options: they are read from
# `kmag --help` and `kmag CMD --help` when completing, so the completion follows
# the binary it completes (tests/e2e/t0050-completion.sh). Option values come
# from the metavariable --help shows: "a|b|c" lists the choices, TRACER the
# tracers of tracefs, GLOB/FUNC/F the functions of available_filter_functions,
# SYSTEM:EVENT the events of available_events, CLOCK trace_clock, ERRNO the
# error names of the kernel's UAPI headers (linux-libc-dev), FILE/PATH/MAP
# file names, DIR directories. A trace file argument completes *.dat, *.txt and
# *.json files. KMAG_TRACEFS, when set, is the only tracefs directory looked at
# (default /sys/kernel/tracing, else /sys/kernel/debug/tracing).

# _kmag_bin: the kmag being completed (./build/kmag as typed), else kmag in PATH
_kmag_bin()
{
	local k=${COMP_WORDS[0]}
	k=${k/#\~/$HOME}
	if [[ $k == */* && -x $k ]]; then
		printf '%s\n' "$k"
	else
		printf 'kmag\n'
	fi
}

# _kmag_commands: the command names `kmag --help` lists
_kmag_commands()
{
	"$(_kmag_bin)" --help 2>/dev/null |
		awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on && /^  [a-z]/ { print $1 }'
}

# _kmag_opts: "OPTION METAVAR" lines (METAVAR "-" for a flag) from a
# `kmag CMD --help` text on stdin: an option line is indented 2 to 7 columns and
# starts with -x or --name; a comma joins the names of one option; the field
# after the names is its argument when it has a capital or a '|' (FILE, a|b).
_kmag_opts()
{
	grep -E '^ {2,7}-' |
		awk '{
			n = 0; arg = "-"
			for (i = 1; i <= NF; i++) {
				f = $i; comma = sub(/,$/, "", f)
				if (f !~ /^--?[A-Za-z0-9][A-Za-z0-9-]*$/) break
				names[++n] = f
				if (!comma) { i++; break }
			}
			if (i <= NF && $i ~ /[A-Z|]/) arg = $i
			for (j = 1; j <= n; j++) print names[j], arg
		}'
}

_kmag_tracefs()
{
	local d dirs=(/sys/kernel/tracing /sys/kernel/debug/tracing)
	[[ -n ${KMAG_TRACEFS+set} ]] && dirs=("$KMAG_TRACEFS")
	for d in "${dirs[@]}"; do
		[[ -r $d/available_events ]] && { printf '%s\n' "$d"; return 0; }
	done
	return 1
}

# _kmag_words CUR WORD...: COMPREPLY = the WORDs that start with CUR
_kmag_words()
{
	local cur=$1
	shift
	mapfile -t COMPREPLY < <(compgen -W "$*" -- "$cur")
}

# _kmag_files CUR [EXT-REGEX]: file names (only those matching EXT-REGEX) and
# directories to descend into
_kmag_files()
{
	local cur=$1 re=${2:-} f
	COMPREPLY=()
	compopt -o filenames 2>/dev/null
	while IFS= read -r f; do
		if [[ -d $f ]] || [[ -z $re ]] || [[ $f =~ $re ]]; then
			COMPREPLY+=("$f")
		fi
	done < <(compgen -f -- "$cur")
}

# _kmag_value CUR METAVAR: the values of an option's argument
_kmag_value()
{
	local cur=$1 meta=${2//\'/} fs
	case $meta in
	*'|'*)
		_kmag_words "$cur" "${meta//|/ }" ;;
	TRACER)
		if fs=$(_kmag_tracefs) && [[ -r $fs/available_tracers ]]; then
			_kmag_words "$cur" "$(<"$fs/available_tracers")"
		else
			_kmag_words "$cur" function_graph function nop
		fi ;;
	CLOCK)
		if fs=$(_kmag_tracefs) && [[ -r $fs/trace_clock ]]; then
			_kmag_words "$cur" "$(tr -d '[]' <"$fs/trace_clock")"
		else
			_kmag_words "$cur" local global counter uptime perf mono mono_raw boot
		fi ;;
	GLOB | FUNC* | F)
		COMPREPLY=()
		fs=$(_kmag_tracefs) && [[ -r $fs/available_filter_functions ]] &&
			mapfile -t COMPREPLY < <(awk -v p="$cur" \
				'(p == "" || index($1, p) == 1) && !seen[$1]++ { print $1 }' \
				"$fs/available_filter_functions" 2>/dev/null)
		;;
	SYSTEM:EVENT)
		COMPREPLY=()
		fs=$(_kmag_tracefs) &&
			mapfile -t COMPREPLY < <(awk -v p="$cur" \
				'p == "" || index($1, p) == 1 { print $1 }' "$fs/available_events" 2>/dev/null)
		;;
	ERRNO)
		# the kernel's error names, from its UAPI headers where installed
		mapfile -t COMPREPLY < <(cat /usr/include/asm-generic/errno-base.h \
			/usr/include/asm-generic/errno.h 2>/dev/null |
			awk -v p="${cur^^}" '$1 == "#define" && $2 ~ /^E[A-Z0-9]+$/ && $3 ~ /^[0-9]+$/ &&
				index($2, p) == 1 { print $2 }')
		;;
	DIR)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
	FILE | PATH* | MAP)
		_kmag_files "$cur" ;;
	*)
		COMPREPLY=() ;;
	esac
}

_kmag()
{
	local cur=${COMP_WORDS[COMP_CWORD]} i cmd='' ci=0 w help opts meta
	COMPREPLY=()

	# the command: the first word after kmag that is not a global option
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		[[ $w == -* ]] && continue
		cmd=$w ci=$i
		break
	done
	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			_kmag_words "$cur" -v --verbose --version --help
		else
			_kmag_words "$cur" "$(_kmag_commands) help"
		fi
		return 0
	fi
	if [[ $cmd == help ]]; then
		((COMP_CWORD == ci + 1)) && _kmag_words "$cur" "$(_kmag_commands)"
		return 0
	fi

	help=$("$(_kmag_bin)" "$cmd" --help 2>/dev/null)
	opts=$(_kmag_opts <<<"$help")
	# after "--" (record, stack): a command line to run
	for ((i = ci + 1; i < COMP_CWORD; i++)); do
		if [[ ${COMP_WORDS[i]} == -- ]]; then
			if ((COMP_CWORD == i + 1)); then
				mapfile -t COMPREPLY < <(compgen -c -- "$cur")
			else
				_kmag_files "$cur"
			fi
			return 0
		fi
	done

	# the argument of an option: "--opt VALUE", or "--opt=VALUE", which bash
	# splits into "--opt" "=" "VALUE" where COMP_WORDBREAKS has '='
	local opt='' pre=''
	if [[ $cur == --*=* ]]; then
		opt=${cur%%=*} pre=$opt= cur=${cur#*=}
	elif [[ $cur == = ]] && ((COMP_CWORD > ci + 1)); then
		opt=${COMP_WORDS[COMP_CWORD - 1]} cur=''
	elif ((COMP_CWORD > ci + 2)) && [[ ${COMP_WORDS[COMP_CWORD - 1]} == = ]]; then
		opt=${COMP_WORDS[COMP_CWORD - 2]}
	elif ((COMP_CWORD > ci + 1)); then
		opt=${COMP_WORDS[COMP_CWORD - 1]}
	fi
	if [[ $opt == -* ]]; then
		meta=$(awk -v o="$opt" '$1 == o { print $2; exit }' <<<"$opts")
		if [[ -n $meta && $meta != - ]]; then
			_kmag_value "$cur" "$meta"
			[[ -n $pre ]] && COMPREPLY=("${COMPREPLY[@]/#/$pre}")
			return 0
		fi
	fi

	if [[ $cur == -* ]]; then
		_kmag_words "$cur" "$(awk '{ print $1 }' <<<"$opts")"
	elif [[ ${help%%$'\n'*} =~ (FILE|' A B') ]]; then
		# a trace file, where the usage line takes one ("[FILE]", "A B")
		_kmag_files "$cur" '\.(dat|txt|json)$'
	fi
	return 0
}

complete -F _kmag kmag
