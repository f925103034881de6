#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Flip one bit at a time in the CPU data of a trace.dat and check that kmag
reads past the damage as issue 23 asks, against trace-cmd on the same file.

    bitflips.py KMAG FIXTURE SCRATCH COUNT SEED

For each of COUNT flips (chosen with SEED: random bytes of the CPU data, and
in uncompressed files also the places a flip does most harm: record headers,
page headers' time and commit, funcgraph_exit's calltime/rettime, call depths,
event types):

  - trace-cmd 3.1 (`trace-cmd report -R`, one line per record) reads the
    damaged file; the records it gets right are its lines that are lines of
    the undamaged file (counted with multiplicity);
  - `kmag report -F json` must exit 0 (no crash, no hang: 60 s), read at
    least as many events as trace-cmd got right, and when it read fewer than
    the undamaged file holds, say so on stderr; every damaged place it names
    is on the flipped CPU, in the flipped page or after it, with its numbers
    (bytes and events skipped, times moved, durations left out);
  - no call in its report lasts longer than the trace (a flipped rettime made
    a 281,474 s call of a 405 ms trace; but where the recorder overwrote
    events, a call may have begun before what is left), and its time range
    stays that of the undamaged file (but for a flip in a CPU's first page
    header, which no later page can contradict);
  - `kmag report --strict` exits 1 with one line exactly when the reading
    warned of damage, else 0;
  - `--reader libtracecmd` exits 0 too (libtraceevent's kbuffer walks a
    damaged page its own way: its count is not compared), or refuses a file
    whose zstd data is damaged (libtracecmd crashes on it) with one line.

Prints one line per failed check and a summary; exits 1 on a failure.
The expected counts come from trace-cmd and the undamaged file, never from kmag.
"""
import collections
import json
import os
import random
import re
import struct
import subprocess
import sys

HEAD = re.compile(r'^\s*\S.*\[\d+\]\s+\d+\.\d+:\s+\S+:')
WARN = re.compile(r'damaged: CPU (\d+), (?:zstd chunk at )?file offset (\d+)')
# what each warning must say: bytes and events skipped, or times moved, or durations left out
NUMBERS = re.compile(r'skipped \d+ bytes, (about )?\d+ events?$|nothing skipped$|'
                     r'\d+ events? moved to \d+\.\d+ s$|kept as recorded$|'
                     r'claims a call of \d+\.\d+ s .*left out$|by \d+\.\d+ s .*left out$')


def tc_records(path, cpu=None):
    """trace-cmd's records of @path (of CPU @cpu only: a flip damages one CPU's data)"""
    args = ['trace-cmd', 'report', '-R'] + (['--cpu', str(cpu)] if cpu is not None else [])
    out = subprocess.run(args + [path], capture_output=True, text=True, errors='replace',
                         timeout=120).stdout
    return collections.Counter(l for l in out.splitlines() if HEAD.match(l))


def cpu_regions(path):
    """(cpu, offset, size) of each CPU's data, as trace-cmd's dump lists them."""
    out = subprocess.run(['trace-cmd', 'dump', '--flyrecord', path], capture_output=True,
                         text=True, errors='replace').stdout
    regs = [(int(c), int(o), int(s)) for o, s, c in
            re.findall(r'^\s+(\d+)\s+(\d+)\s+\[offset, size of cpu (\d+)\]', out, re.M)]
    regs += [(int(c), int(o), int(s)) for c, o, s in
             re.findall(r'^\s+(\d+)\s+(\d+)\s+(\d+)\s+\[id, data offset and size\]', out, re.M)]
    return [r for r in regs if r[2]]


def ftrace_ids(path):
    out = subprocess.run(['trace-cmd', 'dump', '--ftrace-events', path], capture_output=True,
                         text=True, errors='replace').stdout
    return {n: int(i) for n, i in re.findall(r'name: (\w+)\nID: (\d+)', out)}


def records(b, off, size, page=4096):
    """(page offset, record offset, payload offset, payload length) of an uncompressed CPU's data"""
    for p in range(off, off + size, page):
        commit = struct.unpack_from('<Q', b, p + 8)[0] & ((1 << 27) - 1)
        d, i = p + 16, 0
        while i + 4 <= commit:
            h = struct.unpack_from('<I', b, d + i)[0]
            tl = h & 31
            if tl == 0:
                ln = struct.unpack_from('<I', b, d + i + 4)[0]
                pl = ((ln - 4) + 3) & ~3
                yield p, d + i, d + i + 8, pl
                i += 8 + pl
            elif tl <= 28:
                yield p, d + i, d + i + 4, tl * 4
                i += 4 + tl * 4
            elif tl == 29:
                a = struct.unpack_from('<I', b, d + i + 4)[0] if i + 8 <= commit else 0
                if not a:
                    break
                i += 4 + a
            else:
                i += 8


def choose(b, regs, compressed, ids, n, rng):
    """n flips (offset, bit, what), as many of each kind as there are kinds"""
    kinds = []
    exit_id = ids.get('funcgraph_exit')
    graph = {ids.get('funcgraph_entry'), exit_id} - {None}
    recs = [] if compressed else [(c, r) for c, o, s in regs for r in records(b, o, s)]
    first_pages = {o for c, o, s in regs}

    def random_byte():
        c, o, s = rng.choice(regs)
        return o + rng.randrange(s), rng.randrange(8), 'byte'

    kinds.append(random_byte)
    if recs:
        def header():
            c, (p, r, po, pl) = rng.choice(recs)
            return r + rng.randrange(4), rng.randrange(8), 'record header'

        def page_time():
            c, o, s = rng.choice(regs)
            p = o + 4096 * rng.randrange(s // 4096)
            return p + rng.randrange(2, 6), rng.randrange(8), 'page time'

        def commit():
            c, o, s = rng.choice(regs)
            p = o + 4096 * rng.randrange(s // 4096)
            return p + 8 + rng.randrange(2), rng.randrange(8), 'page commit'

        def typed(want, lo, hi, what):
            pick = [x for x in recs if struct.unpack_from('<H', b, x[1][2])[0] in want]
            if not pick:
                return random_byte()
            c, (p, r, po, pl) = rng.choice(pick)
            return po + rng.randrange(lo, hi), rng.randrange(8), what

        kinds += [header, header, page_time, commit,
                  lambda: typed({exit_id}, 28, 32, 'calltime'),
                  lambda: typed({exit_id}, 36, 40, 'rettime'),
                  lambda: typed(graph, 17, 20, 'depth'),
                  lambda: typed(set(ids.values()), 1, 2, 'event type')]
    flips, seen = [], set()
    while len(flips) < n:
        off, bit, what = kinds[len(flips) % len(kinds)]()
        if (off, bit) in seen:
            continue
        seen.add((off, bit))
        first_hdr = not compressed and off - off % 4096 in first_pages and off % 4096 < 16
        flips.append((off, bit, what, first_hdr))
    return flips


def run(cmd):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, errors='replace', timeout=60)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return 'timeout', '', ''


def main():
    kmag, fixture, scratch, count, seed = sys.argv[1:6]
    b = open(fixture, 'rb').read()
    compressed = b[10:11] == b'7' and b'zstd\0' in b[12:40]
    regs = cpu_regions(fixture)
    if not regs:
        sys.exit('bitflips.py: trace-cmd lists no CPU data in %s' % fixture)
    orig = {c: tc_records(fixture, c) for c, o, sz in regs}
    total = sum(sum(o.values()) for o in orig.values())
    ref = json.loads(run([kmag, 'report', '-F', 'json', fixture])[1])
    if ref['events'] != total:
        sys.exit('bitflips.py: kmag reads %d events of the undamaged file, trace-cmd %d'
                 % (ref['events'], total))
    has_tracecmd = '+libtracecmd' in run([kmag, '--version'])[1]
    # a buffer that overwrote events may hold the exit of a call begun before
    # what is left of it: such calls may last longer than the trace
    opts = subprocess.run(['trace-cmd', 'dump', '--options', fixture], capture_output=True,
                          text=True, errors='replace').stdout
    overwrote = any(int(n) for n in re.findall(r'^overrun: (\d+)', opts, re.M))
    rng = random.Random(int(seed))
    flips = choose(b, regs, compressed, ftrace_ids(fixture), int(count), rng)
    path = os.path.join(scratch, 'flipped.dat')
    fails, sum_k, sum_tc, warned = [], 0, 0, 0
    for off, bit, what, first_hdr in flips:
        d = bytearray(b)
        d[off] ^= 1 << bit
        open(path, 'wb').write(d)
        tag = '%s: %s flip at %d bit %d' % (os.path.basename(fixture), what, off, bit)
        cpu = next(c for c, o, sz in regs if o <= off < o + sz)
        # the other CPUs' data is as it was: trace-cmd reads it right
        good = total - sum(orig[cpu].values()) + sum((orig[cpu] & tc_records(path, cpu)).values())
        rc, out, err = run([kmag, 'report', '-F', 'json', path])
        if rc != 0:
            fails.append('%s: kmag report exits %s: %s' % (tag, rc, err.strip()[:300]))
            continue
        r = json.loads(out)
        sum_k += r['events']
        sum_tc += good
        damaged = 'damaged:' in err
        warned += damaged
        if r['events'] < good:
            fails.append('%s: kmag reads %d events, trace-cmd %d right' % (tag, r['events'], good))
        if r['events'] < total and not damaged:
            fails.append('%s: %d of %d events read, no warning of damage: %s'
                         % (tag, r['events'], total, err.strip()[:300]))
        for line in err.splitlines():
            if 'damaged:' in line and not NUMBERS.search(line):
                fails.append('%s: a warning without its numbers: %s' % (tag, line))
        for line in err.splitlines():
            m = WARN.search(line)
            if not m:
                continue
            c, o = int(m.group(1)), int(m.group(2))
            # a page's records past the start of the next one: the next page's
            # time may be what was flipped (earlier), the page before is said
            earliest = off - off % 4096 - (4096 if 'next page' in line else 0)
            inside = any(ro <= o < ro + rs + 4 for rc_, ro, rs in regs)
            if c != cpu or not inside or (not compressed and o < earliest):
                fails.append('%s: the warning points elsewhere: %s' % (tag, line))
        span = r['time_end_ns'] - r['time_start_ns']
        longest = max((f['max_ns'] for f in r['functions'] if f.get('max_ns') is not None),
                      default=0)
        if longest > span + 10**9 and not overwrote:
            fails.append('%s: a call of %.6f s in a trace of %.6f s' % (tag, longest / 1e9, span / 1e9))
        if not first_hdr and (r['time_start_ns'] < ref['time_start_ns'] - 10**9 or
                              r['time_end_ns'] > ref['time_end_ns'] + 10**9):
            fails.append('%s: time range %.6f .. %.6f s, undamaged %.6f .. %.6f s'
                         % (tag, r['time_start_ns'] / 1e9, r['time_end_ns'] / 1e9,
                            ref['time_start_ns'] / 1e9, ref['time_end_ns'] / 1e9))
        rc2, out2, err2 = run([kmag, 'report', '--strict', path])
        lines = err2.strip().splitlines()
        if damaged and (rc2 != 1 or len(lines) != 1 or 'damaged trace.dat: ' not in err2):
            fails.append('%s: --strict exits %s: %s' % (tag, rc2, err2.strip()[:300]))
        if not damaged and rc2 != 0:
            fails.append('%s: --strict exits %s without damage: %s' % (tag, rc2, err2.strip()[:300]))
        if has_tracecmd:
            rc3, out3, err3 = run([kmag, 'report', '--reader', 'libtracecmd', '-F', 'json', path])
            # damaged zstd data crashes libtracecmd: kmag refuses it before
            if rc3 != 0 and not (rc3 == 1 and 'libtracecmd does not survive it' in err3):
                fails.append('%s: --reader libtracecmd exits %s: %s' % (tag, rc3, err3.strip()[:300]))
    for f in fails:
        print(f)
    print('%s: %d flips: kmag read %d events, trace-cmd %d right (of %d each); %d warned of damage'
          % (os.path.basename(fixture), len(flips), sum_k, sum_tc, total, warned))
    sys.exit(1 if fails else 0)


main()
