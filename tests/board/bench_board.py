#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""bench_board.py - simulated board benchmarks (numbers, not a test):

1. Link throughput: bulk WRITE then READ of SIZE bytes in max-size frames
   through simty-sim, stop-and-wait and (WRITE-w, READ-w) with the
   device's window of requests in flight, as payload bytes per second of wall-clock time and
   of simulated time (cycles / clock_hz), and as a share of the wire rate
   of the modelled UART (BAUD / 10 bytes/s for 8N1). Run unpaced (the
   byte bridge as fast as the firmware takes bytes), --paced (bytes no
   faster than the modelled UART), and with --uart-phy also on the board
   with the real UART PHY (bits on the pins, RTS flow control: what a
   board at BAUD sees).
2. Simulation speed: cycles per second while the firmware idles and while
   a kernel keeps the core busy.

Simulated cycles of a phase come from simty-sim's exit report: the cycles
of a session doing (INFO + phase) minus those of a session doing INFO
alone. The simulator runs while the host prepares frames, so host time is
counted as device time too (pessimistic for the device).

usage: bench_board.py --sim BUILD/bin/simty-sim --kernels DIR [--size BYTES] [--baud B]"""
import argparse
import os
import re
import socket
import struct
import subprocess
import sys
import time

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from board_elf import Kernel  # noqa: E402
from simty_wire import WANT_COUNTERS, Link, parse_status  # noqa: E402

DATA_BASE = 0x10000000


def session(sim, body, extra=()):
    host, dev = socket.socketpair()
    proc = subprocess.Popen([sim, "--fd", str(dev.fileno()), "--verbose", *extra],
                            pass_fds=[dev.fileno()], stderr=subprocess.PIPE, text=True)
    dev.close()
    link = Link(host, timeout=600)
    info = link.info()
    t0 = time.monotonic()
    result = body(link, info)
    wall = time.monotonic() - t0
    host.close()
    _, err = proc.communicate(timeout=600)
    m = re.search(r"(\d+) cycles in ([\d.]+) s \((\d+) cycles/s\)", err)
    if proc.returncode != 0 or not m:
        raise SystemExit("simty-sim failed: rc %s\n%s" % (proc.returncode, err))
    return result, wall, int(m.group(1)), float(m.group(2)), info


def bulk_write(size, window=False):
    """Stop-and-wait, or with the device's window kept full."""
    def body(link, info):
        chunk = info["max_payload"] - 4
        data = bytes((i * 131 + 7) & 0xFF for i in range(chunk))
        reqs = [("WRITE", struct.pack("<I", DATA_BASE + off) + data[:min(chunk, size - off)])
                for off in range(0, size, chunk)]
        rs = link.pipeline(reqs) if window else [link.request(*q) for q in reqs]
        bad = [r.status_name for r in rs if r.status != 0]
        if bad:
            raise SystemExit("WRITE failed: %s" % bad[0])
        return link.bytes_sent
    return body


def bulk_read(size, window=False):
    def body(link, info):
        chunk = info["max_payload"]
        reqs = [("READ", struct.pack("<II", DATA_BASE + off, min(chunk, size - off)))
                for off in range(0, size, chunk)]
        rs = link.pipeline(reqs) if window else [link.request(*q) for q in reqs]
        if any(r.status != 0 or len(r.payload) != min(chunk, size - i * chunk)
               for i, r in enumerate(rs)):
            raise SystemExit("READ failed")
        return link.bytes_received
    return body


def run_kernel(kernels, nthreads):
    def body(link, info):
        k = Kernel(os.path.join(kernels, "fill.elf"))
        k.load(link, info["max_payload"] - 4)
        args = (k.symbols["_end"] + 15) & ~15
        out = args + 16
        link.write(args, struct.pack("<III", nthreads, 1, out))
        r = link.launch(k.entry, nthreads, args, out + 4 * nthreads)
        if r.status != 0:
            raise SystemExit("LAUNCH failed: %s" % r.status_name)
        t0 = time.monotonic()
        while True:
            r = link.wait(1000, WANT_COUNTERS, timeout=600)
            rec = parse_status(r.payload, info["counter_count"], WANT_COUNTERS)
            if rec["state"] != "RUNNING":
                break
        if rec["state"] != "DONE":
            raise SystemExit("kernel ended %s" % rec)
        return rec["counters"][0], time.monotonic() - t0
    return body


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--kernels", required=True)
    ap.add_argument("--size", type=int, default=64 * 1024)
    ap.add_argument("--baud", type=int, default=1000000)
    ap.add_argument("--uart-phy", action="store_true",
                    help="also measure the board with the real UART PHY")
    a = ap.parse_args()

    _, _, base_cycles, _, info = session(a.sim, lambda link, info: None)
    clk = info["clock_hz"]
    wire_rate = a.baud / 10.0
    print("simulated board %dx%d, %.0f MHz, modelled UART %d baud (wire rate %.0f bytes/s), "
          "max payload %d" % (info["warps"], info["lanes"], clk / 1e6, a.baud, wire_rate,
                              info["max_payload"]))
    print("%-7s %-8s %10s %12s %12s %8s %10s" % ("op", "pacing", "bytes", "wall B/s",
                                                "sim B/s", "of wire", "wire bytes"))
    modes = [("unpaced", ()), ("paced", ("--paced",))]
    if a.uart_phy:
        modes.append(("uart-phy", ("--uart-phy",)))
    for mode, flags in modes:
        base = base_cycles
        if flags == ("--uart-phy",):
            _, _, base, _, _ = session(a.sim, lambda link, info: None, flags)
        for name, body in (("WRITE", bulk_write(a.size)), ("READ", bulk_read(a.size)),
                           ("WRITE-w", bulk_write(a.size, True)),
                           ("READ-w", bulk_read(a.size, True))):
            wire_bytes, wall, cycles, _, _ = session(a.sim, body, flags)
            sim_s = (cycles - base) / clk
            print("%-7s %-8s %10d %12.0f %12.0f %7.1f%% %10d" % (
                name, mode, a.size, a.size / wall, a.size / sim_s,
                100.0 * a.size / sim_s / wire_rate, wire_bytes))

    _, _, cycles, secs, _ = session(a.sim, lambda link, info: time.sleep(3.0))
    print("simulation speed, firmware idle: %.0f cycles/s" % (cycles / secs))
    (kcycles, kwall), _, _, _, _ = session(a.sim, run_kernel(a.kernels, 4096))
    print("simulation speed, kernel running (fill, 4096 threads, %d cycles): %.0f cycles/s"
          % (kcycles, kcycles / kwall))


if __name__ == "__main__":
    main()
