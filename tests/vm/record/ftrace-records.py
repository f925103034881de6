#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ftrace-records.py FILE - the function-tracer records of an uncompressed
trace.dat, from the ring-buffer pages themselves: for funcgraph_entry,
fgraph_retaddr_entry and function, how many records and how many carry
arguments (Linux 6.15+ funcgraph-args / func-args append them after the
fixed fields, which trace-cmd 3.1.6 prints as an empty "args=ARRAY[]").

Independent of kmag's reader: where the data lies comes from
`trace-cmd dump --flyrecord`, the event ids from `trace-cmd dump --ftrace`,
and the pages are walked here (ring-buffer event headers, 8-byte commit).
Prints one line per event: NAME RECORDS WITH_ARGS. Used by
t0420-record-6.19-vm.sh.
"""
import re
import struct
import subprocess
import sys

# bytes before the args[] tail of each event (the 6.19 formats)
FIXED = {"funcgraph_entry": 24, "fgraph_retaddr_entry": 32, "function": 24}


def dump(path, what):
    return subprocess.run(["trace-cmd", "dump", what, path], capture_output=True,
                          text=True, check=True).stdout


def event_ids(path):
    ids, name = {}, None
    for line in dump(path, "--ftrace").splitlines():
        m = re.match(r"name: (\S+)$", line.strip())
        if m:
            name = m.group(1)
        m = re.match(r"ID: (\d+)$", line.strip())
        if m and name in FIXED:
            ids[int(m.group(1))] = name
    return ids


def cpu_ranges(path):
    text = dump(path, "--flyrecord")
    if re.search(r'"buffer flyrecord ", flags 0x1', text):
        sys.exit("ftrace-records.py: the CPU data is compressed: record with --compression none")
    page = int(re.search(r"(\d+) \[Page size", text).group(1))
    ranges = [(int(m.group(1)), int(m.group(2)))
              for m in re.finditer(r"^\s+\d+ (\d+)\s+(\d+)\s+\[id, data offset", text, re.M)]
    return page, ranges


def walk_page(buf, ids, counts):
    commit = struct.unpack_from("<Q", buf, 8)[0] & 0xFFFFF
    off, end = 16, 16 + commit
    while off + 4 <= end:
        hdr = struct.unpack_from("<I", buf, off)[0]
        type_len = hdr & 31
        if type_len == 29:              # padding: the rest of the page or a discarded event
            if hdr >> 5 == 0:
                return
            off += 4 + struct.unpack_from("<I", buf, off + 4)[0]
            continue
        if type_len in (30, 31):        # time extend / absolute time stamp
            off += 8
            continue
        if type_len == 0:
            length = struct.unpack_from("<I", buf, off + 4)[0] - 4
            data = off + 8
            off = data + ((length + 3) & ~3)
        else:
            length = type_len * 4
            data = off + 4
            off = data + length
        name = ids.get(struct.unpack_from("<H", buf, data)[0])
        if name:
            counts[name][0] += 1
            if length > FIXED[name]:
                counts[name][1] += 1


def main():
    path = sys.argv[1]
    ids = event_ids(path)
    page, ranges = cpu_ranges(path)
    counts = {n: [0, 0] for n in FIXED}
    with open(path, "rb") as f:
        for start, size in ranges:
            f.seek(start)
            data = f.read(size)
            for p in range(0, len(data) - page + 1, page):
                walk_page(data[p:p + page], ids, counts)
    for name in sorted(counts):
        print(name, *counts[name])


main()
