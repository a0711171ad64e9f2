/* SPDX-License-Identifier: Apache-2.0 */
// jumps - jal and jalr: targets, link values (pc + 4), forward and backward,
// jalr offsets, bit 0 of the target cleared, rd = rs1, per-thread targets.
// dump: result:N + L
// dump: done:N + L
// expect-all: i < N: result[i] == 0 and done[i] == 1
// expect-all: i < L: result[N + i] == 0 and done[N + i] == 0
// run: one-wave
// threads: W * L
// run: waves
// threads: min(3 * W * L + L // 2 + 1, 1024 - L)
#include "isa.h"

  ISA_BEGIN
  /* jal forward: link is the address after the jal */
  li s1, 1
  jal a0, 1f
2:
  j isa_fail
1:
  la t1, 2b
  CHECK_EQ a0, t1

  /* jal backward */
  li s1, 2
  j 3f
4:
  la t1, 5f
  CHECK_EQ a1, t1
  j 6f
3:
  jal a1, 4b
5:
  j isa_fail
6:

  /* jalr with a positive offset */
  li s1, 3
  la t0, 7f - 8
  jalr a0, 8(t0)
8:
  j isa_fail
7:
  la t1, 8b
  CHECK_EQ a0, t1

  /* jalr with a negative offset */
  li s1, 4
  la t0, 9f + 12
  jalr a0, -12(t0)
10:
  j isa_fail
9:
  la t1, 10b
  CHECK_EQ a0, t1

  /* bit 0 of rs1 + imm is cleared: odd threads jump through an odd base */
  li s1, 5
  la t0, 11f
  andi t2, s0, 1
  add t0, t0, t2
  jalr a0, 0(t0)
12:
  j isa_fail
11:
  la t1, 12b
  CHECK_EQ a0, t1
  li s1, 6
  la t0, 13f - 1
  jalr a0, 1(t0)              /* even sum: plain */
  j isa_fail
13:
  la t0, 14f - 3
  jalr a0, 4(t0)              /* odd sum: cleared */
  j isa_fail
14:

  /* rd = rs1: the target is read before the link is written */
  li s1, 7
  la t0, 15f
  jalr t0, 0(t0)
16:
  j isa_fail
15:
  la t1, 16b
  CHECK_EQ t0, t1

  /* per-thread targets: thread t lands on pad t & 3 (indirect divergence) */
  li s1, 8
  andi t2, s0, 3
  slli t2, t2, 2
  la t3, pads
  add t3, t3, t2
  lw t4, 0(t3)
  jalr a0, 0(t4)
17:
  j isa_fail
pad0:
  li a3, 0
  j 18f
pad1:
  li a3, 1
  j 18f
pad2:
  li a3, 2
  j 18f
pad3:
  li a3, 3
18:
  la t1, 17b
  CHECK_EQ a0, t1
  li s1, 9
  andi t2, s0, 3
  CHECK_EQ a3, t2

  /* call and return through ra, two levels, per-thread argument */
  li s1, 10
  mv a0, s0
  call add_three
  addi t1, s0, 3
  CHECK_EQ a0, t1
  ISA_END

  .type add_one, @function
add_one:
  addi a0, a0, 1
  ret
  .type add_three, @function
add_three:
  mv t6, ra
  addi a0, a0, 2
  jal ra, add_one
  mv ra, t6
  jr ra

  .section .rodata
  .balign 16
pads:
  .word pad0, pad1, pad2, pad3
