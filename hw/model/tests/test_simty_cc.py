#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""test_simty_cc.py - simty-cc's own options, run on the model.

usage: test_simty_cc.py SIMTY_CC SIMTY_MODEL SCRATCH_DIR

--float-printf (and the integer-only default), --isa (the ELF's
attributes, refused values), the stack check (warning, --stack-error,
--stack-log2, recursion and indirect calls).
"""
import os
import subprocess
import sys

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)


def run(*cmd):
    p = subprocess.run(list(cmd), capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


PRINTF_KERNEL = r"""
#include <stdio.h>
#include "simty_kernel.h"
volatile double x = 3.25, y = 0.0015;
int main(void)
{
  printf("f=%f e=%.3e i=%d\n", x + simty_thread_id(), y, 42);
  return 0;
}
"""

STACK_KERNEL = r"""
#include "simty_kernel.h"
int out[64];
__attribute__((noinline)) int leaf(int n)
{
  volatile int buf[LEAF_WORDS];
  buf[n & 7] = n;
  return buf[n & 7] + 1;
}
__attribute__((noinline)) int rec(int n)
{
  volatile int pad[8];
  pad[0] = n;
  return n > 0 ? rec(n - 1) + pad[0] : leaf(n);
}
int (*volatile fp)(int) = leaf;
int main(void)
{
  unsigned t = simty_thread_id();
  out[t] = rec((int)(t & 3)) + fp((int)t);
  return 0;
}
"""


def main():
    cc, model, scratch = sys.argv[1:4]
    os.makedirs(scratch, exist_ok=True)
    src = os.path.join(scratch, "printf_kernel.c")
    open(src, "w").write(PRINTF_KERNEL)

    # printf levels
    default_elf = os.path.join(scratch, "printf_int.elf")
    rc, _, err = run(cc, "-o", default_elf, src)
    check(rc == 0, "default build: %r" % err)
    rc, out, err = run(model, "--threads", "2", default_elf)
    check(rc == 0 and "[0] f=*float* e=*float* i=42" in out,
          "default printf prints *float*: %r %r" % (out, err))
    float_elf = os.path.join(scratch, "printf_float.elf")
    rc, _, err = run(cc, "--float-printf", "-o", float_elf, src)
    check(rc == 0, "--float-printf build: %r" % err)
    rc, out, err = run(model, "--threads", "2", float_elf)
    check(rc == 0 and "[0] f=3.250000 e=1.500e-03 i=42" in out and
          "[1] f=4.250000 e=1.500e-03 i=42" in out,
          "--float-printf prints floats: %r %r" % (out, err))

    # printf's stack: float fits 512 bytes, integer 256; an overflow into
    # the neighbouring stack faults stack_overflow (the stack guard)
    for elf, log2 in ((float_elf, "9"), (default_elf, "8")):
        rc, out, err = run(model, "--threads", "16", "--racecheck",
                           "--stack-log2", log2, elf)
        check(rc == 0 and "racecheck: 0 racing words" in err,
              "%s fits 2^%s-byte stacks: %d %r" % (elf, log2, rc, err[-200:]))
    rc, out, err = run(model, "--threads", "16", "--racecheck",
                       "--stack-log2", "7", default_elf)
    check(rc == 3 and "fault: stack_overflow (cause 11)" in err,
          "printf overflowing 128-byte stacks faults: %d %r" % (rc, err[-300:]))

    # --isa: the attributes, and bad values
    for isa, tag in (("rv32im", "_m2p0"), ("rv32ia", "_a2p1"),
                     ("rv32ima_zicntr", "_m2p0_a2p1")):
        elf = os.path.join(scratch, "isa_%s.elf" % isa)
        rc, _, err = run(cc, "--isa", isa, "-o", elf, src)
        check(rc == 0, "--isa %s build: %r" % (isa, err))
        rc, attrs, _ = run("riscv64-unknown-elf-readelf", "-A", elf)
        check(tag in attrs, "--isa %s: Tag_RISCV_arch %r" % (isa, attrs))
        rc, out, err = run(model, "--isa", isa, "--threads", "1", elf)
        check(rc == 0 and "[0] f=*float*" in out,
              "--isa %s kernel runs on a model with it: %r" % (isa, err))
    for bad in ("rv32imc", "rv64i", "rv32g", "x"):
        rc, _, err = run(cc, "--isa", bad, "-o",
                         os.path.join(scratch, "bad.elf"), src)
        check(rc == 2 and err.startswith("simty-cc: --isa"),
              "--isa %s refused: %d %r" % (bad, rc, err))

    # stack check
    src = os.path.join(scratch, "stack_kernel.c")
    open(src, "w").write(STACK_KERNEL)
    elf = os.path.join(scratch, "stack.elf")
    rc, _, err = run(cc, "-DLEAF_WORDS=8", "-o", elf, src)
    check(rc == 0 and "warning" not in err, "small frames: no warning %r" % err)
    rc, _, err = run(cc, "-DLEAF_WORDS=400", "-o", elf, src)
    check(rc == 0 and os.path.exists(elf) and
          "simty-cc: warning: " in err and "more than the 1024-byte stack" in err
          and "main" in err and "leaf" in err and "rec" in err and
          "recursive, counted once: rec" in err and
          "indirect calls not followed" in err,
          "1.6 KB frame: a warning with the chain: %r" % err)
    rc, _, err = run(cc, "-DLEAF_WORDS=400", "--stack-log2", "11", "-o", elf,
                     src)
    check(rc == 0 and "warning" not in err, "fits a 2 KiB stack: %r" % err)
    os.remove(elf)
    rc, _, err = run(cc, "-DLEAF_WORDS=400", "--stack-error", "-o", elf, src)
    check(rc == 1 and "simty-cc: error: " in err and not os.path.exists(elf),
          "--stack-error fails without output: %d %r" % (rc, err))

    if failures:
        print("%d simty-cc check(s) failed" % len(failures))
        return 1
    print("simty-cc: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
