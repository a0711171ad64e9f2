#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""random_diff.py - random programs on the RTL and the model, compared.

For each seed, tests/rtl/randprog.py writes a kernel, simty-cc builds it,
and rtl_diff.diff_kernel runs it on the model and on the RTL of every
configuration with about two and a half waves of threads (the last block
partial; every fourth seed a single partial block), comparing memory, console, counters and per-block traces. A
third of the seeds run the RTL with +jitter (random dispatch delays and
console stalls), a third with +console-stall: results must not change.
The programs include M and A instructions (--isa rv32ima, the default:
the core's testbench has them; --isa rv32im or rv32i for less).

    random_diff.py --seeds 20 --configs 4x4,8x8        # CI
    random_diff.py --seeds 500 --first-seed 1000        # more, on demand
    random_diff.py --model-only --seeds 200             # generator check

--model-only runs the kernels on the model alone and checks that they end
without a fault and store every thread's results: the generator's own
test (its kernels must terminate and stay in bounds), usable before any
RTL exists. A failing seed is reported with the command that reproduces
it; its kernel stays in the build directory (run-PID/, removed when every
seed passes).
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import rtl_diff  # noqa: E402
import runner  # noqa: E402  (found through rtl_diff's path)

MAX_THREADS = 256


def threads_for(W, L, seed):
    """Two full waves and a partial block, within the kernel's buffers;
    every fourth seed one partial block only (one warp, lanes idle)."""
    if seed % 4 == 0:
        return L // 2 + 1
    return min(2 * W * L + L // 2 + 1, MAX_THREADS - L)


def build(seed, args):
    src = os.path.join(args.build_dir, "seed%d.S" % seed)
    elf = os.path.join(args.build_dir, "seed%d.elf" % seed)
    subprocess.run([sys.executable, os.path.join(HERE, "randprog.py"),
                    "--seed", str(seed), "--max-threads", str(MAX_THREADS),
                    "--size", str(args.size), "--isa", args.isa, "-o", src],
                   check=True)
    p = subprocess.run([args.cc, "--isa", args.isa, "-o", elf, src],
                       capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError("simty-cc failed on %s:\n%s" % (src, p.stderr))
    return elf


def model_only(seed, elf, W, L, args):
    n = threads_for(W, L, seed)
    res = runner.Elf(elf).symbols["results"][0]
    cmd = [args.model, "--isa", args.isa, "--warps", str(W), "--lanes", str(L), "--threads",
           str(n), "--quiet", "--dump", "results:%d" % (32 * n), elf]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if p.returncode:
        return "model exit %d: %s" % (p.returncode, p.stderr.strip()[:200])
    words = [int(line.split(" = ")[1]) for line in p.stdout.splitlines()]
    # Every thread stored gp (register 3) in its slot: proof it ran to the
    # end of main (or of its early exit).
    gp = words[3]
    if gp == 0 or any(words[32 * t + 3] != gp for t in range(n)):
        return "some thread never stored its results (results at 0x%08x)" % res
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int,
                    default=int(os.environ.get("SEEDS", "20")))
    ap.add_argument("--first-seed", type=int,
                    default=int(os.environ.get("FIRST_SEED", "1")))
    ap.add_argument("--configs", default="4x4")
    ap.add_argument("--model", default=os.path.join("build", "bin", "simty-model"))
    ap.add_argument("--rtl", default=os.path.join(
        "build", "rtl", "core_{W}x{L}", "simty-rtl"))
    ap.add_argument("--cc", default=os.path.join("build", "bin", "simty-cc"))
    ap.add_argument("--build-dir", default=os.path.join(
        "build", "tests", "rtl-random"))
    ap.add_argument("--size", type=float, default=1.0,
                    help="program length scale (randprog.py --size)")
    ap.add_argument("--model-only", action="store_true")
    ap.add_argument("--isa", default="rv32ima",
                    choices=["rv32i", "rv32im", "rv32ima"],
                    help="the programs' ISA (randprog.py --isa; default "
                         "rv32ima: the RTL core's testbench has M and A)")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--keep-going", action="store_true")
    args = ap.parse_args()
    configs = runner.parse_configs(args.configs)
    # One directory per run, so that two runs at once (two engineers'
    # `make test`) never rebuild each other's kernels; kept if a seed
    # fails, for its reproduce command.
    top_dir = args.build_dir
    args.build_dir = os.path.join(top_dir, "run-%d" % os.getpid())
    os.makedirs(args.build_dir, exist_ok=True)
    seeds = range(args.first_seed, args.first_seed + args.seeds)

    def work(seed):
        """Returns a list of (label, reason or None)."""
        try:
            elf = build(seed, args)
        except (RuntimeError, subprocess.CalledProcessError) as e:
            return [("seed %d" % seed, str(e))]
        out = []
        for W, L in configs:
            label = "seed %d @%dx%d" % (seed, W, L)
            if args.model_only:
                out.append((label, model_only(seed, elf, W, L, args)))
                continue
            rtl = args.rtl.replace("{W}", str(W)).replace("{L}", str(L))
            # Timing stress that must not change results: a third of the
            # seeds delay dispatches and stall the console at random, a
            # third stall the console every other cycle.
            stall = [[], ["+jitter=%d" % seed], ["+console-stall"]][seed % 3]
            with tempfile.TemporaryDirectory(prefix="rtl-random-") as tmp:
                why = rtl_diff.diff_kernel(
                    args.model, rtl, elf, runner.Elf(elf), W, L,
                    ["--threads", str(threads_for(W, L, seed))], tmp,
                    rtl_options=stall)
            if why:
                why += " (reproduce: python3 tests/rtl/rtl_diff.py " \
                       "--configs %dx%d --threads %d%s %s)" % (
                           W, L, threads_for(W, L, seed),
                           "".join(" --rtl-option=" + o for o in stall),
                           elf)
            out.append((label, why))
        return out

    passed = failed = 0
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futures = [pool.submit(work, s) for s in seeds]
        for fut in futures:
            stop = False
            for label, why in fut.result():
                if why is None:
                    passed += 1
                    print("PASS %s" % label, flush=True)
                else:
                    failed += 1
                    print("FAIL %s: %s" % (label, why), flush=True)
                    stop = not args.keep_going
            if stop:
                for f in futures:
                    f.cancel()
                break
    print("%d passed, %d failed" % (passed, failed))
    if failed == 0:
        shutil.rmtree(args.build_dir, ignore_errors=True)
    else:
        print("kernels kept in %s" % args.build_dir)
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
