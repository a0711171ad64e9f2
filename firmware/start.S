/* SPDX-License-Identifier: Apache-2.0 */
/* start.S - controller reset entry: stack, gp, zeroed .bss, then main.
 *
 * The whole image (code and initialised data) is loaded into the FW RAM
 * by the bitstream ($readmemh), so there is no .data to copy. */

  .section .text.start, "ax"
  .globl _start
  .type _start, @function
_start:
  .option push
  .option norelax
  la gp, __global_pointer$
  .option pop
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
  /* main never returns; if it did, stop here rather than run off. */
3:
  j 3b
  .size _start, . - _start
