#!/usr/bin/env python3
# pprof-check.py PB2_DIR PROFILE.pb.gz [REPORT.json]
#
# Reads a gzipped pprof profile with pprof's own schema (profile_pb2, generated
# by `protoc --python_out=PB2_DIR` from profile.proto; never kmag's encoder),
# checks what the format requires (string_table[0] is "", ids are non-zero and
# every id a sample or location uses exists, each sample has one value per
# sample type) and prints:
#   types calls/count time/nanoseconds
#   samples=N stacks_max_depth=N functions=N
#   comment TEXT          (each comment)
#   label KEY=VALUE       (each distinct label)
#   fn NAME CALLS SELF_NS (per function: the samples whose leaf it is)
# With REPORT.json (kmag report --format json --limit 0) it checks that each
# function's calls and self time are the report's.
import gzip
import json
import sys
from collections import defaultdict

sys.path.insert(0, sys.argv[1])
import profile_pb2 as pb  # noqa: E402


def fail(msg):
    print("pprof-check: " + msg, file=sys.stderr)
    sys.exit(1)


def main():
    p = pb.Profile()
    p.ParseFromString(gzip.open(sys.argv[2]).read())
    s = p.string_table
    if not s or s[0] != "":
        fail("string_table[0] is not \"\"")

    def st(i):
        if i < 0 or i >= len(s):
            fail("string index %d out of the table (%d)" % (i, len(s)))
        return s[i]
    types = [st(t.type) + "/" + st(t.unit) for t in p.sample_type]
    funcs = {}
    for f in p.function:
        if not f.id or f.id in funcs:
            fail("function id %d is zero or repeated" % f.id)
        funcs[f.id] = (st(f.name), st(f.filename), f.start_line)
    locs = {}
    for loc in p.location:
        if not loc.id or loc.id in locs:
            fail("location id %d is zero or repeated" % loc.id)
        if not loc.line:
            fail("location %d has no line" % loc.id)
        for ln in loc.line:
            if ln.function_id not in funcs:
                fail("location %d names function %d, which does not exist" % (loc.id, ln.function_id))
        if loc.mapping_id and loc.mapping_id not in {m.id for m in p.mapping}:
            fail("location %d names a mapping that does not exist" % loc.id)
        locs[loc.id] = loc.line[0].function_id
    per_fn = defaultdict(lambda: [0, 0])
    labels = set()
    depth = 0
    for smp in p.sample:
        if len(smp.value) != len(types):
            fail("a sample has %d values for %d types" % (len(smp.value), len(types)))
        if not smp.location_id:
            fail("a sample has no location")
        for lid in smp.location_id:
            if lid not in locs:
                fail("a sample names location %d, which does not exist" % lid)
        depth = max(depth, len(smp.location_id))
        leaf = funcs[locs[smp.location_id[0]]][0]
        per_fn[leaf][0] += smp.value[0]
        per_fn[leaf][1] += smp.value[1]
        for lb in smp.label:
            labels.add("%s=%s" % (st(lb.key), st(lb.str)))
    print("types " + " ".join(types))
    print("samples=%d stacks_max_depth=%d functions=%d" % (len(p.sample), depth, len(funcs)))
    for c in p.comment:
        print("comment " + st(c))
    for lb in sorted(labels):
        print("label " + lb)
    files = sum(1 for f in funcs.values() if f[1])
    lines = sum(1 for f in funcs.values() if f[2])
    print("with_file=%d with_line=%d" % (files, lines))
    for name in sorted(per_fn):
        print("fn %s %d %d" % (name, per_fn[name][0], per_fn[name][1]))
    if len(sys.argv) > 3:
        doc = json.load(open(sys.argv[3]))
        want = {f["name"]: (f["calls"], f["self_ns"] or 0) for f in doc["functions"]}
        got = {k: tuple(v) for k, v in per_fn.items() if k != "[unknown]"}
        bad = [(f, want.get(f), got.get(f)) for f in sorted(set(want) | set(got))
               if want.get(f, (0, 0)) != got.get(f, (0, 0))]
        if bad:
            fail("calls and self time per function differ from the report's (function, report, pprof): " +
                 ", ".join("%s %s %s" % b for b in bad[:8]) + (" ..." if len(bad) > 8 else ""))


main()
