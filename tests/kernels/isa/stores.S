/* SPDX-License-Identifier: Apache-2.0 */
// stores - sb at every byte offset, sh at every halfword offset, sw, with
// immediates; only the addressed bytes change, high register bits ignored.
// dump: result:N + L
// dump: done:N + L
// expect-all: i < N: result[i] == 0 and done[i] == 1
// expect-all: i < L: result[N + i] == 0 and done[N + i] == 0
// run: one-wave
// threads: W * L
// run: waves
// threads: min(3 * W * L + L // 2 + 1, 1024 - L)
#include "isa.h"

/* Each thread owns 8 bytes at slots + 8 * tid, filled with the bytes
 * 11 22 33 44 55 66 77 88 before each store. The stored register holds
 * junk above the stored width; the expected words are the fill with the
 * target bytes cleared (table \keep, one pair per offset) ORed with the
 * stored value shifted into place. */
.macro FILL
  slli a5, s0, 3
  la t0, slots
  add a5, a5, t0
  li t0, 0x44332211
  sw t0, 0(a5)
  li t0, 0x88776655
  sw t0, 4(a5)
.endm

/* \op stores a0 at byte offset ((tid + step) & \mask) << \shift through
 * immediate \imm; \vmask keeps the stored width of a0. */
.macro TEST_ST n, op, shift, mask, imm, vmask, keep
  li s1, \n
  VEC_LOOP_BEGIN
  FILL
  add t3, s0, a6
  andi t3, t3, \mask
  sll t3, t3, \shift          /* byte offset k */
  /* value: junk in the high bits, tid-dependent low bits */
  li a0, 0x5a5a5a5a
  slli t1, s0, 4
  xor a0, a0, t1
  xor a0, a0, a6
  add t1, a5, t3
  li t4, -(\imm)
  add t1, t1, t4
  \op a0, \imm(t1)
  /* expected: keep[k] pair, value & vmask placed at bit 8 * (k & 3) */
  li t2, \vmask
  and t2, a0, t2
  andi t4, t3, 3
  slli t4, t4, 3
  sll t2, t2, t4
  slli t4, t3, 1              /* 8 bytes per keep entry: k * 8 / 4... */
  slli t4, t4, 2
  la a4, \keep
  add a4, a4, t4
  lw a2, 0(a4)
  lw a3, 4(a4)
  andi t4, t3, 4
  bnez t4, 9030f
  or a2, a2, t2
  j 9031f
9030:
  or a3, a3, t2
9031:
  lw t5, 0(a5)
  CHECK_EQ t5, a2
  lw t5, 4(a5)
  CHECK_EQ t5, a3
  VEC_LOOP_END
.endm

  ISA_BEGIN
  TEST_ST 10, sb, 0, 7, 0, 0xff, keep_b
  TEST_ST 11, sb, 0, 7, -7, 0xff, keep_b
  TEST_ST 12, sb, 0, 7, 2047, 0xff, keep_b
  TEST_ST 20, sh, 1, 3, 0, 0xffff, keep_h
  TEST_ST 21, sh, 1, 3, -2048, 0xffff, keep_h
  TEST_ST 30, sw, 2, 1, 0, 0xffffffff, keep_w
  TEST_ST 31, sw, 2, 1, 4, 0xffffffff, keep_w
  /* a store of x0 writes zeros */
  li s1, 40
  FILL
  sw zero, 4(a5)
  lw t5, 4(a5)
  CHECK_EQ t5, zero
  ISA_END

  .section .rodata
  .balign 16
/* The fill with byte k (sb), halfword k/2 (sh) or word k/4 (sw) cleared;
 * indexed by byte offset k, two words per entry. */
keep_b:
  .word 0x44332200, 0x88776655, 0x44330011, 0x88776655
  .word 0x44002211, 0x88776655, 0x00332211, 0x88776655
  .word 0x44332211, 0x88776600, 0x44332211, 0x88770055
  .word 0x44332211, 0x88006655, 0x44332211, 0x00776655
keep_h:
  .word 0x44330000, 0x88776655, 0, 0
  .word 0x00002211, 0x88776655, 0, 0
  .word 0x44332211, 0x88770000, 0, 0
  .word 0x44332211, 0x00006655, 0, 0
keep_w:
  .word 0x00000000, 0x88776655, 0, 0
  .word 0, 0, 0, 0
  .word 0x44332211, 0x00000000, 0, 0
  .word 0, 0, 0, 0

  .bss
  .balign 64
slots:
  .space 8 * ISA_MAX_THREADS
