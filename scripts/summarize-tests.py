#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Count results over meson test logs (testlog.json) and fuzz summaries.

TAP tests count each "ok"/"not ok" line; other tests count once. A TAP test
that crashed or timed out also counts one failure. The last line printed is
"N passed, N failed"; the exit status is 1 if anything failed.
"""
import json
import re
import sys

passed = failed = 0
failures = []
for path in sys.argv[1:]:
    stage = re.sub(r'^.*testlog-|\.json$', '', path)
    try:
        with open(path) as fp:
            text = fp.read()
    except OSError:
        failed += 1
        failures.append('%s: no test log' % path)
        continue
    if path.endswith('fuzz-summary.json'):
        for target in json.loads(text).get('targets', []):
            if target.get('ok'):
                passed += 1
            else:
                failed += 1
                failures.append('fuzz %s: %s' % (target.get('name'), target.get('why', 'failed')))
        continue
    for line in text.splitlines():
        if not line.strip():
            continue
        t = json.loads(line)
        name = '%s %s' % (stage, t.get('name'))
        res = t.get('result')
        out = t.get('stdout') or ''
        if res == 'SKIP':
            continue
        tap = [l for l in out.splitlines() if re.match(r'^(not )?ok \d+', l)]
        if tap and t.get('protocol', 'tap') in ('tap', 'TAP', None) or tap:
            for l in tap:
                if l.startswith('ok') and '# SKIP' not in l:
                    passed += 1
                elif l.startswith('not ok') and '# TODO' not in l:
                    failed += 1
                    failures.append('%s: %s' % (name, l))
            if res not in ('OK', 'EXPECTEDFAIL') and not any(l.startswith('not ok') for l in tap):
                failed += 1
                failures.append('%s: %s (exit %s)' % (name, res, t.get('returncode')))
        else:
            if res in ('OK', 'EXPECTEDFAIL'):
                passed += 1
            else:
                failed += 1
                failures.append('%s: %s' % (name, res))
for f in failures[:100]:
    print('FAILED: ' + f)
print('%d passed, %d failed' % (passed, failed))
sys.exit(1 if failed else 0)
