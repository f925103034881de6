# SPDX-License-Identifier: MIT
# From `trace-cmd report` of a function_graph trace: the traced calls made
# beneath every call of function F (awk -v F=NAME), at any level, and those
# it made itself, counted per CPU from the entry lines and the closing braces.
# Prints "BENEATH DIRECT".
# per CPU: the traced calls beneath every call of F, and its direct calls
/funcgraph_(entry|exit)/ {
	cpu = $2
	if ($0 ~ /funcgraph_entry/ && $0 ~ /\(\) \{/) {
		if (in_f[cpu]) { beneath++; if (d[cpu] == 1) direct++ }
		if (!in_f[cpu] && $0 ~ (" " F "\\(\\) \\{")) { in_f[cpu] = 1; d[cpu] = 0 }
		if (in_f[cpu]) d[cpu]++
	} else if ($0 ~ /funcgraph_entry/) {
		if (in_f[cpu]) { beneath++; if (d[cpu] == 1) direct++ }
	} else if (in_f[cpu]) {
		if (--d[cpu] == 0) in_f[cpu] = 0
	}
}
END { print beneath, direct }
