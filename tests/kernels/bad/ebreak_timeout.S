/* SPDX-License-Identifier: Apache-2.0 */
// ebreak_timeout - ebreak faults (cause 8, addr 0) at its pc; a launch that
// runs past --max-cycles ends with a timeout fault.
// threads: W * L
// dump: before:N
// expect-exit: 3
// expect: before[N - 1] == N
// run: ebreak
// cflags: -DCASE=1
// expect: fault_name == "ebreak" and fault_cause == 8
// expect: fault_pc == addr("bad") and fault_addr == 0
// expect: fault_tid == N - L + L // 2 and fault_hart == fault_tid
// run: timeout
// cflags: -DCASE=2
// max-cycles: 20000
// expect: fault_name == "timeout" and fault_cause == 9
// The counters cover the launch up to the limit:
// expect: cycles >= 20000 and warp_insts > 0
#include "fault.h"

  FAULT_BEGIN
  beqz s2, fault_none
  .globl bad
#if CASE == 1
bad:
  ebreak
#else
bad:
  j bad
#endif
  j fault_none
  FAULT_END
