/* SPDX-License-Identifier: Apache-2.0 */
// loads - lb, lbu, lh, lhu, lw at every byte offset, sign and zero extension,
// positive and negative immediates. Lanes read different offsets of one line.
// dump: result:N + L
// dump: done:N + L
// expect-all: i < N: result[i] == 0 and done[i] == 1
// expect-all: i < L: result[N + i] == 0 and done[N + i] == 0
// run: one-wave
// threads: W * L
// run: waves
// threads: min(3 * W * L + L // 2 + 1, 1024 - L)
#include "isa.h"

/* Load at offset ((tid + step) & mask) * stride from ldata + base through
 * an immediate imm; compare with exp[(tid + step) & mask]. */
.macro TEST_LD n, op, base, stride_log2, mask, imm, exp
  li s1, \n
  VEC_LOOP_BEGIN
  add t0, s0, a6
  andi t0, t0, \mask
  sll t1, t0, \stride_log2
  la a5, ldata + \base - \imm
  add a5, a5, t1
  \op a0, \imm(a5)
  slli t2, t0, 2
  la a4, \exp
  add a4, a4, t2
  lw a2, 0(a4)
  CHECK_EQ a0, a2
  VEC_LOOP_END
.endm

  ISA_BEGIN
  TEST_LD 10, lb, 0, 0, 7, 0, x_lb
  TEST_LD 11, lb, 8, 0, 7, -8, x_lb + 32
  TEST_LD 12, lb, 0, 0, 7, 2047, x_lb
  TEST_LD 20, lbu, 0, 0, 7, 0, x_lbu
  TEST_LD 21, lbu, 8, 0, 7, -2048, x_lbu + 32
  TEST_LD 22, lbu, 8, 0, 7, 5, x_lbu + 32
  TEST_LD 30, lh, 0, 1, 7, 0, x_lh
  TEST_LD 31, lh, 0, 1, 7, -2, x_lh
  TEST_LD 32, lh, 0, 1, 7, 1000, x_lh
  TEST_LD 40, lhu, 0, 1, 7, 0, x_lhu
  TEST_LD 41, lhu, 0, 1, 7, -1024, x_lhu
  TEST_LD 50, lw, 0, 2, 3, 0, x_lw
  TEST_LD 51, lw, 0, 2, 3, -4, x_lw
  TEST_LD 52, lw, 0, 2, 3, 2044, x_lw
  /* rd = rs1: the address register is overwritten by the loaded value. */
  li s1, 60
  la a0, ldata + 12
  lw a0, 0(a0)
  la a4, x_lw + 12
  lw a2, 0(a4)
  CHECK_EQ a0, a2
  ISA_END

  .section .rodata
  .balign 64
ldata:
  .byte 0x80, 0x7f, 0xff, 0x01, 0xfe, 0x80, 0x00, 0x81
  .byte 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0
  .balign 16
x_lb:
  .word 0xffffff80, 0x0000007f, 0xffffffff, 0x00000001
  .word 0xfffffffe, 0xffffff80, 0x00000000, 0xffffff81
  .word 0x00000012, 0x00000034, 0x00000056, 0x00000078
  .word 0xffffff9a, 0xffffffbc, 0xffffffde, 0xfffffff0
x_lbu:
  .word 0x00000080, 0x0000007f, 0x000000ff, 0x00000001
  .word 0x000000fe, 0x00000080, 0x00000000, 0x00000081
  .word 0x00000012, 0x00000034, 0x00000056, 0x00000078
  .word 0x0000009a, 0x000000bc, 0x000000de, 0x000000f0
x_lh:
  .word 0x00007f80, 0x000001ff, 0xffff80fe, 0xffff8100
  .word 0x00003412, 0x00007856, 0xffffbc9a, 0xfffff0de
x_lhu:
  .word 0x00007f80, 0x000001ff, 0x000080fe, 0x00008100
  .word 0x00003412, 0x00007856, 0x0000bc9a, 0x0000f0de
x_lw:
  .word 0x01ff7f80, 0x810080fe, 0x78563412, 0xf0debc9a
