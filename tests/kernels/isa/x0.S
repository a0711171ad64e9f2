/* SPDX-License-Identifier: Apache-2.0 */
// x0 - writes to x0 are discarded by every instruction kind, reads give 0.
// dump: result:N + L
// dump: done:N + L
// expect-all: i < N: result[i] == 0 and done[i] == 1
// expect-all: i < L: result[N + i] == 0 and done[N + i] == 0
// run: one-wave
// threads: W * L
// run: waves
// threads: min(3 * W * L + L // 2 + 1, 1024 - L)
#include "isa.h"

/* x0 must still read zero, and through a second path (add). */
.macro CHECK_X0
  CHECK_EQ x0, zero
  add t6, x0, x0
  beqz t6, 9040f
  j isa_fail
9040:
.endm

  ISA_BEGIN
  addi a1, s0, 1               /* tid + 1: never zero */
  li s1, 1
  addi x0, a1, 5
  CHECK_X0
  li s1, 2
  add x0, a1, a1
  CHECK_X0
  li s1, 3
  lui x0, 0x12345
  CHECK_X0
  li s1, 4
  auipc x0, 0x1
  CHECK_X0
  li s1, 5
  slli x0, a1, 3
  CHECK_X0
  li s1, 6
  la t0, word
  lw x0, 0(t0)
  CHECK_X0
  li s1, 7
  csrr x0, SIMTY_CSR_TID
  CHECK_X0
  li s1, 8
  jal x0, 1f
  j isa_fail
1:
  CHECK_X0
  li s1, 9
  la t0, 2f
  jalr x0, 0(t0)
  j isa_fail
2:
  CHECK_X0
  /* x0 as a source */
  li s1, 10
  sub a0, a1, x0
  CHECK_EQ a0, a1
  li s1, 11
  or a0, x0, a1
  CHECK_EQ a0, a1
  li s1, 12
  sltu a0, x0, a1              /* 0 < tid + 1 */
  li t1, 1
  CHECK_EQ a0, t1
  li s1, 13
  sub a0, x0, a1
  add a0, a0, a1
  CHECK_EQ a0, zero
  ISA_END

  .section .rodata
  .balign 4
word:
  .word 0xdeadbeef
