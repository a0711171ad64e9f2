#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""board_time.py - board time of every example on the simulated board
(numbers, not a test): what a user waits for, from the first request to
the last answer, in simulated board cycles and milliseconds at the
board's clock, split into the kernels' launch windows (the `cycles`
counter, summed over the example's launches) and the rest (link,
firmware, host round trips).

usage: board_time.py --bin-dir BUILD/examples [--device sim] [--clock-hz HZ]
                     [NAME ...]

The clock is the device's own (`simty --json info`, the simty next to
the examples: BUILD/bin/simty) unless --clock-hz says otherwise.
"""
import argparse
import json
import os
import re
import subprocess
import sys

EXAMPLES = ["vecadd", "saxpy", "matmul", "reduction", "histogram", "mandelbrot",
            "bfs", "nw", "fib", "interp", "bitonic"]


def run(path, device):
    # The simulated board's cycle report: printed when asked.
    env = dict(os.environ, SIMTY_SIM_VERBOSE="1")
    p = subprocess.run([path, "--device", device], capture_output=True, text=True,
                       timeout=1800, env=env)
    out = p.stdout + p.stderr
    if p.returncode != 0:
        raise SystemExit("%s failed (exit %d):\n%s" % (path, p.returncode, out))
    sim = re.search(r"simty-sim: (\d+) cycles in [\d.]+ s \(\d+ cycles/s\), "
                    r"(\d+) bytes in, (\d+) out", out)
    kern = re.search(r"^cycles = (\d+)", out, re.M)
    launches = re.search(r"counters \((\d+) launch", out)
    ipc = re.search(r"^ipc = ([\d.]+)", out, re.M)
    if not sim or not kern:
        raise SystemExit("%s: no simty-sim report or cycles counter in:\n%s" % (path, out))
    return {
        "board": int(sim.group(1)), "bytes_in": int(sim.group(2)),
        "bytes_out": int(sim.group(3)), "kernel": int(kern.group(1)),
        "launches": int(launches.group(1)) if launches else 1,
        "ipc": float(ipc.group(1)) if ipc else 0.0,
    }


def device_clock_hz(bin_dir, device):
    simty = os.path.join(os.path.dirname(os.path.abspath(bin_dir)), "bin", "simty")
    p = subprocess.run([simty, "--device", device, "--json", "info"], capture_output=True,
                       text=True, timeout=600)
    if p.returncode != 0:
        raise SystemExit("%s --device %s --json info failed (exit %d): %s"
                         % (simty, device, p.returncode, p.stderr.strip()))
    hz = json.loads(p.stdout).get("clock_hz", 0)
    if not hz:
        raise SystemExit("%s reports no clock: give --clock-hz" % device)
    return hz


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin-dir", required=True)
    ap.add_argument("--device", default="sim")
    ap.add_argument("--clock-hz", type=int, help="default: the device's, from its INFO")
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    if not a.clock_hz:
        a.clock_hz = device_clock_hz(a.bin_dir, a.device)
    print("%s at %g MHz" % (a.device, a.clock_hz / 1e6))
    names = a.names or EXAMPLES
    print("| example | launches | board cycles | board ms | launch windows | "
          "link and firmware | host -> board bytes | board -> host bytes | IPC on the board |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    total = 0
    for n in names:
        r = run(os.path.join(a.bin_dir, n), a.device)
        total += r["board"]
        print("| %s | %d | %d | %.1f | %d | %d | %d | %d | %.3f |" % (
            n, r["launches"], r["board"], r["board"] * 1000.0 / a.clock_hz, r["kernel"],
            r["board"] - r["kernel"], r["bytes_in"], r["bytes_out"], r["ipc"]))
        sys.stdout.flush()
    print("| all | | %d | %.1f | | | | | |" % (total, total * 1000.0 / a.clock_hz))


if __name__ == "__main__":
    main()
