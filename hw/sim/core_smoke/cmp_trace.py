#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compare two traces (base_tid pc mask) per block: same sequence per block."""
import sys
from collections import defaultdict


def load(path):
    blocks = defaultdict(list)
    with open(path) as f:
        for line in f:
            t, pc, m = line.split()
            blocks[int(t)].append((int(pc, 16), int(m, 16)))
    return blocks


a, b = load(sys.argv[1]), load(sys.argv[2])
bad = 0
for t in sorted(set(a) | set(b)):
    if a.get(t) != b.get(t):
        bad += 1
        x, y = a.get(t, []), b.get(t, [])
        i = next((i for i in range(min(len(x), len(y))) if x[i] != y[i]), min(len(x), len(y)))
        print(f"block {t}: differ at #{i}: {x[i:i+3]} vs {y[i:i+3]} (len {len(x)} vs {len(y)})")
        if bad > 5:
            break
print("traces match" if not bad else "traces DIFFER")
sys.exit(1 if bad else 0)
