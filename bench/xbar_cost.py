#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What the `rotate` memory crossbar costs on the model.

Runs each host program given (`make bench-xbar` passes the benchmark
catalog of bench/bench.mk at its small sizes, and the examples outside
it at their default sizes) on `model?warps=W&lanes=L&xbar=full` and
`...&xbar=rotate` at each configuration, checks that both pass their CPU
check with the same `thread_insts` and `mem_requests`, and prints a
Markdown table: mem_transactions under each kind and the change in
cycles, per program and configuration (docs/performance.md, "The
crossbars").

    make bench-xbar [BENCH_XBAR_CONFIGS="1x32 2x32 8x8"]
    python3 bench/xbar_cost.py --kernel NAME=HOST:SMALL[:LARGE]... [--configs 1x32,2x32,8x8]

An empty SMALL runs the program at its default size.
"""
import argparse
import os
import subprocess
import sys

from run_bench import parse_counters


def run(host, n, w, l, xbar):
    uri = "model?warps=%d&lanes=%d&isa=rv32ima_zicntr&xbar=%s" % (w, l, xbar)
    cmd = [host, "--device", uri]
    if n is not None:
        cmd += ["--n", str(n)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode != 0 or ": PASS" not in p.stdout:
        sys.exit("xbar_cost: %s failed (exit %d):\n%s%s" % (
            " ".join(cmd), p.returncode, p.stdout, p.stderr))
    return parse_counters(p.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kernel", action="append", required=True,
                    help="NAME=HOST:SMALL[:LARGE] (run_bench.py's catalog "
                    "form; an empty SMALL: the program's default size)")
    ap.add_argument("--configs", default="1x32,2x32,8x8")
    args = ap.parse_args()
    programs = []
    for k in args.kernel:
        name, rest = k.split("=", 1)
        host, small = (rest.split(":") + [""])[:2]
        programs.append((name, host, int(small) if small else None))
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

    for name, host, n in programs:
        row = "| %s |" % name
        for w, l in configs:
            f = run(host, n, w, l, "full")
            r = run(host, n, w, l, "rotate")
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
