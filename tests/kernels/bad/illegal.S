/* SPDX-License-Identifier: Apache-2.0 */
// illegal - encodings outside Simty's ISA fault as illegal_instruction with
// the instruction word as addr, at the instruction's pc, for the lowest
// lane that executes it; memory written before the fault stays.
// threads: W * L
// dump: before:N
// expect-exit: 3
// expect: fault_name == "illegal_instruction" and fault_cause == 1
// expect: fault_pc == addr("bad") and fault_addr == word(addr("bad"))
// expect: fault_tid == N - L + L // 2 and fault_hart == fault_tid
// expect: before[fault_tid] == fault_tid + 1
// run: csrrw
// cflags: -DCASE=1
// run: csrrs-write
// cflags: -DCASE=2
// run: csrrsi-write
// cflags: -DCASE=3
// run: unknown-csr
// cflags: -DCASE=4
// run: cycle-csr
// cflags: -DCASE=5
// isa-without: zicntr
// run: mret
// cflags: -DCASE=6
// run: wfi
// cflags: -DCASE=7
// run: mul
// cflags: -DCASE=8
// isa-without: m
// run: zero-word
// cflags: -DCASE=9
// run: compressed
// cflags: -DCASE=10
// run: csrrwi
// cflags: -DCASE=11
// run: csrrc-write
// cflags: -DCASE=12
// run: amo
// cflags: -DCASE=13
// isa-without: a
// run: lr-with-rs2
// cflags: -DCASE=14
// run: amo-doubleword
// cflags: -DCASE=15
#include "fault.h"

  FAULT_BEGIN
  beqz s2, fault_none
  li t3, 5
  .globl bad
bad:
#if CASE == 1
  csrrw a0, SIMTY_CSR_TID, x0
#elif CASE == 2
  csrrs a0, SIMTY_CSR_TID, t3
#elif CASE == 3
  csrrsi a0, SIMTY_CSR_LANES, 1
#elif CASE == 4
  csrr a0, 0x300                /* mstatus: not a Simty CSR */
#elif CASE == 5
  csrr a0, 0xc00                /* cycle: not a Simty CSR */
#elif CASE == 6
  mret
#elif CASE == 7
  wfi
#elif CASE == 8
  .word 0x02c58533              /* mul a0, a1, a2 (M extension) */
#elif CASE == 9
  .word 0x00000000
#elif CASE == 10
  .word 0x00010001              /* two c.nop halfwords */
#elif CASE == 11
  csrrwi a0, SIMTY_CSR_TID, 0
#elif CASE == 12
  csrrc a0, SIMTY_CSR_TID, t3
#elif CASE == 13
  .word 0x00c5a52f              /* amoadd.w a0, a2, (a1) (A extension) */
#elif CASE == 14
  .word 0x10c5a52f              /* lr.w a0, (a1) with rs2 = a2: never legal */
#elif CASE == 15
  .word 0x00c5b52f              /* amoadd.d a0, a2, (a1): RV64 only */
#endif
  j fault_none
  FAULT_END
