#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# gen-wide-graph.py - write an ftrace function_graph text trace whose call
# graph has (about) EDGES distinct caller->callee edges, to measure kmag's
# HTML explorer, flame graphs and exports at sizes real traces of a whole
# kernel reach (kernel-magnifier's users see 3,000+ functions).
#
#   gen-wide-graph.py EDGES OUT.txt [FANOUT] [SEED]
#
# FUNCS = EDGES / FANOUT functions (default fanout 4) named like kernel
# functions (subsys_verb_noun_N); function i calls FANOUT others chosen at
# random among the later ones (a DAG, so stacks end), so every edge appears.
# Each top-level call also expands one callee a further level, for deeper
# stacks. Lines carry funcgraph-abstime timestamps, CPU, task and durations,
# so every kmag command (chrome export included) can read it.
import random
import sys

SUBSYS = ["vfs", "ext4", "shmem", "tcp", "ip", "sched", "mm", "blk", "nvme", "irq",
          "rcu", "sock", "page", "folio", "dentry", "inode", "kmem", "net", "skb", "bpf"]
VERBS = ["get", "put", "alloc", "free", "read", "write", "lookup", "insert", "update",
         "flush", "wake", "queue", "map", "unmap", "lock", "unlock", "check", "init"]
NOUNS = ["page", "entry", "node", "cache", "buffer", "request", "queue", "state",
         "range", "list", "table", "slot", "work", "timer", "ref", "ctx"]


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: gen-wide-graph.py EDGES OUT.txt [FANOUT] [SEED]")
    edges = int(sys.argv[1])
    out_path = sys.argv[2]
    fanout = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    rnd = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
    nfunc = max(fanout + 2, edges // fanout + fanout + 1)
    names = ["%s_%s_%s_%d" % (rnd.choice(SUBSYS), rnd.choice(VERBS), rnd.choice(NOUNS), i)
             for i in range(nfunc)]
    callees = []
    for i in range(nfunc):
        later = nfunc - i - 1
        k = min(fanout, later)
        callees.append(rnd.sample(range(i + 1, nfunc), k) if k else [])
    ts = [100_000_000_000]  # ns
    out = open(out_path, "w")
    out.write("# tracer: function_graph\n#\n"
              "#     TIME        CPU  TASK/PID         DURATION                  FUNCTION CALLS\n"
              "#      |          |     |    |           |   |                     |   |   |   |\n")

    def line(cpu, pid, depth, text, dur=None):
        s = ts[0] // 1000
        stamp = "%d.%06d" % (s // 1_000_000, s % 1_000_000)
        col = "%9.3f us  " % (dur / 1000.0) if dur is not None else " " * 13
        out.write(" %s |   %d)  task-%d   | %s |  %s%s\n" % (stamp, cpu, pid, col, "  " * depth, text))

    def leaf(cpu, pid, depth, f):
        d = rnd.randint(200, 3000)
        line(cpu, pid, depth, names[f] + "();", d)
        ts[0] += d + 100

    def call(cpu, pid, depth, f, expand):
        start = ts[0]
        line(cpu, pid, depth, names[f] + "() {")
        ts[0] += 150
        for j, g in enumerate(callees[f]):
            if expand and j == 0 and callees[g]:
                call(cpu, pid, depth + 1, g, False)
            else:
                leaf(cpu, pid, depth + 1, g)
        ts[0] += 80
        line(cpu, pid, depth, "}", ts[0] - start)
        ts[0] += 300

    for i in range(nfunc):
        cpu = i % 2
        if callees[i]:
            call(cpu, 1000 + cpu, 0, i, True)
    out.close()


if __name__ == "__main__":
    main()
