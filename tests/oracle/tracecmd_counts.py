#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Recompute per-function call counts and caller->callee edge counts of a
trace.dat from trace-cmd's own decoding, independently of kmag.

  tracecmd_counts.py FILE.dat            -> JSON on stdout
  tracecmd_counts.py --compare KMAG.json FILE.dat
                                          -> compares with `kmag report --format json`

Function tracer: `trace-cmd report -O parent=1` prints "function: f <-- p";
every record is one call of f from p.

function_graph: `trace-cmd report -R -l` prints raw records with their
context flags ("comm-pid cpu-0xflags ts: funcgraph_entry: func=f depth=d").
Records are replayed per task with the kernel's depth field: an entry at depth
d is called by the open call at depth d-1; an exit at depth d whose entry is
not open is still one call (the trace started or lost records mid-call), and
names the caller of calls entered under it meanwhile; missing levels below an
entry or such an exit become placeholders, named by their own exits. An
interrupt in a call's window (include/kmag/replay.h) is held until the
call's exit: an entry at the depth of the open call, in a more interrupted
context than the task's previous record (a hardirq/softirq/NMI flag it
lacked, or interrupts newly off), is held with the records below it until
the task's exit at that depth: if the exit's duration holds the interrupt's
top calls and the call's own, the interrupt goes one level deeper, inside
it, else after it. An entry two levels below the open call, in a more
interrupted context, is held with the call that enters at the missing
level, until that call's exit: inside it (its entry first) if its duration
holds the interrupt's calls and its own, else before it, one level up. A
window ends as the records came at lost events, and with the records
nested as the depths say when another task runs on its CPU or the trace
ends. This is the documented semantics of kmag's model, implemented
here separately for cross-checking.

Every funcgraph_exit record is one timed call of its function, lasting
rettime - calltime: per function, the number of timed calls and the mean
(kmag's avg_ns, the mean of all its calls, a recursion's inner ones too).
"""
import json
import re
import subprocess
import sys
from collections import Counter, defaultdict

HEAD = re.compile(r'^\s*(?P<comm>.*)-(?P<pid>\d+)\s+(?:\(\s*[-\d]+\)\s+)?(?:\[(?P<cpu>\d+)\]|(?P<lcpu>\d+)-0x(?P<flags>[0-9a-f]+))\s+(?:\S+\s+)?(?P<ts>\d+\.\d+):\s+(?P<event>[\w:.-]+):\s*(?P<rest>.*)$')
LOST = re.compile(r'^\s*CPU:\s*(\d+)\s+\[(?:LOST (\d+) EVENTS|(\d+) EVENTS DROPPED|EVENTS DROPPED)\]')


def run(args):
    out = subprocess.run(['trace-cmd', 'report'] + args, check=True, capture_output=True, text=True,
                         errors='replace')
    return out.stdout.splitlines()


class Frame:
    __slots__ = ('func', 'children', 'lost', 'child_ns')

    def __init__(self, func):
        self.func = func          # None: entered before the trace (placeholder)
        self.children = Counter()  # calls recorded under a placeholder
        self.lost = False         # events were lost while it was open
        self.child_ns = 0         # durations of the calls it made


IRQ = 0x08 | 0x10 | 0x40          # TRACE_FLAG_HARDIRQ, _SOFTIRQ, _NMI
HELD_MAX = 8192


def more_interrupted(now, before):
    n, b = now & IRQ, before & IRQ
    if n != b:
        return n & b == b
    return bool(now & 1) and not before & 1     # TRACE_FLAG_IRQS_OFF


class Task:
    def __init__(self):
        self.st = {}              # depth -> Frame
        self.flags = None         # context of its previous record
        self.cpu = None
        self.win = None           # the window it holds: kind, depth, flags before
        self.held = []            # the records held
        self.call = None          # entry window: index in held of the call's entry


def graph_counts(lines):
    calls, edges = Counter(), Counter()
    timed, durations = Counter(), Counter()
    tasks = defaultdict(Task)
    holding = set()               # tasks holding a window
    events = 0

    def apply(st, kind, f, d, dur):
        def caller_of(depth, callee):
            parent = st.get(depth - 1)
            if parent is None:
                return
            if parent.func is None:
                parent.children[callee] += 1
            else:
                edges[(parent.func, callee)] += 1

        if kind == 'funcgraph_entry':
            for k in [k for k in st if k >= d]:
                del st[k]
            for k in range(d):          # missing levels below become placeholders
                st.setdefault(k, Frame(None))
            calls[f] += 1
            caller_of(d, f)
            st[d] = Frame(f)
            return
        def ran(dur):               # the enclosing call ran it
            below = [k for k in st if k < d]
            if below and dur is not None:
                st[max(below)].child_ns += dur

        for k in [k for k in st if k > d]:
            del st[k]
        fr = st.get(d)
        if fr is not None and fr.func == f:
            del st[d]
            ran(dur)
            return
        # an exit whose entry is not open: one more call of f
        calls[f] += 1
        if fr is not None and fr.func is None:
            for child, n in fr.children.items():
                edges[(f, child)] += n
        st.pop(d, None)
        for k in range(d):          # its missing callers become placeholders too
            st.setdefault(k, Frame(None))
        caller_of(d, f)
        ran(dur)

    def plain(t, r, shift=0):
        kind, f, d, flags, dur = r
        t.flags = flags
        apply(t.st, kind, f, d + shift, dur)

    def held_time(recs, depth):
        return sum(r[4] for r in recs if r[0] == 'funcgraph_exit' and r[2] == depth and r[4] is not None)

    def release(t, inside):
        """Replays the held records: nested as the depths say, or as they came."""
        holding.discard(t)
        held, kind, c = t.held, t.win[0], t.call
        t.win, t.held, t.call = None, [], None
        if inside and kind == 'return':
            for h in held:
                plain(t, h, 1)
        elif inside and kind == 'entry' and c is not None:
            plain(t, held[c])
            for h in held[:c] + held[c + 1:]:
                plain(t, h)
        else:
            for h in held:
                plain(t, h)

    def hold(t, r, inside):
        if len(t.held) < HELD_MAX:
            t.held.append(r)
            return
        release(t, inside)
        plain(t, r)

    def in_window(t, r):
        kind, f, d, flags, dur = r
        w, irq, entry = t.win[1], more_interrupted(flags, t.win[2]), kind == 'funcgraph_entry'
        if t.win[0] == 'return':
            if d > w or (d == w and irq):
                return hold(t, r, True)
            if d == w and not entry:
                # the call's duration holds the interrupt and its calls: inside; else after it
                need = held_time(t.held, w) + t.st[max(t.st)].child_ns
                holding.discard(t)
                held, t.win, t.held = t.held, None, []
                if dur is None or dur >= need:
                    for h in held:
                        plain(t, h, 1)
                    return plain(t, r)
                plain(t, r)
                for h in held:
                    plain(t, h)
                return
        elif t.call is None:
            if d > w:
                return hold(t, r, False)
            if d == w and entry and not irq:
                hold(t, r, False)
                if t.win:
                    t.call = len(t.held) - 1
                return
        else:
            if d > w:
                return hold(t, r, True)
            if d == w and not entry and f == t.held[t.call][1]:
                c, held = t.call, t.held
                if dur is None or dur >= held_time(held[:c], w + 1) + held_time(held[c + 1:], w + 1):
                    release(t, True)
                    return plain(t, r)
                holding.discard(t)
                t.win, t.held, t.call = None, [], None
                for h in held[:c]:      # before the call: its caller's
                    plain(t, h, -1)
                for h in held[c:]:
                    plain(t, h)
                return plain(t, r)
            release(t, True)
            return plain(t, r)
        release(t, False)
        plain(t, r)

    def record(t, r):
        kind, f, d, flags, dur = r
        if t.win:
            return in_window(t, r)
        st = t.st
        if kind == 'funcgraph_entry' and st and t.flags is not None and \
                not st[max(st)].lost and more_interrupted(flags, t.flags):
            top = max(st)
            if d in (top, top + 2):
                t.win = ('return' if d == top else 'entry', d if d == top else d - 1, t.flags)
                t.held = [r]
                return
        plain(t, r)

    for line in lines:
        lost = LOST.match(line)
        if lost:
            cpu = int(lost.group(1))
            for t in tasks.values():
                if t.cpu != cpu:
                    continue
                if t.win:
                    release(t, False)
                for fr in t.st.values():
                    fr.lost = True
            continue
        m = HEAD.match(line)
        if not m:
            continue
        events += 1
        ev = m.group('event')
        if ev not in ('funcgraph_entry', 'funcgraph_exit'):
            continue
        f = re.search(r'func=(\S+)', m.group('rest')).group(1)
        d = int(re.search(r'depth=(\d+)', m.group('rest')).group(1))
        times = re.search(r'calltime=(?:0x)?([0-9a-f]+) rettime=(?:0x)?([0-9a-f]+)', m.group('rest'))
        dur = int(times.group(2), 16) - int(times.group(1), 16) if times else None
        if ev == 'funcgraph_exit' and dur is not None:
            timed[f] += 1
            durations[f] += dur
        pid = int(m.group('pid'))
        cpu = int(m.group('cpu') or m.group('lcpu'))
        task = pid if pid > 0 else ('idle', cpu)
        t = tasks[task]
        # another task on the CPU of a held interrupt: the interrupt is over
        for o in [o for o in holding if o is not t and o.cpu == cpu]:
            release(o, True)
        t.cpu = cpu
        record(t, (ev, f, d, int(m.group('flags') or '0', 16), dur))
        if t.win:
            holding.add(t)
    for t in list(holding):     # the end of the trace
        release(t, True)
    return events, calls, edges, timed, durations


def function_counts(lines):
    calls, edges = Counter(), Counter()
    events = 0
    for line in lines:
        m = HEAD.match(line)
        if not m:
            continue
        events += 1
        if m.group('event') != 'function':
            continue
        rest = m.group('rest')
        if '<--' in rest:
            f, p = [s.strip() for s in rest.split('<--', 1)]
        else:
            f, p = rest.strip(), None
        calls[f] += 1
        if p:
            edges[(p, f)] += 1
    return events, calls, edges, Counter(), Counter()


def counts(path):
    raw = run(['-R', '-l', path])
    tracer = 'function_graph' if any('funcgraph_' in l for l in raw[:5000]) or \
        any(' funcgraph_entry:' in l for l in raw) else 'function'
    if tracer == 'function_graph':
        events, calls, edges, timed, durations = graph_counts(raw)
    else:
        events, calls, edges, timed, durations = function_counts(run(['-O', 'parent=1', path]))
    return {'tracer': tracer, 'events': events, 'calls': calls, 'edges': edges, 'timed': timed,
            'durations': durations}


def alias_key(path):
    """Names that share an address in the trace's kallsyms are one function;
    tools may pick different aliases (libtraceevent's choice among them is
    arbitrary), so counts are compared per address."""
    out = subprocess.run(['trace-cmd', 'dump', '--kallsyms', path], capture_output=True,
                         text=True, errors='replace').stdout
    addr_of = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] in 'tTwW' and len(parts[1]) == 1:
            addr_of.setdefault(parts[2], parts[0])
    return lambda name: addr_of.get(name, name)


def compare(kmag_json, path):
    ref = counts(path)
    key = alias_key(path)
    with open(kmag_json) as fp:
        got = json.load(fp)
    problems = []
    if got['events'] != ref['events']:
        problems.append('events: kmag %d, trace-cmd %d' % (got['events'], ref['events']))

    def by_key(calls, name_of):
        c = Counter()
        for k, n in calls:
            c[name_of(k)] += n
        return c
    kcalls = by_key(((f['name'], f['calls']) for f in got['functions']), key)
    rcalls = by_key(ref['calls'].items(), key)
    for name in set(kcalls) | set(rcalls):
        a, b = kcalls.get(name, 0), rcalls.get(name, 0)
        if a != b:
            problems.append('calls of %s: kmag %d, trace-cmd %d' % (name, a, b))
    # the mean of all timed calls (names that share an address: compare their sums)
    ktimed = by_key(((f['name'], f['timed']) for f in got['functions']), key)
    ksum = by_key(((f['name'], f.get('sum_ns') or 0) for f in got['functions']), key)
    kavg = {key(f['name']): f['avg_ns'] for f in got['functions'] if f['timed']}
    rtimed = by_key(ref['timed'].items(), key)
    rsum = by_key(ref['durations'].items(), key)
    for name in set(ktimed) | set(rtimed):
        n = rtimed.get(name, 0)
        if ktimed.get(name, 0) != n:
            problems.append('timed calls of %s: kmag %d, trace-cmd %d' % (name, ktimed.get(name, 0), n))
        elif ksum.get(name, 0) != rsum.get(name, 0):
            problems.append('durations of %s: kmag %d ns, trace-cmd %d ns' %
                            (name, ksum.get(name, 0), rsum.get(name, 0)))
        if n and kavg.get(name) != rsum[name] // n:
            problems.append('avg of %s: kmag %s, trace-cmd %d' % (name, kavg.get(name), rsum[name] // n))
    kedges = by_key((((e['caller'], e['callee']), e['calls']) for e in got['edges']),
                    lambda e: (key(e[0]), key(e[1])))
    redges = by_key(ref['edges'].items(), lambda e: (key(e[0]), key(e[1])))
    for k in set(kedges) | set(redges):
        a, b = kedges.get(k, 0), redges.get(k, 0)
        if a != b:
            problems.append('edge %s -> %s: kmag %d, trace-cmd %d' % (k[0], k[1], a, b))
    print('%s: %s, %d events, %d functions, %d edges checked' %
          (path, ref['tracer'], ref['events'], len(ref['calls']), len(ref['edges'])))
    for p in sorted(problems)[:40]:
        print('  MISMATCH ' + p)
    return 1 if problems else 0


def main():
    if len(sys.argv) == 4 and sys.argv[1] == '--compare':
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    r = counts(sys.argv[1])
    json.dump({'tracer': r['tracer'], 'events': r['events'], 'functions': dict(r['calls']),
               'edges': ['%s -> %s: %d' % (a, b, n) for (a, b), n in sorted(r['edges'].items())]},
              sys.stdout, indent=1)


if __name__ == '__main__':
    main()
