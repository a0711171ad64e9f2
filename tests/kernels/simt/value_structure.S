/* SPDX-License-Identifier: Apache-2.0 */
// value_structure - uniform and affine register vectors: 100 instructions
// that write the same value on every lane, 100 that write tid + 5 (affine,
// stride 1) and 100 that write tid ^ 5 (neither, with 3 or more lanes; any
// two values are affine). Everything else the kernel runs (crt0, this
// harness) is fewer than 64 instructions per block, so each counter lies in
// a window that the 100 known instructions decide.
// dump: out:N
// expect-all: i < N: out[i] == ((i + 5) ^ (i ^ 5)) + L
// expect: uniform_vectors >= 100 * B2 and uniform_vectors < (100 + 64) * B2 + 1
// expect: affine_vectors >= 100 * B2 + 100 * B2_PAIR
// expect: affine_vectors < (100 + 64) * B2 + 100 * B2_PAIR + 1
// (B2: blocks of 2 or more lanes; B2_PAIR: blocks of exactly 2 lanes.)
// expect: B2 == 0 or warp_insts >= 300 * BLOCKS
// run: one-wave
// run: waves
// threads: min(2 * W * L + 2, 1024 - L)
#include "simty_arch.h"

  .option arch, +zicsr
  .text
  .globl main
  .type main, @function
main:
  csrr s0, SIMTY_CSR_TID
  csrr a1, SIMTY_CSR_LANES
  .rept 100
  addi a2, a1, 0                /* uniform */
  .endr
  .rept 100
  addi a3, s0, 5                /* affine, stride 1 */
  .endr
  .rept 100
  xori a4, s0, 5                /* tid ^ 5 */
  .endr
  xor a5, a3, a4
  add a5, a5, a2
  la t0, out
  slli t1, s0, 2
  add t0, t0, t1
  sw a5, 0(t0)
  li a0, 0
  ret
  .size main, . - main

  .bss
  .balign 256
  .globl out
out:
  .space 4 * 1024
