#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""example_core_ipc.py - the core-alone IPC of an example's launch.

Runs vecadd or mandelbrot with the arguments its host program gives the
board by default (vecadd n = 1000; mandelbrot 48 x 32, 32 iterations, the
view jittered as --seed 1 does), or fib or interp with the inputs their
host program draws for --n N --seed 1 (N threads, 256 unless --n; the
host program is built with bench/example_blob_stub.c, which prints them
as C instead of uploading them), on the core's Verilator testbench
(build/rtl/core_WxL/simty-rtl: the core alone, every free warp refilled
at once), and prints its counters and IPC: the figure the board's IPC
(the examples' `ipc` on the simulated board) is compared with in
docs/performance.md, "Board IPC and the block sequencer".

The argument block and arrays are put in the kernel's .data by a small
extra C file linked with the example's kernel (the testbench has no
host to upload them); --args points the launch at it.

usage: bench/example_core_ipc.py [--config 4x4] [--build build] [--n N] [--rtl BIN]
       vecadd|mandelbrot|fib|interp
"""
import argparse
import os
import subprocess
import sys
import tempfile

MASK64 = (1 << 64) - 1


class ExampleRng:
    """examples/common/example.c's xorshift64* (example_rand)."""

    def __init__(self, seed):
        self.s = 0x9E3779B97F4A7C15 ^ seed

    def next(self):
        s = self.s
        s ^= s >> 12
        s ^= (s << 25) & MASK64
        s ^= s >> 27
        self.s = s
        return ((s * 0x2545F4914F6CDD1D) & MASK64) >> 32


def blob_vecadd(n):
    return n, f"""#include <stdint.h>
#include "vecadd.h"
int32_t bench_a[{n}], bench_b[{n}], bench_c[{n}];
struct vecadd_args bench_args = {{{n}, bench_a, bench_b, bench_c}};
"""


def blob_mandelbrot(width, max_iter=32, seed=1):
    one = 1 << 12
    height = width * 2 // 3
    rng = ExampleRng(seed)
    # C: (int32_t)(rand % (ONE / 8)) - ONE / 16, in host.c's order.
    jx = (rng.next() % (one // 8)) - one // 16
    jy = (rng.next() % (one // 8)) - one // 16
    x0 = -((22 * one) // 10) + jx  # C: -22 * ONE / 10, truncated toward 0
    y0 = -one + jy
    dx = 3 * one // width
    dy = 2 * one // height
    pixels = width * height
    return pixels, f"""#include <stdint.h>
#include "mandelbrot.h"
uint32_t bench_iters[{pixels}];
struct mandelbrot_args bench_args = {{{width}, {height}, {max_iter}, {x0}, {y0},
                                      {dx}, {dy}, bench_iters}};
"""


STUB_EXAMPLES = ["fib", "interp"]


def blob_from_host(example, n, tmp):
    """The inputs of examples/EXAMPLE/host.c for --n n --seed 1, as C."""
    host = os.path.join(tmp, example + "-host")
    subprocess.run(["cc", "-std=c11", "-O1", "-D_POSIX_C_SOURCE=200809L",
                    "-Iexamples/common", "-Ihost_lib/include", "-Ihw/arch",
                    f"-Iexamples/{example}", '-DEXAMPLE_KERNEL="unused"', "-o", host,
                    f"examples/{example}/host.c", "bench/example_blob_stub.c"],
                   check=True)
    out = subprocess.run([host, "--n", str(n), "--seed", "1"], check=True,
                         capture_output=True, text=True)
    return n, out.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("example", choices=["vecadd", "mandelbrot"] + STUB_EXAMPLES)
    ap.add_argument("--config", default="4x4")
    ap.add_argument("--build", default="build")
    ap.add_argument("--n", type=int, default=None)
    ap.add_argument("--rtl", default=None,
                    help="the testbench binary (default: BUILD/rtl/core_CONFIG/simty-rtl)")
    a = ap.parse_args()
    rtl = a.rtl or os.path.join(a.build, "rtl", f"core_{a.config}", "simty-rtl")
    cc = os.path.join(a.build, "bin", "simty-cc")
    with tempfile.TemporaryDirectory() as tmp:
        if a.example == "vecadd":
            nthreads, blob = blob_vecadd(a.n or 1000)
        elif a.example == "mandelbrot":
            nthreads, blob = blob_mandelbrot(a.n or 48)
        else:
            nthreads, blob = blob_from_host(a.example, a.n or 256, tmp)
        src = os.path.join(tmp, "blob.c")
        with open(src, "w") as f:
            f.write(blob)
        elf = os.path.join(tmp, a.example + ".elf")
        subprocess.run([cc, "-o", elf, f"-Iexamples/{a.example}",
                        f"examples/{a.example}/{a.example}.c", src,
                        "-Wl,--undefined=bench_args"], check=True)
        w, l = a.config.split("x")
        out = subprocess.run([rtl, "--warps", w, "--lanes", l, "--threads",
                              str(nthreads), "--args", "bench_args", "--counters",
                              "--quiet", elf], capture_output=True, text=True)
        sys.stdout.write(out.stdout)
        sys.stderr.write(out.stderr)
        ctr = {}
        for line in out.stdout.splitlines():
            parts = line.replace("=", " ").split()
            if len(parts) >= 2 and parts[1].isdigit():
                ctr[parts[0]] = int(parts[1])
        if "cycles" in ctr and "warp_insts" in ctr:
            print(f"{a.example} on the core alone ({a.config}, {nthreads} threads): "
                  f"ipc = {ctr['warp_insts'] / ctr['cycles']:.3f}")
        return out.returncode


if __name__ == "__main__":
    sys.exit(main())
