#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check-independent.py - the goldens of export, flame, merge and errors read
against readers that are not kmag: trace-cmd report (its raw records: func,
depth, calltime, rettime; -O parent for the function tracer) and the kernel's
own function_graph text. Run once when such a golden is written or
regenerated (it is no test of the suite: trace-cmd reading the fixtures costs
seconds):

    tests/e2e/expect/check-independent.py DIR

DIR holds the fixtures under their bare names (golden-lib.sh's golden_prepare;
tests/fixtures/traces/6.19/fg619-retval.txt too). Prints ok/FAIL per check,
exits 1 on a failure."""
import csv, json, os, re, subprocess, sys, collections
G = os.path.dirname(os.path.abspath(__file__)) + '/'
FX = sys.argv[1].rstrip('/') + '/'
def tc(f, *opts):
    return subprocess.run(['trace-cmd', 'report', *opts, FX + f], capture_output=True, text=True).stdout.splitlines()
def canon(name):
    # the same address, another name of it in kallsyms (trace-cmd and kmag pick differently)
    return re.sub(r'__(do|x64|ia32)_sys_', '__sys_', name)
def us(s):
    return round(float(s) * 1000)
LINE = re.compile(r'^\s*(.+)-(\d+)\s+\[(\d+)\]\s+([\d.]+): (funcgraph_entry|funcgraph_exit):\s+[!#@*+$& ]*([\d.]+ us)?\s*\|(\s*)(.*)$')
def depth(m):
    return (len(m.group(7)) - 2) // 2
RAW = re.compile(r'^\s*(.+)-(\d+)\s+\[(\d+)\]\s+([\d.]+): (funcgraph_entry|funcgraph_exit):\s+func=(\S+)(?: retval=\S+)? depth=(\d+)(?: overrun=\d+ calltime=(?:0x)?([0-9a-f]+) rettime=(?:0x)?([0-9a-f]+))?')
def fg(f):
    """calls and total ns per function, edge counts, call-path counts and self
    ns per path, from trace-cmd's raw records (report -R: func, depth,
    calltime, rettime): a stack per task (idle: per CPU) by depth. A level
    missing below a call is a placeholder, named by the exit that closes it,
    or by the entry at its level whose call began before the calls under it
    (an interrupt that came between a call and its entry record); an exit
    whose entry is not in the trace is no call."""
    recs = []
    for l in tc(f, '-R'):
        m = RAW.match(l)
        if m:
            recs.append(m)
    # first pass: each entry's calltime, from the exit that closes it
    began = {}
    stacks = collections.defaultdict(list)
    for i, m in enumerate(recs):
        key = (m.group(2), m.group(3) if m.group(2) == "0" else ""); d = int(m.group(7)); st = stacks[key]
        if m.group(5) == 'funcgraph_entry':
            del st[d:]
            while len(st) < d:
                st.append(None)
            st.append(i)
        else:
            del st[d + 1:]
            if len(st) == d + 1 and st[d] is not None and recs[st[d]].group(6) == m.group(6):
                began[st.pop()] = int(m.group(8), 16)
    calls = collections.Counter(); total = collections.Counter(); edges = collections.Counter()
    stacks = collections.defaultdict(list); entries = []
    global orphans
    orphans = set()
    for i, m in enumerate(recs):
        key = (m.group(2), m.group(3) if m.group(2) == "0" else ""); kind = m.group(5)
        name = m.group(6); d = int(m.group(7)); st = stacks[key]
        if kind == 'funcgraph_entry':
            calls[name] += 1
            ph = st[d] if len(st) > d else None
            if (ph and ph['name'] is None and i in began and ph['first'] is not None
                    and began[i] <= ph['first']):
                # the placeholder was this call: name it, keep the calls under it
                ph['name'] = name
                del st[d + 1:]
                entries.append(list(st))
                continue
            del st[d:]
            while len(st) < d:
                st.append({'name': None, 'child': 0, 'first': None})
            for fr in st:
                if fr['name'] is None and fr['first'] is None:
                    fr['first'] = began.get(i)
            fr = {'name': name, 'child': 0, 'first': None}
            entries.append(list(st) + [fr])
            st.append(fr)
        else:
            dur = int(m.group(9), 16) - int(m.group(8), 16)
            del st[d + 1:]
            if len(st) < d + 1:
                # no call; where its time goes is the replay's choice: its path and its caller's
                names = [fr['name'] or '[unknown]' for fr in st]
                orphans.update({';'.join(names + [name]), ';'.join(names)})
                continue
            fr = st.pop()
            if fr['name'] is None:
                fr['name'] = name
            total[fr['name']] += dur
            fr['self'] = fr.get('self', 0) + dur - fr['child']
            if st: st[-1]['child'] += dur
    paths = collections.Counter(); selfp = collections.Counter()
    for e in entries:
        p = ';'.join(fr['name'] or '[unknown]' for fr in e)
        paths[p] += 1; selfp[p] += e[-1].get('self', 0)
        # an edge from the caller, once a name is known for it
        if len(e) > 1 and e[-2]['name']:
            edges[(e[-2]['name'], e[-1]['name'])] += 1
    return calls, total, edges, paths, selfp
bad = 0
def check(what, ok, detail=''):
    global bad
    print(('ok   ' if ok else 'FAIL ') + what, detail)
    bad += not ok

# export -F csv, functions and edges (calls: every entry and every exit without one), fg-filtered.dat
calls, total, edges, paths, selfp = fg('fg-filtered.dat')
rows = list(csv.DictReader(open(G + 'export/fg-filtered.csv')))
check('csv: every function, calls as trace-cmd counts entries', {r['function']: int(r['calls']) for r in rows} == dict(calls), '%d functions' % len(rows))
tot = {r['function']: int(r['total_ns']) for r in rows}
diffs = [f for f in tot if tot[f] != total[f]]
check('csv: total_ns = sum of trace-cmd durations (rettime - calltime)', not diffs, diffs[:5])
rows = list(csv.DictReader(open(G + 'export/fg-filtered.edges.csv')))
check('csv edges: caller,callee calls = trace-cmd nesting', {(r['caller'], r['callee']): int(r['calls']) for r in rows} == dict(edges), '%d edges' % len(rows))

# folded by calls, fg-depth3-v6.dat
calls, total, edges, paths, selfp = fg('fg-depth3-v6.dat')
fold = {}
for l in open(G + 'flame/fg-depth3-v6.calls.folded'):
    p, n = l.rsplit(' ', 1); p = canon(p); fold[p] = fold.get(p, 0) + int(n)
paths = collections.Counter({canon(p): n for p, n in paths.items()})
check('flame -w calls: calls per call path = trace-cmd nesting', fold == dict(paths), '%d paths, %d calls' % (len(fold), sum(fold.values())))
if fold != dict(paths):
    ks = set(fold) ^ set(paths); print(list(ks)[:5]); print([(k, fold.get(k), paths.get(k)) for k in set(fold) & set(paths) if fold[k] != paths[k]][:5])
selft = collections.Counter({canon(p): n for p, n in selfp.items()})
fold = {}
for l in open(G + 'export/fg-depth3-v6.folded'):
    p, n = l.rsplit(' ', 1); p = canon(p); fold[p] = fold.get(p, 0) + int(n)
near = [(p, fold.get(p), selft.get(p)) for p in set(fold) | set(selft)
        if fold.get(p) != selft.get(p) and selft.get(p) and p not in orphans]
check('export -F folded: self ns per path = trace-cmd durations (but the paths of an exit without its entry)',
      not near, '%d paths, %d left aside: %s' % (len(fold), len(orphans & set(fold)), near[:5]))

# function tracer: export -F json and -F dot of fn-filtered.dat
fcalls = collections.Counter(); fedges = collections.Counter()
for l in tc('fn-filtered.dat', '-O', 'parent'):
    m = re.search(r'function:\s+(\S+) <-- (\S+)', l)
    if m:
        fcalls[m.group(1)] += 1; fedges[(m.group(2), m.group(1))] += 1
j = json.load(open(G + 'export/fn-filtered.json'))
names = {}
jf = {}
for fn in j['functions']:
    jf[fn['name']] = fn['calls']
got = {k: v for k, v in jf.items() if v}
check('export -F json: calls per function = trace-cmd function events', got == dict(fcalls), '%d functions, %d calls' % (len(got), sum(got.values())))
je = collections.Counter()
for e in j['edges']:
    je[(e['caller'], e['callee'])] += e['calls']
check('export -F json: edges = trace-cmd parent <-- function', dict(je) == dict(fedges), '%d edges' % len(je))
dot = open(G + 'export/fn-filtered.dot').read()
check('export -F dot: one edge per parent,function pair', dot.count(' -> ') == len(fedges), '%d edges' % dot.count(' -> '))

# merge: calls per function = the sum of both recordings' function events
mc = collections.Counter()
for f in ('diff-fn-base.dat', 'diff-fn-tmpfs.dat'):
    for l in tc(f):
        m = re.search(r'function:\s+(\S+)', l)
        if m: mc[m.group(1)] += 1
mj = json.load(open(G + 'merge/diff-fn.json'))
got = {fn['name']: fn['calls'] for fn in mj['functions'] if fn['calls']}
check('merge: calls per function = trace-cmd counts of both files summed', got == dict(mc), '%d functions, %d calls' % (len(got), sum(got.values())))

# chrome: the slices of the first 10 ms, as trace-cmd shows the calls
cj = json.load(open(G + 'export/fg619-retval.chrome.json'))
xs = [e for e in cj['traceEvents'] if e['ph'] == 'X']
done = [e for e in xs if 'incomplete' not in e.get('args', {})]
real = collections.Counter()
for l in tc('fg619-retval.dat', '-R'):
    m = RAW.match(l)
    if m and m.group(5) == 'funcgraph_exit':
        real[(m.group(6), int(m.group(9), 16) - int(m.group(8), 16))] += 1
# dur is microseconds with 3 decimals; a slice stretched to hold its children (the replay's
# timeline) keeps the kernel's duration in args.duration_ns
got = collections.Counter((e['name'], e.get('args', {}).get('duration_ns', round(e['dur'] * 1000)))
                          for e in done)
check('chrome: each complete slice is a call trace-cmd reads (name, kernel duration in ns)',
      not (got - real) and len(done) > 100, '%d of %d slices' % (len(done), len(xs)))

# errors: the kernel's own text
txt = open(FX + 'fg619-retval.txt').read()
n = len(re.findall(r'ret=-\d+', txt))
e = open(G + 'errors/fg619-retval.txt').read()
check("errors: calls returning -errno = the kernel text's ret=-N", '# %d calls returned an error' % n in e, n)
sys.exit(bad)
