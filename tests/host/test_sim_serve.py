#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""test_sim_serve.py - the simulated board as a persistent device, and
quiet unless asked.

One `simty-sim --serve --port 0` board: `simty info`, `simty run
--counters`, `simty counters` one after another, each its own connection;
the counters command sees the run's counters. Then `simty abort` with
nothing running, a fault with its source line, the next run; a
stack overflow (the stack guard) and the same kernel with larger stacks; a host
killed mid-launch leaves the launch running on the board, the next
commands see it (run refused as busy) and `abort` ends it; the board
exits 0 at SIGTERM. On the
`sim` URI: `simty counters` says there is no previous launch (exit 1), the
board prints nothing on stderr unless sim?verbose=1 or SIMTY_SIM_VERBOSE=1.

  python3 tests/host/test_sim_serve.py BUILD_DIR
"""
import json
import os
import re
import signal
import subprocess
import sys
import time

BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
SIMTY = os.path.join(BUILD, "bin", "simty")
SIM = os.path.join(BUILD, "bin", "simty-sim")
KERNEL = os.path.join(BUILD, "kernels", "tests", "host", "kernels", "globals.elf")
checks = 0


def run(args, env=None):
    e = dict(os.environ)
    e.pop("SIMTY_SIM_VERBOSE", None)
    e.update(env or {})
    return subprocess.run(args, capture_output=True, text=True, timeout=300,
                          env=e)


def check(cond, what, proc=None):
    global checks
    checks += 1
    if not cond:
        print("FAIL:", what)
        if proc is not None:
            print("--- exit", proc.returncode)
            print("--- stdout\n" + proc.stdout)
            print("--- stderr\n" + proc.stderr)
        sys.exit(1)


board = subprocess.Popen([SIM, "--serve", "--port", "0", "--unpaced"],
                         stderr=subprocess.PIPE, text=True)
try:
    line = board.stderr.readline()
    m = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
    check(m is not None, "simty-sim --serve says where it listens: " + line)
    uri = "tcp://localhost:" + m.group(1)

    s = run([SIMTY, "--device", uri, "info"])
    check(s.returncode == 0 and "4 warps x 4 lanes" in s.stdout, "info", s)
    s = run([SIMTY, "--device", uri, "--json", "info"])
    info = json.loads(s.stdout)
    check(re.fullmatch(r"\d+\.\d+\.\d+", info["firmware_version"]) is not None,
          "JSON firmware_version as the text prints it", s)
    s = run([SIMTY, "--device", uri, "--json", "run", KERNEL, "--threads",
             "40", "--args", "table", "--dump", "out:40", "--counters"])
    r = json.loads(s.stdout)
    check(s.returncode == 0 and r["dumps"]["out"][1] == 93,
          "run on the served board", s)
    s = run([SIMTY, "--device", uri, "--json", "counters"])
    c = json.loads(s.stdout)
    check(s.returncode == 0 and c == r["counters"] and c["cycles"] > 0,
          "counters on the next connection are the run's", s)
    s = run([SIMTY, "--device", uri, "counters"])
    check(s.returncode == 0 and "cycles = %d" % c["cycles"] in s.stdout,
          "counters text", s)
    s = run([SIMTY, "--device", uri, "abort"])
    check(s.returncode == 0 and "no launch is running" in s.stdout,
          "abort with nothing running", s)
    s = run([SIMTY, "--device", uri, "run", KERNEL, "--threads", "64"])
    check(s.returncode == 3 and "fault: load_out_of_range" in s.stderr and
          " in main at " in s.stderr, "a fault, with its source line", s)
    s = run([SIMTY, "--device", uri, "run", KERNEL, "--threads", "4",
             "--args", "table", "--dump", "out:2"])
    check(s.returncode == 0 and s.stdout.splitlines()[-2:] ==
          ["out[0] = 100", "out[1] = 93"], "the board takes the next run", s)
    # A frame larger than the stack: the stack guard's fault, then the
    # board runs the next launch.
    deep = os.path.join(os.path.dirname(KERNEL), "deep_frame.elf")
    s = run([SIMTY, "--device", uri, "run", deep, "--threads", "16"])
    check(s.returncode == 3 and
          "fault: stack_overflow (cause 11)" in s.stderr and
          " in main at " in s.stderr, "a stack overflow faults", s)
    s = run([SIMTY, "--device", uri, "run", deep, "--threads", "16",
             "--stack-log2", "11", "--dump", "out:2"])
    check(s.returncode == 0 and s.stdout.splitlines()[-2:] ==
          ["out[0] = 0", "out[1] = 2"],
          "the board runs the same kernel with 2 KiB stacks", s)
    # A host killed mid-launch: the board keeps running the launch, as a
    # board would; the next commands see it and `abort` ends it.
    spin = os.path.join(os.path.dirname(KERNEL), "spin.elf")
    host = subprocess.Popen([SIMTY, "--device", uri, "run", spin,
                             "--timeout", "600000"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(3)
    host.kill()
    host.wait()
    s = run([SIMTY, "--device", uri, "info"])
    check(s.returncode == 0, "info while an orphan launch runs", s)
    s = run([SIMTY, "--device", uri, "run", KERNEL])
    check(s.returncode == 1 and "busy" in s.stderr,
          "run refused while the orphan launch runs", s)
    s = run([SIMTY, "--device", uri, "abort"])
    check(s.returncode == 0 and "aborted the running launch" in s.stdout,
          "abort ends the launch the killed host left", s)
    s = run([SIMTY, "--device", uri, "run", KERNEL, "--threads", "2",
             "--args", "table", "--dump", "out:2"])
    check(s.returncode == 0 and s.stdout.splitlines()[-1] == "out[1] = 93",
          "the board runs again after the abort", s)
finally:
    board.send_signal(signal.SIGTERM)
    _, err = board.communicate(timeout=60)
check(board.returncode == 0 and "host connected (connection 15)" in err,
      "the served board took 15 connections and exits 0 at SIGTERM: " + err[-300:])

# The sim URI: a board for one command, quiet unless asked.
s = run([SIMTY, "--device", "sim", "counters"])
check(s.returncode == 1 and "no previous launch" in s.stderr and
      "cycles/s" not in s.stderr, "counters on a fresh sim device", s)
s = run([SIMTY, "--device", "sim", "run", KERNEL, "--threads", "4",
         "--args", "table", "--dump", "out:1"])
check(s.returncode == 0 and s.stderr == "", "the sim URI: a quiet board", s)
s = run([SIMTY, "--device", "sim", "run", KERNEL, "--trace", "t.txt"])
check(s.returncode == 1 and "not supported by this device" in s.stderr,
      "--trace on the simulated board: not supported", s)
s = run([SIMTY, "--device", "sim?verbose=1", "info"])
check(s.returncode == 0 and "cycles/s" in s.stderr, "sim?verbose=1", s)
s = run([SIMTY, "--device", "sim", "info"], env={"SIMTY_SIM_VERBOSE": "1"})
check(s.returncode == 0 and "cycles/s" in s.stderr, "SIMTY_SIM_VERBOSE=1", s)

print("test_sim_serve: %d checks passed" % checks)
