#!/bin/sh
# SPDX-License-Identifier: MIT
# wl-flight.sh BEFORE AFTER [SLOT]: the flight recorder's workload
# (guest-flight.sh): BEFORE rounds that open existing files, one every SLOT
# centiseconds (default 20: BEFORE 125 is 25 s), then a missing file once
# (its cat's pid in /tmp/fail-pid), then AFTER more rounds. A round is a cat
# of two /proc files (its pid marks the round: the first 5 go to
# /tmp/first-pids) and eight opens by the shell itself, about 4,700
# function_graph events under do_sys_openat2 on the 6.19 test kernel (~424
# per open). The rounds are paced, not run flat out: the data before the
# failure is the same on a fast and a slow machine (about three times what
# a 2 MiB flight keeps), and its rate at most ~23k events/s. Time comes from
# /proc/uptime: date would open /etc/localtime, which is missing, and that
# would be a failing open too.
before=$1 after=$2 slot=${3:-20}
# now_cs: NOW is the uptime in centiseconds (no subshell: no fork)
now_cs() {
	read -r up _ </proc/uptime
	f=${up#*.}
	NOW=$(( ${up%.*} * 100 + ${f#0} ))
}
round() {
	cat /proc/version /proc/uptime >/dev/null &
	pid=$!
	wait
	: </proc/version; : </proc/uptime; : </proc/loadavg; : </proc/cmdline
	: </proc/version; : </proc/uptime; : </proc/loadavg; : </proc/cmdline
}
# pace N: wait for the start of round N's slot
now_cs
t0=$NOW
pace() {
	now_cs
	left=$(( t0 + $1 * slot - NOW ))
	[ "$left" -gt 0 ] && sleep "$((left / 100)).$((left % 100 / 10))$((left % 10))"
}
n=0
while [ $n -lt "$before" ]; do
	pace $n
	round
	n=$((n + 1))
	[ $n -le 5 ] && echo $pid >>/tmp/first-pids
done
cat /nonexistent-flight-file 2>/dev/null &
echo $! >/tmp/fail-pid
wait
while [ $n -lt $((before + after)) ]; do
	pace $n
	round
	n=$((n + 1))
done
