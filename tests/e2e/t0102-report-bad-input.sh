#!/bin/bash
# Bad input never crashes kmag report: one clear error line, exit 1.
# (This suite also runs under ASan/UBSan and valgrind in scripts/test-all.sh.)
. "$(dirname "$0")/lib.sh"

bad() {	# bad DESC FILE PATTERN [OPTION...]
	t_exit "$1: exit 1, one line" 1 "$KMAG" report "${@:4}" "$2"
	t_grep "$1: the error says why" "$3" "$T/err"
}

: >"$T/empty"
bad "empty file" "$T/empty" 'is empty'
head -c 65536 /dev/urandom >"$T/random"
printf 'XX' | dd of="$T/random" conv=notrunc status=none
bad "random bytes" "$T/random" 'neither a trace.dat file nor ftrace text|UTF-8'
bad "missing file" "$T/nope.dat" 'cannot open .*nope.dat'
bad "a directory" "$T" 'is a directory'

v7=$TRACES/fg-filtered.dat
v6=$(fixture_trace fg-filtered-v6.dat)
cp "$v7" "$T/badmagic.dat"; printf '\x18' | dd of="$T/badmagic.dat" conv=notrunc status=none
bad "wrong magic" "$T/badmagic.dat" 'neither a trace.dat|not a trace.dat'
cp "$v7" "$T/badver.dat"; printf '9' | dd of="$T/badver.dat" bs=1 seek=10 conv=notrunc status=none
bad "unsupported version" "$T/badver.dat" 'version "9" is not supported'
printf '\x17\x08\x44tracing' >"$T/onlymagic.dat"
bad "magic only" "$T/onlymagic.dat" 'truncated trace.dat'

# truncated at many points, including inside every part of the header
for src in "$v7" "$v6"; do
	size=$(stat -c %s "$src")
	for cut in 11 13 20 40 100 300 1000 5000 50000 200000 $((size / 2)) $((size - 4096)) $((size - 1)); do
		[ "$cut" -lt "$size" ] || continue
		head -c "$cut" "$src" >"$T/cut.dat"
		bad "$(basename "$src") cut at $cut bytes" "$T/cut.dat" 'truncated trace.dat|corrupt trace.dat'
	done
done

# a section that claims an absurd size
cp "$v7" "$T/huge.dat"
python3 - "$T/huge.dat" <<'PY'
import struct, sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
# v7: after magic(10) "7\0" endian longsize pagesize(4) "zstd\0" version\0 -> u64 options offset
i = 10 + 2 + 1 + 1 + 4
i = b.index(0, i) + 1
i = b.index(0, i) + 1
off = struct.unpack_from('<Q', b, i)[0]
# the options section header: u16 id, u16 flags, u32 string, u64 size
struct.pack_into('<Q', b, off + 8, 1 << 63)
open(p, 'wb').write(b)
PY
bad "section claiming 2^63 bytes" "$T/huge.dat" 'claims [0-9]+ bytes'

# text with a line that is not UTF-8 / has a NUL byte: the line is skipped
# with a warning (issue 23), an error only with --strict
{ echo "# tracer: function"; echo "  ls-97 [000] .... 1.000000: vfs_read <-ksys_read"; printf '  ls-97 [000] .... 1.000001: vfs_\xff\xfe <-x\n'; } >"$T/badutf8.txt"
t_exit "text with invalid UTF-8: read past it" 0 "$KMAG" report "$T/badutf8.txt"
t_grep "... the warning names line and column" 'warning: .*badutf8.txt: damaged: line 3, column 34: a byte that is not UTF-8 text; line skipped' "$T/err"
bad "text with invalid UTF-8, --strict" "$T/badutf8.txt" 'damaged text: line 3, column [0-9]+: a byte that is not UTF-8' --strict
{ echo "# tracer: function"; printf '  ls-97 [000] .... 1.000001: vfs\0read <-x\n'; } >"$T/nul.txt"
bad "text with a NUL byte, --strict" "$T/nul.txt" 'NUL byte' --strict
printf '\x28\xb5\x2f\xfd rest' >"$T/x.zst"
bad "a zstd file" "$T/x.zst" 'decompress it first'

# filters that remove everything are not an error, but are said
t_exit "a filter that removes everything (issue 18: exit 1, as every command)" 1 "$KMAG" report --pid 999999 "$v7"
t_grep "... says so and what the trace holds" 'matches the filters \(pid 999999\); the trace holds .* on CPUs' "$T/err"
t_exit "a malformed pid filter is a usage error" 2 "$KMAG" report --pid abc "$v7"
t_exit "a malformed cpu filter is a usage error" 2 "$KMAG" report --cpu 3-1 "$v7"
t_exit "a malformed time filter is a usage error" 2 "$KMAG" report --time 5 "$v7"
t_exit "an unknown function for --callers is an error" 1 "$KMAG" report --callers no_such_fn "$v7"
t_done
