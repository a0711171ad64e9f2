#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""test_cli.py - the simty CLI on the model backend.

Checks that `simty run` prints exactly what simty-model prints for the same
kernel (console, --dump lines, counters), its exit codes (0, 1 bad input,
2 usage, 3 fault or time-out), the argument block (--arg, --args), --json
output of every command, and that `selftest` passes and says what it
checked. Exits 1 on the first failure, printing what differed.

  python3 tests/host/test_cli.py BUILD_DIR
"""
import json
import re
import os
import subprocess
import sys

BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
SIMTY = os.path.join(BUILD, "bin", "simty")
MODEL = os.path.join(BUILD, "bin", "simty-model")
KDIR = os.path.join(BUILD, "kernels", "tests", "host", "kernels")
checks = 0


def run(args, env_device="model"):
    env = dict(os.environ)
    env["SIMTY_DEVICE"] = env_device
    return subprocess.run(args, capture_output=True, text=True, env=env,
                          timeout=120)


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


def kernel(name):
    return os.path.join(KDIR, name + ".elf")


# 1. run matches simty-model: console lines, dumps, counters.
for threads in ("1", "7", "40"):
    common = ["--threads", threads, "--args", "table", "--dump", "out:40",
              "--dump", "table:2", "--counters", kernel("globals")]
    m = run([MODEL] + common)
    s = run([SIMTY, "run"] + common)
    check(m.returncode == 0 and s.returncode == 0, "exit codes 0", s)
    check(s.stdout == m.stdout, "simty run output == simty-model output "
          "(threads %s)" % threads, s)
    check(threads == "1" or "out[1] = 93" in s.stdout, "out[1] = -7 * 1 + 100", s)

# 2. --arg builds the argument block; negative values; @symbol.
s = run([SIMTY, "--device", "model", "run", kernel("globals"), "--threads",
         "5", "--arg", "-3", "--arg", "0x10", "--dump", "out:5"])
check(s.returncode == 0, "run with --arg", s)
check(s.stdout.splitlines()[-5:] == ["out[%d] = %d" % (i, -3 * i + 16)
                                     for i in range(5)], "--arg values", s)
check("[2] two says hi" in s.stdout, "console line of thread 2", s)
s = run([SIMTY, "run", kernel("globals"), "--threads", "1", "--arg",
         "@table", "--arg", "0", "--dump", "out:1"])
check(s.returncode == 0 and "out[0] = 0" in s.stdout, "--arg @symbol", s)
s = run([SIMTY, "run", kernel("globals"), "--quiet", "--threads", "3",
         "--args", "table"])
check(s.returncode == 0 and "two says hi" not in s.stdout, "--quiet", s)

# 3. faults: exit 3, the fault line on stderr, dumps still printed.
m = run([MODEL, "--threads", "64", "--dump", "out:2", kernel("globals")])
s = run([SIMTY, "run", kernel("globals"), "--threads", "64", "--dump",
         "out:2"])
check(m.returncode == 3 and s.returncode == 3, "fault exit code 3", s)
check(s.stderr.splitlines()[0].startswith(m.stderr.splitlines()[0]),
      "fault line: simty-model's, then the source", s)
check(s.stderr.splitlines()[0].endswith(" in main at "
                                        "tests/host/kernels/globals.c:18"),
      "fault line names the function and source line", s)
check(s.stderr.startswith("fault: load_out_of_range (cause 6)"),
      "fault names the cause", s)
check(s.stdout == m.stdout, "dumps after a fault", s)

# 4. host time-out: abort, exit 3; device time-out likewise.
s = run([SIMTY, "run", kernel("spin"), "--timeout", "100"])
check(s.returncode == 3 and "fault: aborted" in s.stderr
      and "time-out after 100 ms" in s.stderr, "host time-out", s)
s = run([SIMTY, "run", kernel("spin"), "--max-cycles", "5000"])
check(s.returncode == 3 and "fault: timeout (cause 9)" in s.stderr,
      "device time-out", s)

# 5. bad input (exit 1) and usage errors (exit 2).
for args, what in (
        ([SIMTY, "run", "/nonexistent.elf"], "missing kernel"),
        ([SIMTY, "run", "/proc/self/exe"], "not a kernel"),
        ([SIMTY, "run", kernel("globals"), "--dump", "nope:1"], "symbol"),
        ([SIMTY, "run", kernel("globals"), "--args", "nope"], "args symbol"),
        ([SIMTY, "run", kernel("globals"), "--arg", "@nope"], "arg symbol"),
        ([SIMTY, "--device", "bogus://x", "info"], "bad URI"),
        ([SIMTY, "--device", "model?data_size=65536", "run",
          kernel("big_data")], "kernel too big")):
    s = run(args)
    check(s.returncode == 1 and s.stderr.startswith("simty: "),
          what + ": exit 1 with a message", s)
for args, what in (
        ([SIMTY], "no command"),
        ([SIMTY, "frobnicate"], "unknown command"),
        ([SIMTY, "run"], "no kernel"),
        ([SIMTY, "run", kernel("globals"), "--threads", "0"], "zero threads"),
        ([SIMTY, "run", kernel("globals"), "--threads", "x"], "bad number"),
        ([SIMTY, "run", kernel("globals"), "--dump", "out"], "bad --dump"),
        ([SIMTY, "run", kernel("globals"), "--arg", "1", "--args", "table"],
         "--arg with --args"),
        ([SIMTY, "info", "--threads", "4"], "run option to info"),
        ([SIMTY, "--bogus", "info"], "unknown option")):
    s = run(args)
    check(s.returncode == 2 and "usage" in s.stderr, what + ": exit 2", s)
s = run([SIMTY, "--help"])
check(s.returncode == 0 and "selftest" in s.stdout, "--help", s)

# 6. --json for every command parses and holds what the text says.
s = run([SIMTY, "--json", "--device", "model?warps=2&lanes=8", "info"])
info = json.loads(s.stdout)
check(info["warps"] == 2 and info["lanes"] == 8 and info["backend"] ==
      "model" and info["isa"] == "rv32i" and info["xbar"] == "full",
      "info --json", s)
s = run([SIMTY, "--device", "model?xbar=rotate", "info"])
check(re.search(r"^crossbar: +rotate$", s.stdout, re.M) is not None,
      "info names the crossbar kind", s)
s = run([SIMTY, "--device", "model?isa=rv32ima_zicntr", "info"])
check(s.returncode == 0 and "isa:         rv32ima_zicntr\n" in s.stdout,
      "info names the model's extensions", s)
s = run([SIMTY, "--json", "run", kernel("globals"), "--threads", "4",
         "--args", "table", "--dump", "out:4", "--counters"])
r = json.loads(s.stdout)
check(r["status"] == "ok" and r["dumps"]["out"] == [100, 93, 86, 79]
      and r["console"] == [{"tid": 2, "text": "two says hi"}]
      and r["counters"]["thread_insts"] > 0 and r["fault"] is None,
      "run --json", s)
s = run([SIMTY, "--json", "run", kernel("globals"), "--threads", "64"])
r = json.loads(s.stdout)
check(s.returncode == 3 and r["status"] == "fault" and
      r["fault"]["name"] == "load_out_of_range", "run --json fault", s)
# A fresh model has no previous launch: said so, not zeros with exit 0
# (the counters of a persistent device: tests/host/test_cli_data.py).
s = run([SIMTY, "--json", "counters"])
c = json.loads(s.stdout)
check(s.returncode == 1 and c["error"]["code"] == "SIMTY_ENOLAUNCH"
      and "no previous launch" in c["error"]["message"],
      "counters --json on a fresh model", s)
s = run([SIMTY, "counters"])
check(s.returncode == 1 and s.stdout == ""
      and "no previous launch" in s.stderr, "counters text", s)

# 7. selftest passes on the model, in text and JSON.
s = run([SIMTY, "selftest"])
check(s.returncode == 0 and "selftest: PASS" in s.stdout, "selftest", s)
for step in ("link", "memory", "kernel", "threads", "counters",
             "divergence", "console", "fault", "abort"):
    check(any(l.split()[:2] == [step, "ok:"] for l in s.stdout.splitlines()),
          "selftest step " + step, s)
s = run([SIMTY, "--json", "--device", "model?warps=8&lanes=8", "selftest"])
r = json.loads(s.stdout)
check(s.returncode == 0 and r["failed"] == 0 and len(r["steps"]) == 9,
      "selftest --json on 8x8", s)

# 8. Wrong errors and strict options (issue 15).
s = run([SIMTY, "run", os.path.join(KDIR, "missing.elf")])
check(s.returncode == 1 and "No such file or directory" in s.stderr
      and "device not found" not in s.stderr,
      "missing kernel: the errno text, not 'device not found'", s)
s = run([SIMTY, "run", "/dev/zero"])
check(s.returncode == 1 and "not a regular file" in s.stderr,
      "/dev/zero refused at once", s)
for dev in ("model:", "model://", "sim:"):
    s = run([SIMTY, "--device", dev, "info"])
    check(s.returncode == 1 and "malformed" in s.stderr,
          "--device %s refused" % dev, s)
s = run([SIMTY, "-x", "info"])
check(s.returncode == 2 and "unknown option '-x'" in s.stderr,
      "-x named as the unknown option", s)
for bad in (" 5", "5 ", "+5", "-5", " -1", "0x", ""):
    s = run([SIMTY, "run", kernel("globals"), "--threads", bad])
    check(s.returncode == 2 and "bad value" in s.stderr,
          "--threads %r refused" % bad, s)
for bad in (" 5", "1x", ""):
    s = run([SIMTY, "run", kernel("globals"), "--arg", bad])
    check(s.returncode == 2 and "bad value" in s.stderr,
          "--arg %r refused" % bad, s)
s = run([SIMTY, "run", kernel("globals"), "--threads", "0x10", "--arg", "-7"])
check(s.returncode in (0, 3), "--threads 0x10 --arg -7 accepted", s)
VECADD = os.path.join(BUILD, "examples", "vecadd")
for bad in ("4294967297", "4294967296", " 5", "-1", "18446744073709551617"):
    s = run([VECADD, "--device", "model", "--n", bad, "--quiet"])
    check(s.returncode == 2 and "PASS" not in s.stdout,
          "vecadd --n %r refused" % bad, s)
s = run([VECADD, "--device", "model", "--n", "5000000", "--quiet"])
check(s.returncode == 2 and "--n must be" in s.stderr,
      "vecadd --n above its bound refused", s)
s = run([VECADD, "--device", "model", "--n", "100", "--quiet"])
check(s.returncode == 0 and "PASS" in s.stdout, "vecadd --n 100", s)

# 9. A launch another process left running (a board behind tcp://):
# info and counters leave it alone, abort ends it.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fake_board import FakeBoard  # noqa: E402
board = FakeBoard(running=True).start()
try:
    for cmd in ("info", "counters"):
        s = run([SIMTY, "--device", board.uri, cmd])
        check(s.returncode == 0, "%s on a busy board" % cmd, s)
        check(board.counts["ABORT"] == 0 and board.state == 1,
              "%s left the other launch running" % cmd, s)
    s = run([SIMTY, "--device", board.uri, "run", kernel("globals")])
    check(s.returncode == 1 and "busy" in s.stderr and
          board.counts["ABORT"] == 0, "run on a busy board: busy, no abort", s)
    s = run([SIMTY, "--device", board.uri, "abort"])
    check(s.returncode == 0 and "aborted the running launch" in s.stdout and
          board.counts["ABORT"] == 1 and board.state == 3,
          "abort ends the launch", s)
    s = run([SIMTY, "--json", "--device", board.uri, "abort"])
    r = json.loads(s.stdout) if s.returncode == 0 else {}
    check(r.get("aborted") is False and board.counts["ABORT"] == 1,
          "abort with nothing running", s)
finally:
    board.stop()
s = run([SIMTY, "abort"])
check(s.returncode == 0 and "no launch is running" in s.stdout,
      "abort on a fresh model", s)

print("test_cli: %d checks passed" % checks)
