/* SPDX-License-Identifier: Apache-2.0 */
# merge_dup.S - eight single-lane paths reconverge at `join` one by one
# (divergent branches on the lane bits); on the RTL lanes 5 and 6 run
# `join` twice (see tests/rtl/FINDINGS.md, entry 2). One warp of 8 lanes:
#   python3 tests/rtl/rtl_diff.py --configs 1x8 --threads 8 merge_dup.elf
  .option arch, +zicsr
  .text
  .globl main
main:
  csrr t0, 0xfc0
  # lanes split 4 ways by low bits, then by bit 2: 8 single-lane paths
  andi t1, t0, 1
  bnez t1, a
  andi t1, t0, 2
  bnez t1, b
  andi t1, t0, 4
  bnez t1, c
  j join
a:
  andi t1, t0, 4
  bnez t1, a2
  j join
a2:
  andi t1, t0, 2
  bnez t1, join
  nop
  j join
b:
  andi t1, t0, 4
  bnez t1, join
  nop
  j join
c:
  nop
  j join
join:
  addi a2, a1, 5
  li a0, 0
  ret
