/* SPDX-License-Identifier: Apache-2.0 */
// amo_fault - atomics with a bad address on the upper lanes of the last
// block (docs/architecture.md section 3, "Atomic memory operations"):
// lr.w faults as a load, sc.w and the AMOs as stores; CONSOLE is out of
// range for every atomic; another thread's stack faults stack_overflow.
// No lane of the faulting instruction touches memory (victim stays zero).
// isa: rv32ia
// threads: W * L
// dump: before:N
// dump: victim:L
// expect-exit: 3
// expect: fault_pc == addr("bad")
// expect: fault_tid == N - L + L // 2 and fault_hart == fault_tid
// expect: before[fault_tid] == fault_tid + 1
// expect-all: l < L: victim[l] == 0
// run: misaligned-amoadd
// cflags: -DOP=amoadd.w -DBAD=2
// expect: fault_name == "misaligned_store" and fault_cause == 4
// expect: fault_addr == addr("victim") + 4 * (L // 2) + 2
// run: misaligned-sc
// cflags: -DOP=sc.w -DBAD=1
// expect: fault_name == "misaligned_store" and fault_cause == 4
// expect: fault_addr == addr("victim") + 4 * (L // 2) + 1
// run: misaligned-lr
// cflags: -DLR -DBAD=2
// expect: fault_name == "misaligned_load" and fault_cause == 3
// expect: fault_addr == addr("victim") + 4 * (L // 2) + 2
// run: amo-console
// cflags: -DOP=amoswap.w -DBAD_ADDR=SIMTY_CONSOLE_ADDR
// expect: fault_name == "store_out_of_range" and fault_cause == 7
// expect: fault_addr == CONSOLE
// run: lr-console
// cflags: -DLR -DBAD_ADDR=SIMTY_CONSOLE_ADDR
// expect: fault_name == "load_out_of_range" and fault_cause == 6
// expect: fault_addr == CONSOLE
// run: amo-past-data
// cflags: -DOP=amoor.w -DBAD_ADDR=SIMTY_DATA_BASE+0x100000
// expect: fault_name == "store_out_of_range" and fault_cause == 7
// expect: fault_addr == DATA_BASE + DATA_SIZE
// run: lr-from-code
// cflags: -DLR -DBAD_ADDR=SIMTY_CODE_BASE
// expect: fault_name == "load_out_of_range" and fault_cause == 6
// expect: fault_addr == CODE_BASE
// run: misaligned-and-out-of-range
// cflags: -DOP=amomaxu.w -DBAD_ADDR=SIMTY_DATA_BASE+0x100002
// expect: fault_name == "misaligned_store" and fault_cause == 4
// expect: fault_addr == DATA_BASE + DATA_SIZE + 2
#include "fault.h"

  FAULT_BEGIN
  FAULT_ADDR  /* lower lanes: &victim[lane], valid; upper lanes: bad */
  .globl bad
bad:
#ifdef LR
  lr.w a0, (a5)
#else
  OP a0, a0, (a5)
#endif
  j fault_none
  FAULT_END
