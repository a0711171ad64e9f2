#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What the `rotate` memory crossbar costs on the model.

Runs every example and benchmark host program (built by `make
bench-kernels`) on `model?warps=W&lanes=L&xbar=full` and `...&xbar=rotate`
at each configuration, checks that both pass their CPU check with the
same `thread_insts` and `mem_requests`, and prints a Markdown table:
mem_transactions under each kind and the change in cycles, per program
and configuration (docs/performance.md, "The crossbars"). Sizes: the benchmark catalog's small --n, the examples'
defaults otherwise.

    python3 bench/xbar_cost.py [--configs 1x32,2x32,8x8] [--build build]
"""
import argparse
import os
import re
import subprocess
import sys

# name: (binary directory under BUILD, --n or None for the default)
PROGRAMS = [
    ("vecadd", "examples", None), ("saxpy", "examples", None),
    ("matmul", "examples", 12), ("reduction", "examples", 1024),
    ("reduction_atomic", "examples", None), ("histogram", "examples", 1024),
    ("histogram_atomic", "examples", None), ("mandelbrot", "examples", 24),
    ("bfs", "examples", 256), ("nw", "examples", 24), ("fib", "examples", 32),
    ("interp", "examples", 32), ("bitonic", "examples", 128),
    ("pathfinder", "bench/bin", 128), ("hotspot", "bench/bin", 16),
    ("srad", "bench/bin", 16), ("transpose", "bench/bin", 32),
    ("treewalk", "bench/bin", 256),
]


def run(build, name, where, n, w, l, xbar):
    uri = "model?warps=%d&lanes=%d&isa=rv32ima_zicntr&xbar=%s" % (w, l, xbar)
    cmd = [os.path.join(build, where, name), "--device", uri]
    if n is not None:
        cmd += ["--n", str(n)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode != 0 or ": PASS" not in p.stdout:
        sys.exit("xbar_cost: %s failed (exit %d):\n%s%s" % (
            " ".join(cmd), p.returncode, p.stdout, p.stderr))
    return {k: int(v) for k, v in re.findall(r"^(\w+) = (\d+)$", p.stdout, re.M)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--configs", default="1x32,2x32,8x8")
    ap.add_argument("--build", default="build")
    args = ap.parse_args()
    configs = [tuple(int(x) for x in c.split("x")) for c in args.configs.split(",")]
    head = "| program |"
    for w, l in configs:
        head += " %dx%d transactions | %dx%d cycles |" % (w, l, w, l)
    print(head)
    print("| --- |" + " --- | --- |" * len(configs))
    totals = {c: [0, 0, 0, 0] for c in configs}

    def cells(t):
        return " %s -> %s (%+.1f%%) | %+.1f%% |" % (
            format(t[0], ","), format(t[1], ","), 100.0 * (t[1] / t[0] - 1),
            100.0 * (t[3] / t[2] - 1))

    for name, where, n in PROGRAMS:
        row = "| %s |" % name
        for w, l in configs:
            f = run(args.build, name, where, n, w, l, "full")
            r = run(args.build, name, where, n, w, l, "rotate")
            for c in ("thread_insts", "mem_requests"):
                if f[c] != r[c]:
                    sys.exit("xbar_cost: %s %dx%d: %s %d under full, %d "
                             "under rotate" % (name, w, l, c, f[c], r[c]))
            t = (f["mem_transactions"], r["mem_transactions"], f["cycles"],
                 r["cycles"])
            for i, v in enumerate(t):
                totals[(w, l)][i] += v
            row += cells(t)
        print(row)
    print("| **all** |" + "".join(cells(totals[c]) for c in configs))

if __name__ == "__main__":
    main()
