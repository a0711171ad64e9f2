#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""bench_core.py - performance of the RTL core, measured on the Verilator
testbench (`make bench-core`). Prints:

- IPC (warp instructions per cycle, from the core's own counters) of an
  ALU-bound kernel (bench/kernels/alu.c) and a streaming kernel
  (bench/kernels/stream.c) at each configuration, with 4 threads per
  hardware thread (4 waves);
- simulated cycles per second of the Verilator model at the first
  configuration: the ALU kernel with 16 threads per hardware thread
  (about 0.3 M cycles at 4x4), best of three runs, one host core.

    bench_core.py --configs 4x4,8x8 [--rtl 'build/rtl/core_{W}x{L}/simty-rtl']
"""
import argparse
import re
import subprocess
import sys


def run(exe, W, L, kernel, threads, extra=()):
    cmd = [exe, "--warps", str(W), "--lanes", str(L), "--threads",
           str(threads), "--counters", "--quiet", *extra, kernel]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("bench_core: %s failed (exit %d): %s" % (
            " ".join(cmd), p.returncode, p.stderr.strip()[:300]))
    ctr = {m.group(1): int(m.group(2))
           for m in re.finditer(r"^(\w+) = (\d+)$", p.stdout, re.M)}
    return ctr, p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--configs", default="4x4,8x8")
    ap.add_argument("--rtl", default="build/rtl/core_{W}x{L}/simty-rtl")
    ap.add_argument("--alu", default="build/kernels/bench/kernels/alu.elf")
    ap.add_argument("--stream",
                    default="build/kernels/bench/kernels/stream.elf")
    ap.add_argument("--waves", type=int, default=4)
    a = ap.parse_args()
    configs = [tuple(int(x) for x in c.split("x"))
               for c in a.configs.split(",")]

    print("%-7s %-7s %10s %10s %7s %9s" % ("config", "kernel", "cycles",
                                          "warp_insts", "IPC", "SIMD eff"))
    for W, L in configs:
        exe = a.rtl.replace("{W}", str(W)).replace("{L}", str(L))
        for name, kernel in (("alu", a.alu), ("stream", a.stream)):
            ctr, _ = run(exe, W, L, kernel, a.waves * W * L)
            cyc, wi = ctr["cycles"], ctr["warp_insts"]
            eff = ctr["thread_insts"] / (wi * L) if wi else 0.0
            print("%-7s %-7s %10d %10d %7.3f %9.3f" % (
                "%dx%d" % (W, L), name, cyc, wi, wi / cyc if cyc else 0.0,
                eff))

    W, L = configs[0]
    exe = a.rtl.replace("{W}", str(W)).replace("{L}", str(L))
    best = None
    for _ in range(3):
        _, err = run(exe, W, L, a.alu, 16 * W * L, ["--cycles-report"])
        m = re.search(r"cycles-report: cycles=(\d+) seconds=([\d.]+) "
                      r"cycles_per_second=(\d+) cpu_seconds=([\d.]+) "
                      r"cycles_per_cpu_second=(\d+)", err)
        if not m:
            sys.exit("bench_core: no cycles-report line from %s" % exe)
        if best is None or int(m.group(3)) > best[2]:
            best = (int(m.group(1)), float(m.group(2)), int(m.group(3)),
                    float(m.group(4)), int(m.group(5)))
    print("simulation speed %dx%d: %d cycles in %.3f s = %.2f M cycles/s "
          "(CPU time %.3f s = %.2f M cycles per CPU second)" % (
              W, L, best[0], best[1], best[2] / 1e6, best[3], best[4] / 1e6))


if __name__ == "__main__":
    main()
