#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""help-options.py - the options a `kmag CMD --help` text lists, and those a
man page source (doc/man/kmag-CMD.1.scd) documents, so a test can compare them.

  help-options.py help FILE      options in a --help text, one per line, sorted
  help-options.py scd FILE       options a .scd page documents, one per line
  help-options.py commands FILE  the command names in a `kmag --help` text

An option in --help is a line indented less than 8 columns that starts with
"-x" or "--name" ("  -o, --output, --image-name FILE": -o --output
--image-name). In a page it is a definition-list term: a line that starts with
"*-" ("*-o*, *--output* _PATH_"). Prose and examples mention options too, but
never at the start of such a line, so only the definitions count.
"""
import re
import sys

OPT = r'--?[A-Za-z0-9][A-Za-z0-9-]*'


def help_options(text):
    opts = set()
    for line in text.splitlines():
        m = re.match(r'^( {2,7})(-.*)$', line)
        if not m:
            continue
        rest = m.group(2)
        while True:
            t = re.match(r'(%s)(,\s*)?' % OPT, rest)
            if not t or (len(rest) > len(t.group(1)) and not t.group(2)
                         and not rest[len(t.group(1))].isspace()):
                break
            opts.add(t.group(1))
            if not t.group(2):
                break
            rest = rest[t.end():]
    return opts


def scd_options(text):
    opts = set()
    for line in text.splitlines():
        if not line.startswith('*-'):
            continue
        rest = line
        while True:
            t = re.match(r'\*(%s)\*(,\s*)?' % OPT, rest)
            if not t:
                break
            opts.add(t.group(1))
            if not t.group(2):
                break
            rest = rest[t.end():]
    return opts


def commands(text):
    names, on = [], False
    for line in text.splitlines():
        if line.startswith('Commands:'):
            on = True
        elif on and re.match(r'^  [a-z]', line):
            names.append(line.split()[0])
        elif on and line.strip() == '':
            break
    return names


def main():
    what, path = sys.argv[1], sys.argv[2]
    text = open(path, encoding='utf-8').read()
    out = {'help': help_options, 'scd': scd_options, 'commands': commands}[what](text)
    for o in (sorted(out) if isinstance(out, set) else out):
        print(o)


if __name__ == '__main__':
    main()
