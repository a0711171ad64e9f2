# SPDX-License-Identifier: Apache-2.0
"""simty_wire.py - the host link protocol of docs/protocol.md, written
again in Python from the document (not from the C codec) so that the
board tests cross-check the firmware and driver/link/simty_link.c.

Frames: 8-byte header (version, command, seq u16, length u16, status,
reserved), payload, CRC-32 (IEEE, zlib's) of everything before it; on the
wire 0x00, COBS(frame), 0x00. All fields little-endian.

Protocol version 2: a session opens with INFO, which reports the device's
window (requests a host may have outstanding). Link.request() is
stop-and-wait (one request, its answer); Link.send() and Link.answer()
put several requests in flight and collect their answers by (command,
seq), and Link.pipeline() does both for a list of requests."""
import os
import select
import socket
import struct
import time
import zlib

VERSION = 3
HDR = struct.Struct("<BBHHBB")
RESPONSE = 0x80

CMD = {"INFO": 0x01, "WRITE": 0x02, "READ": 0x03, "LAUNCH": 0x04, "STATUS": 0x05,
       "WAIT": 0x06, "ABORT": 0x07, "COUNTERS": 0x08, "RESET": 0x09, "CONSOLE": 0x0A}
ST = {"OK": 0, "BAD_CRC": 1, "BAD_LENGTH": 2, "BAD_VERSION": 3, "UNKNOWN_COMMAND": 4,
      "OUT_OF_RANGE": 5, "PROTECTED": 6, "BUSY": 7, "NO_LAUNCH": 8, "BAD_ARGUMENT": 9,
      "STACK_OVERLAP": 10, "INTERNAL": 11, "SEQUENCE": 12, "QUEUE_FULL": 13,
      "CANCELLED": 14}
LAUNCH_F_CONTINUE = 1
ST_NAME = {v: k for k, v in ST.items()}
STATE = {0: "IDLE", 1: "RUNNING", 2: "DONE", 3: "FAULT"}
WANT_COUNTERS = 1
WANT_CONSOLE = 2


def crc32(data):
    return zlib.crc32(data) & 0xFFFFFFFF


def cobs_encode(data):
    out = bytearray()
    run = bytearray()
    for b in data:
        if b == 0:
            out.append(len(run) + 1)
            out += run
            run = bytearray()
        else:
            run.append(b)
            if len(run) == 254:
                out.append(255)
                out += run
                run = bytearray()
    out.append(len(run) + 1)
    out += run
    return bytes(out)


def cobs_decode(data):
    out = bytearray()
    i = 0
    while i < len(data):
        code = data[i]
        if code == 0 or i + code > len(data):
            raise ValueError("bad COBS run")
        out += data[i + 1:i + code]
        i += code
        if code < 255 and i < len(data):
            out.append(0)
    return bytes(out)


def frame(command, seq, payload=b"", status=0, version=VERSION):
    plain = HDR.pack(version, command, seq, len(payload), status, 0) + payload
    return plain + struct.pack("<I", crc32(plain))


def wire(plain):
    return b"\x00" + cobs_encode(plain) + b"\x00"


class Response:
    def __init__(self, plain):
        self.plain = plain
        (self.version, self.command, self.seq, self.length, self.status,
         _) = HDR.unpack_from(plain)
        self.payload = plain[8:8 + self.length]

    @property
    def status_name(self):
        return ST_NAME.get(self.status, str(self.status))

    def detail(self):
        return struct.unpack_from("<I", self.payload)[0] if len(self.payload) >= 4 else None


class LinkError(Exception):
    pass


INFO_KEYS = ("proto_version", "counter_count", "max_payload", "warps", "lanes",
             "code_base", "code_size", "data_base", "data_size", "clock_hz", "fw_version",
             "baud", "window", "link_flags", "hw_version", "hw_build", "queue_depth",
             "extensions", "stage_bytes")
LINK_FLAG_ENGINE = 1


class Link:
    """Client over a connected stream socket: stop-and-wait by default
    (request()), several requests in flight with send()/answer()."""

    def __init__(self, sock, timeout=30.0):
        self.sock = sock
        self.sock.setblocking(False)
        self.timeout = timeout
        self.seq = 0x100
        self.rx = bytearray()
        self.frames = []
        self.discarded = []
        self.outstanding = set()   # (response command, seq) sent, not yet collected
        self.answers = {}          # answers to outstanding requests, not yet collected
        self.window = 1            # from INFO
        self.bytes_sent = 0
        self.bytes_received = 0

    def send_raw(self, data):
        view = memoryview(data)
        while view:
            _, w, _ = select.select([], [self.sock], [], self.timeout)
            if not w:
                raise LinkError("send timed out")
            n = self.sock.send(view)
            view = view[n:]
            self.bytes_sent += n

    def _pull(self, deadline):
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        r, _, _ = select.select([self.sock], [], [], left)
        if not r:
            return False
        data = self.sock.recv(65536)
        if not data:
            raise LinkError("device closed the link")
        self.bytes_received += len(data)
        self.rx += data
        while b"\x00" in self.rx:
            i = self.rx.index(0)
            chunk = bytes(self.rx[:i])
            del self.rx[:i + 1]
            if chunk:
                self.frames.append(chunk)
        return True

    def receive(self, timeout=None):
        """Next well-formed frame (CRC checked), or None at the deadline."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            while self.frames:
                chunk = self.frames.pop(0)
                plain = cobs_decode(chunk)
                if len(plain) < 12:
                    raise LinkError("runt frame from the device: %r" % plain)
                length = struct.unpack_from("<H", plain, 4)[0]
                if len(plain) != 12 + length:
                    raise LinkError("device frame length %d, header says %d" % (len(plain), length))
                if crc32(plain[:-4]) != struct.unpack_from("<I", plain, len(plain) - 4)[0]:
                    raise LinkError("device frame with a bad CRC")
                return Response(plain)
            if not self._pull(deadline):
                return None

    def next_seq(self):
        self.seq = (self.seq + 1) & 0xFFFF
        return self.seq

    def send(self, name, payload=b"", seq=None, command=None):
        """Sends one request without waiting; returns its seq. Its answer
        is collected by answer(name, seq)."""
        seq = self.next_seq() if seq is None else seq
        cmd = CMD[name] if command is None else command
        self.outstanding.add((cmd | RESPONSE, seq))
        self.send_raw(wire(frame(cmd, seq, payload)))
        return seq

    def answer(self, name, seq, timeout=None, command=None):
        """The answer to request (name, seq) sent earlier. Answers to other
        outstanding requests are kept for their own answer() call; any
        other frame goes to self.discarded."""
        key = ((CMD[name] if command is None else command) | RESPONSE, seq)
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while key not in self.answers:
            r = self.receive(max(0.0, deadline - time.monotonic()))
            if r is None:
                self.outstanding.discard(key)
                raise LinkError("no answer to %s (seq %d)" % (name, seq))
            k = (r.command, r.seq)
            if k in self.outstanding:
                self.answers[k] = r
            else:
                # Not ours (docs/protocol.md section 2: the host discards
                # it); kept so that tests can check what else the device said.
                self.discarded.append(r)
        self.outstanding.discard(key)
        return self.answers.pop(key)

    def request(self, name, payload=b"", seq=None, timeout=None):
        """One request, one response (stop-and-wait; no retransmission: a
        lost answer is a test failure on a socket)."""
        seq = self.send(name, payload, seq)
        return self.answer(name, seq, timeout)

    def pipeline(self, requests, timeout=None):
        """[(name, payload), ...] with up to self.window in flight: sends
        while the window has room, collects answers in order; returns them."""
        out, sent = [], []
        for name, payload in requests:
            if len(sent) - len(out) >= self.window:
                out.append(self.answer(*sent[len(out)], timeout=timeout))
            sent.append((name, self.send(name, payload)))
        while len(out) < len(sent):
            out.append(self.answer(*sent[len(out)], timeout=timeout))
        return out

    # ---- commands ----
    def info(self, timeout=None):
        """Opens a session: INFO (always executed by the device, it resets
        its window); returns the fields as a dict and sets self.window."""
        r = self.request("INFO", timeout=timeout)
        if r.status == ST["BAD_VERSION"] or r.version != VERSION:
            raise LinkError("the device speaks protocol %s, this test protocol %d: rebuild the "
                            "board with this release's firmware and SoC"
                            % (r.detail() if r.detail() is not None else r.version, VERSION))
        if r.status != 0:
            raise LinkError("INFO: %s" % r.status_name)
        if len(r.payload) != 56:
            raise LinkError("INFO payload is %d bytes, protocol 3 has 56" % len(r.payload))
        i = dict(zip(INFO_KEYS, struct.unpack("<BBHHHIIIIIIIHHIIHHI", r.payload)))
        self.window = max(1, i["window"])
        return i

    def write(self, addr, data):
        return self.request("WRITE", struct.pack("<I", addr) + data)

    def read(self, addr, count):
        return self.request("READ", struct.pack("<II", addr, count))

    @staticmethod
    def launch_payload(entry, nthreads, args, data_end, timeout=0, stack_log2=10, flags=0):
        return struct.pack("<IIIIQBB6x", entry, nthreads, args, data_end, timeout,
                           stack_log2, flags)

    def launch(self, entry, nthreads, args, data_end, timeout=0, stack_log2=10, flags=0):
        return self.request("LAUNCH", self.launch_payload(entry, nthreads, args, data_end,
                                                          timeout, stack_log2, flags))

    def wait(self, wait_ms, flags=0, timeout=None, until=None):
        p = struct.pack("<II", wait_ms, flags)
        if until is not None:
            p += struct.pack("<I", until)
        return self.request("WAIT", p, timeout=timeout)

    def status(self, flags=0):
        return self.request("STATUS", struct.pack("<I", flags))


def parse_status(payload, counter_count=13, flags=0):
    (state, cause, _, launch_id, nthreads, dispatched, done, fpc, fhart, ftid, faddr,
     pending, elapsed, accepted, ops_done, fault_op, queued,
     cancelled) = struct.unpack_from("<BBHIIIIIIIIIQIIIHH", payload)
    rec = dict(state=STATE.get(state, state), cause=cause, launch_id=launch_id,
               nthreads=nthreads, dispatched=dispatched, done=done, fault_pc=fpc,
               fault_hart=fhart, fault_tid=ftid, fault_addr=faddr,
               console_pending=pending, elapsed=elapsed, ops_accepted=accepted,
               ops_done=ops_done, fault_op=fault_op, queued=queued, cancelled=cancelled)
    off = 64
    if flags & WANT_COUNTERS:
        rec["counters"] = list(struct.unpack_from("<%dQ" % counter_count, payload, off))
        off += 8 * counter_count
    if flags & WANT_CONSOLE:
        pending, count = struct.unpack_from("<IH", payload, off)
        recs = []
        for i in range(count):
            tid, byte = struct.unpack_from("<IB", payload, off + 8 + 5 * i)
            recs.append((tid, byte))
        rec["console"] = recs
        off += 8 + 5 * count
    if off != len(payload):
        raise LinkError("status payload is %d bytes, expected %d" % (len(payload), off))
    return rec
