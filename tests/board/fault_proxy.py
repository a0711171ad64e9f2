#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""fault_proxy.py - a TCP proxy that damages the link between the host
library (tcp://127.0.0.1:PORT) and a simulated board (simty-sim --port).

It keeps one connection to the board for its whole life (simty-sim serves
one connection, like a serial port that stays plugged in) and accepts host
connections one after the other: a new host connection replaces the
previous one, bytes the board sends while no host is connected are
dropped (counted), bytes a host sent before it died still reach the board.
Only loopback addresses are used.

At a seeded per-byte rate, in both directions, each fault is one of:
  flip    one bit of the byte inverted
  drop    the byte removed
  insert  a random byte inserted before it
  dup     the byte sent twice
  delay   the stream stalled before it for 1 .. max_delay_ms (order kept)
The kinds are equally likely; gaps between faults are geometric, so the
rate holds across chunk boundaries.

usage (standalone): fault_proxy.py --board-port N [--rate R] [--seed S]
                    [--kinds flip,drop,...] [--max-delay-ms MS]
prints "fault_proxy: listening on 127.0.0.1:PORT", runs until SIGINT or
SIGTERM (or the board closes), then prints the faults it injected.
The suite (test_fault_injection.py) runs it in a thread."""
import argparse
import collections
import ipaddress
import math
import random
import select
import signal
import socket
import sys
import threading
import time

KINDS = ("flip", "drop", "insert", "dup", "delay")


def _loopback(host):
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class _Direction:
    """One way through the proxy: its fault stream and pending chunks."""

    def __init__(self, name):
        self.name = name
        self.rng = random.Random(0)
        self.gap = 0          # bytes before the next fault
        self.queue = collections.deque()   # (release time, bytes)
        self.last_release = 0.0


class FaultProxy:
    def __init__(self, board_host, board_port, rate=0.0, seed=1,
                 kinds=KINDS, max_delay_ms=300.0):
        if not _loopback(board_host):
            raise ValueError("the board must be on a loopback address, not %s" % board_host)
        self.board = socket.create_connection((board_host, board_port), timeout=10)
        self.board.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.board.settimeout(10)
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(4)
        self.port = self.listener.getsockname()[1]
        self.client = None
        self.kinds = tuple(kinds)
        self.max_delay_ms = max_delay_ms
        self.lock = threading.Lock()
        self.up = _Direction("host->board")
        self.down = _Direction("board->host")
        self.counts = collections.Counter()
        self.board_closed = False
        self.error = None
        self._stop = False
        self._thread = None
        self.set_rate(rate, seed)

    # ---- configuration and figures (thread-safe) ----
    def set_rate(self, rate, seed):
        """New rate and seed for both directions; resets the counters."""
        with self.lock:
            self.rate = float(rate)
            for k, d in enumerate((self.up, self.down)):
                d.rng = random.Random(seed * 2 + k)
                d.gap = self._next_gap(d)
            self.counts = collections.Counter()

    def stats(self):
        with self.lock:
            return dict(self.counts)

    # ---- faults ----
    def _next_gap(self, d):
        if self.rate <= 0:
            return math.inf
        if self.rate >= 1:
            return 0
        u = d.rng.random()
        return int(math.log(1.0 - u) / math.log(1.0 - self.rate))

    def _mutate(self, d, data):
        """[(delay_s, bytes)] for a chunk read from one side."""
        if self.rate <= 0:
            return [(0.0, data)]
        segs, cur, delay, i, n = [], bytearray(), 0.0, 0, len(data)
        while True:
            if d.gap >= n - i:
                d.gap -= n - i
                cur += data[i:]
                break
            cur += data[i:i + d.gap]
            i += d.gap
            kind = d.rng.choice(self.kinds)
            self.counts[kind] += 1
            if kind == "flip":
                cur.append(data[i] ^ (1 << d.rng.randrange(8)))
                i += 1
            elif kind == "drop":
                i += 1
            elif kind == "insert":
                cur.append(d.rng.randrange(256))
            elif kind == "dup":
                cur += bytes((data[i], data[i]))
                i += 1
            else:  # delay: what is before goes now, the rest later
                segs.append((delay, bytes(cur)))
                cur = bytearray()
                delay += d.rng.uniform(0.001, self.max_delay_ms / 1000.0)
            d.gap = self._next_gap(d)
        segs.append((delay, bytes(cur)))
        return [(t, s) for t, s in segs if s]

    def _schedule(self, d, data):
        now = time.monotonic()
        with self.lock:
            segs = self._mutate(d, data)
        base = max(now, d.last_release)
        for delay, seg in segs:
            d.last_release = max(d.last_release, base + delay)
            d.queue.append((d.last_release, seg))

    # ---- forwarding ----
    def _drop_client(self):
        if self.client is not None:
            try:
                self.client.close()
            except OSError:
                pass
            self.client = None
            self.down.queue.clear()
            self.down.last_release = 0.0

    def _flush(self, d, sock):
        now = time.monotonic()
        while d.queue and d.queue[0][0] <= now:
            _, seg = d.queue.popleft()
            if sock is None:
                with self.lock:
                    self.counts["discarded"] += len(seg)
                continue
            sock.sendall(seg)

    def serve_forever(self):
        try:
            self._loop()
        except Exception as e:  # noqa: BLE001 - reported to the suite
            self.error = "%s: %s" % (type(e).__name__, e)
        finally:
            for s in (self.client, self.board, self.listener):
                try:
                    if s is not None:
                        s.close()
                except OSError:
                    pass

    def _loop(self):
        while not self._stop:
            waits = [self.listener, self.board] + ([self.client] if self.client else [])
            pending = [q[0][0] for q in (self.up.queue, self.down.queue) if q]
            timeout = 0.05
            if pending:
                timeout = max(0.0, min(timeout, min(pending) - time.monotonic()))
            readable, _, _ = select.select(waits, [], [], timeout)
            if self.listener in readable:
                conn, addr = self.listener.accept()
                if not _loopback(addr[0]):
                    conn.close()
                else:
                    self._drop_client()
                    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                    conn.settimeout(10)
                    self.client = conn
                    with self.lock:
                        self.counts["connections"] += 1
            if self.board in readable:
                data = self.board.recv(65536)
                if not data:
                    self.board_closed = True
                    return
                if self.client is None:
                    with self.lock:
                        self.counts["discarded"] += len(data)
                else:
                    self._schedule(self.down, data)
            if self.client is not None and self.client in readable:
                try:
                    data = self.client.recv(65536)
                except OSError:
                    data = b""
                if not data:
                    self._drop_client()
                else:
                    self._schedule(self.up, data)
            self._flush(self.up, self.board)
            try:
                self._flush(self.down, self.client)
            except OSError:
                self._drop_client()

    def start(self):
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self):
        self._stop = True
        if self._thread:
            self._thread.join(timeout=5)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--board-host", default="127.0.0.1")
    ap.add_argument("--board-port", type=int, required=True)
    ap.add_argument("--rate", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--max-delay-ms", type=float, default=300.0)
    a = ap.parse_args()
    kinds = [k for k in a.kinds.split(",") if k]
    if not kinds or any(k not in KINDS for k in kinds):
        ap.error("--kinds: a comma-separated subset of " + ",".join(KINDS))
    try:
        p = FaultProxy(a.board_host, a.board_port, a.rate, a.seed, kinds, a.max_delay_ms)
    except (OSError, ValueError) as e:
        print("fault_proxy: %s" % e, file=sys.stderr)
        return 1

    def on_term(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, on_term)
    print("fault_proxy: listening on 127.0.0.1:%d" % p.port, file=sys.stderr, flush=True)
    try:
        p.serve_forever()
    except KeyboardInterrupt:
        pass
    print("fault_proxy: injected %s%s" % (p.stats(), "; " + p.error if p.error else ""),
          file=sys.stderr)
    return 1 if p.error else 0


if __name__ == "__main__":
    sys.exit(main())
