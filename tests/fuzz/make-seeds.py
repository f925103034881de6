#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Make small seed inputs for the fuzzers from the real fixtures.

A fixture trace.dat carries the whole kallsyms (3.6 MB) and ~1400 event
formats; a fuzzer spends its time re-parsing those instead of exploring. This
rewrites a v6 fixture keeping only: the ftrace formats plus the sched system,
the kallsyms lines of functions the kept pages use (and every 200th other
one), and the first PAGES pages of each CPU. trace-cmd then converts the
result to v7+zstd for a second seed. Contents are otherwise unchanged (real
kernel records), so seeds stay realistic.

It also writes seeds for the other targets: raw CPU pages (fuzz-pages), the
first lines of each text fixture behind a selector byte (fuzz-text), and
small symbol maps in both formats (fuzz-symmap).

  make-seeds.py tests/fuzz/corpus   (from the repository root; needs xz, trace-cmd)
"""
import os
import struct
import subprocess
import sys

PAGES = 3
FIXTURES = ['fg-sched-v6.dat.xz', 'fn-lost-v6.dat.xz', 'fg-lost-v6.dat.xz', 'fg-2cpu-v6.dat.xz',
            # Linux 6.19: fgraph_retaddr_entry and args[] tails (v7 zstd, converted to v6 first)
            '6.19/fg619-args.dat', '6.19/fn619-args.dat']


def read_v6(fx):
    """The fixture @fx as v6 bytes: decompressed (.xz) or converted (a v7 file)."""
    path = 'tests/fixtures/traces/' + fx
    if fx.endswith('.xz'):
        return subprocess.run(['xz', '-dc', path], check=True, capture_output=True).stdout
    tmp = '/tmp/make-seeds-%d.dat' % os.getpid()
    subprocess.run(['trace-cmd', 'convert', '--file-version', '6', '--compression', 'none',
                    '-i', path, '-o', tmp], check=True, capture_output=True)
    with open(tmp, 'rb') as fp:
        raw = fp.read()
    os.unlink(tmp)
    return raw


class R:
    def __init__(self, b):
        self.b, self.p = b, 0

    def take(self, n):
        v = self.b[self.p:self.p + n]
        self.p += n
        return v

    def u(self, fmt):
        v = struct.unpack_from('<' + fmt, self.b, self.p)[0]
        self.p += struct.calcsize(fmt)
        return v

    def cstr(self):
        e = self.b.index(0, self.p)
        v = self.b[self.p:e]
        self.p = e + 1
        return v


def parse_v6(b):
    r = R(b)
    d = {'magic': r.take(10), 'ver': r.cstr()}
    assert d['ver'] == b'6'
    d['endian'], d['lsize'] = r.u('B'), r.u('B')
    d['page'] = r.u('I')
    r.take(12); d['hpage'] = r.take(r.u('Q'))
    r.take(13); d['hevent'] = r.take(r.u('Q'))
    d['ftrace'] = [r.take(r.u('Q')) for _ in range(r.u('I'))]
    d['systems'] = []
    for _ in range(r.u('I')):
        name = r.cstr()
        d['systems'].append((name, [r.take(r.u('Q')) for _ in range(r.u('I'))]))
    d['kallsyms'] = r.take(r.u('I'))
    d['printk'] = r.take(r.u('I'))
    d['cmdlines'] = r.take(r.u('Q'))
    d['cpus'] = r.u('I')
    tag = r.take(10)
    d['options'] = []
    if tag.startswith(b'options'):
        while True:
            oid = r.u('H')
            if oid == 0:
                break
            d['options'].append((oid, r.take(r.u('I'))))
        tag = r.take(10)
    assert tag.startswith(b'flyrecord'), tag
    d['cpu'] = [(r.u('Q'), r.u('Q')) for _ in range(d['cpus'])]
    d['clock'] = r.take(r.u('Q')) if any(o == 4 for o, _ in d['options']) else None
    d['data'] = [b[o:o + s] for o, s in d['cpu']]
    return d


def write_v6(d, path):
    out = bytearray()
    out += d['magic'] + b'6\0' + struct.pack('<BBI', d['endian'], d['lsize'], d['page'])
    out += b'header_page\0' + struct.pack('<Q', len(d['hpage'])) + d['hpage']
    out += b'header_event\0' + struct.pack('<Q', len(d['hevent'])) + d['hevent']
    out += struct.pack('<I', len(d['ftrace']))
    for f in d['ftrace']:
        out += struct.pack('<Q', len(f)) + f
    out += struct.pack('<I', len(d['systems']))
    for name, evs in d['systems']:
        out += name + b'\0' + struct.pack('<I', len(evs))
        for f in evs:
            out += struct.pack('<Q', len(f)) + f
    out += struct.pack('<I', len(d['kallsyms'])) + d['kallsyms']
    out += struct.pack('<I', len(d['printk'])) + d['printk']
    out += struct.pack('<Q', len(d['cmdlines'])) + d['cmdlines']
    out += struct.pack('<I', d['cpus'])
    out += b'options  \0'
    for oid, data in d['options']:
        out += struct.pack('<HI', oid, len(data)) + data
    out += struct.pack('<H', 0)
    out += b'flyrecord\0'
    table = len(out)
    out += b'\0' * (16 * d['cpus'])
    if d['clock'] is not None:
        out += struct.pack('<Q', len(d['clock'])) + d['clock']
    offs = []
    for data in d['data']:
        while len(out) % d['page']:
            out += b'\0'
        offs.append((len(out), len(data)))
        out += data
    for i, (o, s) in enumerate(offs):
        struct.pack_into('<QQ', out, table + 16 * i, o if s else 0, s)
    with open(path, 'wb') as fp:
        fp.write(out)


def main():
    root = sys.argv[1]
    outdir = os.path.join(root, 'tracedat')
    for sub in ('tracedat', 'pages', 'text', 'symmap'):
        os.makedirs(os.path.join(root, sub), exist_ok=True)
    for fx in FIXTURES:
        d = parse_v6(read_v6(fx))
        d['systems'] = [(n, e) for n, e in d['systems'] if n == b'sched']
        d['data'] = [x[:PAGES * d['page']] for x in d['data']]
        base = os.path.basename(fx).replace('-v6.dat.xz', '').replace('.dat', '')
        tmp = os.path.join(outdir, base + '.full.tmp')
        write_v6(d, tmp)
        rep = subprocess.run(['trace-cmd', 'report', tmp], capture_output=True, text=True,
                             errors='replace').stdout
        used = set()
        for line in rep.splitlines():
            for tok in line.replace('(', ' ').replace(')', ' ').replace(';', ' ').split():
                used.add(tok)
        keep = []
        for i, line in enumerate(d['kallsyms'].split(b'\n')):
            p = line.split()
            if len(p) >= 3 and (p[2].decode(errors='replace') in used or i % 200 == 0):
                keep.append(line)
        d['kallsyms'] = b'\n'.join(keep) + b'\n'
        v6 = os.path.join(outdir, base + '-v6.dat')
        write_v6(d, v6)
        os.unlink(tmp)
        subprocess.run(['trace-cmd', 'convert', '--file-version', '7', '--compression', 'zstd',
                        '-i', v6, '-o', os.path.join(outdir, base + '-v7.dat')],
                       check=True, capture_output=True)
        print(base, os.path.getsize(v6), os.path.getsize(os.path.join(outdir, base + '-v7.dat')))
        for cpu, data in enumerate(d['data']):
            if data:
                with open(os.path.join(root, 'pages', '%s-cpu%d.bin' % (base, cpu)), 'wb') as fp:
                    fp.write(data[:2 * d['page']])
    # text: selector byte (see fuzz-text.c: 0 none, 1 graph header, 2 function header, 3 cpus=)
    for name, sel in (('fn-text.txt', 0), ('fn-text-tgid-noirqinfo.txt', 0),
                      ('fn-text-pipe-lost.txt', 2), ('fg-text.txt', 0),
                      ('fg-text-proc-abstime-tail.txt', 0), ('fg-text-6.12.txt', 0),
                      ('fn-report.txt', 0), ('fg-report.txt', 3),
                      # Linux 6.19: ret=, <-caller+0x1f/0x80, f(a=1, b=0x2), latency format
                      ('6.19/fg619-args.txt', 0), ('6.19/fg619-hex-tail.txt', 0),
                      ('6.19/fg619-latency.txt', 0), ('6.19/fn619-args.txt', 0)):
        with open('tests/fixtures/traces/' + name, 'rb') as fp:
            lines = fp.read().split(b'\n')[:120]
        name = os.path.basename(name)
        with open(os.path.join(root, 'text', name), 'wb') as fp:
            fp.write(bytes([sel]) + b'\n'.join(lines) + b'\n')
    render_seeds(root)
    salvage_seeds(root)
    with open(os.path.join(root, 'symmap', 'seed.map'), 'w') as fp:
        fp.write('tcp_sendmsg|net/ipv4/tcp.c\nschedule|kernel/sched/core.c\n'
                 'vfs_read|/build/linux/fs/read_write.c\n')
    with open(os.path.join(root, 'symmap', 'kmag.map'), 'w') as fp:
        fp.write('# kmag symbol map v1\n# name\tfile\tline\taddr\tsize\tmodule\n'
                 'vfs_read\tfs/read_write.c\t450\tffffffff812a3b40\t480\t-\n'
                 'helper\tfs/a.c\t10\tffffffff81001000\t64\t-\n'
                 'helper\tmm/b.c\t20\tffffffff81002000\t64\t-\n'
                 'ext4_read\tfs/ext4/file.c\t99\t1000\t32\text4\n')


def salvage_seeds(root):
    """Damaged seeds (issue 23), so the fuzzers start inside the salvage paths:
    one flipped bit each in fg-2cpu's CPU 0 pages (a record header, an exit's
    rettime, a page's time, a commit cut short), a v7 file whose first zstd
    chunk does not decompress, and text with a line that is not UTF-8."""
    with open(os.path.join(root, 'pages', 'fg-2cpu-cpu0.bin'), 'rb') as fp:
        pages = fp.read()

    def flipped(name, off, bit):
        b = bytearray(pages)
        b[off] ^= 1 << bit
        with open(os.path.join(root, 'pages', 'salvage-' + name + '.bin'), 'wb') as fp:
            fp.write(b)

    first = 16                                          # the first record header
    exit_rec = next(i for i in range(16, 4096, 4)       # the first funcgraph_exit (id 10)
                    if pages[i] & 31 == 10 and struct.unpack_from('<H', pages, i + 4)[0] == 10)
    flipped('record-header', first, 1)                  # type_len 5 -> 7
    flipped('rettime', exit_rec + 4 + 32 + 6, 0)        # bit 48: a call of 281,474 s
    flipped('page-time', 4096 + 5, 0)                   # bit 40 of page 2's time
    flipped('commit-short', 8 + 1, 3)                   # a commit bit cleared or set
    v7 = bytearray(open(os.path.join(root, 'tracedat', 'fg-2cpu-v7.dat'), 'rb').read())
    i = 10 + 2 + 1 + 1 + 4
    i = v7.index(0, i) + 1
    i = v7.index(0, i) + 1
    i += 8
    while i + 16 <= len(v7):
        sid, _flags, _, size = struct.unpack_from('<HHIQ', v7, i)
        if sid == 3:
            j = (i + 16 + 4095) // 4096 * 4096          # the first CPU's chunk count
            v7[j + 12] ^= 0xff                          # the zstd frame's magic
            break
        i += 16 + size
    with open(os.path.join(root, 'tracedat', 'salvage-chunk-v7.dat'), 'wb') as fp:
        fp.write(v7)
    with open('tests/fixtures/traces/fn-text.txt', 'rb') as fp:
        lines = fp.read().split(b'\n')[:60]
    lines[20] = lines[20][:30] + b'\xff' + lines[20][31:]
    with open(os.path.join(root, 'text', 'salvage-not-utf8.txt'), 'wb') as fp:
        fp.write(b'\0' + b'\n'.join(lines) + b'\n')


# function names that are hostile to some output format (HTML, XML, JSON, CSV,
# DOT, a terminal, JavaScript: U+2028/9), a 300-byte name (the text reader
# refuses invalid UTF-8, so there is none here; the dictionary has it) and durations at the edge of the format
HOSTILE = [b'a"b\\c', b'</script><script>alert(1)</script>', b']]>&amp;<x>', b'=cmd|calc',
           b'ls\xe2\x80\xa8ps\xe2\x80\xa9', b'ctl\x01\x1b[31m\x7f', b'{}[]<>' + b'x' * 300,
           b'\xe2\x80\xa6\xf0\x9f\x94\xa5']


def render_seeds(root):
    """Seeds for fuzz-render-*: a few small real inputs and one of hostile names."""
    for sub in ('render-text', 'render-tracedat'):
        os.makedirs(os.path.join(root, sub), exist_ok=True)
    for name in ('fg-text.txt', 'fn-text.txt', 'fg-report.txt', 'fg619-args.txt'):
        with open(os.path.join(root, 'text', name), 'rb') as fp:
            lines = fp.read().split(b'\n')[:40]
        with open(os.path.join(root, 'render-text', name), 'wb') as fp:
            fp.write(b'\n'.join(lines) + b'\n')
    out = [b'\x01 0)               |  ' + HOSTILE[0] + b'() {']
    for i, n in enumerate(HOSTILE[1:]):
        out.append(b' %d) ! 9999999999.999 us |    %s();' % (i % 2, n))
    out.append(b' 0) @ 18446744073.709 us |  }')
    with open(os.path.join(root, 'render-text', 'fg-hostile-names.txt'), 'wb') as fp:
        fp.write(b'\n'.join(out) + b'\n')
    for name in ('fg-sched-v7.dat', 'fn-lost-v7.dat', 'fg-lost-v6.dat', 'fg619-args-v7.dat'):
        with open(os.path.join(root, 'tracedat', name), 'rb') as fp:
            data = fp.read()
        with open(os.path.join(root, 'render-tracedat', name), 'wb') as fp:
            fp.write(data)


if __name__ == '__main__':
    main()
