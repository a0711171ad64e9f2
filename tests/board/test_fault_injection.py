#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""test_fault_injection.py - the fault-injection suite (issue 15): the host
library against the simulated board through fault_proxy.py, which flips,
drops, inserts and duplicates bytes and delays chunks at a seeded rate.

usage: test_fault_injection.py --sim BUILD/bin/simty-sim
           --client BUILD/tests/board/fault_client --kernel .../inc.elf
           [--ops N] [--rates 0,1e-4,1e-3] [--seed S] [--margin-ms MS]
           [--op-timeout S] [--kinds flip,drop,insert,dup,delay]
           [--inc-share F] [--verbose]

One simulated board (--unpaced: the faults matter here, not the UART's
pace) serves the whole run; each operation is a fresh host process
(fault_client, libsimty over tcp://127.0.0.1:PROXY?margin_ms=MS):
  bulk   random data written at a random offset of data memory, read back,
         compared byte by byte
  inc    tests/board/kernels/inc.c: x zeroed, N threads each add 1 to
         x[tid], x read back
  kill   a host process SIGKILLed in the middle of a 256 KiB transfer
         (then a bulk and an inc), or while it loads and runs 4080
         increment threads (then an abort, which ends the launch it may
         have left running, and an inc); the next operations are new
         processes on the same board
  abort  fault_client's abort (as `simty abort`), after the launch kill
Per rate, N operations (--ops, default 12; FAULT_OPS in make, 30), with the
two kills. Asserted:
  - each operation completes with identical data, or ends with a clean
    error (SIMTY_ELINK, SIMTY_EPROTO, SIMTY_ETIMEDOUT);
  - no silent corruption: no data read back differs after success; x is
    exactly 1 everywhere after a successful inc, never above 1 at all;
  - nothing runs past its deadline (--op-timeout, each process killed
    then);
  - at rate 0 every operation completes, the ones after a kill included;
  - the board is still alive at the end and the proxy did not fail.
Per rate it prints operations, completed, clean errors, retransmissions
(the library's own count, SIMTY_LINK_STATS=1, summed over the processes
that closed their device), silent corruptions and the injected faults;
then "N passed, M failed" (checks). Exit status: 1 if any check failed."""
import argparse
import os
import random
import re
import signal
import subprocess
import sys
import time

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fault_proxy import KINDS, FaultProxy  # noqa: E402

CLEAN = ("SIMTY_ELINK", "SIMTY_EPROTO", "SIMTY_ETIMEDOUT")
DATA_OFFSET = 0x20000          # bulk data above the inc kernel's x[]
DATA_SPAN = 0x60000            # ... and below the stacks at the top
passed = 0
failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL " + name + (": " + detail if detail else ""), flush=True)
    return ok


def start_board(sim):
    log = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the board
    proc = subprocess.Popen([sim, "--port", "0", "--unpaced"],
                            stdout=log, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        m = re.search(r"listening on 127\.0\.0\.1:(\d+)", line or "")
        if m:
            return proc, int(m.group(1))
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise SystemExit("simty-sim did not start (no 'listening on' line)")


class Stats:
    def __init__(self):
        self.ops = self.completed = self.clean = self.retransmits = 0
        self.corrupt = self.hangs = self.other = self.kills = 0
        self.longest = 0.0
        self.errors = {}


def run_client(args, uri, op_args, timeout, st, label):
    """One operation in a fresh process; classifies and counts it."""
    env = dict(os.environ, SIMTY_LINK_STATS="1")
    st.ops += 1
    t0 = time.monotonic()
    proc = subprocess.Popen([args.client, uri, *op_args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        st.hangs += 1
        check(label, False, "still running after its %.0f s deadline (killed)" % timeout)
        return "hang"
    took = time.monotonic() - t0
    st.longest = max(st.longest, took)
    m = re.search(r"(\d+) retransmits", err)
    if m:
        st.retransmits += int(m.group(1))
    m = re.search(r"^RESULT (\w+)\s*(\S*)\s*(.*)$", out, re.M)
    if not m:
        st.other += 1
        check(label, False, "no RESULT line (exit %s): %s" % (proc.returncode, err.strip()[-300:]))
        return "other"
    kind, name, rest = m.groups()
    if kind == "ok" and proc.returncode == 0:
        st.completed += 1
        check(label, True)
        return "ok"
    if kind == "corrupt":
        st.corrupt += 1
        check(label, False, "SILENT CORRUPTION: %s %s" % (name, rest))
        return "corrupt"
    if kind == "error" and name in CLEAN:
        st.clean += 1
        st.errors[name] = st.errors.get(name, 0) + 1
        if args.verbose:
            print("  %s: clean error after %.1f s: %s %s" % (label, took, name, rest))
        return "clean:" + name + " " + rest
    st.other += 1
    check(label, False, "unexpected result (exit %s): %s %s %s" %
          (proc.returncode, kind, name, rest))
    return "other"


def bulk_args(rng, size=None):
    if size is None:
        size = rng.choice((rng.randint(1, 512), rng.randint(513, 8192),
                           rng.randint(8193, 49152)))
    off = DATA_OFFSET + rng.randrange(0, DATA_SPAN - size) & ~3
    return ["bulk", str(rng.randint(1, 2**32 - 1)), str(size), str(off)]


def inc_args(args, rng, threads=None):
    return ["inc", args.kernel, str(threads or rng.randint(1, 1024)),
            str(rng.randint(1, 2**31))]


def killed_host(args, uri, rng, st, launch):
    """A host process SIGKILLed during a 256 KiB write and read, or (launch)
    while it loads and runs 4080 increment threads."""
    op = inc_args(args, rng, 4080) if launch else bulk_args(rng, 256 * 1024)
    proc = subprocess.Popen([args.client, uri, *op],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(rng.uniform(0.05, 0.6))
    done = proc.poll() is not None
    if not done:
        proc.send_signal(signal.SIGKILL)
    proc.wait()
    st.kills += 1
    return done


def run_rate(args, proxy, uri, rate, seed, index):
    rng = random.Random(seed)
    proxy.set_rate(rate, seed)
    st = Stats()
    t0 = time.monotonic()
    # Two kills at distinct places, each followed by two operations.
    kill_transfer_at = rng.randrange(0, args.ops - 4)
    kill_launch_at = rng.randrange(kill_transfer_at + 2, args.ops - 1)
    i = 0
    while i < args.ops:
        label = "rate %g op %d" % (rate, i)
        if i in (kill_transfer_at, kill_launch_at):
            launch = i == kill_launch_at
            finished = killed_host(args, uri, rng, st, launch)
            # The new processes after the kill: a transfer, then a launch;
            # after a launch killed, an abort (the launch it left running,
            # if any), then a launch.
            first = ["abort"] if launch else bulk_args(rng)
            for j, op in enumerate((first, inc_args(args, rng))):
                lab = "%s (%s %d after a host killed during a %s%s)" % (
                    label, op[0], j + 1, "launch" if launch else "transfer",
                    ", which had finished" if finished else "")
                r = run_client(args, uri, op, args.op_timeout, st, lab)
                if rate == 0:
                    check(lab + " completes at rate 0", r == "ok", r)
                i += 1
            continue
        op = inc_args(args, rng) if rng.random() < args.inc_share else bulk_args(rng)
        r = run_client(args, uri, op, args.op_timeout, st, "%s (%s)" % (label, op[0]))
        if rate == 0:
            check(label + " completes at rate 0", r == "ok", r)
        i += 1
    inj = proxy.stats()
    faults = ", ".join("%d %s" % (inj.get(k, 0), k)
                       for k in ("flip", "drop", "insert", "dup", "delay"))
    errs = ", ".join("%d %s" % (v, k) for k, v in sorted(st.errors.items())) or "none"
    print("rate %g/byte: %d operations, %d completed, %d clean errors (%s), "
          "%d retransmissions, %d silent corruptions, %d hangs, %d other failures; "
          "%d hosts killed; injected %s; longest operation %.1f s; %.1f s"
          % (rate, st.ops, st.completed, st.clean, errs, st.retransmits, st.corrupt,
             st.hangs, st.other, st.kills, faults, st.longest, time.monotonic() - t0),
          flush=True)
    return st


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sim", required=True)
    ap.add_argument("--client", required=True)
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--ops", type=int, default=12, help="operations per rate")
    ap.add_argument("--rates", default="0,1e-4,1e-3")
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--margin-ms", type=int, default=300)
    ap.add_argument("--max-delay-ms", type=float, default=400.0)
    ap.add_argument("--op-timeout", type=float, default=60.0)
    ap.add_argument("--kinds", default=",".join(KINDS),
                    help="fault kinds injected (a subset of %s)" % ",".join(KINDS))
    ap.add_argument("--inc-share", type=float, default=0.35,
                    help="share of inc operations among the others (rest: bulk)")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    rates = [float(r) for r in args.rates.split(",") if r]
    kinds = [k for k in args.kinds.split(",") if k]
    if not kinds or any(k not in KINDS for k in kinds):
        ap.error("--kinds: a comma-separated subset of " + ",".join(KINDS))
    if args.ops < 5:
        ap.error("--ops: at least 5 (two kills and the two operations after each)")

    t0 = time.monotonic()
    board, board_port = start_board(args.sim)
    proxy = None
    try:
        proxy = FaultProxy("127.0.0.1", board_port, kinds=kinds,
                           max_delay_ms=args.max_delay_ms).start()
        uri = "tcp://127.0.0.1:%d?margin_ms=%d" % (proxy.port, args.margin_ms)
        print("fault injection: %d operations per rate, rates %s, faults %s, seed %d, "
              "margin %d ms, delays up to %g ms, deadline %g s per operation"
              % (args.ops, args.rates, ",".join(kinds), args.seed, args.margin_ms,
                 args.max_delay_ms, args.op_timeout), flush=True)
        total = Stats()
        for k, rate in enumerate(rates):
            st = run_rate(args, proxy, uri, rate, args.seed * 1000 + k, k)
            for f in ("ops", "completed", "clean", "retransmits", "corrupt", "hangs", "other"):
                setattr(total, f, getattr(total, f) + getattr(st, f))
        check("the proxy ran without an error", proxy.error is None, str(proxy.error))
        check("the simulated board is still serving", board.poll() is None and
              not proxy.board_closed, "exit %s" % board.poll())
        print("total: %d operations, %d completed, %d clean errors, %d retransmissions, "
              "%d silent corruptions, %d hangs; %.1f s"
              % (total.ops, total.completed, total.clean, total.retransmits, total.corrupt,
                 total.hangs, time.monotonic() - t0))
    finally:
        if proxy:
            proxy.stop()
        board.terminate()
        try:
            board.wait(timeout=10)
        except subprocess.TimeoutExpired:
            board.kill()
            board.wait()
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
