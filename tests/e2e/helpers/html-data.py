#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""html-data.py PAGE WHAT: reads the JSON document a `kmag html` page embeds
(<script type="application/json" id="kmag-data">) and prints part of it, with
the page's function references (an index into fn.name, a name, or null)
turned into names, for tests/e2e/t0632-html-errors.sh:

  has-errors   "yes" when the page has an "errors" member, else "no"
  groups       kmag errors --format json's groups as the page has them:
               one JSON line per group (origin, errno, errname, entry, count,
               entry_returned, the example chain's functions, after)
  chains       per group, entry_returned times "ENTRY ERRNO ORIGIN AFTER"
               (AFTER "-" when none), as helpers/fg-errors.py prints them
  path-edges   the edges the page marks as error paths, "CALLER CALLEE"
  path-origins the functions the page marks as error origins
  types        the return types' source, or "unknown"
"""
import json
import re
import sys


def data(path):
    page = open(path, encoding='utf-8').read()
    m = re.search(r'<script type="application/json" id="kmag-data">(.*?)</script>', page, re.S)
    return json.loads(m.group(1))


def main():
    d = data(sys.argv[1])
    what = sys.argv[2]
    names = d['fn']['name']

    def name(f):
        if f is None:
            return '?'
        return names[f] if isinstance(f, int) else f

    e = d.get('errors')
    if what == 'has-errors':
        print('yes' if e is not None else 'no')
        return
    if what == 'types':
        print(e['types'] or 'unknown')
    elif what == 'groups':
        for g in e['groups']:
            out = {'count': g['count'], 'errno': g['errno'], 'errname': g['errname'],
                   'origin': name(g['origin']), 'entry': name(g['entry']),
                   'entry_returned': g['reached'],
                   'chain': [name(f) for f in g['chain']],
                   'durations': g['dur'], 'returned_error': [bool(r) for r in g['ret']]}
            if 'after' in g:
                out['after'] = name(g['after'])
            print(json.dumps(out, sort_keys=True))
    elif what == 'chains':
        for g in e['groups']:
            for _ in range(g['reached']):
                print(name(g['entry']), g['errno'], name(g['origin']),
                      name(g['after']) if 'after' in g else '-')
    elif what == 'path-edges':
        for i in e['pathEdge']:
            print(names[d['edge']['src'][i]], names[d['edge']['dst'][i]])
    elif what == 'path-origins':
        for v in e['pathOrigin']:
            print(names[v])


if __name__ == '__main__':
    main()
