/* SPDX-License-Identifier: Apache-2.0 */
# thread_insts.S - straight-line kernel (crt0 + 4 instructions): the RTL
# counts thread_insts about 4x too high (see tests/rtl/FINDINGS.md).
#   build/rtl/core_4x4/simty-rtl --threads 1 --counters thread_insts.elf
#   build/bin/simty-model        --threads 1 --counters thread_insts.elf
  .text
  .globl main
main:
  addi a1, zero, 1
  addi a2, zero, 2
  li a0, 0
  ret
