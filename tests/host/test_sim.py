#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""test_sim.py - the host library and CLI against the simulated board
(device URI `sim`: the library spawns build/bin/simty-sim on a socket
pair). Checks that the board passes `simty selftest`, that a host program
(vecadd) gets the CPU's result, and that `simty run` on the board gives
the same memory and the same model-exact counters (all but cycles and
sched_idle_cycles, docs/architecture.md section 6) as simty-model; and
that the device stream (tests/host/test_stream.c) behaves the same on
the board and on the model; and that `sim?xbar=rotate` runs the board
built with the rotate crossbar, counting its transactions as the model
does.

  python3 tests/host/test_sim.py BUILD_DIR
"""
import os
import subprocess
import sys

BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
SIMTY = os.path.join(BUILD, "bin", "simty")
MODEL = os.path.join(BUILD, "bin", "simty-model")
KDIR = os.path.join(BUILD, "kernels", "tests", "host", "kernels")
env = dict(os.environ)
env["SIMTY_SIM"] = os.path.abspath(os.path.join(BUILD, "bin", "simty-sim"))


def run(args):
    p = subprocess.run(args, capture_output=True, text=True, env=env,
                       timeout=600)
    return p


def fail(what, p):
    print("FAIL:", what)
    print("--- exit", p.returncode)
    print("--- stdout\n" + p.stdout)
    print("--- stderr\n" + p.stderr)
    sys.exit(1)


p = run([SIMTY, "--device", "sim", "selftest"])
print(p.stdout, end="")
if p.returncode != 0 or "selftest: PASS" not in p.stdout:
    fail("selftest on the simulated board", p)

p = run([os.path.join(BUILD, "examples", "vecadd"), "--device", "sim",
         "--n", "100", "--quiet"])
if p.returncode != 0 or "vecadd: PASS" not in p.stdout:
    fail("vecadd on the simulated board", p)
print("vecadd on sim: PASS")

NOT_EXACT = {"cycles", "sched_idle_cycles", "ipc"}
for name, extra in (("globals", ["--args", "table", "--dump", "out:40"]),
                    ("globals", ["--dump", "out:40"])):
    args = ["--threads", "40", "--counters"] + extra
    m = run([MODEL] + args + [os.path.join(KDIR, name + ".elf")])
    s = run([SIMTY, "--device", "sim", "run",
             os.path.join(KDIR, name + ".elf")] + args)
    if s.returncode != m.returncode:
        fail("%s: exit %d on sim, %d on the model" % (name, s.returncode,
                                                      m.returncode), s)
    # A fault stops every warp wherever it is: how far the others got
    # depends on timing, so counters are compared for complete launches.
    skip = NOT_EXACT if m.returncode == 0 else None
    ml = [l for l in m.stdout.splitlines()
          if skip is not None and l.split(" = ")[0] not in skip
          or skip is None and l.split(" = ")[0].endswith("]")]
    sl = [l for l in s.stdout.splitlines()
          if skip is not None and l.split(" = ")[0] not in skip
          or skip is None and l.split(" = ")[0].endswith("]")]
    if ml != sl:
        diff = [(a, b) for a, b in zip(ml, sl) if a != b]
        fail("%s: sim and model differ: %s" % (name, diff[:5]), s)
    if m.returncode == 3:
        # Same fault, pc and address. Every thread faults here, and which
        # warp gets there first depends on timing: the reported thread
        # only has to be a valid one, on the lane of its hardware thread.
        def record(line):
            f = dict(kv.split("=") for kv in line.split() if "=" in kv)
            return line.split(" pc=")[0], f
        (ms, mf), (ss, sf) = (record(m.stderr.splitlines()[0]),
                              record(s.stderr.splitlines()[0]))
        tid, hart = int(sf["tid"]), int(sf["hart"])
        if (ss != ms or sf["pc"] != mf["pc"] or sf["addr"] != mf["addr"]
                or tid >= 40 or hart % 4 != tid % 4):
            fail("%s: fault record differs: %s vs %s" % (
                name, s.stderr.splitlines()[0], m.stderr.splitlines()[0]), s)
    print("%s on sim == model (%d lines compared)" % (name, len(ml)))

# The device stream (tests/host/test_stream.c): write, launches, write,
# launches, reads in one submission; a fault in the third of five queued
# launches; the same output on both devices but for its timing lines.
STREAM = os.path.join(BUILD, "tests", "host", "test_stream")
outs = {}
for dev in ("sim", "model"):
    p = run([STREAM, dev])
    if p.returncode != 0 or "test_stream: PASS" not in p.stdout:
        fail("test_stream on %s" % dev, p)
    outs[dev] = [l for l in p.stdout.splitlines() if not l.startswith("~ ")]
    timing = [l[2:] for l in p.stdout.splitlines() if l.startswith("~ wait")]
    print("stream on %s: PASS (%s)" % (dev, timing[0] if timing else ""))
if outs["sim"] != outs["model"]:
    diff = [(a, b) for a, b in zip(outs["sim"], outs["model"]) if a != b]
    print("FAIL: test_stream differs between sim and model:", diff[:5])
    sys.exit(1)
print("stream on sim == model (%d lines compared)" % len(outs["sim"]))

# sim?xbar=rotate: the simulated board built with the rotate crossbar
# (make simty-sim-4x4_rotate) reports it, and a kernel whose blocks read
# their line reversed (lane l at word 3 - l) gives the same memory and the
# same exact counters as the model with that crossbar: 2 transactions for
# the load of each block of 4 (lanes k and k + 2 per transaction), 1 for
# the store; on the full board 1 and 1 (docs/architecture.md 3).
p = run([SIMTY, "--device", "sim?xbar=rotate", "info"])
if p.returncode != 0 or "crossbar:    rotate" not in p.stdout:
    fail("simty info on sim?xbar=rotate", p)
p = run([SIMTY, "--device", "sim", "info"])
if p.returncode != 0 or "crossbar:    full" not in p.stdout:
    fail("simty info on sim", p)
REVERSE = os.path.join(KDIR, "reverse.elf")
args = ["run", REVERSE, "--threads", "16", "--fill", "in:64:0,1",
        "--dump", "out:16", "--counters"]
for sim, model, transactions in (("sim?xbar=rotate", "model?xbar=rotate", 12),
                                 ("sim?xbar=full", "model", 8)):
    s = run([SIMTY, "--device", sim] + args)
    m = run([SIMTY, "--device", model] + args)
    if s.returncode != 0 or m.returncode != 0:
        fail("reverse on %s / %s" % (sim, model), s if s.returncode else m)
    sl = [l for l in s.stdout.splitlines() if l.split(" = ")[0] not in NOT_EXACT]
    ml = [l for l in m.stdout.splitlines() if l.split(" = ")[0] not in NOT_EXACT]
    if sl != ml:
        diff = [(a, b) for a, b in zip(sl, ml) if a != b]
        fail("reverse: %s and %s differ: %s" % (sim, model, diff[:5]), s)
    want = ["out[%d] = %d" % (t, 2 * (t - t % 4 + 3 - t % 4) + 1)
            for t in range(16)] + ["mem_transactions = %d" % transactions]
    missing = [w for w in want if w not in sl]
    if missing:
        fail("reverse on %s: missing %s" % (sim, missing[:3]), s)
    print("reverse on %s == %s (%d lines compared, %d transactions)" % (
        sim, model, len(sl), transactions))
print("test_sim: PASS")
