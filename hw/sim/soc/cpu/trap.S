/* SPDX-License-Identifier: Apache-2.0 */
/* trap.S - one controller trap per CASE (-DCASE=n): the bench must stop
 * at `trap_here` with cause `expected_cause` (simty_ctrl_cpu TRAP_*),
 * and nothing after it may run (it would write a failure signature). */
#define TEST_PORT 0xF0000000
  .section .text.start, "ax"
  .globl _start
_start:
  li t0, TEST_PORT
  li a0, 0x10001
  la s0, scratch
  .globl trap_here
#if CASE == 1
  .set expected_cause, 2
trap_here:
  ebreak
#elif CASE == 2
  .set expected_cause, 3
trap_here:
  .word 0x00000000       /* not a 32-bit encoding */
#elif CASE == 3
  .set expected_cause, 3
trap_here:
  .word 0xB00025F3       /* csrr a1, mcycle: no CSRs in the controller */
#elif CASE == 4
  .set expected_cause, 3
trap_here:
  .word 0x40001033       /* sll with funct7 0100000 */
#elif CASE == 5
  .set expected_cause, 4
  la a1, trap_here + 2 + 4
trap_here:
  jalr ra, -4(a1)        /* target 2 mod 4 */
#elif CASE == 6
  .set expected_cause, 4
trap_here:
  beq zero, zero, trap_here + 2
#elif CASE == 7
  .set expected_cause, 5
trap_here:
  lw a1, 2(s0)
#elif CASE == 8
  .set expected_cause, 5
trap_here:
  sh a0, 1(s0)
#elif CASE == 9
  .set expected_cause, 1
  nop
trap_here:
  ecall
#elif CASE == 10
  /* a fetch outside the instruction memory (the bench's RAM): the trap
   * names the address fetched */
  .set expected_cause, 6
  .set trap_here, TEST_PORT
  jr t0
#else
#error unknown CASE
#endif
  li a1, 0xBAD0DEAD
  sw a1, 4(t0)
  ecall
  .globl expected_cause
  .data
  .balign 4
scratch:
  .word 0x11111111, 0x22222222
