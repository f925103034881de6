#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hostile-tracedat.py IN.dat OUT.dat: a copy of a trace.dat v6 whose kallsyms
names three of the traced functions with bytes no output may pass on raw:
bytes that are not UTF-8 (0xff, an overlong form, a surrogate, a truncated
sequence, a stray continuation byte), an ESC colour sequence, a control
byte, '<', '&', a quote. Text traces cannot carry these (kmag's text reader
refuses bytes that are not UTF-8), but kallsyms in a trace.dat is whatever the
file says. Each name keeps its length, so every section size stays right.
Prints the three names, one per line, as Python byte literals."""
import re
import sys

SWAP = {
    b"__cond_resched": b"bad\xff\xc0\xaf\xed\xa0\x80\xe2\x82_\x80x",
    b"_raw_spin_lock": b"esc\x1b[31m</>\x01&\"",
    b"generic_permission": b"abccut_utf8_\xe2\x80\xa6\xf0\x9f\x94",
}


def main():
    data = open(sys.argv[1], "rb").read()
    if data[:10] != b"\x17\x08\x44tracing" or data[10:11] != b"6":
        sys.exit("hostile-tracedat.py: %s is not a trace.dat v6" % sys.argv[1])
    for old, new in SWAP.items():
        assert len(old) == len(new), old
        pat = re.compile(rb"(\n[0-9a-f]{16} [tTwW] )" + re.escape(old) + rb"(?=[\n\t])")
        data, n = pat.subn(lambda m: m.group(1) + new, data)
        if n != 1:
            sys.exit("hostile-tracedat.py: %r is in kallsyms %d times, not once" % (old, n))
        print(repr(new))
    open(sys.argv[2], "wb").write(data)


main()
