#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hostile-check.py KIND FILE [NAME...]: FILE, an output kmag wrote from a
hostile trace (hostile-trace.py, hostile-tracedat.py), is well formed for its
KIND, and holds each NAME (a Python string; as shown, i.e. after the
escaping KIND expects). Exits 1 with the reason otherwise.

  text   strict UTF-8, and no character a terminal acts on (C0 but newline,
         DEL, C1): names arrive as \\xNN
  json   one JSON document, strict UTF-8 (python's json.loads)
  jsonl  one JSON document per non-empty line
  csv    strict UTF-8, parsed by python's csv; every row as wide as the header
  xml    strict UTF-8, parsed by python's xml.etree (SVG)
  html   strict UTF-8; as many <script> elements as PAGE_SCRIPTS (env) says,
         i.e. no name opened or closed one; the kmag-data JSON parses.
         Prints the number of <script> elements (PAGE_SCRIPTS for the others)
NAMEs are looked for in the decoded document (for json/csv/xml: in the
strings it holds, after unescaping)."""
import csv
import html.parser
import io
import json
import os
import re
import sys
import xml.etree.ElementTree as ET


def strings(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for k, x in v.items():
            yield k
            yield from strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from strings(x)


class Scripts(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.scripts, self.data, self.cur = 0, None, None

    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self.scripts += 1
            self.cur = dict(attrs).get("id")

    def handle_data(self, d):
        if self.cur == "kmag-data":
            self.data = (self.data or "") + d

    def handle_endtag(self, tag):
        if tag == "script":
            self.cur = None


def main():
    kind, path, names = sys.argv[1], sys.argv[2], sys.argv[3:]
    raw = open(path, "rb").read()
    text = raw.decode("utf-8", "strict")  # raises on any byte that is not UTF-8
    haystack = [text]
    if kind == "text":
        bad = [c for c in text if (ord(c) < 0x20 and c != "\n") or 0x7f <= ord(c) < 0xa0]
        if bad:
            sys.exit("raw control characters %r in %s" % (sorted(set(bad))[:8], path))
    elif kind == "json":
        haystack = list(strings(json.loads(text)))
    elif kind == "jsonl":
        haystack = [s for line in text.splitlines() if line.strip()
                    for s in strings(json.loads(line))]
    elif kind == "csv":
        rows = list(csv.reader(io.StringIO(text, newline="")))
        if not rows or any(len(r) != len(rows[0]) for r in rows):
            sys.exit("CSV rows of differing widths in %s" % path)
        haystack = [c for r in rows for c in r]
    elif kind == "xml":
        root = ET.fromstring(raw)
        haystack = ["".join(root.itertext())] + [v for e in root.iter() for v in e.attrib.values()]
    elif kind == "html":
        p = Scripts()
        p.feed(text)
        p.close()
        want = int(os.environ.get("PAGE_SCRIPTS", "-1"))
        if want >= 0 and p.scripts != want:
            sys.exit("%d <script> elements, a page without hostile names has %d" % (p.scripts, want))
        if p.data is None:
            sys.exit("no kmag-data script in %s" % path)
        haystack = list(strings(json.loads(p.data)))
    else:
        sys.exit("unknown kind " + kind)
    for n in names:
        if not any(n in h for h in haystack):
            sys.exit("%r not found in %s" % (n, path))
    if kind == "html":
        print(p.scripts)


main()
