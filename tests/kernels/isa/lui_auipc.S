/* SPDX-License-Identifier: Apache-2.0 */
// lui_auipc - lui loads the upper 20 bits and clears the lower 12; auipc adds
// the shifted immediate to its own address (positive, negative, wrapping).
// dump: result:N + L
// dump: done:N + L
// expect-all: i < N: result[i] == 0 and done[i] == 1
// expect-all: i < L: result[N + i] == 0 and done[N + i] == 0
// run: one-wave
// threads: W * L
// run: waves
// threads: min(3 * W * L + L // 2 + 1, 1024 - L)
#include "isa.h"

/* Compare register \r with the word at \label in the expected table. */
.macro CHECK_WORD r, label
  la t1, \label
  lw t1, 0(t1)
  CHECK_EQ \r, t1
.endm

  ISA_BEGIN
  li s1, 1
  lui a0, 0x12345
  CHECK_WORD a0, x_lui
  li s1, 2
  lui a0, 0xfffff
  CHECK_WORD a0, x_lui + 4
  li s1, 3
  lui a0, 0x80000
  CHECK_WORD a0, x_lui + 8
  li s1, 4
  lui a0, 0
  CHECK_EQ a0, zero
  /* lui replaces the whole register, whatever it held (tid-dependent) */
  li s1, 5
  addi a0, s0, 0x7ff
  lui a0, 1
  CHECK_WORD a0, x_lui + 12

  li s1, 10
auipc0:
  auipc a0, 0
  CHECK_WORD a0, x_auipc
  li s1, 11
auipc1:
  auipc a0, 0x12345
  CHECK_WORD a0, x_auipc + 4
  li s1, 12
auipc2:
  auipc a0, 0xfffff
  CHECK_WORD a0, x_auipc + 8
  li s1, 13
auipc3:
  auipc a0, 0x80000
  CHECK_WORD a0, x_auipc + 12
  /* odd and even threads run auipc at different addresses */
  li s1, 14
  andi t2, s0, 1
  beqz t2, 1f
auipc4:
  auipc a0, 1
  la t3, x_auipc + 16
  j 2f
1:
auipc5:
  auipc a0, 1
  la t3, x_auipc + 20
2:
  lw t3, 0(t3)
  CHECK_EQ a0, t3
  ISA_END

  .section .rodata
  .balign 16
x_lui:
  .word 0x12345000, 0xfffff000, 0x80000000, 0x00001000
x_auipc:
  .word auipc0, auipc1 + 0x12345000, auipc2 - 0x1000, auipc3 + 0x80000000
  .word auipc4 + 0x1000, auipc5 + 0x1000
