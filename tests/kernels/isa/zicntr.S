/* SPDX-License-Identifier: Apache-2.0 */
// zicntr - the Zicntr counters: instret counts exactly the instructions
// each thread retired (replays and divergence not included), cycle and
// time grow, the high halves of a short launch are 0.
// isa: rv32i_zicntr
// dump: result:N + L
// dump: done:N + L
// expect-all: i < N: result[i] == 0 and done[i] == 1
// expect-all: i < L: result[N + i] == 0 and done[N + i] == 0
// run: one-wave
// threads: W * L
// run: waves
// threads: min(3 * W * L + L // 2 + 1, 1024 - L)
#include "isa.h"

  ISA_BEGIN
  /* 1: two reads around two instructions differ by 3 (the first read
   * retires too) */
  li s1, 1
  csrr a0, SIMTY_CSR_INSTRET
  nop
  nop
  csrr a1, SIMTY_CSR_INSTRET
  sub a2, a1, a0
  li a3, 3
  CHECK_EQ a2, a3
  /* 2: a loop of tid % 4 trips (divergent across lanes): 3k + 3 */
  li s1, 2
  csrr a0, SIMTY_CSR_INSTRET
  andi t0, s0, 3
1:
  beqz t0, 2f
  addi t0, t0, -1
  j 1b
2:
  csrr a1, SIMTY_CSR_INSTRET
  sub a2, a1, a0
  andi t0, s0, 3
  slli a3, t0, 1
  add a3, a3, t0
  addi a3, a3, 3
  CHECK_EQ a2, a3
  /* 3: a scattered load (replayed per lane) retires once: 2 */
  li s1, 3
  la t1, spread
  slli t0, s0, 6
  andi t0, t0, 0x3c0
  add t1, t1, t0
  csrr a0, SIMTY_CSR_INSTRET
  lw t2, 0(t1)
  csrr a1, SIMTY_CSR_INSTRET
  sub a2, a1, a0
  li a3, 2
  CHECK_EQ a2, a3
  /* 4: cycle grows between two reads */
  li s1, 4
  csrr a0, SIMTY_CSR_CYCLE
  csrr a1, SIMTY_CSR_CYCLE
  bgeu a0, a1, isa_fail
  /* 5: time runs from before the launch: after a cycle read, it is
   * larger */
  li s1, 5
  csrr a0, SIMTY_CSR_CYCLE
  csrr a1, SIMTY_CSR_TIME
  bgeu a0, a1, isa_fail
  /* 6: high halves of a short launch */
  li s1, 6
  csrr a0, SIMTY_CSR_CYCLEH
  CHECK_EQ a0, zero
  csrr a0, SIMTY_CSR_INSTRETH
  CHECK_EQ a0, zero
  /* 7: every csrr form reads the counters (rs1 = x0 / uimm = 0) */
  li s1, 7
  csrrc a0, SIMTY_CSR_INSTRET, x0
  csrrsi a1, SIMTY_CSR_INSTRET, 0
  sub a2, a1, a0
  li a3, 1
  CHECK_EQ a2, a3
  ISA_END

  .bss
  .balign 64
spread:
  .space 1024
