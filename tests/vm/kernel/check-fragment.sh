#!/bin/sh
# SPDX-License-Identifier: MIT
# check-fragment.sh [FRAGMENT] CONFIG - every option the fragment sets has
# that value in the .config CONFIG (a kernel build's, or the reference
# ../shared/kernels/config-6.19.0): "CONFIG_X=v" must be there as is, and
# "# CONFIG_X is not set" must not be set. Prints each mismatch; exit 1 if any.
# build-kernel.sh runs it on the .config it built (an option the kernel's
# Kconfig dropped or could not enable shows up here).
if [ $# -eq 1 ]; then
	frag=$(dirname "$0")/config-6.19.fragment
	config=$1
else
	frag=$1
	config=$2
fi
[ -r "$frag" ] && [ -r "$config" ] || { echo "usage: check-fragment.sh [FRAGMENT] CONFIG" >&2; exit 2; }
bad=0
n=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		n=$((n + 1))
		grep -qxF "$line" "$config" || {
			echo "$config: wants $line, has: $(grep "^${line%%=*}=" "$config" || echo "${line%%=*} not set")"
			bad=1
		}
		;;
	"# CONFIG_"*" is not set")
		n=$((n + 1))
		opt=${line#\# }
		opt=${opt%% *}
		if grep -q "^$opt=" "$config"; then
			echo "$config: wants $opt unset, has: $(grep "^$opt=" "$config")"
			bad=1
		fi
		;;
	esac
done <"$frag"
[ $bad = 0 ] && echo "check-fragment: all $n options of $frag hold in $config"
exit $bad
