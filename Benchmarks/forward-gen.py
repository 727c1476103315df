#!/usr/bin/env python3
"""A routine whose every node is reachable through random forward arrows within 50 places,
a question every fourth node splitting its arrows between two answers: its parallel branches
meet in combinations without end, so `paths --count` must refuse it, and soon.

    Benchmarks/forward-gen.py N [SEED] > forward.rt"""

import random
import sys

n = int(sys.argv[1])
rnd = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
targets = [set() for _ in range(n)]
for j in range(1, n):
    targets[rnd.randrange(max(0, j - 50), j)].add(j)
out = ['routine "Forward"']
for i in range(n):
    if i < n - 1 and rnd.random() < 0.5:
        targets[i].add(rnd.randint(i + 1, min(n - 1, i + 50)))
    ts = sorted(targets[i])
    if i % 4 == 1 and len(ts) >= 2:
        out.append(f'question n{i} "Q{i}"')
        out.append('  "yes" -> ' + ", ".join(f"n{t}" for t in ts[::2]))
        out.append('  "no" -> ' + ", ".join(f"n{t}" for t in ts[1::2]))
    else:
        out.append(f'habit n{i} "H{i}" for 1m' + (" -> " + ", ".join(f"n{t}" for t in ts) if ts else ""))
print("\n".join(out))
