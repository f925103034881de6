#!/usr/bin/env python3
"""Damage the first compressed CPU data block of a v7 trace.dat, for the
corruption tests (t0103).

    v7-damage.py IN OUT chunk   flip bytes inside the first zstd chunk
    v7-damage.py IN OUT count   make the chunk count claim 0xffffffff chunks
"""
import struct
import sys


def first_cpu_block(b):
    """Offset of the first page-aligned CPU data block after the flyrecord
    section header (v7: sections follow the header strings and options offset)."""
    i = 10 + 2 + 1 + 1 + 4          # magic, version string, endian, long size, page size
    i = b.index(0, i) + 1           # compression name
    i = b.index(0, i) + 1           # compression version
    i += 8                          # first options section offset
    while i + 16 <= len(b):
        sid, _flags, _, size = struct.unpack_from('<HHIQ', b, i)
        if sid == 3:                # flyrecord data
            return (i + 16 + 4095) // 4096 * 4096
        i += 16 + size
    sys.exit('v7-damage.py: no flyrecord section found')


def main():
    src, dst, mode = sys.argv[1:4]
    b = bytearray(open(src, 'rb').read())
    j = first_cpu_block(b)
    if mode == 'chunk':
        _count, csize, _usize = struct.unpack_from('<III', b, j)
        for k in range(j + 12 + 8, j + 12 + min(csize, 64)):
            b[k] ^= 0x5a
    elif mode == 'count':
        struct.pack_into('<I', b, j, 0xffffffff)
    else:
        sys.exit('v7-damage.py: mode is chunk or count')
    open(dst, 'wb').write(b)


main()
