#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""run_kernels.py - the kernel test suites (tests/kernels/) on the RTL.

Runs tests/kernels/runner.py with --exe 'build/rtl/core_{W}x{L}/simty-rtl'
once per configuration, leaving out only the tests whose `data-size:` or
`code-size:` differ from the RTL build's at that configuration: populated
memory sizes are parameters of the core (the testbench refuses other
sizes with exit 2), so those tests belong to the model. Every other test
runs with exactly the expectations it has on the model.

    run_kernels.py --configs 1x4,4x4,8x8,2x32 [--suite isa,simt,bad]
    run_kernels.py --configs 8x8,2x32 --xbar rotate \
        --rtl 'build/rtl/core_{W}x{L}_rotate/simty-rtl'

--xbar rotate runs a core built with the rotate crossbar: runner.py
gives the testbench --xbar rotate (a full-crossbar build refuses it) and
the expectations XBAR = rotate (tests/README.md).
"""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import rtl_diff  # noqa: E402
import runner  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--configs", default="4x4")
    ap.add_argument("--suite", default="isa,simt,bad")
    ap.add_argument("--rtl", default="build/rtl/core_{W}x{L}/simty-rtl")
    ap.add_argument("--xbar", choices=("full", "rotate"),
                    help="the crossbar kind the --rtl binaries are built "
                    "with (default: not passed, full)")
    ap.add_argument("--jobs", default="2")
    ap.add_argument("--cc", default=os.path.join("build", "bin", "simty-cc"))
    ap.add_argument("--build-dir", default=os.path.join(
        "build", "tests", "rtl-kernels"))
    a = ap.parse_args()

    suite_dir = os.path.join(REPO, "tests", "kernels")
    suites = [s for s in a.suite.split(",")
              if os.path.isdir(os.path.join(suite_dir, s))]
    tests = runner.find_tests(suite_dir, suites)
    status = 0
    for W, L in runner.parse_configs(a.configs):
        keep, skipped = [], []
        for test in tests:
            for variant in test.variants:
                name = "%s/%s" % (test.suite, test.stem)
                if variant[0]:
                    name += "/" + variant[0]
                fits = rtl_diff.fits_rtl(test, variant, W, L)
                (keep if fits else skipped).append(name)
        # runner.py -k selects by substring: make sure no skipped test
        # sneaks in through the name of a kept one.
        for s in skipped:
            for k in keep:
                if k in s:
                    sys.exit("run_kernels: cannot select %s without %s" % (k, s))
        if skipped:
            print("run_kernels: at %dx%d%s, not on RTL (memory size is a build "
                  "parameter, ISA extensions the core lacks, or checks of "
                  "their absence): %s" % (W, L, " " + a.xbar if a.xbar else "",
                                          ", ".join(skipped)), flush=True)
        if not keep:
            continue
        cmd = [sys.executable, os.path.join(suite_dir, "runner.py"),
               "--exe", a.rtl, "--configs", "%dx%d" % (W, L),
               "--suite", ",".join(suites), "--jobs", a.jobs, "--keep-going",
               "--isa", rtl_diff.RTL_ISA,
               "--cc", a.cc, "--build-dir", a.build_dir]
        if a.xbar:
            cmd += ["--xbar", a.xbar]
        for k in keep:
            cmd += ["-k", k]
        status |= subprocess.run(cmd).returncode
    return status


if __name__ == "__main__":
    sys.exit(main())
