/* SPDX-License-Identifier: Apache-2.0 */
/* fault.h - harness for the fault kernels (RV32I assembly, via cpp).
 *
 * Every thread first stores tid + 1 to before[tid] (memory written before
 * a fault must survive it). Threads outside the last block of the launch
 * then end; the last block's lanes reach the faulting code with
 * s2 = 1 on "upper" lanes (lane >= L / 2, or the only lane when L = 1),
 * 0 on the others, and s3 = lane. The expected fault is therefore
 * reported for tid N - L + L // 2.
 */
#include "simty_arch.h"

  .option arch, +zicsr
  .option norvc

.macro FAULT_BEGIN
  .text
  .globl main
  .type main, @function
main:
  csrr s0, SIMTY_CSR_TID
  slli t0, s0, 2
  la t1, before
  add t1, t1, t0
  addi t2, s0, 1
  sw t2, 0(t1)
  csrr t0, SIMTY_CSR_NTHREADS
  csrr t1, SIMTY_CSR_LANES
  sub t0, t0, t1
  bltu s0, t0, fault_none       /* not in the last block */
  addi t2, t1, -1
  and s3, s0, t2                /* lane */
  srli t2, t1, 1
  sltu s2, s3, t2
  xori s2, s2, 1                /* upper lane */
.endm

/* a5 = &victim[lane] on the lower lanes, the bad address on the upper
 * ones: BAD_ADDR if defined, else &victim[lane] + BAD; a0 = 0x7777. */
.macro FAULT_ADDR
  la a5, victim
  slli t0, s3, 2
  add a5, a5, t0
  li a0, 0x7777
  beqz s2, 1f
#ifdef BAD_ADDR
  li a5, BAD_ADDR
#else
  addi a5, a5, BAD
#endif
1:
.endm

.macro FAULT_END
fault_none:
  li a0, 0
  ret
  .size main, . - main
  .bss
  .balign 256
  .globl before, victim
before:
  .space 4 * 1024
victim:
  .space 4 * 1024
  .text
.endm
