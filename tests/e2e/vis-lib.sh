# SPDX-License-Identifier: MIT
# vis-lib.sh - helpers for the `kmag visualize` tests: small traces written by
# the test itself, and structural checks of the pictures (PNG header, SVG
# parsed as XML by python3, which scripts/deps.sh --test installs).

# emit CALLER CALLEE N: N function-tracer lines "CALLEE <-CALLER" (timestamps rise)
VIS_TS=100000
emit() {
	local i
	for ((i = 0; i < $3; i++)); do
		VIS_TS=$((VIS_TS + 1))
		printf '            bash-1234  [000] d..1.   100.%06d: %s <-%s\n' "$VIS_TS" "$2" "$1"
	done
}

# A syscall-shaped function trace with known counts (see the calls below).
# do_syscall_64 20, __sys_sendto 12, sock_sendmsg 12, security_socket_sendmsg 12,
# tcp_sendmsg 12, _raw_spin_lock 300, ksys_read 8, vfs_read 8, odd name 3, rare_fn 1
net_trace() {
	echo "# tracer: function"
	echo "#"
	emit entry_SYSCALL_64 do_syscall_64 20
	emit do_syscall_64 __sys_sendto 12
	emit __sys_sendto sock_sendmsg 12
	emit sock_sendmsg security_socket_sendmsg 12
	emit security_socket_sendmsg tcp_sendmsg 12
	emit tcp_sendmsg _raw_spin_lock 300
	emit do_syscall_64 ksys_read 8
	emit ksys_read vfs_read 8
	emit vfs_read 'we<i>rd&"fn\' 3
	emit do_syscall_64 rare_fn 1
}

# The symbol map of net_trace, in the seed's "name|path" format.
net_map() {
	cat <<'EOF'
do_syscall_64|arch/x86/entry/common.c
__sys_sendto|net/socket.c
sock_sendmsg|net/socket.c
security_socket_sendmsg|security/security.c
tcp_sendmsg|net/ipv4/tcp.c
_raw_spin_lock|kernel/locking/spinlock.c
ksys_read|fs/read_write.c
vfs_read|fs/read_write.c
EOF
}

# png_size FILE: "WIDTH HEIGHT" from the IHDR chunk, or nothing if FILE is no PNG
png_size() {
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || return 0
	od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%d %d\n", $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }'
}

# svg_check FILE WHAT: structural facts of a kmag call-graph SVG, one per line
#   counts  -> "NODES EDGES DASHED HOT" (HOT = edges drawn in the hot-path red)
#   heat    -> "ok" when fill colours never get lighter as calls grow, else the offenders;
#              then the hottest and the coldest fill
#   heat-total -> the same for total time (function_graph traces, --heat total)
#   irq     -> edges drawn in the interrupt blue
#   size    -> "WIDTH_PT HEIGHT_PT"
svg_check() {
	python3 - "$1" "$2" <<'EOF'
import re, sys, xml.etree.ElementTree as ET
path, what = sys.argv[1], sys.argv[2]
ns = {'s': 'http://www.w3.org/2000/svg', 'x': 'http://www.w3.org/1999/xlink'}
root = ET.parse(path).getroot()
nodes = root.findall('.//s:g[@class="node"]', ns)
edges = root.findall('.//s:g[@class="edge"]', ns)
if what == 'counts':
    dashed = sum(1 for e in edges if e.find('.//s:path[@stroke-dasharray]', ns) is not None)
    hot = sum(1 for e in edges if e.find('.//s:path[@stroke="#cb181d"]', ns) is not None)
    print(len(nodes), len(edges), dashed, hot)
elif what == 'irq':
    print(sum(1 for e in edges if e.find('.//s:path[@stroke="#2166ac"]', ns) is not None))
elif what in ('heat', 'heat-total'):
    unit = {'ns': 1, 'us': 1e3, 'ms': 1e6, 's': 1e9}
    seen = []
    for n in nodes:
        a = n.find('.//s:a', ns)
        tip = a.get('{http://www.w3.org/1999/xlink}title')
        if what == 'heat':
            # a function seen only as a caller says "not traced": called 0 times
            m = re.search(r'\n([0-9,]+) calls', tip)
            calls = int(m.group(1).replace(',', '')) if m else 0
            assert m or '\nnot traced: ' in tip, tip
        else:
            m = re.search(r'total ([0-9.]+) (ns|us|ms|s)\b', tip)
            calls = round(float(m.group(1)) * unit[m.group(2)]) if m else 0
        fill = n.find('.//s:path', ns).get('fill')
        g, r = int(fill[3:5], 16), int(fill[1:3], 16)
        seen.append((calls, (g, r), fill, tip.split('\n')[0]))
    seen.sort()
    bad = [f'{a[3]}({a[0]},{a[2]}) vs {b[3]}({b[0]},{b[2]})'
           for a, b in zip(seen, seen[1:]) if a[0] < b[0] and b[1] > a[1] or a[0] == b[0] and a[1] != b[1]]
    print('ok' if not bad else '; '.join(bad))
    print(seen[-1][2], seen[0][2])   # hottest and coldest fill
elif what == 'size':
    print(root.get('width').rstrip('pt'), root.get('height').rstrip('pt'))
EOF
}
