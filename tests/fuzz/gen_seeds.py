#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the seed corpora of the fw and session fuzz targets
(tests/fuzz/corpus/fw/, tests/fuzz/corpus/session/): protocol-2 frames
(header, payload, CRC-32, COBS between zero delimiters). Byte 0 of every
seed is the target's chunking seed."""
import os
import struct
import sys
import zlib

VERSION = 3
RESP = 0x80
INFO, WRITE, READ, LAUNCH, STATUS, WAIT, ABORT, COUNTERS, RESET, CONSOLE = range(1, 11)


def cobs(data):
    out, block = bytearray(), bytearray()
    for b in data:
        if b == 0:
            out += bytes([len(block) + 1]) + block
            block = bytearray()
        else:
            block.append(b)
            if len(block) == 254:
                out += b"\xff" + block
                block = bytearray()
    out += bytes([len(block) + 1]) + block
    return out


def frame(cmd, seq, payload=b"", status=0, version=VERSION):
    body = struct.pack("<BBHHBB", version, cmd, seq, len(payload), status, 0) + payload
    return b"\x00" + cobs(body + struct.pack("<I", zlib.crc32(body))) + b"\x00"


def info_payload(window=2, max_payload=4096):
    p = bytearray(56)
    p[0] = VERSION
    p[1] = 8
    struct.pack_into("<HHH", p, 2, max_payload, 4, 4)
    struct.pack_into("<IIII", p, 8, 0, 0x4000, 0x20000000, 0x80000)
    struct.pack_into("<III", p, 24, 1000000, 0x200, 115200)
    struct.pack_into("<HH", p, 36, window, 0)
    return bytes(p)


def write(d, name, data):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def main(root):
    fw = os.path.join(root, "fw")
    rd = struct.pack("<II", 0x20000000, 16)
    wr = struct.pack("<I", 0x20000100) + bytes(range(1, 33))
    write(fw, "info", b"\x01" + frame(INFO, 1))
    write(fw, "session", b"\x02" + frame(INFO, 1) + frame(STATUS, 2)
          + frame(WRITE, 3, wr) + frame(READ, 4, rd) + frame(COUNTERS, 5)
          + frame(CONSOLE, 6, struct.pack("<I", 16)))
    write(fw, "launch", b"\x03" + frame(INFO, 1)
          + frame(LAUNCH, 2, struct.pack("<IIIII", 0x40, 16, 0x20000100, 0x20010000, 10))
          + frame(WAIT, 3, struct.pack("<II", 5, 0)) + frame(STATUS, 4)
          + frame(ABORT, 5) + frame(RESET, 6))
    write(fw, "retransmit", b"\x04" + frame(INFO, 1) + frame(READ, 2, rd)
          + frame(READ, 2, rd) + frame(READ, 4, rd) + frame(STATUS, 3))
    bad = bytearray(frame(READ, 2, rd))
    bad[5] ^= 0x10
    write(fw, "damaged", b"\x05" + frame(INFO, 1) + bytes(bad)
          + b"\x00\x13\x37\x00" + frame(INFO, 3, version=1) + frame(0x3f, 4))

    se = os.path.join(root, "session")
    ok = frame(INFO | RESP, 1, info_payload())
    st = frame(STATUS | RESP, 2, bytes(16))
    r3 = frame(READ | RESP, 3, bytes(range(16)))
    r4 = frame(READ | RESP, 4, bytes(range(16, 32)))
    w5 = frame(WAIT | RESP, 5, bytes(16))
    write(se, "all_ok", b"\x01" + ok + st + r3 + r4 + w5)
    write(se, "window1", b"\x02" + frame(INFO | RESP, 1, info_payload(window=1))
          + st + r3 + r4 + w5)
    write(se, "sequence_nak", b"\x03" + ok + st
          + frame(READ | RESP, 4, struct.pack("<I", 3), status=12) + r3 + r4 + w5)
    write(se, "errors", b"\x04" + ok + frame(STATUS | RESP, 2, struct.pack("<I", 0), status=7)
          + frame(READ | RESP, 3, struct.pack("<I", 0), status=1) + r3[:9] + r4 + w5)
    write(se, "old_device", b"\x05" + frame(INFO | RESP, 1, struct.pack("<I", 2), status=3)
          + frame(INFO | RESP, 1, info_payload(), version=1))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus"))
