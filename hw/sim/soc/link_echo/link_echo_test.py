#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""link_echo_test.py - the link engine inside the real SoC: simty-sim runs
echo.c (this directory) on the controller; this script sends frames (a
COBS + CRC-32 codec of its own, written from docs/protocol.md), up to 4 at
a time, with garbage, corrupt frames and runts between them, and checks
every answer: the payload back after three COPYs through DATA and CODE,
or the status BAD_CRC / BAD_LENGTH for a corrupt frame; runts and garbage
get no answer.

usage: link_echo_test.py --sim BUILD/bin/simty-sim --fw echo.hex [--uart-phy]
"""
import argparse
import os
import random
import socket
import struct
import subprocess
import sys
import zlib

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "..", "tests", "board"))
from simty_wire import cobs_decode, cobs_encode  # noqa: E402  (one COBS codec)

failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL", what)


def cobs(data):
    """0x00, COBS(data), 0x00: a frame as it goes on the wire."""
    return b"\0" + cobs_encode(data) + b"\0"


def frame(cmd, seq, payload, version=2):
    body = struct.pack("<BBHHBB", version, cmd, seq, len(payload), 0, 0) + payload
    return body + struct.pack("<I", zlib.crc32(body))


class Link:
    def __init__(self, sock):
        self.sock = sock
        self.buf = bytearray()

    def send(self, data):
        self.sock.sendall(data)

    def receive(self):
        while True:
            if 0 in self.buf:
                k = self.buf.index(0)
                enc, self.buf = bytes(self.buf[:k]), self.buf[k + 1:]
                if enc:
                    return cobs_decode(enc)
                continue
            more = self.sock.recv(65536)
            if not more:
                raise EOFError("link closed")
            self.buf += more


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--fw", required=True)
    ap.add_argument("--uart-phy", action="store_true")
    a = ap.parse_args()
    rng = random.Random(12)
    host, dev = socket.socketpair()
    env = dict(os.environ, SIMTY_SIM_FW=a.fw)
    args = [a.sim, "--fd", str(dev.fileno())] + (["--uart-phy"] if a.uart_phy else [])
    proc = subprocess.Popen(args, pass_fds=[dev.fileno()], env=env,
                            stderr=subprocess.PIPE, text=True)
    dev.close()
    host.settimeout(120.0)
    link = Link(host)

    # Requests: (wire bytes, expected answer or None)
    reqs = []
    sizes = [0, 1, 2, 3, 253, 254, 255, 600, 1000, 4095, 4096]
    if not a.uart_phy:
        sizes += [rng.randrange(0, 4097) for _ in range(20)]
    seq = 1
    for n in sizes:
        kind = rng.choice(["rand", "zeros", "nonzero"])
        p = (bytes(n) if kind == "zeros" else
             bytes(rng.randrange(1, 256) for _ in range(n)) if kind == "nonzero" else
             bytes(rng.randrange(256) for _ in range(n)))
        f = frame(3, seq, p)
        reqs.append((cobs(f), ("ok", 3 | 0x80, seq, p)))
        seq += 1
        r = rng.random()
        if r < 0.2:
            g = bytes(rng.randrange(0, 256) for _ in range(rng.randrange(1, 30)))
            reqs.append((g, "garbage"))  # answers unpredictable: see below
        elif r < 0.4:
            bad = bytearray(frame(5, seq, bytes(rng.randrange(256) for _ in range(40))))
            bad[12] ^= 0x40
            reqs.append((cobs(bytes(bad)), ("bad", 5 | 0x80, seq, 1)))
            seq += 1
        elif r < 0.55:
            short = frame(6, seq, b"abcdefgh")[:-1]  # size != 12 + length
            reqs.append((cobs(short), ("bad", 6 | 0x80, seq, 2)))
            seq += 1
        elif r < 0.7:
            reqs.append((b"\0\x03ab\0", None))  # runt: no answer
    # Garbage may decode into anything: follow it with a lone zero and
    # accept (and skip) answers that match no request.
    pending = []
    sent = 0
    answered = 0
    want_answers = [e for _, e in reqs if isinstance(e, tuple)]
    i = 0
    while answered < len(want_answers):
        while i < len(reqs) and len(pending) < 4:
            wire, e = reqs[i]
            link.send(wire + (b"\0" if e == "garbage" else b""))
            if isinstance(e, tuple):
                pending.append(e)
            i += 1
            sent += 1
        r = link.receive()
        if len(r) < 12:
            check(False, "answer shorter than a header: %r" % r[:16])
            continue
        ver, cmd, rseq, length, status, _ = struct.unpack_from("<BBHHBB", r)
        crc_ok = zlib.crc32(r[:-4]) == struct.unpack_from("<I", r, len(r) - 4)[0]
        check(crc_ok and len(r) == 12 + length, "answer frame sound (seq %d)" % rseq)
        e = pending[0]
        if (cmd, rseq) != (e[1], e[2]):
            # an answer to something garbage made: not ours
            continue
        pending.pop(0)
        answered += 1
        if e[0] == "ok":
            check(status == 0 and r[8:-4] == e[3],
                  "echo of %d bytes (seq %d): status %d, %d bytes back" %
                  (len(e[3]), rseq, status, length))
        else:
            check(status == e[3] and length == 0,
                  "corrupt frame (seq %d) answered status %d, want %d" % (rseq, status, e[3]))
    host.close()
    try:
        _, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
    check(proc.returncode == 0, "simty-sim exit %s: %s" % (proc.returncode, err[-300:]))
    print("link echo%s: %d answers checked, %s" %
          (" (UART PHY)" if a.uart_phy else "", answered, err.strip().splitlines()[-1:]))
    print("link-echo: %d failure(s)" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
