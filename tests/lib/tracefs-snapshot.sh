#!/bin/sh
# SPDX-License-Identifier: MIT
# tracefs-snapshot.sh [TRACEFS]: print the configuration of a tracefs mount
# (every file a recorder could change), one "file: content" line each, so two
# snapshots can be compared with diff. Volatile files (buffers, statistics,
# saved cmdlines) are left out. POSIX sh: runs under busybox in the test VM.
T=${1:-/sys/kernel/tracing}
cd "$T" || exit 1
line() { # FILE: one line, entries sorted (list files print in hash order)
	printf '%s: ' "$1"
	sort "$1" 2>&1 | tr '\n' '|'
	echo
}
echo "instances: $(ls instances 2>/dev/null | tr '\n' ' ')"
for f in current_tracer tracing_on tracing_cpumask trace_clock buffer_size_kb \
	buffer_percent buffer_subbuf_size_kb max_graph_depth tracing_thresh \
	saved_cmdlines_size set_event set_event_pid set_event_notrace_pid \
	set_ftrace_filter set_ftrace_notrace set_ftrace_pid set_ftrace_notrace_pid \
	set_graph_function set_graph_notrace timestamp_mode; do
	[ -e "$f" ] && line "$f"
done
for f in per_cpu/cpu*/buffer_size_kb options/*; do
	line "$f"
done
find events -name enable -o -name filter -o -name trigger | sort | xargs grep -H '' 2>&1
