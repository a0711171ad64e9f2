/* SPDX-License-Identifier: Apache-2.0 */
// branches - beq, bne, blt, bge, bltu, bgeu, taken and not taken, forward and
// backward, signed and unsigned edges; lanes of a warp disagree (divergence).
// dump: result:N + L
// dump: done:N + L
// expect-all: i < N: result[i] == 0 and done[i] == 1
// expect-all: i < L: result[N + i] == 0 and done[N + i] == 0
// run: one-wave
// threads: W * L
// run: waves
// threads: min(3 * W * L + L // 2 + 1, 1024 - L)
#include "isa.h"

/* t_branch entries: (rs1, rs2, outcome bits, 0); bit k says whether
 * branch k (beq, bne, blt, bge, bltu, bgeu) is taken. */
.macro TEST_BR n, br, bit
  li s1, \n
  VEC_LOOP_BEGIN
  VEC_ADDR t_branch
  lw a0, 0(a4)
  lw a1, 4(a4)
  lw a2, 8(a4)
  srli a2, a2, \bit
  andi a2, a2, 1
  li s1, \n
  \br a0, a1, 9010f
  li a3, 0
  j 9011f
9010:
  li a3, 1
9011:
  CHECK_EQ a3, a2
  li s1, \n + 1
  j 9012f
9013:
  li a3, 1
  j 9014f
9012:
  li a3, 0
  \br a0, a1, 9013b
9014:
  CHECK_EQ a3, a2
  VEC_LOOP_END
.endm

/* A branch comparing a register with itself: taken iff \taken. */
.macro TEST_BR_SELF n, br, taken
  li s1, \n
  addi a0, s0, -3
  li a3, 1
  \br a0, a0, 9015f
  li a3, 0
9015:
  li a2, \taken
  CHECK_EQ a3, a2
.endm

  ISA_BEGIN
  TEST_BR 10, beq, 0
  TEST_BR 20, bne, 1
  TEST_BR 30, blt, 2
  TEST_BR 40, bge, 3
  TEST_BR 50, bltu, 4
  TEST_BR 60, bgeu, 5
  TEST_BR_SELF 70, beq, 1
  TEST_BR_SELF 71, bne, 0
  TEST_BR_SELF 72, blt, 0
  TEST_BR_SELF 73, bge, 1
  TEST_BR_SELF 74, bltu, 0
  TEST_BR_SELF 75, bgeu, 1
  /* A backward loop whose trip count is (tid & 3) + 1. */
  li s1, 80
  andi t3, s0, 3
  addi t3, t3, 1
  li t4, 0
  li a3, 0
9020:
  addi a3, a3, 2
  addi t4, t4, 1
  blt t4, t3, 9020b
  add t5, t3, t3
  CHECK_EQ a3, t5
  ISA_END

  .section .rodata
  .balign 16
t_branch:
  .word 0x00000000, 0x00000000, 0x29, 0
  .word 0xffffffff, 0x00000000, 0x26, 0
  .word 0x00000000, 0xffffffff, 0x1a, 0
  .word 0x80000000, 0x7fffffff, 0x26, 0
  .word 0x7fffffff, 0x80000000, 0x1a, 0
  .word 0x00000005, 0x00000006, 0x16, 0
  .word 0xfffffffe, 0xffffffff, 0x16, 0
  .word 0x00000006, 0x00000005, 0x2a, 0
