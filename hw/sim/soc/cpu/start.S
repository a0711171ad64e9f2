/* SPDX-License-Identifier: Apache-2.0 */
/* start.S - entry of the C bench program: stack, .bss, main, then ecall
 * (the bench ends the run at the trap and checks it is an ecall). */
  .section .text.start, "ax"
  .globl _start
_start:
  la sp, __stack_top
  la t0, __bss_start
  la t1, __bss_end
1:
  bgeu t0, t1, 2f
  sw zero, 0(t0)
  addi t0, t0, 4
  j 1b
2:
  call main
  .globl _end_of_test
_end_of_test:
  ecall
