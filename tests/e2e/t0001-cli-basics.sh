#!/bin/bash
# The kmag binary's global interface: help, version, exit codes.
. "$(dirname "$0")/lib.sh"

t_exit "kmag --help exits 0" 0 "$KMAG" --help
t_grep "--help lists report" '^  report ' "$T/out"
t_exit "kmag --version exits 0" 0 "$KMAG" --version
t_grep "--version prints the version" '^kmag [0-9]+\.[0-9]+\.[0-9]+$' "$T/out"
# the version is written down once, in meson.build's project(); the binary says the same
want=$(sed -n "s/^ *version : '\([^']*\)',\$/\1/p" "$SRCDIR/meson.build" | head -1)
t_eq "--version is project(version :) of meson.build" "kmag $want" "$(head -1 "$T/out")"
"$KMAG" >"$T/out" 2>"$T/err"; t_eq "no command is a usage error" 2 $?
t_grep "no command prints the usage" '^Usage: kmag' "$T/err"
t_exit "unknown command is a usage error" 2 "$KMAG" frobnicate
t_exit "unknown global option is a usage error" 2 "$KMAG" --frob
t_exit "a misspelt command is a usage error" 2 "$KMAG" visualise
t_grep "it names the command meant" 'unknown command "visualise"; did you mean visualize\?' "$T/err"
t_exit "kmag help" 0 "$KMAG" help
t_grep "kmag help lists the commands" '^  report ' "$T/out"
t_exit "kmag help report" 0 "$KMAG" help report
t_grep "kmag help report is report --help" '^Usage: kmag report' "$T/out"
t_exit "kmag help of an unknown command" 2 "$KMAG" help frobnicate
t_exit "report --help exits 0" 0 "$KMAG" report --help
t_grep "report --help documents --sort" '--sort' "$T/out"
t_exit "report with a bad option is a usage error" 2 "$KMAG" report --frob
t_grep "the bad option is named" '"--frob"' "$T/err"
t_exit "report with a missing option value is a usage error" 2 "$KMAG" report --sort
t_grep "the missing value is named" 'needs a value' "$T/err"
t_exit "report with a bad sort key is a usage error" 2 "$KMAG" report --sort nope x
t_exit "report of a missing file is an error" 1 "$KMAG" report "$T/missing.dat"
t_grep "the error names the file" 'missing.dat' "$T/err"
t_done
