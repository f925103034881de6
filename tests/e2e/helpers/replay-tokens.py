#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""replay-tokens.py - the call lines of function_graph text, per task or CPU.

    replay-tokens.py KIND FILE > tokens

KIND says who wrote FILE:
  tracecmd  `trace-cmd report` of a function_graph trace.dat
            ("comm-pid [cpu] ts: funcgraph_entry: dur | f();"), or
            `trace-cmd report -l` ("comm-pid 1d.h2. ts: ..."): with the
            context flags, an interrupt in a call's window (its first line
            at the depth of the open call or two levels below it, in a more
            interrupted context; include/kmag/replay.h) is placed as the
            call's duration says: inside the call (after the call's line,
            before its "}"), or after its "}" / before its line
  kernel    the kernel's tracefs "trace" text (" 1) dur | f();", no task column)
  kmag      `kmag replay` text ("ts | cpu) comm-pid | dur | f();")

Prints one line per call line, grouped by task (tracecmd, kmag: comm-pid) or
CPU (kernel, and kmag --by-cpu): "KEY f() {", "KEY f(); 1.234", "KEY } 5.678".
Lines of one key stay in their order; keys are sorted. Calls whose exit a
trace lacks have no closing line in either (kmag prints them as comments).
Written from the formats' own text, independently of kmag's reader.
"""
import re
import sys

DUR = r'(?:[+!#*@$] )?\s*([0-9]+\.[0-9]+) us'


def body_tokens(body, dur):
    body = body.strip()
    m = re.match(r'([A-Za-z0-9_.\[\]]+)\(\) \{', body)
    if m:
        return f'{m.group(1)}() {{'
    m = re.match(r'([A-Za-z0-9_.\[\]]+)\(\);', body)
    if m:
        return f'{m.group(1)}(); {dur}'
    if body.startswith('}'):
        return f'}} {dur}'
    return None


def lat_ctx(flags):
    """(interrupt bits, irqs off) of a latency flags column such as "d.h2." """
    irq = {'h': 1, 'H': 3, 's': 2, 'z': 4, 'Z': 5}.get(flags[2], 0) if len(flags) > 2 else 0
    return irq, flags[:1] in ('d', 'D')


def more_interrupted(now, before):
    if now[0] != before[0]:
        return now[0] & before[0] == before[0]
    return now[1] and not before[1]


class Windows:
    """Interrupts in a call's window (trace-cmd -l text, include/kmag/replay.h),
    per task: held until the call returns, then placed as its duration says.
    A line is (depth, kind, token, context, duration in ns or None)."""

    def __init__(self):
        self.depth = {}     # task -> depth of its open call (-1: none)
        self.ctx = {}       # task -> context of its last line
        self.win = {}       # task -> [kind, depth, context before, lines, index of the call]
        self.child = {}     # task -> {depth: durations of the calls made at that depth}

    @staticmethod
    def time(lines, depth):
        return sum(ln[4] for ln in lines if ln[1] != 'entry' and ln[0] == depth and ln[4] is not None)

    def feed(self, key, ln, out):
        depth, kind, tok, ctx, dur = ln
        w = self.win.get(key)
        if not w:
            top = self.depth.get(key, -1)
            if kind != 'exit' and key in self.ctx and top >= 0 and depth in (top, top + 2) and \
                    more_interrupted(ctx, self.ctx[key]):
                self.win[key] = ['return' if depth == top else 'entry',
                                 depth if depth == top else depth - 1, self.ctx[key], [ln], None]
                return
            return self.line(key, ln, out)
        kind_w, d, before, held, call = w
        irq = more_interrupted(ctx, before)
        if kind_w == 'return':
            if depth > d or (depth == d and irq):
                return held.append(ln)
            if depth == d and kind == 'exit':
                del self.win[key]
                need = self.time(held, d) + self.child.get(key, {}).get(d + 1, 0)
                order = held + [ln] if dur is None or dur >= need else [ln] + held
                for h in order:
                    self.line(key, h, out)
                return
        elif call is None:
            if depth > d:
                return held.append(ln)
            if depth == d and kind == 'entry' and not irq:
                held.append(ln)
                w[4] = len(held) - 1
                return
            if depth == d and kind == 'leaf' and not irq:   # the call, its exit next to its entry
                del self.win[key]
                if dur is None or dur >= self.time(held, d + 1):     # inside: split the leaf
                    order = [(d, 'entry', tok.split('(')[0] + '() {', ctx, None)] + held + \
                        [(d, 'exit', '} ' + tok.split(' ')[-1], ctx, dur)]
                else:
                    order = held + [ln]
                for h in order:
                    self.line(key, h, out)
                return
        else:
            if depth > d:
                return held.append(ln)
            if depth == d and kind == 'exit':
                del self.win[key]
                inside = dur is None or dur >= self.time(held[:call], d + 1) + \
                    self.time(held[call + 1:], d + 1)
                order = [held[call]] + held[:call] + held[call + 1:] if inside else held
                for h in order + [ln]:
                    self.line(key, h, out)
                return
        del self.win[key]
        for h in held + [ln]:
            self.line(key, h, out)

    def line(self, key, ln, out):
        depth, kind, tok, ctx, dur = ln
        self.ctx[key] = ctx
        self.depth[key] = depth if kind == 'entry' else depth - 1
        child = self.child.setdefault(key, {})
        if kind == 'entry':
            child[depth + 1] = 0
        elif dur is not None:
            child[depth] = child.get(depth, 0) + dur
        out.setdefault(key, []).append(tok)


def main():
    kind, path = sys.argv[1], sys.argv[2]
    by_cpu = len(sys.argv) > 3 and sys.argv[3] == '--by-cpu'
    out = {}
    windows = Windows()
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if line.startswith('#'):
            continue
        if kind == 'tracecmd':
            m = re.match(r'\s*(\S+)\s+(?:\[(\d+)\]|\d+(\S+))\s+[0-9.]+: funcgraph_(?:entry|exit):\s+(.*?)\|(.*)$', line)
            if not m:
                continue
            key, cols, body = m.group(1), m.group(4), m.group(5)
            if m.group(3):      # -l: the context flags
                d = re.search(DUR, cols)
                tok = body_tokens(body, d.group(1) if d else '-')
                if tok:
                    depth = (len(body) - len(body.lstrip(' ')) - 2) // 2
                    kind_ = 'exit' if tok.startswith('}') else 'leaf' if '();' in tok else 'entry'
                    ns = round(float(d.group(1)) * 1000) if d else None
                    windows.feed(key, (depth, kind_, tok, lat_ctx(m.group(3)), ns), out)
                continue
        elif kind == 'kernel':
            m = re.match(r'\s*(\d+)\)(.*?)\|(.*)$', line)
            if not m:
                continue
            key, cols, body = 'cpu' + m.group(1), m.group(2), m.group(3)
        else:
            m = re.match(r'[ 0-9.]+\|\s+(\d+)\)\s+(\S+)\s+\|(.*?)\|(.*)$', line)
            if not m:
                continue
            key = 'cpu' + m.group(1) if by_cpu else m.group(2)
            cols, body = m.group(3), m.group(4)
        d = re.search(DUR, cols)
        tok = body_tokens(body, d.group(1) if d else '-')
        if tok:
            out.setdefault(key, []).append(tok)
    for key in sorted(out):
        toks = out[key]
        for i, tok in enumerate(toks):
            # a call line followed by its closing line is a leaf: writers pair
            # them or not (trace-cmd only when both records are on one page)
            if tok.endswith('() {') and i + 1 < len(toks) and toks[i + 1].startswith('} '):
                toks[i + 1] = tok[:-2] + '; ' + toks[i + 1][2:]
                continue
            print(key, tok)


if __name__ == '__main__':
    main()
