/* SPDX-License-Identifier: Apache-2.0 */
// csr - every Simty CSR read through all four csrr forms; the runner checks
// the values against the launch (ids, counts, args, stack layout, sp).
// args: argblock
// dump: out:16 * N
// dump: result:N
// dump: done:N + L
// expect-all: i < N: result[i] == 0 and done[i] == 1
// expect-all: i < L: done[N + i] == 0
// expect-all: i < N: out[16 * i + 1] == i and out[16 * i + 2] == N
// expect-all: i < N: out[16 * i + 3] == L and out[16 * i + 4] == W
// expect-all: i < N: u32(out[16 * i + 5]) == addr("argblock")
// expect-all: i < N: u32(out[16 * i + 6]) == STACK_TOP and out[16 * i + 7] == S
// expect-all: i < N: out[16 * i] % L == i % L and 0 <= out[16 * i] < W * L
// expect-all: i < min(N, W * L): out[16 * i] == i
// expect-all: i < N: u32(out[16 * i + 8]) ==
//     (STACK_TOP - (out[16 * i] << S) - addr("__tls_size")) & ~15
// expect-all: i < N: u32(out[16 * i + 9]) == addr("argblock")
// run: default
// run: waves-stack12
// threads: min(2 * W * L + 3, 1024 - L)
// stack-log2: min(12, 19 - log2(W * L))
// run: small-data
// data-size: 256 * 1024
// stack-log2: 6
// run: partial
// threads: max(1, W * L - L // 2 - 1)
#include "isa.h"

/* Read CSR \csr through csrrs/csrrc with x0 and csrrsi/csrrci with 0;
 * all four must agree. Store the value at out[16 * tid + \slot]. */
.macro READ_CSR slot, csr
  csrrs a0, \csr, x0
  csrrc a1, \csr, x0
  CHECK_EQ a0, a1
  csrrsi a1, \csr, 0
  CHECK_EQ a0, a1
  csrrci a1, \csr, 0
  CHECK_EQ a0, a1
  sw a0, 4 * \slot(a5)
.endm

  .text
  .globl main
  .type main, @function
main:
  mv s11, ra
  mv s10, sp                   /* sp and a0 as crt0 left them */
  mv s9, a0
  csrr s0, SIMTY_CSR_TID
  slli a5, s0, 6
  la t0, out
  add a5, a5, t0
  li s1, 1
  READ_CSR 0, SIMTY_CSR_MHARTID
  li s1, 2
  READ_CSR 1, SIMTY_CSR_TID
  li s1, 3
  READ_CSR 2, SIMTY_CSR_NTHREADS
  li s1, 4
  READ_CSR 3, SIMTY_CSR_LANES
  li s1, 5
  READ_CSR 4, SIMTY_CSR_WARPS
  li s1, 6
  READ_CSR 5, SIMTY_CSR_ARGS
  li s1, 7
  READ_CSR 6, SIMTY_CSR_STACK_TOP
  li s1, 8
  READ_CSR 7, SIMTY_CSR_STACK_LOG2
  sw s10, 32(a5)
  sw s9, 36(a5)
  /* the stack is usable: push and pop a tid-dependent word */
  li s1, 9
  addi sp, sp, -16
  sw s0, 12(sp)
  lw t1, 12(sp)
  addi sp, sp, 16
  CHECK_EQ t1, s0
  /* crt0 passed the argument pointer in a0 */
  li s1, 10
  la t1, argblock
  CHECK_EQ s9, t1
  ISA_END

  .data
  .balign 16
  .globl argblock
argblock:
  .word 1, 2, 3, 4
  .bss
  .balign 64
out:
  .space 64 * ISA_MAX_THREADS
