#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""bench_link.py - link throughput on the simulated board, in simulated
board time (numbers, not a test).

For each direction, a fresh simulated board (simty-sim --port 0, with the
UART PHY and the FTDI bridge's USB timing unless told otherwise) serves
one run of simty-link-bench through the host library: open, one bulk
simty_write (or simty_read) of BYTES, close. A run that only opens and
closes gives the fixed cost, which is subtracted. Rates are payload bytes
per second of simulated time (board cycles / clock); the wire rate is
BAUD / 10 bytes a second (8N1). The simulator keeps running while the
host works, so host time counts as board time (pessimistic).

Prints, per direction:
  link WRITE <B/s> <percent>% of wire
  link READ <B/s> <percent>% of wire

usage: bench_link.py --sim BUILD/bin/simty-sim --bench BUILD/bin/simty-bench-link
                     --clock-hz HZ --baud B [--bytes N] [--no-uart-phy] [--usb fs|hs|off]
"""
import argparse
import re
import subprocess
import sys


def board_run(a, phase, size):
    cmd = [a.sim, "--port", "0", "--usb", a.usb]
    if a.uart_phy:
        cmd.append("--uart-phy")
    sim = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True)
    port = None
    lines = []
    for line in sim.stderr:
        lines.append(line)
        m = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
        if m:
            port = int(m.group(1))
            break
    if port is None:
        sim.kill()
        raise SystemExit("simty-sim did not listen:\n" + "".join(lines))
    uri = "tcp://127.0.0.1:%d?margin_ms=60000" % port
    r = subprocess.run([a.bench, uri, phase, str(size)], capture_output=True, text=True,
                       timeout=3600)
    rest = sim.stderr.read()
    sim.wait(timeout=600)
    if r.returncode != 0:
        raise SystemExit("simty-bench-link %s failed:\n%s%s%s" % (phase, r.stdout, r.stderr, rest))
    m = re.search(r"simty-sim: (\d+) cycles in ([\d.]+) s", rest)
    if not m:
        raise SystemExit("no cycle report from simty-sim:\n" + rest)
    return int(m.group(1)), float(m.group(2)), r.stdout.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sim", required=True)
    ap.add_argument("--bench", required=True)
    ap.add_argument("--clock-hz", type=int, required=True)
    ap.add_argument("--baud", type=int, required=True)
    ap.add_argument("--bytes", type=int, default=1 << 20)
    ap.add_argument("--no-uart-phy", dest="uart_phy", action="store_false")
    ap.add_argument("--usb", default="fs", choices=["fs", "hs", "off"])
    a = ap.parse_args()

    base, _, _ = board_run(a, "open", 0)
    wire = a.baud / 10.0
    print("simulated board: %d Hz, %d baud (wire %.0f B/s), UART PHY %s, USB %s, "
          "%d bytes each way; open+close alone: %d cycles" % (
              a.clock_hz, a.baud, wire, "on" if a.uart_phy else "off", a.usb, a.bytes, base))
    for phase in ("write", "read"):
        cycles, secs, what = board_run(a, phase, a.bytes)
        t = (cycles - base) / float(a.clock_hz)
        rate = a.bytes / t
        print("link %s %.0f %.1f%% of wire   (%s; %d board cycles, %.2f s simulated, "
              "%.0f s wall)" % (phase.upper(), rate, 100.0 * rate / wire, what,
                                cycles - base, t, secs))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
