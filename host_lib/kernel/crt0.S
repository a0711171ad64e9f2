/* SPDX-License-Identifier: Apache-2.0 */
/* crt0.S - every kernel thread starts here: own stack, gp, TLS, then main.
 *
 * Runs once per logical thread (per dispatch of a warp), never once per
 * load: .data/.bss are set up by the host when it loads the kernel.
 * Returning from main ends the thread through ecall (a7 = 93, a0 = status).
 */
#include "simty_arch.h"

  /* Zicsr is part of RV32I as Simty implements it; stock multilibs are
   * built for plain rv32i, so enable the mnemonics here only. */
  .option arch, +zicsr

  .section .text.start, "ax"
  .globl _start
  .type _start, @function
_start:
  /* sp = stack_top - (mhartid << stack_log2): one stack per hardware
   * thread, at the top of data memory, growing down. */
  csrr t0, SIMTY_CSR_MHARTID
  csrr t1, SIMTY_CSR_STACK_TOP
  csrr t2, SIMTY_CSR_STACK_LOG2
  sll t0, t0, t2
  sub sp, t1, t0

  .option push
  .option norelax
  la gp, __global_pointer$
  .option pop

  /* Thread-local storage (picolibc keeps errno there): a block just below
   * the stack top, initialised from .tdata, .tbss zeroed. */
  la t0, __tls_size
  sub sp, sp, t0
  andi sp, sp, -16
  mv tp, sp
  la t1, __tdata_start
  la t2, __tdata_end
  mv t3, tp
1:
  bgeu t1, t2, 2f
  lw t4, 0(t1)
  sw t4, 0(t3)
  addi t1, t1, 4
  addi t3, t3, 4
  j 1b
2:
  add t2, tp, t0
3:
  bgeu t3, t2, 4f
  sw zero, 0(t3)
  addi t3, t3, 4
  j 3b
4:
  csrr a0, SIMTY_CSR_ARGS
  call main
  /* main's return value is the exit status, already in a0 */
  li a7, 93
  ecall
  .size _start, . - _start

  .section .text._exit, "ax"
  .globl _exit
  .type _exit, @function
_exit:
  li a7, 93
  ecall
  /* ecall never returns: the thread has ended. */
  .size _exit, . - _exit
