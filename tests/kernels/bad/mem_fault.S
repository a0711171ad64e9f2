/* SPDX-License-Identifier: Apache-2.0 */
// mem_fault - loads and stores with a bad address on the upper lanes of
// the last block: the fault names the cause, the instruction, the lowest
// bad lane and its address; alignment is checked before range; no lane of
// the faulting instruction touches memory (victim stays zero).
// threads: W * L
// dump: before:N
// dump: victim:L
// expect-exit: 3
// expect: fault_pc == addr("bad")
// expect: fault_tid == N - L + L // 2 and fault_hart == fault_tid
// expect: before[fault_tid] == fault_tid + 1
// expect-all: l < L: victim[l] == 0
// run: misaligned-lw
// cflags: -DOP=lw -DBAD=2
// expect: fault_name == "misaligned_load" and fault_cause == 3
// expect: fault_addr == addr("victim") + 4 * (L // 2) + 2
// run: misaligned-lh
// cflags: -DOP=lh -DBAD=1
// expect: fault_name == "misaligned_load" and fault_cause == 3
// expect: fault_addr == addr("victim") + 4 * (L // 2) + 1
// run: misaligned-lhu
// cflags: -DOP=lhu -DBAD=3
// expect: fault_name == "misaligned_load" and fault_cause == 3
// expect: fault_addr == addr("victim") + 4 * (L // 2) + 3
// run: misaligned-sw
// cflags: -DOP=sw -DBAD=1
// expect: fault_name == "misaligned_store" and fault_cause == 4
// expect: fault_addr == addr("victim") + 4 * (L // 2) + 1
// run: misaligned-sh
// cflags: -DOP=sh -DBAD=3
// expect: fault_name == "misaligned_store" and fault_cause == 4
// expect: fault_addr == addr("victim") + 4 * (L // 2) + 3
// run: load-past-data
// cflags: -DOP=lw -DBAD_ADDR=SIMTY_DATA_BASE+0x100000
// expect: fault_name == "load_out_of_range" and fault_cause == 6
// expect: fault_addr == DATA_BASE + DATA_SIZE
// run: load-from-code
// cflags: -DOP=lw -DBAD_ADDR=SIMTY_CODE_BASE
// expect: fault_name == "load_out_of_range" and fault_cause == 6
// expect: fault_addr == CODE_BASE
// run: load-from-console
// cflags: -DOP=lbu -DBAD_ADDR=SIMTY_CONSOLE_ADDR
// expect: fault_name == "load_out_of_range" and fault_cause == 6
// expect: fault_addr == CONSOLE
// run: load-null
// cflags: -DOP=lw -DBAD_ADDR=0
// expect: fault_name == "load_out_of_range" and fault_cause == 6
// expect: fault_addr == 0
// run: store-to-code
// cflags: -DOP=sw -DBAD_ADDR=SIMTY_CODE_BASE+0x100
// expect: fault_name == "store_out_of_range" and fault_cause == 7
// expect: fault_addr == CODE_BASE + 0x100
// run: store-past-data
// cflags: -DOP=sb -DBAD_ADDR=SIMTY_DATA_BASE+0x100000
// expect: fault_name == "store_out_of_range" and fault_cause == 7
// expect: fault_addr == DATA_BASE + DATA_SIZE
// run: store-past-small-data
// data-size: 512 * 1024
// stack-log2: 6
// cflags: -DOP=sw -DBAD_ADDR=SIMTY_DATA_BASE+0x80000
// expect: fault_name == "store_out_of_range" and fault_cause == 7
// expect: fault_addr == DATA_BASE + DATA_SIZE
// run: misaligned-and-out-of-range
// cflags: -DOP=lw -DBAD_ADDR=SIMTY_DATA_BASE+0x100002
// expect: fault_name == "misaligned_load" and fault_cause == 3
// expect: fault_addr == DATA_BASE + DATA_SIZE + 2
#include "fault.h"

  FAULT_BEGIN
  FAULT_ADDR  /* lower lanes: &victim[lane], valid; upper lanes: bad */
  .globl bad
bad:
  OP a0, 0(a5)
  j fault_none
  FAULT_END
