#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""test_board_e2e.py - end-to-end test of the simulated board: real frames
(docs/protocol.md, encoded by simty_wire.py, independent of the C codec)
to build/bin/simty-sim running the real firmware on the real SoC and core.

usage: test_board_e2e.py --sim BUILD/bin/simty-sim --kernels DIR [--vcd]
                         [--config WxL] [--uart-phy] [--only TEST,...]

Protocol 2: the session opens with INFO; test_engine_frames and
test_window check the link engine and the window (garbage between
frames, a frame cut short, a CRC error in a WRITE's payload, requests in
flight, duplicates within the window, gaps answered SEQUENCE). An old
board (protocol 1, or no link engine) fails the INFO check and the run
stops there. `--sim build/bin/simty-mock-board --only ...` runs session
tests against the firmware on the mock SoC (make mock-board).

DIR holds fill.elf, spin.elf, fault.elf and chatty.elf (tests/board/kernels/, built
with simty-cc). Every answer is checked; the exit status is the number
of failed checks (0 = pass)."""
import argparse
import os
import random
import re
import socket
import struct
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from board_elf import Kernel  # noqa: E402
from simty_wire import (CMD, LAUNCH_F_CONTINUE, LINK_FLAG_ENGINE, ST, VERSION, WANT_CONSOLE,  # noqa: E402
                        WANT_COUNTERS, Link, LinkError, frame, parse_status, wire)

SIMTY_CODE_BASE = 0x00010000
SIMTY_DATA_BASE = 0x10000000
SIMTY_FW_BASE = 0x00000000
SIMTY_MMIO_BASE = 0xF0000000
NO_THREAD = 0xFFFFFFFF
FAULT_STORE_OUT_OF_RANGE = 7
FAULT_TIMEOUT = 9
FAULT_ABORTED = 10
CTR = {name: i for i, name in enumerate(
    ("cycles", "warp_insts", "thread_insts", "divergent_branches", "path_merges",
     "replays_mem", "replays_indirect", "mem_requests", "mem_transactions",
     "sched_idle_cycles", "cct_peak", "uniform_vectors", "affine_vectors"))}

failures = 0


def check(name, ok, detail=""):
    global failures
    print(("PASS " if ok else "FAIL ") + name + ("" if ok or not detail else ": " + str(detail)))
    sys.stdout.flush()
    if not ok:
        failures += 1
    return ok


CONFIG = ["--warps", "4", "--lanes", "4"]
XBAR = ["full"]   # the board's crossbar kind (--xbar)
LINK = {"clock_hz": 25000000, "baud": 3000000}   # the board's (--clock-hz, --baud)


def start_sim(sim, extra=()):
    """simty-sim on one end of a socket pair, as the host library runs it."""
    host, dev = socket.socketpair()
    proc = subprocess.Popen([sim, "--fd", str(dev.fileno()), *CONFIG, *extra],
                            pass_fds=[dev.fileno()],
                            stderr=subprocess.PIPE, text=True)
    dev.close()
    return Link(host, timeout=60.0), proc


def stop_sim(link, proc):
    link.sock.close()
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
        return None, err
    return proc.returncode, err


def mix(x, seed):
    for _ in range(3):
        x = (((x ^ (x >> 7)) * 0x9E3779B1) + seed) & 0xFFFFFFFF
    return x


def fill_expected(n, seed):
    return [mix(i, seed) if i % 3 == 0 else (i * 7 + n) & 0xFFFFFFFF for i in range(n)]


class Board:
    """A session: INFO once, kernels loaded on demand, launch helpers."""

    def __init__(self, link, kernels_dir):
        self.link = link
        self.info = link.info(timeout=20)
        self.kdir = kernels_dir
        self.loaded = None
        self.launches = 0

    def load(self, name):
        k = Kernel(os.path.join(self.kdir, name + ".elf"))
        st = k.load(self.link, self.info["max_payload"] - 4)
        check("load %s: every WRITE answered OK" % name, all(s == 0 for s in st), st)
        self.loaded = k
        return k

    def heap(self):
        return (self.loaded.symbols["_end"] + 15) & ~15

    def wait_end(self, flags=WANT_COUNTERS | WANT_CONSOLE, rounds=20):
        """WAIT until the launch is no longer running; returns the record."""
        for _ in range(rounds):
            r = self.link.wait(5000, flags, timeout=300)
            if r.status != 0:
                return None, r
            rec = parse_status(r.payload, self.info["counter_count"], flags)
            if rec["state"] != "RUNNING":
                return rec, r
        return rec, r

    def run_fill(self, n, seed, label):
        """Loads fill, launches n threads, waits, checks everything."""
        k = self.load("fill")
        args = self.heap()
        out = args + 16
        self.link.write(out, b"\xEE" * (4 * n))   # poison: every word must change
        r = self.link.write(args, struct.pack("<III", n, seed, out))
        check(label + ": WRITE args", r.status == 0, r.status_name)
        r = self.link.launch(k.entry, n, args, out + 4 * n, timeout=0, stack_log2=10)
        ok = check(label + ": LAUNCH accepted", r.status == 0, (r.status_name, r.detail()))
        if not ok:
            return None
        self.launches += 1
        launch_id, stack_top = struct.unpack_from("<II", r.payload)
        check(label + ": launch id counts launches", launch_id == self.launches,
              (launch_id, self.launches))
        check(label + ": stack_top is the top of DATA",
              stack_top == SIMTY_DATA_BASE + self.info["data_size"], hex(stack_top))
        rec, r = self.wait_end()
        if not check(label + ": WAIT answered", rec is not None, r.status_name):
            return None
        check(label + ": state DONE", rec["state"] == "DONE" and rec["cause"] == 0,
              (rec["state"], rec["cause"], hex(rec["fault_pc"]), rec["fault_tid"]))
        check(label + ": every thread dispatched and done",
              rec["dispatched"] == n and rec["done"] == n and rec["nthreads"] == n,
              (rec["dispatched"], rec["done"], rec["nthreads"]))
        got = []
        for off in range(0, 4 * n, self.info["max_payload"]):
            cnt = min(self.info["max_payload"], 4 * n - off)
            rr = self.link.read(out + off, cnt)
            check(label + ": READ results", rr.status == 0 and len(rr.payload) == cnt,
                  rr.status_name)
            got += list(struct.unpack("<%dI" % (cnt // 4), rr.payload))
        want = fill_expected(n, seed)
        bad = [i for i in range(n) if i >= len(got) or got[i] != want[i]]
        check(label + ": all %d results right" % n, not bad,
              "wrong at %s" % bad[:8])
        return rec


def test_info(b):
    i = b.info
    check("INFO: protocol %d, 13 counters" % VERSION,
          i["proto_version"] == VERSION and i["counter_count"] == 13, i)
    check("INFO v3: a work queue of 1 .. 65535 operations and a WRITE stage",
          1 <= i["queue_depth"] and i["stage_bytes"] >= 256 and i["stage_bytes"] % 4 == 0, i)
    check("INFO v2: the link engine handles frames, window 1..16, the link's rate",
          i["link_flags"] & LINK_FLAG_ENGINE and 1 <= i["window"] <= 16 and i["baud"] > 0, i)
    want = (int(CONFIG[1]), int(CONFIG[3]))
    check("INFO: %d warps x %d lanes" % want, (i["warps"], i["lanes"]) == want, i)
    ext = i["extensions"]
    check("INFO: the %s crossbar (extensions bit 8)" % XBAR[0],
          (ext & 0x100 != 0) == (XBAR[0] == "rotate"), i)
    check("INFO: CODE and DATA from the memory map",
          (i["code_base"], i["code_size"], i["data_base"], i["data_size"]) ==
          (SIMTY_CODE_BASE, 0x10000, SIMTY_DATA_BASE, 0x100000), i)
    check("INFO: the board's %g MHz clock and %g Mbaud link, payload 256..4096"
          % (LINK["clock_hz"] / 1e6, LINK["baud"] / 1e6),
          i["clock_hz"] == LINK["clock_hz"] and i.get("baud") == LINK["baud"] and
          256 <= i["max_payload"] <= 4096, i)


def test_write_read(b):
    link, mp = b.link, b.info["max_payload"]
    rng = random.Random(7)
    blob = bytes(rng.randrange(256) for _ in range(3 * mp))
    addr = SIMTY_DATA_BASE + 0x2003          # odd address, odd length
    ok = True
    for off in range(0, len(blob), mp - 4):
        r = link.write(addr + off, blob[off:off + mp - 4])
        ok &= r.status == 0 and r.payload == b""
    check("WRITE %d bytes in max-size frames" % len(blob), ok)
    back = b""
    for off in range(0, len(blob), mp):
        r = link.read(addr + off, min(mp, len(blob) - off))
        back += r.payload if r.status == 0 else b""
    check("READ returns what WRITE wrote (DATA, unaligned)", back == blob,
          "first difference at %s" % next((i for i in range(min(len(back), len(blob)))
                                            if back[i] != blob[i]), len(back)))
    r = link.read(addr - 1, 2)
    check("bytes around a write are untouched", r.status == 0 and r.payload[1] == blob[0],
          r.payload.hex())
    code = bytes(rng.randrange(256) for _ in range(301))
    r1 = link.write(SIMTY_CODE_BASE + 0x8001, code)
    r2 = link.read(SIMTY_CODE_BASE + 0x8001, len(code))
    check("CODE round trip", r1.status == 0 and r2.status == 0 and r2.payload == code)
    end = SIMTY_DATA_BASE + b.info["data_size"]
    r = link.write(end - 4, b"\x11\x22\x33\x44")
    r2 = link.read(end - 4, 4)
    check("last word of DATA", r.status == 0 and r2.payload == b"\x11\x22\x33\x44")


def test_rejected(b):
    link = b.link
    for name, addr, want in (("FW", SIMTY_FW_BASE + 0x100, "PROTECTED"),
                             ("MMIO", SIMTY_MMIO_BASE, "PROTECTED"),
                             ("past DATA", SIMTY_DATA_BASE + b.info["data_size"], "OUT_OF_RANGE"),
                             ("past CODE", SIMTY_CODE_BASE + b.info["code_size"] - 2,
                              "OUT_OF_RANGE")):
        r = link.write(addr, b"\xAA\xBB\xCC\xDD")
        check("WRITE to %s rejected with %s" % (name, want),
              r.status == ST[want] and r.detail() == addr, (r.status_name, r.detail()))
        r = link.read(addr, 4)
        check("READ of %s rejected with %s" % (name, want), r.status == ST[want],
              r.status_name)
    again = link.info()
    check("firmware intact after the rejected writes", again == b.info)


def test_bad_frames(b):
    link = b.link
    seq = link.next_seq()
    plain = bytearray(frame(CMD["INFO"], seq))
    plain[-1] ^= 0x40                                        # break the CRC
    link.send_raw(wire(bytes(plain)))
    r = link.receive()
    check("corrupt frame answered BAD_CRC with its seq",
          r is not None and r.status == ST["BAD_CRC"] and r.seq == seq,
          None if r is None else (r.status_name, r.seq))
    # 300 non-zero bytes: one long broken frame, ended by the next request's
    # leading zero. The device may answer it (with an error: its header is
    # garbage) before it answers the request.
    link.discarded.clear()
    link.send_raw(bytes(random.Random(3).randrange(1, 256) for _ in range(300)))
    r = link.request("INFO")
    check("device resynchronises after garbage", r.status == 0, r.status_name)
    check("garbage is answered by at most one error, never executed",
          len(link.discarded) <= 1 and all(d.status in (ST["BAD_CRC"], ST["BAD_LENGTH"])
                                           for d in link.discarded),
          [(d.command, d.status_name) for d in link.discarded])
    seq = link.next_seq()
    link.send_raw(wire(frame(0x55, seq)))
    r = link.receive()
    check("unknown command answered UNKNOWN_COMMAND",
          r is not None and r.status == ST["UNKNOWN_COMMAND"] and r.detail() == 0x55,
          None if r is None else r.status_name)
    # A protocol 1 host: BAD_VERSION in the device's version, nothing run,
    # the window untouched (the next seq still runs).
    link.send_raw(wire(frame(CMD["INFO"], 0x4242, version=1)))
    r = link.receive()
    check("a version 1 frame answered BAD_VERSION, detail %d" % VERSION,
          r is not None and r.status == ST["BAD_VERSION"] and r.version == VERSION
          and r.seq == 0x4242 and r.detail() == VERSION,
          None if r is None else (r.status_name, r.version, r.seq, r.detail()))
    r = link.status()
    check("the window goes on after the foreign frame", r.status == 0, r.status_name)


def test_launch(b):
    hw = b.info["warps"] * b.info["lanes"]
    n = max(100, 3 * hw + 5)    # several waves, the last block partial
    rec = b.run_fill(n, 0x1234, "launch of %d threads on %d" % (n, hw))
    if rec is None:
        return
    c = rec["counters"]
    lanes = b.info["lanes"]
    check("counters: instructions counted",
          c[CTR["warp_insts"]] > 0 and c[CTR["warp_insts"]] <= c[CTR["thread_insts"]]
          <= c[CTR["warp_insts"]] * lanes, c[:3])
    check("counters: cycles span the launch", c[CTR["cycles"]] >= c[CTR["warp_insts"]]
          and abs(c[CTR["cycles"]] - rec["elapsed"]) <= rec["elapsed"] // 10 + 200,
          (c[CTR["cycles"]], rec["elapsed"]))
    check("counters: idle cycles = window cycles - issued warp instructions",
          c[CTR["sched_idle_cycles"]] == c[CTR["cycles"]] - c[CTR["warp_insts"]],
          (c[CTR["sched_idle_cycles"]], c[CTR["cycles"]], c[CTR["warp_insts"]]))
    # one lane per warp never diverges
    check("counters: divergent branches (i % 3) and memory traffic",
          (c[CTR["divergent_branches"]] > 0) == (lanes > 1) and c[CTR["mem_transactions"]] > 0
          and c[CTR["mem_requests"]] >= n, c)
    text = bytes(byte for tid, byte in rec["console"] if tid == 5)
    check("device printf reaches the host, tagged with its thread",
          text == b"thread 5 of %d\n" % n and all(tid == 5 for tid, _ in rec["console"]),
          rec["console"][:4])
    r = b.link.request("COUNTERS", struct.pack("<BBH", 0, 0, 0))
    vals = list(struct.unpack_from("<13Q", r.payload, 4)) if r.status == 0 else None
    check("COUNTERS after the launch equals WAIT's counters", vals == c, vals)


def test_abort(b):
    k = b.load("spin")
    scratch = b.heap()
    b.link.write(scratch, bytes(64))
    r = b.link.launch(k.entry, 64, scratch, scratch + 64, timeout=0)
    ok = check("spin LAUNCH accepted", r.status == 0, (r.status_name, r.detail()))
    if not ok:
        return
    b.launches += 1
    time.sleep(0.2)
    r = b.link.status()
    rec = parse_status(r.payload)
    check("STATUS while spinning: RUNNING", r.status == 0 and rec["state"] == "RUNNING", rec)
    before = b.link.read(SIMTY_DATA_BASE, 1)
    check("READ while running: BUSY", before.status == ST["BUSY"], before.status_name)
    r = b.link.write(SIMTY_DATA_BASE + 0x20, b"\x01")
    check("WRITE while running: queued (OK)", r.status == 0, r.status_name)
    r = b.link.launch(k.entry, 1, scratch, scratch + 64)
    check("LAUNCH while running: queued (OK), one operation ahead",
          r.status == 0 and struct.unpack_from("<I", r.payload, 12)[0] == 1,
          (r.status_name, r.payload.hex()))
    r = b.link.request("ABORT")
    rec = parse_status(r.payload) if r.status == 0 else {}
    check("ABORT ends it: FAULT, cause ABORTED, no thread",
          rec.get("state") == "FAULT" and rec.get("cause") == FAULT_ABORTED
          and rec.get("fault_tid") == NO_THREAD and rec.get("fault_hart") == NO_THREAD, rec)
    check("ABORT cancels the queued WRITE and LAUNCH",
          rec.get("cancelled") == 2 and rec.get("queued") == 0, rec)
    r = b.link.read(SIMTY_DATA_BASE + 0x20, 1)
    check("the cancelled WRITE never ran", r.status == 0 and r.payload != b"\x01",
          (r.status_name, r.payload))
    r = b.link.read(scratch, 64)
    counts = struct.unpack("<16I", r.payload) if r.status == 0 else ()
    # the first wave never ends: threads 0 .. hardware threads - 1 spin
    running = min(16, b.info["warps"] * b.info["lanes"])
    check("memory keeps what the spinning threads wrote", r.status == 0 and
          all(v > 0 for v in counts[:running]) and not any(counts[running:]), counts)
    r = b.link.request("ABORT")
    check("second ABORT: NO_LAUNCH", r.status == ST["NO_LAUNCH"], r.status_name)
    b.run_fill(37, 0xABCDEF, "launch after ABORT")


def test_timeout(b):
    k = b.load("spin")
    scratch = b.heap()
    r = b.link.launch(k.entry, 16, scratch, scratch + 64, timeout=30000)
    if not check("spin LAUNCH with a 30,000-cycle time-out", r.status == 0, r.status_name):
        return
    b.launches += 1
    rec, r = b.wait_end()
    check("time-out: FAULT, cause TIMEOUT, no thread",
          rec is not None and rec["state"] == "FAULT" and rec["cause"] == FAULT_TIMEOUT
          and rec["fault_tid"] == NO_THREAD and rec["fault_pc"] == 0, rec)
    check("time-out: ended after the time-out, not long before or after",
          rec is not None and 30000 <= rec["elapsed"] <= 30000 + 20000,
          rec and rec["elapsed"])
    b.run_fill(64, 7, "launch after a time-out")


def test_fault(b):
    k = b.load("fault")
    heap = b.heap()
    n = 40
    r = b.link.launch(k.entry, n, heap, heap, timeout=0)
    if not check("faulting LAUNCH accepted", r.status == 0, r.status_name):
        return
    b.launches += 1
    rec, r = b.wait_end()
    s = k.symbols
    lanes = b.info["lanes"]
    check("fault: FAULT, cause STORE_OUT_OF_RANGE",
          rec is not None and rec["state"] == "FAULT" and rec["cause"] == FAULT_STORE_OUT_OF_RANGE,
          rec)
    if rec is None:
        return
    check("fault: pc, thread and address of the bad store",
          rec["fault_pc"] == s["bad_store"] and rec["fault_tid"] == s["fault_tid"]
          and rec["fault_addr"] == s["bad_addr"],
          (hex(rec["fault_pc"]), hex(s["bad_store"]), rec["fault_tid"], hex(rec["fault_addr"])))
    check("fault: hart is a hardware thread on the faulting lane",
          rec["fault_hart"] < b.info["warps"] * lanes
          and rec["fault_hart"] % lanes == s["fault_tid"] % lanes, rec["fault_hart"])
    b.run_fill(16, 99, "launch after a fault")


def test_console_flood(b):
    """More printf bytes than every buffer on the way holds: none lost."""
    k = b.load("chatty")
    heap = b.heap()
    n = 96
    r = b.link.launch(k.entry, n, heap, heap)
    if not check("chatty LAUNCH accepted", r.status == 0, r.status_name):
        return
    b.launches += 1
    records = []
    rec = None
    for _ in range(400):
        r = b.link.wait(2000, WANT_CONSOLE, timeout=300)
        rec = parse_status(r.payload, b.info["counter_count"], WANT_CONSOLE)
        records += rec["console"]
        while rec["console_pending"]:
            rr = b.link.request("CONSOLE", struct.pack("<I", 0))
            pending, count = struct.unpack_from("<IH", rr.payload)
            for i in range(count):
                records.append(struct.unpack_from("<IB", rr.payload, 8 + 5 * i))
            rec["console_pending"] = pending
        if rec["state"] != "RUNNING":
            break
    check("chatty launch ends DONE", rec is not None and rec["state"] == "DONE", rec)
    lines = {}
    for tid, byte in records:
        lines.setdefault(tid, bytearray()).append(byte)
    want = {i: b"thread %03u says abcdefghijklmnopqrstuvwxyz %u\n" % (i, i * 7) for i in range(n)}
    bad = [i for i in range(n) if bytes(lines.get(i, b"")) != want[i]]
    check("%d console bytes from %d threads, none lost or reordered"
          % (sum(len(v) for v in want.values()), n),
          not bad and len(lines) == n, "threads %s: %r" % (bad[:4], bytes(lines.get(bad[0], b""))
                                                         if bad else None))


def test_reset(b):
    r = b.link.request("RESET")
    check("RESET answered OK", r.status == 0 and r.payload == b"", r.status_name)
    r = b.link.status()
    rec = parse_status(r.payload)
    check("after RESET the launch state is IDLE", rec["state"] == "IDLE", rec)
    b.run_fill(20, 5, "launch after RESET")



# ---- protocol 2: the link engine and the window ----

def poison(b, addr, n, byte=0xEE):
    r = b.link.write(addr, bytes([byte]) * n)
    check("poison %d bytes at %#x" % (n, addr), r.status == 0, r.status_name)


def read_back(b, addr, n, seq=None):
    """READ with the next seq, or with `seq` (one the device never ran)."""
    r = b.link.request("READ", struct.pack("<II", addr, n), seq=seq)
    return r.payload if r.status == 0 else (r.status_name, r.detail())


def test_engine_frames(b):
    """Garbage between frames, a frame cut short, a CRC error in a WRITE's
    payload: typed errors, nothing executed, the window goes on."""
    link = b.link
    area = SIMTY_DATA_BASE + 0x30000
    poison(b, area, 64)
    link.discarded.clear()
    # Garbage (no zero in it, and runts) between two WRITEs in flight.
    junk = bytes(random.Random(11).randrange(1, 256) for _ in range(200))
    s1 = link.send("WRITE", struct.pack("<I", area) + b"first")
    link.send_raw(b"\x00" + junk + b"\x00\x01\x02\x00\x05\x05\x00")
    s2 = link.send("WRITE", struct.pack("<I", area + 8) + b"second")
    r1, r2 = link.answer("WRITE", s1, timeout=20), link.answer("WRITE", s2, timeout=20)
    check("garbage between frames: both WRITEs answered OK", r1.status == 0 and r2.status == 0,
          (r1.status_name, r2.status_name))
    check("garbage between frames: answered by errors at most, never executed",
          all(d.status in (ST["BAD_CRC"], ST["BAD_LENGTH"]) for d in link.discarded),
          [(d.command, d.seq, d.status_name) for d in link.discarded])
    got = read_back(b, area, 14)
    check("garbage between frames: the data of both WRITEs",
          got == b"first\xee\xee\xeesecond", got)

    # A frame cut short: its last bytes never arrive, the next zero ends it.
    seq = link.next_seq()
    w = wire(frame(CMD["WRITE"], seq, struct.pack("<I", area + 20) + b"cut short"))
    link.send_raw(w[:-4] + b"\x00")
    r = link.receive(timeout=20)
    check("a frame cut short answered BAD_LENGTH with its seq",
          r is not None and r.status == ST["BAD_LENGTH"] and r.seq == seq
          and r.command == CMD["WRITE"] | 0x80,
          None if r is None else (r.status_name, r.seq))
    got = read_back(b, area + 20, 9, seq=seq)   # the WRITE never ran: its seq is free
    check("a frame cut short is not executed", got == b"\xee" * 9, got)

    # A CRC error in a WRITE's payload, then a READ with the same seq (the
    # device never ran that request, so the seq is still the one it expects).
    seq = link.next_seq()
    plain = bytearray(frame(CMD["WRITE"], seq, struct.pack("<I", area + 32) + b"Z" * 24))
    plain[8 + 4 + 10] ^= 0x08                   # one bit flips in the data
    link.send_raw(wire(bytes(plain)))
    r = link.receive(timeout=20)
    check("a CRC error in a WRITE's payload answered BAD_CRC with its seq",
          r is not None and r.status == ST["BAD_CRC"] and r.seq == seq
          and r.detail() == len(plain),
          None if r is None else (r.status_name, r.seq, r.detail()))
    got = read_back(b, area + 32, 24, seq=seq)
    check("then READ shows nothing was written", got == b"\xee" * 24, got)


def test_window(b):
    """Requests in flight: executed and answered in order, duplicates from
    the cache, gaps answered SEQUENCE."""
    link, win = b.link, b.info["window"]
    area = SIMTY_DATA_BASE + 0x40000
    mp = b.info["max_payload"]
    # Several WRITEs then READs in flight, the window kept full.
    rng = random.Random(12)
    blob = bytes(rng.randrange(256) for _ in range(6 * (mp - 4) + 321))
    chunks = [(off, blob[off:off + mp - 4]) for off in range(0, len(blob), mp - 4)]
    reqs = [("WRITE", struct.pack("<I", area + off) + data) for off, data in chunks]
    reqs += [("READ", struct.pack("<II", area + off, len(data))) for off, data in chunks]
    t0 = time.monotonic()
    rs = link.pipeline(reqs, timeout=60)
    wall = time.monotonic() - t0
    check("pipelined: %d WRITEs then %d READs, %d in flight, all OK"
          % (len(chunks), len(chunks), win), all(r.status == 0 for r in rs),
          [r.status_name for r in rs])
    got = b"".join(r.payload for r in rs[len(chunks):])
    check("pipelined: the READs return what the WRITEs before them wrote (%.1f s)" % wall,
          got == blob, len(got))
    # Two WRITEs and two READs of the same bytes in one window: in order.
    a = area + 0x8000
    if win >= 4:
        rs = link.pipeline([("WRITE", struct.pack("<I", a) + b"one!"),
                            ("READ", struct.pack("<II", a, 4)),
                            ("WRITE", struct.pack("<I", a) + b"two!"),
                            ("READ", struct.pack("<II", a, 4))])
        check("one window: WRITE, READ, WRITE, READ run in order",
              [r.payload for r in rs] == [b"", b"one!", b"", b"two!"],
              [(r.status_name, r.payload) for r in rs])

    # A duplicate within the window: answered from the cache, not run again.
    p1 = struct.pack("<I", a) + b"AAAA"
    s1 = link.send("WRITE", p1)
    s2 = link.send("WRITE", struct.pack("<I", a) + b"BBBB")
    r1, r2 = link.answer("WRITE", s1), link.answer("WRITE", s2)
    check("duplicate: two WRITEs to the same word", r1.status == 0 and r2.status == 0)
    r = link.request("WRITE", p1, seq=s1)      # the host lost r1: sends s1 again
    check("duplicate within the window answered OK from the cache", r.status == 0
          and r.seq == s1 and r.plain == r1.plain, r.status_name)
    got = read_back(b, a, 4)
    check("duplicate WRITE not written twice", got == b"BBBB", got)
    k = b.load("fill")
    args = b.heap()
    out = args + 16
    link.write(args, struct.pack("<III", 8, 3, out))
    lp = struct.pack("<IIIIQB7x", k.entry, 8, args, out + 32, 0, 10)
    ls = link.send("LAUNCH", lp)
    rl = link.answer("LAUNCH", ls)
    r = link.request("LAUNCH", lp, seq=ls)
    if check("LAUNCH accepted", rl.status == 0, rl.status_name):
        b.launches += 1
    check("duplicate LAUNCH answered from the cache: same launch id, not BUSY",
          r.status == 0 and r.payload == rl.payload, (r.status_name, r.payload, rl.payload))
    rec, _ = b.wait_end(0)
    check("duplicate LAUNCH: launched once",
          rec is not None and rec["launch_id"] == b.launches and rec["state"] == "DONE", rec)

    # A gap: the request after a lost one is answered SEQUENCE, detail the
    # seq the device expects; nothing runs until the host goes back to it.
    lost = link.next_seq()
    p = struct.pack("<I", a) + b"GAP!"
    s = link.send("WRITE", p, seq=(lost + 1) & 0xFFFF)
    r = link.answer("WRITE", s, timeout=20)
    check("a gap answered SEQUENCE naming the expected seq",
          r.status == ST["SEQUENCE"] and r.detail() == lost, (r.status_name, r.detail(), lost))
    got = read_back(b, a, 4, seq=lost)          # the host fills the gap
    check("the request after the gap did not run", got == b"BBBB", got)
    r = link.request("WRITE", p, seq=s)
    link.seq = s
    check("the same request in order runs", r.status == 0 and read_back(b, a, 4) == b"GAP!",
          r.status_name)
    # INFO resets the window: an old seq is out of order afterwards.
    again = link.info()
    check("INFO again: same device", again["warps"] == b.info["warps"])
    r = link.request("WRITE", p, seq=s)
    check("after INFO an old seq is out of order (SEQUENCE), not answered from a cache",
          r.status == ST["SEQUENCE"] and r.detail() == (link.seq + 1) & 0xFFFF,
          (r.status_name, r.detail()))


# ---- protocol 3: the work queue ----

def queue_idle(b, flags=WANT_COUNTERS, until=None, rounds=40):
    """WAIT until nothing runs or is queued (or `until` is done)."""
    for _ in range(rounds):
        r = b.link.wait(5000, flags, timeout=300, until=until)
        if r.status != 0:
            return None
        rec = parse_status(r.payload, b.info["counter_count"], flags)
        if until is not None and rec["ops_done"] >= until:
            return rec
        if rec["state"] != "RUNNING" and rec["queued"] == 0:
            return rec
    return rec


def read_words(b, addr, n):
    got = []
    for off in range(0, 4 * n, b.info["max_payload"]):
        cnt = min(b.info["max_payload"], 4 * n - off)
        rr = b.link.read(addr + off, cnt)
        if rr.status != 0:
            return None
        got += list(struct.unpack("<%dI" % (cnt // 4), rr.payload))
    return got


def test_queue(b):
    """write, launch, write, launch, write, launch in one pipelined go:
    run in order, each launch as soon as the one before ends; counters
    of the CONTINUE launches add up; WAIT until an operation."""
    k = b.load("fill")
    base = b.heap()
    n = 2 * b.info["warps"] * b.info["lanes"] + 3
    args = [base + 16 * i for i in range(3)]
    outs = [base + 64 + 4 * n * i for i in range(3)]
    for o in outs:
        b.link.write(o, b"\xEE" * (4 * n))
    b.link.write(args[0], struct.pack("<III", n, 100, outs[0]))
    r = b.link.status()
    op0 = parse_status(r.payload)["ops_accepted"]
    end = outs[-1] + 4 * n
    L = b.link.launch_payload
    reqs = [("LAUNCH", L(k.entry, n, args[0], end)),
            ("WRITE", struct.pack("<I", args[1]) + struct.pack("<III", n, 101, outs[1])),
            ("LAUNCH", L(k.entry, n, args[1], end, flags=LAUNCH_F_CONTINUE)),
            ("WRITE", struct.pack("<I", args[2]) + struct.pack("<III", n, 102, outs[2])),
            ("LAUNCH", L(k.entry, n, args[2], end, flags=LAUNCH_F_CONTINUE))]
    rs = b.link.pipeline(reqs, timeout=300)
    check("queue: five requests in one go, all accepted", all(r.status == 0 for r in rs),
          [r.status_name for r in rs])
    launches = [struct.unpack_from("<IIII", r.payload) for r in (rs[0], rs[2], rs[4])]
    check("queue: operation numbers count WRITEs and LAUNCHes",
          [l[2] for l in launches] == [op0 + 1, op0 + 3, op0 + 5], launches)
    check("queue: launch ids follow each other",
          [l[0] for l in launches] == [b.launches + 1, b.launches + 2, b.launches + 3],
          launches)
    b.launches += 3
    rec = queue_idle(b, until=op0 + 1)
    check("queue: WAIT until the first launch answers once it is done",
          rec is not None and rec["ops_done"] >= op0 + 1, rec)
    rec = queue_idle(b)
    check("queue: all done in order", rec is not None and rec["state"] == "DONE"
          and rec["ops_done"] == op0 + 5 and rec["queued"] == 0 and rec["fault_op"] != op0 + 5
          and rec["launch_id"] == b.launches, rec)
    for i in range(3):
        got = read_words(b, outs[i], n)
        check("queue: launch %d's results (seed from the WRITE queued before it)" % (i + 1),
              got == fill_expected(n, 100 + i), got and got[:4])
    c = rec["counters"] if rec else None
    r = b.link.launch(k.entry, n, args[0], end)
    b.launches += 1
    one = queue_idle(b)
    c1 = one["counters"] if one else None
    check("queue: the sequence's counters cover its 3 launches (a launch without "
          "CONTINUE starts anew)",
          c and c1 and c[CTR["thread_insts"]] == 3 * c1[CTR["thread_insts"]]
          and abs(c[CTR["warp_insts"]] - 3 * c1[CTR["warp_insts"]]) <= c1[CTR["warp_insts"]] // 20
          and c[CTR["cycles"]] > 2 * c1[CTR["cycles"]], (c and c[:3], c1 and c1[:3]))


def test_queue_fault(b):
    """Five queued launches, the third faults (a store to address 0): the
    record names it, the fourth and fifth never run, new work runs."""
    k = b.load("fill")
    base = b.heap()
    n = 16
    args = [base + 16 * i for i in range(5)]
    outs = [base + 128 + 4 * n * i for i in range(5)]
    for i in range(5):
        b.link.write(outs[i], b"\xEE" * (4 * n))
        b.link.write(args[i], struct.pack("<III", n, 7 + i, 0 if i == 2 else outs[i]))
    end = outs[-1] + 4 * n
    r = b.link.status()
    op0 = parse_status(r.payload)["ops_accepted"]
    reqs = [("LAUNCH", b.link.launch_payload(k.entry, n, args[i], end,
                                             flags=LAUNCH_F_CONTINUE if i else 0))
            for i in range(5)]
    rs = b.link.pipeline(reqs, timeout=300)
    check("queue fault: the first three accepted", all(r.status == 0 for r in rs[:3]),
          [r.status_name for r in rs])
    check("queue fault: the fourth and fifth accepted or refused CANCELLED",
          all(r.status in (0, ST["CANCELLED"]) for r in rs[3:]),
          [r.status_name for r in rs])
    rec = queue_idle(b, flags=0)
    check("queue fault: the record names the third launch",
          rec is not None and rec["state"] == "FAULT"
          and rec["cause"] == FAULT_STORE_OUT_OF_RANGE and rec["fault_op"] == op0 + 3
          and rec["ops_done"] == op0 + 2, rec)
    queued = sum(1 for r in rs[3:] if r.status == 0)
    check("queue fault: the queued ones are counted as cancelled",
          rec is not None and rec["cancelled"] == queued, (rec, queued))
    for i in (0, 1):
        check("queue fault: launch %d ran" % (i + 1),
              read_words(b, outs[i], n) == fill_expected(n, 7 + i))
    for i in (3, 4):
        got = read_words(b, outs[i], n)
        check("queue fault: launch %d never ran (its buffer is untouched)" % (i + 1),
              got == [0xEEEEEEEE] * n, got and got[:4])
    b.launches += 3
    b.run_fill(20, 5, "launch after a queued fault")


def test_queue_full(b):
    """The queue's bound: QUEUE_FULL (nothing queued), READ BUSY, ABORT
    cancels everything; a retransmitted queued LAUNCH is not queued twice."""
    k = b.load("spin")
    scratch = b.heap()
    depth = b.info["queue_depth"]
    r = b.link.launch(k.entry, 16, scratch, scratch + 64)
    check("queue full: spin LAUNCH", r.status == 0, r.status_name)
    ok = True
    for i in range(depth):
        r = b.link.launch(k.entry, 16, scratch, scratch + 64, flags=LAUNCH_F_CONTINUE)
        ok = ok and r.status == 0
    check("queue full: %d launches queued behind it" % depth, ok, r.status_name)
    seq = b.link.send("LAUNCH", b.link.launch_payload(k.entry, 16, scratch, scratch + 64,
                                                      flags=LAUNCH_F_CONTINUE))
    r = b.link.answer("LAUNCH", seq)
    check("queue full: one more is QUEUE_FULL, detail = depth",
          r.status == ST["QUEUE_FULL"] and r.detail() == depth, (r.status_name, r.detail()))
    r = b.link.status()
    rec = parse_status(r.payload)
    check("queue full: nothing more was queued", rec["queued"] == depth, rec)
    accepted = rec["ops_accepted"]
    # A retransmission of the last queued LAUNCH: answered from the cache.
    r = b.link.request("ABORT")
    rec = parse_status(r.payload) if r.status == 0 else {}
    check("queue full: ABORT cancels the queue", rec.get("cancelled") == depth
          and rec.get("queued") == 0 and rec.get("state") == "FAULT", rec)
    check("queue full: nothing accepted since", rec.get("ops_accepted") == accepted, rec)
    b.launches += 1
    # The window's cache: a queued LAUNCH retransmitted is not queued twice.
    r = b.link.launch(k.entry, 16, scratch, scratch + 64)
    b.launches += 1
    p = b.link.launch_payload(k.entry, 16, scratch, scratch + 64, flags=LAUNCH_F_CONTINUE)
    seq = b.link.send("LAUNCH", p)
    first = b.link.answer("LAUNCH", seq)
    b.link.send("LAUNCH", p, seq=seq)
    again = b.link.answer("LAUNCH", seq)
    r = b.link.status()
    rec = parse_status(r.payload)
    check("queue: a retransmitted queued LAUNCH is answered from the cache, queued once",
          first.status == 0 and again.payload == first.payload and rec["queued"] == 1,
          (first.status_name, again.status_name, rec))
    b.link.request("ABORT")
    b.run_fill(8, 3, "launch after QUEUE_FULL and ABORT")


def test_tcp(sim):
    proc = subprocess.Popen([sim, "--port", "0", *CONFIG], stderr=subprocess.PIPE, text=True)
    line = proc.stderr.readline()
    m = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
    if not check("--port 0 announces its port", m is not None, line):
        proc.kill()
        return
    sock = socket.create_connection(("127.0.0.1", int(m.group(1))), timeout=30)
    link = Link(sock)
    info = link.info()
    check("INFO over TCP", info["proto_version"] == VERSION and info["warps"] == int(CONFIG[1]),
          info)
    rc, err = stop_sim(link, proc)
    report = re.search(r"(\d+) cycles in [\d.]+ s \((\d+) cycles/s\)", err)
    check("simty-sim exits 0 when the host closes, with a cycle report",
          rc == 0 and report is not None and int(report.group(1)) > 0, (rc, err[-200:]))


def test_cli(sim):
    r = subprocess.run([sim, "--warps", "3", "--lanes", "3", "--port", "0"],
                       capture_output=True, text=True, timeout=30)
    check("an unbuilt configuration fails clearly",
          r.returncode == 2 and "3x3" in r.stderr and "not built" in r.stderr, r.stderr)
    r = subprocess.run([sim, "--bogus"], capture_output=True, text=True, timeout=30)
    check("an unknown option fails with usage", r.returncode == 1 and "usage" in r.stderr,
          (r.returncode, r.stderr[:200]))
    with tempfile.TemporaryDirectory() as d:
        for name, text, words in (("too big", "00000013\n" * 40000, "do not fit"),
                                  ("not hex", "00000013\nhello\n", ":2: not a 32-bit hex word")):
            path = os.path.join(d, "fw.hex")
            with open(path, "w") as f:
                f.write(text)
            env = dict(os.environ, SIMTY_SIM_FW=path)
            r = subprocess.run([sim, "--port", "0"], capture_output=True, text=True,
                               timeout=30, env=env)
            check("a firmware image %s is refused before anything runs" % name,
                  r.returncode == 1 and words in r.stderr and "listening" not in r.stderr,
                  (r.returncode, r.stderr[:200]))


def test_vcd(sim):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "board.vcd")
        link, proc = start_sim(sim, ("--vcd", path))
        info = link.info()
        rc, err = stop_sim(link, proc)
        ok = rc == 0 and info["proto_version"] == VERSION and os.path.exists(path)
        defs, changes = False, 0
        if ok:
            with open(path, errors="replace") as f:
                for line in f:
                    if "$enddefinitions" in line:
                        defs = True
                    elif defs and line.startswith("#"):
                        changes += 1
                        if changes > 1000:
                            break
        check("--vcd writes a waveform of the run", ok and defs and changes > 1000,
              (rc, defs, changes, err[-200:]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--kernels", required=True)
    ap.add_argument("--vcd", action="store_true", help="also check --vcd")
    ap.add_argument("--config", default="4x4", help="WARPSxLANES of the board")
    ap.add_argument("--uart-phy", action="store_true",
                    help="the board with the real UART PHY (bytes cross as bits)")
    ap.add_argument("--xbar", default="full", choices=("full", "rotate"),
                    help="the board's crossbar kind (simty-sim --xbar)")
    ap.add_argument("--clock-hz", type=int, default=LINK["clock_hz"],
                    help="the clock the board was built for (INFO must report it)")
    ap.add_argument("--baud", type=int, default=LINK["baud"],
                    help="the link rate the board was built for")
    ap.add_argument("--only", help="comma-separated session tests to run (e.g. "
                    "test_engine_frames,test_window), and nothing else")
    a = ap.parse_args()
    w, l = a.config.split("x")
    CONFIG[:] = ["--warps", w, "--lanes", l] + (["--uart-phy"] if a.uart_phy else []) + \
        (["--xbar", a.xbar] if a.xbar != "full" else [])
    XBAR[0] = a.xbar
    LINK.update(clock_hz=a.clock_hz, baud=a.baud)

    if not a.uart_phy and not a.only:
        test_cli(a.sim)
    t0 = time.monotonic()
    link, proc = start_sim(a.sim)
    try:
        b = Board(link, a.kernels)
    except (LinkError, OSError) as e:
        # An old board (protocol 1, or no link engine): fail, don't hang.
        check("INFO opens a protocol %d session" % VERSION, False, e)
        proc.kill()
        stop_sim(link, proc)
        print("board-e2e: %d failure(s)" % failures)
        return 1
    tests = (test_info, test_write_read, test_rejected, test_bad_frames, test_engine_frames,
             test_window, test_launch, test_abort, test_timeout, test_fault,
             test_queue, test_queue_fault, test_queue_full, test_console_flood, test_reset)
    if a.only:
        names = a.only.split(",")
        tests = [t for t in tests if t.__name__ in names]
        if len(tests) != len(names):
            ap.error("--only: unknown test in %s" % a.only)
    for t in tests:
        try:
            t(b)
        except Exception as e:   # a dead link or a malformed answer fails the test, not the run
            check(t.__name__ + " ran to the end", False, repr(e))
    rc, err = stop_sim(link, proc)
    check("simty-sim exits 0 at the end of the session", rc == 0, (rc, err[-300:]))
    print("session: %.1f s wall; %s" % (time.monotonic() - t0, err.strip().splitlines()[-1]
                                        if err.strip() else "no report"))
    if not a.uart_phy and not a.only:
        test_tcp(a.sim)
    if a.vcd and not a.only:
        test_vcd(a.sim)
    print("board-e2e: %d failure(s)" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
