/* SPDX-License-Identifier: Apache-2.0 */
// fetch_fault - jumps and branches to bad targets: misaligned targets fault
// at the jump (misaligned_fetch, addr = target), targets outside the
// populated CODE fault as fetch_out_of_range (addr = target). A not-taken
// branch with a misaligned target does not fault.
// threads: W * L
// dump: before:N
// expect-exit: 3
// expect: fault_tid == N - L + L // 2 and fault_hart == fault_tid
// expect: before[fault_tid] == fault_tid + 1
// run: jalr-misaligned
// cflags: -DCASE=1
// expect: fault_name == "misaligned_fetch" and fault_cause == 2
// expect: fault_pc == addr("bad") and fault_addr == addr("target") + 2
// run: jal-misaligned
// cflags: -DCASE=2
// expect: fault_name == "misaligned_fetch" and fault_cause == 2
// expect: fault_pc == addr("bad") and fault_addr == addr("bad") + 2
// run: branch-misaligned
// cflags: -DCASE=3
// expect: fault_name == "misaligned_fetch" and fault_cause == 2
// expect: fault_pc == addr("bad") and fault_addr == addr("bad") + 6
// run: jump-to-data
// The fetch of the target faults; pc is that fetch address (the
// instruction that could not be fetched).
// cflags: -DCASE=4
// expect: fault_name == "fetch_out_of_range" and fault_cause == 5
// expect: fault_addr == addr("before") and fault_pc == fault_addr
// run: jump-past-code
// code-size: 16 * 1024
// cflags: -DCASE=5
// expect: fault_name == "fetch_out_of_range" and fault_cause == 5
// expect: fault_addr == CODE_BASE + CODE_SIZE and fault_pc == fault_addr
#include "fault.h"

  FAULT_BEGIN
  beqz s2, fault_none
  .word 0x00001363              /* bne x0, x0, . + 6: never taken */
  la t0, target
  .globl bad
#if CASE == 1
bad:
  jalr ra, 2(t0)
#elif CASE == 2
bad:
  .word 0x0020006f              /* jal x0, . + 2 */
#elif CASE == 3
bad:
  .word 0x00000363              /* beq x0, x0, . + 6 */
#elif CASE == 4
  la t0, before
bad:
  jr t0
#elif CASE == 5
  li t0, SIMTY_CODE_BASE + 16 * 1024
bad:
  jr t0
#endif
  j fault_none
target:
  j fault_none
  FAULT_END
