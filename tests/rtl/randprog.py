#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""randprog.py - constrained random RV32I kernels for RTL-vs-model checking.

    randprog.py --seed N [--max-threads T] [-o kernel.S]

Emits one assembly kernel (built with simty-cc, entered through crt0 at
`main`) whose result depends only on each thread's logical id, so that the
reference model and the RTL must agree on final memory, on every block's
(pc, mask) trace and on the counters, whatever the schedule:

- arithmetic on random registers (every RV32I ALU form, lui, auipc, csr
  reads of the launch CSRs), registers seeded with uniform, affine and
  per-thread values;
- loads and stores, every width, always aligned and in bounds: a private
  buffer per thread, a buffer shared by the threads of one block (same-
  word collisions between lanes are ordered by the architecture), a
  read-only table;
- forward branches and if/else on thread-dependent data, bounded loops
  (counter registers, thread-dependent trip counts, early exits: backward
  branches), calls and returns (nested, a call graph without cycles), a
  bounded recursive function, indirect calls through function tables,
  jump tables (jalr through a table), a rare early ecall, console bytes;
- with --isa rv32ima, atomics (every amo*.w, lr.w, sc.w, an lr.w/sc.w
  pair) on the private and block-shared words: words no other block
  touches, so the results do not depend on the order of warps;
- at the end each thread stores its registers (all but sp and tp, which
  depend on the hardware thread) to its slot of `results`.

Never reads mhartid or sp-derived values: those depend on which warp runs
a block. The number of threads used must not exceed --max-threads.
"""
import argparse
import random
import sys

PW = 16          # words of private buffer per thread (interleaved)
SB = 16          # bytes of block-shared buffer per thread
RT = 256         # bytes of the read-only table
RES_WORDS = 32   # result words per thread (one per register)

# Registers with a fixed role (never random destinations):
TID, PBUF, SBUF, SMASK = "s0", "s1", "s2", "s3"
LOOP_REGS = ["s4", "s5", "s6"]
ADDR, TMP = "t6", "t5"
POOL = ["a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7",
        "t0", "t1", "t2", "t3", "t4", "s7", "s8", "s9", "s10", "s11"]
# Readable as sources besides the pool: deterministic per logical thread.
EXTRA_SRC = ["zero", TID, PBUF, SBUF, SMASK, "gp"]
REGNUM = {"zero": 0, "ra": 1, "sp": 2, "gp": 3, "tp": 4, "t0": 5, "t1": 6,
          "t2": 7, "s0": 8, "s1": 9, "a0": 10, "a1": 11, "a2": 12,
          "a3": 13, "a4": 14, "a5": 15, "a6": 16, "a7": 17, "s2": 18,
          "s3": 19, "s4": 20, "s5": 21, "s6": 22, "s7": 23, "s8": 24,
          "s9": 25, "s10": 26, "s11": 27, "t3": 28, "t4": 29, "t5": 30,
          "t6": 31}
# Launch CSRs that do not depend on the hardware thread.
CSRS = [0xFC0, 0xFC1, 0xFC2, 0xFC3, 0xFC4, 0xFC5, 0xFC6]

R_OPS = ["add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and"]
# --isa rv32im: a quarter of the register-register operations are M's
# (divisors include x0 and equal operands: the edge cases).
M_OPS = ["mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"]
I_OPS = ["addi", "slti", "sltiu", "xori", "ori", "andi"]
# --isa rv32ima: a fifth of the private / shared accesses are atomics.
AMO_OPS = ["amoswap.w", "amoadd.w", "amoxor.w", "amoand.w", "amoor.w",
           "amomin.w", "amomax.w", "amominu.w", "amomaxu.w"]
SH_OPS = ["slli", "srli", "srai"]
BRANCHES = ["beq", "bne", "blt", "bge", "bltu", "bgeu"]


class Gen:
    def __init__(self, seed, max_threads, nfuncs, size=1.0, m=False, a=False):
        self.size = size
        self.m = m     # M instructions (no extra random draw without)
        self.a = a     # A instructions (likewise)
        self.r = random.Random(seed)
        self.seed = seed
        self.max_threads = max_threads
        # Private word j of thread t is at pbuf + 4 * (j * max_threads + t).
        self.stride_log2 = (4 * max_threads).bit_length() - 1
        self.nfuncs = nfuncs
        self.labels = 0
        self.rodata = []   # lines for .rodata (jump and call tables)
        self.out = []

    def label(self, stem):
        self.labels += 1
        return ".L%s%d" % (stem, self.labels)

    def emit(self, line):
        self.out.append("  " + line)

    def put_label(self, name):
        self.out.append(name + ":")

    def budget(self, lo, hi):
        """Statements of a top-level block, scaled by --size."""
        return max(1, int(self.r.randint(lo, hi) * self.size))

    def dst(self):
        return self.r.choice(POOL)

    def src(self):
        if self.r.random() < 0.15:
            return self.r.choice(EXTRA_SRC)
        return self.r.choice(POOL)

    # ---- straight-line statements ----

    def alu(self):
        r = self.r
        k = r.random()
        if k < 0.4:
            op = r.choice(R_OPS)
            if self.m and r.random() < 0.25:
                op = r.choice(M_OPS)
            self.emit("%s %s, %s, %s" % (op, self.dst(), self.src(), self.src()))
        elif k < 0.7:
            self.emit("%s %s, %s, %d" % (r.choice(I_OPS), self.dst(),
                                         self.src(), r.randint(-2048, 2047)))
        elif k < 0.85:
            self.emit("%s %s, %s, %d" % (r.choice(SH_OPS), self.dst(),
                                         self.src(), r.randint(0, 31)))
        elif k < 0.93:
            self.emit("lui %s, 0x%x" % (self.dst(), r.randint(0, 0xFFFFF)))
        elif k < 0.965:
            self.emit("auipc %s, 0x%x" % (self.dst(), r.randint(0, 0xFFFFF)))
        elif k < 0.97:
            self.emit(r.choice(["fence", "fence.i", "fence rw, rw"]))
        else:
            self.emit("csrr %s, 0x%x" % (self.dst(), r.choice(CSRS)))

    def mem(self):
        r = self.r
        width, align = r.choice([("w", 4), ("h", 2), ("b", 1)])
        store = r.random() < 0.45
        where = r.random()
        idx = self.src()
        atomic = self.a and where < 0.85 and r.random() < 0.2
        if atomic:
            align = 4
        if where < 0.5:
            # Private word j = idx % PW of this thread, interleaved with the
            # other threads' (lanes using the same j coalesce); the byte
            # offset inside the word is the immediate.
            imm = 0 if atomic else r.randrange(0, 4, align)
            self.emit("andi %s, %s, %d" % (ADDR, idx, PW - 1))
            self.emit("slli %s, %s, %d" % (ADDR, ADDR, self.stride_log2))
            self.emit("add %s, %s, %s" % (ADDR, ADDR, PBUF))
        elif where < 0.85:
            # Shared by the block: (idx & (LANES*SB - 1)) aligned down.
            imm = 0
            self.emit("and %s, %s, %s" % (ADDR, idx, SMASK))
            if align > 1:
                self.emit("andi %s, %s, %d" % (ADDR, ADDR, -align))
            self.emit("add %s, %s, %s" % (ADDR, ADDR, SBUF))
        else:
            # Read-only table (loads only).
            store = False
            imm = 0
            self.emit("andi %s, %s, %d" % (ADDR, idx, (RT - 1) & ~(align - 1)))
            self.emit("la %s, rtable" % TMP)
            self.emit("add %s, %s, %s" % (ADDR, ADDR, TMP))
        if atomic:
            k = r.random()
            if k < 0.6:
                self.emit("%s %s, %s, (%s)" % (r.choice(AMO_OPS), self.dst(),
                                               self.src(), ADDR))
            elif k < 0.75:
                self.emit("lr.w %s, (%s)" % (self.dst(), ADDR))
            elif k < 0.85:
                self.emit("sc.w %s, %s, (%s)" % (self.dst(), self.src(), ADDR))
            else:
                self.emit("lr.w %s, (%s)" % (self.dst(), ADDR))
                self.emit("sc.w %s, %s, (%s)" % (self.dst(), self.src(), ADDR))
        elif store:
            self.emit("s%s %s, %d(%s)" % (width, self.src(), imm, ADDR))
        else:
            op = "l" + width
            if width != "w" and r.random() < 0.5:
                op += "u"
            self.emit("%s %s, %d(%s)" % (op, self.dst(), imm, ADDR))

    def console(self):
        # One printable byte to the console, then sometimes a newline.
        self.emit("andi %s, %s, 31" % (TMP, self.src()))
        self.emit("addi %s, %s, 65" % (TMP, TMP))
        self.emit("lui %s, 0x20000" % ADDR)
        self.emit("sb %s, 0(%s)" % (TMP, ADDR))
        if self.r.random() < 0.3:
            self.emit("li %s, 10" % TMP)
            self.emit("sb %s, 0(%s)" % (TMP, ADDR))

    def straight(self, n):
        for _ in range(n):
            k = self.r.random()
            if k < 0.62:
                self.alu()
            elif k < 0.97:
                self.mem()
            else:
                self.console()

    # ---- control flow ----

    def cond(self):
        if self.r.random() < 0.5:
            # Low bits of thread-dependent values split warps often.
            self.emit("andi %s, %s, %d" % (TMP, self.src(),
                                           self.r.choice([1, 2, 3, 7])))
            return "%s %s, zero" % (self.r.choice(["beq", "bne"]), TMP)
        a = self.src()
        b = self.r.choice([self.src(), "zero"])
        return "%s %s, %s" % (self.r.choice(BRANCHES), a, b)

    def block(self, fn, depth, loops, budget):
        """A sequence of statements; loops = loop registers in use."""
        r = self.r
        # Calls inside a function's loops could multiply run time along a
        # call chain: only main calls from loops.
        can_call = fn + 1 < self.nfuncs and (fn == 0 or not loops)
        while budget > 0:
            k = r.random()
            if depth >= 3 or k < 0.45:
                n = r.randint(1, 5)
                self.straight(n)
                budget -= n
            elif k < 0.58:
                skip = self.label("skip")
                self.emit("%s, %s" % (self.cond(), skip))
                self.block(fn, depth + 1, loops, r.randint(1, 6))
                self.put_label(skip)
                budget -= 4
            elif k < 0.66:
                els, end = self.label("else"), self.label("endif")
                self.emit("%s, %s" % (self.cond(), els))
                self.block(fn, depth + 1, loops, r.randint(1, 5))
                self.emit("j %s" % end)
                self.put_label(els)
                self.block(fn, depth + 1, loops, r.randint(1, 5))
                self.put_label(end)
                budget -= 6
            elif k < 0.76 and len(loops) < len(LOOP_REGS):
                self.loop(fn, depth, loops)
                budget -= 8
            elif k < 0.84 and can_call:
                self.emit("call f%d" % r.randint(fn + 1, self.nfuncs - 1))
                budget -= 3
            elif k < 0.88 and can_call:
                self.indirect_call(fn)
                budget -= 4
            elif k < 0.92:
                self.emit("andi a0, %s, 7" % self.src())
                self.emit("call frec")
                budget -= 3
            else:
                self.jump_table(fn, depth, loops)
                budget -= 8

    def loop(self, fn, depth, loops):
        r = self.r
        reg = LOOP_REGS[len(loops)]
        top, out = self.label("loop"), self.label("loopend")
        # 1 .. 4 iterations, thread-dependent.
        self.emit("andi %s, %s, 3" % (reg, self.src()))
        self.emit("addi %s, %s, 1" % (reg, reg))
        self.put_label(top)
        self.block(fn, depth + 1, loops + [reg], r.randint(2, 8))
        if r.random() < 0.3:
            self.emit("%s, %s" % (self.cond(), out))
        self.emit("addi %s, %s, -1" % (reg, reg))
        self.emit("bnez %s, %s" % (reg, top))
        self.put_label(out)

    def indirect_call(self, fn):
        r = self.r
        table = self.label("calls")[2:]
        targets = [r.randint(fn + 1, self.nfuncs - 1) for _ in range(4)]
        self.rodata.append("%s: .word %s" % (table, ", ".join(
            "f%d" % t for t in targets)))
        self.emit("andi %s, %s, 12" % (TMP, self.src()))
        self.emit("la %s, %s" % (ADDR, table))
        self.emit("add %s, %s, %s" % (ADDR, ADDR, TMP))
        self.emit("lw %s, 0(%s)" % (ADDR, ADDR))
        self.emit("jalr ra, 0(%s)" % ADDR)

    def jump_table(self, fn, depth, loops):
        r = self.r
        table = self.label("jt")[2:]
        cases = [self.label("case") for _ in range(4)]
        end = self.label("jtend")
        self.rodata.append("%s: .word %s" % (table, ", ".join(cases)))
        self.emit("andi %s, %s, 12" % (TMP, self.src()))
        self.emit("la %s, %s" % (ADDR, table))
        self.emit("add %s, %s, %s" % (ADDR, ADDR, TMP))
        self.emit("lw %s, 0(%s)" % (ADDR, ADDR))
        self.emit("jr %s" % ADDR)
        for i, c in enumerate(cases):
            self.put_label(c)
            self.block(fn, depth + 1, loops, r.randint(1, 4))
            if i != len(cases) - 1 or r.random() < 0.5:
                self.emit("j %s" % end)
        self.put_label(end)

    # ---- functions ----

    def function(self, fn):
        """f<fn>: saves ra and the loop counters it may reuse."""
        self.out.append("")
        self.out.append("  .type f%d, @function" % fn)
        self.put_label("f%d" % fn)
        self.emit("addi sp, sp, -16")
        self.emit("sw ra, 12(sp)")
        for i, reg in enumerate(LOOP_REGS):
            self.emit("sw %s, %d(sp)" % (reg, 8 - 4 * i))
        self.block(fn, 0, [], self.budget(6, 20))
        for i, reg in enumerate(LOOP_REGS):
            self.emit("lw %s, %d(sp)" % (reg, 8 - 4 * i))
        self.emit("lw ra, 12(sp)")
        self.emit("addi sp, sp, 16")
        self.emit("ret")

    def recursive(self):
        """frec(a0 = n): recurses n times, a little work at each level."""
        self.out.append("")
        self.out.append("  .type frec, @function")
        self.put_label("frec")
        self.emit("beqz a0, .Lrec_done")
        self.emit("addi sp, sp, -16")
        self.emit("sw ra, 12(sp)")
        self.emit("sw a0, 8(sp)")
        self.emit("addi a0, a0, -1")
        self.emit("xor a1, a1, a0")
        self.emit("add a2, a2, a1")
        self.emit("call frec")
        self.emit("lw a0, 8(sp)")
        self.emit("add a3, a3, a0")
        self.emit("lw ra, 12(sp)")
        self.emit("addi sp, sp, 16")
        self.put_label(".Lrec_done")
        self.emit("ret")

    def store_results(self):
        self.emit("slli %s, %s, %d" % (ADDR, TID, 7))  # RES_WORDS * 4 = 128
        self.emit("la %s, results" % TMP)
        self.emit("add %s, %s, %s" % (ADDR, ADDR, TMP))
        for name, num in sorted(REGNUM.items(), key=lambda x: x[1]):
            if name in ("zero", "sp", "tp", ADDR, TMP):
                continue
            self.emit("sw %s, %d(%s)" % (name, 4 * num, ADDR))

    def main(self):
        r = self.r
        self.out.append("  .type main, @function")
        self.put_label("main")
        self.emit("addi sp, sp, -16")
        self.emit("sw ra, 12(sp)")
        self.emit("csrr %s, 0xfc0" % TID)
        self.emit("la %s, pbuf" % PBUF)
        self.emit("slli %s, %s, 2" % (TMP, TID))
        self.emit("add %s, %s, %s" % (PBUF, PBUF, TMP))
        # Block-shared area: base tid of the block = tid & -LANES.
        self.emit("csrr %s, 0xfc2" % TMP)
        self.emit("neg %s, %s" % (ADDR, TMP))
        self.emit("and %s, %s, %s" % (ADDR, ADDR, TID))
        self.emit("slli %s, %s, 4" % (ADDR, ADDR))  # SB = 16
        self.emit("la %s, sbuf" % SBUF)
        self.emit("add %s, %s, %s" % (SBUF, SBUF, ADDR))
        self.emit("slli %s, %s, 4" % (SMASK, TMP))
        self.emit("addi %s, %s, -1" % (SMASK, SMASK))
        for i, reg in enumerate(LOOP_REGS):
            self.emit("li %s, 0" % reg)
        # Pool registers: uniform, affine in tid, or per-thread data.
        for reg in POOL:
            k = r.random()
            if k < 0.3:
                self.emit("li %s, %d" % (reg, r.randint(-2**31, 2**31 - 1)))
            elif k < 0.65:
                self.emit("slli %s, %s, %d" % (reg, TID, r.randint(0, 4)))
                self.emit("addi %s, %s, %d" % (reg, reg, r.randint(-2048, 2047)))
            else:
                self.emit("lw %s, %d(%s)" % (reg, r.choice([0, 1]) << self.stride_log2,
                                             PBUF))
        self.block(0, 0, [], self.budget(25, 45))
        if r.random() < 0.3:
            # Some threads leave early (after saving their results).
            stay = self.label("stay")
            self.emit("%s, %s" % (self.cond(), stay))
            self.store_results()
            self.emit("li a7, 93")
            self.emit("ecall")
            self.put_label(stay)
            self.block(0, 1, [], r.randint(3, 10))
        self.store_results()
        self.emit("lw ra, 12(sp)")
        self.emit("addi sp, sp, 16")
        self.emit("li a0, 0")
        self.emit("ret")

    def kernel(self):
        r = self.r
        head = [
            "# Random Simty kernel, seed %d (tests/rtl/randprog.py)." % self.seed,
            "# max-threads %d" % self.max_threads,
            "  .option arch, +zicsr, +zifencei",
            "  .option norvc",
            "  .text",
            "  .globl main",
        ]
        self.main()
        for fn in range(1, self.nfuncs):
            self.function(fn)
        self.recursive()
        data = ["", "  .section .rodata", "  .balign 4",
                "  .globl rtable", "rtable:"]
        for i in range(0, RT, 16):
            data.append("  .word " + ", ".join(
                "0x%08x" % r.getrandbits(32) for _ in range(4)))
        data += ["  " + line for line in self.rodata]
        for name, size in (("pbuf", 4 * PW), ("sbuf", SB)):
            data += ["", "  .data", "  .balign 16", "  .globl " + name,
                     "  .type %s, @object" % name,
                     "  .size %s, %d" % (name, size * self.max_threads),
                     name + ":"]
            words = size * self.max_threads // 4
            for i in range(0, words, 8):
                data.append("  .word " + ", ".join(
                    "0x%08x" % r.getrandbits(32) for _ in range(8)))
        data += ["", "  .bss", "  .balign 16", "  .globl results",
                 "  .type results, @object",
                 "  .size results, %d" % (RES_WORDS * 4 * self.max_threads),
                 "results:", "  .zero %d" % (RES_WORDS * 4 * self.max_threads)]
        return "\n".join(head + self.out + data) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--max-threads", type=int, default=256)
    ap.add_argument("--functions", type=int, default=None,
                    help="generated functions f1..fN-1 (default: random 2..6)")
    ap.add_argument("--size", type=float, default=1.0,
                    help="scale of main's and functions' length (small "
                         "values make short kernels, e.g. to find a "
                         "minimal failing case)")
    ap.add_argument("--isa", default="rv32i",
                    choices=["rv32i", "rv32im", "rv32ima"],
                    help="rv32im: also M instructions, rv32ima: M and A "
                         "(build with simty-cc --isa ISA)")
    ap.add_argument("-o", "--output", default="-")
    a = ap.parse_args()
    if a.max_threads < 8 or a.max_threads > 256 or \
            a.max_threads & (a.max_threads - 1):
        ap.error("--max-threads must be a power of two, 8..256")
    nfuncs = a.functions
    if nfuncs is None:
        nfuncs = random.Random(a.seed * 7919 + 1).randint(2, 6)
    text = Gen(a.seed, a.max_threads, nfuncs, a.size, "m" in a.isa[4:],
               "a" in a.isa[5:]).kernel()
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
