/* SPDX-License-Identifier: Apache-2.0 */
/* isa.h - harness shared by the ISA tests (RV32I assembly, via cpp).
 *
 * Every thread of the launch runs every check of a test. s0 holds the
 * thread's logical id (CSR simty_tid), s1 the number of the check being
 * run. A failing check jumps to isa_fail with s1 still set; the thread
 * then records s1 in result[tid] (0 = every check passed) and increments
 * done[tid], so the runner catches threads that never ran or ran twice.
 *
 * Table-driven checks run NV = 8 vectors per check in a rotated order:
 * thread t uses vector (t + j) & 7 at step j, so the lanes of one warp
 * instruction work on different operands.
 */
#include "simty_arch.h"

  .option arch, +zicsr
  .option norvc

#define ISA_MAX_THREADS 1024

/* Start main: s0 = tid, s1 = 0, s11 = return address (tests use ra). */
.macro ISA_BEGIN
  .text
  .globl main
  .type main, @function
main:
  mv s11, ra
  csrr s0, SIMTY_CSR_TID
  li s1, 0
.endm

/* Fail unless two registers are equal (long jump: checks can be far). */
.macro CHECK_EQ a, b
  beq \a, \b, 9001f
  j isa_fail
9001:
.endm

/* End main: record the outcome, mark this thread done, return. */
.macro ISA_END
  li s1, 0
isa_fail:
  slli t0, s0, 2
  la t1, result
  add t1, t1, t0
  sw s1, 0(t1)
  la t1, done
  add t1, t1, t0
  lw t2, 0(t1)
  addi t2, t2, 1
  sw t2, 0(t1)
  li a0, 0
  mv ra, s11
  ret
  .size main, . - main

  .bss
  .balign 256
  .globl result, done
result:
  .space 4 * ISA_MAX_THREADS
done:
  .space 4 * ISA_MAX_THREADS
  .text
.endm

/* a4 = address of this thread's vector for step a6 in table \tbl, with
 * entries of 16 bytes. Clobbers t0. */
.macro VEC_ADDR tbl
  add t0, s0, a6
  andi t0, t0, 7
  slli t0, t0, 4
  la a4, \tbl
  add a4, a4, t0
.endm

/* Loop head / tail over the 8 vectors: a6 = step. */
.macro VEC_LOOP_BEGIN
  li a6, 0
9002:
.endm
.macro VEC_LOOP_END
  addi a6, a6, 1
  li t0, 8
  bltu a6, t0, 9002b
.endm

/* Register-register op: table entries (rs1, rs2, expected, 0). Checks
 * rd distinct, rd = rs1 and rd = rs2; check numbers n, n+1, n+2. */
.macro TEST_RR n, op, tbl
  li s1, \n
  VEC_LOOP_BEGIN
  VEC_ADDR \tbl
  lw a0, 0(a4)
  lw a1, 4(a4)
  lw a2, 8(a4)
  li s1, \n
  \op a3, a0, a1
  CHECK_EQ a3, a2
  li s1, \n + 1
  mv a3, a0
  \op a3, a3, a1
  CHECK_EQ a3, a2
  li s1, \n + 2
  mv a3, a1
  \op a3, a0, a3
  CHECK_EQ a3, a2
  VEC_LOOP_END
.endm

/* Register-immediate op: table entries (rs1, expected, 0, 0). Checks rd
 * distinct and rd = rs1; check numbers n, n+1. */
.macro TEST_RI n, op, imm, tbl
  li s1, \n
  VEC_LOOP_BEGIN
  VEC_ADDR \tbl
  lw a0, 0(a4)
  lw a2, 4(a4)
  li s1, \n
  \op a3, a0, \imm
  CHECK_EQ a3, a2
  li s1, \n + 1
  mv a3, a0
  \op a3, a3, \imm
  CHECK_EQ a3, a2
  VEC_LOOP_END
.endm
