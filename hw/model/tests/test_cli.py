#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""test_cli.py - the simty-model CLI against the runner contract.

usage: test_cli.py SIMTY_MODEL KERNEL_ELF TRAP_KERNEL_ELF SCRATCH_DIR
                   [RACE_ELF RACE_FREE_ELF]

Checks output formats (console lines, dumps, counters, trace), the fault
line and every exit code, on a kernel built by simty-cc; with the race
kernels, the race checker (--racecheck), --schedule and --isa; the
reconvergence policies (--policy) and the statistics (--stats).
"""
import json
import os
import re
import struct
import subprocess
import sys

COUNTERS = ["cycles", "warp_insts", "thread_insts", "divergent_branches",
            "path_merges", "replays_mem", "replays_indirect", "mem_requests",
            "mem_transactions", "sched_idle_cycles", "cct_peak",
            "uniform_vectors", "affine_vectors"]

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)


def run(model, *args):
    p = subprocess.run([model, *args], capture_output=True, text=True,
                       timeout=120)
    return p.returncode, p.stdout, p.stderr


def race_checks(model, racy, race_free):
    """The race checker finds the racy kernel's one racing word, with both
    threads, pcs and symbols, and nothing in its atomic twin, whose stack
    words are reused across waves; a random schedule keeps the results."""
    n = 64
    out_want = ["out[%d] = %d" % (t, 8 * t + 28) for t in range(n)]
    rc, out, err = run(model, "--threads", str(n), "--racecheck",
                       "--dump", "out:%d" % n, racy)
    races = [l for l in err.splitlines() if l.startswith("race on ")]
    check(rc == 4, "racy kernel under --racecheck exits 4 (got %d, %r)"
          % (rc, err[:300]))
    check(out.splitlines() == out_want, "racy kernel results %r" % out[:200])
    check(len(races) == 1 and re.fullmatch(
        r"race on 0x1[0-9a-f]{7} \(shared_sum\+0x0\): "
        r"(read|write) by thread \d+ \(hart \d+\) at pc 0x[0-9a-f]{8} "
        r"\(main\+0x[0-9a-f]+\), (read|write) by thread \d+ \(hart \d+\) "
        r"at pc 0x[0-9a-f]{8} \(main\+0x[0-9a-f]+\)", races[0]) is not None,
        "one race on shared_sum reported: %r" % races)
    check("racecheck: 1 racing word\n" in err, "race count line %r" % err)
    m = re.search(r"thread (\d+) \(hart (\d+)\).*thread (\d+) \(hart (\d+)\)",
                  races[0] if races else "")
    check(m is not None and m.group(1) != m.group(3),
          "the two accesses are by different threads: %r" % races)
    rc, out, err = run(model, "--threads", str(n), racy)
    check(rc == 0 and "race" not in err, "no report without --racecheck")

    rc, out, err = run(model, "--isa", "rv32ia", "--threads", str(n),
                       "--racecheck", "--dump", "out:%d" % n,
                       "--dump", "shared_sum:1", race_free)
    check(rc == 0 and err == "racecheck: 0 racing words\n",
          "atomic kernel is race-free: %d %r" % (rc, err[:300]))
    want = out_want + ["shared_sum[0] = %d" % (n * (n - 1) // 2)]
    check(out.splitlines() == want, "atomic kernel results %r" % out[-200:])
    rc, out2, err = run(model, "--isa", "rv32ia", "--threads", str(n),
                        "--racecheck", "--schedule", "random:7",
                        "--dump", "out:%d" % n, "--dump", "shared_sum:1",
                        race_free)
    check(rc == 0 and out2 == out and "0 racing words" in err,
          "random schedule: same results, no race: %d %r" % (rc, err[:300]))
    rc, out, err = run(model, "--threads", str(n), race_free)
    check(rc == 1 and err.startswith("simty-model: ") and
          "needs the A extension" in err,
          "an rv32ia kernel on an RV32I model is refused: %d %r" % (rc, err))
    for args in (["--schedule", "random:0"], ["--schedule", "fifo"],
                 ["--isa", "rv32imc"], ["--isa", "rv64i"]):
        rc, out, err = run(model, *args, racy)
        check(rc == 2, "usage error %r exits 2 (got %d)" % (args, rc))


def policy_checks(model, elf, want, scratch):
    """Every --policy gives the same dumps and per-thread counters; --stats
    appends one JSON line per run in the contract's shape."""
    os.makedirs(scratch, exist_ok=True)
    stats = os.path.join(scratch, "stats.jsonl")
    if os.path.exists(stats):
        os.remove(stats)
    per_thread = None
    for policy in ("simty", "pc", "ipdom"):
        rc, out, err = run(model, "--threads", "8", "--args", "args_block",
                           "--dump", "out:8", "--quiet", "--counters",
                           "--policy", policy, "--stats", stats, elf)
        lines = out.splitlines()
        check(rc == 0 and lines[:8] == want[:8],
              "--policy %s results %r %r" % (policy, lines[:8], err))
        ctr = dict(l.split(" = ") for l in lines[8:])
        pt = (ctr.get("thread_insts"), ctr.get("mem_requests"))
        per_thread = per_thread or pt
        check(pt == per_thread, "--policy %s thread_insts, mem_requests %r"
              % (policy, pt))
    with open(stats) as f:
        rows = [json.loads(l) for l in f]
    check([r["policy"] for r in rows] == ["simty", "pc", "ipdom"],
          "one stats line per run: %r" % rows)
    for r in rows:
        check(sorted(r) == ["counters", "defuse", "lanes", "nthreads",
                            "policy", "warps"] and
              (r["warps"], r["lanes"], r["nthreads"]) == (4, 4, 8) and
              list(r["counters"]) == COUNTERS and
              r["defuse"]["bins"] == [1, 2, 3, 4, 8, 16, 32, 64] and
              len(r["defuse"]["counts"]) == 9 and
              r["defuse"]["counts"][0] == 0 and
              sum(r["defuse"]["counts"]) > 0, "stats line %r" % r)
    for args in (["--policy", "stack", elf], ["--policy"]):
        rc, out, err = run(model, *args)
        check(rc == 2, "usage error %r exits 2 (got %d)" % (args, rc))
    rc, out, err = run(model, "--stats", os.path.join(scratch, "no", "x"),
                       "--quiet", elf)
    check(rc == 1 and "cannot write stats" in err,
          "unwritable --stats exits 1: %d %r" % (rc, err))


def main():
    model, elf, trap_elf, scratch = sys.argv[1:5]
    data = open(elf, "rb").read()
    os.makedirs(scratch, exist_ok=True)
    trace = os.path.join(scratch, "cli.trace")

    # success: console, args, dumps, counters, trace
    rc, out, err = run(model, "--threads", "8", "--args", "args_block",
                       "--dump", "out:9", "--counters", "--trace", trace, elf)
    check(rc == 0, "clean run exits 0 (got %d, stderr %r)" % (rc, err))
    lines = out.splitlines()
    console = [l for l in lines if l.startswith("[")]
    check(sorted(console[:3]) == ["[0] line 0", "[1] line 1", "[2] line 2"],
          "finished console lines first: %r" % console)
    check(console[3:] == ["[0] part 0", "[1] part 1", "[2] part 2"],
          "unfinished lines flushed last, by thread: %r" % console)
    args = [7, 8, 9, 10]
    dumps = [l for l in lines if l.startswith("out[")]
    want = ["out[%d] = %d" % (t, args[t % 4] * t - 5) for t in range(8)]
    want.append("out[8] = 0")
    check(dumps == want, "dump lines %r" % dumps)
    names = [l.split(" = ")[0] for l in lines if " = " in l
             and not l.startswith("out[")]
    check(names == COUNTERS + ["ipc", "simd_efficiency"],
          "counter names and order %r" % names)
    check(bool(dumps) and bool(console) and
          lines.index(dumps[0]) > lines.index(console[-1]),
          "dumps after console")
    ctr = dict(l.split(" = ") for l in lines if " = " in l)
    check(re.fullmatch(r"\d+\.\d{3}", ctr.get("ipc", "")) is not None,
          "ipc has 3 decimals")
    with open(trace) as f:
        tl = f.read().splitlines()
    check(len(tl) == int(ctr.get("warp_insts", -1)),
          "one trace line per warp instruction")
    check(all(re.fullmatch(r"\d+ [0-9a-f]{8} [0-9a-f]+", l) for l in tl),
          "trace line format")
    check({l.split()[0] for l in tl} == {"0", "4"}, "trace base tids")
    check(sum(bin(int(l.split()[2], 16)).count("1") for l in tl)
          == int(ctr.get("thread_insts", -1)),
          "trace masks sum to thread_insts")

    # without --args the pointer is 0; --quiet drops the console
    rc, out, err = run(model, "--quiet", "--dump", "out:2", elf)
    check(rc == 0 and out == "out[0] = -5\nout[1] = -6\n",
          "--quiet and default args: %r" % out)

    # fault: line on stderr, dumps and counters still printed, exit 3
    rc, out, err = run(model, "--quiet", "--dump", "trap_tid:1", elf)
    check(out == "trap_tid[0] = -1\n", "trap_tid dump %r" % out)
    rc, out, err = run(model, "--dump", "out:1", "--counters", trap_elf)
    check(rc == 3, "fault exits 3 (got %d)" % rc)
    check(re.fullmatch(r"fault: ebreak \(cause 8\) pc=0x[0-9a-f]{8} "
                       r"hart=5 tid=5 addr=0x00000000\n", err)
          is not None, "fault line %r" % err)
    check("out[0] = -5" in out and "cycles = " in out,
          "dumps and counters after a fault")

    # time-out
    rc, out, err = run(model, "--max-cycles", "50", elf)
    check(rc == 3 and err.startswith("fault: timeout (cause 9) "),
          "time-out fault: %d %r" % (rc, err))

    # bad input: exit 1 with a one-line message
    def bad_input(args, what, pattern):
        rc, out, err = run(model, *args)
        check(rc == 1 and err.startswith("simty-model: ") and
              err.count("\n") == 1 and re.search(pattern, err),
              "%s: rc %d, stderr %r" % (what, rc, err))

    notelf = os.path.join(scratch, "not.elf")
    open(notelf, "w").write("hello\n")
    bad_input([notelf], "not an ELF", "not an ELF")
    bad_input([os.path.join(scratch, "missing.elf")], "missing file",
              "No such file")
    wrong = bytearray(data)
    wrong[18:20] = struct.pack("<H", 62)  # EM_X86_64
    p = os.path.join(scratch, "wrong_machine.elf")
    open(p, "wb").write(wrong)
    bad_input([p], "wrong machine", "machine")
    entry = bytearray(data)
    entry[24:28] = struct.pack("<I", 0x10000000)
    p = os.path.join(scratch, "bad_entry.elf")
    open(p, "wb").write(entry)
    bad_input([p], "entry outside code", "entry")
    bad_input(["--code-size", "64", elf], "code too large", "code")
    bad_input(["--data-size", "64", elf], "data too large", "data")
    bad_input(["--dump", "nosuch:1", elf], "missing --dump symbol", "nosuch")
    bad_input(["--args", "nosuch", elf], "missing --args symbol", "nosuch")
    bad_input(["--stack-log2", "20", elf], "stacks overlap data", "overlap")

    # usage errors: exit 2
    for args in (["--warps", "3", elf], ["--lanes", "128", elf],
                 ["--threads", "0", elf], ["--bogus", elf], [],
                 ["--dump", "out", elf], ["--stack-log2", "5", elf],
                 [elf, elf], ["--warps"],
                 # strict numbers: no leading space or sign (issue 15)
                 ["--threads", " 5", elf], ["--threads", "+5", elf],
                 ["--threads", " -1", elf], ["--max-cycles", " 9", elf]):
        rc, out, err = run(model, *args)
        check(rc == 2, "usage error %r exits 2 (got %d)" % (args, rc))

    # other configurations run the same kernel to the same results
    for w, l in (("1", "1"), ("16", "32"), ("2", "64")):
        rc, out, err = run(model, "--warps", w, "--lanes", l, "--threads",
                           "8", "--args", "args_block", "--dump", "out:8",
                           "--quiet", elf)
        check(rc == 0 and out.splitlines() == want[:8],
              "%sx%s results %r %r" % (w, l, out, err))

    policy_checks(model, elf, want, sys.argv[4])

    if len(sys.argv) > 6:
        race_checks(model, sys.argv[5], sys.argv[6])

    if failures:
        print("%d CLI check(s) failed" % len(failures))
        return 1
    print("simty-model CLI: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
