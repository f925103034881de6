#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hostile-trace.py OUT [VARIANT]: write a function_graph text trace (with
the funcgraph-abstime and -proc columns) whose function and task names are
hostile to every output format: terminal control sequences, control bytes,
DEL, quotes, </script>, ]]>, &, backslashes, invalid UTF-8 (a stray
continuation byte, a truncated sequence, an overlong form, a surrogate, 0xff),
a NUL inside a name, a very long name, and a huge duration.
VARIANT 2 adds one more call, so diff has something to compare.
Written as bytes: the point is the bytes that are not text. Names avoid what ends a name in ftrace's text
(blanks, '(', ';'): they must reach the outputs.""" 
import sys

NAMES = [
    b"esc_\x1b[31mred\x1b[0m_\x1b]0:title\x07",  # SGR colour and an OSC to BEL
    b"ctl_\x01\x02\x08\x0b\x0c\x1f_\x7f_end",  # C0 controls (not tab/newline) and DEL
    b"c1_\xc2\x9b2J_csi",  # U+009B, the one-byte CSI of 8-bit terminals
    b"quote_\"'`_amp_&amp_&_lt_<_gt_>",
    b"</script><script>alert`1`</script>",
    b"cdata_]]>_<![CDATA[x",
    b"back\\slash\\N\\l\\",
    b"ok_utf8_\xe2\x80\xa6_\xf0\x9f\x94\xa5",
    b"=cmd|'/C_calc'!A0,\"x\"",  # a spreadsheet formula, a comma, quotes
    b"L" * 5000,
]
NUL_NAME = b"nul_before\x00nul_after"
COMM = b"ev\x1b[1m<il>\""  # the task column: a comm is bytes too


def line(ts, dur, depth, text):
    d = (b"%s us" % dur).rjust(12) if dur else b" " * 12
    return b"  %d.%06d |   0)  %s-42    | %s  |  %s%s\n" % (
        ts // 1000000, ts % 1000000, COMM, d, b"  " * depth, text)


def main():
    out, variant = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "1")
    ts = 100 * 1000000 + 1
    body = [line(ts, None, 0, b"do_hostile() {")]
    for n in NAMES:
        ts += 1
        body.append(line(ts, None, 1, n + b"() {"))
        ts += 1
        body.append(line(ts, b"1.000", 2, b"leaf_" + n[:40] + b"();"))
        ts += 3
        body.append(line(ts, b"5.000", 1, b"}"))
    if variant == "nul":
        ts += 1
        body.append(line(ts, b"2.000", 1, NUL_NAME + b"();"))
    ts += 1
    # a huge duration: 99999 s
    body.append(line(ts, b"99999999999.999", 1, b"huge_duration();"))
    ts += 2
    if variant == "2":
        body.append(line(ts, b"3.000", 1, NAMES[0] + b"();"))
        ts += 4
    body.append(line(ts, b"99999999999.999", 0, b"}"))
    with open(out, "wb") as f:
        f.write(b"# tracer: function_graph\n#\n"
                b"#     TIME        CPU  TASK/PID         DURATION                  FUNCTION CALLS\n")
        f.writelines(body)


main()
