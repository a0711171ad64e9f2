# SPDX-License-Identifier: Apache-2.0
"""fake_board.py - a minimal Simty board behind tcp://127.0.0.1:PORT for
the CLI tests: speaks the link protocol's framing (docs/protocol.md: COBS
between zero delimiters, 8-byte header, CRC-32) and answers INFO, STATUS,
WAIT, ABORT, COUNTERS and CONSOLE from a launch state that outlives each
connection, as a real board's does. Nothing executes: a launch is
"running" until ABORT ends it.

It serves one connection at a time (a host process), in order, and counts
the commands it received, so that a test can tell whether a program sent
ABORT.

    board = FakeBoard(running=True)   # a launch left by a dead host
    board.start()                     # board.uri: tcp://127.0.0.1:PORT
    ... run `simty --device board.uri info` ...
    board.counts["ABORT"]             # 0: info did not abort it
    board.stop()
"""
import os
import socket
import struct
import sys
import threading
import time
import zlib

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "board"))
from simty_wire import cobs_decode, cobs_encode  # noqa: E402  (one COBS codec)

VERSION = 3
COMMANDS = {1: "INFO", 2: "WRITE", 3: "READ", 4: "LAUNCH", 5: "STATUS",
            6: "WAIT", 7: "ABORT", 8: "COUNTERS", 9: "RESET", 10: "CONSOLE"}
ST_OK, ST_UNKNOWN_COMMAND, ST_NO_LAUNCH = 0, 4, 8
STATE_IDLE, STATE_RUNNING, STATE_FAULT = 0, 1, 3
FAULT_ABORTED = 10
COUNTERS = 13
WANT_COUNTERS, WANT_CONSOLE = 1, 2


def frame(command, seq, status, payload):
    body = struct.pack("<BBHHBB", VERSION, command | 0x80, seq, len(payload),
                       status, 0) + payload
    return b"\0" + cobs_encode(body + struct.pack("<I",
                                                  zlib.crc32(body))) + b"\0"


class FakeBoard:
    def __init__(self, running=False, warps=4, lanes=4):
        self.state = STATE_RUNNING if running else STATE_IDLE
        self.cause = 0
        self.warps, self.lanes = warps, lanes
        self.counts = {name: 0 for name in COMMANDS.values()}
        self.lock = threading.Lock()
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(4)
        self.port = self.sock.getsockname()[1]
        self.uri = "tcp://127.0.0.1:%d" % self.port
        self.done = False
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.done = True
        try:
            socket.create_connection(("127.0.0.1", self.port), 1).close()
        except OSError:
            pass
        self.thread.join(5)
        self.sock.close()

    def _serve(self):
        while not self.done:
            conn, _ = self.sock.accept()
            if self.done:
                conn.close()
                break
            with conn:
                self._session(conn)

    def _session(self, conn):
        buf = bytearray()
        while True:
            try:
                data = conn.recv(65536)
            except OSError:
                return
            if not data:
                return
            for b in data:
                if b != 0:
                    buf.append(b)
                    continue
                if buf:
                    answer = self._frame(bytes(buf))
                    if answer:
                        conn.sendall(answer)
                buf = bytearray()

    def _status_record(self):
        rec = bytearray(64)
        rec[0] = self.state
        rec[1] = self.cause
        struct.pack_into("<IIII", rec, 4, 1, 1000, 16, 0)
        if self.cause == FAULT_ABORTED:
            struct.pack_into("<III", rec, 24, 0xFFFFFFFF, 0xFFFFFFFF, 0)
        # The work queue: one operation (the launch), done unless running.
        struct.pack_into("<III", rec, 48, 1, 0 if self.state == STATE_RUNNING else 1,
                         1 if self.state == STATE_FAULT else 0)
        return bytes(rec)

    def _sections(self, flags):
        out = b""
        if flags & WANT_COUNTERS:
            out += b"\0" * (8 * COUNTERS)
        if flags & WANT_CONSOLE:
            out += struct.pack("<IHH", 0, 0, 0)
        return out

    def _frame(self, raw):
        try:
            f = cobs_decode(raw)
        except ValueError:
            return None
        if len(f) < 12:
            return None
        version, command, seq, length, _status, _ = struct.unpack_from(
            "<BBHHBB", f)
        if len(f) != 12 + length or zlib.crc32(f[:8 + length]) != \
                struct.unpack_from("<I", f, 8 + length)[0]:
            return None
        payload = f[8:8 + length]
        name = COMMANDS.get(command, "?")
        with self.lock:
            if name in self.counts:
                self.counts[name] += 1
        if name == "INFO":
            info = struct.pack("<BBHHHIIIIIIIHHIIHHI", VERSION, COUNTERS, 1024,
                               self.warps, self.lanes, 0x00010000, 0x10000,
                               0x10000000, 0x100000, 25000000, 0x000100,
                               3000000, 1, 0, 0, 0, 16, 0, 1024)
            return frame(command, seq, ST_OK, info)
        if name == "STATUS":
            flags = struct.unpack_from("<I", payload)[0] if length >= 4 else 0
            return frame(command, seq, ST_OK,
                         self._status_record() + self._sections(flags))
        if name == "WAIT":
            wait_ms, flags = struct.unpack_from("<II", payload)
            if self.state == STATE_RUNNING:
                time.sleep(min(wait_ms, 50) / 1000.0)
            return frame(command, seq, ST_OK,
                         self._status_record() + self._sections(flags))
        if name == "ABORT":
            if self.state != STATE_RUNNING:
                return frame(command, seq, ST_NO_LAUNCH, b"\0" * 4)
            self.state, self.cause = STATE_FAULT, FAULT_ABORTED
            return frame(command, seq, ST_OK, self._status_record())
        if name == "COUNTERS":
            return frame(command, seq, ST_OK,
                         struct.pack("<BBH", 0, COUNTERS, 0) +
                         b"\0" * (8 * COUNTERS))
        if name == "CONSOLE":
            return frame(command, seq, ST_OK, struct.pack("<IHH", 0, 0, 0))
        return frame(command, seq, ST_UNKNOWN_COMMAND, b"\0" * 4)
